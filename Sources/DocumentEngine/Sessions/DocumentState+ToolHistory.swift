// A Writing Tools session's groups in the document's history (see
// docs/DESIGN.md, *History* and *Sessions*): with the history recording,
// each replacement the tool makes outside streaming, and each streaming
// phase, is an action of the `.tool` party on the main undo stack, in
// order with the person's groups; it stays there when the session ends.
// Undo and redo take it back by the history's selective rule; while the
// session lives and a replacement is intact, its text is swapped as the
// session's own edit (one event, the context kept whole), recorded in the
// inverse like any other undo.

extension DocumentState {
  /// The history's action for the tool's replacement being made: the
  /// streaming phase's (made with its first replacement), or a new one;
  /// nil when the history does not record.
  mutating func toolGroup() -> Int? {
    guard history.isEnabled, session != nil else { return nil }
    if let action = session?.streamingAction, history.actions.contains(action) {
      return action
    }
    let action = history.newAction(.tool)
    history.actions[action]?.session = sessionCount
    if session?.streamingGroup != nil { session?.streamingAction = action }
    return action
  }

  /// Links the session's replacement `replacement` to the tool's action
  /// that just recorded it (the marks ``followMarks(_:in:recording:removed:)``
  /// made for it).
  mutating func link(_ replacement: Int, to action: Int) {
    let made = history.lastMade
    let pending = history.lastJournaled
    history.lastJournaled = false
    history.actions[action]?.swaps.append(
      _SwapLink(
        replacement: replacement, added: pending ? nil : made.added,
        piece: pending ? nil : made.piece, pending: pending))
    session?.replacements[replacement].held = action
    charge(action, Self.linkCost)
  }

  /// What a link costs, in bytes.
  static let linkCost = 24

  /// Puts a group the session closed on the main undo stack: the
  /// history's action (dropped if it recorded nothing), or, with the
  /// history not recording, the replacements' indices.
  mutating func pushSessionGroup(_ group: [Int]?, action: Int?) {
    if let action {
      // (A replacement still in the journal has its link, not its marks.
      // One replacement always leaves something to take back — it changed
      // the text, and nothing of its own was there before it — so only a
      // phase of several, which may take back each other's text, has the
      // trees take its links first, once, when it closes.)
      guard let made = history.actions[action] else { return }
      let single = made.swaps.count == 1
      if made.swaps.count > 1, made.swaps.contains(where: \.pending) { flushAllHistory() }
      // A group whose units are all gone by its own edits, and that took
      // out nothing of anyone else's, has nothing to take back (its links
      // swap nothing): it is no group.
      guard let kept = history.actions[action] else { return }
      guard single || !kept.pieces.isEmpty || !kept.added.isEmpty else {
        dropAction(action)
        return
      }
      closePersonGroup()
      history.main.pushGroup(action)
      enforceHistoryLimit()
    } else if let group {
      closePersonGroup()
      history.main.undo.append(.replacements(group))
    }
  }

  /// Whether action `a` is a tool's group of the live session.
  func isLiveToolGroup(_ action: _HistoryAction) -> Bool {
    hasSession && action.session == sessionCount && !action.swaps.isEmpty
  }

  /// Swaps the text of each of the live session's replacements that
  /// action `a` links, the last first, where the replacement is intact
  /// and the action's marks are exactly its text and the text it
  /// replaced: recorded in `inverse`, which takes the link over.
  ///
  /// - Returns: the edits made, their events and tracked ranges.
  mutating func swapLinked(
    _ a: Int, into inverse: Int
  ) -> (edits: Int, events: [DocumentEvent], tracked: TrackedChanges) {
    var events: [DocumentEvent] = []
    var tracked = TrackedChanges()
    var edits = 0
    guard let action = history.actions[a], isLiveToolGroup(action) else { return (0, [], tracked) }
    // All of them swap, or none: a later replacement that changed units
    // an earlier one of the group put in gives them back as its own text,
    // which the history's rule would not take out again.
    for link in action.swaps {
      guard let replacement = session?.replacements[safe: link.replacement],
        replacement.intact, !replacement.forgotten,
        (session?.othersEdits[replacement.storage] ?? 0) == replacement.othersAtMaking
      else {
        breakLinked(action.swaps)
        return (0, [], tracked)
      }
    }
    // The last first (a replacement inside an earlier one goes back
    // first). From the first that cannot swap on, the history's rule takes
    // the rest back (the caller's loop), so that the order holds.
    var links = action.swaps
    while let link = links.last {
      guard let swapped = swapLink(link, of: a, into: inverse) else { break }
      links.removeLast()
      events += swapped.events
      tracked.merge(swapped.tracked)
      edits += 1
    }
    history.actions[a]?.swaps = links
    breakLinked(links)
    return (edits, events, tracked)
  }

  /// The replacements of `links`, which the history's rule takes back (its
  /// edits are no swaps of the session's), are no longer the session's to
  /// swap: revert leaves them alone.
  mutating func breakLinked(_ links: [_SwapLink]) {
    for link in links {
      guard let replacement = session?.replacements[safe: link.replacement],
        replacement.intact
      else { continue }
      session?.breakReplacement(link.replacement)
      content.untrack(replacement.local, in: replacement.storage)
    }
  }

  /// Swaps one linked replacement (see ``swapLinked(_:into:)``), if the
  /// session's records let it go (``canSwapNow(_:toOriginal:)``); nil if
  /// not. The action's piece of the text going back is put back with the
  /// marks that were in it when it waits at the replacement's start with
  /// that text; else (a replacement that also changed the action's own
  /// units) it is let go, and the text comes back as the swap's.
  mutating func swapLink(
    _ link: _SwapLink, of a: Int, into inverse: Int
  ) -> (events: [DocumentEvent], tracked: TrackedChanges)? {
    let i = link.replacement
    guard let replacement = session?.replacements[safe: i] else { return nil }
    let toOriginal = !replacement.undone
    // (Once someone else edited since it was made, the history's rule
    // takes it back: text typed next to it can go back in another order.)
    guard (session?.othersEdits[replacement.storage] ?? 0) == replacement.othersAtMaking,
      canSwapNow(i, toOriginal: toOriginal),
      let range = content.trackedRange(replacement.local, in: replacement.storage)
    else { return nil }
    var revive: (mark: UInt32, inner: [_InnerMark])? = nil
    if let k = link.piece, let piece = history.actions[a]?.pieces[safe: k],
      let ref = piece.mark
    {
      if ref.storage == replacement.storage, markRange(ref)?.lowerBound == range.lowerBound,
        piece.text.text == replacement.aside.text
      {
        revive = (ref.local, piece.inner)
      } else {
        letGo(_PieceRef(action: a, piece: k), ref, in: ref.storage)
      }
    }
    recording = .action(
      _Recording(action: inverse, mayPend: false, revive: revive, replaces: true))
    history.lastMade = (nil, nil)
    defer { recording = nil }
    guard let swapped = swapText(i, toOriginal: toOriginal) else { return nil }
    if let k = link.piece, revive != nil { history.actions[a]?.pieces[k].mark = nil }
    let made = history.lastMade
    // (In the order of the swaps: the inverse swaps back the last first,
    // so a redo goes in the order the tool made them.)
    history.actions[inverse]?.swaps.append(
      _SwapLink(replacement: i, added: made.added, piece: made.piece))
    session?.replacements[i].held = inverse
    charge(inverse, Self.linkCost)
    return swapped
  }

  /// With the history recording, `revert`'s swap of replacement `index`
  /// back to its original: through the link of the action that holds it
  /// (recorded in `scratch`, which the caller drops: the text goes back
  /// with the marks that were in it, and the action keeps nothing of it to
  /// put back a second time: its undo, still on the stack, does nothing, as
  /// before). Returns the action, and what the swap did.
  mutating func revertLinked(
    _ index: Int, into scratch: Int
  ) -> (held: Int, swapped: (events: [DocumentEvent], tracked: TrackedChanges)?)? {
    // (The tree takes the storage's journal first: a replacement still
    // waiting there as an eager hunk has no piece in its link yet.)
    if let storage = session?.replacements[safe: index]?.storage { flushJournal(storage) }
    guard let held = session?.replacements[safe: index]?.held,
      let link = history.actions[held]?.swaps.first(where: { $0.replacement == index })
    else { return nil }
    if let swapped = swapLink(link, of: held, into: scratch) {
      history.actions[held]?.swaps.removeAll { $0.replacement == index }
      return (held, swapped)
    }
    // (Its piece is not where the swap puts the text back: the action lets
    // go of it, and the text goes back as revert's alone.)
    dropLink(of: index)
    return (held, swapText(index, toOriginal: true))
  }

  /// Removes the link to replacement `index` from the action that holds
  /// it, and lets its piece go (a swap the history does not record is
  /// about to put the replacement's text back).
  mutating func dropLink(of index: Int) {
    // (As in ``revertLinked(_:into:)``: the link's piece, once the tree
    // has the replacement.)
    if let storage = session?.replacements[safe: index]?.storage { flushJournal(storage) }
    guard let held = session?.replacements[safe: index]?.held,
      let at = history.actions[held]?.swaps.firstIndex(where: { $0.replacement == index }),
      let link = history.actions[held]?.swaps.remove(at: at)
    else { return }
    if let k = link.piece, let ref = history.actions[held]?.pieces[safe: k]?.mark {
      letGo(_PieceRef(action: held, piece: k), ref, in: ref.storage)
    }
    session?.replacements[index].held = nil
  }
}
