/// The node sizes of every ``SummaryTree``.
///
/// Debug builds (and so `swift test`) use a tiny fan-out, so that splits,
/// merges and rebalancing happen on inputs of a few items.
@usableFromInline
enum _TreeLimits {
  #if DEBUG
  /// The most items (leaf) or children (inner node) a node holds.
  @usableFromInline static let maxFill = 4
  #else
  /// The most items (leaf) or children (inner node) a node holds.
  @usableFromInline static let maxFill = 16
  #endif
  /// The fewest items or children a node other than the root holds.
  @usableFromInline static let minFill = maxFill / 2
}

/// A node of a ``SummaryTree``: a leaf holds items, an inner node holds child
/// nodes of one height less and a copy of each child's summary (so that a
/// seek reads one contiguous array per level).
///
/// Nodes are shared between tree values. A node is only ever mutated while
/// uniquely referenced, so a node reachable from two values never changes;
/// that is what makes the unchecked `Sendable` sound.
@usableFromInline
final class _TreeNode<Item: TreeItem>: @unchecked Sendable {
  @usableFromInline typealias Summary = Item.Summary

  /// 0 for a leaf; a child's height plus one for an inner node.
  @usableFromInline let height: Int
  /// The sum of the items' or the children's summaries.
  @usableFromInline @exclusivity(unchecked) var summary: Summary
  /// A leaf's items; empty in an inner node.
  @usableFromInline @exclusivity(unchecked) var items: ContiguousArray<Item>
  /// An inner node's children; empty in a leaf.
  @usableFromInline @exclusivity(unchecked) var children: ContiguousArray<_TreeNode>
  /// `childSummaries[i] == children[i].summary`; empty in a leaf.
  @usableFromInline @exclusivity(unchecked) var childSummaries: ContiguousArray<Summary>

  @inlinable
  init(leaf items: ContiguousArray<Item>) {
    self.height = 0
    self.items = items
    self.children = []
    self.childSummaries = []
    var total = Summary.zero
    for item in items { total += item.summary }
    self.summary = total
  }

  @inlinable
  init(height: Int, children: ContiguousArray<_TreeNode>) {
    assert(height > 0)
    self.height = height
    self.items = []
    self.children = children
    var sums = ContiguousArray<Summary>()
    sums.reserveCapacity(_TreeLimits.maxFill + 1)
    var total = Summary.zero
    for child in children {
      assert(child.height == height - 1)
      sums.append(child.summary)
      total += child.summary
    }
    self.childSummaries = sums
    self.summary = total
  }

  @inlinable
  init(copying other: _TreeNode) {
    self.height = other.height
    self.summary = other.summary
    self.items = other.items
    self.children = other.children
    self.childSummaries = other.childSummaries
  }

  @inlinable @inline(__always)
  var isLeaf: Bool { height == 0 }

  /// The number of items (leaf) or children (inner node).
  @inlinable @inline(__always)
  var count: Int { height == 0 ? items.count : children.count }

  /// The summary of the slot at `index` (an item or a child).
  @inlinable @inline(__always)
  func slotSummary(_ index: Int) -> Summary {
    height == 0 ? items[index].summary : childSummaries[index]
  }

  /// Recomputes `summary` from the slots.
  @inlinable
  func recomputeSummary() {
    var total = Summary.zero
    if height == 0 {
      for item in items { total += item.summary }
    } else {
      for s in childSummaries { total += s }
    }
    summary = total
  }

  /// Updates `summary` after one part of it, `old`, became `new`: by
  /// subtraction when the summary allows it, else by adding up the slots.
  @inlinable @inline(__always)
  func replaceInSummary(_ old: Summary, with new: Summary) {
    if let rest = Summary.removing(old, from: summary) {
      summary = rest + new
    } else {
      recomputeSummary()
    }
  }

  /// Makes `children[index]` uniquely referenced, copying it if it is shared.
  @inlinable @inline(__always)
  func ensureUniqueChild(_ index: Int) {
    if !isKnownUniquelyReferenced(&children[index]) {
      children[index] = _TreeNode(copying: children[index])
    }
  }

  /// If this node holds more than `maxFill` slots, keeps the first group and
  /// moves the rest into new right siblings (all within the fill limits),
  /// which it returns in order; else returns none.
  @inlinable
  func splitIfOverfull() -> ContiguousArray<_TreeNode> {
    guard count > _TreeLimits.maxFill else { return [] }
    let sizes = SummaryTree<Item>.groupSizes(count)
    var siblings = ContiguousArray<_TreeNode>()
    var start = sizes[0]
    for size in sizes.dropFirst() {
      if height == 0 {
        siblings.append(_TreeNode(leaf: ContiguousArray(items[start..<start + size])))
      } else {
        siblings.append(
          _TreeNode(height: height, children: ContiguousArray(children[start..<start + size])))
      }
      start += size
    }
    if height == 0 {
      items.removeSubrange(sizes[0]...)
    } else {
      children.removeSubrange(sizes[0]...)
      childSummaries.removeSubrange(sizes[0]...)
    }
    recomputeSummary()
    return siblings
  }

  /// Appends a child, keeping `childSummaries` in step.
  @inlinable
  func appendChild(_ child: _TreeNode) {
    children.append(child)
    childSummaries.append(child.summary)
    summary += child.summary
  }

  /// Re-reads the summary of the child at `index` after it changed.
  @inlinable @inline(__always)
  func refreshChildSummary(_ index: Int) {
    childSummaries[index] = children[index].summary
  }

  /// Brings the children at `index` and `index + 1` back within the fill
  /// limits after one of them shrank or grew: merges them when they fit in
  /// one node, else shares their slots evenly. Both must be uniquely
  /// referenced (this function makes sure of it).
  ///
  /// - Returns: `true` if the two were merged into one (the child at
  ///   `index + 1` is gone).
  @inlinable
  @discardableResult
  func rebalanceChildren(_ index: Int) -> Bool {
    ensureUniqueChild(index)
    ensureUniqueChild(index + 1)
    let a = children[index]
    let b = children[index + 1]
    let total = a.count + b.count
    if total <= _TreeLimits.maxFill {
      if a.height == 0 {
        a.items.append(contentsOf: b.items)
      } else {
        a.children.append(contentsOf: b.children)
        a.childSummaries.append(contentsOf: b.childSummaries)
      }
      a.recomputeSummary()
      children.remove(at: index + 1)
      childSummaries.remove(at: index + 1)
      refreshChildSummary(index)
      return true
    }
    let leftCount = total / 2
    if a.count > leftCount {
      // Move the tail of `a` to the front of `b`.
      let moved = a.count - leftCount
      if a.height == 0 {
        b.items.insert(contentsOf: a.items[leftCount...], at: 0)
        a.items.removeSubrange(leftCount...)
      } else {
        b.children.insert(contentsOf: a.children[leftCount...], at: 0)
        b.childSummaries.insert(contentsOf: a.childSummaries[leftCount...], at: 0)
        a.children.removeSubrange(leftCount...)
        a.childSummaries.removeSubrange(leftCount...)
      }
      assert(moved > 0)
    } else if a.count < leftCount {
      // Move the head of `b` to the end of `a`.
      let moved = leftCount - a.count
      if a.height == 0 {
        a.items.append(contentsOf: b.items[..<moved])
        b.items.removeSubrange(..<moved)
      } else {
        a.children.append(contentsOf: b.children[..<moved])
        a.childSummaries.append(contentsOf: b.childSummaries[..<moved])
        b.children.removeSubrange(..<moved)
        b.childSummaries.removeSubrange(..<moved)
      }
    }
    a.recomputeSummary()
    b.recomputeSummary()
    refreshChildSummary(index)
    refreshChildSummary(index + 1)
    return false
  }

  /// Repairs the child at `index` if it has fewer than `minFill` slots, by
  /// rebalancing it with a neighbour. Does nothing when this node has a single
  /// child (the tree collapses such a root).
  @inlinable
  func fixUnderflow(at index: Int) {
    guard children[index].count < _TreeLimits.minFill, children.count > 1 else { return }
    if index + 1 < children.count {
      rebalanceChildren(index)
    } else {
      rebalanceChildren(index - 1)
    }
  }
}
