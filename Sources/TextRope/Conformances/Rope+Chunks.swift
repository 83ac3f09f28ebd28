import SummaryTrees

/// One chunk of a rope's text, as ``Rope/chunks`` hands them out.
public struct RopeChunk: Sendable {
  /// The chunk's UTF-8 bytes (shared with the rope, not copied).
  public let utf8: ContiguousArray<UInt8>
  /// The counts of the chunk.
  public let summary: TextSummary

  /// The chunk's text.
  public var string: String { String(decoding: utf8, as: UTF8.self) }
}

extension Rope {
  /// The rope's chunks, in order.
  public struct Chunks: Sequence, Sendable {
    let tree: SummaryTree<_TextChunk>

    /// Iterates the chunks.
    public struct Iterator: IteratorProtocol {
      var base: SummaryTree<_TextChunk>.Iterator

      public mutating func next() -> RopeChunk? {
        base.next().map { RopeChunk(utf8: $0.bytes, summary: $0.summary) }
      }
    }

    public func makeIterator() -> Iterator { Iterator(base: tree.makeIterator()) }
  }

  /// The text's chunks in order: a way to read the text without copying it.
  ///
  /// - Complexity: O(log n) to start, amortized O(1) a chunk.
  public var chunks: Chunks { Chunks(tree: tree) }

  /// Calls `body` with the bytes of every chunk, in order.
  ///
  /// - Complexity: O(n / chunk size) calls.
  public func withChunkBytes(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    for chunk in tree {
      try chunk.bytes.withUnsafeBufferPointer(body)
    }
  }
}

/// A position on one chunk of a rope snapshot that steps to the next or the
/// previous chunk, and knows where its chunk starts in every unit. Once it
/// has moved past either end, it stays there.
public struct RopeChunkCursor: Sendable {
  var base: SummaryTree<_TextChunk>.Cursor

  /// The chunk under the cursor; `nil` past either end or in an empty rope.
  public var chunk: RopeChunk? {
    base.item.map { RopeChunk(utf8: $0.bytes, summary: $0.summary) }
  }

  /// The counts of all the text before ``chunk``.
  public var start: TextSummary { base.prefix }

  /// Moves to the next chunk; returns `false` past the end.
  ///
  /// - Complexity: amortized O(1)
  @discardableResult
  public mutating func moveNext() -> Bool { base.moveNext() != nil }

  /// Moves to the previous chunk; returns `false` before the start.
  ///
  /// - Complexity: O(log n)
  @discardableResult
  public mutating func movePrevious() -> Bool { base.movePrevious() != nil }
}

extension Rope {
  /// The most UTF-8 bytes (and so UTF-16 units) one chunk holds.
  public static var maxChunkUTF8Count: Int { _ChunkLimits.maxBytes }

  /// The chunk that holds `offset` (of `unit`) and the counts of the text
  /// before it, found as ``chunkCursor(at:in:preferEarlier:)`` finds it but
  /// without a cursor's path; `nil` in an empty rope.
  ///
  /// - Complexity: O(log n)
  public func chunk(
    at offset: Int, in unit: TextUnit, preferEarlier: Bool = false
  ) -> (chunk: RopeChunk, start: TextSummary)? {
    let bias: Bias = preferEarlier ? .left : .right
    let hit: TreeLocation<_TextChunk>?
    switch unit {
    case .utf8: hit = tree.find(UTF8Metric.self, offset, bias: bias)
    case .utf16: hit = tree.find(UTF16Metric.self, offset, bias: bias)
    case .unicodeScalars: hit = tree.find(ScalarMetric.self, offset, bias: bias)
    }
    return hit.map { (RopeChunk(utf8: $0.item.bytes, summary: $0.item.summary), $0.prefix) }
  }

  /// A cursor on the chunk that holds `offset` (of `unit`). With
  /// `preferEarlier`, an offset on a chunk boundary finds the chunk that
  /// ends there; else the one that starts there. An offset at the end finds
  /// the last chunk; 0 with `preferEarlier` the first.
  ///
  /// The offset is not validated: one past the end is clamped to the last
  /// chunk.
  ///
  /// - Complexity: O(log n)
  public func chunkCursor(
    at offset: Int, in unit: TextUnit, preferEarlier: Bool = false
  ) -> RopeChunkCursor {
    let bias: Bias = preferEarlier ? .left : .right
    switch unit {
    case .utf8:
      return RopeChunkCursor(base: tree.cursor(UTF8Metric.self, at: offset, bias: bias))
    case .utf16:
      return RopeChunkCursor(base: tree.cursor(UTF16Metric.self, at: offset, bias: bias))
    case .unicodeScalars:
      return RopeChunkCursor(base: tree.cursor(ScalarMetric.self, at: offset, bias: bias))
    }
  }
}
