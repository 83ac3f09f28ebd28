/// A plain model of text for differential tests: an array of scalars, with
/// every coordinate computed the slow, obvious way.
public struct TextModel: Sendable, Equatable {
  public var scalars: [Unicode.Scalar]

  public init(_ string: String = "") {
    self.scalars = Array(string.unicodeScalars)
  }

  public var string: String {
    var s = String.UnicodeScalarView()
    s.append(contentsOf: scalars)
    return String(s)
  }

  public var utf8Count: Int { scalars.reduce(0) { $0 + UTF8.width($1) } }
  public var utf16Count: Int { scalars.reduce(0) { $0 + UTF16.width($1) } }

  /// The UTF-8 and UTF-16 offsets of the scalar boundary before scalar `i`.
  public func offsets(ofScalar i: Int) -> (utf8: Int, utf16: Int) {
    var u8 = 0
    var u16 = 0
    for s in scalars[..<i] {
      u8 += UTF8.width(s)
      u16 += UTF16.width(s)
    }
    return (u8, u16)
  }

  /// Every scalar boundary as (scalar, utf8, utf16) offsets, start and end
  /// included.
  public var boundaries: [(scalar: Int, utf8: Int, utf16: Int)] {
    var result = [(0, 0, 0)]
    var u8 = 0
    var u16 = 0
    for (i, s) in scalars.enumerated() {
      u8 += UTF8.width(s)
      u16 += UTF16.width(s)
      result.append((i + 1, u8, u16))
    }
    return result
  }

  /// Whether scalar `i` ends a paragraph separator (LF, CR not followed by
  /// LF, U+2029).
  public func endsSeparator(_ i: Int) -> Bool {
    switch scalars[i] {
    case "\n", "\u{2029}": return true
    case "\r": return i + 1 >= scalars.count || scalars[i + 1] != "\n"
    default: return false
    }
  }

  /// The number of paragraph separators ending at or before scalar offset
  /// `i`.
  public func paragraphNumber(atScalar i: Int) -> Int {
    (0..<i).filter { endsSeparator($0) }.count
  }

  public var separatorCount: Int { paragraphNumber(atScalar: scalars.count) }

  /// Replaces scalars `range`.
  public mutating func replace(_ range: Range<Int>, with text: String) {
    scalars.replaceSubrange(range, with: Array(text.unicodeScalars))
  }
}

/// Pieces of text that exercise every case the rope distinguishes: 1- to
/// 4-byte scalars, CR, LF, CR LF, U+2029 and the line breaks that are not
/// paragraph separators, combining marks, emoji ZWJ sequences and flags.
public let interestingPieces: [String] = [
  "a", "b", "Z", " ", "xyz", "\n", "\r", "\r\n", "\u{2029}", "\u{2028}", "\u{85}", "\u{0B}",
  "\u{0C}", "é", "e\u{301}", "ß", "€", "中文", "ก", "😀", "👨‍👩‍👧‍👦", "🇫🇷", "🇯🇵", "𝄞",
  "\u{E2}", "\u{2029}\n", "\r\r\n", "Ω", "\u{200D}",
]

extension RandomNumberGenerator {
  /// Random text of about `pieces` interesting pieces.
  public mutating func randomText(pieces: Int) -> String {
    var s = ""
    for _ in 0..<pieces {
      s += interestingPieces.randomElement(using: &self) ?? "a"
    }
    return s
  }
}
