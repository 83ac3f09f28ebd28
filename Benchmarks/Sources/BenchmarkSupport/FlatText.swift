/// The flat baseline: the whole text as one contiguous `[UInt8]` of UTF-8,
/// edited with `replaceSubrange`. A scalar offset is turned into a byte offset
/// by counting scalar-start (non-continuation) bytes from the start, a word
/// (8 bytes) at a time.
public struct FlatText {
  public var bytes: [UInt8]

  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Replaces `deleteCount` scalars at scalar offset `position` with `insert`.
  @inline(__always)
  public mutating func replace(scalarPosition position: Int, deleteCount: Int, with insert: [UInt8])
  {
    let (lower, upper) = bytes.withUnsafeBufferPointer { buffer in
      let lower = FlatText.advance(in: buffer, from: 0, scalars: position)
      let upper =
        deleteCount == 0 ? lower : FlatText.advance(in: buffer, from: lower, scalars: deleteCount)
      return (lower, upper)
    }
    bytes.replaceSubrange(lower..<upper, with: insert)
  }

  static let ones: UInt64 = 0x0101_0101_0101_0101

  /// 1 in each byte lane of `w` that starts a scalar (is not `10xxxxxx`).
  @inline(__always)
  static func scalarStarts(_ w: UInt64) -> UInt64 {
    ((~w | (w &<< 1)) &>> 7) & ones
  }

  /// The sum of the byte lanes of `w` (at most 255 in total).
  @inline(__always)
  static func laneSum(_ w: UInt64) -> Int {
    Int(truncatingIfNeeded: (w &* ones) &>> 56)
  }

  /// The byte offset `scalars` scalars after the scalar boundary `start`.
  ///
  /// Counts scalar starts 128 bytes at a time with SWAR (no popcount, which
  /// baseline x86-64 lacks): per-lane sums of 16 words, then one horizontal
  /// sum.
  @inline(__always)
  public static func advance(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, scalars: Int)
    -> Int
  {
    guard let base = buffer.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let count = buffer.count
    var i = start
    var remaining = scalars
    // A block of n bytes holds at most n scalar starts, so while `remaining`
    // is at least n the whole block is before the target.
    while remaining >= 128 && i + 128 <= count {
      var lanes: UInt64 = 0
      for k in 0..<16 {
        lanes &+= scalarStarts(raw.loadUnaligned(fromByteOffset: i + 8 * k, as: UInt64.self))
      }
      remaining -= laneSum(lanes)
      i += 128
    }
    while remaining >= 8 && i + 8 <= count {
      remaining -= laneSum(scalarStarts(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
      i += 8
    }
    while i < count {
      if base[i] & 0xC0 != 0x80 {
        if remaining == 0 { break }
        remaining -= 1
      }
      i += 1
    }
    precondition(remaining == 0, "scalar offset out of bounds")
    return i
  }
}

// UTF-16 offsets in the flat buffer: found by counting from the start, as a
// plain editor over a `[UInt8]` must.
extension FlatText {
  /// 1 in each byte lane of `w` that leads a four-byte scalar (`11110xxx`),
  /// which is two UTF-16 units.
  @inline(__always)
  static func fourByteLeads(_ w: UInt64) -> UInt64 {
    ((w & (w &<< 1) & (w &<< 2) & (w &<< 3)) &>> 7) & ones
  }

  /// The byte offset of UTF-16 offset `units` (past the pair if `units` is
  /// between the halves of a surrogate pair), counted from the start 128
  /// bytes at a time; the byte count if `units` is past the end.
  @inline(__always)
  public func byteOffset(ofUTF16 units: Int) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      let raw = UnsafeRawPointer(base)
      let count = buffer.count
      var i = 0
      var remaining = units
      // 128 bytes count at most 129 UTF-16 units (127 ASCII bytes and the
      // lead of a four-byte scalar), so `remaining` ends at −1 at worst:
      // then the offset was inside that scalar's pair, and the loop below
      // returns the byte after it.
      while remaining >= 128 && i + 128 <= count {
        var lanes: UInt64 = 0
        for k in 0..<16 {
          let w = raw.loadUnaligned(fromByteOffset: i + 8 * k, as: UInt64.self)
          lanes &+= FlatText.scalarStarts(w) &+ FlatText.fourByteLeads(w)
        }
        remaining -= FlatText.laneSum(lanes)
        i += 128
      }
      while i < count {
        let byte = base[i]
        if byte & 0xC0 != 0x80 {
          if remaining <= 0 { break }
          remaining -= byte >= 0xF0 ? 2 : 1
        }
        i += 1
      }
      return i
    }
  }

  /// Inserts "x" at UTF-16 offset `offset`.
  @inline(__always)
  public mutating func insertCharacter(atUTF16 offset: Int) {
    bytes.insert(0x78, at: byteOffset(ofUTF16: offset))
  }

  /// Deletes the scalar at UTF-16 offset `offset` (nothing at the end).
  @inline(__always)
  public mutating func deleteScalar(atUTF16 offset: Int) {
    let start = byteOffset(ofUTF16: offset)
    guard start < bytes.count else { return }
    let lead = bytes[start]
    let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    bytes.removeSubrange(start..<min(bytes.count, start + length))
  }
}
