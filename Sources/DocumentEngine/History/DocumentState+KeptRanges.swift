// Undo puts back the positions too (docs/DESIGN.md, *History*): a host's
// tracked range that an edit a history records collapsed or removed — a
// comment over deleted text, a bookmark, a peer's selection — comes back
// where it was when the text comes back, under its id and rules. The edit's
// action keeps it (``_KeptRange``): each end whose unit the edit removed
// waits inside the action's piece as an inner mark, so that it comes back
// at its offset in the text when the piece does; a removed range's other
// ends wait as points of the history. Taking the action back moves the
// range there (or tracks it again), and the undo's result names it.

extension DocumentState {
  /// Whether an end of a host's tracked range in the last edit's report
  /// (``trackedReport``) is one whose unit `edit` removed, or the edit
  /// removed a host's range.
  func keepsHostEnds(_ edit: _EditStep) -> Bool {
    for change in trackedReport where change.role == .host {
      if change.new == nil { return true }
      let kept = Self.keptEnds(change, edit)
      if kept.start || kept.end { return true }
    }
    return false
  }

  /// Which ends of the range `change` reports the removal of `edit`'s
  /// `s..<e` keeps: a start at `s ≤ p < e`, an end at `s < p ≤ e`; an
  /// empty range's point by its bias (left: `s < p ≤ e`, right:
  /// `s ≤ p < e`), as both ends.
  static func keptEnds(_ change: _TrackedChange, _ edit: _EditStep) -> (start: Bool, end: Bool) {
    let s = edit.s
    let e = edit.e
    guard e > s else { return (false, false) }
    let old = change.old
    if old.isEmpty {
      let p = old.lowerBound
      let right = change.flags & 4 != 0
      let kept = right ? (s <= p && p < e) : (s < p && p <= e)
      return (kept, kept)
    }
    return (s <= old.lowerBound && old.lowerBound < e, s < old.upperBound && old.upperBound <= e)
  }

  /// Keeps in `recorder` the host's ranges of `ends` (the edit's report)
  /// that `step` collapsed or removed: their kept ends as inner marks of
  /// the piece being made (`inner`, relative to the removed text), a
  /// removed range's other ends as points.
  mutating func keepHostEnds(
    _ ends: [_TrackedChange], _ step: _EditStep, by recorder: Int, in id: StorageID,
    serial: Int, inner: inout [_InnerMark], marks: inout _HistoryMarks
  ) {
    let s = step.s
    for change in ends where change.role == .host {
      let removed = change.new == nil
      let kept = Self.keptEnds(change, step)
      guard kept.start || kept.end || removed else { continue }
      let k = history.actions[recorder]?.ranges.count ?? 0
      var range = _KeptRange(
        storage: id, serial: serial, local: change.local,
        item: removed ? (change.flags, change.kind) : nil, keepsStart: kept.start,
        keepsEnd: kept.end)
      var cost = _HistoryAction.markCost
      for (isStart, keeps) in [(true, kept.start), (false, kept.end)] {
        let p = isStart ? change.old.lowerBound : change.old.upperBound
        let owner = _MarkOwner(action: recorder, role: isStart ? .rangeStart(k) : .rangeEnd(k))
        if keeps {
          inner.append(_InnerMark(range: (p - s)..<(p - s), owner: owner, local: nil))
          cost += 32
        } else if removed {
          let q = _TrackedRanges.mapPoint(p, step, goesAfter: false)
          guard let local = marks.add(q..<q, owner: owner) else { continue }
          let ref = _MarkRef(storage: id, serial: serial, local: local)
          if isStart { range.start = ref } else { range.end = ref }
          cost += _HistoryAction.markCost
        }
      }
      history.actions[recorder]?.ranges.append(range)
      charge(recorder, cost)
    }
  }

  /// Brings back the host's ranges that action `a` kept, whose kept ends
  /// came back with its pieces: moved there, or tracked again under their
  /// numbers (a range the edit removed). A range the host untracked since
  /// stays untracked.
  ///
  /// - Returns: their ids, in order.
  mutating func restoreRanges(of a: Int) -> [TrackedRangeID] {
    guard let ranges = history.actions[a]?.ranges, !ranges.isEmpty else { return [] }
    var restored: [TrackedRangeID] = []
    // The last kept first: where a range was kept twice (backspacing over
    // a bookmark, one keystroke at a time), the first keeping wins.
    for kept in ranges.reversed() {
      guard content.serial(of: kept.storage) == kept.serial else { continue }
      let live = content.trackedRange(kept.local, in: kept.storage)
      // A removed range is not tracked; a collapsed one still is.
      guard (kept.item == nil) == (live != nil) else { continue }
      let start = kept.start.flatMap { markRange($0)?.lowerBound }
      let end = kept.end.flatMap { markRange($0)?.lowerBound }
      if (kept.keepsStart || kept.item != nil) && start == nil { continue }
      if (kept.keepsEnd || kept.item != nil) && end == nil { continue }
      guard let from = start ?? live?.lowerBound, let to = end ?? live?.upperBound else { continue }
      let range = from..<max(from, to)
      if let item = kept.item {
        content.reattachTracked(
          _TrackedItem(
            delta: 0, length: 0, label: 0, local: kept.local, flags: item.flags,
            kind: item.kind),
          in: kept.storage, at: range)
      } else if live != range {
        content.moveTracked(kept.local, in: kept.storage, to: range)
      }
      let id = TrackedRangeID(serial: kept.serial, local: kept.local)
      if !restored.contains(id) { restored.append(id) }
    }
    return restored.sorted()
  }

  /// Lets action `a` forget the kept ranges `restored` names (just brought
  /// back by a swap the action keeps nothing of: revert's), so that its
  /// undo does not bring them back a second time — after the host may have
  /// untracked them.
  mutating func forgetRestoredRanges(_ restored: [TrackedRangeID], of a: Int) {
    guard !restored.isEmpty, let ranges = history.actions[a]?.ranges else { return }
    let ids = Set(restored)
    var kept: [_KeptRange] = []
    for range in ranges {
      if ids.contains(TrackedRangeID(serial: range.serial, local: range.local)) {
        if let ref = range.start { removeMark(ref, flushing: false) }
        if let ref = range.end { removeMark(ref, flushing: false) }
      } else {
        kept.append(range)
      }
    }
    history.actions[a]?.ranges = kept
  }

  /// Removes the points of `action`'s kept ranges from their trees.
  mutating func removeRangeMarks(of action: _HistoryAction, deferred: Bool = false) {
    for kept in action.ranges {
      if let ref = kept.start { removeMark(ref, flushing: false, deferred: deferred) }
      if let ref = kept.end { removeMark(ref, flushing: false, deferred: deferred) }
    }
  }
}

extension DocumentContent {
  /// Whether a storage edit of `range` collapses or removes a host's
  /// tracked range of storage `id` (an end whose unit it removes, or a
  /// range its touch rule removes): the person's keystroke then takes the
  /// recorded path, which keeps the ends. A deletion inside a range, or
  /// next to one, does not.
  func hostRangeMeets(_ range: Range<Int>, in id: StorageID) -> Bool {
    guard !range.isEmpty, let storage = storageIfAny(id), !storage.tracked.isEmpty
    else { return false }
    let s = range.lowerBound
    let e = range.upperBound
    var keeps = false
    storage.tracked.forEach(meeting: s...e, roles: _TrackedRole.host.mask) { item, old in
      if keeps { return }
      if old.isEmpty {
        let p = old.lowerBound
        keeps = item.flags & 4 != 0 ? (s <= p && p < e) : (s < p && p <= e)
      } else {
        keeps =
          (s <= old.lowerBound && old.lowerBound < e) || (s < old.upperBound && old.upperBound <= e)
          || (item.removesOnTouch && old.lowerBound < e && s < old.upperBound)
      }
    }
    return keeps
  }
}
