import TextRope

/// Decoding of valid UTF-8, one scalar at a time.
enum _UTF8Scalar {
  /// The scalar starting at `i` and the number of bytes it takes.
  @inline(__always)
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
    let b0 = UInt32(bytes[i])
    if b0 < 0x80 { return (b0, 1) }
    if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2) }
    if b0 < 0xF0 {
      return ((b0 & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3)
    }
    return (
      (b0 & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
        | UInt32(bytes[i + 3] & 0x3F), 4
    )
  }

  /// Writes the UTF-16 encoding of valid UTF-8 `bytes` into `target`, which
  /// has room for it; returns the number of units written.
  static func transcodeToUTF16(
    _ bytes: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt16>
  ) -> Int {
    var i = 0
    var written = 0
    let count = bytes.count
    while i < count {
      let b = bytes[i]
      if b < 0x80 {
        target[written] = UInt16(b)
        written += 1
        i += 1
        continue
      }
      let (scalar, length) = decode(bytes, at: i)
      i += length
      if scalar < 0x1_0000 {
        target[written] = UInt16(truncatingIfNeeded: scalar)
        written += 1
      } else {
        let v = scalar - 0x1_0000
        target[written] = UInt16(truncatingIfNeeded: 0xD800 + (v >> 10))
        target[written + 1] = UInt16(truncatingIfNeeded: 0xDC00 + (v & 0x3FF))
        written += 2
      }
    }
    return written
  }

  /// UTF-8 code units of a scalar.
  @inline(__always)
  static func utf8Width(_ scalar: UInt32) -> Int {
    scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x1_0000 ? 3 : 4
  }

  /// UTF-16 code units of a scalar.
  @inline(__always)
  static func utf16Width(_ scalar: UInt32) -> Int { scalar < 0x1_0000 ? 1 : 2 }
}

/// Scalars of a rope read forward from a position, chunk by chunk.
struct _ScalarIterator {
  var cursor: RopeChunkCursor
  var bytes: ContiguousArray<UInt8>
  var index: Int

  /// Starts at UTF-8 offset `utf8Offset`, which is on a scalar boundary.
  init(_ rope: Rope, utf8Offset: Int) {
    cursor = rope.chunkCursor(at: utf8Offset, in: .utf8)
    bytes = cursor.chunk?.utf8 ?? []
    index = max(0, utf8Offset - cursor.start.utf8)
  }

  /// The next scalar's value, or `nil` at the end of the text.
  @inline(__always)
  mutating func next() -> UInt32? {
    while index >= bytes.count {
      guard cursor.moveNext(), let chunk = cursor.chunk else { return nil }
      bytes = chunk.utf8
      index = 0
    }
    let (scalar, length) = bytes.withUnsafeBufferPointer { _UTF8Scalar.decode($0, at: index) }
    index += length
    return scalar
  }
}

extension Rope {
  /// The scalar that ends at UTF-8 offset `utf8Offset` (on a scalar
  /// boundary), or `nil` at the start.
  func _scalar(before utf8Offset: Int) -> UInt32? {
    guard utf8Offset > 0 else { return nil }
    let cursor = chunkCursor(at: utf8Offset, in: .utf8, preferEarlier: true)
    guard let chunk = cursor.chunk else { return nil }
    let local = utf8Offset - cursor.start.utf8
    return chunk.utf8.withUnsafeBufferPointer { bytes in
      var lead = local - 1
      while lead > 0 && bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
      return _UTF8Scalar.decode(bytes, at: lead).0
    }
  }

  /// The scalar that starts at UTF-8 offset `utf8Offset`, or `nil` at the end.
  func _scalar(at utf8Offset: Int) -> UInt32? {
    var iterator = _ScalarIterator(self, utf8Offset: utf8Offset)
    return iterator.next()
  }
}

/// Whether a grapheme cluster boundary certainly falls between scalars `a`
/// and `b` (`b` is `nil` at the end of the text), whatever surrounds them;
/// `false` means ICU must decide.
///
/// UAX #29 keeps `a` and `b` together only when `a` is CR (before LF),
/// Prepend, ZWJ, a regional indicator or a Hangul jamo, or when `b` is Extend,
/// ZWJ, a SpacingMark, a regional indicator or a Hangul jamo. The sets below
/// hold none of those: scalars whose Grapheme_Cluster_Break is Other,
/// Control, LF, LV or LVT (Hangul syllables), and Extended_Pictographic
/// symbols (which join only after a ZWJ).
@inline(__always)
func _breaksBetween(_ a: UInt32, _ b: UInt32?) -> Bool {
  guard let b else { return true }
  return _isLeftSafeScalar(a) && _isRightSafeScalar(b)
}

/// Controls other than CR break before anything (GB4); with the common
/// scalars, nothing after them joins them.
@inline(__always)
func _isLeftSafeScalar(_ s: UInt32) -> Bool {
  if s < 0x20 { return s != 0x0D }
  return _isCommonScalar(s)
}

/// Controls, CR and LF included, are broken before (GB5: the left side is
/// never CR here, since CR is not left-safe); with the common scalars, they
/// join nothing before them.
@inline(__always)
func _isRightSafeScalar(_ s: UInt32) -> Bool {
  if s < 0x20 { return true }
  return _isCommonScalar(s)
}

/// Scalars that neither extend what comes before them nor attach to what
/// comes after (Grapheme_Cluster_Break Other, Control, LV, LVT, and
/// Extended_Pictographic without Extend): printable ASCII, C1 controls,
/// Latin-1 and Latin extensions, Greek, Cyrillic, Hebrew and Arabic letters,
/// Devanagari letters and digits, Thai consonants, general and CJK
/// punctuation, kana, CJK ideographs, Hangul syllables, fullwidth ASCII and
/// the common emoji blocks. (Marks, vowel signs, viramas, Prepend and
/// regional indicators stay out.)
@inline(__always)
func _isCommonScalar(_ s: UInt32) -> Bool {
  if s < 0x300 { return s >= 0x20 && s != 0xAD }  // 0xAD is Control: fine, but keep it to ICU
  if s < 0x530 { return s >= 0x370 && (s < 0x483 || s > 0x489) }  // Greek, Cyrillic
  if s < 0x1000 {
    return (0x5D0...0x5F2).contains(s)  // Hebrew letters
      || (0x620...0x64A).contains(s)  // Arabic letters
      || (0x904...0x939).contains(s) || (0x958...0x961).contains(s)  // Devanagari letters
      || (0x966...0x96F).contains(s)  // Devanagari digits
      || (0xE01...0xE30).contains(s)  // Thai consonants
  }
  if s < 0x2010 { return false }
  if s <= 0x2027 { return true }  // dashes, quotation marks, ellipsis
  if s < 0x2030 { return false }
  if s <= 0x205E { return true }  // more general punctuation
  if s < 0x2600 { return false }
  if s <= 0x27BF { return true }  // Miscellaneous Symbols, Dingbats
  if s < 0x3000 { return false }
  if s <= 0x3029 { return true }  // CJK punctuation (U+302A to U+302F are Extend)
  if s < 0x3041 { return false }
  if s <= 0x3096 { return true }  // Hiragana
  if s < 0x30A1 { return false }
  if s <= 0x30FA { return true }  // Katakana
  if s < 0x4E00 { return false }
  if s <= 0x9FFF { return true }  // CJK Unified Ideographs
  if s < 0xAC00 { return false }
  if s <= 0xD7A3 { return true }  // Hangul syllables (LV, LVT)
  if s < 0xFF01 { return false }
  if s <= 0xFF5E { return true }  // fullwidth ASCII
  if s < 0x1F300 { return false }
  if s <= 0x1F3FA { return true }  // Miscellaneous Symbols and Pictographs (to the skin tones)
  if s < 0x1F400 { return false }
  if s <= 0x1F64F { return true }  // … and Emoticons
  if s < 0x1F680 { return false }
  if s <= 0x1F6FF { return true }  // Transport and Map Symbols
  if s < 0x1F900 { return false }
  return s <= 0x1F9FF  // Supplemental Symbols and Pictographs
}
