extension SummaryTree {
  /// Appends all items of `other` after the items of this tree.
  ///
  /// - Complexity: O(log n + log m): the shorter tree is merged into the
  ///   spine of the taller one at its own height.
  @inlinable
  public mutating func append(contentsOf other: Self) {
    if other.isEmpty { return }
    if isEmpty {
      self = other
      return
    }
    if root.height >= other.root.height {
      ensureUniqueRoot()
      let siblings = Self.attach(other.root, to: root, atEnd: true)
      normalizeRoot(splitOff: siblings)
    } else {
      let host = Node(copying: other.root)
      let siblings = Self.attach(root, to: host, atEnd: false)
      root = host
      normalizeRoot(splitOff: siblings)
    }
    _invariantCheck()
  }

  /// Appends one item.
  ///
  /// - Complexity: O(log n)
  @inlinable
  public mutating func append(_ item: Item) {
    append(contentsOf: SummaryTree(root: Node(leaf: [item])))
  }

  /// Inserts one item before all others.
  ///
  /// - Complexity: O(log n)
  @inlinable
  public mutating func prepend(_ item: Item) {
    var head = SummaryTree(root: Node(leaf: [item]))
    head.append(contentsOf: self)
    self = head
  }

  /// The concatenation of two trees.
  ///
  /// - Complexity: O(log n + log m)
  @inlinable
  public static func + (lhs: Self, rhs: Self) -> Self {
    var result = lhs
    result.append(contentsOf: rhs)
    return result
  }

  /// Merges `node`'s slots into the last (`atEnd`) or first node of `host`'s
  /// spine at `node`'s height. `host` is uniquely referenced and at least as
  /// tall as `node`. Returns the right siblings of `host` if it overflowed.
  @inlinable
  static func attach(_ node: Node, to host: Node, atEnd: Bool) -> ContiguousArray<Node> {
    if host.height == node.height {
      if host.height == 0 {
        if atEnd {
          host.items.append(contentsOf: node.items)
        } else {
          host.items.insert(contentsOf: node.items, at: 0)
        }
      } else if atEnd {
        host.children.append(contentsOf: node.children)
        host.childSummaries.append(contentsOf: node.childSummaries)
      } else {
        host.children.insert(contentsOf: node.children, at: 0)
        host.childSummaries.insert(contentsOf: node.childSummaries, at: 0)
      }
      host.recomputeSummary()
      return host.splitIfOverfull()
    }
    let index = atEnd ? host.children.count - 1 : 0
    host.ensureUniqueChild(index)
    let siblings = attach(node, to: host.children[index], atEnd: atEnd)
    host.refreshChildSummary(index)
    host.children.insert(contentsOf: siblings, at: index + 1)
    host.childSummaries.insert(contentsOf: siblings.lazy.map(\.summary), at: index + 1)
    host.recomputeSummary()
    return host.splitIfOverfull()
  }
}
