#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte source into lines, as bytes (so that a line that is not
/// UTF-8 can be answered, not repaired), in time linear in the input.
///
/// A line ends at `\n`, and a `\r` before the `\n` is dropped. The last
/// line needs no `\n` (and is then returned as it is). A line longer than `maxLineBytes` (not
/// counting its `\r\n` or `\n`) is not kept: the reader skips it to its
/// newline, holding at most `maxLineBytes` plus one read of it, and answers
/// ``Line/tooLong(byteCount:limit:)`` in its place, so that a caller can
/// answer it and go on with the next line.
///
/// ```swift
/// var reader = LineReader.standardInput()
/// while let line = reader.next() { … }
/// ```
public struct LineReader {
  /// One line of the input.
  public enum Line: Equatable, Sendable {
    /// A line's bytes, without its `\n` or `\r\n`.
    case line([UInt8])
    /// A line of `byteCount` bytes (without its `\n` or `\r\n`) that was
    /// over the `limit` and was skipped.
    case tooLong(byteCount: Int, limit: Int)
  }

  /// The default line length limit: 64 MiB, room for a storage's whole text
  /// in one `add` request while bounding what one line can make the reader
  /// hold.
  public static let defaultMaxLineBytes = 64 << 20

  /// How much the reader asks its source for at a time.
  static let readSize = 1 << 16

  /// The longest line returned whole, in bytes.
  public let maxLineBytes: Int

  private let read: (UnsafeMutableRawBufferPointer) -> Int
  /// Bytes read and not yet returned start at `start`.
  private var buffer: [UInt8] = []
  private var start = 0
  /// No newline in `buffer[start..<scanned]`: the next search starts here.
  private var scanned = 0
  /// While skipping a line that is too long: its bytes so far.
  private var skipped: Int? = nil
  private var atEnd = false
  /// Where each read goes, before its bytes join `buffer`.
  private var chunk = [UInt8](repeating: 0, count: LineReader.readSize)

  /// A reader of the bytes that `read` gives.
  ///
  /// - Parameters:
  ///   - maxLineBytes: the longest line returned whole (negative counts as
  ///     0); longer ones are skipped and reported as
  ///     ``Line/tooLong(byteCount:limit:)``.
  ///   - read: fills a prefix of the buffer it is given and returns how many
  ///     bytes it wrote; 0 (or a negative number, an error) is the end of
  ///     the input, and `read` is not called again.
  public init(
    maxLineBytes: Int = LineReader.defaultMaxLineBytes,
    read: @escaping (UnsafeMutableRawBufferPointer) -> Int
  ) {
    self.maxLineBytes = max(0, maxLineBytes)
    self.read = read
  }

  /// A reader of standard input (file descriptor 0); an interrupted read is
  /// retried, any other error ends the input.
  public static func standardInput(maxLineBytes: Int = LineReader.defaultMaxLineBytes)
    -> LineReader
  {
    LineReader(maxLineBytes: maxLineBytes) { buffer in readStandardInput(buffer) }
  }

  /// A reader of the bytes of `bytes` (for tests and fuzzers), which gives
  /// them at most `chunkSize` at a time.
  public static func reading(
    _ bytes: [UInt8], maxLineBytes: Int = LineReader.defaultMaxLineBytes,
    chunkSize: Int = 1 << 16
  ) -> LineReader {
    var offset = 0
    return LineReader(maxLineBytes: maxLineBytes) { buffer in
      let count = min(buffer.count, max(1, chunkSize), bytes.count - offset)
      guard count > 0 else { return 0 }
      bytes.withUnsafeBytes { source in
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
      }
      offset += count
      return count
    }
  }

  /// The next line, or nil at the end of the input.
  ///
  /// - Complexity: amortized O(the bytes read): each byte is searched for a
  ///   newline once and moved at most once more.
  public mutating func next() -> Line? {
    while true {
      if let newline = firstNewline() {
        var end = newline
        if end > start && buffer[end - 1] == 0x0D { end -= 1 }
        let line = takeLine(endingAt: end)
        start = newline + 1
        scanned = start
        return line
      }
      scanned = buffer.count
      // A pending `\r` may yet be dropped: a line is too long for certain
      // once it is over the limit by two bytes.
      if skipped == nil && buffer.count - start - 1 > maxLineBytes {
        skipped = 0
      }
      if let count = skipped {
        // Keep a last `\r`: it may come before the newline.
        let keep = buffer.last == 0x0D ? 1 : 0
        skipped = count + (buffer.count - start - keep)
        start = buffer.count - keep
      }
      if atEnd {
        guard start < buffer.count || skipped != nil else { return nil }
        let line = takeLine(endingAt: buffer.count)
        buffer.removeAll()
        start = 0
        scanned = 0
        return line
      }
      fill()
    }
  }

  /// The line `buffer[start..<end]`, or the marker of a line too long (with
  /// the bytes of it already skipped).
  private mutating func takeLine(endingAt end: Int) -> Line {
    if let skipped {
      self.skipped = nil
      return .tooLong(byteCount: skipped + (end - start), limit: maxLineBytes)
    }
    if end - start > maxLineBytes { return .tooLong(byteCount: end - start, limit: maxLineBytes) }
    return .line(Array(buffer[start..<end]))
  }

  /// The index of the first `\n` in `buffer[scanned...]`.
  private func firstNewline() -> Int? {
    guard scanned < buffer.count else { return nil }
    return buffer.withUnsafeBytes { bytes in
      let base = bytes.baseAddress.map { $0 + scanned }
      guard let base, let found = memchr(base, 0x0A, bytes.count - scanned) else { return nil }
      return scanned + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
    }
  }

  /// Reads once more into the buffer, first dropping what was returned if
  /// that is at least half of it.
  private mutating func fill() {
    if start > 0 && start >= buffer.count - start {
      buffer.removeSubrange(0..<start)
      scanned -= start
      start = 0
    }
    let count = chunk.withUnsafeMutableBytes { read($0) }
    if count <= 0 {
      atEnd = true
    } else {
      buffer.append(contentsOf: chunk[..<min(count, chunk.count)])
    }
  }
}

/// One `read(2)` of standard input; an interrupted read is retried.
private func readStandardInput(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
  while true {
    let count = read(0, buffer.baseAddress, buffer.count)
    if count < 0 && errno == EINTR { continue }
    return count
  }
}
