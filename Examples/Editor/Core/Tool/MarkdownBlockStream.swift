/// Cuts Markdown that arrives in pieces into finished blocks: a block is
/// finished at the blank line after it (outside a fenced code block, whose
/// blank lines are its own), or when the stream ends.
///
/// A piece may end anywhere, even inside a UTF-8 character: only whole
/// lines are looked at (a line feed never occurs inside a character).
public struct MarkdownBlockStream: Sendable {
  /// The bytes after the last whole line.
  private var partial: [UInt8] = []
  /// The whole lines of the block being read.
  private var lines: [[UInt8]] = []
  /// The open fence: its character and length.
  private var fence: (character: UInt8, count: Int)? = nil

  /// A stream with nothing read.
  public init() {}

  /// Reads `bytes`; returns the blocks they finished, in order.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [String] {
    var finished: [String] = []
    for byte in bytes {
      partial.append(byte)
      guard byte == 0x0A else { continue }
      let line = partial
      partial = []
      if let block = take(line) { finished.append(block) }
    }
    return finished
  }

  /// The end of the stream: the last block, if any.
  public mutating func finish() -> [String] {
    var finished: [String] = []
    if !partial.isEmpty {
      let line = partial
      partial = []
      if let block = take(line) { finished.append(block) }
    }
    if let block = flush() { finished.append(block) }
    return finished
  }

  /// Takes one line; returns the block a blank line finished.
  private mutating func take(_ line: [UInt8]) -> String? {
    if let open = fence {
      lines.append(line)
      if Self.fence(of: line).map({ $0.character == open.character && $0.count >= open.count })
        == true, Self.isBare(line, fence: open.character)
      {
        fence = nil
      }
      return nil
    }
    if Self.isBlank(line) { return flush() }
    if let opening = Self.fence(of: line) { fence = opening }
    lines.append(line)
    return nil
  }

  /// The block read so far, without its last line break.
  private mutating func flush() -> String? {
    guard !lines.isEmpty else { return nil }
    var bytes = lines.flatMap { $0 }
    lines = []
    fence = nil
    while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func isBlank(_ line: [UInt8]) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
  }

  /// The fence a line opens or closes: up to three spaces, then three or
  /// more backticks or tildes.
  static func fence(of line: [UInt8]) -> (character: UInt8, count: Int)? {
    var i = 0
    while i < line.count && i < 3 && line[i] == 0x20 { i += 1 }
    guard i < line.count, line[i] == 0x60 || line[i] == 0x7E else { return nil }
    let character = line[i]
    var count = 0
    while i < line.count && line[i] == character {
      count += 1
      i += 1
    }
    return count >= 3 ? (character, count) : nil
  }

  /// Whether a fence line has nothing after its fence (a closing fence).
  static func isBare(_ line: [UInt8], fence character: UInt8) -> Bool {
    line.allSatisfy { $0 == character || $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
  }
}
