/// Word-at-a-time counting over valid UTF-8: the measures a rope keeps and
/// the conversions inside one chunk.
@usableFromInline
enum _UTF8Counts {
  @usableFromInline static let high: UInt64 = 0x8080_8080_8080_8080
  @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101

  @inlinable @inline(__always)
  static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

  /// Bytes of `word` that are UTF-8 continuation bytes (`10xxxxxx`), as bit 7.
  @inlinable @inline(__always)
  static func continuationBits(_ word: UInt64) -> UInt64 {
    word & ~(word << 1) & high
  }

  /// Bytes of `word` that lead a 4-byte sequence (`11110xxx`), as bit 7.
  @inlinable @inline(__always)
  static func fourByteLeadBits(_ word: UInt64) -> UInt64 {
    word & (word << 1) & (word << 2) & (word << 3) & high
  }

  /// The number of bytes whose bit 7 is set in `bits` (which has no other
  /// bits set), by adding the byte lanes with one multiplication: the
  /// baseline x86-64 target has no POPCNT instruction, so `nonzeroBitCount`
  /// compiles to a long software sequence (docs/benchmarks.md, "Where the
  /// time goes").
  @inlinable @inline(__always)
  static func countHighBits(_ bits: UInt64) -> Int {
    Int(truncatingIfNeeded: ((bits >> 7) &* ones) >> 56)
  }

  /// Whether some byte of `word` is below `n` (n ≤ 128).
  @inlinable @inline(__always)
  static func hasByteBelow(_ word: UInt64, _ n: UInt8) -> Bool {
    (word &- ones &* UInt64(n)) & ~word & high != 0
  }

  /// Whether some byte of `word` equals `byte`.
  @inlinable @inline(__always)
  static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
    let v = word ^ (ones &* UInt64(byte))
    return (v &- ones) & ~v & high != 0
  }

  @inlinable @inline(__always)
  static func load(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt64 {
    UInt64(
      littleEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + i)
        .loadUnaligned(as: UInt64.self))
  }

  /// Whether the byte at `i` ends a paragraph separator: LF, a CR not followed
  /// by LF, or the last byte of U+2029 (E2 80 A9).
  @inlinable @inline(__always)
  static func endsSeparator(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
    switch bytes[i] {
    case 0x0A: return true
    case 0x0D: return i + 1 >= bytes.count || bytes[i + 1] != 0x0A
    case 0xA9: return i >= 2 && bytes[i - 1] == 0x80 && bytes[i - 2] == 0xE2
    default: return false
    }
  }

  /// The counts of valid UTF-8 `bytes`. A CR LF pair counts as one separator;
  /// a CR at the very end counts as a separator on its own.
  @usableFromInline
  static func summary(of bytes: UnsafeBufferPointer<UInt8>) -> TextSummary {
    let count = bytes.count
    var continuations = 0
    var fourByteLeads = 0
    var separators = 0
    var i = 0
    while i + 8 <= count {
      let word = load(bytes, i)
      let high = word & Self.high
      if high != 0 {
        continuations += countHighBits(continuationBits(word))
        fourByteLeads += countHighBits(fourByteLeadBits(word))
        if hasByte(word, 0xA9) {
          for j in i..<i + 8 where endsSeparator(bytes, j) { separators += 1 }
          i += 8
          continue
        }
      }
      if hasByteBelow(word, 0x0E) {
        separators += lineBreaks(in: word, nextByte: i + 8 < count ? bytes[i + 8] : nil)
      }
      i += 8
    }
    while i < count {
      let b = bytes[i]
      if isContinuation(b) { continuations += 1 } else if b >= 0xF0 { fourByteLeads += 1 }
      if endsSeparator(bytes, i) { separators += 1 }
      i += 1
    }
    let scalars = count - continuations
    return TextSummary(
      utf8: count, utf16: scalars + fourByteLeads, scalars: scalars,
      paragraphSeparators: separators)
  }

  /// Bytes of `word` equal to `byte`, as bit 7 (exact: no false positives).
  @inlinable @inline(__always)
  static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let v = word ^ (ones &* UInt64(byte))
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((v & low) &+ low) | v | low)
  }

  /// The LF and CR separators that end in `word` (a CR LF pair counts once,
  /// at its LF), without a branch a byte; `nextByte` is the byte after the
  /// word, if any.
  @inlinable @inline(__always)
  static func lineBreaks(in word: UInt64, nextByte: UInt8?) -> Int {
    let lf = bytesEqual(word, 0x0A)
    let cr = bytesEqual(word, 0x0D)
    // A CR whose next byte (in the word) is LF does not end a separator.
    let pairs = cr & (lf >> 8)
    var result = countHighBits(lf) + countHighBits(cr) - countHighBits(pairs)
    if nextByte == 0x0A && cr >> 63 != 0 { result -= 1 }
    return result
  }

  /// The counts of `bytes[range]`, where a separator is counted if its last
  /// byte lies in the range and the bytes around the range decide CR LF.
  /// Summaries of two ranges that differ only inside, with the same bytes at
  /// and beyond their edges, differ exactly by the change.
  @usableFromInline @inline(__always)
  static func summary(of bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> TextSummary {
    var continuations = 0
    var fourByteLeads = 0
    var separators = 0
    for i in range {
      let b = bytes[i]
      if isContinuation(b) { continuations += 1 } else if b >= 0xF0 { fourByteLeads += 1 }
      if endsSeparator(bytes, i) { separators += 1 }
    }
    let scalars = range.count - continuations
    return TextSummary(
      utf8: range.count, utf16: scalars + fourByteLeads, scalars: scalars,
      paragraphSeparators: separators)
  }

  /// The byte offset at which `target` units of text have been passed, where
  /// units are scalars, or UTF-16 code units if `utf16`.
  ///
  /// - Returns: the offset, or `nil` if `target` falls inside a surrogate
  ///   pair. `target` must be within the text.
  @usableFromInline
  static func byteOffset(
    of target: Int, utf16: Bool, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int? {
    let count = bytes.count
    var units = 0
    var i = 0
    // Skip whole words while the target lies beyond every lead byte in them.
    while i + 8 <= count {
      let word = load(bytes, i)
      var wordUnits = 8 - countHighBits(continuationBits(word))
      if utf16 { wordUnits += countHighBits(fourByteLeadBits(word)) }
      if units + wordUnits >= target { break }
      units += wordUnits
      i += 8
    }
    while i < count {
      let b = bytes[i]
      if isContinuation(b) {
        i += 1
        continue
      }
      if units == target { return i }
      if utf16 && b >= 0xF0 {
        if units + 1 == target { return nil }
        units += 2
      } else {
        units += 1
      }
      i += 1
    }
    return units == target ? count : nil
  }

  /// The byte offset before which `need` units of text lie (counted back
  /// from the end), where units are scalars, or UTF-16 code units if
  /// `utf16`; `nil` if that falls inside a surrogate pair. `need` is at most
  /// the text's size.
  @usableFromInline
  static func byteOffset(back need: Int, utf16: Bool, in bytes: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    var units = 0
    var i = bytes.count
    // Skip whole words while the position lies before every lead in them.
    while i >= 8 {
      let word = load(bytes, i - 8)
      var wordUnits = 8 - countHighBits(continuationBits(word))
      if utf16 { wordUnits += countHighBits(fourByteLeadBits(word)) }
      if units + wordUnits >= need { break }
      units += wordUnits
      i -= 8
    }
    while i > 0 {
      i -= 1
      let b = bytes[i]
      if isContinuation(b) { continue }
      units += (utf16 && b >= 0xF0) ? 2 : 1
      if units == need { return i }
      if units > need { return nil }
    }
    return units == need ? 0 : nil
  }

  /// The number of scalars (or UTF-16 code units if `utf16`) before byte
  /// `end` (on a scalar boundary) in a chunk that holds `total` of them,
  /// counted from the nearer end.
  @usableFromInline
  static func units(
    upTo end: Int, utf16: Bool, total: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int {
    if end * 2 <= bytes.count { return units(upTo: end, utf16: utf16, in: bytes) }
    var units = 0
    var i = end
    while i + 8 <= bytes.count {
      let word = load(bytes, i)
      units += 8 - countHighBits(continuationBits(word))
      if utf16 { units += countHighBits(fourByteLeadBits(word)) }
      i += 8
    }
    while i < bytes.count {
      let b = bytes[i]
      if !isContinuation(b) { units += (utf16 && b >= 0xF0) ? 2 : 1 }
      i += 1
    }
    return total - units
  }

  /// The byte offset of `offset` (of `unit`) in a chunk whose size in that
  /// unit is `measure`; `nil` if it falls inside a scalar (UTF-8) or a
  /// surrogate pair (UTF-16). `offset` is within `0...measure`.
  @inline(__always)
  static func byteOffset(
    of offset: Int, _ unit: TextUnit, _ measure: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int? {
    switch unit {
    case .utf8:
      return offset < bytes.count && isContinuation(bytes[offset]) ? nil : offset
    case .utf16, .unicodeScalars:
      if offset == 0 { return 0 }
      if offset == measure { return bytes.count }
      if measure == bytes.count { return offset }  // ASCII
      // Scan from the nearer end.
      if offset * 2 > measure {
        return byteOffset(back: measure - offset, utf16: unit == .utf16, in: bytes)
      }
      return byteOffset(of: offset, utf16: unit == .utf16, in: bytes)
    }
  }

  /// The number of scalars (or UTF-16 code units if `utf16`) in the first
  /// `end` bytes; `end` must be on a scalar boundary.
  @usableFromInline
  static func units(upTo end: Int, utf16: Bool, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var units = 0
    var i = 0
    while i + 8 <= end {
      let word = load(bytes, i)
      units += 8 - countHighBits(continuationBits(word))
      if utf16 { units += countHighBits(fourByteLeadBits(word)) }
      i += 8
    }
    while i < end {
      let b = bytes[i]
      if !isContinuation(b) { units += (utf16 && b >= 0xF0) ? 2 : 1 }
      i += 1
    }
    return units
  }

  /// The number of paragraph separators that end at or before byte `end`.
  /// A CR right before `end` that is followed by an LF at `end` is not yet
  /// ended.
  @usableFromInline
  static func separators(upTo end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var n = 0
    var i = 0
    while i < end {
      if i + 8 <= end {
        let word = load(bytes, i)
        if !hasByteBelow(word, 0x0E) && !hasByte(word, 0xA9) {
          i += 8
          continue
        }
      }
      if endsSeparator(bytes, i) { n += 1 }
      i += 1
    }
    return n
  }

  /// The byte offset right after the `n`th (1-based) paragraph separator, or
  /// `nil` if there are fewer.
  @usableFromInline
  static func byteOffset(afterSeparator n: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var seen = 0
    var i = 0
    while i < bytes.count {
      if i + 8 <= bytes.count {
        let word = load(bytes, i)
        if !hasByteBelow(word, 0x0E) && !hasByte(word, 0xA9) {
          i += 8
          continue
        }
      }
      if endsSeparator(bytes, i) {
        seen += 1
        if seen == n { return i + 1 }
      }
      i += 1
    }
    return nil
  }

  /// Whether `word` may hold the last byte of a paragraph separator (a byte
  /// below 0x0E, or 0xA9); `false` means it certainly does not.
  @inline(__always)
  static func mayEndSeparator(_ word: UInt64) -> Bool {
    hasByteBelow(word, 0x0E) || hasByte(word, 0xA9)
  }

  /// The offset right after the last separator that ends at or before byte
  /// `end`, or `nil` if none does.
  @usableFromInline
  static func lastSeparatorEnd(before end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = end - 1
    while i >= 0 {
      if i >= 7 && !mayEndSeparator(load(bytes, i - 7)) {
        i -= 8
        continue
      }
      if endsSeparator(bytes, i) { return i + 1 }
      i -= 1
    }
    return nil
  }

  /// The offset of the last byte of the first separator that ends at or
  /// after byte `start` (a separator whose last byte is at `start` or
  /// later), or `nil` if none does.
  @usableFromInline
  static func firstSeparatorLastByte(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int?
  {
    var i = start
    while i < bytes.count {
      if i + 8 <= bytes.count && !mayEndSeparator(load(bytes, i)) {
        i += 8
        continue
      }
      if endsSeparator(bytes, i) { return i }
      i += 1
    }
    return nil
  }
}
