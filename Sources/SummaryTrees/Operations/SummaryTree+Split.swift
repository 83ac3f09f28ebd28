extension SummaryTree {
  /// Cuts the tree in two at `offset` in metric `M`: the first part holds the
  /// items that end at or before `offset`, the second the rest. An item that
  /// straddles `offset` is the first item of the second part. Items that
  /// measure 0 exactly at `offset` go to the first part with `.left` bias
  /// (the default) and to the second with `.right`.
  ///
  /// Both parts share their nodes with this tree.
  ///
  /// - Complexity: O(log n)
  @inlinable
  public func split<M: TreeMetric>(
    _ metric: M.Type, at offset: Int, bias: Bias = .left
  ) -> (Self, Self) where M.Summary == Summary {
    let result = Self.split(root, metric, offset: offset, bias: bias)
    result.0._invariantCheck()
    result.1._invariantCheck()
    return result
  }

  @inlinable
  static func split<M: TreeMetric>(
    _ node: Node, _ metric: M.Type, offset: Int, bias: Bias = .left
  ) -> (Self, Self) where M.Summary == Summary {
    var rest = offset
    var k = 0
    let count = node.count
    let leaf = node.height == 0
    while k < count {
      let m = M.measure(node.slotSummary(k))
      if m > rest { break }
      // With `.right` bias, zero-measure items at the offset go right: stop at
      // the first one, or at a child that may end with some.
      if bias == .right && (leaf ? rest == 0 : m == rest) { break }
      rest -= m
      k += 1
    }
    if k == count { return (SummaryTree(root: node), Self()) }
    if node.height == 0 {
      if k == 0 { return (Self(), SummaryTree(root: node)) }
      let leaf = node
      return (
        SummaryTree(root: Node.leaf(leaf.itemArray(0..<k))),
        SummaryTree(root: Node.leaf(leaf.itemArray(k..<count)))
      )
    }
    var (left, right) = split(node.child(k), metric, offset: rest, bias: bias)
    let before = subtree(node, 0..<k)
    let after = subtree(node, (k + 1)..<count)
    var head = before
    head.append(contentsOf: left)
    left = head
    right.append(contentsOf: after)
    return (left, right)
  }

  /// A tree made of some of an inner node's children (shared, not copied).
  @inlinable
  static func subtree(_ node: Node, _ range: Range<Int>) -> Self {
    switch range.count {
    case 0: return Self()
    case 1: return SummaryTree(root: node.child(range.lowerBound))
    default:
      return SummaryTree(
        root: Node.inner(height: node.height, children: node.childArray(range)))
    }
  }
}

extension SummaryTree {
  /// Replaces the items between two cuts (as ``split(_:at:bias:)`` cuts) with
  /// `items`: the items that end after `range.lowerBound` and at or before
  /// `range.upperBound` in metric `M` (items that measure 0 at the lower
  /// bound stay before the new ones).
  ///
  /// - Complexity: O(log n + k) for k new items.
  @inlinable
  public mutating func replace<M: TreeMetric, S: Sequence<Item>>(
    _ metric: M.Type, _ range: Range<Int>, with items: S
  ) where M.Summary == Summary {
    let (head, rest) = split(metric, at: range.lowerBound)
    let cut = range.upperBound - M.measure(head.summary)
    let tail = cut > 0 ? rest.split(metric, at: cut).1 : rest
    var result = head
    result.append(contentsOf: SummaryTree(items))
    result.append(contentsOf: tail)
    self = result
  }

  /// Inserts `items` at the cut before the item that holds `offset` in
  /// metric `M` (after the items that end at or before it).
  ///
  /// - Complexity: O(log n + k) for k new items.
  @inlinable
  public mutating func insert<M: TreeMetric, S: Sequence<Item>>(
    contentsOf items: S, at offset: Int, in metric: M.Type
  ) where M.Summary == Summary {
    replace(metric, offset..<offset, with: items)
  }
}

extension SummaryTree {
  /// Cuts the tree exactly at `offset` in metric `M`: like ``split(_:at:bias:)``,
  /// but an item that straddles `offset` is cut in two by `cut` (given the
  /// item and the offset inside it, it returns the part before and the part
  /// after), and the parts go to either side.
  ///
  /// - Complexity: O(log n), plus what `cut` does.
  @inlinable
  public func split<M: TreeMetric>(
    _ metric: M.Type, at offset: Int, bias: Bias = .left,
    cuttingWith cut: (Item, Int) -> (Item, Item)
  ) -> (Self, Self) where M.Summary == Summary {
    var (left, right) = split(metric, at: offset, bias: bias)
    let inside = offset - M.measure(left.summary)
    if inside > 0, let straddling = right.find(metric, 0, bias: .right) {
      // Only the straddling item goes: items after it that measure 0 stay.
      right = right.split(metric, at: M.measure(straddling.item.summary), bias: .right).1
      let (before, after) = cut(straddling.item, inside)
      left.append(before)
      right.prepend(after)
    }
    return (left, right)
  }
}
