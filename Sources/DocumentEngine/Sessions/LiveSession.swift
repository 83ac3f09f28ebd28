import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A context of the current session. Where its text is now is a tracked
/// range of its storage (number ``local``): the edit moves it there, with
/// every other position.
struct _TrackedContext: Sendable {
  let id: UUID
  let storage: StorageID
  /// Its tracked range's number in the storage.
  let local: UInt32
  /// For each context version: the storage version at which the context
  /// reached it, and where its text was then. The first entry is where the
  /// handed-out ``WritingContext`` was cut, kept here too so that a basis
  /// resolves with one array lookup whatever the version. Segmented: it
  /// grows on every keystroke in the context (see `_SegmentedArray`).
  var history: _SegmentedArray<(version: StorageVersion, start: Int, length: Int)>

  /// The context's version: one for each entry of its history after the
  /// first.
  var contextVersion: ContextVersion { ContextVersion(history.count - 1) }

  /// Moves the context to its next version, reached at storage `version`
  /// with its text at `range`.
  mutating func advance(at version: StorageVersion, range: Range<Int>) {
    history.append((version, range.lowerBound, range.count))
  }
}

/// Where an edit took a context of its storage: from `old` to `new`.
struct _ContextMove: Sendable {
  var index: Int
  var old: Range<Int>
  var new: Range<Int>
}

/// A mark of the session: its text is a tracked range of its storage.
struct _MarkRecord: Sendable {
  let id: Int
  let storage: StorageID
  let local: UInt32
  let kind: MarkKind
}

/// A replacement the session made, followed through later edits so that undo
/// and revert can put the original text back.
///
/// Undo and redo go back exactly through the session's own edits: when a
/// replacement (or its undo or redo) swaps the text of its range, the ends
/// of the other replacements that fall in that range collapse onto it, and
/// their places inside it are kept in ``collapsed``; the next swap of the
/// same replacement puts them back there. So undoing the session's edits in
/// reverse order gives back every range, and every text, exactly.
struct _Replacement: Sendable {
  let storage: StorageID
  /// The context it was made in.
  let context: UUID
  /// Where its text is now.
  var range: Range<Int>
  let oldText: String
  let newText: String
  /// The attributes of the text that is not in place now: the original's
  /// while the tool's text is in place, the tool's while the original is
  /// back. The next swap puts them back, and keeps those of the text it
  /// removes.
  var swappedRuns: [AttributeRun]
  /// False once an edit of someone else touched its text, or its storage
  /// was removed: it is then left alone (and no longer followed).
  var intact = true
  /// True while its original text is back (undone or reverted).
  var undone = false
  /// The ends of other replacements that its last swap (or its making)
  /// collapsed, by ``_LiveSession/endKey(_:isUpper:)``, with their offsets
  /// from the start of the text that swap replaced.
  var collapsed: [Int: Int] = [:]
  /// The later replacements that changed part of its text: it can go back
  /// only while each of them is undone.
  var coveredBy: [Int] = []
}

/// Who makes an edit, for what it does to the session's own records.
enum _Actor: Equatable {
  /// The person or an origin: events for every context, and it breaks the
  /// replacements it touches.
  case other
  /// The session's tool, replacing in `context`: one piece of its
  /// replacement, which replaces `replaced` (with its attributes). The
  /// context hears nothing; the
  /// piece is recorded as a replacement of its own (so that undo can take
  /// back a replacement that a concurrent insertion split), and the last
  /// piece applied `closes` the replacement: the context reaches its next
  /// version and the pieces become one undo group.
  case tool(context: UUID, replaced: _RemovedText, closes: Bool)
  /// The session swapping the text of its replacement `index`: back to the
  /// original (undo, revert) or forth to the tool's (redo); `removed` are
  /// the attributes of the text the swap takes out. Its context hears of
  /// it like of any edit.
  case swap(Int, toOriginal: Bool, removed: [AttributeRun])
}

/// The text an edit of the session's removes, with its attributes: what
/// undo puts back.
struct _RemovedText: Hashable, Sendable {
  var text: String
  var runs: [AttributeRun]
}

/// The session's intact replacements by storage, in blocks of up to
/// ``blockSize`` in the order of their starts, each with the span its
/// replacements cover and a shift pending for all of them: so that a
/// keystroke looks only at the replacements near it (see
/// ``_LiveSession/followReplacements(throughOthersEdit:in:moves:)``) instead of
/// walking every replacement the session ever made.
///
/// A replacement's text is at its `range` plus its block's `pending`.
struct _TrackedReplacements: Sendable {
  static let blockSize = 32

  struct Block: Sendable {
    /// Indices into the session's replacements.
    var members: [Int] = []
    /// The lowest start and highest end of the members' ranges, without
    /// `pending`.
    var low = Int.max
    var high = Int.min
    /// A shift that every member's range still has to take.
    var pending = 0

    mutating func add(_ index: Int, _ range: Range<Int>) {
      members.append(index)
      low = min(low, range.lowerBound - pending)
      high = max(high, range.upperBound - pending)
    }
  }

  var blocks: [StorageID: [Block]] = [:]
  /// For each storage, how many of the session's replacements its blocks
  /// have taken in (those made later are new to it).
  var scanned: [StorageID: Int] = [:]
}

/// The live part of a Writing Tools session: its contexts followed through
/// every edit, the replacements its tool made (for undo, redo and revert),
/// its undo groups, state and marks. Every rule of what an edit does to a
/// session lives here, in ``follow(_:in:at:text:by:moves:)``; ``DocumentState``
/// makes the storage edit and hands it over.
struct _LiveSession: Sendable {
  /// What the host was handed when the session started: the contexts as
  /// they were cut, with their texts. They never change; ``contexts``
  /// follows them through later edits.
  let handout: WritingSession
  /// The party of the session's tool, for transformation.
  let party: EditParty
  var state: WritingToolsState = .inactive
  var contexts: [_TrackedContext]
  /// The indices of ``contexts`` by storage, so that an edit finds those
  /// of its storage without a walk over all.
  var contextsByStorage: [StorageID: [Int]] = [:]
  var replacements: [_Replacement] = []
  /// The intact replacements in blocks, for keystrokes.
  var tracked = _TrackedReplacements()
  var undoStack: [[Int]] = []
  var redoStack: [[Int]] = []
  /// The replacements of the streaming phase under way.
  var streamingGroup: [Int]? = nil
  /// The replacements recorded for the pieces of the tool's replacement
  /// being applied; its last piece closes them into an undo group, so this
  /// is empty between two calls of the document.
  var piecesUnderWay: [Int] = []
  var marks: [_MarkRecord] = []
  var nextMark = 1

  /// A session of `party` over the contexts of `handout`, each followed by
  /// the tracked range numbered as `locals` says.
  init(_ handout: WritingSession, party: EditParty, locals: [UInt32]) {
    self.handout = handout
    self.party = party
    contexts = zip(handout.contexts, locals).map { context, local in
      _TrackedContext(
        id: context.id, storage: context.storage, local: local,
        history: _SegmentedArray(
          CollectionOfOne(
            (
              version: context.version, start: context.storageRange.lowerBound,
              length: context.storageRange.count
            ))))
    }
    indexContexts()
  }

  /// Builds ``contextsByStorage`` again.
  mutating func indexContexts() {
    contextsByStorage = [:]
    for (i, context) in contexts.enumerated() {
      contextsByStorage[context.storage, default: []].append(i)
    }
  }

  /// The key of an end of replacement `index` in a ``_Replacement/collapsed``
  /// table.
  static func endKey(_ index: Int, isUpper: Bool) -> Int { 2 * index + (isUpper ? 1 : 0) }

  /// A context of the session.
  ///
  /// - Throws: ``DocumentError/unknownContext(_:)``.
  func context(_ id: UUID) throws(DocumentError) -> _TrackedContext {
    guard let context = contexts.first(where: { $0.id == id }) else {
      throw .unknownContext(id)
    }
    return context
  }

  /// Forgets everything about a storage that was removed: its contexts,
  /// marks and replacements belong to that life of the storage, not to one
  /// added later under the same id.
  mutating func forget(_ id: StorageID) {
    contexts.removeAll { $0.storage == id }
    indexContexts()
    marks.removeAll { $0.storage == id }
    for i in replacements.indices where replacements[i].storage == id {
      replacements[i].intact = false
    }
    tracked.blocks[id] = nil
    tracked.scanned[id] = replacements.count
  }

  /// Moves the session to another state; leaving `.interactiveStreaming`
  /// closes the streaming phase's undo group, entering it opens one.
  ///
  /// - Throws: ``DocumentError/invalidStateTransition(from:to:)``.
  mutating func move(to next: WritingToolsState) throws(DocumentError) {
    guard state.canMove(to: next) else {
      throw .invalidStateTransition(from: state, to: next)
    }
    if state == .interactiveStreaming && next != .interactiveStreaming { closeStreamingGroup() }
    if next == .interactiveStreaming && streamingGroup == nil { streamingGroup = [] }
    state = next
  }

  /// Closes the streaming phase's undo group.
  mutating func closeStreamingGroup() {
    if let group = streamingGroup, !group.isEmpty { undoStack.append(group) }
    streamingGroup = nil
  }

  /// The last group of `stack` (``undoStack`` or ``redoStack``), taken
  /// off it; a streaming phase under way closes its group first, and goes
  /// on in a new one.
  mutating func popGroup(_ stack: WritableKeyPath<Self, [[Int]]>) -> [Int]? {
    closeStreamingGroup()
    if state == .interactiveStreaming { streamingGroup = [] }
    return self[keyPath: stack].popLast()
  }

  /// Adds marks of `kind` in storage `storage`, followed by the tracked
  /// ranges numbered `locals`.
  mutating func addMarks(
    _ locals: [UInt32], in storage: StorageID, as kind: MarkKind
  ) -> [_MarkRecord] {
    let made = locals.enumerated().map {
      _MarkRecord(id: nextMark + $0.offset, storage: storage, local: $0.element, kind: kind)
    }
    nextMark += made.count
    marks += made
    return made
  }
}

// MARK: - Following an edit

extension _LiveSession {
  /// Follows one storage edit made by `actor`: `edit` (in storage `id`,
  /// which it took to `version`, inserting `text`) moved the contexts of
  /// that storage as `moves` says (their tracked ranges moved with the
  /// text); this tells each context that hears of it, moves the
  /// replacements, and keeps the undo groups. A tool's piece is recorded
  /// as a replacement, and its last piece closes the replacement (see
  /// ``_Actor/tool(context:replaced:closes:)``); a swap records where its
  /// replacement's text is now.
  ///
  /// - Returns: the events of the contexts, in order, and where the
  ///   context whose text the session's own edit changed must be instead
  ///   of where the edit's rule put it (it grows with the tool's text even
  ///   at its ends).
  /// - Complexity: for the person's or an origin's edit, O(c + R/B + B·t)
  ///   for the storage's c contexts and the replacements' blocks (see
  ///   ``followReplacements(throughOthersEdit:in:moves:)``); for the
  ///   session's own edits, O(R) for its R replacements.
  mutating func follow(
    _ edit: _EditStep, in id: StorageID, at version: StorageVersion, text: String,
    by actor: _Actor, moves: [_ContextMove]
  ) -> (events: [DocumentEvent], ownerFix: (local: UInt32, range: Range<Int>)?) {
    // The context whose text the session's own edit changes.
    var owner: UUID? = nil
    var isSwap = false
    switch actor {
    case .other:
      followReplacements(throughOthersEdit: edit, in: id, moves: moves)
    case .tool(let context, let replaced, _):
      owner = context
      settleReplacements()
      var made: Int? = nil
      // A piece that a concurrent deletion ate has nothing to take back.
      if !edit.changesNothing {
        made = replacements.count
        replacements.append(
          _Replacement(
            storage: id, context: context, range: edit.s..<(edit.s + edit.n),
            oldText: replaced.text, newText: text, swappedRuns: replaced.runs))
        piecesUnderWay.append(replacements.count - 1)
      }
      followReplacements(throughOwnEdit: edit, in: id, by: made, isNew: true)
      regroupReplacements(in: id)
    case .swap(let index, let toOriginal, let removed):
      owner = replacements[index].context
      replacements[index].swappedRuns = removed
      isSwap = true
      settleReplacements()
      followReplacements(throughOwnEdit: edit, in: id, by: index, isNew: false)
      replacements[index].range = edit.s..<(edit.s + edit.n)
      replacements[index].undone = toOriginal
      regroupReplacements(in: id)
    }
    let (events, ownerRange) = followContexts(
      edit, at: version, text: text, moves: moves, owner: owner, ownerHears: isSwap)
    var ownerFix: (local: UInt32, range: Range<Int>)? = nil
    if let (i, range) = ownerRange, moves.first(where: { $0.index == i })?.new != range {
      ownerFix = (contexts[i].local, range)
    }
    if case .tool(let context, _, true) = actor {
      if let (i, range) = ownerRange, contexts[i].id == context {
        contexts[i].advance(at: version, range: range)
      }
      if streamingGroup != nil {
        streamingGroup? += piecesUnderWay
      } else {
        undoStack.append(piecesUnderWay)
      }
      piecesUnderWay.removeAll()
      redoStack.removeAll()
    }
    return (events, ownerFix)
  }

  /// Tells each context of the edited storage whose text the edit changed
  /// (`textUpdated`) or that it only moved (`reflowed`), from where the
  /// edit took it (`moves`). The `owner`'s own text changed by the
  /// session's edit: it grows or shrinks with it, and hears of it only if
  /// `ownerHears` (undo and redo are edits the tool hears about; its own
  /// replacement is not).
  ///
  /// - Returns: the events, and the owner's index and range if it was one
  ///   of `moves`.
  mutating func followContexts(
    _ edit: _EditStep, at version: StorageVersion, text: String, moves: [_ContextMove],
    owner: UUID?, ownerHears: Bool
  ) -> (events: [DocumentEvent], owner: (index: Int, range: Range<Int>)?) {
    var events: [DocumentEvent] = []
    var ownerRange: (index: Int, range: Range<Int>)? = nil
    for move in moves {
      let i = move.index
      let old = move.old
      if owner == contexts[i].id
        && (!ownerHears || (old.lowerBound <= edit.s && edit.e <= old.upperBound))
      {
        let grown = old.lowerBound..<(old.upperBound + edit.delta)
        ownerRange = (i, grown)
        if ownerHears {
          contexts[i].advance(at: version, range: grown)
          events.append(
            .textUpdated(
              context: contexts[i].id,
              range: (edit.s - old.lowerBound)..<(edit.e - old.lowerBound), text: text,
              contextVersion: contexts[i].contextVersion))
        }
        continue
      }
      let new = move.new
      if edit.changesText(in: old) {
        let lo = max(edit.s, old.lowerBound)
        let hi = max(lo, min(edit.e, old.upperBound))
        let inside = edit.n > 0 && new.lowerBound <= edit.s && edit.s + edit.n <= new.upperBound
        contexts[i].advance(at: version, range: new)
        events.append(
          .textUpdated(
            context: contexts[i].id, range: (lo - old.lowerBound)..<(hi - old.lowerBound),
            text: inside ? text : "", contextVersion: contexts[i].contextVersion))
      } else if edit.e <= old.lowerBound && !edit.changesNothing {
        events.append(.reflowed(context: contexts[i].id, storageRange: new))
      }
    }
    return (events, ownerRange)
  }

  /// Follows the intact replacements of storage `id` through one of the
  /// session's own edits: the making of replacement `own` (`isNew`; `nil`
  /// for a piece that changed nothing) or a swap of its text. Ends inside
  /// the edited range collapse onto it and are remembered in `own`'s
  /// ``_Replacement/collapsed``; those that the previous swap of the same
  /// replacement collapsed go back where they were. A new replacement
  /// covers those whose text it changed.
  ///
  /// - Complexity: O(R) for the session's R replacements.
  mutating func followReplacements(
    throughOwnEdit edit: _EditStep, in id: StorageID, by own: Int?, isNew: Bool
  ) {
    let restoring = own.map { replacements[$0].collapsed } ?? [:]
    var collapsed: [Int: Int] = [:]
    for i in replacements.indices
    where replacements[i].storage == id && replacements[i].intact && i != own {
      let old = replacements[i].range
      if isNew, let own, edit.changesText(in: old) { replacements[i].coveredBy.append(own) }
      var lower = edit.start(old.lowerBound)
      var upper = edit.end(old.upperBound)
      for (end, isUpper) in [(old.lowerBound, false), (old.upperBound, true)]
      where edit.s <= end && end <= edit.e {
        let key = Self.endKey(i, isUpper: isUpper)
        collapsed[key] = end - edit.s
        if let offset = restoring[key] {
          let back = edit.s + min(offset, edit.n)
          if isUpper { upper = back } else { lower = back }
        }
      }
      replacements[i].range = lower..<max(lower, upper)
    }
    if let own { replacements[own].collapsed = collapsed }
  }

  /// The edit that swaps replacement `index`'s text back to the original
  /// (`toOriginal`) or forth to the tool's, if the session's records let it
  /// go: it is intact, not already there, and (going back) every later
  /// replacement that changed part of its text is undone. The caller still
  /// checks that its range holds `expected`; the text goes in with `runs`.
  mutating func swapEdit(
    of index: Int, toOriginal: Bool
  ) -> (
    storage: StorageID, range: Range<Int>, expected: String, text: String, runs: [AttributeRun]
  )? {
    settleReplacements()
    let replacement = replacements[index]
    guard replacement.intact, replacement.undone != toOriginal,
      !toOriginal || replacement.coveredBy.allSatisfy({ replacements[$0].undone })
    else { return nil }
    return toOriginal
      ? (
        replacement.storage, replacement.range, replacement.newText, replacement.oldText,
        replacement.swappedRuns
      )
      : (
        replacement.storage, replacement.range, replacement.oldText, replacement.newText,
        replacement.swappedRuns
      )
  }
}

// MARK: - Replacements through edits

extension _LiveSession {
  /// Follows the intact replacements of storage `id` through an edit of the
  /// person or an origin: a replacement whose text it touches is theirs now
  /// (no longer intact).
  ///
  /// Where the edit inserts at the point of a replacement that left no text
  /// (a deletion), its text goes back before the insertion if the point ends
  /// its context or another replacement (whose text it was part of), else
  /// after it, as at the start of any range.
  ///
  /// Only the blocks of ``tracked`` whose span meets the edit are looked at
  /// one replacement at a time; a block entirely after it only adds the
  /// edit's change of length to its pending shift, and one entirely before
  /// it is passed over.
  ///
  /// - Complexity: O(R/B + B·t) for R intact replacements in blocks of B,
  ///   t of the blocks meeting the edit.
  mutating func followReplacements(
    throughOthersEdit edge: _EditStep, in id: StorageID, moves: [_ContextMove]
  ) {
    // No replacement to follow (the usual keystroke): no lookup either.
    guard !tracked.blocks.isEmpty, let slot = tracked.blocks.index(forKey: id) else { return }
    // Moved out and back where it lies, so that it is changed in place.
    var blocks: [_TrackedReplacements.Block] = []
    swap(&blocks, &tracked.blocks.values[slot])
    defer { swap(&blocks, &tracked.blocks.values[slot]) }
    let delta = edge.delta
    var ends: Set<Int>? = nil
    for b in blocks.indices where !blocks[b].members.isEmpty {
      let pending = blocks[b].pending
      if blocks[b].high + pending < edge.s { continue }
      if blocks[b].low + pending > edge.e {
        blocks[b].pending += delta
        continue
      }
      // The block meets the edit: each of its replacements in turn; those
      // the edit touched leave the block (kept ones are moved down in place).
      blocks[b].pending = 0
      var kept = 0
      var low = Int.max
      var high = Int.min
      for k in blocks[b].members.indices {
        let i = blocks[b].members[k]
        var old = replacements[i].range
        if pending != 0 { old = (old.lowerBound + pending)..<(old.upperBound + pending) }
        replacements[i].range = old
        if edge.changesText(in: old) {
          replacements[i].intact = false
          continue
        }
        var new = edge.range(old)
        if old.isEmpty && edge.s == edge.e && old.lowerBound == edge.s {
          if ends == nil { ends = rangeEnds(in: id, blocks: blocks, moves: moves) }
          if ends?.contains(edge.s) == true { new = old }
        }
        replacements[i].range = new
        blocks[b].members[kept] = i
        kept += 1
        low = min(low, new.lowerBound)
        high = max(high, new.upperBound)
      }
      blocks[b].members.removeLast(blocks[b].members.count - kept)
      blocks[b].low = low
      blocks[b].high = high
    }
  }

  /// The ends of storage `id`'s contexts (where they were before the edit
  /// that `moves` tells of) and of its intact replacements that have text,
  /// where they are now (pending shifts included).
  func rangeEnds(
    in id: StorageID, blocks: [_TrackedReplacements.Block], moves: [_ContextMove]
  ) -> Set<Int> {
    var found = Set(moves.map(\.old.upperBound))
    for block in blocks {
      for i in block.members where replacements[i].intact && !replacements[i].range.isEmpty {
        found.insert(replacements[i].range.upperBound + block.pending)
      }
    }
    return found
  }

  /// Writes every pending shift of ``tracked`` into the replacements'
  /// ranges, so that each intact replacement's `range` is where its text is
  /// now. Everything but a keystroke's ``followReplacements(throughOthersEdit:in:moves:)``
  /// reads ranges only after this.
  ///
  /// - Complexity: O(R) when a shift is pending, O(s) otherwise.
  mutating func settleReplacements() {
    for id in Array(tracked.blocks.keys) {
      guard var blocks = tracked.blocks.removeValue(forKey: id) else { continue }
      for b in blocks.indices where blocks[b].pending != 0 {
        let pending = blocks[b].pending
        for i in blocks[b].members {
          let r = replacements[i].range
          replacements[i].range = (r.lowerBound + pending)..<(r.upperBound + pending)
        }
        blocks[b].low += pending
        blocks[b].high += pending
        blocks[b].pending = 0
      }
      tracked.blocks[id] = blocks
    }
  }

  /// Groups the intact replacements of storage `id` into blocks again, in
  /// the order of their starts, after the session's own edit changed their
  /// ranges (``settleReplacements()`` first): so that each block spans one
  /// stretch of the text, and a keystroke meets one or two of them.
  ///
  /// The order is the blocks' order before (the session's own edits keep
  /// it, but for the ends an edit collapsed), plus the replacements made
  /// since, put in place by insertion.
  ///
  /// - Complexity: O(R + d) for d displacements (O(R) plus the new
  ///   replacements' moves, usually).
  mutating func regroupReplacements(in id: StorageID) {
    var order: [Int] = []
    for block in tracked.blocks[id] ?? [] {
      for i in block.members where replacements[i].intact { order.append(i) }
    }
    for i in (tracked.scanned[id] ?? 0)..<replacements.count
    where replacements[i].storage == id && replacements[i].intact {
      order.append(i)
    }
    tracked.scanned[id] = replacements.count
    // Insertion sort by start: nearly sorted already.
    if order.count > 1 {
      for k in 1..<order.count {
        let i = order[k]
        let start = replacements[i].range.lowerBound
        var j = k
        while j > 0 && replacements[order[j - 1]].range.lowerBound > start {
          order[j] = order[j - 1]
          j -= 1
        }
        order[j] = i
      }
    }
    var blocks: [_TrackedReplacements.Block] = []
    blocks.reserveCapacity(
      (order.count + _TrackedReplacements.blockSize - 1) / _TrackedReplacements.blockSize)
    var block = _TrackedReplacements.Block()
    for i in order {
      if block.members.count == _TrackedReplacements.blockSize {
        blocks.append(block)
        block = _TrackedReplacements.Block()
      }
      block.add(i, replacements[i].range)
    }
    if !block.members.isEmpty { blocks.append(block) }
    tracked.blocks[id] = blocks.isEmpty ? nil : blocks
  }
}
