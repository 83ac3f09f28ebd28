/// A persistent B-tree of items that keeps a summary of every subtree, so that
/// it can be searched and cut by any dimension of that summary in O(log n).
///
/// `SummaryTree` is a value: copying it is O(1) and shares every node; a
/// mutation copies only the nodes on its path that are shared with another
/// value (copy-on-write). Readers of one value are never disturbed by writers
/// of another, so a tree can be handed to other threads as a snapshot.
///
/// ```swift
/// struct Length: TreeSummary { var value: Int ... }
/// var tree = SummaryTree<Piece>(pieces)
/// let hit = tree.find(LengthMetric.self, 42, bias: .right)
/// let (head, tail) = tree.split(LengthMetric.self, at: 42)
/// ```
///
/// The one implementation serves the text rope (chunks summarized by their
/// UTF-8, UTF-16, scalar and paragraph counts), the document index, the change
/// index and attribute runs.
public struct SummaryTree<Item: TreeItem>: @unchecked Sendable {
  // `Sendable` is unchecked: the nodes are shared between values but never
  // mutated once shared (see `_TreeNode`), and every item is `Sendable`.
  public typealias Summary = Item.Summary

  @usableFromInline typealias Node = _TreeNode<Item>

  /// The root: a leaf (possibly empty) or an inner node with at least two
  /// children.
  @usableFromInline var root: Node

  @inlinable
  init(root: Node) {
    self.root = root
  }

  /// An empty tree.
  ///
  /// - Complexity: O(1)
  @inlinable
  public init() {
    self.root = Node.leaf(EmptyCollection(), capacity: 0)
  }

  /// The sum of the summaries of all items.
  ///
  /// - Complexity: O(1)
  @inlinable
  public var summary: Summary { root.summary }

  /// Whether the tree holds no item.
  ///
  /// - Complexity: O(1)
  @inlinable
  public var isEmpty: Bool { root.count == 0 }

  /// The number of levels below the root (0 when the root is a leaf).
  @inlinable
  public var height: Int { root.height }

  /// Whether two trees share their root node, which means they are equal
  /// without looking further. (Unequal roots say nothing.)
  @inlinable
  public func isIdentical(to other: Self) -> Bool {
    root === other.root
  }

  /// Makes the root uniquely referenced, with room for `maxFill` slots,
  /// before a mutation.
  @inlinable @inline(__always)
  mutating func ensureUniqueRoot() {
    if !isKnownUniquelyReferenced(&root) || root.slotCapacity < _TreeLimits.maxFill {
      root = root.copy()
    }
  }

  /// Restores the root's shape after a mutation: grows the tree if the root
  /// split into `siblings`, and drops levels while the root has a single
  /// child.
  @inlinable @inline(__always)
  mutating func normalizeRoot(splitOff siblings: ContiguousArray<Node>) {
    if siblings.isEmpty && (root.height == 0 || root.count > 1) { return }
    growOrShrinkRoot(splitOff: siblings)
  }

  @inlinable
  mutating func growOrShrinkRoot(splitOff siblings: ContiguousArray<Node>) {
    if !siblings.isEmpty {
      var level: ContiguousArray<Node> = [root]
      level.append(contentsOf: siblings)
      root = Self.stack(level)
    }
    while root.height > 0 && root.count == 1 {
      root = root.child(0)
    }
  }
}

// MARK: - Building

extension SummaryTree {
  /// A tree of `items`, in order, built bottom-up with full nodes.
  ///
  /// - Complexity: O(n)
  @inlinable
  public init<S: Sequence>(_ items: S) where S.Element == Item {
    var level = ContiguousArray<Node>()
    let pending = ContiguousArray<Item>(items)
    if pending.count <= _TreeLimits.maxFill {
      // A small tree (a short text, a few runs) is one leaf with room for
      // just its items; it grows to a full node when it first changes.
      self.root = Node.leaf(pending, capacity: pending.count)
      return
    }
    var start = 0
    for size in Self.groupSizes(pending.count) {
      level.append(Node.leaf(pending[start..<start + size]))
      start += size
    }
    self.root = Self.stack(level)
  }

  /// The root of a tree whose nodes of one height are `level`, in order, each
  /// within the fill limits.
  @inlinable
  static func stack(_ nodes: ContiguousArray<Node>) -> Node {
    var level = nodes
    while level.count > 1 {
      let height = level[0].height + 1
      var next = ContiguousArray<Node>()
      var start = 0
      for size in groupSizes(level.count) {
        next.append(Node.inner(height: height, children: level[start..<start + size]))
        start += size
      }
      level = next
    }
    return level[0]
  }

  /// Sizes that cut `count` slots into the fewest nodes of at most `maxFill`,
  /// as evenly as possible (so each has at least `minFill` when there are
  /// several).
  @inlinable
  static func groupSizes(_ count: Int) -> [Int] {
    let groups = (count + _TreeLimits.maxFill - 1) / _TreeLimits.maxFill
    let base = count / groups
    let extra = count % groups
    return (0..<groups).map { $0 < extra ? base + 1 : base }
  }
}
