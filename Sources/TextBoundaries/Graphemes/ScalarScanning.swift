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

/// Scalars between which a grapheme cluster boundary always falls, whatever
/// surrounds them (UAX #29: their Grapheme_Cluster_Break is Other and they are
/// not Extended_Pictographic after a ZWJ, which is not one of them): printable
/// ASCII, Latin-1 letters and Latin extensions, Greek and Cyrillic letters,
/// kana and CJK ideographs. Between two of these the engine answers without
/// asking ICU.
@inline(__always)
func _isSimpleScalar(_ s: UInt32) -> Bool {
  if s < 0x7F { return s >= 0x20 }
  if s < 0x300 { return s >= 0xA0 && s != 0xAD }
  if s < 0x530 { return s >= 0x370 && (s < 0x483 || s > 0x489) }
  if s >= 0x4E00 { return s <= 0x9FFF }
  return (s >= 0x3041 && s <= 0x3096) || (s >= 0x30A1 && s <= 0x30FA)
}
