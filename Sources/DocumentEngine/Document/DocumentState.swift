import SummaryTrees
import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a ``Document`` holds, as one value: the storages and their
/// index (``DocumentContent``), the selection, the visible ranges and the
/// Writing Tools session. The class only locks and calls it; every rule
/// lives here and in the types it holds.
///
/// Every change goes through one function, ``apply(_:_:_:record:actor:)``:
/// the storage edit, its change record, and everything that follows an edit
/// (the live contexts and their events, the session's replacements and
/// marks, the selection and the visible ranges). A method that throws
/// changes nothing.
struct DocumentState: Sendable {
  var content = DocumentContent()
  var selection: [SelectionRange] = []
  var visible: [StorageID: Range<Int>] = [:]
  var session: _SessionState? = nil
  /// How many sessions were started: the next one's tool party.
  var sessionCount = 0
  var keepsAllHistory = false
  /// The pins the caller made, by storage and version, with their counts.
  var callerPins: [StorageID: [StorageVersion: Int]] = [:]

  init(keepsAllHistory: Bool) {
    self.keepsAllHistory = keepsAllHistory
  }
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
  ///
  /// - Parameter swapped: a replacement whose range the caller updates
  ///   after the edit (undo, redo, revert), not checked.
  func _invariantCheck(_ id: StorageID, swapped: Int? = nil) {
    #if ENGINE_INTERNAL_CHECKS
    content._invariantCheck(id)
    guard let storage = content.storageIfAny(id) else { return }
    let length = storage.length
    func inside(_ r: Range<Int>) -> Bool { r.lowerBound >= 0 && r.upperBound <= length }
    if let session {
      for context in session.contexts where context.storage == id {
        precondition(inside(context.range), "a live context outside its storage")
        precondition(
          context.history[0].version >= storage.changes.oldestVersion,
          "a context's history dropped")
      }
      var tracked = 0
      for block in session.tracked.blocks[id] ?? [] {
        for i in block.members where i != swapped {
          let replacement = session.replacements[i]
          precondition(replacement.storage == id && replacement.intact, "a stray replacement")
          let r = replacement.range
          let now = (r.lowerBound + block.pending)..<(r.upperBound + block.pending)
          precondition(inside(now), "a replacement outside its storage")
          precondition(
            now.lowerBound >= block.low + block.pending
              && now.upperBound <= block.high + block.pending, "a replacement outside its block")
        }
        tracked += block.members.count
      }
      let intact = session.replacements.indices.filter {
        session.replacements[$0].storage == id && session.replacements[$0].intact
      }
      precondition(
        tracked == intact.count || (swapped != nil && tracked + 1 >= intact.count),
        "an intact replacement not tracked")
      for mark in session.marks where mark.storage == id {
        precondition(inside(mark.range), "a mark outside its storage")
      }
    }
    for range in selection {
      for end in [range.start, range.end] where end.storage == id {
        precondition(end.offset >= 0 && end.offset <= length, "a selection outside its storage")
      }
    }
    if let shown = visible[id] { precondition(inside(shown), "a visible range outside") }
    #endif
  }
}

// MARK: - Storages, selection and visible ranges

extension DocumentState {
  mutating func remove(_ id: StorageID) throws(DocumentError) {
    try content.remove(id)
    callerPins[id] = nil
    selection.removeAll { $0.start.storage == id || $0.end.storage == id }
    visible[id] = nil
    session?.forget(id)
  }

  mutating func select(_ selection: [SelectionRange]) throws(DocumentError) {
    self.selection = try content.validated(selection)
  }

  mutating func setVisible(_ visible: [StorageID: Range<Int>]) throws(DocumentError) {
    for (id, range) in visible { _ = try content.checked(range, in: id) }
    self.visible = visible
  }
}

// MARK: - Edits

extension DocumentState {
  /// An edit of the person, or of an origin on an older version (see
  /// ``Document/edit(_:range:with:origin:basis:)``).
  mutating func edit(
    _ id: StorageID, range: Range<Int>, with text: String, origin: String?,
    basis: StorageVersion?
  ) throws(DocumentError) -> EditResult {
    let n = text.utf16.count
    if origin == nil && basis == nil {
      return try editAsPerson(id, range, text)
    }
    let current = try content.storage(id).version
    if origin == nil && basis == current {
      return try editAsPerson(id, range, text)
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
    if range.isEmpty && n == 0 {
      // A no-op as it was made: checked, and it makes no version.
      return EditResult(version: current, range: start..<start, events: [])
    }
    let (after, events) = try apply(
      id, transformed, text: text, original: original, basis: version, actor: .other)
    return EditResult(version: after, range: start..<(start + n), events: events)
  }

  /// The person's edit of `range` (UTF-16) in the current version.
  mutating func editAsPerson(
    _ id: StorageID, _ range: Range<Int>, _ text: String
  ) throws(DocumentError) -> EditResult {
    let n = text.utf16.count
    if range.isEmpty && n == 0 {
      // A no-op: its offset is still checked, and it makes no version.
      return EditResult(
        version: try content.checked(range, in: id).version, range: range, events: [])
    }
    let record = ChangeRecord(range: range, insertedLength: n, party: .person)
    let (version, events) = try apply(id, range, text, record: record, actor: .other)
    return EditResult(
      version: version, range: range.lowerBound..<(range.lowerBound + n), events: events)
  }

  /// The person's edit with the range in `unit`.
  mutating func edit(
    _ id: StorageID, range: Range<Int>, in unit: TextUnit, with text: String
  ) throws(DocumentError) -> EditResult {
    // No copy of the storage may live on into the edit: it would share the
    // rope's nodes and make the edit copy them.
    let (utf16, _) = try content.utf16Range(of: range, in: unit, of: id)
    return try editAsPerson(id, utf16, text)
  }

  /// A batch of edits, all or nothing (see ``Document/apply(_:)``).
  mutating func apply(_ edits: [DocumentEdit]) throws(DocumentError) -> [EditResult] {
    // On a copy: an edit that fails leaves `self` as it was. The copy shares
    // every storage, so the first edit of each copies only the path it
    // changes.
    var working = self
    var results: [EditResult] = []
    results.reserveCapacity(edits.count)
    for (i, edit) in edits.enumerated() {
      do {
        results.append(try working.edit(edit))
      } catch {
        throw .batchRefused(index: i, error)
      }
    }
    self = working
    return results
  }

  /// One edit as a ``DocumentEdit`` describes it.
  mutating func edit(_ edit: DocumentEdit) throws(DocumentError) -> EditResult {
    if edit.unit == .utf16 {
      return try self.edit(
        edit.storage, range: edit.range, with: edit.text, origin: edit.origin, basis: edit.basis)
    }
    return try self.edit(edit.storage, range: edit.range, in: edit.unit, with: edit.text)
  }

}

// MARK: - The one path of every edit

extension DocumentState {
  /// Applies one storage edit and everything that follows from it: the
  /// change record, the live contexts (with their events), the session's
  /// replacements and marks, the selection and visible ranges.
  ///
  /// - Throws: ``DocumentError``; nothing changes.
  mutating func apply(
    _ id: StorageID, _ range: Range<Int>, _ text: String, record: ChangeRecord, actor: _Actor
  ) throws(DocumentError) -> (version: StorageVersion, events: [DocumentEvent]) {
    let version = try content.edit(
      id, range: range, with: text, record: record,
      keepingHistory: keepsAllHistory || session != nil)
    let edge = _EditStep(range, insertedLength: record.insertedLength)
    var events: [DocumentEvent] = []
    if var live = session.take() {
      // Moved out (not copied), so that the session's arrays are changed in
      // place (a context's history grows with every edit inside it).
      // The context whose text the session's own edit changes, and the
      // replacement swapped back or forth (undo, redo, revert).
      var owner: UUID? = nil
      var swapped: Int? = nil
      switch actor {
      case .other: break
      case .tool(let context): owner = context
      case .session(let index):
        owner = live.replacements[index].context
        swapped = index
      }
      if owner == nil {
        live.followReplacements(throughOthersEdit: edge, in: id)
      } else {
        live.settleReplacements()
        live.followReplacements(through: edge, in: id, swapped: swapped)
        live.regroupReplacements(in: id)
      }
      for i in live.contexts.indices where live.contexts[i].storage == id {
        let old = live.contexts[i].range
        if owner == live.contexts[i].id
          && (swapped == nil || (old.lowerBound <= edge.s && edge.e <= old.upperBound))
        {
          // Its own text changed: the context grows or shrinks with it.
          live.contexts[i].range = old.lowerBound..<(old.upperBound + edge.delta)
          if swapped != nil {
            // Undo and redo are edits the tool hears about.
            live.contexts[i].advance(at: version)
            events.append(
              .textUpdated(
                context: live.contexts[i].id,
                range: (edge.s - old.lowerBound)..<(edge.e - old.lowerBound), text: text,
                contextVersion: live.contexts[i].contextVersion))
          }
          continue
        }
        let new = edge.range(old)
        live.contexts[i].range = new
        if edge.changesText(in: old) {
          let lo = max(edge.s, old.lowerBound)
          let hi = max(lo, min(edge.e, old.upperBound))
          let inside = edge.n > 0 && new.lowerBound <= edge.s && edge.s + edge.n <= new.upperBound
          live.contexts[i].advance(at: version)
          events.append(
            .textUpdated(
              context: live.contexts[i].id, range: (lo - old.lowerBound)..<(hi - old.lowerBound),
              text: inside ? text : "", contextVersion: live.contexts[i].contextVersion))
        } else if edge.e <= old.lowerBound && !(edge.e == edge.s && edge.n == 0) {
          events.append(.reflowed(context: live.contexts[i].id, storageRange: new))
        }
      }
      for i in live.marks.indices where live.marks[i].storage == id {
        live.marks[i].range = edge.range(live.marks[i].range)
      }
      session = consume live
    }
    // In place: the selection is rarely empty, and a keystroke should not
    // allocate a new one.
    for i in selection.indices {
      let selected = selection[i]
      var mapped = selected
      if selected.isCaret {
        if selected.start.storage == id {
          let p = edge.start(selected.start.offset)
          mapped = SelectionRange(caret: TextPosition(id, p))
        }
        selection[i] = mapped
        continue
      }
      if selected.start.storage == id { mapped.start.offset = edge.start(selected.start.offset) }
      if selected.end.storage == id { mapped.end.offset = edge.end(selected.end.offset) }
      if mapped.start.storage == mapped.end.storage && mapped.end.offset < mapped.start.offset {
        mapped.end.offset = mapped.start.offset
      }
      selection[i] = mapped
    }
    if !visible.isEmpty, let shown = visible[id] { visible[id] = edge.range(shown) }
    if case .session(let index) = actor {
      _invariantCheck(id, swapped: index)
    } else {
      _invariantCheck(id)
    }
    return (version, events)
  }

  /// Applies a transformed operation, its pieces from the last to the first;
  /// the first piece carries `text`, the first applied record `original`.
  mutating func apply(
    _ id: StorageID, _ operation: _Operation, text: String, original: _Operation?,
    basis: StorageVersion, actor: _Actor
  ) throws(DocumentError) -> (version: StorageVersion, events: [DocumentEvent]) {
    var events: [DocumentEvent] = []
    var version: StorageVersion = 0
    let count = operation.pieces.count
    for (i, piece) in operation.pieces.enumerated().reversed() {
      let record = ChangeRecord(
        range: piece.range, insertedLength: i == 0 ? text.utf16.count : 0,
        party: operation.party, original: i == count - 1 ? original : nil, basis: basis,
        isContinuation: i != count - 1)
      let result = try apply(id, piece.range, i == 0 ? text : "", record: record, actor: actor)
      version = result.version
      events += result.events
    }
    return (version, events)
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

  mutating func map(
    _ id: StorageID, _ offset: Int, from version: StorageVersion, bias: Bias
  ) throws(DocumentError) -> MappedOffset {
    let (mapped, length) = try withLog(id, version) {
      (log) throws(ChangeLogError) -> (MappedOffset?, Int) in
      try log.check(version)
      let length = log.length(at: version)
      guard offset >= 0 && offset <= length else { return (nil, length) }
      return (try log.map(offset, from: version, bias: bias), length)
    }
    guard let mapped else {
      throw .invalidRange(id, .offsetOutOfBounds(offset: offset, unit: .utf16, count: length))
    }
    return mapped
  }

  mutating func touched(
    _ id: StorageID, _ range: Range<Int>, since version: StorageVersion
  ) throws(DocumentError) -> Bool {
    let (touched, length) = try withLog(id, version) {
      (log) throws(ChangeLogError) -> (Bool?, Int) in
      try log.check(version)
      let length = log.length(at: version)
      guard range.lowerBound >= 0 && range.upperBound <= length else { return (nil, length) }
      return (try log.touches(range, since: version), length)
    }
    guard let touched else {
      throw .invalidRange(
        id, .offsetOutOfBounds(offset: range.upperBound, unit: .utf16, count: length))
    }
    return touched
  }

  mutating func pin(_ id: StorageID, version: StorageVersion) throws(DocumentError) {
    try withLog(id, version) { (log) throws(ChangeLogError) in try log.pin(version) }
  }

  mutating func unpin(_ id: StorageID, version: StorageVersion) {
    let keepAll = keepsAllHistory
    try? content.withChanges(id) { (log) throws(DocumentError) in
      log.unpin(version)
      if !keepAll { log.trim() }
    }
  }

  /// A pin of the document's caller (``Document/pin(_:version:)``).
  mutating func pinForCaller(_ id: StorageID, version: StorageVersion) throws(DocumentError) {
    try pin(id, version: version)
    callerPins[id, default: [:]][version, default: 0] += 1
  }

  /// Undoes one pin of the caller's; a pin the caller did not make (a
  /// session's) is left alone, so that no caller drops the history a
  /// session needs.
  mutating func unpinForCaller(_ id: StorageID, version: StorageVersion) {
    guard let count = callerPins[id]?[version], count > 0 else { return }
    callerPins[id]?[version] = count > 1 ? count - 1 : nil
    unpin(id, version: version)
  }
}
