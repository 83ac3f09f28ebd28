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

// The slots of a node live inside the node object (one allocation, one cache
// miss to reach a level), so their number is a compile-time constant.
#if DEBUG
/// Fixed storage for the slots of one node (`_TreeLimits.maxFill` of them).
@usableFromInline typealias _NodeSlots<Element> = InlineArray<4, Element>
#else
/// Fixed storage for the slots of one node (`_TreeLimits.maxFill` of them).
@usableFromInline typealias _NodeSlots<Element> = InlineArray<16, Element>
#endif

/// A node of a ``SummaryTree``: a ``_TreeLeaf`` holds items, a
/// ``_TreeInner`` holds child nodes of one height less with a copy of each
/// child's summary. Either keeps its slots inline, in the node object, so a
/// seek reads one object per level.
///
/// Nodes are shared between tree values. A node is only ever mutated while
/// uniquely referenced, so a node reachable from two values never changes;
/// that is what makes the unchecked `Sendable` sound.
@usableFromInline
class _TreeNode<Item: TreeItem>: @unchecked Sendable {
  @usableFromInline typealias Summary = Item.Summary
  @usableFromInline typealias Leaf = _TreeLeaf<Item>
  @usableFromInline typealias Inner = _TreeInner<Item>

  /// 0 for a leaf; a child's height plus one for an inner node.
  @usableFromInline final let height: Int
  /// The number of items (leaf) or children (inner node).
  @usableFromInline @exclusivity(unchecked) final var count: Int
  /// The sum of the items' or the children's summaries.
  @usableFromInline @exclusivity(unchecked) final var summary: Summary

  @inlinable
  init(height: Int, count: Int, summary: Summary) {
    self.height = height
    self.count = count
    self.summary = summary
  }

  @inlinable @inline(__always)
  final var isLeaf: Bool { height == 0 }

  /// This node as a leaf; it must be one.
  @inlinable @inline(__always)
  final var leaf: Leaf { unsafeDowncast(self, to: Leaf.self) }

  /// This node as an inner node; it must be one.
  @inlinable @inline(__always)
  final var inner: Inner { unsafeDowncast(self, to: Inner.self) }

  /// The summary of the slot at `index` (an item or a child).
  @inlinable @inline(__always)
  final func slotSummary(_ index: Int) -> Summary {
    height == 0
      ? leaf.items[index].unsafelyUnwrapped.summary : inner.summaries[index]
  }

  /// A new node with the same slots (sharing the children).
  @inlinable
  final func copy() -> _TreeNode {
    height == 0 ? Leaf(copying: leaf) : Inner(copying: inner)
  }

  /// Recomputes `summary` from the slots.
  @inlinable
  final func recomputeSummary() {
    var total = Summary.zero
    for i in 0..<count { total += slotSummary(i) }
    summary = total
  }

  /// Updates `summary` after one part of it, `old`, became `new`: by
  /// subtraction when the summary allows it, else by adding up the slots.
  @inlinable @inline(__always)
  final func replaceInSummary(_ old: Summary, with new: Summary) {
    if let rest = Summary.removing(old, from: summary) {
      summary = rest + new
    } else {
      recomputeSummary()
    }
  }
}

/// A leaf of a ``SummaryTree``: up to `maxFill` items, inline.
@usableFromInline
final class _TreeLeaf<Item: TreeItem>: _TreeNode<Item>, @unchecked Sendable {
  /// `items[0..<count]` are set; the rest are `nil`.
  @usableFromInline @exclusivity(unchecked) var items: _NodeSlots<Item?>

  /// A leaf of `items` (at most `maxFill` of them).
  @inlinable
  init(_ items: some Collection<Item>) {
    assert(items.count <= _TreeLimits.maxFill)
    var slots = _NodeSlots<Item?>(repeating: nil)
    var total = Summary.zero
    var n = 0
    for item in items {
      slots[n] = item
      total += item.summary
      n += 1
    }
    self.items = slots
    super.init(height: 0, count: n, summary: total)
  }

  @inlinable
  init(copying other: _TreeLeaf) {
    self.items = other.items
    super.init(height: 0, count: other.count, summary: other.summary)
  }

  /// The item at `index` (`index < count`).
  @inlinable @inline(__always)
  func item(_ index: Int) -> Item { items[index].unsafelyUnwrapped }

  /// The items in `range`, as an array.
  @inlinable
  func itemArray(_ range: Range<Int>) -> ContiguousArray<Item> {
    var result = ContiguousArray<Item>()
    result.reserveCapacity(range.count)
    for i in range { result.append(item(i)) }
    return result
  }

  /// Replaces the items in `range` with `new` and recomputes the summary.
  /// When the result holds more than `maxFill` items, this leaf keeps the
  /// first group and the rest go to new leaves, returned in order (all within
  /// the fill limits).
  @inlinable
  func replaceItems(_ range: Range<Int>, with new: some Collection<Item>)
    -> ContiguousArray<_TreeNode<Item>>
  {
    let newCount = count - range.count + new.count
    if newCount <= _TreeLimits.maxFill {
      let shift = new.count - range.count
      if shift > 0 {
        var i = count - 1
        while i >= range.upperBound {
          items[i + shift] = items[i]
          i -= 1
        }
      } else if shift < 0 {
        for i in range.upperBound..<count { items[i + shift] = items[i] }
        for i in newCount..<count { items[i] = nil }
      }
      var j = range.lowerBound
      for item in new {
        items[j] = item
        j += 1
      }
      count = newCount
      recomputeSummary()
      return []
    }
    var all = itemArray(0..<range.lowerBound)
    all.append(contentsOf: new)
    for i in range.upperBound..<count { all.append(item(i)) }
    let sizes = SummaryTree<Item>.groupSizes(all.count)
    var siblings = ContiguousArray<_TreeNode<Item>>()
    var start = sizes[0]
    for size in sizes.dropFirst() {
      siblings.append(_TreeLeaf(all[start..<start + size]))
      start += size
    }
    setItems(all[..<sizes[0]])
    return siblings
  }

  /// Makes `items` (at most `maxFill`) this leaf's items.
  @inlinable
  func setItems(_ new: some Collection<Item>) {
    assert(new.count <= _TreeLimits.maxFill)
    var j = 0
    var total = Summary.zero
    for item in new {
      items[j] = item
      total += item.summary
      j += 1
    }
    for i in j..<max(j, count) { items[i] = nil }
    count = j
    summary = total
  }
}

/// An inner node of a ``SummaryTree``: up to `maxFill` children of one height
/// less, with their summaries, inline.
@usableFromInline
final class _TreeInner<Item: TreeItem>: _TreeNode<Item>, @unchecked Sendable {
  /// `summaries[i] == children[i].summary` for `i < count`.
  @usableFromInline @exclusivity(unchecked) var summaries: _NodeSlots<Summary>
  /// `children[0..<count]` are set; the rest are `nil`.
  @usableFromInline @exclusivity(unchecked) var children: _NodeSlots<_TreeNode<Item>?>

  /// An inner node of height `height` over `children` (at most `maxFill`,
  /// each of height `height - 1`).
  @inlinable
  init(height: Int, children: some Collection<_TreeNode<Item>>) {
    assert(height > 0 && children.count <= _TreeLimits.maxFill)
    var slots = _NodeSlots<_TreeNode<Item>?>(repeating: nil)
    var sums = _NodeSlots<Summary>(repeating: .zero)
    var total = Summary.zero
    var n = 0
    for child in children {
      assert(child.height == height - 1)
      slots[n] = child
      sums[n] = child.summary
      total += child.summary
      n += 1
    }
    self.children = slots
    self.summaries = sums
    super.init(height: height, count: n, summary: total)
  }

  @inlinable
  init(copying other: _TreeInner) {
    self.children = other.children
    self.summaries = other.summaries
    super.init(height: other.height, count: other.count, summary: other.summary)
  }

  /// The child at `index` (`index < count`).
  @inlinable @inline(__always)
  func child(_ index: Int) -> _TreeNode<Item> { children[index].unsafelyUnwrapped }

  /// The children in `range`, as an array.
  @inlinable
  func childArray(_ range: Range<Int>) -> ContiguousArray<_TreeNode<Item>> {
    var result = ContiguousArray<_TreeNode<Item>>()
    result.reserveCapacity(range.count)
    for i in range { result.append(child(i)) }
    return result
  }

  /// Makes `children[index]` uniquely referenced, copying it if it is shared.
  @inlinable @inline(__always)
  func ensureUniqueChild(_ index: Int) {
    if !isKnownUniquelyReferenced(&children[index]) {
      children[index] = child(index).copy()
    }
  }

  /// Re-reads the summary of the child at `index` after it changed.
  @inlinable @inline(__always)
  func refreshChildSummary(_ index: Int) {
    summaries[index] = child(index).summary
  }

  /// Replaces the children in `range` with `new` and recomputes the summary.
  /// When the result holds more than `maxFill` children, this node keeps the
  /// first group and the rest go to new nodes of its height, returned in
  /// order (all within the fill limits).
  @inlinable
  func replaceChildren(_ range: Range<Int>, with new: some Collection<_TreeNode<Item>>)
    -> ContiguousArray<_TreeNode<Item>>
  {
    let newCount = count - range.count + new.count
    if newCount <= _TreeLimits.maxFill {
      let shift = new.count - range.count
      if shift > 0 {
        var i = count - 1
        while i >= range.upperBound {
          children[i + shift] = children[i]
          summaries[i + shift] = summaries[i]
          i -= 1
        }
      } else if shift < 0 {
        for i in range.upperBound..<count {
          children[i + shift] = children[i]
          summaries[i + shift] = summaries[i]
        }
        for i in newCount..<count {
          children[i] = nil
          summaries[i] = .zero
        }
      }
      var j = range.lowerBound
      for node in new {
        children[j] = node
        summaries[j] = node.summary
        j += 1
      }
      count = newCount
      recomputeSummary()
      return []
    }
    var all = childArray(0..<range.lowerBound)
    all.append(contentsOf: new)
    for i in range.upperBound..<count { all.append(child(i)) }
    let sizes = SummaryTree<Item>.groupSizes(all.count)
    var siblings = ContiguousArray<_TreeNode<Item>>()
    var start = sizes[0]
    for size in sizes.dropFirst() {
      siblings.append(_TreeInner(height: height, children: all[start..<start + size]))
      start += size
    }
    setChildren(all[..<sizes[0]])
    return siblings
  }

  /// Makes `new` (at most `maxFill`) this node's children.
  @inlinable
  func setChildren(_ new: some Collection<_TreeNode<Item>>) {
    assert(new.count <= _TreeLimits.maxFill)
    var j = 0
    var total = Summary.zero
    for node in new {
      children[j] = node
      summaries[j] = node.summary
      total += node.summary
      j += 1
    }
    for i in j..<max(j, count) {
      children[i] = nil
      summaries[i] = .zero
    }
    count = j
    summary = total
  }

  /// Brings the children at `index` and `index + 1` back within the fill
  /// limits after one of them shrank or grew: merges them when they fit in
  /// one node, else shares their slots evenly. Makes both uniquely
  /// referenced first.
  ///
  /// - Returns: `true` if the two were merged into one (the child at
  ///   `index + 1` is gone).
  @inlinable
  @discardableResult
  func rebalanceChildren(_ index: Int) -> Bool {
    ensureUniqueChild(index)
    ensureUniqueChild(index + 1)
    let a = child(index)
    let b = child(index + 1)
    let total = a.count + b.count
    let leftCount = total <= _TreeLimits.maxFill ? total : total / 2
    if a.height == 0 {
      var all = a.leaf.itemArray(0..<a.count)
      all.append(contentsOf: b.leaf.itemArray(0..<b.count))
      a.leaf.setItems(all[..<leftCount])
      b.leaf.setItems(all[leftCount...])
    } else {
      var all = a.inner.childArray(0..<a.count)
      all.append(contentsOf: b.inner.childArray(0..<b.count))
      a.inner.setChildren(all[..<leftCount])
      b.inner.setChildren(all[leftCount...])
    }
    refreshChildSummary(index)
    if leftCount == total {
      _ = replaceChildren(index + 1..<index + 2, with: EmptyCollection())
      return true
    }
    refreshChildSummary(index + 1)
    return false
  }

  /// Repairs the child at `index` if it has fewer than `minFill` slots, by
  /// rebalancing it with a neighbour. Does nothing when this node has a single
  /// child (the tree collapses such a root).
  @inlinable
  func fixUnderflow(at index: Int) {
    guard child(index).count < _TreeLimits.minFill, count > 1 else { return }
    if index + 1 < count {
      rebalanceChildren(index)
    } else {
      rebalanceChildren(index - 1)
    }
  }
}
