import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Suggestions and review (docs/DESIGN.md, *Suggestions and review*): each
// suggestion's text is a tracked range of its storage (role `.suggestion`,
// removed when an edit touches it), and its record (SuggestionRecords.swift)
// is kept by its id. A preview, an accept and a reject are edits like any
// other, through the one path (`apply`); the engine's own edit over a
// suggestion's text takes the suggestion's range out of the tree first and
// puts it back over the new text (`applyKeeping`), so that the edit neither
// moves nor removes it.

extension DocumentState {
  // MARK: Adding

  /// Adds suggestions over ranges of storage `id`, all or none (see
  /// ``Document/suggest(_:in:)``).
  mutating func suggest(
    _ proposed: [ProposedSuggestion], in id: StorageID
  ) throws(DocumentError) -> [SuggestionID] {
    let storage = try content.storage(id)
    let ranges = proposed.map(\.range)
    try content.checkOffsets(ranges, in: storage)
    for suggestion in proposed {
      for candidate in suggestion.candidates {
        if let runs = candidate.attributes {
          try AttributeRun.check(runs, in: candidate.text, of: id)
        }
      }
      if !ignored.isEmpty {
        let text = storage.text.string(in: suggestion.range)
        if ignored.contains(_IgnoredSuggestion(kind: suggestion.kind.rawValue, text: text)) {
          throw .ignoredSuggestion(kind: suggestion.kind, text: text)
        }
      }
    }
    let locals = try content.track(
      ranges, in: id, role: .suggestion, rules: TrackingRules(onTouch: .remove), checked: true)
    let serial = storage.serial
    var ids: [SuggestionID] = []
    ids.reserveCapacity(locals.count)
    // New numbers: past every record of the storage.
    suggestions.update(serial: serial, upTo: Int(locals.max() ?? 0) + 1) { table in
      for (suggestion, local) in zip(proposed, locals) {
        table[Int(local)] = _SuggestionRecord(
          storage: id, local: local, kind: suggestion.kind, explanation: suggestion.explanation,
          candidates: suggestion.candidates)
        ids.append(TrackedRangeID(serial: serial, local: local))
      }
    }
    suggestions.added(ids.count)
    return ids
  }

  /// Adds suggestions over ranges of a live context's text (relative to
  /// it as it is now).
  mutating func suggest(
    _ proposed: [ProposedSuggestion], inContext contextID: UUID
  ) throws(DocumentError) -> [SuggestionID] {
    let context = try trackedContext(contextID)
    var mapped = proposed
    for i in mapped.indices {
      mapped[i].range = try storageRange(of: proposed[i].range, in: context)
    }
    return try suggest(mapped, in: context.storage)
  }

  // MARK: Queries

  /// A suggestion as the host sees it, its text at `range`.
  func suggestion(_ id: SuggestionID, _ record: _SuggestionRecord, at range: Range<Int>)
    -> Suggestion
  {
    Suggestion(
      id: id, storage: record.storage, range: range, contextRange: nil, kind: record.kind,
      explanation: record.explanation, candidates: record.candidates,
      previewed: record.preview?.candidate)
  }

  /// The suggestion with this id, where it is now.
  func suggestion(_ id: SuggestionID) throws(DocumentError) -> Suggestion {
    guard let record = suggestions[id],
      let range = content.trackedRange(record.local, in: record.storage)
    else { throw .unknownSuggestion(id) }
    return suggestion(id, record, at: range)
  }

  /// The suggestions of storage `id` that overlap `range` (all for `nil`;
  /// the rule of ``DocumentContent/trackedRanges(in:overlapping:kind:)``),
  /// in position order, equal starts by id.
  func suggestions(
    in id: StorageID, overlapping range: Range<Int>?
  ) throws(DocumentError) -> [Suggestion] {
    let storage: TextStorage
    if let range {
      storage = try content.checked(range, in: id)
    } else {
      storage = try content.storage(id)
    }
    guard let table = suggestions.table(storage.serial) else { return [] }
    var found = _Found(storage: id, serial: storage.serial, table: table)
    let role = _TrackedRole.suggestion.mask
    if let range {
      storage.tracked.forEach(overlapping: range, roles: role) { found.add($0, $1) }
    } else {
      storage.tracked.forEach(meeting: 0...storage.length, roles: role) { found.add($0, $1) }
    }
    return found.inOrder()
  }

  /// The suggestions inside a live context, in order, with
  /// ``Suggestion/contextRange`` relative to its text as it is now.
  func suggestions(inContext contextID: UUID) throws(DocumentError) -> [Suggestion] {
    // Read through the optional: no copy of the whole session.
    guard hasSession else { throw .noSession }
    guard let context = session?.contexts.first(where: { $0.id == contextID }) else {
      throw .unknownContext(contextID)
    }
    let live = range(of: context)
    guard let storage = content.storageIfAny(context.storage) else { return [] }
    guard let table = suggestions.table(storage.serial) else { return [] }
    var found = _Found(storage: context.storage, serial: storage.serial, table: table)
    storage.tracked.forEach(
      meeting: live.lowerBound...live.upperBound, roles: _TrackedRole.suggestion.mask
    ) { item, r in
      guard live.lowerBound <= r.lowerBound && r.upperBound <= live.upperBound else { return }
      found.add(item, r, origin: live.lowerBound)
    }
    return found.inOrder()
  }

  /// The suggestions a query finds, in the tree's order, put in position
  /// order, equal starts by id (sorted only where the tree's order, which
  /// puts equal starts by their rule first, differs).
  struct _Found {
    let storage: StorageID
    let serial: Int
    let table: [_SuggestionRecord?]
    var suggestions: [Suggestion] = []
    var last: (Int, SuggestionID)? = nil
    var sorted = true

    /// Adds the suggestion of tracked item `item`, its text at `range`
    /// (relative to `origin` for ``Suggestion/contextRange``, if given).
    mutating func add(_ item: _TrackedItem, _ range: Range<Int>, origin: Int? = nil) {
      let i = Int(item.local)
      // Field by field: copying the whole record would retain all of it.
      guard i < table.count, let kind = table[i]?.kind else { return }
      let id = TrackedRangeID(serial: serial, local: item.local)
      let key = (range.lowerBound, id)
      if let last, !(last < key) { sorted = false }
      last = key
      suggestions.append(
        Suggestion(
          id: id, storage: storage, range: range,
          contextRange: origin.map { (range.lowerBound - $0)..<(range.upperBound - $0) },
          kind: kind, explanation: table[i]?.explanation ?? "",
          candidates: table[i]?.candidates ?? [], previewed: table[i]?.preview?.candidate))
    }

    /// What was found, in order.
    func inOrder() -> [Suggestion] {
      sorted
        ? suggestions
        : suggestions.sorted { ($0.range.lowerBound, $0.id) < ($1.range.lowerBound, $1.id) }
    }
  }

  // MARK: Preview, accept, reject

  /// The record of suggestion `id` and where its text is now.
  func located(
    _ id: SuggestionID
  ) throws(DocumentError) -> (record: _SuggestionRecord, range: Range<Int>) {
    guard let record = suggestions[id],
      let range = content.trackedRange(record.local, in: record.storage)
    else { throw .unknownSuggestion(id) }
    return (record, range)
  }

  /// Checks that `candidate` is one of the record's.
  func check(_ candidate: Int, of record: _SuggestionRecord) throws(DocumentError) {
    guard candidate >= 0 && candidate < record.candidates.count else {
      throw .invalidCandidate(candidate, count: record.candidates.count)
    }
  }

  /// Puts a candidate of suggestion `id` into the text (see
  /// ``Document/preview(_:candidate:)``).
  mutating func preview(_ id: SuggestionID, candidate: Int) throws(DocumentError)
    -> SuggestionResult
  {
    let (record, _) = try located(id)
    try check(candidate, of: record)
    var (events, tracked) = try settleOtherPreview(before: id)
    let (now, range) = try located(id)
    if now.preview?.candidate == candidate {
      return SuggestionResult(
        storage: now.storage, storageRange: range, reason: .temporary, events: events,
        tracked: tracked)
    }
    let replaced =
      now.preview?.replaced ?? removedText(in: now.storage, range: range)
    let chosen = now.candidates[candidate]
    // With the history recording, an action on no stack records the
    // preview's edits, so that the marks in the text it replaces go into
    // its piece (and back, or into the accept's group, from there).
    var action = now.previewAction.flatMap { history.actions.contains($0) ? $0 : nil }
    let isNewAction = action == nil && history.isEnabled
    if isNewAction {
      action = history.newAction(.person)
      history.previewAction = action
    }
    let result: (events: [DocumentEvent], tracked: TrackedChanges, range: Range<Int>)
    do {
      if let action { recording = .action(_Recording(action: action, mayPend: false)) }
      defer { recording = nil }
      result = try applyKeeping(
        now.local, in: now.storage, range, chosen.text,
        attributes: chosen.attributes.map { .exactly($0) }, reason: .replacement(.temporary))
    } catch {
      if isNewAction, let action { dropAction(action) }
      throw error
    }
    suggestions[id]?.preview = (candidate, replaced)
    suggestions[id]?.previewAction = action
    previewed = id
    tracked.merge(result.tracked)
    return SuggestionResult(
      storage: now.storage, storageRange: result.range, reason: .temporary,
      events: events + result.events, tracked: tracked)
  }

  /// Before a preview or an accept of suggestion `id`: takes back the
  /// preview of another suggestion, if one is in the text. If taking it
  /// back would touch `id`'s text (a checker found `id` in the text the
  /// person sees, in the same storage), the other preview stays as text
  /// instead, as if the person had typed it, and its suggestion is gone.
  mutating func settleOtherPreview(
    before id: SuggestionID
  ) throws(DocumentError) -> (events: [DocumentEvent], tracked: TrackedChanges) {
    guard let other = previewed, other != id else { return ([], TrackedChanges()) }
    let (record, range) = try located(other)
    let (current, mine) = try located(id)
    if let preview = record.preview, record.storage == current.storage,
      _EditStep(range, insertedLength: preview.replaced.text.utf16.count).touches(mine)
    {
      content.untrack(record.local, in: record.storage)
      forgetPreviewAction(of: record)
      suggestions[other] = nil
      previewed = nil
      return ([], TrackedChanges(removed: [other]))
    }
    let back = try takeBackPreview(other, reason: .temporary)
    return (back.events, back.tracked)
  }

  /// Takes suggestion `id`'s preview back: its text and attributes as they
  /// were. The suggestion stays.
  mutating func takeBackPreview(
    _ id: SuggestionID, reason: TextReplacementReason
  ) throws(DocumentError) -> (events: [DocumentEvent], tracked: TrackedChanges, range: Range<Int>) {
    let (record, range) = try located(id)
    if previewed == id { previewed = nil }
    guard let preview = record.preview else { return ([], TrackedChanges(), range) }
    // An edit no history records, as the preview's own would have been
    // without its action: the text comes back as new text (the history's
    // rule: no group revives what a preview took out), and the points in
    // the action's piece stay at its start when the action goes.
    let result = try applyKeeping(
      record.local, in: record.storage, range, preview.replaced.text,
      attributes: .exactly(preview.replaced.runs), reason: .replacement(reason))
    forgetPreviewAction(of: record)
    suggestions[id]?.preview = nil
    suggestions[id]?.previewAction = nil
    return (result.events, result.tracked, result.range)
  }

  /// Whether preview action `a`'s piece still waits at or before the
  /// suggestion's text at `range` (text typed at the preview's start since
  /// went after the point, as any text typed where a deletion was: the
  /// history's rule), so that the action can be the accept's group. Else
  /// (an edit took the point into its own piece) the accept takes the text
  /// there as its units, and the text the preview replaced goes back at
  /// the start (``adopt(_:in:original:by:)``). The tree has taken the
  /// storage's pending hunk.
  func previewPointHolds(_ a: Int, _ range: Range<Int>) -> Bool {
    guard let action = history.actions[a] else { return false }
    guard let piece = action.pieces.first else { return true }
    guard let mark = piece.mark, let point = markRange(mark) else { return false }
    return point.lowerBound <= range.lowerBound
  }

  /// Makes preview action `a`'s units exactly the suggestion's text at
  /// `range`, if they are not: text another typed at the preview's end
  /// since joined its units' range, and is not the accept's.
  mutating func retakePreviewUnits(_ a: Int, _ range: Range<Int>, in id: StorageID) {
    guard let action = history.actions[a] else { return }
    let units = action.added.compactMap { markRange($0) }.filter { !$0.isEmpty }
    if range.isEmpty ? units.isEmpty : units == [range] { return }
    for ref in action.added { removeMark(ref, flushing: false) }
    history.actions[a]?.added = []
    charge(a, -_HistoryAction.markCost * action.added.count)
    if !range.isEmpty,
      let ref = addMark(range, in: id, owner: _MarkOwner(action: a, role: .added))
    {
      history.actions[a]?.added.append(ref)
      charge(a, _HistoryAction.markCost)
    }
  }

  /// Drops the action that recorded suggestion `record`'s preview, if
  /// any: its text stays as no group's.
  mutating func forgetPreviewAction(of record: _SuggestionRecord) {
    if let a = record.previewAction, history.actions.contains(a) { dropAction(a) }
  }

  /// Accepts a candidate of suggestion `id` (see
  /// ``Document/accept(_:candidate:)``).
  mutating func accept(_ id: SuggestionID, candidate: Int?) throws(DocumentError)
    -> SuggestionResult
  {
    let (record, _) = try located(id)
    let chosen = candidate ?? record.preview?.candidate ?? 0
    try check(chosen, of: record)
    var (events, tracked) = try settleOtherPreview(before: id)
    if history.isEnabled {
      return try acceptRecorded(id, candidate: chosen, events: events, tracked: tracked)
    }
    let (now, range) = try located(id)
    let original = now.preview?.replaced ?? removedText(in: now.storage, range: range)
    var landed = range
    if now.preview?.candidate != chosen {
      landed = try land(now.candidates[chosen], of: now, over: range, &events, &tracked)
    }
    // The suggestion is done; its text is followed for undo from now on.
    content.untrack(now.local, in: now.storage)
    forgetPreviewAction(of: now)
    suggestions[id] = nil
    if previewed == id { previewed = nil }
    let local = try content.track(
      [landed], in: now.storage, role: .accepted, rules: TrackingRules(onTouch: .remove))[0]
    accepted.append(
      _AcceptedSuggestion(
        storage: now.storage, local: local, original: original,
        accepted: removedText(in: now.storage, range: landed)))
    closePersonGroup()
    history.main.undo.append(.accepted(accepted.count - 1))
    clearRedo()
    return SuggestionResult(
      storage: now.storage, storageRange: landed, reason: .accepted, events: events,
      tracked: tracked)
  }

  /// Puts an accepted candidate over `range`, suggestion `record`'s text
  /// (``applyKeeping(_:in:_:_:attributes:reason:)``), adding what it did to
  /// `events` and `tracked`; returns where it landed.
  mutating func land(
    _ candidate: SuggestionCandidate, of record: _SuggestionRecord, over range: Range<Int>,
    _ events: inout [DocumentEvent], _ tracked: inout TrackedChanges
  ) throws(DocumentError) -> Range<Int> {
    let result = try applyKeeping(
      record.local, in: record.storage, range, candidate.text,
      attributes: candidate.attributes.map { .exactly($0) }, reason: .replacement(.accepted))
    events += result.events
    tracked.merge(result.tracked)
    return result.range
  }

  /// Accepts candidate `chosen` of suggestion `id` as a group of the
  /// history, which records: an action of the person's on the undo stack,
  /// undone and redone by the history's selective rule like any other
  /// group, whatever was typed in it or around it since; undo puts the
  /// selection back. Without a preview the candidate lands as a recorded
  /// edit. With one, the action that recorded the preview (on no stack
  /// until now) is the group, and another candidate lands as its edit: its
  /// piece holds the text the preview replaced with the marks that were in
  /// it. A preview made while the recording was off has no action: the
  /// chosen candidate replaces its text, and the new action takes the text
  /// there as its units and the text the preview replaced as its piece
  /// (``adopt(_:in:original:by:)``).
  mutating func acceptRecorded(
    _ id: SuggestionID, candidate chosen: Int, events: [DocumentEvent], tracked: TrackedChanges
  ) throws(DocumentError) -> SuggestionResult {
    var events = events
    var tracked = tracked
    let (now, range) = try located(id)
    let text = now.candidates[chosen]
    var landed = range
    // A preview recorded by an action: that action is the accept's group,
    // its units the suggestion's text, if its piece still waits at or
    // before where that text starts. (Text typed right before the
    // preview's text went after the piece's point, as text typed where
    // any deletion was: the accept's undo puts the replaced text back
    // before it.)
    var previewAction = now.previewAction.flatMap { history.actions.contains($0) ? $0 : nil }
    // (The tree takes the pending hunk first: a point at the end of the
    // text an edit there replaced goes into its piece, at its start.)
    if previewAction != nil { flushHistory(now.storage) }
    if let a = previewAction {
      if previewPointHolds(a, range) {
        retakePreviewUnits(a, range, in: now.storage)
      } else {
        dropAction(a)
        previewAction = nil
      }
    }
    let action = previewAction ?? history.newAction(.person)
    do {
      if let preview = now.preview, previewAction != nil {
        if let selection = selectionNow() {
          keep(selection, for: action)
          putSelectionBeforePiece(of: action)
        }
        if preview.candidate != chosen {
          recording = .action(_Recording(action: action, mayPend: false))
          defer { recording = nil }
          landed = try land(text, of: now, over: range, &events, &tracked)
        }
      } else if let preview = now.preview {
        if preview.candidate != chosen {
          landed = try land(text, of: now, over: range, &events, &tracked)
        }
        // (The selection as it is over the text the action takes: its
        // marks were not in the edit no history recorded.)
        if let selection = selectionNow() { keep(selection, for: action) }
        adopt(landed, in: now.storage, original: preview.replaced, by: action)
      } else {
        if let selection = selectionNow() { keep(selection, for: action) }
        recording = .action(_Recording(action: action, mayPend: false))
        defer { recording = nil }
        landed = try land(text, of: now, over: range, &events, &tracked)
      }
    } catch {
      if previewAction == nil { dropAction(action) }
      throw error
    }
    if previewAction != nil { history.previewAction = nil }
    content.untrack(now.local, in: now.storage)
    suggestions[id] = nil
    if previewed == id { previewed = nil }
    // (Even a candidate over no text that puts in none is a group: the
    // undo right after an accept takes back that accept, if only nothing.)
    // (Redo cleared before the limit counts, as for the person's groups.)
    closePersonGroup()
    history.main.pushGroup(action)
    // (The preview's action, made at the preview, enters the history now.)
    if previewAction != nil { history.entersNow(action) }
    clearRedo()
    enforceHistoryLimit()
    return SuggestionResult(
      storage: now.storage, storageRange: landed, reason: .accepted, events: events,
      tracked: tracked)
  }

  /// Puts the selection marks of `action` (kept after its edits, for an
  /// accepted preview) before its first piece's point where they are at
  /// the same place, as if they had been kept before the edit: undo puts
  /// the piece's text back after them.
  mutating func putSelectionBeforePiece(of action: Int) {
    guard let record = history.actions[action], let selection = record.selection,
      let piece = record.pieces.first?.mark,
      var marks = history.marks[piece.storage], marks.serial == piece.serial,
      let at = marks.tree.range(piece.local)?.lowerBound
    else { return }
    var selectionPoints = Set<UInt32>()
    for ref in [selection.start] + (selection.end.map { [$0] } ?? [])
    where ref.storage == piece.storage && marks.tree.range(ref.local) == at..<at {
      selectionPoints.insert(ref.local)
    }
    guard !selectionPoints.isEmpty else { return }
    let points = marks.points(at: at)
    guard let first = points.firstIndex(of: piece.local) else { return }
    // The piece and the points after it (but the selection's) go again,
    // in order, after the selection's.
    for local in points[first...] where !selectionPoints.contains(local) {
      marks.tree.remove(local)
      marks.tree.insert(at..<at, local: local, flags: _HistoryMarks.pointFlags, kind: 0)
    }
    history.marks[piece.storage] = marks
  }

  /// Makes action `action` the one that put in the text of `range` (units
  /// no history recorded: a preview's) in place of `original`, as if it
  /// had made that edit: the range's units are its, and `original` is its
  /// piece, waiting at the range's start. (No other group's marks are in
  /// the range: a range never takes units another put in, and a point in
  /// replaced text went to its start.)
  mutating func adopt(
    _ range: Range<Int>, in id: StorageID, original: AttributedText, by action: Int
  ) {
    if original.length > 0 {
      let index = history.actions[action]?.pieces.count ?? 0
      if let ref = addMark(
        range.lowerBound..<range.lowerBound, in: id,
        owner: _MarkOwner(action: action, role: .removed(index)))
      {
        history.actions[action]?.pieces.append(
          _RemovedPiece(mark: ref, text: original, inner: []))
        charge(
          action,
          _HistoryAction.markCost + original.text.utf8.count + 48 * original.runs.count)
      }
    }
    if !range.isEmpty,
      let ref = addMark(range, in: id, owner: _MarkOwner(action: action, role: .added))
    {
      history.actions[action]?.added.append(ref)
      charge(action, _HistoryAction.markCost)
    }
  }

  /// Rejects suggestion `id` (see ``Document/reject(_:)``).
  mutating func reject(_ id: SuggestionID) throws(DocumentError) -> SuggestionResult {
    let (record, _) = try located(id)
    let original = record.preview?.replaced.text
    let back = try takeBackPreview(id, reason: .rejected)
    let text = original ?? removedText(in: record.storage, range: back.range).text
    content.untrack(record.local, in: record.storage)
    suggestions[id] = nil
    ignored.insert(_IgnoredSuggestion(kind: record.kind.rawValue, text: text))
    return SuggestionResult(
      storage: record.storage, storageRange: back.range, reason: .rejected, events: back.events,
      tracked: back.tracked)
  }

  /// Swaps an accepted suggestion's text back to what it replaced
  /// (`toOriginal`) or forth, if its text is still there, untouched.
  mutating func swapAccepted(_ index: Int, toOriginal: Bool) -> UndoResult {
    let record = accepted[index]
    let expected = toOriginal ? record.accepted : record.original
    let target = toOriginal ? record.original : record.accepted
    guard record.alive, record.undone != toOriginal,
      let range = content.trackedRange(record.local, in: record.storage),
      removedText(in: record.storage, range: range).text == expected.text,
      let result = try? applyKeeping(
        record.local, in: record.storage, range, target.text,
        attributes: .exactly(target.runs), reason: .undoRedo)
    else { return UndoResult() }
    accepted[index].undone = toOriginal
    return UndoResult(replacementCount: 1, events: result.events, tracked: result.tracked)
  }

  // MARK: Helpers

  /// The text of `range` of storage `id`, with its attributes.
  func removedText(in id: StorageID, range: Range<Int>) -> AttributedText {
    content.storageIfAny(id)?.attributedText(in: range) ?? .empty
  }

  /// The engine's own edit of `range` of storage `id` over the text of
  /// tracked range `local`, which it keeps: taken out of the tree before
  /// the edit, put back over the new text after it.
  ///
  /// - Returns: the events, the host's ranges and suggestions the edit
  ///   touched, and where the new text is.
  mutating func applyKeeping(
    _ local: UInt32, in id: StorageID, _ range: Range<Int>, _ text: String,
    attributes: _NewTextAttributes?, reason: ChangeReason
  ) throws(DocumentError) -> (events: [DocumentEvent], tracked: TrackedChanges, range: Range<Int>) {
    let n = text.utf16.count
    let landed = range.lowerBound..<(range.lowerBound + n)
    guard let item = content.detachTracked(local, in: id) else { throw .unknownStorage(id) }
    if _EditStep(range, insertedLength: n).changesNothing {
      content.reattachTracked(item, in: id, at: landed)
      return ([], TrackedChanges(), landed)
    }
    do {
      let (_, events, tracked) = try apply(
        id, range, text, insertedLength: n, info: .person, actor: .other,
        attributes: attributes, reason: reason)
      content.reattachTracked(item, in: id, at: landed)
      return (events, tracked, landed)
    } catch {
      content.reattachTracked(item, in: id, at: range)
      throw error
    }
  }

  /// Forgets the suggestions and accepted suggestions of a storage that is
  /// being removed (serial `serial`).
  mutating func forgetReview(of id: StorageID, serial: Int) {
    for record in suggestions.table(serial) ?? [] {
      if let record { forgetPreviewAction(of: record) }
    }
    suggestions.forget(serial: serial)
    if let p = previewed, p.serial == serial { previewed = nil }
    for i in accepted.indices where accepted[i].storage == id { accepted[i].alive = false }
  }

  /// Drops the records of the suggestions of storage `id` that the last
  /// edit removed (from ``trackedReport``).
  mutating func dropRemovedSuggestions(in id: StorageID, serial: Int) {
    for change in trackedReport where change.role == .suggestion && change.new == nil {
      let sid = TrackedRangeID(serial: serial, local: change.local)
      if let record = suggestions[sid] { forgetPreviewAction(of: record) }
      suggestions[sid] = nil
      if previewed == sid { previewed = nil }
    }
  }
}

extension Rope {
  /// The text of `range` (UTF-16; valid, or the empty string).
  func string(in range: Range<Int>) -> String {
    (try? string(range)) ?? ""
  }
}
