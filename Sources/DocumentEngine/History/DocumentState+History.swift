// The person's (and each origin's) undo history: see docs/DESIGN.md,
// *History*, and docs/History.md for why selective undo holds.
//
// A group's effect is an action: the units it put in that are still there
// (ranges in the storage's tree of history marks) and the pieces of text it
// removed (each waiting at a point). Marks follow every edit of the
// storage, with three rules of their own (``DocumentState/followMarks(_:in:recording:removed:)``):
// a range never takes units someone else put in (an insertion inside splits
// it); a point in text someone replaced goes to the replaced range's start
// (before the new text); and an edit an action records takes the marks in
// the text it removes into its piece (``_InnerMark``), so that putting the
// piece back puts them back where they were. Undoing an action puts its
// pieces back and takes its units out; what that does is recorded in the
// same way, as the inverse action, which is what redo takes back.

/// How an edit of the one path is recorded in a history.
enum _RecordRequest: Sendable {
  /// An edit of a party: grouped with its open group, or a new group.
  case party(_HistoryParty)
  /// An edit of a known action (an undo or a redo, a batch).
  case action(_Recording)
}

/// What the history decided before an edit of the one path
/// (``DocumentState/historyBefore(_:in:asPerson:)``), for
/// ``DocumentState/historyAfter(_:in:_:)`` to do after it.
struct _HistoryTicket {
  enum Path {
    /// The person's keystroke that goes on with their typing run.
    case goesOn
    /// The person's keystroke on the fast path (``DocumentState/historyFast(_:in:now:)``).
    case fast
    /// Any other edit, with the plan of the history that records it, if
    /// one does.
    case planned(_HistoryPlan?)
  }
  var path: Path
  /// On the history's clock (the person's keystroke's), in nanoseconds.
  var now: Int64 = 0
  /// Whether the edit's removed text is to be handed back by the rope.
  var captures = false
  /// Whether the person's recording was set for the edit (the caller
  /// clears it after).
  var setsRecording = false
}

extension DocumentState {
  // MARK: - Recording an edit (from the one path)

  /// Before a storage edit of the one path: what the history does with
  /// it. The person's edit (`asPerson`) asks the typing run, then the fast
  /// path, and makes a request for a plan only when both say no; another
  /// edit is planned when a recording is set around it (an undo, a batch, a
  /// tool's group). The caller clears ``recording`` after the edit when
  /// the ticket ``_HistoryTicket/setsRecording``.
  @inline(__always)
  mutating func historyBefore(
    _ edit: _EditStep, in id: StorageID, asPerson: Bool
  ) -> _HistoryTicket {
    // (A deletion that meets a host's tracked range takes the plan: the
    // history keeps the ends it collapses or removes.)
    // (Asked of the content, not of the state in a condition's closure:
    // that copied the whole state, 1,144 bytes, on every deletion.)
    if asPerson, edit.e == edit.s || !content.hostRangeMeets(edit.s..<edit.e, in: id) {
      let now = history.now()
      if batchActions == nil, history.typing.goesOn(edit, in: id, now: now) {
        return _HistoryTicket(path: .goesOn, now: now, captures: edit.s < edit.e)
      }
      if historyFast(edit, in: id, now: now) {
        return _HistoryTicket(path: .fast, now: now, captures: edit.s < edit.e)
      }
    }
    if asPerson {
      recording = .party(.person)
      return _HistoryTicket(path: .planned(historyPlan(edit, in: id)), setsRecording: true)
    }
    // (The request's case is tested in place: `!= nil` would copy it out.)
    if case .some = recording { return _HistoryTicket(path: .planned(historyPlan(edit, in: id))) }
    return _HistoryTicket(path: .planned(nil))
  }

  /// After a storage edit of the one path: the history does what
  /// `ticket` (``historyBefore(_:in:asPerson:)``) decided.
  @inline(__always)
  mutating func historyAfter(_ edit: _EditStep, in id: StorageID, _ ticket: _HistoryTicket) {
    switch ticket.path {
    case .goesOn:
      if edit.n > 0 {
        history.typingTypes(edit.n, now: ticket.now)
      } else {
        history.typingGoesOn(edit, now: ticket.now)
      }
    case .fast:
      historyFastFollow(edit, in: id)
    case .planned(let plan):
      if plan != nil || !history.marks.isEmpty || history.pending != nil
        || !history.journaled.isEmpty
      {
        historyFollow(edit, in: id, plan: plan)
      }
    }
  }

  /// Before a storage edit the history records: what it will do with it
  /// (decided now, while the text and the selection are as they were
  /// before the edit), and the text the edit removes.
  mutating func historyPlan(_ edit: _EditStep, in id: StorageID) -> _HistoryPlan? {
    guard let request = recording, !edit.changesNothing else { return nil }
    var plan = _HistoryPlan()
    switch request {
    case .action(let given):
      plan.recording = given
    case .party(let party):
      guard history.isEnabled else { return nil }
      plan.party = party
      if batchActions != nil {
        if let action = batchActions?[party] {
          plan.recording = _Recording(action: action, mayPend: false)
        } else if party == .person {
          plan.selection = selectionNow()
        }
      } else {
        plan.now = history.now()
        if history.pending != nil || !history.journaled.isEmpty,
          let open = history.open(party), history.pending?.action != open.action,
          history.pending?.storage == open.storage || history.journaled.contains(open.storage)
        {
          // Its last hunk is in the tree, which must have taken the journal
          // and any other group's pending hunk there first: an edit that
          // cut the group's end clears it only when the tree takes it.
          flushHistory(open.storage)
        }
        if let open = goesOn(party, in: id, edit, now: plan.now) {
          plan.recording = _Recording(action: open.action, mayPend: true)
        } else if party == .person {
          plan.selection = selectionNow()
        }
      }
    }
    if edit.s < edit.e {
      plan.removed = content.attributedText(of: id, in: edit.s..<edit.e)
    }
    return plan
  }

  /// After a storage edit: records it as `plan` says (in the open group,
  /// or in a new one), or — for an edit no history records — moves the
  /// storage's marks.
  mutating func historyFollow(_ edit: _EditStep, in id: StorageID, plan: _HistoryPlan?) {
    guard let plan else {
      // An edit no history records (a tool's replacement) waits in the
      // journal too, when it can: the tree takes it with the rest.
      boundJournal(id)
      if journalPlain(edit, in: id) { return }
      flushHistory(id)
      if history.marks[id]?.tree.isEmpty == false {
        followMarks(edit, in: id, recording: nil, removed: .empty)
      }
      return
    }
    // An edit that collapses or removes a host's tracked range goes in the
    // tree now, with the ends it keeps (the report is this edit's).
    let direct = edit.e > edit.s && keepsHostEnds(edit)
    var recording: _Recording
    if let given = plan.recording {
      recording = given
      if let party = plan.party, batchActions == nil, var open = history.open(party) {
        open.lastTime = plan.now
        history.setOpen(party, open)
      }
    } else if let party = plan.party {
      if party == .person, batchActions == nil, !direct {
        let lazy = Self.lazySelection(plan.selection, in: id)
        if lazy.isPossible {
          let action = openLazyGroup(in: id, edit, now: plan.now)
          history.keystrokeRemoved = _RemovedBytes(plan.removed)
          startLazyHunk(action, edit, selection: lazy.selection, in: id)
          return
        }
      }
      let action = openGroup(party, in: id, edit, now: plan.now, selection: plan.selection)
      if batchActions != nil {
        history.setOpen(party, nil)
        batchActions?[party] = action
      } else if case .origin = party, !direct,
        boundingJournal(id), journalOrigin(action, edit, removed: plan.removed, in: id)
      {
        // It waits in the journal with the person's groups (the tree
        // takes it when it takes them, and the origin's next edit in its
        // group makes it).
        return
      }
      recording = _Recording(action: action, mayPend: batchActions == nil)
    } else {
      return
    }
    if recording.mayPend && !direct && pend(recording.action, edit, plan.removed, in: id) {
      return
    }
    // A tool's replacement waits in the journal with the person's groups.
    if recording.journals, !direct, recording.revive == nil, boundingJournal(id),
      journalOrigin(recording.action, edit, removed: plan.removed, in: id)
    {
      history.lastJournaled = true
      return
    }
    if history.marks[id] == nil {
      guard let serial = content.serial(of: id) else { return }
      history.marks[id] = _HistoryMarks(serial: serial)
    }
    recording.mayPend = false
    flushHistory(id)
    let made = followMarks(
      edit, in: id, recording: recording, removed: plan.removed, ends: direct ? trackedReport : [])
    noteLast(made, of: recording.action, in: id)
  }

  /// `party`'s open group, if `edit` goes on with it (same storage, same
  /// kind, in the interval, where the group left off).
  func goesOn(
    _ party: _HistoryParty, in id: StorageID, _ edit: _EditStep, now: Int64
  ) -> _OpenGroup? {
    // The person's open group, without a copy when it is not there or
    // elsewhere (every group's first edit asks).
    if party == .person
      && (history.personOpen == nil || history.personOpen?.storage != id
        || history.personOpen?.isDeletion != (edit.n == 0))
    {
      return nil
    }
    guard let open = history.open(party), open.storage == id,
      open.isDeletion == (edit.n == 0),
      now &- open.lastTime <= history.intervalNanos,
      history.isKept(open.action), continues(open, edit, in: id)
    else { return nil }
    return open
  }

  /// Where the selection's first range is now.
  ///
  /// Mutating only so that it reads the state in place: a method that is
  /// not, called from a mutating edit, is handed a copy of the whole state.
  mutating func selectionNow() -> _SelectionBefore? {
    // (With the typing held back: where it puts the selection.)
    guard let entry = selectionEntries.first,
      let start = trackedRangeNow(entry.startLocal, in: entry.start)
    else { return nil }
    if entry.isCaret { return _SelectionBefore(start: (entry.start, start.lowerBound), end: nil) }
    if let local = entry.endLocal {
      guard let end = trackedRangeNow(local, in: entry.end) else { return nil }
      return _SelectionBefore(
        start: (entry.start, start.lowerBound), end: (entry.end, end.lowerBound))
    }
    return _SelectionBefore(
      start: (entry.start, start.lowerBound), end: (entry.start, start.upperBound))
  }

  /// Whether `edit` goes on where `open`'s last hunk left off: typing at
  /// its end, or deleting next to its point.
  func continues(_ open: _OpenGroup, _ edit: _EditStep, in id: StorageID) -> Bool {
    if let p = history.pending, p.storage == id, p.action == open.action {
      return p.isContinued(by: edit)
    }
    guard let last = open.last, let range = markRange(last) else { return false }
    if !open.isDeletion { return edit.s == edit.e && edit.s == range.upperBound }
    return edit.e == range.lowerBound || edit.s == range.lowerBound
  }

  /// Starts a new group of `party` with `edit`: a new action on its undo
  /// stack, its redo stack cleared, the selection before it kept (the
  /// person's).
  mutating func openGroup(
    _ party: _HistoryParty, in id: StorageID, _ edit: _EditStep, now: Int64,
    selection: _SelectionBefore?
  ) -> Int {
    let action = history.newAction(party)
    switch party {
    case .person:
      history.main.pushGroup(action)
      clearRedo()
      if let selection { keep(selection, for: action) }
    case .tool:
      history.main.pushGroup(action)
      clearRedo()
    case .origin(let name):
      history.origins[name, default: _OriginStacks()].undo.append(action)
      for dropped in history.origins[name]?.redo ?? [] { dropAction(dropped) }
      history.origins[name]?.redo.removeAll()
    }
    history.setOpen(
      party, _OpenGroup(action: action, storage: id, isDeletion: edit.n == 0, lastTime: now))
    enforceHistoryLimit()
    return action
  }

  /// Clears the main redo stack (a new edit of the person's, or a tool's
  /// group).
  @inline(__always)
  mutating func clearRedo() {
    if !history.main.redo.isEmpty { dropRedo() }
  }

  /// Drops the groups of the main redo stack.
  mutating func dropRedo() {
    for group in history.main.redo {
      for action in group.actions { dropAction(action) }
    }
    history.main.redo.removeAll()
  }

  /// Closes the person's open group: a tool's group or an accepted
  /// suggestion goes on the stack after it.
  mutating func closePersonGroup() {
    history.setPersonOpen(nil)
  }

  /// Keeps the selection before a group as points of the history, for
  /// undo to put back (in the tree's coordinates: those before the edit
  /// that opens the group, which the tree has not taken yet).
  mutating func keep(_ selection: _SelectionBefore, for action: Int, flushing: Bool = true) {
    guard
      let startRef = addMark(
        selection.start.offset..<selection.start.offset, in: selection.start.storage,
        owner: _MarkOwner(action: action, role: .selectionStart), flushing: flushing)
    else { return }
    var marks = _SelectionMarks(start: startRef, end: nil)
    if let (storage, offset) = selection.end {
      marks.end = addMark(
        offset..<offset, in: storage, owner: _MarkOwner(action: action, role: .selectionEnd),
        flushing: flushing)
    }
    history.actions[action]?.selection = marks
    charge(action, _HistoryAction.markCost * (marks.end == nil ? 1 : 2))
  }

  /// Adds a mark to storage `id`'s tree (its journal and pending hunk put
  /// in first, unless the caller is putting them in).
  mutating func addMark(
    _ range: Range<Int>, in id: StorageID, owner: _MarkOwner, flushing: Bool = true
  ) -> _MarkRef? {
    if history.marks[id] == nil {
      guard let serial = content.serial(of: id) else { return nil }
      history.marks[id] = _HistoryMarks(serial: serial)
    }
    if flushing { flushHistory(id) }
    guard let serial = history.marks[id]?.serial,
      let local = history.marks[id]?.add(range, owner: owner)
    else { return nil }
    return _MarkRef(storage: id, serial: serial, local: local)
  }

  /// Where mark `ref` is now (`nil` if it or its storage is gone).
  func markRange(_ ref: _MarkRef) -> Range<Int>? {
    guard let marks = history.marks[ref.storage], marks.serial == ref.serial else { return nil }
    if let p = history.pending, p.storage == ref.storage {
      // Not yet moved by the pending hunk: map it by hand.
      guard let old = marks.tree.range(ref.local) else { return nil }
      let step = _EditStep(p.start..<(p.start + p.removedLength), insertedLength: p.inserted)
      let isPoint = marks.owners[ref.local]?.isPoint ?? true
      let start = _TrackedRanges.mapPoint(old.lowerBound, step, goesAfter: !isPoint)
      let end = _TrackedRanges.mapPoint(old.upperBound, step, goesAfter: false)
      return start..<max(start, end)
    }
    return marks.tree.range(ref.local)
  }

  /// Notes where the last hunk of `action` is, if it is its party's open
  /// group, for ``continues(_:_:in:)``.
  mutating func noteLast(
    _ made: (added: _MarkRef?, piece: _MarkRef?), of action: Int, in id: StorageID
  ) {
    guard let party = history.actions[action]?.party,
      var open = history.open(party), open.action == action, open.storage == id
    else { return }
    open.last = open.isDeletion ? made.piece : made.added
    history.setOpen(party, open)
  }

  // MARK: - The pending hunk

  /// Takes a keystroke of `action` into the pending hunk: one that goes
  /// on with it, or a new one (the last put in its tree first). Returns
  /// false if it cannot (the caller follows the marks).
  mutating func pend(
    _ action: Int, _ edit: _EditStep, _ removed: AttributedText, in id: StorageID
  ) -> Bool {
    if let p = history.pending {
      if p.action == action && p.storage == id && p.isContinued(by: edit) {
        history.updatePending { $0.take(edit, removed: removed) }
        return true
      }
      retirePending()
    }
    history.setPending(_PendingHunk(storage: id, action: action, edit, removed: removed))
    return true
  }

  /// Puts the pending hunk in its storage's tree of marks, as one edit of
  /// its action (a lazy group's action is made first). Only
  /// ``flushHistory(_:)`` calls it: the storage's journal goes in before.
  mutating func flushPending() {
    guard let p = history.pending else { return }
    history.setPending(nil)
    if history.marks[p.storage] == nil {
      guard let serial = content.serial(of: p.storage) else { return }
      history.marks[p.storage] = _HistoryMarks(serial: serial)
    }
    var recording: _Recording? = nil
    if p.isLazy {
      if p.action > history.lazyDropped {
        makeLazyAction(p.action, selection: p.selection, in: p.storage)
        recording = _Recording(action: p.action, mayPend: false)
      }
    } else if history.actions.contains(p.action) {
      recording = _Recording(action: p.action, mayPend: false)
    }
    let step = _EditStep(p.start..<(p.start + p.removedLength), insertedLength: p.inserted)
    let made = followMarks(step, in: p.storage, recording: recording, removed: p.removed)
    if recording != nil { noteLast(made, of: p.action, in: p.storage) }
  }

  // MARK: - Following an edit

  /// Moves storage `id`'s marks with `step` by the history's rules (see
  /// the top of this file), and records it in `recording`'s action: the
  /// units it put in, the text it removed (without the action's own units,
  /// which go for good) with the marks that were in it, or — for a piece
  /// going back — the marks that were in the piece, and the points that
  /// were after it, put back.
  ///
  /// - Returns: the marks made for the action: its new range, its new
  ///   piece's point.
  @discardableResult
  mutating func followMarks(
    _ step: _EditStep, in id: StorageID, recording: _Recording?, removed: AttributedText,
    ends: [_TrackedChange] = []
  ) -> (added: _MarkRef?, piece: _MarkRef?) {
    // The storage's marks are taken out of the table while they change
    // (one lookup, and no copy of the tree), and put back at the end.
    guard var marks = history.marks.removeValue(forKey: id) else { return (nil, nil) }
    defer { history.marks[id] = marks }
    let serial = marks.serial
    let s = step.s
    let e = step.e
    let n = step.n
    let delta = step.delta
    let recorder = recording.flatMap { !history.actions.contains($0.action) ? nil : $0.action }
    // A removal's piece: its point goes in first, at the start, so that
    // the points in the removed text come right after it.
    var pieceLocal: UInt32? = nil
    var pieceIndex = 0
    if let recorder, recording?.revive == nil || recording?.replaces == true, e > s {
      pieceIndex = history.actions[recorder]?.pieces.count ?? 0
      pieceLocal = marks.add(
        s..<s, owner: _MarkOwner(action: recorder, role: .removed(pieceIndex)))
    }
    var report: [_TrackedChange] = []
    if marks.tree.isEmpty == false {
      marks.tree.edit(step, report: &report)
    }
    var inner: [_InnerMark] = []
    var ownCuts: [Range<Int>] = []
    var joined = false
    var pointsToMove: [UInt32] = []
    for change in report where change.local != pieceLocal {
      guard let owner = marks.owners[change.local] else { continue }
      if !history.actions.contains(owner.action) {
        marks.remove(change.local)
        continue
      }
      let old = change.old
      if owner.isPoint {
        let p = old.lowerBound
        guard p > s && p <= e else { continue }
        // A point already in a piece goes with that piece: only the
        // others are the new piece's own.
        if pieceLocal != nil, let recorder, marks.swallowedBy[change.local] == nil {
          inner.append(_InnerMark(range: (p - s)..<(p - s), owner: owner, local: change.local))
          marks.swallowedBy[change.local] = _PieceRef(
            action: recorder, piece: pieceIndex)
        }
        if change.new?.lowerBound != s { pointsToMove.append(change.local) }
        continue
      }
      let a = old.lowerBound
      let b = old.upperBound
      let mid = max(a, s)..<max(max(a, s), min(b, e))
      // The edit cuts the end of another's open group's last units: the
      // group's end goes with the text (into the piece, which puts it back
      // as the group's end, or for good), and what is left of the range
      // does not hold it — the group does not go on from there, and a
      // later cut of that part must not take the end with it.
      var cutsGroupEnd = false
      if !mid.isEmpty, b <= e, owner.action != recorder,
        let party = history.actions[owner.action]?.party,
        var open = history.open(party), open.action == owner.action,
        open.last?.local == change.local, open.last?.storage == id
      {
        cutsGroupEnd = true
        open.last = nil
        history.setOpen(party, open)
      }
      if !mid.isEmpty, let recorder {
        let relative = (mid.lowerBound - s)..<(mid.upperBound - s)
        if owner.action == recorder {
          ownCuts.append(relative)
        } else {
          var mark = _InnerMark(range: relative, owner: owner)
          mark.holdsGroupEnd = cutsGroupEnd
          inner.append(mark)
        }
      }
      let left = a < s ? a..<min(b, s) : nil
      let right = b > e ? (max(a, e) + delta)..<(b + delta) : nil
      switch (left, right) {
      case (let l?, let r?):
        if n > 0 && owner.action != recorder {
          marks.tree.move(change.local, to: l)
          if let local = marks.add(r, owner: owner) {
            let ref = _MarkRef(storage: id, serial: serial, local: local)
            history.actions[owner.action]?.added.append(ref)
            charge(owner.action, _HistoryAction.markCost)
            // An open group goes on at the end of its last units: the
            // right part.
            if let party = history.actions[owner.action]?.party,
              var open = history.open(party), open.last?.local == change.local,
              open.last?.storage == id
            {
              open.last = ref
              history.setOpen(party, open)
            }
          }
        } else {
          marks.tree.move(change.local, to: a..<(b + delta))
          if n > 0 { joined = true }
        }
      case (let l?, nil):
        marks.tree.move(change.local, to: l)
      case (nil, let r?):
        marks.tree.move(change.local, to: r)
      case (nil, nil):
        marks.remove(change.local)
        // Units the recorder put in and took out itself are gone for good:
        // the range is no longer its.
        if owner.action == recorder, owner.role == .added {
          history.actions[owner.action]?.added.removeAll {
            $0.local == change.local && $0.storage == id
          }
        }
      }
    }
    // Points at the end of replaced text went after the new text: they go
    // to its start, after the others there (in order).
    for local in pointsToMove { marks.tree.move(local, to: s..<s) }
    // The host's ranges the edit collapsed or removed: their ends whose
    // units it removed wait in the piece, a removed range's others as
    // points.
    if let recorder, pieceLocal != nil, !ends.isEmpty {
      keepHostEnds(ends, step, by: recorder, in: id, serial: serial, inner: &inner, marks: &marks)
    }

    if let revive = recording?.revive, let recorder {
      putBack(revive, by: recorder, at: s, length: n, in: id, serial: serial, marks: &marks)
    }
    guard let recorder else { return (nil, nil) }
    var made: (added: _MarkRef?, piece: _MarkRef?) = (nil, nil)
    if let pieceLocal {
      let (kept, keptInner) = withoutOwnUnits(removed, inner, cuts: ownCuts)
      let ref = _MarkRef(storage: id, serial: serial, local: pieceLocal)
      if kept.length > 0 {
        // (A piece put back by the same edit may have cut one of the
        // recorder's own pieces in two, whose tail took the index.)
        let index = history.actions[recorder]?.pieces.count ?? pieceIndex
        if index != pieceIndex {
          let was = _PieceRef(action: recorder, piece: pieceIndex)
          marks.owners[pieceLocal] = _MarkOwner(action: recorder, role: .removed(index))
          for mark in keptInner {
            if let local = mark.local, marks.swallowedBy[local] == was {
              marks.swallowedBy[local] = _PieceRef(action: recorder, piece: index)
            }
          }
          pieceIndex = index
        }
        history.actions[recorder]?.pieces.append(
          _RemovedPiece(mark: ref, text: kept, inner: keptInner))
        charge(
          recorder,
          _HistoryAction.markCost + kept.text.utf8.count + 48 * kept.runs.count + 32
            * keptInner.count)
        made.piece = ref
      } else {
        // Nothing of it goes back: the points in it stay where they are.
        let here = _PieceRef(action: recorder, piece: pieceIndex)
        for mark in keptInner {
          if let local = mark.local, marks.swallowedBy[local] == here {
            marks.swallowedBy[local] = nil
          }
        }
        marks.remove(pieceLocal)
      }
    }
    if n > 0 && !joined,
      let local = marks.add(
        s..<(s + n), owner: _MarkOwner(action: recorder, role: .added))
    {
      let ref = _MarkRef(storage: id, serial: serial, local: local)
      history.actions[recorder]?.added.append(ref)
      charge(recorder, _HistoryAction.markCost)
      made.added = ref
    }
    history.lastMade = (made.added, made.piece == nil ? nil : pieceIndex)
    return made
  }

  /// A piece's text went back at `s` (`length` units), recorded by
  /// `inverse`: the marks that were in it go back inside it, the pieces
  /// around it (whose text was removed around its point) are cut in two
  /// there, the points after its point go after the text, and its point
  /// goes.
  mutating func putBack(
    _ revive: (mark: UInt32, inner: [_InnerMark]), by inverse: Int, at s: Int, length n: Int,
    in id: StorageID, serial: Int, marks: inout _HistoryMarks
  ) {
    // (A piece the same edit removed — `_Recording.replaces` — has its
    // point here too, after the piece's: it goes after the text, as if the
    // text had gone back first and the units were removed after it.)
    let cluster = marks.points(at: s)
    let position = cluster.firstIndex(of: revive.mark)
    let before = Set(position.map { cluster[..<$0] } ?? [])
    let after = position.map { Array(cluster[($0 + 1)...]) } ?? []
    // The pieces around it, innermost first, each with where the one
    // inside is.
    var chain: [(piece: _PieceRef, child: UInt32)] = []
    var child = revive.mark
    while let container = marks.swallowedBy[child],
      let point = history.actions[container.action]?.pieces[safe: container.piece]?.mark?.local,
      before.contains(point)
    {
      chain.append((container, child))
      child = point
    }
    let revived = marks.owners[revive.mark]
    var revivedPiece: _PieceRef? = nil
    if let revived, case .removed(let k) = revived.role {
      revivedPiece = _PieceRef(action: revived.action, piece: k)
    }
    // Where each of the piece's own points is in its text.
    var offsets: [UInt32: Int] = [:]
    for mark in revive.inner {
      if let local = mark.local { offsets[local] = mark.range.lowerBound }
    }
    marks.remove(revive.mark)
    // The points after it that were in it (directly, or inside a piece
    // that was) go inside its text, each with the one in it that holds it.
    var targets: [(local: UInt32, offset: Int, isOwn: Bool)] = []
    for local in after {
      var top = local
      var container = marks.swallowedBy[local]
      while let c = container, c != revivedPiece,
        let point = history.actions[c.action]?.pieces[safe: c.piece]?.mark?.local
      {
        top = point
        container = marks.swallowedBy[point]
      }
      guard container != nil, container == revivedPiece, let offset = offsets[top] else {
        continue
      }
      targets.append((local, offset, top == local))
    }
    // A host's range end that waited in it goes back first at its offset:
    // before the points of the runs deleted after it there (its unit is
    // the one before it).
    for mark in revive.inner where mark.local == nil && mark.owner.isRangeEnd {
      restore(mark, at: s, in: id, serial: serial, marks: &marks)
    }
    var moved = Set<UInt32>()
    for (local, offset, isOwn) in targets {
      if isOwn { marks.swallowedBy[local] = nil }
      marks.tree.move(local, to: (s + offset)..<(s + offset))
      moved.insert(local)
    }
    for mark in revive.inner where mark.local == nil && !mark.owner.isRangeEnd {
      restore(mark, at: s, in: id, serial: serial, marks: &marks)
    }
    // The pieces around it are cut, the outermost first: each tail's point
    // goes after the text, inside the tail of the piece around it.
    var outerTail: _PieceRef? = nil
    var adopted = 0
    for (k, link) in chain.enumerated().reversed() {
      var orphans: [UInt32] = []
      let tail = cut(
        link.piece, at: link.child, removingChild: k == 0, in: id, serial: serial, at: s + n,
        orphans: &orphans, marks: &marks)
      var points = orphans
      if let tail, let local = history.actions[tail.action]?.pieces[safe: tail.piece]?.mark?.local {
        points.insert(local, at: 0)
      }
      if let outerTail {
        // In order, after what the tail of the piece around took already.
        for local in points {
          guard let owner = marks.owners[local] else { continue }
          history.actions[outerTail.action]?.pieces[outerTail.piece].inner.insert(
            _InnerMark(range: 0..<0, owner: owner, local: local), at: adopted)
          adopted += 1
          marks.swallowedBy[local] = outerTail
        }
      }
      if let tail {
        outerTail = tail
        adopted = 0
      }
    }
    for local in after where !moved.contains(local) {
      guard marks.owners[local] != nil else { continue }
      marks.tree.move(local, to: (s + n)..<(s + n))
    }
  }

  /// Cuts piece `ref` in two where its inner point `child` is: the head
  /// keeps the text before and the point; the tail, a new piece of the
  /// same action, takes the rest, with a point added at `point` (or
  /// nothing is made if the rest is empty). The child's entry goes if
  /// `removingChild` (its piece went back).
  ///
  /// - Returns: the tail.
  mutating func cut(
    _ ref: _PieceRef, at child: UInt32, removingChild: Bool, in id: StorageID, serial: Int,
    at point: Int, orphans: inout [UInt32], marks: inout _HistoryMarks
  ) -> _PieceRef? {
    guard let piece = history.actions[ref.action]?.pieces[safe: ref.piece],
      let index = piece.inner.firstIndex(where: { $0.local == child })
    else { return nil }
    let o = piece.inner[index].range.lowerBound
    var head: [_InnerMark] = []
    var tail: [_InnerMark] = []
    for (i, mark) in piece.inner.enumerated() {
      if i == index {
        if !removingChild { head.append(mark) }
        continue
      }
      let r = mark.range
      if mark.local != nil {
        if i < index && r.lowerBound <= o {
          head.append(mark)
        } else {
          var shifted = mark
          shifted.range = max(0, r.lowerBound - o)..<max(0, r.lowerBound - o)
          tail.append(shifted)
        }
        continue
      }
      if r.upperBound <= o {
        head.append(mark)
      } else if r.lowerBound >= o {
        var shifted = mark
        shifted.range = (r.lowerBound - o)..<(r.upperBound - o)
        tail.append(shifted)
      } else {
        // (The group's end is the last unit: the tail's.)
        var left = mark
        left.range = r.lowerBound..<o
        left.holdsGroupEnd = false
        head.append(left)
        var right = mark
        right.range = 0..<(r.upperBound - o)
        tail.append(right)
      }
    }
    let text = piece.text
    history.actions[ref.action]?.pieces[ref.piece].text = text.slice(0..<o)
    history.actions[ref.action]?.pieces[ref.piece].inner = head
    guard o < text.length else {
      // No tail: its points are after the text, in the tail of the piece
      // around (the caller's `orphans`), or free.
      for mark in tail {
        if let local = mark.local, marks.swallowedBy[local] == ref {
          marks.swallowedBy[local] = nil
          orphans.append(local)
        }
      }
      return nil
    }
    let k = history.actions[ref.action]?.pieces.count ?? 0
    guard
      let local = marks.add(
        point..<point, owner: _MarkOwner(action: ref.action, role: .removed(k)))
    else { return nil }
    let tailRef = _PieceRef(action: ref.action, piece: k)
    history.actions[ref.action]?.pieces.append(
      _RemovedPiece(
        mark: _MarkRef(storage: id, serial: serial, local: local),
        text: text.slice(o..<text.length), inner: tail))
    charge(ref.action, _HistoryAction.markCost)
    for mark in tail {
      if let inner = mark.local, marks.swallowedBy[inner] == ref {
        marks.swallowedBy[inner] = tailRef
      }
    }
    return tailRef
  }

  /// Puts an inner range back at `base` plus its offset, for its owner if
  /// that is still kept.
  mutating func restore(
    _ mark: _InnerMark, at base: Int, in id: StorageID, serial: Int, marks: inout _HistoryMarks
  ) {
    let action = mark.owner.action
    guard history.actions.contains(action),
      let local = marks.add(
        (base + mark.range.lowerBound)..<(base + mark.range.upperBound), owner: mark.owner)
    else { return }
    let ref = _MarkRef(storage: id, serial: serial, local: local)
    switch mark.owner.role {
    case .added:
      history.actions[action]?.added.append(ref)
      charge(action, _HistoryAction.markCost)
      if mark.holdsGroupEnd, let party = history.actions[action]?.party,
        var open = history.open(party), open.action == action
      {
        open.last = ref
        history.setOpen(party, open)
      }
    case .removed(let k):
      if k < history.actions[action]?.pieces.count ?? 0 {
        history.actions[action]?.pieces[k].mark = ref
      }
    case .selectionStart:
      history.actions[action]?.selection?.start = ref
    case .selectionEnd:
      history.actions[action]?.selection?.end = ref
    case .rangeStart(let k):
      if k < history.actions[action]?.ranges.count ?? 0 {
        history.actions[action]?.ranges[k].start = ref
      }
    case .rangeEnd(let k):
      if k < history.actions[action]?.ranges.count ?? 0 {
        history.actions[action]?.ranges[k].end = ref
      }
    }
  }

  /// The removed text without the units of `cuts` (the recording
  /// action's own, relative to the text), with the inner marks' offsets
  /// in what is left.
  func withoutOwnUnits(
    _ removed: AttributedText, _ inner: [_InnerMark], cuts: [Range<Int>]
  ) -> (AttributedText, [_InnerMark]) {
    guard !cuts.isEmpty else { return (removed, inner) }
    let sorted = cuts.sorted { $0.lowerBound < $1.lowerBound }
    var merged: [Range<Int>] = []
    for cut in sorted {
      if let last = merged.last, cut.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, cut.upperBound)
      } else {
        merged.append(cut)
      }
    }
    var parts: [AttributedText] = []
    var at = 0
    for cut in merged {
      if cut.lowerBound > at { parts.append(removed.slice(at..<cut.lowerBound)) }
      at = cut.upperBound
    }
    if at < removed.length { parts.append(removed.slice(at..<removed.length)) }
    func map(_ o: Int) -> Int {
      var gone = 0
      for cut in merged {
        if o >= cut.upperBound {
          gone += cut.count
        } else if o > cut.lowerBound {
          gone += o - cut.lowerBound
        }
      }
      return o - gone
    }
    let marks = inner.map { mark -> _InnerMark in
      var mapped = mark
      mapped.range = map(mark.range.lowerBound)..<map(mark.range.upperBound)
      return mapped
    }.filter { $0.owner.isPoint || !$0.range.isEmpty }
    return (AttributedText.concatenated(parts), marks)
  }

  /// Adds `bytes` to what action `action` (and the histories) cost.
  mutating func charge(_ action: Int, _ bytes: Int) {
    history.actions[action]?.bytes += bytes
    history.bytes += bytes
  }

  // MARK: - Undo and redo

  /// Takes action `a` back: its pieces go back (the last first), its
  /// units still there go. What that does is recorded as a new action,
  /// its inverse, which is returned (`nil` if `a` is no longer kept).
  mutating func takeBack(_ a: Int, isRedo: Bool) -> (inverse: Int?, result: UndoResult) {
    flushAllHistory()
    // The action stays in the table while it is taken back: its marks
    // follow its own edits like any others', and go at the end.
    guard let action = history.actions[a] else { return (nil, UndoResult()) }
    let inverse = history.newAction(action.party)
    history.actions[inverse]?.session = action.session
    var events: [DocumentEvent] = []
    var tracked = TrackedChanges()
    var edits = 0
    // A tool's group of the live session: its intact replacements swap
    // their text as the session's own edit.
    if isLiveToolGroup(action) {
      let swapped = swapLinked(a, into: inverse)
      events += swapped.events
      tracked.merge(swapped.tracked)
      edits += swapped.edits
    }
    // Its pieces go back, the last first (a piece cut in two while another
    // goes back adds its tail at the end).
    var done = Set<Int>()
    var revivedAny = false
    while let (k, piece) = nextPiece(of: a, after: done) {
      done.insert(k)
      guard let ref = piece.mark, let at = markRange(ref)?.lowerBound else { continue }
      let n = piece.text.length
      if n == 0 {
        letGo(_PieceRef(action: a, piece: k), ref, in: ref.storage)
        continue
      }
      recording = .action(
        _Recording(action: inverse, mayPend: false, revive: (ref.local, piece.inner)))
      defer { recording = nil }
      guard
        let made = try? apply(
          ref.storage, at..<at, piece.text.text, insertedLength: n, info: .person,
          actor: .other, attributes: .exactly(piece.text.runs), reason: .undoRedo)
      else { continue }
      history.actions[a]?.pieces[k].mark = nil
      events += made.events
      tracked.merge(made.tracked)
      revivedAny = true
      edits += 1
    }
    // Its units still there go.
    for ref in history.actions[a]?.added ?? [] {
      guard let range = markRange(ref) else { continue }
      if range.isEmpty {
        removeMark(ref)
        continue
      }
      recording = .action(_Recording(action: inverse, mayPend: false))
      defer { recording = nil }
      guard
        let made = try? apply(
          ref.storage, range, "", insertedLength: 0, info: .person, actor: .other,
          reason: .undoRedo)
      else { continue }
      events += made.events
      tracked.merge(made.tracked)
      edits += 1
    }
    // The host's ranges its edits collapsed or removed come back where
    // their text is back.
    let restored = restoreRanges(of: a)
    // What is left of the action's marks goes; the selection's stay, for
    // its inverse.
    if let left = history.actions[a] {
      for ref in left.added { removeMark(ref) }
      removeRangeMarks(of: left)
      for (k, piece) in left.pieces.enumerated() {
        if let ref = piece.mark { letGo(_PieceRef(action: a, piece: k), ref, in: ref.storage) }
      }
      history.bytes -= history.actions.removeValue(forKey: a)?.bytes ?? 0
    }
    var selection: [SelectionRange]? = nil
    if let marks = action.selection {
      history.actions[inverse]?.selection = marks
      // (Only in the storage's life the marks were made in: a storage
      // removed and added again numbers its marks anew, and another's
      // mark may have the number now.)
      for ref in [marks.start] + (marks.end.map { [$0] } ?? [])
      where history.marks[ref.storage]?.serial == ref.serial {
        history.marks[ref.storage]?.owners[ref.local]?.action = inverse
      }
      charge(inverse, _HistoryAction.markCost * (marks.end == nil ? 1 : 2))
      if !isRedo, let start = markRange(marks.start)?.lowerBound {
        if let endRef = marks.end, let end = markRange(endRef)?.lowerBound {
          selection = [
            SelectionRange(
              from: TextPosition(marks.start.storage, start),
              to: TextPosition(endRef.storage, end))
          ]
        } else {
          selection = [SelectionRange(caret: TextPosition(marks.start.storage, start))]
        }
      }
    }
    // Else a caret where the last change is now: after the last text put
    // back, or where the last text went.
    if selection == nil, action.party == .person, edits > 0 {
      let inverseAction = history.actions[inverse]
      let place =
        revivedAny
        ? inverseAction?.added.last.flatMap { ref in
          markRange(ref).map { TextPosition(ref.storage, $0.upperBound) }
        }
        : inverseAction?.pieces.last?.mark.flatMap { ref in
          markRange(ref).map { TextPosition(ref.storage, $0.lowerBound) }
        }
      if let place { selection = [SelectionRange(caret: place)] }
    }
    if let selection, action.party == .person {
      try? select(
        selection.filter { range in
          (try? content.validated([range])) != nil
        })
    }
    var result = UndoResult(replacementCount: edits, events: events, tracked: tracked)
    result.selection = self.selection
    result.restored = restored
    if !restored.isEmpty { result.tracked.removed.removeAll { restored.contains($0) } }
    return (inverse, result)
  }

  /// The piece of action `a` with the highest index not in `done` that
  /// still waits at a point.
  func nextPiece(of a: Int, after done: Set<Int>) -> (Int, _RemovedPiece)? {
    guard let pieces = history.actions[a]?.pieces else { return nil }
    for k in pieces.indices.reversed() where !done.contains(k) && pieces[k].mark != nil {
      return (k, pieces[k])
    }
    return nil
  }

  /// Lets piece `piece` go (its action goes, or it has no text): its point
  /// leaves the tree, and the points in it stay where they are, free.
  mutating func letGo(
    _ piece: _PieceRef, _ ref: _MarkRef, in id: StorageID, flushing: Bool = true,
    deferred: Bool = false
  ) {
    guard history.marks[id]?.serial == ref.serial else { return }
    if flushing { flushHistory(id) }
    // The points in it are now in the piece around it, if there is one,
    // where it was.
    let parent = history.marks[id]?.swallowedBy[ref.local]
    var adopted: [_InnerMark] = []
    if let inner = history.actions[piece.action]?.pieces[safe: piece.piece]?.inner {
      for mark in inner {
        if let local = mark.local, history.marks[id]?.swallowedBy[local] == piece {
          history.marks[id]?.swallowedBy[local] = parent
          adopted.append(mark)
        }
      }
    }
    if let parent, let marks = history.actions[parent.action]?.pieces[safe: parent.piece]?.inner,
      let index = marks.firstIndex(where: { $0.local == ref.local })
    {
      let offset = marks[index].range
      let moved = adopted.map { mark -> _InnerMark in
        var adoptedMark = mark
        adoptedMark.range = offset
        return adoptedMark
      }
      history.actions[parent.action]?.pieces[parent.piece].inner.replaceSubrange(
        index...index, with: moved)
    }
    if deferred {
      history.marks[id]?.swallowedBy[ref.local] = nil
      history.staleMarks.append(ref)
    } else {
      history.marks[id]?.remove(ref.local)
    }
    history.actions[piece.action]?.pieces[piece.piece].mark = nil
  }

  /// Removes a mark from its tree (if it is still there); with
  /// `flushing`, the tree takes its storage's journal first. `deferred`
  /// (its action is being dropped): it leaves the tree with the next
  /// batch of ``_History/staleMarks``.
  mutating func removeMark(_ ref: _MarkRef, flushing: Bool = true, deferred: Bool = false) {
    guard history.marks[ref.storage]?.serial == ref.serial else { return }
    if deferred {
      history.staleMarks.append(ref)
      return
    }
    if flushing { flushHistory(ref.storage) }
    history.marks[ref.storage]?.remove(ref.local)
  }

  /// How many marks of dropped groups wait before the next group dropped
  /// takes them out of their trees together (a few in debug builds, so that
  /// tests and fuzzers sweep). While a tool streams, its edits take them
  /// first, from ``staleMarksByTool`` on.
  #if DEBUG
  static let staleMarksBatch = 3
  static let staleMarksByTool = 1
  #else
  static let staleMarksBatch = 4_096
  static let staleMarksByTool = 64
  #endif

  /// Takes the marks of dropped groups out of their trees, one storage's
  /// table lookup for a run of them.
  mutating func sweepStaleMarks() {
    guard !history.staleMarks.isEmpty else { return }
    var stale: [_MarkRef] = []
    swap(&stale, &history.staleMarks)
    var i = 0
    while i < stale.count {
      let id = stale[i].storage
      guard var marks = history.marks.removeValue(forKey: id) else {
        i += 1
        continue
      }
      while i < stale.count && stale[i].storage == id {
        if stale[i].serial == marks.serial { marks.remove(stale[i].local) }
        i += 1
      }
      history.marks[id] = marks
    }
    stale.removeAll(keepingCapacity: true)
    swap(&stale, &history.staleMarks)
  }

  /// Forgets action `a`: its marks and its texts.
  mutating func dropAction(_ a: Int, deferringMarks deferred: Bool = false) {
    guard let action = history.actions[a] else {
      dropLazy(a)
      return
    }
    // (Its marks leave the trees as they are: a mark's removal reads no
    // position, and the journal's hunks name no mark, so the journals wait
    // on. See docs/History.md, *The journal*.)
    for ref in action.added { removeMark(ref, flushing: false, deferred: deferred) }
    for (k, piece) in action.pieces.enumerated() {
      if let ref = piece.mark {
        letGo(
          _PieceRef(action: a, piece: k), ref, in: ref.storage, flushing: false,
          deferred: deferred)
      }
    }
    removeRangeMarks(of: action, deferred: deferred)
    history.bytes -= history.actions.removeValue(forKey: a)?.bytes ?? 0
    if history.previewAction == a { history.previewAction = nil }
    if let marks = action.selection {
      removeMark(marks.start, flushing: false, deferred: deferred)
      if let end = marks.end { removeMark(end, flushing: false, deferred: deferred) }
    }
    for (name, open) in history.originOpen where open.action == a {
      history.originOpen[name] = nil
    }
    if history.personOpen?.action == a {
      history.setPersonOpen(nil)
    }
  }

  /// Undoes the last group of a history: the person's main history (with
  /// the tools' groups and the accepted suggestions) or an origin's.
  mutating func undoGroup(origin: String?) throws(DocumentError) -> UndoResult {
    if let origin {
      guard let a = history.origins[origin]?.undo.popLast() else { throw .nothingToUndo }
      history.originOpen[origin] = nil
      let (inverse, result) = takeBack(a, isRedo: false)
      if let inverse { history.origins[origin]?.redo.append(inverse) }
      return result
    }
    return try undo()
  }

  mutating func redoGroup(origin: String?) throws(DocumentError) -> UndoResult {
    if let origin {
      guard let a = history.origins[origin]?.redo.popLast() else { throw .nothingToRedo }
      history.originOpen[origin] = nil
      let (inverse, result) = takeBack(a, isRedo: true)
      if let inverse { history.origins[origin]?.undo.append(inverse) }
      return result
    }
    return try redo()
  }

  /// Undoes the main history's last group: a group of the person's or a
  /// tool's (an action, taken back by the selective rule), or — with the
  /// recording off — the session's replacements, the last first, or an
  /// accepted suggestion. A replacement that cannot go back (see
  /// ``swapText(_:toOriginal:)``) stays as it is, and is not part of what a
  /// later redo does. The selection after it is the result's.
  ///
  /// - Throws: ``DocumentError/nothingToUndo`` when there is no group.
  mutating func undo() throws(DocumentError) -> UndoResult {
    var result = try undoLast()
    result.selection = selection
    return result
  }

  mutating func redo() throws(DocumentError) -> UndoResult {
    var result = try redoLast()
    result.selection = selection
    return result
  }

  mutating func undoLast() throws(DocumentError) -> UndoResult {
    if session?.streamingGroup != nil { closeStreamingGroup() }
    guard let group = _UndoStacks.pop(&history.main.undo) else { throw .nothingToUndo }
    closePersonGroup()
    switch group {
    case .replacements(let indices):
      let result = swapTexts(indices.reversed(), toOriginal: true)
      // Even when nothing went: each undo has its redo.
      history.main.redo.append(.replacements(result.swapped.reversed()))
      return result.result
    case .accepted(let index):
      history.main.redo.append(group)
      return swapAccepted(index, toOriginal: true)
    case .group, .groups:
      // A run comes off the stack one group at a time: this is one.
      guard let action = group.actions.last else { return UndoResult() }
      let (inverse, result) = takeBack(action, isRedo: false)
      if let inverse { history.main.redo.append(.group(inverse)) }
      return result
    }
  }

  /// Redoes the last undone group, the first first. A replacement that
  /// cannot go forth stays as it is, and is not part of what a later undo
  /// does.
  mutating func redoLast() throws(DocumentError) -> UndoResult {
    // A refused redo changes nothing: not even the open groups.
    guard !history.main.redo.isEmpty else { throw .nothingToRedo }
    if session?.streamingGroup != nil { closeStreamingGroup() }
    closePersonGroup()
    guard let group = _UndoStacks.pop(&history.main.redo) else { throw .nothingToRedo }
    switch group {
    case .replacements(let indices):
      let result = swapTexts(indices, toOriginal: false)
      history.main.undo.append(.replacements(result.swapped))
      return result.result
    case .accepted(let index):
      history.main.undo.append(group)
      return swapAccepted(index, toOriginal: false)
    case .group, .groups:
      guard let action = group.actions.last else { return UndoResult() }
      let (inverse, result) = takeBack(action, isRedo: true)
      if let inverse { history.main.pushGroup(inverse) }
      return result
    }
  }

  /// Ends a party's open group: its next edit starts a new one.
  mutating func closeGroup(origin: String?) {
    if let origin {
      history.originOpen[origin] = nil
    } else {
      history.setPersonOpen(nil)
    }
  }

  /// Sets the history's options (``Document/historyOptions``). Turning the
  /// recording off or on closes a streaming phase under way first, which
  /// goes on in a new group: a phase's group is an action of the history
  /// or the session's replacements, never some of each.
  mutating func setHistoryOptions(_ options: HistoryOptions) {
    if options.isEnabled != history.isEnabled, session?.streamingGroup != nil {
      closeStreamingGroup()
    }
    history.options = options
    history.isEnabled = options.isEnabled
    enforceHistoryLimit()
  }

  // MARK: - Memory

  /// Drops the oldest groups while the histories keep more than the
  /// options allow.
  mutating func enforceHistoryLimit() {
    // (The limits read in place: the options hold the clock, a closure.)
    func over() -> Bool {
      (history.options.maxGroups.map { history.groupCount > $0 } ?? false)
        || (history.options.maxBytes.map { history.bytes > $0 } ?? false)
    }
    while over() {
      guard dropOldest() else { return }
    }
  }

  /// Drops the oldest group at the bottom of an undo stack (or, with
  /// none, of a redo stack). Returns false if there is none.
  mutating func dropOldest() -> Bool {
    var best: (action: Int, origin: String?, redo: Bool)? = nil
    func consider(_ action: Int, _ origin: String?, _ redo: Bool) {
      guard let current = best else {
        best = (action, origin, redo)
        return
      }
      // (By the order the groups entered, which their numbers give but
      // for an accepted preview's: `order`.)
      if (redo ? 1 : 0, history.order(action))
        < (current.redo ? 1 : 0, history.order(current.action))
      {
        best = (action, origin, redo)
      }
    }
    for redo in [false, true] {
      if let first = redo ? _UndoStacks.firstGroup(history.main.redo) : history.main.firstUndoGroup
      {
        consider(first, nil, redo)
      }
      for (name, stacks) in history.origins {
        if let first = (redo ? stacks.redo : stacks.undo).first { consider(first, name, redo) }
      }
    }
    guard let best else { return false }
    // The open group is never dropped under the person's feet: it goes
    // only when it is all there is.
    if let name = best.origin {
      if best.redo {
        history.origins[name]?.redo.removeFirst()
      } else {
        history.origins[name]?.undo.removeFirst()
      }
    } else if best.redo {
      _UndoStacks.remove(best.action, from: &history.main.redo)
    } else {
      history.main.removeUndoGroup(best.action)
    }
    dropAction(best.action, deferringMarks: true)
    if !history.enteredLate.isEmpty { history.enteredLate[best.action] = nil }
    if history.staleMarks.count >= Self.staleMarksBatch { sweepStaleMarks() }
    return true
  }

  /// Forgets storage `id`'s marks (it was removed); the groups keep what
  /// they had elsewhere.
  mutating func forgetHistory(of id: StorageID) {
    forgetJournal(of: id)
    history.marks[id] = nil
    if history.personOpen?.storage == id {
      history.setPersonOpen(nil)
    }
    for (name, open) in history.originOpen where open.storage == id {
      history.originOpen[name] = nil
    }
  }
}

extension Array {
  subscript(safe i: Int) -> Element? { i >= 0 && i < count ? self[i] : nil }
}

extension Document {
  /// The history marks of storage `id`, one line each (for debugging
  /// tests).
  func _historyDump(_ id: StorageID) -> String {
    withState { state in
      state.flushAllHistory()
      guard let marks = state.history.marks[id] else { return "(none)" }
      var lines: [String] = []
      if let p = state.history.pending, p.storage == id {
        lines.append("pending \(p.action) at \(p.start) +\(p.inserted) -\(p.removedLength)")
      }
      marks.tree.forEachRange { item, range in
        let owner = marks.owners[item.local]
        var line = "#\(item.local) \(range) \(owner.map { "\($0.action) \($0.role)" } ?? "?")"
        if let by = marks.swallowedBy[item.local] { line += " in \(by.action).\(by.piece)" }
        if let owner, case .removed(let k) = owner.role,
          let piece = state.history.actions[owner.action]?.pieces[safe: k]
        {
          line += " text \(piece.text.text.unicodeScalars.map { String($0.value, radix: 16) })"
          line +=
            " inner \(piece.inner.map { "\($0.local.map { "#\($0)" } ?? "\($0.owner.action)")@\($0.range)" })"
        }
        lines.append(line)
      }
      return lines.joined(separator: "\n")
    }
  }
}
