import SummaryTrees

extension Rope {
  /// The text in `range` (of `unit`) as a rope that shares all chunks but
  /// the two at its ends with this one.
  ///
  /// - Throws: as ``utf8Offset(of:in:)`` for either bound.
  /// - Complexity: O(log n). A short slice (up to 64 chunks) gathers the
  ///   chunks it covers into a new tree instead of splitting this one twice:
  ///   O(log n + k) for k chunks, with a smaller constant.
  public func slice(_ range: Range<Int>, in unit: TextUnit = .utf16) throws(RopeError) -> Rope {
    let bytes = try utf8Range(of: range, in: unit)
    return sliceUTF8(bytes)
  }

  /// The text in `range` (of `unit`) as a string, copied straight from
  /// the chunks it covers (no rope is made on the way).
  ///
  /// - Throws: as ``utf8Offset(of:in:)`` for either bound.
  /// - Complexity: O(log n + m) for m bytes.
  public func string(_ range: Range<Int>, in unit: TextUnit = .utf16) throws(RopeError) -> String {
    if unit == .utf16, !range.isEmpty, range.lowerBound >= 0,
      range.upperBound <= tree.summary.utf16, let short = shortString(utf16: range)
    {
      // Within one chunk (a keystroke's deletion): one descent.
      return short
    }
    return stringUTF8(try utf8Range(of: range, in: unit))
  }

  /// The text in the valid UTF-8 range `bytes`, copied from the chunks it
  /// covers.
  func stringUTF8(_ bytes: Range<Int>) -> String {
    if bytes.isEmpty { return "" }
    return String(unsafeUninitializedCapacity: bytes.count) { buffer in
      var written = 0
      forEachChunk(inUTF8: bytes) { chunk, part in
        chunk.bytes.withUnsafeBufferPointer { source in
          if let to = buffer.baseAddress, let from = source.baseAddress {
            (to + written).initialize(from: from + part.lowerBound, count: part.count)
          }
        }
        written += part.count
      }
      return written
    }
  }

  /// Calls `body` with each chunk that the UTF-8 range `range` covers, in
  /// order, and the bytes of it that the range covers (never empty): the
  /// one walk of the chunks under a range that copying, slicing and an
  /// edit's removed text share.
  ///
  /// - Complexity: O(log n + k) for k chunks.
  @inline(__always)
  func forEachChunk(inUTF8 range: Range<Int>, _ body: (_TextChunk, Range<Int>) -> Void) {
    guard !range.isEmpty else { return }
    var cursor = tree.cursor(UTF8Metric.self, at: range.lowerBound, bias: .right)
    while let chunk = cursor.item {
      let start = cursor.prefix.utf8
      if start >= range.upperBound { break }
      let low = max(range.lowerBound, start) - start
      let high = min(range.upperBound, start + chunk.count) - start
      if low < high { body(chunk, low..<high) }
      cursor.moveNext()
    }
  }

  /// The text of a UTF-16 range that lies in one chunk, found in one
  /// descent; `nil` if it does not lie in one chunk or splits a surrogate
  /// pair (the caller's general path says which).
  private func shortString(utf16 range: Range<Int>) -> String? {
    let found = tree.withItem(UTF16Metric.self, at: range.lowerBound, bias: .right) {
      chunk, prefix -> String? in
      let total = chunk.summary.utf16
      let low = range.lowerBound - prefix.utf16
      let high = range.upperBound - prefix.utf16
      guard low >= 0, high <= total else { return nil }
      return chunk.bytes.withUnsafeBufferPointer { bytes -> String? in
        guard let a = _UTF8Counts.byteOffset(of: low, .utf16, total, in: bytes),
          let b = _UTF8Counts.byteOffset(of: high, .utf16, total, in: bytes), a <= b
        else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[a..<b]), as: UTF8.self)
      }
    }
    return found ?? nil
  }

  /// The text in the valid UTF-8 range `range`.
  func sliceUTF8(_ range: Range<Int>) -> Rope {
    if range.isEmpty { return Rope() }
    if range.lowerBound == 0 && range.upperBound == utf8Count { return self }
    if range.count <= 64 * _ChunkLimits.maxBytes { return gatherUTF8(range) }
    let (_, tail) = splitUTF8(at: range.lowerBound)
    return tail.splitUTF8(at: range.count).0
  }

  /// A short slice: the chunks it covers, shared (the two at its ends cut),
  /// in a new tree. Cheaper than two splits of a large tree.
  ///
  /// - Complexity: O(log n + k) for k chunks.
  func gatherUTF8(_ range: Range<Int>) -> Rope {
    var chunks = ContiguousArray<_TextChunk>()
    forEachChunk(inUTF8: range) { chunk, part in
      if part.count == chunk.count {
        chunks.append(chunk)
      } else {
        chunk.bytes.withUnsafeBufferPointer {
          chunks.append(_TextChunk(copying: UnsafeBufferPointer(rebasing: $0[part])))
        }
      }
    }
    return Rope(tree: SummaryTree(chunks))
  }

  /// Cuts the rope at a UTF-8 offset that is on a scalar boundary.
  ///
  /// - Complexity: O(log n)
  func splitUTF8(at offset: Int) -> (Rope, Rope) {
    let (left, right) = tree.split(UTF8Metric.self, at: offset) { chunk, inside in
      // A chunk that straddles the cut shares out its bytes.
      chunk.bytes.withUnsafeBufferPointer { bytes in
        (
          _TextChunk(copying: UnsafeBufferPointer(rebasing: bytes[..<inside])),
          _TextChunk(copying: UnsafeBufferPointer(rebasing: bytes[inside...]))
        )
      }
    }
    return (Rope(tree: left), Rope(tree: right))
  }

  /// Appends `other`, re-cutting the chunks at the seam if one of them is
  /// small or a CR LF pair would be split between them.
  ///
  /// - Complexity: O(log n + log m)
  public mutating func append(_ other: Rope) {
    if other.isEmpty { return }
    if isEmpty {
      self = other
      return
    }
    guard let last = tree.find(UTF8Metric.self, tree.summary.utf8, bias: .left),
      let first = other.tree.find(UTF8Metric.self, 0, bias: .right)
    else { return }
    let lastBytes = last.item.bytes
    let firstBytes = first.item.bytes
    let splitsCRLF = lastBytes[lastBytes.count - 1] == 0x0D && firstBytes[0] == 0x0A
    let small =
      lastBytes.count < _ChunkLimits.minBytes || firstBytes.count < _ChunkLimits.minBytes
    if !splitsCRLF && !small {
      tree.append(contentsOf: other.tree)
      return
    }
    var left = tree.split(UTF8Metric.self, at: last.prefix.utf8).0
    let right = other.tree.split(UTF8Metric.self, at: first.item.count).1
    var joined = lastBytes
    joined.append(contentsOf: firstBytes)
    joined.withUnsafeBufferPointer { bytes in
      for chunk in _TextChunk.evenChunks(of: bytes) { left.append(chunk) }
    }
    left.append(contentsOf: right)
    tree = left
  }

  /// The concatenation of two ropes.
  ///
  /// - Complexity: O(log n + log m)
  public static func + (lhs: Rope, rhs: Rope) -> Rope {
    var result = lhs
    result.append(rhs)
    return result
  }

  /// `lhs` followed by `rhs` with a chunk boundary kept between them (unless
  /// it would split a CR LF pair, in which case they are joined as `+`
  /// joins them). For tests that need text cut at a given place.
  ///
  /// - Complexity: O(log n + log m)
  public static func _keepingChunkBoundary(_ lhs: Rope, _ rhs: Rope) -> Rope {
    guard let last = lhs.tree.find(UTF8Metric.self, lhs.utf8Count, bias: .left),
      let first = rhs.tree.find(UTF8Metric.self, 0, bias: .right),
      !(last.item.bytes[last.item.count - 1] == 0x0D && first.item.bytes[0] == 0x0A)
    else { return lhs + rhs }
    return Rope(tree: lhs.tree + rhs.tree)
  }
}
