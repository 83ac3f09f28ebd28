#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DocumentState {
  /// A tool replacement (see ``Document/replace(context:range:with:basis:policy:)``).
  mutating func replace(
    _ contextID: UUID, _ range: Range<Int>, _ text: String, basis: ContextVersion?,
    policy: ReplacementPolicy
  ) throws(DocumentError) -> ReplacementResult {
    let n = text.utf16.count
    // Everything read from the storage and the session is read before the
    // edit, in this scope, so that no copy of them is alive when the edit
    // changes them (one would make it copy their histories).
    let id: StorageID
    let prepared:
      (
        operation: _Operation, original: _Operation, basis: StorageVersion, oldTexts: [String]
      )
    do {
      let live = try liveContext(contextID)
      id = live.storage
      prepared = try prepareReplacement(live, range, n, basis: basis, policy: policy)
    }
    let (operation, original, basisVersion, oldTexts) = prepared
    let first = operation.pieces[0].range
    if range.isEmpty && n == 0 {
      // A no-op as the tool made it: checked, and it makes no version.
      let contextVersion = try liveContext(contextID).contextVersion
      return ReplacementResult(
        storage: id, storageRange: first.lowerBound..<first.lowerBound,
        contextVersion: contextVersion, events: [])
    }
    // The pieces from the last to the first (so that each one's range holds
    // when it is applied); the first carries the text. Each piece is a
    // replacement of its own, with the text it replaced, so that undo and
    // revert can take back a replacement that a concurrent insertion split.
    var applied: [DocumentEvent] = []
    var version: StorageVersion = 0
    var made: [Int] = []
    let count = operation.pieces.count
    for (i, piece) in operation.pieces.enumerated().reversed() {
      let new = i == 0 ? text : ""
      let record = ChangeRecord(
        range: piece.range, insertedLength: new.utf16.count, party: operation.party,
        original: i == count - 1 ? original : nil, basis: basisVersion,
        isContinuation: i != count - 1)
      let result = try apply(id, piece.range, new, record: record, actor: .tool(contextID))
      version = result.version
      applied += result.events
      // A piece that a concurrent deletion ate has nothing to take back.
      if piece.range.isEmpty && new.isEmpty { continue }
      guard var live = self.session.take() else { throw .noSession }
      let start = piece.range.lowerBound
      live.replacements.append(
        _Replacement(
          storage: id, context: contextID, range: start..<(start + new.utf16.count),
          oldText: oldTexts[i], newText: new, intact: true, collapsed: live.pendingCollapsed))
      live.pendingCollapsed = [:]
      made.append(live.replacements.count - 1)
      self.session = live
    }
    // Moved out, so that its arrays are changed in place.
    guard var live2 = self.session.take() else { throw .noSession }
    let landed = first.lowerBound..<(first.lowerBound + n)
    if let i = live2.contexts.firstIndex(where: { $0.id == contextID }) {
      live2.contexts[i].advance(at: version)
    }
    if live2.streamingGroup != nil {
      live2.streamingGroup? += made
    } else {
      live2.undoStack.append(made)
    }
    live2.redoStack.removeAll()
    live2.regroupReplacements(in: id)
    self.session = live2
    let contextVersion = live2.contexts.first { $0.id == contextID }?.contextVersion ?? 0
    // The tool's own context hears nothing of its replacement (`apply`
    // sends no event to the context that made an edit), only the others.
    return ReplacementResult(
      storage: id, storageRange: landed, contextVersion: contextVersion, events: applied)
  }

  /// Where a tool replacement lands, checked: the operation, as the tool
  /// made it, the storage version it was made on, and the text each of its
  /// pieces replaces. An unseen edit that touched it is a conflict under
  /// `.refuse`.
  func prepareReplacement(
    _ live: _LiveContext, _ range: Range<Int>, _ n: Int, basis: ContextVersion?,
    policy: ReplacementPolicy
  ) throws(DocumentError) -> (
    operation: _Operation, original: _Operation, basis: StorageVersion, oldTexts: [String]
  ) {
    guard let session else { throw .noSession }
    let contextID = live.id
    let id = live.storage
    let storage = try content.storage(id)
    guard range.lowerBound >= 0 else { throw .outsideContext(range, length: live.range.count) }
    var operation: _Operation
    var original: _Operation
    var touched = false
    var basisVersion = storage.version
    if basis == nil || basis == live.contextVersion {
      operation = _Operation(try storageRange(of: range, in: live), length: n, party: session.party)
      // As the tool made it: on the storage version at which the context
      // reached its current version (later edits only moved the context).
      let then = live.history[live.contextVersion.rawValue]
      basisVersion = then.version
      original = _Operation(
        (then.start + range.lowerBound)..<(then.start + range.upperBound), length: n,
        party: session.party)
    } else {
      guard let basis, basis >= 0 && basis < live.contextVersion else {
        throw .staleContextVersion(basis ?? 0)
      }
      let then = live.history[basis.rawValue]
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
        piece.range.lowerBound >= live.range.lowerBound
          && piece.range.upperBound <= live.range.upperBound
      else {
        let start = live.range.lowerBound
        throw .outsideContext(
          (piece.range.lowerBound - start)..<(piece.range.upperBound - start),
          length: live.range.count)
      }
      let r = piece.range
      let probe = r.isEmpty ? max(0, r.lowerBound - 1)..<min(storage.length, r.lowerBound + 1) : r
      let runs = storage.exclusions.runs(in: probe).filter(\.value)
      let hits =
        r.isEmpty
        ? runs.contains { $0.range.lowerBound < r.lowerBound && r.lowerBound < $0.range.upperBound }
        : !runs.isEmpty
      if hits { throw .excluded(r) }
    }
    try checkBounds(operation, in: id)
    // The text each piece replaces (every range holds now: the pieces are
    // applied from the last).
    let oldTexts = operation.pieces.map { (try? String(storage.text.slice($0.range))) ?? "" }
    return (operation, original, basisVersion, oldTexts)
  }

  /// Puts a replacement's original text back (undo, revert), or its new
  /// text (redo), if it can go: it is intact, every later replacement that
  /// changed part of its text is undone (for undo), and its range holds
  /// exactly the text it should. Otherwise nothing changes: the text is
  /// never swapped where it would scramble.
  ///
  /// - Returns: the events, or nil if it could not go.
  mutating func swapText(_ index: Int, toOriginal: Bool) -> [DocumentEvent]? {
    session?.settleReplacements()
    guard let session else { return nil }
    let replacement = session.replacements[index]
    guard replacement.intact, replacement.undone != toOriginal,
      !toOriginal || replacement.coveredBy.allSatisfy({ session.replacements[$0].undone }),
      let storage = content.storageIfAny(replacement.storage),
      let now = try? storage.text.slice(replacement.range),
      String(now) == (toOriginal ? replacement.newText : replacement.oldText)
    else { return nil }
    let text = toOriginal ? replacement.oldText : replacement.newText
    let record = ChangeRecord(
      range: replacement.range, insertedLength: text.utf16.count, party: .person)
    // The range holds the expected text, so it is valid: this cannot throw.
    guard
      let (_, events) = try? apply(
        replacement.storage, replacement.range, text, record: record, actor: .session(index))
    else { return nil }
    let start = replacement.range.lowerBound
    self.session?.replacements[index].range = start..<(start + text.utf16.count)
    self.session?.replacements[index].undone = toOriginal
    self.session?.regroupReplacements(in: replacement.storage)
    return events
  }

  /// Undoes the last group of replacements, the last first, or redoes the
  /// last undone group, the first first. A replacement that cannot go back
  /// (see ``swapText(_:toOriginal:)``) stays as it is, and is not part of
  /// what a later redo (or undo) does.
  mutating func undo(redo: Bool) throws(DocumentError) -> [DocumentEvent] {
    guard session != nil else { throw .noSession }
    session?.closeGroup()
    if session?.state == .interactiveStreaming { session?.streamingGroup = [] }
    // Popped in place: no copy of the stack is held while it changes.
    guard let group = redo ? session?.redoStack.popLast() : session?.undoStack.popLast() else {
      return []
    }
    var events: [DocumentEvent] = []
    // Only what went back (or forth) can be redone (or undone) later.
    var swapped: [Int] = []
    for index in (redo ? group : group.reversed()) {
      guard let more = swapText(index, toOriginal: !redo) else { continue }
      events += more
      swapped.append(index)
    }
    if !redo { swapped.reverse() }
    // Even when nothing went: each undo has its redo, and the other way round.
    if redo { session?.undoStack.append(swapped) } else { session?.redoStack.append(swapped) }
    return events
  }

  /// Reverts every replacement of the session that can go back, the last
  /// first.
  mutating func revert() throws(DocumentError) -> RevertResult {
    guard let session else { throw .noSession }
    var events: [DocumentEvent] = []
    var count = 0
    for index in session.replacements.indices.reversed() {
      guard let swapped = swapText(index, toOriginal: true) else { continue }
      events += swapped
      count += 1
    }
    self.session?.redoStack.removeAll()
    return RevertResult(reverted: count, events: events)
  }
}
