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
  /// compiles to a long software sequence (docs/benchmarks-history.md, "Where the
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
  ///
  /// Sixteen bytes at a time: each test (continuation byte, 4-byte lead, LF,
  /// CR, CR before LF, the last byte of U+2029) is a vector comparison whose
  /// lanes are added up in byte counters, summed every 255 vectors.
  @usableFromInline
  static func summary(of bytes: UnsafeBufferPointer<UInt8>) -> TextSummary {
    let count = bytes.count
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return .zero }
    var continuations = 0
    var fourByteLeads = 0
    var separators = 0
    var i = 0
    // The first two bytes one by one: the vectors look two bytes back.
    while i < min(2, count) {
      let b = bytes[i]
      if isContinuation(b) { continuations += 1 } else if b >= 0xF0 { fourByteLeads += 1 }
      if endsSeparator(bytes, i) { separators += 1 }
      i += 1
    }
    // Vectors while the byte after the vector is in the buffer.
    while i + 17 <= count {
      var lanes = _CountLanes()
      var n = 0
      while n < 255 && i + 17 <= count {
        lanes.add(base, at: i)
        i += 16
        n += 1
      }
      continuations += lanes.continuations.laneSum
      fourByteLeads += lanes.fourByteLeads.laneSum
      separators +=
        lanes.lineFeeds.laneSum + lanes.carriageReturns.laneSum - lanes.pairs.laneSum
        + lanes.paragraphSeparators.laneSum
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

  /// The scalars (or UTF-16 code units if `utf16`) of the 64 bytes at
  /// `base + i` (on a scalar boundary or not: continuation bytes count 0).
  @inline(__always)
  static func units64(_ base: UnsafeRawPointer, at i: Int, utf16: Bool) -> Int {
    var lanes = SIMD16<UInt8>()
    for k in 0..<4 {
      let v = base.loadUnaligned(fromByteOffset: i + 16 * k, as: SIMD16<UInt8>.self)
      // Not a continuation byte: as a signed byte, -64 (0xC0) or more.
      let lead = unsafeBitCast(v, to: SIMD16<Int8>.self) .>= SIMD16<Int8>(repeating: -64)
      lanes &-= unsafeBitCast(lead, to: SIMD16<UInt8>.self)
      if utf16 {
        lanes &-= unsafeBitCast(v .>= SIMD16<UInt8>(repeating: 0xF0), to: SIMD16<UInt8>.self)
      }
    }
    return lanes.laneSum
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
    // Skip 64 bytes, then whole words, while the target lies beyond every
    // lead byte in them.
    if let base = UnsafeRawPointer(bytes.baseAddress) {
      while i + 64 <= count {
        let blockUnits = units64(base, at: i, utf16: utf16)
        if units + blockUnits >= target { break }
        units += blockUnits
        i += 64
      }
    }
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
    // Skip 64 bytes, then whole words, while the position lies before every
    // lead in them.
    if let base = UnsafeRawPointer(bytes.baseAddress) {
      while i >= 64 {
        let blockUnits = units64(base, at: i - 64, utf16: utf16)
        if units + blockUnits >= need { break }
        units += blockUnits
        i -= 64
      }
    }
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
    if let base = UnsafeRawPointer(bytes.baseAddress) {
      while i + 64 <= bytes.count {
        units += units64(base, at: i, utf16: utf16)
        i += 64
      }
    }
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
    if let base = UnsafeRawPointer(bytes.baseAddress) {
      while i + 64 <= end {
        units += units64(base, at: i, utf16: utf16)
        i += 64
      }
    }
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

/// Byte counters for `_UTF8Counts.summary(of:)`: each lane counts, for one
/// byte position of the 16-byte vectors added so far, how many matched (at
/// most 255 vectors).
@usableFromInline
struct _CountLanes {
  @usableFromInline var continuations = SIMD16<UInt8>()
  @usableFromInline var fourByteLeads = SIMD16<UInt8>()
  @usableFromInline var lineFeeds = SIMD16<UInt8>()
  @usableFromInline var carriageReturns = SIMD16<UInt8>()
  /// CRs followed by an LF (one separator with it).
  @usableFromInline var pairs = SIMD16<UInt8>()
  /// Last bytes of U+2029 (E2 80 A9).
  @usableFromInline var paragraphSeparators = SIMD16<UInt8>()

  @inlinable
  init() {}

  /// Adds the 16 bytes at `base + i`; the byte after them and the two
  /// before them must be readable.
  @inline(__always)
  mutating func add(_ base: UnsafeRawPointer, at i: Int) {
    let v = base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
    let next = base.loadUnaligned(fromByteOffset: i + 1, as: SIMD16<UInt8>.self)
    let back1 = base.loadUnaligned(fromByteOffset: i - 1, as: SIMD16<UInt8>.self)
    let back2 = base.loadUnaligned(fromByteOffset: i - 2, as: SIMD16<UInt8>.self)
    // A comparison gives -1 (all ones) in a matching lane: subtracting it
    // counts one.
    let continuation = unsafeBitCast(v, to: SIMD16<Int8>.self) .< SIMD16<Int8>(repeating: -64)
    continuations &-= unsafeBitCast(continuation, to: SIMD16<UInt8>.self)
    fourByteLeads &-= unsafeBitCast(v .>= SIMD16<UInt8>(repeating: 0xF0), to: SIMD16<UInt8>.self)
    let lf = v .== SIMD16<UInt8>(repeating: 0x0A)
    let cr = v .== SIMD16<UInt8>(repeating: 0x0D)
    lineFeeds &-= unsafeBitCast(lf, to: SIMD16<UInt8>.self)
    carriageReturns &-= unsafeBitCast(cr, to: SIMD16<UInt8>.self)
    let pair = cr .& (next .== SIMD16<UInt8>(repeating: 0x0A))
    pairs &-= unsafeBitCast(pair, to: SIMD16<UInt8>.self)
    let u2029 =
      (v .== SIMD16<UInt8>(repeating: 0xA9)) .& (back1 .== SIMD16<UInt8>(repeating: 0x80))
      .& (back2 .== SIMD16<UInt8>(repeating: 0xE2))
    paragraphSeparators &-= unsafeBitCast(u2029, to: SIMD16<UInt8>.self)
  }
}

extension SIMD16<UInt8> {
  /// The sum of the lanes (up to 16 × 255), without wrapping.
  @inline(__always)
  var laneSum: Int {
    let low = SIMD8<UInt16>(truncatingIfNeeded: lowHalf)
    let high = SIMD8<UInt16>(truncatingIfNeeded: highHalf)
    return Int((low &+ high).wrappedSum())
  }
}
