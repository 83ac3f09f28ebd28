import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DocumentState {
  /// A tool replacement (see ``Document/replace(context:range:with:attributes:basis:policy:)``):
  /// checked and transformed first (``prepareReplacement(_:_:_:basis:policy:)``,
  /// which changes nothing), then applied as any edit, through
  /// ``apply(_:_:text:original:basis:attributes:tool:reason:)``; each piece is
  /// recorded as a replacement there
  /// (``followReplacements(_:in:text:by:before:)``).
  mutating func replace(
    _ contextID: UUID, _ range: Range<Int>, _ text: String, attributes: [AttributeRun]?,
    attributesAreMaximal: Bool = false, basis: ContextVersion?, policy: ReplacementPolicy
  ) throws(DocumentError) -> ReplacementResult {
    let n = text.utf16.count
    // Everything read from the session is read in this scope, so that no
    // copy of it is alive when the edit changes it (one would make the edit
    // copy the context's history).
    let (id, prepared, options, reason) = try { () throws(DocumentError) in
      let context = try trackedContext(contextID)
      if let attributes { try AttributeRun.check(attributes, in: text, of: context.storage) }
      return (
        context.storage, try prepareReplacement(context, range, n, basis: basis, policy: policy),
        try liveSession().handout.resultOptions, try liveSession().replacementReason
      )
    }()
    let first = prepared.operation.pieces[0].range
    var events: [DocumentEvent] = []
    var tracked = TrackedChanges()
    if !_EditStep(range, insertedLength: n).changesNothing {
      // The tool's own context hears nothing of its replacement, only the
      // others.
      (_, events, tracked) = try apply(
        id, prepared.operation, text: text, original: prepared.original, basis: prepared.basis,
        attributes: attributes.flatMap {
          .forReplacement($0, options: options, maximal: attributesAreMaximal)
        },
        tool: (contextID, prepared.replaced), reason: .replacement(reason))
    }  // else a no-op as the tool made it: checked, and it makes no version.
    return ReplacementResult(
      storage: id, storageRange: first.lowerBound..<(first.lowerBound + n),
      contextVersion: try trackedContext(contextID).contextVersion, events: events,
      tracked: tracked, reason: reason)
  }

  /// Where a tool replacement lands, checked: the operation, as the tool
  /// made it, the storage version it was made on, and the text each of its
  /// pieces replaces, with its attributes. An unseen edit that touched it
  /// is a conflict under `.refuse`.
  func prepareReplacement(
    _ live: _TrackedContext, _ range: Range<Int>, _ n: Int, basis: ContextVersion?,
    policy: ReplacementPolicy
  ) throws(DocumentError) -> (
    operation: _Operation, original: _Operation, basis: StorageVersion, replaced: [AttributedText]
  ) {
    let session = try liveSession()
    let contextID = live.id
    let id = live.storage
    let storage = try content.storage(id)
    let liveRange = self.range(of: live)
    guard range.lowerBound >= 0 else { throw .outsideContext(range, length: liveRange.count) }
    var operation: _Operation
    var original: _Operation
    var touched = false
    var basisVersion = storage.version
    if basis == nil || basis == live.contextVersion {
      operation = _Operation(try storageRange(of: range, in: live), length: n, party: session.party)
      // As the tool made it: on the storage version at which the context
      // reached its current version (later edits only moved the context).
      let then = live.versions[live.contextVersion.rawValue]
      basisVersion = then.version
      original = _Operation(
        (then.start + range.lowerBound)..<(then.start + range.upperBound), length: n,
        party: session.party)
    } else {
      guard let basis, basis >= 0 && basis < live.contextVersion else {
        throw .staleContextVersion(basis ?? 0)
      }
      let then = live.versions[basis.rawValue]
      basisVersion = then.version
      // The tool's view: the context at `basis` plus its own replacements.
      let viewLength =
        then.length + (try ownDelta(of: id, since: then.version, party: session.party))
      guard range.upperBound <= viewLength else {
        throw .outsideContext(range, length: viewLength)
      }
      original = _Operation(
        (then.start + range.lowerBound)..<(then.start + range.upperBound), length: n,
        party: session.party)
      do {
        (operation, touched) = try storage.changes.transform(original, from: then.version)
      } catch {
        throw .staleContextVersion(basis)
      }
      if touched && policy == .refuse { throw .conflict(context: contextID) }
    }
    // Where it lands must be inside the context, outside excluded text, on
    // scalar boundaries.
    for piece in operation.pieces {
      guard
        piece.range.lowerBound >= liveRange.lowerBound
          && piece.range.upperBound <= liveRange.upperBound
      else {
        let start = liveRange.lowerBound
        throw .outsideContext(
          (piece.range.lowerBound - start)..<(piece.range.upperBound - start),
          length: liveRange.count)
      }
      let r = piece.range
      let probe = r.isEmpty ? max(0, r.lowerBound - 1)..<min(storage.length, r.lowerBound + 1) : r
      let runs = storage.excludedRanges(in: probe)
      let hits =
        r.isEmpty
        ? runs.contains { $0.lowerBound < r.lowerBound && r.lowerBound < $0.upperBound }
        : !runs.isEmpty
      if hits { throw .excluded(r) }
    }
    try checkBounds(operation, in: id)
    // The text each piece replaces, with its attributes (every range holds
    // now: the pieces are applied from the last).
    let replaced = operation.pieces.map { removedText(in: id, range: $0.range) }
    return (operation, original, basisVersion, replaced)
  }

  /// Puts a replacement's original text back (undo, revert), or its new
  /// text (redo), if it can go: the session's records let it
  /// (``_LiveSession/canSwap(_:toOriginal:)``) and its range holds exactly the
  /// text it should. Otherwise nothing changes: the text is never swapped
  /// where it would scramble.
  ///
  /// - Returns: the events and the host's tracked ranges it touched, or
  ///   nil if it could not go.
  mutating func swapText(
    _ index: Int, toOriginal: Bool
  ) -> (events: [DocumentEvent], tracked: TrackedChanges)? {
    guard canSwapNow(index, toOriginal: toOriginal), let swap = session?.replacements[index],
      let storage = content.storageIfAny(swap.storage),
      let range = storage.tracked.range(swap.local)
    else { return nil }
    let removed = storage.attributedText(in: range)
    // The range holds the expected text, so it is valid: this cannot throw.
    guard
      let (_, events, tracked) = try? apply(
        swap.storage, range, swap.aside.text, insertedLength: swap.aside.length,
        info: .person, actor: .swap(index, toOriginal: toOriginal, removed: removed),
        attributes: .exactly(swap.aside.runs), reason: .undoRedo)
    else { return nil }
    return (events, tracked)
  }

  /// Whether replacement `index` can swap its text now (see
  /// ``swapText(_:toOriginal:)``).
  func canSwapNow(_ index: Int, toOriginal: Bool) -> Bool {
    guard session?.canSwap(index, toOriginal: toOriginal) == true,
      let swap = session?.replacements[index],
      let storage = content.storageIfAny(swap.storage),
      let range = storage.tracked.range(swap.local),
      let now = try? storage.text.slice(range)
    else { return false }
    return String(now) == swap.inPlace
  }

  /// Closes the streaming phase's group, if one is under way, and goes on
  /// in a new one: an undo takes back what streamed in so far.
  mutating func closeStreamingGroup() {
    let action = session?.streamingAction
    session?.streamingAction = nil
    let group = session?.closeStreamingGroup()
    if group != nil || action != nil { pushSessionGroup(group, action: action) }
    // Even when it was empty: the phase goes on in a group.
    if session?.state == .interactiveStreaming { session?.streamingGroup = [] }
  }

  /// Reverts every replacement of the session that can go back, the last
  /// first.
  mutating func revert() throws(DocumentError) -> UndoResult {
    let count = try liveSession().replacements.count
    if session?.streamingGroup != nil { closeStreamingGroup() }
    // (The links of replacements still in the journal get their marks.)
    if history.isEnabled { flushAllHistory() }
    var events: [DocumentEvent] = []
    var tracked = TrackedChanges()
    var swapped = 0
    // (With the history recording, each swap goes through the link of the
    // group that holds the replacement: see ``revertLinked(_:into:)``.)
    let scratch = history.isEnabled ? history.newAction(.tool) : nil
    var restored: [TrackedRangeID] = []
    // The ranges brought back that were removed before the revert began
    // (not by one of its swaps): removed again by a later swap, they are
    // in neither list.
    var removedBefore: Set<TrackedRangeID> = []
    for index in (0..<count).reversed() {
      // (Only back: an undone replacement stays as it is.)
      guard canSwapNow(index, toOriginal: true) else { continue }
      var more: (events: [DocumentEvent], tracked: TrackedChanges)? = nil
      if let scratch, let linked = revertLinked(index, into: scratch) {
        more = linked.swapped
        if let swapped = more {
          let untracked = Set(
            (history.actions[linked.held]?.ranges ?? []).map {
              TrackedRangeID(serial: $0.serial, local: $0.local)
            }
          ).filter { (try? content.trackedRange($0)) == nil }
          let back = restoreRanges(of: linked.held)
          forgetRestoredRanges(back, of: linked.held)
          for id in back where untracked.contains(id) {
            if !tracked.removed.contains(id) && !swapped.tracked.removed.contains(id) {
              removedBefore.insert(id)
            }
          }
          restored += back
        }
      } else {
        // (With the recording off now, a group recorded before still links
        // it: the group lets go of it, so that its undo does not swap it
        // again.)
        dropLink(of: index)
        more = swapText(index, toOriginal: true)
      }
      guard let more else { continue }
      events += more.events
      tracked.merge(more.tracked)
      swapped += 1
    }
    if let scratch { dropAction(scratch) }
    clearRedo()
    var result = UndoResult(replacementCount: swapped, events: events, tracked: tracked)
    // (A range one swap brought back and a later swap removed again is
    // not back: only those still tracked are named.)
    let back = Set(restored).filter { (try? content.trackedRange($0)) != nil }
    result.restored = back.sorted()
    result.tracked.removed.removeAll { back.contains($0) || removedBefore.contains($0) }
    return result
  }

  /// Swaps the text of each replacement in `indices`, in that order, where
  /// it can go (``swapText(_:toOriginal:)``).
  ///
  /// - Returns: what went, in order, and the result.
  mutating func swapTexts(
    _ indices: some Sequence<Int>, toOriginal: Bool
  ) -> (swapped: [Int], result: UndoResult) {
    var events: [DocumentEvent] = []
    var tracked = TrackedChanges()
    var swapped: [Int] = []
    for index in indices {
      guard let more = swapText(index, toOriginal: toOriginal) else { continue }
      events += more.events
      tracked.merge(more.tracked)
      swapped.append(index)
    }
    return (
      swapped,
      UndoResult(replacementCount: swapped.count, events: events, tracked: tracked)
    )
  }
}
