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

/// The fixed part of a node: what kind it is and how many slots it uses.
@usableFromInline
struct _NodeHeader {
  /// 0 for a leaf; a child's height plus one for an inner node.
  @usableFromInline let height: Int
  /// The number of items (leaf) or children (inner node).
  @usableFromInline var count: Int
  /// The most slots the tail has room for: `maxFill`, except in a leaf
  /// built as the whole of a small tree (see `SummaryTree.init(_:)`), which
  /// is copied to a full node before its first change.
  @usableFromInline let capacity: Int

  @inlinable
  init(height: Int, count: Int, capacity: Int) {
    self.height = height
    self.count = count
    self.capacity = capacity
  }
}

/// A node of a ``SummaryTree``, in one allocation: a header, then (in the
/// tail) the node's summary and its slots.
///
/// - A leaf's tail holds the summary and up to `maxFill` items.
/// - An inner node's tail holds the summary, up to `maxFill` child
///   summaries, then the children (nodes of one height less).
///
/// So a seek reads one object per level, and a node's slots are created,
/// copied and destroyed by code specialized for the item type (the tail is
/// managed by hand: `count` slots are initialized, the rest are not).
///
/// Nodes are shared between tree values. A node is only ever mutated while
/// uniquely referenced, so a node reachable from two values never changes;
/// that is what makes the unchecked `Sendable` of ``SummaryTree`` (and its
/// cursor) sound. (`ManagedBuffer` itself is not `Sendable`.)
@usableFromInline
final class _TreeNode<Item: TreeItem>: ManagedBuffer<_NodeHeader, UInt64> {
  @usableFromInline typealias Summary = Item.Summary

  // MARK: Layout

  /// Bytes from the start of the tail to the slots.
  @inlinable @inline(__always)
  static var slotsOffset: Int { (MemoryLayout<Summary>.stride + 7) & ~7 }

  /// Bytes from the start of the tail to an inner node's children.
  @inlinable @inline(__always)
  static var childrenOffset: Int {
    slotsOffset + ((MemoryLayout<Summary>.stride * _TreeLimits.maxFill + 7) & ~7)
  }

  /// The tail of a leaf with room for `capacity` items, in 8-byte words.
  @inlinable @inline(__always)
  static func leafWords(_ capacity: Int) -> Int {
    (slotsOffset + MemoryLayout<Item>.stride * capacity + 7) / 8
  }

  /// The tail of an inner node, in 8-byte words.
  @inlinable @inline(__always)
  static var innerWords: Int { childrenOffset / 8 + _TreeLimits.maxFill }

  /// A new node of `height` with no slots and a zero summary, with room for
  /// `capacity` slots (a leaf may have less than `maxFill`).
  @inlinable
  static func make(height: Int, capacity: Int = _TreeLimits.maxFill) -> _TreeNode {
    assert(MemoryLayout<Item>.alignment <= 8 && MemoryLayout<Summary>.alignment <= 8)
    assert(capacity == _TreeLimits.maxFill || (height == 0 && capacity < _TreeLimits.maxFill))
    let words = height == 0 ? leafWords(capacity) : innerWords
    let buffer = create(minimumCapacity: words) { _ in
      _NodeHeader(height: height, count: 0, capacity: capacity)
    }
    let node = unsafeDowncast(buffer, to: _TreeNode.self)
    assert(node.headerPointer == node.withUnsafeMutablePointerToHeader { $0 })
    assert(node.tail == UnsafeMutableRawPointer(node.withUnsafeMutablePointerToElements { $0 }))
    node.summaryPointer.initialize(to: .zero)
    return node
  }

  /// Where the header starts in the object: after the object's own header
  /// (type and reference count, two words), as `ManagedBuffer` lays it out.
  @inlinable @inline(__always)
  static var headerOffset: Int {
    let objectHeader = 2 * MemoryLayout<Int>.size
    let alignment = MemoryLayout<_NodeHeader>.alignment
    return (objectHeader + alignment - 1) & ~(alignment - 1)
  }

  /// Where the tail starts in the object, as `ManagedBuffer` lays it out.
  @inlinable @inline(__always)
  static var tailOffset: Int {
    let alignment = MemoryLayout<UInt64>.alignment
    return (headerOffset + MemoryLayout<_NodeHeader>.size + alignment - 1) & ~(alignment - 1)
  }

  /// The object's address. (`ManagedBuffer`'s own accessors keep the object
  /// alive around a closure, which costs a retain and a release wherever the
  /// reference is borrowed; a node's accessors are called while its tree
  /// holds it.)
  @inlinable @inline(__always)
  var address: UnsafeMutableRawPointer {
    Unmanaged.passUnretained(self).toOpaque()
  }

  /// The header, read and written through a pointer: the stored `header`
  /// property of `ManagedBuffer` would check exclusivity at run time.
  @inlinable @inline(__always)
  var headerPointer: UnsafeMutablePointer<_NodeHeader> {
    (address + Self.headerOffset).assumingMemoryBound(to: _NodeHeader.self)
  }

  /// The start of the tail.
  @inlinable @inline(__always)
  var tail: UnsafeMutableRawPointer { address + Self.tailOffset }

  @inlinable @inline(__always)
  var summaryPointer: UnsafeMutablePointer<Summary> {
    tail.assumingMemoryBound(to: Summary.self)
  }

  /// A leaf's items (`count` of them initialized).
  @inlinable @inline(__always)
  var items: UnsafeMutablePointer<Item> {
    (tail + Self.slotsOffset).assumingMemoryBound(to: Item.self)
  }

  /// An inner node's child summaries (`count` of them initialized).
  @inlinable @inline(__always)
  var summaries: UnsafeMutablePointer<Summary> {
    (tail + Self.slotsOffset).assumingMemoryBound(to: Summary.self)
  }

  /// An inner node's children (`count` of them initialized).
  @inlinable @inline(__always)
  var children: UnsafeMutablePointer<_TreeNode> {
    (tail + Self.childrenOffset).assumingMemoryBound(to: _TreeNode.self)
  }

  deinit {
    let n = headerPointer.pointee.count
    if headerPointer.pointee.height == 0 {
      items.deinitialize(count: n)
    } else {
      // Release the children without asking for their type's metadata.
      let raw = UnsafeMutableRawPointer(children)
      for i in 0..<n {
        Unmanaged<AnyObject>.fromOpaque(
          raw.load(
            fromByteOffset: i * MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer.self)
        ).release()
      }
    }
    // Summaries are BitwiseCopyable: nothing to deinitialize.
  }

  // MARK: Basics

  /// 0 for a leaf; a child's height plus one for an inner node.
  @inlinable @inline(__always)
  var height: Int { headerPointer.pointee.height }

  /// The number of items (leaf) or children (inner node).
  @inlinable @inline(__always)
  var count: Int {
    get { headerPointer.pointee.count }
    set { headerPointer.pointee.count = newValue }
  }

  /// The sum of the items' or the children's summaries.
  @inlinable @inline(__always)
  var summary: Summary {
    get { summaryPointer.pointee }
    set { summaryPointer.pointee = newValue }
  }

  /// The most slots this node has room for.
  @inlinable @inline(__always)
  var slotCapacity: Int { headerPointer.pointee.capacity }

  @inlinable @inline(__always)
  var isLeaf: Bool { height == 0 }

  /// The summary of the slot at `index` (an item or a child).
  @inlinable @inline(__always)
  func slotSummary(_ index: Int) -> Summary {
    height == 0 ? items[index].summary : summaries[index]
  }

  /// A new node with the same slots (sharing the children), with room for
  /// `maxFill`.
  @inlinable
  func copy() -> _TreeNode {
    let node = _TreeNode.make(height: height)
    let n = count
    if height == 0 {
      node.items.initialize(from: items, count: n)
    } else {
      node.summaries.initialize(from: summaries, count: n)
      node.children.initialize(from: children, count: n)
    }
    node.count = n
    node.summary = summary
    return node
  }

  /// Recomputes `summary` from the slots.
  @inlinable
  func recomputeSummary() {
    var total = Summary.zero
    for i in 0..<count { total += slotSummary(i) }
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
}

// MARK: - Leaves

extension _TreeNode {
  /// A leaf of `items` (at most `capacity` of them), with room for
  /// `capacity` (only the root of a tree may have less than `maxFill`).
  @inlinable
  static func leaf(
    _ items: some Collection<Item>, capacity: Int = _TreeLimits.maxFill
  ) -> _TreeNode {
    let node = make(height: 0, capacity: capacity)
    node.setItems(items)
    return node
  }

  /// The item at `index` (`index < count`) of a leaf.
  @inlinable @inline(__always)
  func item(_ index: Int) -> Item { items[index] }

  /// The items in `range` of a leaf, as an array.
  @inlinable
  func itemArray(_ range: Range<Int>) -> ContiguousArray<Item> {
    ContiguousArray(UnsafeBufferPointer(start: items + range.lowerBound, count: range.count))
  }

  /// Replaces the items in `range` of a leaf with `new` and recomputes the
  /// summary. When the result holds more than `maxFill` items, this leaf
  /// keeps the first group and the rest go to new leaves, returned in order
  /// (all within the fill limits).
  @inlinable
  func replaceItems(_ range: Range<Int>, with new: some Collection<Item>)
    -> ContiguousArray<_TreeNode>
  {
    let n = count
    let newCount = n - range.count + new.count
    if newCount <= slotCapacity {
      (items + range.lowerBound).deinitialize(count: range.count)
      (items + range.lowerBound + new.count).moveInitialize(
        from: items + range.upperBound, count: n - range.upperBound)
      var j = range.lowerBound
      for item in new {
        (items + j).initialize(to: item)
        j += 1
      }
      count = newCount
      recomputeSummary()
      return []
    }
    // A node that changes has room for `maxFill` (a small root is copied
    // first: `SummaryTree.ensureUniqueRoot`).
    assert(slotCapacity == _TreeLimits.maxFill)
    var all = itemArray(0..<range.lowerBound)
    all.append(contentsOf: new)
    all.append(
      contentsOf: UnsafeBufferPointer(start: items + range.upperBound, count: n - range.upperBound))
    let sizes = SummaryTree<Item>.groupSizes(all.count)
    var siblings = ContiguousArray<_TreeNode>()
    var start = sizes[0]
    for size in sizes.dropFirst() {
      siblings.append(_TreeNode.leaf(all[start..<start + size]))
      start += size
    }
    setItems(all[..<sizes[0]])
    return siblings
  }

  /// Makes `new` (at most `maxFill`) this leaf's items.
  @inlinable
  func setItems(_ new: some Collection<Item>) {
    assert(new.count <= slotCapacity)
    items.deinitialize(count: count)
    var j = 0
    var total = Summary.zero
    for item in new {
      (items + j).initialize(to: item)
      total += item.summary
      j += 1
    }
    count = j
    summary = total
  }
}

// MARK: - Inner nodes

extension _TreeNode {
  /// An inner node of height `height` over `children` (at most `maxFill`,
  /// each of height `height - 1`).
  @inlinable
  static func inner(height: Int, children: some Collection<_TreeNode>) -> _TreeNode {
    assert(height > 0)
    let node = make(height: height)
    node.setChildren(children)
    return node
  }

  /// The child at `index` (`index < count`) of an inner node.
  @inlinable @inline(__always)
  func child(_ index: Int) -> _TreeNode { children[index] }

  /// The children in `range` of an inner node, as an array.
  @inlinable
  func childArray(_ range: Range<Int>) -> ContiguousArray<_TreeNode> {
    ContiguousArray(UnsafeBufferPointer(start: children + range.lowerBound, count: range.count))
  }

  /// Makes `children[index]` uniquely referenced, copying it if it is shared.
  @inlinable @inline(__always)
  func ensureUniqueChild(_ index: Int) {
    if !isKnownUniquelyReferenced(&children[index]) {
      children[index] = children[index].copy()
    }
  }

  /// Re-reads the summary of the child at `index` after it changed.
  @inlinable @inline(__always)
  func refreshChildSummary(_ index: Int) {
    summaries[index] = children[index].summary
  }

  /// Replaces the children in `range` of an inner node with `new` and
  /// recomputes the summary. When the result holds more than `maxFill`
  /// children, this node keeps the first group and the rest go to new nodes
  /// of its height, returned in order (all within the fill limits).
  @inlinable
  func replaceChildren(_ range: Range<Int>, with new: some Collection<_TreeNode>)
    -> ContiguousArray<_TreeNode>
  {
    let n = count
    let newCount = n - range.count + new.count
    if newCount <= _TreeLimits.maxFill {
      (children + range.lowerBound).deinitialize(count: range.count)
      let tail = n - range.upperBound
      (children + range.lowerBound + new.count).moveInitialize(
        from: children + range.upperBound, count: tail)
      (summaries + range.lowerBound + new.count).moveInitialize(
        from: summaries + range.upperBound, count: tail)
      var j = range.lowerBound
      for node in new {
        (children + j).initialize(to: node)
        (summaries + j).initialize(to: node.summary)
        j += 1
      }
      count = newCount
      recomputeSummary()
      return []
    }
    var all = childArray(0..<range.lowerBound)
    all.append(contentsOf: new)
    all.append(
      contentsOf: UnsafeBufferPointer(
        start: children + range.upperBound, count: n - range.upperBound))
    let sizes = SummaryTree<Item>.groupSizes(all.count)
    var siblings = ContiguousArray<_TreeNode>()
    var start = sizes[0]
    for size in sizes.dropFirst() {
      siblings.append(_TreeNode.inner(height: height, children: all[start..<start + size]))
      start += size
    }
    setChildren(all[..<sizes[0]])
    return siblings
  }

  /// Makes `new` (at most `maxFill`) this inner node's children.
  @inlinable
  func setChildren(_ new: some Collection<_TreeNode>) {
    assert(new.count <= _TreeLimits.maxFill)
    children.deinitialize(count: count)
    var j = 0
    var total = Summary.zero
    for node in new {
      assert(node.height == height - 1)
      (children + j).initialize(to: node)
      (summaries + j).initialize(to: node.summary)
      total += node.summary
      j += 1
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
      var all = a.itemArray(0..<a.count)
      all.append(contentsOf: b.itemArray(0..<b.count))
      a.setItems(all[..<leftCount])
      b.setItems(all[leftCount...])
    } else {
      var all = a.childArray(0..<a.count)
      all.append(contentsOf: b.childArray(0..<b.count))
      a.setChildren(all[..<leftCount])
      b.setChildren(all[leftCount...])
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
