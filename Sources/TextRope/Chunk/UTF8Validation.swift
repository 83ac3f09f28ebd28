/// UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing
/// above U+10FFFF), with an ASCII fast path.
@usableFromInline
package enum _UTF8Validation {
  /// The offset of the first byte of the first invalid sequence, or `nil` if
  /// `bytes` is valid UTF-8.
  @usableFromInline
  static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let count = bytes.count
    var i = 0
    while i < count {
      if i + 8 <= count && _UTF8Counts.load(bytes, i) & _UTF8Counts.high == 0 {
        i += 8
        continue
      }
      let b0 = bytes[i]
      if b0 < 0x80 {
        i += 1
        continue
      }
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch b0 {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        lower = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        upper = 0x9F
      case 0xF0:
        length = 4
        lower = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        upper = 0x8F
      default: return i
      }
      if i + length > count { return i }
      let b1 = bytes[i + 1]
      if b1 < lower || b1 > upper { return i }
      for k in 2..<length where !_UTF8Counts.isContinuation(bytes[i + k]) { return i }
      i += length
    }
    return nil
  }
}

extension _UTF8Validation {
  /// The UTF-16 length of `bytes` if they are well-formed UTF-8, else nil:
  /// the rope's validation and counting, for the package's other modules
  /// (`DocumentMarkdown` counts cmark-gfm's text with it).
  package static func utf16Count(ofValidUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard firstInvalidOffset(bytes) == nil else { return nil }
    return _UTF8Counts.units(upTo: bytes.count, utf16: true, in: bytes)
  }

  /// Where in valid UTF-8 `bytes` its last `units` UTF-16 code units start
  /// (a byte offset), or nil if that falls inside a surrogate pair or
  /// before the start: the rope's backward count, for the package's other
  /// modules (`DocumentEngine`'s typing held back takes a backspace with
  /// it).
  package static func byteOffset(ofLastUTF16 units: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    guard units > 0 else { return bytes.count }
    return _UTF8Counts.byteOffset(back: units, utf16: true, in: bytes)
  }
}
