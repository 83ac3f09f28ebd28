/// What an in-place update of a ``SummaryTree`` item does to the tree after
/// the update closure has run.
public enum TreeItemChange<Item: TreeItem>: Sendable {
  /// Keep the (possibly modified) item where it is.
  case keep
  /// Remove the item.
  case remove
  /// Keep the item and insert these items right after it.
  case insertAfter(ContiguousArray<Item>)
}

extension SummaryTree {
  /// Finds the item holding `offset` in metric `M` (as ``find(_:_:bias:)``
  /// does), lets `body` modify it in place, then applies the structural change
  /// `body` asks for, splitting and rebalancing nodes on the way up.
  ///
  /// This is the fast path for small edits: no node is allocated unless one
  /// overflows or is shared with another tree value.
  ///
  /// If `body` throws, the item keeps whatever changes it made, the tree's
  /// summaries are brought up to date, and the error is rethrown.
  ///
  /// - Parameters:
  ///   - metric: the metric `offset` is measured in.
  ///   - offset: a position in metric `M`.
  ///   - bias: which item to take when `offset` falls between two.
  ///   - body: receives the item and the summary of everything before it;
  ///     returns a value for the caller and the change to make.
  /// - Returns: what `body` returned, or `nil` if the tree is empty.
  /// - Complexity: O(log n), plus what `body` does.
  @inlinable
  public mutating func updateItem<M: TreeMetric, R>(
    _ metric: M.Type,
    at offset: Int,
    bias: Bias,
    _ body: (inout Item, Summary) throws -> (R, TreeItemChange<Item>)
  ) rethrows -> R? where M.Summary == Summary {
    if isEmpty { return nil }
    ensureUniqueRoot()
    var result: R? = nil
    let siblings = try Self.update(
      root, metric, offset: offset, bias: bias, prefix: .zero, result: &result, body)
    normalizeRoot(splitOff: siblings)
    _invariantCheck()
    return result
  }

  /// The recursive step of `updateItem`; `node` is uniquely referenced.
  /// Returns the new right siblings if `node` overflowed.
  @inlinable
  static func update<M: TreeMetric, R>(
    _ node: Node,
    _ metric: M.Type,
    offset: Int,
    bias: Bias,
    prefix: Summary,
    result: inout R?,
    _ body: (inout Item, Summary) throws -> (R, TreeItemChange<Item>)
  ) rethrows -> ContiguousArray<Node> where M.Summary == Summary {
    var prefix = prefix
    let (i, rest) = pickSlot(metric, in: node, offset: offset, bias: bias, prefix: &prefix)
    if node.height == 0 {
      let leaf = node
      let oldItem = leaf.item(i).summary
      let r: R
      let change: TreeItemChange<Item>
      // Move the item out of its slot while `body` works on it (so it stays
      // uniquely referenced), and back in whatever happens.
      let slot = leaf.items + i
      var item = slot.move()
      do {
        (r, change) = try body(&item, prefix)
      } catch {
        // The item may have changed before the closure threw.
        slot.initialize(to: consume item)
        leaf.recomputeSummary()
        throw error
      }
      slot.initialize(to: consume item)
      result = r
      switch change {
      case .keep:
        leaf.replaceInSummary(oldItem, with: leaf.item(i).summary)
        return []
      case .remove:
        return leaf.replaceItems(i..<i + 1, with: EmptyCollection())
      case .insertAfter(let more):
        return leaf.replaceItems(i + 1..<i + 1, with: more)
      }
    }
    let inner = node
    inner.ensureUniqueChild(i)
    let oldChild = inner.summaries[i]
    let siblings: ContiguousArray<Node>
    do {
      // `inner` holds the child for the whole call: borrow it.
      siblings = try Unmanaged.passUnretained(inner.child(i))._withUnsafeGuaranteedRef { child in
        try update(child, metric, offset: rest, bias: bias, prefix: prefix, result: &result, body)
      }
    } catch {
      inner.refreshChildSummary(i)
      inner.recomputeSummary()
      throw error
    }
    inner.refreshChildSummary(i)
    if !siblings.isEmpty {
      return inner.replaceChildren(i + 1..<i + 1, with: siblings)
    }
    // What the child became; rebalancing below moves slots between children
    // but does not change the total.
    inner.replaceInSummary(oldChild, with: inner.summaries[i])
    if inner.child(i).count < _TreeLimits.minFill { inner.fixUnderflow(at: i) }
    return []
  }
}
