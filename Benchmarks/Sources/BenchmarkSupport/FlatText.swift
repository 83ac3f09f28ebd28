/// The flat baseline: the whole text as one contiguous `[UInt8]` of UTF-8,
/// edited with `replaceSubrange`. A scalar offset is turned into a byte offset
/// by counting scalar-start (non-continuation) bytes from the start, eight
/// bytes at a time (four words per step).
public struct FlatText {
  public var bytes: [UInt8]

  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Replaces `deleteCount` scalars at scalar offset `position` with `insert`.
  @inline(__always)
  public mutating func replace(scalarPosition position: Int, deleteCount: Int, with insert: [UInt8]) {
    let (lower, upper) = bytes.withUnsafeBufferPointer { buffer in
      let lower = FlatText.advance(in: buffer, from: 0, scalars: position)
      let upper = deleteCount == 0 ? lower : FlatText.advance(in: buffer, from: lower, scalars: deleteCount)
      return (lower, upper)
    }
    bytes.replaceSubrange(lower..<upper, with: insert)
  }

  /// The number of continuation bytes (`10xxxxxx`) in a word.
  @inline(__always)
  static func continuationBytes(_ w: UInt64) -> Int {
    (w & ~(w &<< 1) & 0x8080_8080_8080_8080).nonzeroBitCount
  }

  /// The byte offset `scalars` scalars after the scalar boundary `start`.
  @inline(__always)
  public static func advance(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, scalars: Int) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let count = buffer.count
    var i = start
    var remaining = scalars
    // A block of n bytes holds at most n scalar starts, so while `remaining`
    // is at least n the whole block is before the target.
    while remaining >= 32 && i + 32 <= count {
      let c =
        continuationBytes(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        + continuationBytes(raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
        + continuationBytes(raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
        + continuationBytes(raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
      remaining -= 32 - c
      i += 32
    }
    while remaining >= 8 && i + 8 <= count {
      remaining -= 8 - continuationBytes(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
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
