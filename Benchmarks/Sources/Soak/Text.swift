import TextRope

/// A piece of text, in the two encodings the soak needs: UTF-8 to build the
/// ropes, UTF-16 for the models.
struct Piece: Sendable {
  let string: String
  let utf8: [UInt8]
  let utf16: [UInt16]

  init(_ string: String) {
    self.string = string
    utf8 = Array(string.utf8)
    utf16 = Array(string.utf16)
  }
}

/// The pieces random text is made of: ASCII words, and the Unicode that
/// breaks naive offset code.
enum Pieces {
  static let words: [Piece] = [
    "the", "a", "of", "and", "rope", "chunk", "tree", "offset", "version", "context", "edit",
    "replace", "undo", "tool", "peer", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
    "x", "I", "42", "3.14", "--", "(", ")", ",", ".", ";", "\"quoted\"", "tab\there",
  ].map(Piece.init)

  static let nasty: [Piece] = [
    // ZWJ sequences, skin tones, flags, keycaps, variation selectors.
    "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}",
    "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", "\u{1F44B}\u{1F3FD}", "\u{1F1EB}\u{1F1F7}",
    "\u{1F1EF}\u{1F1F5}\u{1F1FA}\u{1F1F8}", "1\u{FE0F}\u{20E3}", "\u{2764}\u{FE0F}",
    "\u{1F600}", "\u{1F9D1}\u{200D}\u{1F4BB}",
    // Combining marks, precomposed and decomposed, Indic, Hangul.
    "e\u{301}", "\u{E9}", "a\u{308}\u{323}", "\u{301}", "\u{915}\u{94D}\u{937}",
    "\u{D55C}", "\u{1100}\u{1161}\u{11A8}", "\u{FB01}",
    // Non-BMP letters and symbols.
    "\u{1D11E}", "\u{20000}", "\u{10348}", "\u{1F4A9}\u{1F4A9}",
    // Line breaks that are not paragraph separators, and odd controls.
    "\u{2028}", "\u{85}", "\u{0B}", "\u{0C}", "\u{FEFF}", "\u{200D}", "\u{0}",
  ].map(Piece.init)

  /// Paragraph separators (LF, CR LF, CR, U+2029).
  static let separators: [Piece] = ["\n", "\r\n", "\r", "\u{2029}"].map(Piece.init)

  static let space = Piece(" ")
  static let cr = Piece("\r")
  static let lf = Piece("\n")
}

/// The text of one storage: about `bytes` UTF-8 bytes of paragraphs of
/// 20 to 400 bytes.
func makeStorageText(bytes target: Int, random: inout SoakRandom) -> (Rope, [UInt16]) {
  var utf8: [UInt8] = []
  var utf16: [UInt16] = []
  utf8.reserveCapacity(target + 512)
  utf16.reserveCapacity(target + 512)
  while utf8.count < target {
    let paragraphEnd = utf8.count + random.int(20...400)
    while utf8.count < paragraphEnd {
      let piece: Piece
      switch random.int(0...99) {
      case 0..<12: piece = random.pick(Pieces.nasty)
      case 12..<55: piece = random.pick(Pieces.words)
      case 55..<57: piece = random.percent(50) ? Pieces.cr : Pieces.lf
      default: piece = Pieces.space
      }
      utf8 += piece.utf8
      utf16 += piece.utf16
    }
    let separator = random.pick(Pieces.separators)
    utf8 += separator.utf8
    utf16 += separator.utf16
  }
  return (Rope(String(decoding: utf8, as: UTF8.self)), utf16)
}

/// A short random text for an edit: one to `pieces` pieces.
func makeEditText(pieces: Int, random: inout SoakRandom) -> (String, [UInt16]) {
  var string = ""
  var utf16: [UInt16] = []
  for _ in 0..<random.int(1...pieces) {
    let piece: Piece
    switch random.int(0...99) {
    case 0..<30: piece = random.pick(Pieces.nasty)
    case 30..<70: piece = random.pick(Pieces.words)
    case 70..<80: piece = random.pick(Pieces.separators)
    case 80..<84: piece = random.percent(50) ? Pieces.cr : Pieces.lf
    default: piece = Pieces.space
    }
    string += piece.string
    utf16 += piece.utf16
  }
  return (string, utf16)
}

extension Array where Element == UInt16 {
  /// Whether `offset` is on a scalar boundary (not between the two halves
  /// of a surrogate pair). Offsets out of bounds count as boundaries.
  func isBoundary(_ offset: Int) -> Bool {
    offset <= 0 || offset >= count || self[offset] & 0xFC00 != 0xDC00
  }

  /// `offset` clamped to `0...count` and moved back to a scalar boundary.
  func boundary(_ offset: Int) -> Int {
    let clamped = Swift.min(Swift.max(offset, 0), count)
    return isBoundary(clamped) ? clamped : clamped - 1
  }

  /// The first offset at or after `offset` that is inside a surrogate
  /// pair, looking at most `limit` units ahead.
  func surrogateSplit(from offset: Int, limit: Int) -> Int? {
    var i = Swift.max(offset, 1)
    let end = Swift.min(count, i + limit)
    while i < end {
      if self[i] & 0xFC00 == 0xDC00 { return i }
      i += 1
    }
    return nil
  }
}

/// The first UTF-16 offset at which `rope` and `model` differ (the shorter
/// length if one is a prefix of the other), or nil if they are equal. The
/// rope is decoded chunk by chunk, without making a String.
func firstMismatch(_ rope: Rope, _ model: ArraySlice<UInt16>) -> Int? {
  var i = model.startIndex
  let end = model.endIndex
  for chunk in rope.chunks {
    let found: Int? = chunk.utf8.withUnsafeBufferPointer { bytes in
      var j = 0
      let n = bytes.count
      while j < n {
        let b0 = UInt32(bytes[j])
        var scalar: UInt32
        if b0 < 0x80 {
          scalar = b0
          j += 1
        } else if b0 < 0xE0 {
          scalar = (b0 & 0x1F) << 6 | UInt32(bytes[j + 1] & 0x3F)
          j += 2
        } else if b0 < 0xF0 {
          scalar =
            (b0 & 0x0F) << 12 | UInt32(bytes[j + 1] & 0x3F) << 6 | UInt32(bytes[j + 2] & 0x3F)
          j += 3
        } else {
          scalar =
            (b0 & 0x07) << 18 | UInt32(bytes[j + 1] & 0x3F) << 12
            | UInt32(bytes[j + 2] & 0x3F) << 6 | UInt32(bytes[j + 3] & 0x3F)
          j += 4
        }
        if scalar < 0x10000 {
          if i >= end || model[i] != UInt16(scalar) { return i }
          i += 1
        } else {
          scalar -= 0x10000
          if i >= end || model[i] != UInt16(0xD800 | scalar >> 10) { return i }
          if i + 1 >= end || model[i + 1] != UInt16(0xDC00 | scalar & 0x3FF) { return i + 1 }
          i += 2
        }
      }
      return nil
    }
    if let found { return found - model.startIndex }
  }
  return i == end ? nil : i - model.startIndex
}

/// A short, escaped excerpt of UTF-16 text for failure messages.
func excerpt(_ units: some Collection<UInt16>) -> String {
  let string = String(decoding: units, as: UTF16.self)
  return string.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
}
