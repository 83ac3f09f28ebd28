extension SummaryTree: Sequence {
  /// Iterates the items in order.
  public struct Iterator: IteratorProtocol {
    @usableFromInline var cursor: Cursor
    @usableFromInline var started = false

    @inlinable
    init(cursor: Cursor) {
      self.cursor = cursor
    }

    @inlinable
    public mutating func next() -> Item? {
      if started { return cursor.moveNext() }
      started = true
      return cursor.item
    }
  }

  /// An iterator over all items, first to last.
  ///
  /// - Complexity: O(log n) to start, amortized O(1) a step.
  @inlinable
  public func makeIterator() -> Iterator {
    Iterator(cursor: cursorAtStart())
  }
}
