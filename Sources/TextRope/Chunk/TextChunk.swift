import SummaryTrees

/// The chunk sizes of every rope, in UTF-8 bytes.
///
/// Debug builds (and so `swift test`) use tiny chunks so that every kind of
/// text crosses chunk boundaries in small tests.
@usableFromInline
enum _ChunkLimits {
  #if DEBUG
  /// The most bytes a chunk holds (a multiple-byte scalar or a CR LF pair is
  /// never split, so a chunk can end up to 3 bytes shorter when cut).
  @usableFromInline static let maxBytes = 8
  #else
  /// The most bytes a chunk holds.
  @usableFromInline static let maxBytes = 1024
  #endif
  /// How full a new rope's chunks are: a little below `maxBytes`, so that
  /// typing into freshly loaded text fills the slack before it splits chunks.
  @usableFromInline static let buildBytes = maxBytes - maxBytes / 40
  /// Chunks below this size are merged with a neighbour when an edit
  /// leaves them at a seam.
  @usableFromInline static let minBytes = maxBytes / 4
}

/// A piece of a rope's text: 1 to `maxBytes` bytes of valid UTF-8 that start
/// at a scalar boundary and never separate a CR from the LF after it, with
/// their summary.
@usableFromInline
struct _TextChunk: TreeItem {
  /// The UTF-8 bytes.
  @usableFromInline var bytes: ContiguousArray<UInt8>
  /// The counts of `bytes`.
  @usableFromInline var summary: TextSummary

  @inlinable
  init(bytes: ContiguousArray<UInt8>, summary: TextSummary) {
    self.bytes = bytes
    self.summary = summary
  }

  /// A chunk holding a copy of valid UTF-8 `bytes`.
  @usableFromInline
  init(copying bytes: UnsafeBufferPointer<UInt8>, capacity: Int = 0) {
    let capacity = max(capacity, bytes.count)
    self.bytes = ContiguousArray(unsafeUninitializedCapacity: capacity) { buffer, count in
      if let base = bytes.baseAddress, bytes.count > 0 {
        buffer.baseAddress?.initialize(from: base, count: bytes.count)
      }
      count = bytes.count
    }
    self.summary = _UTF8Counts.summary(of: bytes)
  }

  @inlinable
  var count: Int { bytes.count }
}

extension _TextChunk {
  /// Where to end a chunk that starts at `start` in `bytes` (valid UTF-8), so
  /// that it holds at most `limit` bytes, ends on a scalar boundary and does
  /// not separate CR from LF. Always makes progress.
  @usableFromInline
  static func cutPoint(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> Int {
    let count = bytes.count
    if count - start <= limit { return count }
    var end = start + limit
    while end > start && _UTF8Counts.isContinuation(bytes[end]) { end -= 1 }
    if end > start && bytes[end] == 0x0A && bytes[end - 1] == 0x0D { end -= 1 }
    if end == start {
      // A limit smaller than one scalar (or a CR LF pair): take the whole unit.
      end = start + 1
      while end < count && _UTF8Counts.isContinuation(bytes[end]) { end += 1 }
      if end < count && bytes[end] == 0x0A && bytes[end - 1] == 0x0D { end += 1 }
    }
    return end
  }

  /// Cuts valid UTF-8 `bytes` into chunks of about `buildBytes`, each with
  /// room for `maxBytes`.
  @usableFromInline
  static func chunks(of bytes: UnsafeBufferPointer<UInt8>) -> ContiguousArray<_TextChunk> {
    var result = ContiguousArray<_TextChunk>()
    result.reserveCapacity(bytes.count / _ChunkLimits.buildBytes + 1)
    var start = 0
    while start < bytes.count {
      let end = cutPoint(in: bytes, from: start, limit: _ChunkLimits.buildBytes)
      let capacity = end - start < _ChunkLimits.buildBytes ? 0 : _ChunkLimits.maxBytes
      result.append(
        _TextChunk(copying: UnsafeBufferPointer(rebasing: bytes[start..<end]), capacity: capacity))
      start = end
    }
    return result
  }

  /// Cuts valid UTF-8 `bytes` into chunks of roughly equal size, about the
  /// fewest that fit: used to re-cut the bytes of a few neighbouring chunks.
  @usableFromInline
  static func evenChunks(of bytes: UnsafeBufferPointer<UInt8>) -> ContiguousArray<_TextChunk> {
    var result = ContiguousArray<_TextChunk>()
    var start = 0
    while start < bytes.count {
      let remaining = bytes.count - start
      let parts = (remaining + _ChunkLimits.maxBytes - 1) / _ChunkLimits.maxBytes
      let target = (remaining + parts - 1) / parts
      let end = cutPoint(in: bytes, from: start, limit: target)
      result.append(_TextChunk(copying: UnsafeBufferPointer(rebasing: bytes[start..<end])))
      start = end
    }
    return result
  }
}
