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
