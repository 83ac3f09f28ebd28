/// The fuzzer's bytes read as a stream of small decisions. Past the end
/// every read answers zero, so a decoder never fails: a short input is a
/// short program.
public struct FuzzInput {
  private let bytes: [UInt8]
  /// How many bytes were read.
  public private(set) var position = 0

  /// Reads `size` bytes at `data` (copied: the input outlives the call).
  public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
    self.bytes = Array(UnsafeBufferPointer(start: data, count: size))
  }

  /// Reads `bytes`.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether every byte was read.
  public var isExhausted: Bool { position >= bytes.count }

  /// The bytes not read yet.
  public var remaining: Int { max(0, bytes.count - position) }

  /// The next byte (0 past the end).
  public mutating func byte() -> UInt8 {
    guard position < bytes.count else {
      position += 1
      return 0
    }
    defer { position += 1 }
    return bytes[position]
  }

  /// A coin.
  public mutating func bool() -> Bool { byte() & 1 == 1 }

  /// A number in `0..<n` (`n` > 0): one byte for n <= 256 (even for n = 1,
  /// so that what follows does not shift with n), two up to 65,536, four
  /// beyond.
  public mutating func int(below n: Int) -> Int {
    precondition(n > 0, "int(below:) needs a positive bound")
    if n <= 256 { return Int(byte()) % n }
    if n <= 65_536 { return (Int(byte()) << 8 | Int(byte())) % n }
    var value: UInt64 = 0
    for _ in 0..<4 { value = value << 8 | UInt64(byte()) }
    return Int(value % UInt64(n))
  }

  /// One of `items` (non-empty).
  public mutating func pick<T>(_ items: [T]) -> T { items[int(below: items.count)] }

  /// Up to `limit` raw bytes.
  public mutating func rawBytes(upTo limit: Int) -> [UInt8] {
    let n = int(below: limit + 1)
    return (0..<n).map { _ in byte() }
  }

  /// Offsets no text has: the extremes and the 32-bit edges.
  public static let extremeOffsets: [Int] = [
    Int.min, Int.min + 1, -(1 << 32), Int(Int32.min), -65_536, Int(Int32.max),
    Int(Int32.max) + 1, Int(UInt32.max), Int(UInt32.max) + 1, 1 << 62, Int.max - 1, Int.max,
  ]

  /// An offset for a text of `length` units, mostly valid but often
  /// hostile: `interesting` offsets (inside a surrogate pair, between CR and
  /// LF, …), the ends, just outside them, far outside, and the extremes.
  public mutating func offset(length: Int, interesting: [Int] = []) -> Int {
    let kind = byte() % 16
    switch kind {
    case 0..<8: return int(below: length + 1)
    case 8, 9: return interesting.isEmpty ? int(below: length + 1) : pick(interesting)
    case 10: return length
    case 11: return 0
    case 12: return -1 - Int(byte())
    case 13: return length + 1 + Int(byte())
    case 14: return length &+ (Int(byte()) << 24)
    default: return pick(Self.extremeOffsets)
    }
  }

  /// A range for a text of `length` units, built from two offsets as
  /// ``offset(length:interesting:)`` chooses them (ordered, since a `Range`
  /// cannot be inverted), or from one and a short length.
  public mutating func range(length: Int, interesting: [Int] = []) -> Range<Int> {
    let a = offset(length: length, interesting: interesting)
    if bool() {
      let n = int(below: 9)
      return a > Int.max - n ? a..<Int.max : a..<(a + n)
    }
    let b = offset(length: length, interesting: interesting)
    return min(a, b)..<max(a, b)
  }

  /// Pieces of text that exercise what the engine distinguishes: 1- to
  /// 4-byte scalars, every paragraph separator and the line breaks that are
  /// not, combining marks, emoji ZWJ and modifier sequences, flags and lone
  /// regional indicators, tag sequences, Hangul jamo, Indic and Thai
  /// clusters, format characters, noncharacters and the replacement
  /// character.
  public static let pieces: [String] = [
    "a", "b", " ", "\n", "\r", "\r\n", "\u{2029}", "\u{2028}", "\u{85}", "\u{0B}", "\u{0C}",
    "\t", "é", "e\u{301}", "a\u{301}\u{302}\u{303}\u{304}", "\u{301}", "ß", "€", "中",
    "😀", "👍🏽", "👨‍👩‍👧‍👦", "👩🏽‍💻", "❤️", "🇫🇷", "🇯🇵", "🇫", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "𝄞",
    "\u{200D}", "\u{FE0F}", "\u{1F3FD}", "\u{1100}\u{1161}\u{11A8}", "\u{AC00}", "\u{11A8}",
    "ก", "\u{E33}", "क्‍ष", "\u{94D}", "\u{0}", "\u{FFFD}", "\u{FEFF}", "\u{10FFFF}",
    "\u{E000}", "\u{1F1E6}", "\r\r\n", "\u{2029}\n", "\n\r",
  ]

  /// Text of up to `maxPieces` pieces: mostly ``pieces``, else an ASCII
  /// character or any scalar.
  public mutating func text(maxPieces: Int) -> String {
    var s = ""
    for _ in 0..<int(below: maxPieces + 1) {
      let b = Int(byte())
      if b < Self.pieces.count {
        s += Self.pieces[b]
      } else if b < 0xC0 {
        s.unicodeScalars.append(Unicode.Scalar(UInt8(0x20 + b % 0x5F)))
      } else {
        s.unicodeScalars.append(scalar())
      }
    }
    return s
  }

  /// Any scalar, from three bytes.
  public mutating func scalar() -> Unicode.Scalar {
    let value = (UInt32(byte()) << 16 | UInt32(byte()) << 8 | UInt32(byte())) % 0x11_0000
    return Unicode.Scalar(value) ?? "\u{FFFD}"
  }

  /// UTF-8 bytes that are often invalid: raw bytes, valid text, or valid
  /// text with a broken sequence put in (a stray continuation byte, a
  /// truncated sequence, an overlong form, an encoded surrogate, a scalar
  /// past U+10FFFF, a byte that never occurs).
  public mutating func maybeInvalidUTF8(maxPieces: Int) -> [UInt8] {
    switch byte() % 4 {
    case 0:
      return rawBytes(upTo: maxPieces * 2)
    case 1:
      return Array(text(maxPieces: maxPieces).utf8)
    default:
      var bytes = Array(text(maxPieces: maxPieces).utf8)
      let bad: [[UInt8]] = [
        [0x80], [0xBF], [0xC3], [0xE2, 0x80], [0xF0, 0x9F, 0x98], [0xC0, 0x80], [0xC1, 0xBF],
        [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
        [0xF5], [0xFF], [0xFE], [0xF8, 0x88, 0x80, 0x80, 0x80],
      ]
      let at = int(below: bytes.count + 1)
      bytes.insert(contentsOf: pick(bad), at: at)
      return bytes
    }
  }
}

/// Stops the run with a message if `condition` is false: an oracle failed.
/// libFuzzer saves the input that got here.
@inline(__always)
public func expect(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if !condition() { oracleFailed(message(), file: file, line: line) }
}

/// Stops the run with a message: an oracle failed.
public func oracleFailed(
  _ message: String, file: StaticString = #fileID, line: UInt = #line
) -> Never {
  fatalError("ORACLE FAILED: \(message)", file: file, line: line)
}

/// The offset of the first invalid sequence in `bytes` as UTF-8, or nil
/// if they are valid (computed with the standard library's parser).
public func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
  var parser = Unicode.UTF8.ForwardParser()
  var iterator = bytes.makeIterator()
  var offset = 0
  while true {
    switch parser.parseScalar(from: &iterator) {
    case .valid(let encoded): offset += encoded.count
    case .emptyInput: return nil
    case .error: return offset
    }
  }
}
