/// Descents that a structure built on the tree steers with its own summary,
/// where one metric is not enough: the first item at which a monotone
/// condition on the running total holds (an ordered key), and the items of
/// the subtrees that a condition on their summaries admits (an overlap with
/// a range, through a maximum kept in the summary).
extension SummaryTree {
  /// The sum of the summaries of the items before the first one at which
  /// `reached` holds of the running total (the sum up to and including
  /// it); `reached` must be monotone (once true for a total, true for
  /// every longer one). The whole summary when no item reaches it. (A
  /// summary that counts its items says where that item is.)
  ///
  /// - Complexity: O(log n) calls of `reached`, times the fan-out.
  @inlinable
  public func prefix(before reached: (Summary) -> Bool) -> Summary {
    var prefix = Summary.zero
    var node = Unmanaged.passUnretained(root)
    while true {
      let next: Unmanaged<Node>? = node._withUnsafeGuaranteedRef { node in
        let n = node.count
        if node.height == 0 {
          for i in 0..<n {
            let total = prefix + node.items[i].summary
            if reached(total) { return nil }
            prefix = total
          }
          return nil
        }
        for i in 0..<n {
          let total = prefix + node.summaries[i]
          if reached(total) { return Unmanaged.passUnretained(node.children[i]) }
          prefix = total
        }
        return nil
      }
      guard let next else { return prefix }
      node = next
    }
  }

  /// Calls `body` on the items, in order, of every subtree (and every item)
  /// whose summary `admits` accepts given the sum of all before it; `body`
  /// returns `false` to stop. A subtree not admitted is skipped whole.
  ///
  /// - Complexity: O(log n) per item visited, plus the admitted subtrees'
  ///   nodes.
  @inlinable
  public func forEach(
    admitting admits: (_ prefix: Summary, _ slot: Summary) -> Bool,
    _ body: (borrowing Item, _ prefix: Summary) -> Bool
  ) {
    var prefix = Summary.zero
    _ = Self._visit(root, prefix: &prefix, admits, body)
  }

  @inlinable
  static func _visit(
    _ node: Node, prefix: inout Summary,
    _ admits: (Summary, Summary) -> Bool,
    _ body: (borrowing Item, Summary) -> Bool
  ) -> Bool {
    let n = node.count
    if node.height == 0 {
      for i in 0..<n {
        let summary = node.items[i].summary
        if admits(prefix, summary) && !body(node.items[i], prefix) { return false }
        prefix += summary
      }
      return true
    }
    for i in 0..<n {
      let summary = node.summaries[i]
      if admits(prefix, summary) {
        var inner = prefix
        let going = Unmanaged.passUnretained(node.children[i])._withUnsafeGuaranteedRef {
          _visit($0, prefix: &inner, admits, body)
        }
        if !going { return false }
      }
      prefix += summary
    }
    return true
  }

  /// Calls `body` with the items of a tree that is a single leaf (a
  /// node's worth of items at most), to read and change in place (not
  /// their number); the summary is added up again after. Returns `nil`,
  /// without calling `body`, for a taller tree.
  ///
  /// - Complexity: O(1) besides what `body` does: the items of a small tree
  ///   without a descent or a closure per item.
  @inlinable
  public mutating func withLeafItems<R>(
    _ body: (UnsafeMutableBufferPointer<Item>) throws -> R
  ) rethrows -> R? {
    guard root.height == 0 else { return nil }
    ensureUniqueRoot()
    defer {
      root.recomputeSummary()
      _invariantCheck()
    }
    return try body(UnsafeMutableBufferPointer(start: root.items, count: root.count))
  }

  /// Like ``forEach(admitting:_:)``, but `body` may change each item it is
  /// given in place (not its place in the order: the caller keeps the
  /// tree's own order). The prefix given to `body` and to `admits` counts
  /// the items before as they are after `body` changed them. Only the nodes
  /// on the paths to admitted subtrees are copied, if shared.
  ///
  /// - Complexity: O(log n) per item visited, plus the admitted subtrees'
  ///   nodes.
  @inlinable
  public mutating func updateEach(
    admitting admits: (_ prefix: Summary, _ slot: Summary) -> Bool,
    _ body: (inout Item, _ prefix: Summary) -> Bool
  ) {
    if isEmpty { return }
    ensureUniqueRoot()
    var prefix = Summary.zero
    _ = Self._update(root, prefix: &prefix, admits, body)
    _invariantCheck()
  }

  /// The step of `updateEach`; `node` is uniquely referenced. Returns
  /// `false` once `body` asked to stop.
  @inlinable
  static func _update(
    _ node: Node, prefix: inout Summary,
    _ admits: (Summary, Summary) -> Bool,
    _ body: (inout Item, Summary) -> Bool
  ) -> Bool {
    let n = node.count
    var going = true
    // A node whose slots' summaries changed keeps its own up to date slot by
    // slot where the summary can tell (`replacing`), else adds them up again.
    var stale = false
    @inline(__always) func replace(_ old: Summary, _ new: Summary, _ i: Int) {
      if stale || old == new { return }
      if let whole = Summary.replacing(old, with: new, in: node.summary, isLast: i == n - 1) {
        node.summary = whole
      } else {
        stale = true
      }
    }
    if node.height == 0 {
      var i = 0
      while i < n && going {
        let summary = node.items[i].summary
        if admits(prefix, summary) {
          going = body(&node.items[i], prefix)
          let now = node.items[i].summary
          replace(summary, now, i)
          prefix += now
        } else {
          prefix += summary
        }
        i += 1
      }
      if stale { node.recomputeSummary() }
      return going
    }
    var i = 0
    while i < n && going {
      let summary = node.summaries[i]
      if admits(prefix, summary) {
        node.ensureUniqueChild(i)
        var inner = prefix
        // `node` holds the child for the whole call: borrow it.
        going = Unmanaged.passUnretained(node.children[i])._withUnsafeGuaranteedRef {
          _update($0, prefix: &inner, admits, body)
        }
        node.refreshChildSummary(i)
        replace(summary, node.summaries[i], i)
      }
      prefix += node.summaries[i]
      i += 1
    }
    if stale { node.recomputeSummary() }
    return going
  }
}
