extension SummaryTree {
  #if ENGINE_INTERNAL_CHECKS
  /// Checks the tree's shape and summaries: every leaf at height 0, every
  /// child one level below its parent, every node but the root within the
  /// fill limits, an inner root with at least two children, and every stored
  /// summary equal to the sum of what it summarizes. Traps on a violation.
  ///
  /// Compiled in only with `-DENGINE_INTERNAL_CHECKS`; a no-op otherwise.
  @inlinable
  public func _invariantCheck() {
    if root.height > 0 {
      precondition(root.count >= 2, "inner root with fewer than two children")
    }
    Self.check(root, isRoot: true)
  }

  @inlinable
  static func check(_ node: Node, isRoot: Bool) {
    precondition(node.count <= _TreeLimits.maxFill, "node over maxFill")
    precondition(node.count <= node.slotCapacity, "node over its capacity")
    if !isRoot {
      precondition(node.count >= _TreeLimits.minFill, "node under minFill")
      precondition(node.slotCapacity == _TreeLimits.maxFill, "small node below the root")
    }
    var total = Summary.zero
    if node.height == 0 {
      for i in 0..<node.count { total += node.item(i).summary }
    } else {
      for i in 0..<node.count {
        let child = node.child(i)
        let stored = node.summaries[i]
        precondition(child.height == node.height - 1, "child at the wrong height")
        precondition(child.summary == stored, "stale child summary")
        check(child, isRoot: false)
        total += stored
      }
    }
    precondition(total == node.summary, "node summary differs from its slots' sum")
  }
  #else
  /// Checks the tree's shape and summaries; compiled in only with
  /// `-DENGINE_INTERNAL_CHECKS`, a no-op here.
  @inlinable @inline(__always)
  public func _invariantCheck() {}
  #endif
}
