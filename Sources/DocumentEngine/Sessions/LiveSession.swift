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
  /// resolves the same way whatever the version. Packed: it grows on every
  /// keystroke in the context, by a few bytes (see `_PackedRows`).
  var versions: _ContextVersions

  /// The context's version: one for each entry of ``versions`` after the
  /// first.
  var contextVersion: ContextVersion { ContextVersion(versions.count - 1) }

  /// Moves the context to its next version, reached at storage `version`
  /// with its text at `range`.
  mutating func advance(at version: StorageVersion, range: Range<Int>) {
    versions.append((version, range.lowerBound, range.count))
  }

  /// ``advance(at:range:)`` for each keystroke a typing run held back:
  /// from storage version `base` and `range` on, each keystroke's version
  /// one more, its text `lengths[i]` units longer.
  mutating func advanceTyped(from base: StorageVersion, range: Range<Int>, lengths: [Int]) {
    var version = base
    var length = range.count
    for n in lengths {
      version = version + 1
      length += n
      versions.append((version, range.lowerBound, length))
    }
  }
}

/// A context's versions: for each, the storage version at which the
/// context reached it and where its text was then, as packed rows.
struct _ContextVersions: Sendable {
  private var rows = _PackedRows()

  /// One version, the context as it was cut.
  init(version: StorageVersion, start: Int, length: Int) {
    append((version, start, length))
  }

  /// How many versions there are.
  var count: Int { rows.count }

  mutating func append(_ entry: (version: StorageVersion, start: Int, length: Int)) {
    rows.append(_PackedRows.Row(entry.version.rawValue, entry.start, entry.length, 0))
  }

  /// Context version `i`'s entry.
  subscript(i: Int) -> (version: StorageVersion, start: Int, length: Int) {
    let row = rows[i]
    return (StorageVersion(rawValue: row.a), row.b, row.c)
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

/// A replacement the session made, followed through later edits (its text
/// is a tracked range of its storage, number ``local``) so that undo and
/// revert can put the original text back.
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
  /// Its tracked range's number in the storage (while ``intact``).
  let local: UInt32
  /// The text its range holds while it is intact: the tool's, or the
  /// original while it is undone.
  var inPlace: String
  /// The text that is not in place now, with its attributes: the
  /// original while the tool's text is in place, the tool's while the
  /// original is back. A swap puts it in and keeps, in its place, the text
  /// it removes.
  var aside: AttributedText
  /// False once an edit of someone else touched its text, or its storage
  /// was removed: it is then left alone (and no longer tracked).
  var intact = true
  /// True once its storage was removed: a storage added again under the
  /// same id numbers its tracked ranges afresh, so its number names
  /// nothing of this replacement's.
  var forgotten = false
  /// True while its original text is back (undone or reverted).
  var undone = false
  /// The ends of other replacements that its last swap (or its making)
  /// collapsed, by ``_LiveSession/endKey(_:isUpper:)``, with their offsets
  /// from the start of the text that swap replaced.
  var collapsed: [Int: Int] = [:]
  /// The later replacements that changed part of its text: it can go back
  /// only while each of them is undone.
  var coveredBy: [Int] = []
  /// The history's action that holds its link (``_SwapLink``) now: the
  /// tool's group that made it, or the undo or redo that swapped it last
  /// (with the history recording).
  var held: Int? = nil
  /// Its storage's ``_LiveSession/othersEdits`` when it was made: while it
  /// has not changed, nobody but the session edited that storage since,
  /// and swapping its text is what the history's rule does.
  var othersAtMaking = 0
}

/// Who makes an edit, for what it does to the session's own records.
enum _Actor: Equatable {
  /// The person or an origin: events for every context, and it breaks the
  /// replacements it touches.
  case other
  /// The session's tool, replacing in `context`: one piece of its
  /// replacement, which replaces `replaced` (with its attributes). The
  /// context hears nothing; the piece is recorded as a replacement of its
  /// own (so that undo can take back a replacement that a concurrent
  /// insertion split), and ``DocumentState`` closes the pieces into one
  /// undo group once the last is in (``_LiveSession/close(_:made:at:range:)``).
  case tool(context: UUID, replaced: AttributedText)
  /// The session swapping the text of its replacement `index`: back to the
  /// original (undo, revert) or forth to the tool's (redo); `removed` is
  /// the text the swap takes out, with its attributes. Its context hears of
  /// it like of any edit.
  case swap(Int, toOriginal: Bool, removed: AttributedText)

  /// Whether the session makes the edit.
  var isOwn: Bool {
    if case .other = self { return false }
    return true
  }
}

/// The live part of a Writing Tools session: its contexts, the replacements
/// its tool made (for undo, redo and revert), its undo groups, state and
/// marks. Where their texts are is each a tracked range of its storage,
/// which every edit moves; what the session keeps of its own is here: the
/// contexts' events and versions (``follow(_:at:text:by:moves:reason:)``), the
/// replacements' records (``placeThroughOwnEdit(_:by:isNew:before:)``) and
/// the undo groups (``close(_:made:at:range:)``).
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
  /// The one storage that holds every context, if there is one.
  var onlyStorage: (id: StorageID, indices: [Int])? = nil
  /// Each context's tracked range number, by index (read on every
  /// keystroke without copying the context).
  var contextLocals: [UInt32] = []
  var replacements: [_Replacement] = []
  /// The intact replacements by storage and tracked range number: what an
  /// edit's report of tracked ranges names.
  var replacementsByLocal: [StorageID: [UInt32: Int]] = [:]
  /// How many edits of someone other than the session (the person's,
  /// a peer's, an undo's by the history's rule) met each storage while it
  /// had replacements: a replacement made before one of them in its
  /// storage is undone by the history's rule (where others' text is next
  /// to it, the swap and the rule can put the text back in different
  /// orders). By storage: an edit of another storage is next to none of
  /// its text, and counted here it had the rule take back a replacement
  /// over an earlier one's text, which then could never be reverted.
  var othersEdits: [StorageID: Int] = [:]
  /// The replacements of the streaming phase under way.
  var streamingGroup: [Int]? = nil
  /// The history's action of the streaming phase under way, once it made
  /// a replacement (with the history recording).
  var streamingAction: Int? = nil
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
        versions: _ContextVersions(
          version: context.version, start: context.storageRange.lowerBound,
          length: context.storageRange.count))
    }
    indexContexts()
  }

  /// Builds ``contextsByStorage`` again.
  mutating func indexContexts() {
    contextLocals = contexts.map(\.local)
    contextsByStorage = [:]
    for (i, context) in contexts.enumerated() {
      contextsByStorage[context.storage, default: []].append(i)
    }
    if contextsByStorage.count == 1, let (id, indices) = contextsByStorage.first {
      onlyStorage = (id, indices)
    } else {
      onlyStorage = nil
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
      replacements[i].forgotten = true
    }
    replacementsByLocal[id] = nil
  }

  /// Moves the session to another state; leaving `.interactiveStreaming`
  /// closes the streaming phase's undo group, entering it opens one.
  ///
  /// - Returns: the group closed, for the document's history.
  /// - Throws: ``DocumentError/invalidStateTransition(from:to:)``.
  mutating func move(to next: WritingToolsState) throws(DocumentError) -> [Int]? {
    guard state.canMove(to: next) else {
      throw .invalidStateTransition(from: state, to: next)
    }
    var closed: [Int]? = nil
    if state == .interactiveStreaming && next != .interactiveStreaming {
      closed = closeStreamingGroup()
    }
    if next == .interactiveStreaming && streamingGroup == nil { streamingGroup = [] }
    state = next
    return closed
  }

  /// Closes the streaming phase's undo group.
  ///
  /// - Returns: the group, if it made any replacement.
  mutating func closeStreamingGroup() -> [Int]? {
    defer { streamingGroup = nil }
    guard let group = streamingGroup, !group.isEmpty else { return nil }
    return group
  }

  /// The reason the tool's replacements carry in the session's state.
  var replacementReason: TextReplacementReason {
    state == .interactiveResting || state == .interactiveStreaming ? .interactive : .noninteractive
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
  /// text, as did the replacements'); this tells each context that hears
  /// of it. The replacements' records are the caller's to update first
  /// (``DocumentState/followReplacements(_:in:text:by:before:)``).
  ///
  /// The events of the contexts go in `events`, in order.
  ///
  /// - Returns: where the context whose text the session's own edit
  ///   changed must be instead of where the edit's rule put it (it grows
  ///   with the tool's text even at its ends).
  /// - Complexity: O(c) for the storage's c contexts.
  mutating func follow(
    _ edit: _EditStep, at version: StorageVersion, text: String, by actor: _Actor,
    moves: [_ContextMove], reason: ChangeReason, into events: inout [DocumentEvent]
  ) -> (local: UInt32, range: Range<Int>)? {
    // The context whose text the session's own edit changes.
    var owner: UUID? = nil
    var isSwap = false
    switch actor {
    case .other: break
    case .tool(let context, _): owner = context
    case .swap(let index, _, _):
      owner = replacements[index].context
      isSwap = true
    }
    let ownerRange = followContexts(
      edit, at: version, text: text, moves: moves, owner: owner, ownerHears: isSwap,
      reason: reason, into: &events)
    if let (i, range) = ownerRange, moves.first(where: { $0.index == i })?.new != range {
      return (contexts[i].local, range)
    }
    return nil
  }

  /// Closes the tool's replacement in `context` whose pieces made the
  /// replacements `made`: the context reaches its next version (its text
  /// at `range`, at storage `version`) and the pieces become one undo
  /// group (or join the streaming phase's).
  ///
  /// - Returns: the group, for the document's history, unless it joined
  ///   the streaming phase's.
  mutating func close(
    _ context: UUID, made: [Int], at version: StorageVersion, range: Range<Int>
  ) -> [Int]? {
    if let i = contexts.firstIndex(where: { $0.id == context }) {
      contexts[i].advance(at: version, range: range)
    }
    if streamingGroup != nil {
      streamingGroup? += made
      return nil
    }
    return made
  }

  /// Tells each context of the edited storage whose text the edit changed
  /// (`textUpdated`) or that it only moved (`reflowed`), from where the
  /// edit took it (`moves`). The `owner`'s own text changed by the
  /// session's edit: it grows or shrinks with it, and hears of it only if
  /// `ownerHears` (undo and redo are edits the tool hears about; its own
  /// replacement is not).
  ///
  /// - Returns: the owner's index and range if it was one of `moves` (the
  ///   events go in `events`).
  mutating func followContexts(
    _ edit: _EditStep, at version: StorageVersion, text: String, moves: [_ContextMove],
    owner: UUID?, ownerHears: Bool, reason: ChangeReason, into events: inout [DocumentEvent]
  ) -> (index: Int, range: Range<Int>)? {
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
              contextVersion: contexts[i].contextVersion, reason: reason))
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
            text: inside ? text : "", contextVersion: contexts[i].contextVersion,
            reason: reason))
      } else if edit.e <= old.lowerBound && !edit.changesNothing {
        events.append(.reflowed(context: contexts[i].id, storageRange: new))
      }
    }
    return ownerRange
  }

  /// Records a new replacement of the tool's (its text tracked as number
  /// `local`); returns its index.
  mutating func record(
    in id: StorageID, context: UUID, local: UInt32, replaced: AttributedText, text: String
  ) -> Int {
    var made = _Replacement(
      storage: id, context: context, local: local, inPlace: text, aside: replaced)
    made.othersAtMaking = othersEdits[id, default: 0]
    replacements.append(made)
    replacementsByLocal[id, default: [:]][local] = replacements.count - 1
    return replacements.count - 1
  }

  /// The intact replacement of storage `id` whose text is tracked range
  /// `local`.
  func replacement(in id: StorageID, local: UInt32) -> Int? {
    replacementsByLocal[id]?[local]
  }

  /// Stops following replacement `index`: someone else's edit touched its
  /// text.
  mutating func breakReplacement(_ index: Int) {
    replacements[index].intact = false
    replacementsByLocal[replacements[index].storage]?[replacements[index].local] = nil
  }

  /// Where the session's own edit (the making of replacement `own`, `isNew`,
  /// or a swap of its text; `nil` for a piece that changed nothing) puts
  /// the other intact replacements that it meets, given where each was
  /// before it (`before`): ends inside the edited range collapse onto it
  /// and are remembered in `own`'s ``_Replacement/collapsed``; those that
  /// the previous swap of the same replacement collapsed go back where
  /// they were. A new replacement covers those whose text it changed.
  ///
  /// - Returns: each moved replacement's index and range (where the edit's
  ///   own rule would not put it, the caller moves it).
  mutating func placeThroughOwnEdit(
    _ edit: _EditStep, by own: Int?, isNew: Bool, before: [(index: Int, range: Range<Int>)]
  ) -> [(index: Int, range: Range<Int>)] {
    let restoring = own.map { replacements[$0].collapsed } ?? [:]
    var collapsed: [Int: Int] = [:]
    var placed: [(index: Int, range: Range<Int>)] = []
    for (i, old) in before where i != own && replacements[i].intact {
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
      placed.append((i, lower..<max(lower, upper)))
    }
    if let own { replacements[own].collapsed = collapsed }
    return placed
  }

  /// The edit that swaps replacement `index`'s text back to the original
  /// (`toOriginal`) or forth to the tool's, if the session's records let it
  /// go: it is intact, not already there, and (going back) every later
  /// replacement that changed part of its text is undone. The caller finds
  /// its range (``_Replacement/local``), checks that it holds
  /// ``_Replacement/inPlace``, and puts in ``_Replacement/aside``.
  func canSwap(_ index: Int, toOriginal: Bool) -> Bool {
    let replacement = replacements[index]
    return replacement.intact && replacement.undone != toOriginal
      && (!toOriginal || replacement.coveredBy.allSatisfy({ replacements[$0].undone }))
  }
}
