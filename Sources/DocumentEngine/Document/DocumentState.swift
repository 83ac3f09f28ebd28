import SummaryTrees
import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a ``Document`` holds, as one value: the storages and their
/// index (``DocumentContent``), the selection, the visible ranges and the
/// Writing Tools session (``_LiveSession``). The class only locks and calls
/// it.
///
/// Every edit of a storage's text, whoever makes it, ends in one function,
/// ``apply(_:_:_:insertedLength:info:actor:attributes:reason:)``: the storage edit,
/// its change record and its tracked ranges (``DocumentContent``: every
/// position that follows the text, the selection's, the visible range's,
/// the contexts', marks' and replacements' and the host's, moves there),
/// then the session's own records (``followSession(_:in:at:text:by:before:reason:)``:
/// events, context versions, replacements broken or placed). Other changes
/// (adding a storage, setting the selection or a mark) go to the one layer
/// they change. A method that throws changes nothing.
struct DocumentState: Sendable {
  var content = DocumentContent()
  /// The selection's ranges, each followed by tracked ranges.
  var selectionEntries: [_SelectionEntry] = []
  /// Each storage's visible range, a tracked range (its number).
  var visibleLocals: [StorageID: UInt32] = [:]
  var session: _LiveSession? = nil
  /// Whether `session` is not `nil`, kept beside it: every keystroke asks,
  /// and `session != nil` copies the whole session value to read its case.
  var hasSession = false
  /// How many sessions were started: the next one's tool party.
  var sessionCount = 0
  var keepsAllChanges = false
  /// What the last storage edit did to tracked ranges beyond a shift; kept
  /// here so that a keystroke reuses its buffer instead of allocating one.
  var trackedReport: [_TrackedChange] = []
  /// Where the last edit took the contexts of its storage (reused, as
  /// ``trackedReport``).
  var contextMoves: [_ContextMove] = []
  /// The buffer of the last edit's events, kept after the edit handed it
  /// out: once its reader let it go, the next edit's events go in it
  /// without an allocation (a keystroke in a live context makes one event).
  var eventsBuffer: [DocumentEvent] = []
  /// The suggestions, by id (see DocumentState+Review.swift).
  var suggestions = _SuggestionTables()
  /// The suggestion whose candidate is in the text now, if one is.
  var previewed: TrackedRangeID? = nil
  /// The kinds and texts of the suggestions the person rejected.
  var ignored: Set<_IgnoredSuggestion> = []
  /// The suggestions an accept made, for undo and redo.
  var accepted: [_AcceptedSuggestion] = []
  /// The document's one history: the main undo and redo stacks (the
  /// person's groups, the tools' and the accepted suggestions), each
  /// origin's, the groups' actions and marks, the journal, the pending hunk
  /// and the typing run (see DocumentState+History.swift).
  var history = _History()
  /// How the edit under way is recorded in a history (set around a call
  /// of the one path; `nil`: not recorded).
  var recording: _RecordRequest? = nil
  /// While a batch is applied: the action of each party's group.
  var batchActions: [_HistoryParty: Int]? = nil
  /// The person's typing held back (see ``_TypingBuffer``).
  var held = _TypingBuffer()

  init(keepsAllChanges: Bool) {
    self.keepsAllChanges = keepsAllChanges
  }
}

/// A range of the selection, followed by the tracked ranges of its
/// storages: one range (expanding at neither end) where both ends are in one
/// storage, a point (bias right) for a caret, and a point for each end
/// (the start's bias right, the end's left) where they are in two.
struct _SelectionEntry: Sendable {
  var start: StorageID
  var end: StorageID
  var startLocal: UInt32
  /// The end's point, when the end is in another storage.
  var endLocal: UInt32?
  var isCaret: Bool
}

// MARK: - Invariants

extension DocumentState {
  /// Checks what follows storage `id`'s edits: the content around it (see
  /// ``DocumentContent/_invariantCheck(_:)``), and every range that follows
  /// its text — live contexts with one history entry per context version
  /// on versions the change log still holds, intact replacements, marks,
  /// the selection and the visible range — inside the text. Traps on a
  /// violation. Compiled in only with `-DENGINE_INTERNAL_CHECKS`; a no-op
  /// otherwise.
  func _invariantCheck(_ id: StorageID) {
    #if ENGINE_INTERNAL_CHECKS
    content._invariantCheck(id)
    guard let storage = content.storageIfAny(id) else { return }
    let length = storage.length
    func inside(_ r: Range<Int>) -> Bool { r.lowerBound >= 0 && r.upperBound <= length }
    precondition(hasSession == (session != nil), "hasSession out of step with the session")
    if let session {
      for context in session.contexts where context.storage == id {
        guard let range = storage.tracked.range(context.local) else {
          preconditionFailure("a live context not tracked")
        }
        precondition(inside(range), "a live context outside its storage")
        precondition(
          context.versions[0].version >= storage.changes.oldestVersion,
          "a context's history dropped")
      }
      for replacement in session.replacements
      where replacement.storage == id && !replacement.forgotten {
        let range = storage.tracked.range(replacement.local)
        precondition(
          replacement.intact == (range != nil), "a replacement tracked while broken, or not")
        if let range { precondition(inside(range), "a replacement outside its storage") }
        precondition(
          !replacement.intact
            || session.replacementsByLocal[id]?[replacement.local] != nil,
          "an intact replacement not indexed")
      }
      for mark in session.marks where mark.storage == id {
        precondition(storage.tracked.range(mark.local) != nil, "a mark not tracked")
      }
    }
    for entry in selectionEntries where entry.start == id {
      precondition(storage.tracked.range(entry.startLocal) != nil, "a selection not tracked")
    }
    if let local = visibleLocals[id] {
      precondition(storage.tracked.range(local) != nil, "a visible range not tracked")
    }
    if history.typing.isLive {
      // A live typing run says what the open group and the pending hunk
      // say (however it was made live).
      var read = history
      read.refreshTyping()
      let run = history.typing
      let again = read.typing
      precondition(
        again.isLive && run.isDeletion == again.isDeletion && run.storage == again.storage
          && run.lastTime == again.lastTime && run.interval == again.interval
          && run.start == again.start && run.inserted == again.inserted,
        "the typing run out of step with the open group and the pending hunk")
    }
    #endif
  }
}

// MARK: - Storages, selection and visible ranges

extension DocumentState {
  mutating func add(
    _ id: StorageID, text: Rope, after: StorageID?, attributes: [AttributeRun],
    source: (any StorageSource)? = nil
  ) throws(DocumentError) {
    try content.add(id, text: text, after: after, attributes: attributes, source: source)
  }

  mutating func setAttributes(
    _ attributes: [AttributeKey: AttributeValue?], in id: StorageID, range: Range<Int>
  ) throws(DocumentError) {
    try content.setAttributes(attributes, in: id, range: range)
  }

  mutating func move(_ id: StorageID, after: StorageID?) throws(DocumentError) {
    try content.move(id, after: after)
  }

  mutating func remove(_ id: StorageID) throws(DocumentError) {
    let serial = content.serial(of: id)
    // A tool's replacements whose links still wait in the storage's
    // journal get their marks first: the tool's group keeps what it made
    // there (as the person's groups of a removed storage stay groups), and
    // is not taken, when its phase closes, for one that recorded nothing.
    if history.isEnabled, serial != nil,
      session?.replacements.contains(where: {
        $0.storage == id && !$0.forgotten && $0.held != nil
      }) == true
    {
      flushJournal(id)
    }
    try content.remove(id)
    if let serial { forgetReview(of: id, serial: serial) }
    forgetHistory(of: id)
    // Its tracked ranges went with it; a range of the selection that ends in
    // it goes too, with its point in the other storage.
    for entry in selectionEntries where entry.start == id || entry.end == id {
      if entry.start != id { content.untrack(entry.startLocal, in: entry.start) }
      if entry.end != id, let local = entry.endLocal { content.untrack(local, in: entry.end) }
    }
    selectionEntries.removeAll { $0.start == id || $0.end == id }
    visibleLocals[id] = nil
    session?.forget(id)
  }

  mutating func setExcluded(
    _ excluded: Bool, in id: StorageID, range: Range<Int>
  ) throws(DocumentError) {
    try content.setExcluded(excluded, in: id, range: range)
  }

  /// The selection, where it is now (in the order it was set).
  var selection: [SelectionRange] {
    selectionEntries.compactMap { entry in
      guard let start = content.trackedRange(entry.startLocal, in: entry.start) else {
        return nil
      }
      if entry.isCaret { return SelectionRange(caret: TextPosition(entry.start, start.lowerBound)) }
      guard let local = entry.endLocal else { return SelectionRange(entry.start, start) }
      guard let end = content.trackedRange(local, in: entry.end) else { return nil }
      return SelectionRange(
        from: TextPosition(entry.start, start.lowerBound),
        to: TextPosition(entry.end, end.lowerBound))
    }
  }

  /// Each storage's visible range, where it is now.
  var visible: [StorageID: Range<Int>] {
    var shown: [StorageID: Range<Int>] = [:]
    for (id, local) in visibleLocals {
      shown[id] = content.trackedRange(local, in: id)
    }
    return shown
  }

  mutating func select(_ selection: [SelectionRange]) throws(DocumentError) {
    let validated = try content.validated(selection)
    for entry in selectionEntries {
      content.untrack(entry.startLocal, in: entry.start)
      if let local = entry.endLocal { content.untrack(local, in: entry.end) }
    }
    selectionEntries = []
    for range in validated {
      // Validated: every offset is one of its storage's text.
      let a = range.start
      let b = range.end
      if range.isCaret {
        let point = try content.track(
          [a.offset..<a.offset], in: a.storage, role: .selection,
          rules: TrackingRules(bias: .right))
        selectionEntries.append(
          _SelectionEntry(
            start: a.storage, end: a.storage, startLocal: point[0], endLocal: nil, isCaret: true))
      } else if a.storage == b.storage {
        let range = try content.track(
          [a.offset..<b.offset], in: a.storage, role: .selection, rules: TrackingRules())
        selectionEntries.append(
          _SelectionEntry(
            start: a.storage, end: a.storage, startLocal: range[0], endLocal: nil, isCaret: false))
      } else {
        let start = try content.track(
          [a.offset..<a.offset], in: a.storage, role: .selection,
          rules: TrackingRules(bias: .right))
        let end = try content.track(
          [b.offset..<b.offset], in: b.storage, role: .selection,
          rules: TrackingRules(bias: .left))
        selectionEntries.append(
          _SelectionEntry(
            start: a.storage, end: b.storage, startLocal: start[0], endLocal: end[0],
            isCaret: false))
      }
    }
  }

  mutating func setVisible(_ visible: [StorageID: Range<Int>]) throws(DocumentError) {
    for (id, range) in visible { _ = try content.checked(range, in: id) }
    for (id, local) in visibleLocals { content.untrack(local, in: id) }
    visibleLocals = [:]
    for (id, range) in visible {
      visibleLocals[id] = try content.track(
        [range], in: id, role: .visible, rules: TrackingRules())[0]
    }
  }
}

// MARK: - Edits

extension DocumentState {
  /// An edit of the person, or of an origin on an older version (see
  /// ``Document/edit(_:range:with:attributes:origin:basis:)``).
  mutating func edit(
    _ id: StorageID, range: Range<Int>, with text: String,
    attributes: [AttributeKey: AttributeValue]? = nil, origin: String?, basis: StorageVersion?
  ) throws(DocumentError) -> EditResult {
    if origin == nil && basis == nil && attributes == nil {
      if let typed = typeOn(id, range, text) { return typed }
      closeTyping()
      let result = try editAsPerson(id, range, text, length: text.utf16.count)
      if held.pause > 0 {
        held.pause -= 1
      } else if held.isEnabled {
        held.candidate = (id, result.range.upperBound)
      }
      return result
    }
    closeTyping()
    let n = text.utf16.count
    if let attributes { try AttributeRun.check(attributes) }
    if origin == nil && basis == nil {
      return try editAsPerson(id, range, text, length: n, attributes: attributes)
    }
    let current = try content.storage(id).version
    if origin == nil && basis == current {
      return try editAsPerson(id, range, text, length: n, attributes: attributes)
    }
    let party = origin.map(EditParty.origin) ?? .person
    let version = basis ?? current
    let length = try viewLength(of: id, at: version, party: party)
    guard range.lowerBound >= 0 && range.upperBound <= length else {
      throw .invalidRange(
        id, .offsetOutOfBounds(offset: range.upperBound, unit: .utf16, count: length))
    }
    let original = _Operation(range, length: n, party: party)
    let transformed: _Operation
    do {
      transformed = try content.storage(id).changes.transform(original, from: version).operation
    } catch {
      throw .staleVersion(version)
    }
    try checkBounds(transformed, in: id)
    let start = transformed.pieces.first?.range.lowerBound ?? 0
    if _EditStep(range, insertedLength: n).changesNothing {
      // A no-op as it was made: checked, and it makes no version.
      return EditResult(version: current, range: start..<start, events: [])
    }
    if history.isEnabled { recording = .party(party.isPerson ? .person : .origin(origin ?? "")) }
    defer { recording = nil }
    let (after, events, tracked) = try apply(
      id, transformed, text: text, original: original, basis: version,
      attributes: attributes.map { .uniform($0, length: n) })
    return EditResult(
      version: after, range: start..<(start + n), events: events, tracked: tracked)
  }

  /// The person's edit of `range` (UTF-16) in the current version.
  mutating func editAsPerson(
    _ id: StorageID, _ range: Range<Int>, _ text: String, length n: Int,
    attributes: [AttributeKey: AttributeValue]? = nil
  ) throws(DocumentError) -> EditResult {
    if _EditStep(range, insertedLength: n).changesNothing {
      // A no-op: its offset is still checked, and it makes no version.
      return EditResult(
        version: try content.checked(range, in: id).version, range: range, events: [])
    }
    // (Recorded through `asPerson`, not `recording`: the common keystroke
    // then writes no request.)
    let (version, events, tracked) = try apply(
      id, range, text, insertedLength: n, info: .person, actor: .other,
      attributes: attributes.map { .uniform($0, length: n) }, asPerson: history.isEnabled)
    return EditResult(
      version: version, range: range.lowerBound..<(range.lowerBound + n), events: events,
      tracked: tracked)
  }

  /// The person's edit with the range in `unit`.
  mutating func edit(
    _ id: StorageID, range: Range<Int>, in unit: TextUnit, with text: String,
    attributes: [AttributeKey: AttributeValue]? = nil
  ) throws(DocumentError) -> EditResult {
    if let attributes { try AttributeRun.check(attributes) }
    // No copy of the storage may live on into the edit: it would share the
    // rope's nodes and make the edit copy them.
    let utf16 = try content.convert(range, in: id, from: unit, to: .utf16)
    var result = try editAsPerson(
      id, utf16, text, length: text.utf16.count, attributes: attributes)
    result.unitRange = try content.convert(result.range, in: id, from: .utf16, to: unit)
    return result
  }

  /// A batch of edits, all or nothing (see ``Document/apply(_:)``).
  mutating func apply(_ edits: [DocumentEdit]) throws(DocumentError) -> [EditResult] {
    // On a copy: an edit that fails leaves `self` as it was. The copy shares
    // every storage, so the first edit of each copies only the path it
    // changes.
    var working = self
    var results: [EditResult] = []
    results.reserveCapacity(edits.count)
    // Each party's edits of the batch are one group.
    working.batchActions = [:]
    for (i, edit) in edits.enumerated() {
      do {
        results.append(try working.edit(edit))
      } catch {
        throw .batchRefused(index: i, error)
      }
    }
    working.batchActions = nil
    self = working
    return results
  }

  /// One edit as a ``DocumentEdit`` describes it.
  mutating func edit(_ edit: DocumentEdit) throws(DocumentError) -> EditResult {
    if edit.unit == .utf16 {
      return try self.edit(
        edit.storage, range: edit.range, with: edit.text, attributes: edit.attributes,
        origin: edit.origin, basis: edit.basis)
    }
    return try self.edit(
      edit.storage, range: edit.range, in: edit.unit, with: edit.text,
      attributes: edit.attributes)
  }

}

// MARK: - The one path of every edit

extension DocumentState {
  /// Applies one storage edit and everything that follows from it: the
  /// storage, its change record and its tracked ranges
  /// (``DocumentContent/edit(_:range:with:insertedLength:info:keepingChanges:attributes:report:)``),
  /// then the session (``followSession(_:in:at:text:by:before:reason:)``: the
  /// contexts' events and versions, the replacements' records).
  ///
  /// - Throws: ``DocumentError``; nothing changes.
  mutating func apply(
    _ id: StorageID, _ range: Range<Int>, _ text: String, insertedLength: Int,
    info: borrowing _RecordInfo, actor: _Actor, attributes: _NewTextAttributes? = nil,
    reason: ChangeReason = .typing, asPerson: Bool = false
  ) throws(DocumentError) -> (
    version: StorageVersion, events: [DocumentEvent], tracked: TrackedChanges
  ) {
    let edit = _EditStep(range, insertedLength: insertedLength)
    // For the session's own edit: the replacements it meets, where they are
    // before it.
    let before = hasSession && actor.isOwn ? replacementsMeeting(edit, in: id) : []
    trackedReport.empty()
    // The history: what it does with the edit is decided before it, and
    // done after it (DocumentState+History.swift).
    let ticket = historyBefore(edit, in: id, asPerson: asPerson)
    defer { if ticket.setsRecording { recording = nil } }
    let version = try content.edit(
      id, range: range, with: text, insertedLength: insertedLength, info: info,
      keepingChanges: keepsAllChanges || hasSession, attributes: attributes,
      report: &trackedReport, capturing: ticket.captures, removed: &history.keystrokeRemoved)
    historyAfter(edit, in: id, ticket)
    let events =
      hasSession
      ? followSession(
        edit, in: id, at: version, text: text, by: actor, before: before, reason: reason) : []
    let tracked =
      trackedReport.contains(where: { $0.role.isReported })
      ? reportedChanges(in: id) : TrackedChanges()
    _invariantCheck(id)
    return (version, events, tracked)
  }

  /// Hands the last storage edit to the session, with where it took each
  /// context of the storage (from ``trackedReport``: a context not in it
  /// lies before the edit, unchanged, or after it, shifted), and puts the
  /// context the session's own edit grew where the session says.
  mutating func followSession(
    _ edit: _EditStep, in id: StorageID, at version: StorageVersion, text: String,
    by actor: _Actor, before: [(index: Int, range: Range<Int>)], reason: ChangeReason
  ) -> [DocumentEvent] {
    contextMoves.empty()
    // Stored properties read through the optional: a method called on it
    // would copy the whole session first.
    let indices =
      session?.onlyStorage.map { $0.id == id ? $0.indices : [] } ?? session?.contextsByStorage[id]
    if let indices {
      for i in indices {
        guard let local = session?.contextLocals[i] else { continue }
        if let change = trackedReport.first(where: { $0.local == local && $0.role == .context }) {
          contextMoves.append(_ContextMove(index: i, old: change.old, new: change.new ?? 0..<0))
          continue
        }
        guard let new = content.trackedRange(local, in: id) else { continue }
        let shifted = !edit.changesNothing && new.lowerBound >= edit.s + edit.n
        let old =
          shifted ? (new.lowerBound - edit.delta)..<(new.upperBound - edit.delta) : new
        contextMoves.append(_ContextMove(index: i, old: old, new: new))
      }
    }
    followReplacements(edit, in: id, text: text, by: actor, before: before)
    guard session != nil else { return [] }
    var events: [DocumentEvent] = []
    swap(&events, &eventsBuffer)
    events.empty()
    let fix = session?.follow(
      edit, at: version, text: text, by: actor, moves: contextMoves, reason: reason,
      into: &events)
    if let fix { content.moveTracked(fix.local, in: id, to: fix.range) }
    eventsBuffer = events
    return events
  }

  /// Follows the session's replacements through the last storage edit, made
  /// by `actor`: their tracked ranges moved with the text; here, someone
  /// else's edit breaks those whose text it touched, and the session's own
  /// edit records its replacement and puts the ends it collapsed where the
  /// session's records say (see ``_LiveSession/placeThroughOwnEdit(_:by:isNew:before:)``).
  ///
  /// Where someone else inserts at the point of a replacement that left no
  /// text (a deletion), its text goes back before the insertion if the
  /// point ends a context or another replacement (whose text it was part
  /// of), else after it, as at the start of any range.
  ///
  /// - Complexity: O(k log n) for the k replacements the edit met.
  mutating func followReplacements(
    _ edit: _EditStep, in id: StorageID, text: String, by actor: _Actor,
    before: [(index: Int, range: Range<Int>)]
  ) {
    switch actor {
    case .other:
      guard session?.replacements.isEmpty == false,
        session?.replacementsByLocal[id]?.isEmpty == false
      else { return }
      var endsHere: Bool? = nil
      session?.othersEdits[id, default: 0] += 1
      for change in trackedReport where change.role == .replacement {
        guard let i = session?.replacement(in: id, local: change.local) else { continue }
        if edit.changesText(in: change.old) {
          session?.breakReplacement(i)
          content.untrack(change.local, in: id)
          continue
        }
        if change.old.isEmpty && edit.s == edit.e && change.old.lowerBound == edit.s {
          if endsHere == nil { endsHere = rangeEnds(at: edit.s, in: id) }
          if endsHere == true { content.moveTracked(change.local, in: id, to: edit.s..<edit.s) }
        }
      }
    case .tool(let context, let replaced):
      var made: Int? = nil
      // A piece that a concurrent deletion ate has nothing to take back.
      if !edit.changesNothing,
        let local = try? content.track(
          [edit.s..<(edit.s + edit.n)], in: id, role: .replacement, rules: TrackingRules())
      {
        made = session?.record(
          in: id, context: context, local: local[0], replaced: replaced, text: text)
      }
      place(edit, in: id, own: made, isNew: true, before: before)
    case .swap(let index, let toOriginal, let removed):
      if let placed = session?.replacements[index].aside.text {
        session?.replacements[index].inPlace = placed
      }
      session?.replacements[index].aside = removed
      place(edit, in: id, own: index, isNew: false, before: before)
      if let local = session?.replacements[index].local {
        content.moveTracked(local, in: id, to: edit.s..<(edit.s + edit.n))
      }
      session?.replacements[index].undone = toOriginal
    }
  }

  /// Puts the replacements the session's own edit met where the session's
  /// records say (``_LiveSession/placeThroughOwnEdit(_:by:isNew:before:)``).
  mutating func place(
    _ edit: _EditStep, in id: StorageID, own: Int?, isNew: Bool,
    before: [(index: Int, range: Range<Int>)]
  ) {
    guard !before.isEmpty || own != nil,
      let placed = session?.placeThroughOwnEdit(edit, by: own, isNew: isNew, before: before)
    else { return }
    for (i, range) in placed {
      guard let local = session?.replacements[i].local else { continue }
      if content.trackedRange(local, in: id) != range {
        content.moveTracked(local, in: id, to: range)
      }
    }
  }

  /// The session's intact replacements in storage `id` that meet the range
  /// `edit` replaces (an end in it, or around it), where they are now.
  func replacementsMeeting(
    _ edit: _EditStep, in id: StorageID
  ) -> [(index: Int, range: Range<Int>)] {
    guard let byLocal = session?.replacementsByLocal[id], !byLocal.isEmpty,
      let storage = content.storageIfAny(id)
    else { return [] }
    var found: [(index: Int, range: Range<Int>)] = []
    storage.tracked.forEach(meeting: edit.s...edit.e, roles: _TrackedRole.replacement.mask) {
      item, range in
      if let i = byLocal[item.local] { found.append((i, range)) }
    }
    return found
  }

  /// Whether `point` of storage `id` ends one of the session's contexts
  /// (where it was before the last edit: ``contextMoves``) or an intact
  /// replacement that has text.
  func rangeEnds(at point: Int, in id: StorageID) -> Bool {
    if contextMoves.contains(where: { $0.old.upperBound == point }) { return true }
    guard let storage = content.storageIfAny(id) else { return false }
    var ends = false
    storage.tracked.forEach(meeting: point...point, roles: _TrackedRole.replacement.mask) {
      _, range in
      if !range.isEmpty && range.upperBound == point { ends = true }
    }
    return ends
  }

  /// The host's tracked ranges and the suggestions that the last storage
  /// edit (of storage `id`) touched and removed, from ``trackedReport``;
  /// the records of the suggestions it removed go.
  mutating func reportedChanges(in id: StorageID) -> TrackedChanges {
    var changes = TrackedChanges()
    guard trackedReport.contains(where: { $0.role.isReported && ($0.touched || $0.new == nil) }),
      let serial = content.serial(of: id)
    else { return changes }
    for change in trackedReport where change.role.isReported {
      if change.new == nil {
        changes.removed.append(TrackedRangeID(serial: serial, local: change.local))
      } else if change.touched {
        changes.touched.append(TrackedRangeID(serial: serial, local: change.local))
      }
    }
    if !suggestions.isEmpty { dropRemovedSuggestions(in: id, serial: serial) }
    changes.touched.sort()
    changes.removed.sort()
    return changes
  }

  /// Applies an operation, its pieces from the last to the first (so that
  /// each one's range holds when it is applied); the first piece carries
  /// `text` and its `attributes`, the first applied record `original`. For
  /// the session's tool (`tool`), each piece is a replacement of its own,
  /// replacing the text of `tool.replaced` at its index.
  mutating func apply(
    _ id: StorageID, _ operation: _Operation, text: String, original: _Operation?,
    basis: StorageVersion, attributes: _NewTextAttributes? = nil,
    tool: (context: UUID, replaced: [AttributedText])? = nil, reason: ChangeReason = .typing
  ) throws(DocumentError) -> (
    version: StorageVersion, events: [DocumentEvent], tracked: TrackedChanges
  ) {
    var events: [DocumentEvent] = []
    var tracked = TrackedChanges()
    var version: StorageVersion = 0
    var made: [Int] = []
    let count = operation.pieces.count
    // A tool's replacement is a group of the history (the streaming
    // phase's, while one is under way), when it records.
    let toolAction = tool != nil && count > 0 ? toolGroup() : nil
    for (i, piece) in operation.pieces.enumerated().reversed() {
      let info = _RecordInfo(
        party: operation.party, original: i == count - 1 ? original : nil, basis: basis,
        isContinuation: i != count - 1)
      let actor: _Actor =
        tool.map { .tool(context: $0.context, replaced: $0.replaced[i]) } ?? .other
      let madeBefore = session?.replacements.count ?? 0
      if let toolAction {
        recording = .action(_Recording(action: toolAction, mayPend: false, journals: true))
        self.history.lastMade = (nil, nil)
        self.history.lastJournaled = false
      }
      let result: (version: StorageVersion, events: [DocumentEvent], tracked: TrackedChanges)
      do {
        defer { if toolAction != nil { recording = nil } }
        result = try apply(
          id, piece.range, i == 0 ? text : "", insertedLength: i == 0 ? text.utf16.count : 0,
          info: info, actor: actor, attributes: i == 0 ? attributes : nil, reason: reason)
      }
      if (session?.replacements.count ?? 0) > madeBefore {
        made.append(madeBefore)
        if let toolAction { link(madeBefore, to: toolAction) }
      }
      // The other pieces of a party's operation go in the group its first
      // one went in.
      if i == count - 1, count > 1, case .party(let party)? = recording,
        let action = self.history.open(party)?.action ?? batchActions?[party]
      {
        recording = .action(_Recording(action: action, mayPend: false))
      }
      version = result.version
      events += result.events
      tracked.merge(result.tracked)
    }
    // The last piece in closes the tool's replacement: one undo group.
    if let tool, count > 0, let context = try? trackedContext(tool.context) {
      let now = range(of: context)
      let group = session?.close(tool.context, made: made, at: version, range: now)
      if session?.streamingGroup == nil {
        pushSessionGroup(group, action: toolAction)
      }
      clearRedo()
    }
    return (version, events, tracked)
  }

  /// Checks that every piece of `operation` has its bounds on scalar
  /// boundaries of the storage's current text.
  func checkBounds(_ operation: _Operation, in id: StorageID) throws(DocumentError) {
    for piece in operation.pieces {
      _ = try content.checked(piece.range, in: id)
    }
  }

  /// How much a party's own edits since `version` changed a storage's
  /// length (the person's view has no own edits: 0).
  func ownDelta(
    of id: StorageID, since version: StorageVersion, party: EditParty
  ) throws(DocumentError) -> Int {
    let log = try content.storage(id).changes
    guard log.hasEdits(by: party, after: version) else {
      // Still check that the version is known.
      do {
        try log.check(version)
      } catch {
        throw .staleVersion(version)
      }
      return 0
    }
    let records: ArraySlice<ChangeRecord>
    do {
      records = try log.records(since: version)
    } catch {
      throw .staleVersion(version)
    }
    return records.reduce(0) {
      $0 + ($1.party == party ? $1.insertedLength - $1.range.count : 0)
    }
  }

  /// The length of a party's view of a storage: the storage at `version`
  /// plus the party's own edits since.
  func viewLength(
    of id: StorageID, at version: StorageVersion, party: EditParty
  ) throws(DocumentError) -> Int {
    let delta = try ownDelta(of: id, since: version, party: party)
    return try content.storage(id).changes.length(at: version) + delta
  }

}

// MARK: - Positions through history

extension DocumentState {
  /// Runs `body` on the change log of storage `id`; its errors are about
  /// `version`, which is then stale.
  mutating func withLog<R>(
    _ id: StorageID, _ version: StorageVersion,
    _ body: (inout ChangeLog) throws(ChangeLogError) -> R
  ) throws(DocumentError) -> R {
    try content.withChanges(id) { (log) throws(DocumentError) in
      do {
        return try body(&log)
      } catch {
        throw .staleVersion(version)
      }
    }
  }

  /// Runs `body` on the change log of storage `id` for `range` of its text
  /// at `version`, after checking that the log holds that version and that
  /// the range lies in that text: what ``map(_:in:from:bias:)`` and
  /// ``isTouched(_:in:since:)`` share.
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)``,
  ///   ``DocumentError/staleVersion(_:)``, or
  ///   ``DocumentError/invalidRange(_:_:)`` for a range past that text.
  mutating func withLog<R>(
    _ id: StorageID, at version: StorageVersion, checking range: Range<Int>,
    _ body: (inout ChangeLog) throws(ChangeLogError) -> R
  ) throws(DocumentError) -> R {
    let (answer, length) = try withLog(id, version) {
      (log) throws(ChangeLogError) -> (R?, Int) in
      try log.check(version)
      let length = log.length(at: version)
      guard range.lowerBound >= 0 && range.upperBound <= length else { return (nil, length) }
      return (try body(&log), length)
    }
    guard let answer else {
      throw .invalidRange(
        id, .offsetOutOfBounds(offset: range.upperBound, unit: .utf16, count: length))
    }
    return answer
  }

  mutating func map(
    _ offset: Int, in id: StorageID, from version: StorageVersion, bias: Bias
  ) throws(DocumentError) -> MappedOffset {
    try withLog(id, at: version, checking: offset..<offset) { (log) throws(ChangeLogError) in
      try log.map(offset, from: version, bias: bias)
    }
  }

  mutating func isTouched(
    _ range: Range<Int>, in id: StorageID, since version: StorageVersion
  ) throws(DocumentError) -> Bool {
    try withLog(id, at: version, checking: range) { (log) throws(ChangeLogError) in
      try log.touches(range, since: version)
    }
  }

  /// A pin of the document's caller (``Document/pin(_:version:)``).
  mutating func pin(_ id: StorageID, version: StorageVersion) throws(DocumentError) {
    try withLog(id, version) { (log) throws(ChangeLogError) in try log.pin(version) }
  }

  /// Undoes one pin of the caller's (``Document/unpin(_:version:)``); a
  /// pin the caller did not make (a session's) is left alone, so that no
  /// caller drops the history a session needs.
  mutating func unpin(_ id: StorageID, version: StorageVersion) {
    unpin(id, version: version, for: .caller)
  }

  /// Undoes one pin of `holder`'s, and drops the history nothing needs any
  /// more (unless the document keeps it all).
  mutating func unpin(_ id: StorageID, version: StorageVersion, for holder: _PinHolder) {
    let keepAll = keepsAllChanges
    try? content.withChanges(id) { (log) throws(DocumentError) in
      log.unpin(version, for: holder)
      if !keepAll { log.trim() }
    }
  }
}

extension Array {
  /// Removes every element and keeps the capacity: for the few elements of
  /// a buffer reused every edit, one `removeLast()` each costs less than
  /// `removeAll(keepingCapacity:)`, which goes through the general
  /// `replaceSubrange`.
  @inline(__always)
  mutating func empty() {
    if count > 4 {
      removeAll(keepingCapacity: true)
      return
    }
    while !isEmpty { removeLast() }
  }
}
