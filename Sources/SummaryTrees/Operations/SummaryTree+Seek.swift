/// Where a seek in a ``SummaryTree`` landed: the item, and the summary of
/// everything before it.
public struct TreeLocation<Item: TreeItem>: Sendable {
  /// The item found.
  public var item: Item
  /// The sum of the summaries of all items before `item`.
  public var prefix: Item.Summary

  @inlinable
  public init(item: Item, prefix: Item.Summary) {
    self.item = item
    self.prefix = prefix
  }
}

extension SummaryTree {
  /// Picks, among `count` slots whose summaries `slot(i)` gives, the one that
  /// holds `offset` (relative to the slots' start) in metric `M`; returns its
  /// index and the offset's remainder inside it.
  ///
  /// With `.left` bias an offset on a boundary goes to the slot ending there,
  /// with `.right` to the slot starting there. An offset past the end goes to
  /// the last slot.
  @inlinable @inline(__always)
  static func pickSlot<M: TreeMetric>(
    _: M.Type, in node: Node, offset: Int, bias: Bias, prefix: inout Summary
  ) -> (index: Int, rest: Int) where M.Summary == Summary {
    // First find the slot looking at the one metric only, then add up the
    // summaries before it.
    var rest = offset
    var i = 0
    let last = node.count - 1
    // With `.left` bias an offset equal to a slot's size stays in that slot.
    let stay = bias == .left ? 1 : 0
    if node.height == 0 {
      let leaf = node
      while i < last {
        let m = M.measure(leaf.item(i).summary)
        if rest < m &+ stay { break }
        rest -= m
        i += 1
      }
      for j in 0..<i { prefix += leaf.item(j).summary }
    } else {
      let inner = node
      while i < last {
        let m = M.measure(inner.summaries[i])
        if rest < m &+ stay { break }
        rest -= m
        i += 1
      }
      for j in 0..<i { prefix += inner.summaries[j] }
    }
    return (i, rest)
  }

  /// The item that holds `offset` in metric `M`, and the summary of all items
  /// before it; `nil` if the tree is empty.
  ///
  /// An offset on the boundary between two items finds the item ending there
  /// (`.left`) or the one starting there (`.right`). An offset past the end
  /// finds the last item; an offset of 0 with `.left` bias the first.
  ///
  /// - Complexity: O(log n)
  @inlinable
  public func find<M: TreeMetric>(
    _ metric: M.Type, _ offset: Int, bias: Bias
  ) -> TreeLocation<Item>? where M.Summary == Summary {
    guard let (leaf, index, prefix) = descend(metric, offset, bias: bias) else { return nil }
    return leaf._withUnsafeGuaranteedRef { TreeLocation(item: $0.items[index], prefix: prefix) }
  }

  /// Calls `body` with the item that holds `offset` in metric `M` (as
  /// ``find(_:_:bias:)`` picks it), borrowed rather than copied, and the
  /// summary of all items before it; returns what `body` returns, or `nil`
  /// if the tree is empty.
  ///
  /// - Complexity: O(log n), plus what `body` does.
  @inlinable
  public func withItem<M: TreeMetric, R>(
    _ metric: M.Type, at offset: Int, bias: Bias, _ body: (borrowing Item, Summary) -> R
  ) -> R? where M.Summary == Summary {
    guard let (leaf, index, prefix) = descend(metric, offset, bias: bias) else { return nil }
    return leaf._withUnsafeGuaranteedRef { body($0.items[index], prefix) }
  }

  /// The leaf, and the index in it, of the item that holds `offset` in
  /// metric `M`, with the summary of all items before it; `nil` if the tree
  /// is empty. The leaf is not retained: it lives as long as this tree.
  @inlinable @inline(__always)
  func descend<M: TreeMetric>(
    _ metric: M.Type, _ offset: Int, bias: Bias
  ) -> (leaf: Unmanaged<Node>, index: Int, prefix: Summary)? where M.Summary == Summary {
    if root.count == 0 { return nil }
    var prefix = Summary.zero
    var rest = offset
    // The tree value holds every node for the duration of the call, so the
    // walk borrows them: no reference counting on the way down.
    var node = Unmanaged.passUnretained(root)
    while true {
      let next: Unmanaged<Node>? = node._withUnsafeGuaranteedRef { node in
        let (i, r) = Self.pickSlot(metric, in: node, offset: rest, bias: bias, prefix: &prefix)
        rest = r
        if node.height == 0 {
          rest = i
          return nil
        }
        return Unmanaged.passUnretained(node.child(i))
      }
      guard let next else { return (node, rest, prefix) }
      node = next
    }
  }
}
