extension SummaryTree {
  /// A position on one item of a tree snapshot that moves to the next item in
  /// amortized O(1) (the previous in O(log n)), and knows the summary of
  /// everything before its item.
  ///
  /// Once it has moved past either end, the cursor stays there: ``item`` is
  /// `nil` and both moves return `nil`.
  ///
  /// The cursor holds the snapshot it was made from: later changes to the tree
  /// value do not affect it.
  public struct Cursor: @unchecked Sendable {
    @usableFromInline var path: ContiguousArray<(node: Node, index: Int)>
    @usableFromInline var _prefix: Summary

    /// The summary of all items before ``item``.
    @inlinable
    public var prefix: Summary { _prefix }

    @inlinable
    init(path: ContiguousArray<(node: Node, index: Int)>, prefix: Summary) {
      self.path = path
      self._prefix = prefix
    }

    /// The item under the cursor, or `nil` if the cursor has moved past either
    /// end (or the tree is empty).
    @inlinable
    public var item: Item? {
      guard let leaf = path.last, leaf.index >= 0, leaf.index < leaf.node.count else {
        return nil
      }
      return leaf.node.item(leaf.index)
    }

    /// Moves to the next item and returns it; `nil` past the end.
    ///
    /// - Complexity: amortized O(1), O(log n) at worst.
    @inlinable
    @discardableResult
    public mutating func moveNext() -> Item? {
      guard let current = item else { return nil }
      _prefix += current.summary
      var level = path.count - 1
      while level >= 0 && path[level].index + 1 >= path[level].node.count {
        level -= 1
      }
      if level < 0 {
        path[path.count - 1].index += 1
        return nil
      }
      path[level].index += 1
      descend(from: level, toFirst: true)
      return item
    }

    /// Moves to the previous item and returns it; `nil` before the start.
    ///
    /// - Complexity: O(log n): the prefix is summed again (a monoid has no
    ///   subtraction).
    @inlinable
    @discardableResult
    public mutating func movePrevious() -> Item? {
      guard item != nil else { return nil }
      var level = path.count - 1
      while level >= 0 && path[level].index == 0 {
        level -= 1
      }
      if level < 0 {
        path[path.count - 1].index = -1
        return nil
      }
      path[level].index -= 1
      descend(from: level, toFirst: false)
      recomputePrefix()
      return item
    }

    /// Re-enters the levels below `level` at their first or last slot.
    @inlinable
    mutating func descend(from level: Int, toFirst: Bool) {
      var l = level
      while l + 1 < path.count {
        let child = path[l].node.child(path[l].index)
        path[l + 1] = (child, toFirst ? 0 : child.count - 1)
        l += 1
      }
    }

    /// Sums the slots before the path (a monoid has no subtraction, so a
    /// step back recomputes the prefix: O(fan-out × height)).
    @inlinable
    mutating func recomputePrefix() {
      var total = Summary.zero
      for (node, index) in path {
        for i in 0..<index { total += node.slotSummary(i) }
      }
      _prefix = total
    }
  }

  /// A cursor on the item that holds `offset` in metric `M` (as
  /// ``find(_:_:bias:)`` picks it).
  ///
  /// - Complexity: O(log n)
  @inlinable
  public func cursor<M: TreeMetric>(
    _ metric: M.Type, at offset: Int, bias: Bias
  ) -> Cursor where M.Summary == Summary {
    var path = ContiguousArray<(node: Node, index: Int)>()
    path.reserveCapacity(root.height + 1)
    var node = root
    var prefix = Summary.zero
    var rest = offset
    while true {
      if node.count == 0 {
        path.append((node, 0))
        break
      }
      let (i, r) = Self.pickSlot(metric, in: node, offset: rest, bias: bias, prefix: &prefix)
      path.append((node, i))
      rest = r
      if node.height == 0 { break }
      node = node.child(i)
    }
    return Cursor(path: path, prefix: prefix)
  }

  /// A cursor on the first item.
  ///
  /// - Complexity: O(log n)
  @inlinable
  public func cursorAtStart() -> Cursor {
    var path = ContiguousArray<(node: Node, index: Int)>()
    var node = root
    while true {
      path.append((node, 0))
      if node.height == 0 { break }
      node = node.child(0)
    }
    return Cursor(path: path, prefix: .zero)
  }
}
