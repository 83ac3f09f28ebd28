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
      let oldItem = node.items[i].summary
      let r: R
      let change: TreeItemChange<Item>
      do {
        (r, change) = try body(&node.items[i], prefix)
      } catch {
        // The item may have changed before the closure threw.
        node.recomputeSummary()
        throw error
      }
      result = r
      var replacement = Summary.zero
      switch change {
      case .keep:
        replacement = node.items[i].summary
      case .remove:
        node.items.remove(at: i)
      case .insertAfter(let more):
        replacement = node.items[i].summary
        for item in more { replacement += item.summary }
        node.items.insert(contentsOf: more, at: i + 1)
      }
      node.replaceInSummary(oldItem, with: replacement)
      return node.count > _TreeLimits.maxFill ? node.splitIfOverfull() : []
    }
    node.ensureUniqueChild(i)
    let oldChild = node.childSummaries[i]
    let siblings: ContiguousArray<Node>
    do {
      // `node` holds the child for the whole call: no need to retain it.
      unowned(unsafe) let child = node.children[i]
      siblings = try update(
        child, metric, offset: rest, bias: bias, prefix: prefix, result: &result, body)
    } catch {
      node.refreshChildSummary(i)
      node.recomputeSummary()
      throw error
    }
    node.refreshChildSummary(i)
    // What the child became (with the siblings it split into); rebalancing
    // below moves slots between children but does not change the total.
    var replacement = node.childSummaries[i]
    if siblings.isEmpty {
      if node.children[i].count < _TreeLimits.minFill { node.fixUnderflow(at: i) }
    } else {
      for sibling in siblings { replacement += sibling.summary }
      node.children.insert(contentsOf: siblings, at: i + 1)
      node.childSummaries.insert(contentsOf: siblings.lazy.map(\.summary), at: i + 1)
    }
    node.replaceInSummary(oldChild, with: replacement)
    return node.count > _TreeLimits.maxFill ? node.splitIfOverfull() : []
  }
}
