// FuzzDocument: `DocumentEngine.Document` driven by operation sequences
// with arbitrary, hostile and stale arguments, against a model of every
// storage (its UTF-16 text, version and exclusions) and of the session.
//
// Oracles, after every call:
//  1. nothing traps (libFuzzer catches traps and ASan reports);
//  2. a call that throws changes nothing: every storage's text and
//     version, the order, the selection, visible ranges, session, state
//     and marks are as before;
//  3. every storage's text is the model's: plain person edits and
//     replacements without basis are predicted exactly (and must not be
//     refused when valid); transformed ones are applied where the change
//     records say they landed, with the caller's text at the reported
//     range; a change record that changes nothing (empty range, no text)
//     must not exist; versions move by one per record;
//  4. in a storage that only the tool edited since the session started,
//     revert() — or undoing every group — gives back exactly its text at
//     the start; redo gives back exactly the text before the undo; a
//     storage removed and added again is not the session's (untouched);
//  5. the person's last keystroke, if no later edit touched it, is still
//     in place after revert();
//  6. each live context's text follows its events (textUpdated applied in
//     order; the replaced context from its own replacement), and its
//     contextVersion counts its changes;
//  7. exclusions follow edits (inside one excluded run new text is
//     excluded, elsewhere not); attributes follow edits by
//     NSMutableAttributedString's rule, or take those the edit gives (a
//     replacement's filtered by the session's result options), and undo,
//     redo and revert give them back with the text (oracle 4, where the
//     person set no attribute); `map` follows ProseMirror's sequential rule
//     through the change records, `touched` agrees with what the records
//     did, the index, selection, visible ranges and marks stay valid;
//  8. the host's tracked ranges (Tracked.swift) are the model's, each
//     mapped on its own through every storage edit by the contract's rule
//     (the person's edits as made, every other change through its change
//     records, one record at a time), and found by id; every result's
//     `tracked` names exactly the ranges the model says the change touched
//     and removed; queries are a filter of the model in position order;
//     ids are never given twice, and those of ranges gone (untracked,
//     removed by an edit, of a removed storage) are unknown; a snapshot
//     taken before a call sees the ranges as they were;
//  9. suggestions (Review.swift) are the model's: each mapped as a host
//     range with `onTouch: .remove` through every storage edit (the one
//     the engine edits for a preview, accept or reject is put over its new
//     text instead), removed when an edit touches it (the result's
//     `tracked.removed` names it); `suggestions(in:)`, `suggestion(_:)` and
//     `suggestions(inContext:)` answer the model (ranges, order, the
//     candidate previewed); a preview puts the candidate in (the edit rule's
//     attributes, or exactly its runs) and takes any other preview back
//     first, text and attributes exactly (where that would touch its text,
//     the other preview stays as text and its suggestion is gone, named in
//     `tracked.removed`); a reject takes its preview back
//     exactly and makes its kind and text ignored (a later `suggest` of the
//     same is refused); an accept replaces the original text and is one
//     group of the document's one undo history (with the session's groups
//     and the person's, in order): `undo()` gives the original back
//     exactly, `redo()` the accepted text, unless an edit touched it since
//     (then nothing, count 0); with nothing to undo (redo), `undo()`
//     (`redo()`) throws `nothingToUndo` (`nothingToRedo`); a refused
//     request (unknown or gone ids, a candidate out of range, ignored text,
//     bad ranges or runs) throws the typed error and changes nothing;
// 10. the person's and the origins' undo histories (History.swift), in
//     inputs that record them: every storage's text is the history model's
//     (every unit ever put in kept in order; a group's undo removes the
//     units it put in that are still there and revives those it removed,
//     with the attributes they had; redo takes the undo back by the same
//     rule; a preview's or a swap's units are nobody's), with the
//     person's groups on the main history between the tool's groups (one
//     a replacement, one a streaming phase, recorded like the person's;
//     they stay after the session; while it lives and nobody else edited
//     since, an intact replacement swaps as one edit, its text revived, and
//     `revert()` goes through the same links) and the accepted suggestions
//     (an undo after the person typed takes the typing back first) and
//     each origin's on its own; the groups are the engine's (one place,
//     one kind, one storage; a batch is one; a tool's group, an accept, an
//     undo or redo, `closeGroup` end the person's); undo and redo throw
//     exactly when their history has no group, count one edit per version
//     they make, and give the document's selection; an accepted text is
//     followed by its units too, which must say what the change records
//     say. In every input, the units follow every change record (a text's
//     units are its text).
//
// Operation bytes 240...255 (which decoded as 0...15 before there were
// tracked ranges; no seed or regression uses them) are the tracked-range
// operations: track (also 64 or more at once), untrack,
// query, look up by id; of them, 252, 253 and 255 (no seed or regression
// uses them either) are the review operations (Review.swift): suggest (in a
// storage or a context), preview, accept (and undo and redo right after),
// reject, queries and look-ups, with live, gone and forged ids. In inputs
// whose first byte has its high bit set (the document records the person's
// and the origins' history; the others, every seed and regression from
// before it, run with `HistoryOptions(isEnabled: false)`), operation bytes
// 200...239 are the history operations (History.swift): the person or an
// origin types or deletes on in its group (or starts anew), `closeGroup`,
// `undo(origin:)`, `redo(origin:)`, and the main `undo()` and `redo()`.
//
// FUZZ_TRACE=1 prints each call as Swift (a reproducer to start from).

import DocumentEngine
import Foundation
import FuzzSupport
import SummaryTrees
import TextRope

// MARK: - The model

/// A storage as the model knows it.
struct StorageModel {
  var text: TextModel
  var version: Int
  /// Which incarnation of the id: a storage removed and added again is a
  /// new one.
  let generation: Int
  /// Whether each UTF-16 unit is excluded from Writing Tools.
  var excluded: [Bool]
  /// The attributes of each UTF-16 unit.
  var attributes: [Attributes]
}

typealias Attributes = [AttributeKey: AttributeValue]

/// The maximal runs of units with attributes.
func attributeRuns(_ units: [Attributes]) -> [AttributeRun] {
  var result: [AttributeRun] = []
  for (i, unit) in units.enumerated() where !unit.isEmpty {
    if let last = result.last, last.range.upperBound == i, last.attributes == unit {
      result[result.count - 1].range = last.range.lowerBound..<(i + 1)
    } else {
      result.append(AttributeRun(i..<(i + 1), unit))
    }
  }
  return result
}

/// The attributes of each unit of a text of `length` units, from runs.
func units(_ runs: [AttributeRun], length: Int) -> [Attributes] {
  var result = [Attributes](repeating: [:], count: length)
  for run in runs where run.range.lowerBound >= 0 && run.range.upperBound <= length {
    for i in run.range { result[i] = run.attributes }
  }
  return result
}

/// What the unit at `i` of a tool's replacement has under `options`, from
/// the edit rule's `inherited` and the tool's `runs` (docs/DESIGN.md,
/// "Attributes"), written out again for the model.
func replacementUnit(
  _ i: Int, inherited: Attributes, runs: [AttributeRun], options: ResultOptions
) -> Attributes {
  let rich = !options.isDisjoint(with: [.richText, .list, .table, .presentationIntent])
  guard rich else { return inherited }
  let given = runs.first { $0.range.contains(i) }?.attributes ?? [:]
  var unit = inherited
  unit[.inlinePresentationIntent] = given[.inlinePresentationIntent]
  unit[.link] = given[.link]
  if options.contains(.presentationIntent),
    case .presentationIntent(let intent)? = given[.presentationIntent]
  {
    let components = intent.components.filter {
      switch $0.kind {
      case .orderedList, .unorderedList, .listItem: options.contains(.list)
      case .table, .tableHeaderRow, .tableRow, .tableCell: options.contains(.table)
      default: true
      }
    }
    if !components.isEmpty {
      unit[.presentationIntent] = .presentationIntent(PresentationIntent(components))
    }
  }
  return unit
}

/// A live context as the model knows it.
struct ContextModel {
  let id: UUID
  let storage: StorageID
  let generation: Int
  var text: TextModel
  var version: Int
  /// How the trace names it.
  let name: String
}

/// The session as the model knows it.
struct SessionModel {
  let session: WritingSession
  let name: String
  var contexts: [UUID: ContextModel]
  /// Each storage's incarnation and text when the session started.
  var start: [StorageID: (generation: Int, text: String)]
  /// Each storage's attributes when the session started.
  var startAttributes: [StorageID: [AttributeRun]]
  /// The storages (incarnations) whose attributes the person set since.
  var attributesSet: Set<Int> = []
  /// What the tool may give back: chosen from the session's number, so
  /// that inputs decode as before.
  var options: ResultOptions
  /// The storages (incarnations) the person or an origin edited since.
  var personEdited: Set<Int> = []
  /// The storages (incarnations) where the history's rule took back a
  /// tool's group of the session (its replacements no longer the
  /// session's to swap: revert leaves them alone, as the engine's
  /// `breakLinked` says).
  var ruleTakenBack: Set<Int> = []
  var state: WritingToolsState = .inactive
  /// The replacements in the open streaming group, if one is open.
  var streaming: Int? = nil
  /// The history's group of the streaming phase under way, once it made a
  /// replacement while the history recorded (History.swift).
  var streamingAction: Int? = nil
  /// Whether the history's limit dropped one of the session's groups from
  /// the undo stack (undoing every group no longer gives the start back).
  var lostGroups = false
  /// The texts before each undo of the session's groups still on the redo
  /// stack (one for each `.session` there).
  var redoSnapshots: [[StorageID: (generation: Int, text: String)]] = []
  /// The attributes before each of those undos.
  var redoAttributes: [[StorageID: [AttributeRun]]] = []
  /// Whether revert() ran in the session (for FUZZ_AVOID).
  var reverted = false
  /// Whether undo(), redo() or revert() ran in the session (for FUZZ_AVOID).
  var swapped = false
}

/// The person's last keystroke, followed through later edits.
struct Keystroke {
  let storage: StorageID
  let generation: Int
  var range: Range<Int>
  let text: String
}

/// What must not change when a call throws.
struct Before {
  let content: DocumentContent
  let selection: [SelectionRange]
  let visible: [StorageID: Range<Int>]
  let state: WritingToolsState
  let session: UUID?
  let marks: [Mark]
}

/// Where positions go through one edit when they bound a tracked range (the
/// engine's rule for contexts, replacements, marks): the start goes after an
/// insertion at it, the end stays before one.
struct Edge {
  let s: Int
  let e: Int
  let n: Int

  init(_ range: Range<Int>, _ insertedLength: Int) {
    s = range.lowerBound
    e = range.upperBound
    n = insertedLength
  }

  init(_ record: ChangeRecord) {
    self.init(record.range, record.insertedLength)
  }

  func start(_ p: Int) -> Int {
    if p < s { return p }
    if p == s { return e > s ? s : s + n }
    if p < e { return s + n }
    return p + n - (e - s)
  }

  func end(_ p: Int) -> Int {
    if p <= s { return p }
    if p < e { return s }
    return p + n - (e - s)
  }

  func range(_ r: Range<Int>) -> Range<Int> {
    let a = start(r.lowerBound)
    return a..<max(a, end(r.upperBound))
  }

  /// Whether the edit changes text inside `r`: deletes a unit of it, or its
  /// new text lands inside it.
  func touches(_ r: Range<Int>) -> Bool {
    if max(s, r.lowerBound) < min(e, r.upperBound) { return true }
    let mapped = range(r)
    return n > 0 && mapped.lowerBound <= s && s + n <= mapped.upperBound
  }
}

extension TextModel {
  /// Replaces UTF-16 `range` with `text`; false if a bound is not a scalar
  /// boundary.
  mutating func replace(utf16 range: Range<Int>, with text: String) -> Bool {
    guard let a = boundary(range.lowerBound, .utf16), let b = boundary(range.upperBound, .utf16)
    else { return false }
    replace(scalarRange: a..<b, with: text)
    return true
  }

  /// The text of UTF-16 `range`, if it is on scalar boundaries.
  func string(utf16 range: Range<Int>) -> String? {
    guard let a = boundary(range.lowerBound, .utf16), let b = boundary(range.upperBound, .utf16)
    else { return nil }
    return slice(scalarRange: a..<b).string
  }
}

/// `text` as a Swift literal.
func literal(_ text: String) -> String { text.debugDescription }

func describe(_ range: Range<Int>) -> String { "\(range.lowerBound)..<\(range.upperBound)" }

func describe(_ id: StorageID) -> String { literal(id.rawValue) }

func describe(_ value: Int?) -> String { value.map { "\($0)" } ?? "nil" }

/// Runs of `true` in `flags`.
func runs(_ flags: [Bool]) -> [Range<Int>] {
  var result: [Range<Int>] = []
  var start: Int? = nil
  for (i, flag) in flags.enumerated() {
    if flag && start == nil { start = i }
    if !flag, let s = start {
      result.append(s..<i)
      start = nil
    }
  }
  if let s = start { result.append(s..<flags.count) }
  return result
}

/// Where `p` of an old version is after `records`, by ProseMirror's
/// sequential rule, and whether the unit on the `assoc` side was deleted.
func sequentialMap(_ p: Int, through records: ArraySlice<ChangeRecord>, assoc: Int) -> MappedOffset
{
  var position = p
  var deleted = false
  for record in records {
    let s = record.range.lowerBound
    let e = record.range.upperBound
    let n = record.insertedLength
    if position < s { continue }
    if position > e {
      position += n - (e - s)
      continue
    }
    let oldSize = e - s
    let side = oldSize == 0 ? assoc : (position == s ? -1 : (position == e ? 1 : assoc))
    if oldSize > 0 && (assoc < 0 ? position != s : position != e) { deleted = true }
    position = s + (side < 0 ? 0 : n)
  }
  return MappedOffset(offset: position, deleted: deleted)
}

// MARK: - The harness

final class Harness {
  let document: Document
  let keepsAllChanges: Bool
  var storages: [StorageID: StorageModel] = [:]
  var order: [StorageID] = []
  var generations = 0
  var session: SessionModel? = nil
  var sessionCount = 0
  /// Every context handed out, live or not, with its trace name.
  var handedOut: [(id: UUID, name: String)] = []
  var keystroke: Keystroke? = nil
  var step = 0
  /// The host's tracked ranges of every storage, by id (Tracked.swift).
  var tracked: [StorageID: [TrackedRangeID: TrackedModel]] = [:]
  /// The ranges an edit removed, for an undo that brings them back.
  var removedTracked: [TrackedRangeID: (StorageID, TrackedModel)] = [:]
  /// Every id `track` gave.
  var givenIDs: Set<TrackedRangeID> = []
  /// Ids of ranges gone (untracked, removed by an edit, of a removed
  /// storage), the latest last.
  var deadIDs: [TrackedRangeID] = []
  /// What the storage edits of the change being followed did to the host's
  /// ranges, by the model.
  var trackedTouched: Set<TrackedRangeID> = []
  var trackedRemoved: Set<TrackedRangeID> = []
  /// The storages whose edits this call the model could not follow (no
  /// change records): their ranges are checked by property and taken from
  /// the engine.
  var trackedResync: Set<StorageID> = []
  /// The content and the model's host ranges when `before()` was last
  /// called (checked and cleared by `checkAll`).
  var snapshot: (content: DocumentContent, tracked: [StorageID: [TrackedRange]])? = nil
  /// The suggestions of every storage, by id (Review.swift).
  var suggestionModels: [StorageID: [SuggestionID: SuggestionModel]] = [:]
  /// The suggestion whose candidate is in the text, if one is.
  var previewedSuggestion: SuggestionID? = nil
  /// The kinds and texts rejected: a suggestion of the same is refused.
  var ignoredSuggestions: Set<IgnoredSuggestion> = []
  /// Where rejected suggestions were (their text then), to suggest again.
  var rejectedSuggestions: [(storage: StorageID, range: Range<Int>, kind: SuggestionKind)] = []
  /// Ids of suggestions gone (accepted, rejected, touched, of a removed
  /// storage), the latest last.
  var deadSuggestionIDs: [SuggestionID] = []
  /// Every accepted suggestion, for undo and redo.
  var acceptedSuggestions: [AcceptedModel] = []
  /// The document's one undo history: the person's and the tool's groups,
  /// the session's (made while the history did not record) and the
  /// accepted suggestions, in order (the engine's `history`).
  var undoStack: [UndoEntry] = []
  var redoStack: [UndoEntry] = []
  /// The suggestion or accepted text that the engine's own edit being
  /// followed keeps out of the mapping (it is put over the new text).
  var keptByEdit: KeptRange? = nil
  /// The person's and the origins' histories (History.swift).
  var history: HistoryModel

  static let ids: [StorageID] = ["title", "body", "cell", "", "e\u{301}", "\u{0}"]
  static let origins = ["peer", "a", "zz", "", "\u{1F600}"]

  init(keepsAllChanges: Bool, recordsHistory: Bool) {
    self.keepsAllChanges = keepsAllChanges
    document = Document(keepsAllChanges: keepsAllChanges)
    history = HistoryModel(enabled: recordsHistory)
    trace("let document = Document(keepsAllChanges: \(keepsAllChanges))")
    if recordsHistory {
      // A fixed clock: the grouping interval never ends a group; no limit.
      document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: nil, clock: { .zero })
      trace(
        "document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: nil, clock: { .zero })")
    } else {
      document.historyOptions = HistoryOptions(isEnabled: false)
      trace("document.historyOptions = HistoryOptions(isEnabled: false)")
    }
  }

  // MARK: Reading the engine

  func storage(_ id: StorageID) -> TextStorage? { try? document.content.storage(id) }

  func before() -> Before {
    snapshot = (document.content, trackedSnapshot())
    return Before(
      content: document.content, selection: document.selection, visible: document.visible,
      state: document.writingToolsState, session: document.session?.id, marks: document.marks)
  }

  /// Oracle 2: a call that threw changed nothing.
  func expectUnchanged(_ old: Before, _ what: String, _ error: DocumentError) {
    trace("  // threw \(error)")
    let now = document.content
    expect(now.order == old.content.order, "\(what) threw \(error) but changed the order")
    for id in old.content.order {
      guard let a = try? old.content.storage(id), let b = try? now.storage(id) else {
        oracleFailed("\(what) threw \(error) but removed storage \(describe(id))")
      }
      expect(
        a.text == b.text,
        "\(what) threw \(error) but changed the text of \(describe(id)): "
          + "\(literal(String(a.text))) -> \(literal(String(b.text)))")
      expect(
        a.version == b.version,
        "\(what) threw \(error) but changed the version of \(describe(id)): "
          + "\(a.version) -> \(b.version)")
      expect(
        a.excludedRanges == b.excludedRanges,
        "\(what) threw \(error) but changed the exclusions of \(describe(id))")
      expect(
        a.attributeRuns(in: 0..<a.length) == b.attributeRuns(in: 0..<b.length),
        "\(what) threw \(error) but changed the attributes of \(describe(id))")
    }
    expect(document.selection == old.selection, "\(what) threw \(error) but changed the selection")
    expect(document.visible == old.visible, "\(what) threw \(error) but changed the visible ranges")
    expect(document.writingToolsState == old.state, "\(what) threw \(error) but changed the state")
    expect(document.session?.id == old.session, "\(what) threw \(error) but changed the session")
    expect(document.marks == old.marks, "\(what) threw \(error) but changed the marks")
    for id in old.content.order {
      expect(
        (try? allTracked(in: old.content, id)) == (try? allTracked(in: now, id)),
        "\(what) threw \(error) but changed the tracked ranges of \(describe(id))")
    }
  }

  /// The result options of the sessions, in turn.
  static let resultOptions: [ResultOptions] = [
    .plainText, .richText, .presentationIntent, [.presentationIntent, .list, .table], .list, [],
  ]

  /// The attributes of every storage now.
  func attributeSnapshot() -> [StorageID: [AttributeRun]] {
    storages.mapValues { attributeRuns($0.attributes) }
  }

  /// The texts of every storage now, by incarnation.
  func texts() -> [StorageID: (generation: Int, text: String)] {
    storages.mapValues { ($0.generation, $0.text.string) }
  }

  /// The change records of `id` since `version`, if the log still has them.
  func records(_ id: StorageID, since version: Int) -> ArraySlice<ChangeRecord>? {
    try? storage(id)?.changes.records(since: StorageVersion(version))
  }

  // MARK: Checks after every call

  /// Oracles 3, 6 and 7: every storage, context, the index and the
  /// selection against the model.
  func checkAll(_ what: String) {
    let content = document.content
    content.index._invariantCheck()
    expect(content.order == order, "after \(what): order \(content.order) != model \(order)")
    var total = 0
    for id in order {
      guard let model = storages[id], let storage = try? content.storage(id) else {
        oracleFailed("after \(what): storage \(describe(id)) is missing")
      }
      storage.text._invariantCheck()
      let text = String(storage.text)
      expect(
        text == model.text.string,
        "after \(what): \(describe(id)) is \(literal(text)), model \(literal(model.text.string))")
      expect(
        storage.version.rawValue == model.version,
        "after \(what): \(describe(id)) is at version \(storage.version), model \(model.version)")
      expect(
        model.excluded.count == model.text.utf16.count,
        "after \(what): model exclusions of \(describe(id)) out of step")
      expect(
        storage.excludedRanges == runs(model.excluded),
        "after \(what): \(describe(id)) excludes \(storage.excludedRanges), model"
          + " \(runs(model.excluded))")
      expect(
        model.attributes.count == model.text.utf16.count,
        "after \(what): model attributes of \(describe(id)) out of step")
      let attributes = storage.attributeRuns(in: 0..<storage.length)
      expect(
        attributes == attributeRuns(model.attributes),
        "after \(what): \(describe(id)) has attributes \(attributes), model"
          + " \(attributeRuns(model.attributes))")
      expect(
        storage.changes.currentVersion == storage.version,
        "after \(what): \(describe(id)) change log at \(storage.changes.currentVersion)")
      expect(
        storage.changes.length == storage.length,
        "after \(what): \(describe(id)) change log length \(storage.changes.length)")
      expect(
        (try? content.index.length(of: id)) == storage.length,
        "after \(what): the index has the wrong length for \(describe(id))")
      total += storage.length
    }
    expect(content.index.length == total, "after \(what): index length")
    // The selection, visible ranges and marks stay valid.
    do {
      _ = try content.validated(document.selection)
    } catch {
      oracleFailed("after \(what): the selection \(document.selection) is invalid: \(error)")
    }
    for (id, range) in document.visible {
      guard let model = storages[id] else {
        oracleFailed("after \(what): a visible range in missing storage \(describe(id))")
      }
      expect(
        model.text.boundary(range.lowerBound, .utf16) != nil
          && model.text.boundary(range.upperBound, .utf16) != nil,
        "after \(what): visible range \(range) of \(describe(id)) is invalid")
    }
    for mark in document.marks {
      guard let model = storages[mark.storage] else {
        oracleFailed("after \(what): mark \(mark) in a missing storage")
      }
      expect(
        mark.range.lowerBound >= 0 && mark.range.upperBound <= model.text.utf16.count,
        "after \(what): mark \(mark) is out of bounds")
    }
    checkContexts(what)
    checkSuggestions(what)
    checkTracked(what)
    checkUnits(what)
  }

  /// Oracle 6: every live context against its model.
  func checkContexts(_ what: String) {
    guard let session else {
      expect(document.session == nil, "after \(what): the document has a session, model none")
      return
    }
    expect(
      document.session?.id == session.session.id,
      "after \(what): the document's session is not the model's")
    for context in session.contexts.values {
      let live: LiveContext
      do {
        live = try document.liveContext(context.id)
      } catch {
        oracleFailed("after \(what): live context \(context.name) is gone: \(error)")
      }
      let text = String(live.text)
      expect(
        text == context.text.string,
        "after \(what): context \(context.name) holds \(literal(text)), its events say"
          + " \(literal(context.text.string))")
      expect(
        live.contextVersion.rawValue == context.version,
        "after \(what): context \(context.name) is at version \(live.contextVersion), its"
          + " events say \(context.version)")
      guard let storage = storages[context.storage] else {
        oracleFailed("after \(what): context \(context.name) in a missing storage")
      }
      let r = live.storageRange
      expect(
        storage.text.string(utf16: r) == text,
        "after \(what): context \(context.name) at \(r) is not the storage's text there")
    }
  }

  // MARK: Following changes

  /// Applies `events` to the model contexts (oracle 6).
  func apply(_ events: [DocumentEvent], _ what: String, skipping skipped: UUID? = nil) {
    for event in events {
      switch event {
      case .textUpdated(let id, let range, let text, let version, _):
        expect(id != skipped, "\(what): the replaced context heard its own replacement")
        guard var context = session?.contexts[id] else {
          oracleFailed("\(what): an event for a context that is not live: \(event)")
        }
        expect(
          range.lowerBound >= 0 && range.upperBound <= context.text.utf16.count
            && context.text.replace(utf16: range, with: text),
          "\(what): event \(event) does not apply to \(literal(context.text.string))")
        expect(
          version.rawValue == context.version + 1,
          "\(what): event \(event) skips from context version \(context.version)")
        context.version = version.rawValue
        session?.contexts[id] = context
      case .reflowed(let id, _):
        expect(
          id != skipped && session?.contexts[id] != nil,
          "\(what): reflow event for a context that is not live or was replaced: \(event)")
      case .tracked, .missed:
        expect(false, "\(what): a result's events hold an observer's event: \(event)")
      }
    }
  }

  /// Applies one change record to storage `id`'s model: its text (`text` for
  /// the record that inserts), its exclusions, the keystroke.
  func apply(
    _ r: Range<Int>, _ n: Int, to id: StorageID, text: String?, _ what: String,
    transformed: Bool = false, newUnits: ((Int, Attributes) -> Attributes)? = nil
  ) {
    guard var model = storages[id] else { oracleFailed("\(what): a record for a missing storage") }
    // Only an edit that is empty as made is a no-op. One that transformation
    // reduced to nothing (a peer's deletion of text the person had already
    // deleted) keeps its record, and its version: the record keeps that
    // writer's view in step for its later edits (Jupiter).
    expect(
      transformed || !(r.isEmpty && n == 0),
      "\(what): change record \(r) with no text in \(describe(id)): a version that changes nothing")
    // The exclusions are kept record by record, text or not: their length is
    // the text's.
    expect(
      r.lowerBound >= 0 && r.upperBound <= model.excluded.count,
      "\(what): change record \(r) is outside \(describe(id)) (\(model.excluded.count) units)")
    if let text {
      expect(
        model.text.replace(utf16: r, with: text),
        "\(what): change record \(r) splits a surrogate pair in \(literal(model.text.string))")
    }
    // Exclusions: inside one excluded run new units are excluded.
    let inside =
      r.lowerBound > 0 && r.upperBound < model.excluded.count
      && model.excluded[(r.lowerBound - 1)...r.upperBound].allSatisfy { $0 }
    model.excluded.replaceSubrange(r, with: repeatElement(inside, count: n))
    // Attributes: NSMutableAttributedString's rule, or what the edit gives.
    let units = model.attributes
    let inherited =
      !r.isEmpty
      ? units[r.lowerBound] : r.lowerBound > 0 ? units[r.lowerBound - 1] : units.first ?? [:]
    model.attributes.replaceSubrange(
      r, with: (0..<n).map { newUnits?($0, inherited) ?? inherited })
    storages[id] = model
    followUnits(id, r, n, text: text, attributes: units)
    followTracked(r, n, in: id)
    if let stroke = keystroke, stroke.storage == id {
      let edge = Edge(r, n)
      if edge.touches(stroke.range) {
        keystroke = nil
      } else {
        keystroke?.range = edge.range(stroke.range)
      }
    }
  }

  /// Brings the model of `id` up to the engine after a successful change
  /// from `oldVersion`: through its records (`text` for the one that inserts,
  /// checked against the engine's text) or, without records, by taking the
  /// engine's text.
  func follow(
    _ id: StorageID, from oldVersion: Int, text: String?, _ what: String,
    newUnits: ((Int, Attributes) -> Attributes)? = nil
  ) -> ArraySlice<ChangeRecord>? {
    guard let storage = storage(id), var model = storages[id] else { return nil }
    let newVersion = storage.version.rawValue
    let records = records(id, since: oldVersion)
    if let records {
      expect(
        records.count == newVersion - oldVersion,
        "\(what): \(records.count) records for versions \(oldVersion) -> \(newVersion)")
      for record in records {
        let inserted: String?
        if let text {
          expect(
            record.insertedLength == 0 || record.insertedLength == text.utf16.count,
            "\(what): a record inserts \(record.insertedLength) units of \(literal(text))")
          inserted = record.insertedLength == 0 ? "" : text
        } else {
          inserted = nil
        }
        apply(
          record.range, record.insertedLength, to: id, text: inserted, what, transformed: true,
          newUnits: newUnits)
      }
      model = storages[id] ?? model
    } else {
      keystroke = keystroke?.storage == id ? nil : keystroke
      // The model cannot follow its tracked ranges (unless the caller
      // knows the edit: see originEdit).
      trackedResync.insert(id)
      // Nor its units, unless the caller or the history model does.
      history.edits[model.generation, default: 0] += 1
      // (A group recording it holds units the model does not know.)
      if case .action(let a) = history.recording, !history.byTakeBack {
        history.actions[a]?.opaque = true
      }
      if !history.byTakeBack && !history.byCaller { loseUnits(id) }
    }
    if records == nil || text == nil {
      // Take the engine's text (the model could not say what was inserted).
      let engineText = String(storage.text)
      if records == nil { model.excluded = Self.excluded(storage) }
      model.attributes = units(
        storage.attributeRuns(in: 0..<storage.length), length: storage.length)
      model.text = TextModel(engineText)
    }
    model.version = newVersion
    storages[id] = model
    if records != nil && text == nil && !history.byTakeBack { fillUnits(id, what) }
    return records
  }

  static func excluded(_ storage: TextStorage) -> [Bool] {
    var flags = [Bool](repeating: false, count: storage.length)
    for r in storage.excludedRanges where r.lowerBound >= 0 && r.upperBound <= flags.count {
      for i in r { flags[i] = true }
    }
    return flags
  }

  /// Marks a storage as edited by someone other than the tool.
  func personEdited(_ id: StorageID) {
    guard let model = storages[id] else { return }
    session?.personEdited.insert(model.generation)
  }

  // MARK: Decoding arguments

  func pickID(_ input: inout FuzzInput) -> StorageID {
    if !order.isEmpty && input.byte() % 4 != 0 { return input.pick(order) }
    return input.pick(Self.ids)
  }

  func length(_ id: StorageID) -> Int { storages[id]?.text.utf16.count ?? 0 }

  func interesting(_ id: StorageID) -> [Int] {
    storages[id]?.text.interestingOffsets(.utf16, limit: 16) ?? []
  }

  /// A range of storage `id`: on scalar boundaries three times in four,
  /// else hostile.
  func pickRange(_ input: inout FuzzInput, in id: StorageID) -> Range<Int> {
    if let text = storages[id]?.text, input.byte() % 4 != 0 {
      return Self.validRange(&input, in: text)
    }
    return input.range(length: length(id), interesting: interesting(id))
  }

  /// A range on scalar boundaries of `text`, mostly short.
  static func validRange(_ input: inout FuzzInput, in text: TextModel) -> Range<Int> {
    let n = text.scalars.count
    let a = input.int(below: n + 1)
    let b = a + input.int(below: min(n - a, input.bool() ? 4 : 64) + 1)
    return text.utf16Bounds[a]..<text.utf16Bounds[b]
  }

  func pickText(_ input: inout FuzzInput) -> String {
    let text = input.byte() % 8 == 0 ? "" : input.text(maxPieces: 5)
    return text.isEmpty && Avoid.contains("empty-text") ? "a" : text
  }

  /// A version of `id`: mostly recent ones, some hostile.
  func pickVersion(_ input: inout FuzzInput, _ id: StorageID) -> Int {
    let current = storages[id]?.version ?? 0
    switch input.byte() % 8 {
    case 0, 1: return current
    case 2, 3, 4: return current - 1 - input.int(below: 4)
    case 5: return 0
    case 6: return current + 1 + input.int(below: 3)
    default: return input.pick(FuzzInput.extremeOffsets)
    }
  }

  /// A context id: a live one mostly, else a stale one or a random one.
  func pickContext(_ input: inout FuzzInput) -> (id: UUID, name: String) {
    let live = session.map { Array($0.contexts.values).sorted { $0.name < $1.name } } ?? []
    switch input.byte() % 8 {
    case 0 where !handedOut.isEmpty: return input.pick(handedOut)
    case 1: return (UUID(), "UUID()")
    default:
      if !live.isEmpty {
        let context = input.pick(live)
        return (context.id, context.name)
      }
      return handedOut.isEmpty ? (UUID(), "UUID()") : input.pick(handedOut)
    }
  }

  func pickPosition(_ input: inout FuzzInput) -> TextPosition {
    let id = pickID(&input)
    return TextPosition(id, input.offset(length: length(id), interesting: interesting(id)))
  }

  func pickSelection(_ input: inout FuzzInput) -> [SelectionRange] {
    (0..<input.int(below: 4)).map { _ in
      switch input.byte() % 4 {
      case 0: return SelectionRange(caret: pickPosition(&input))
      case 1: return SelectionRange(from: pickPosition(&input), to: pickPosition(&input))
      default:
        let id = pickID(&input)
        return SelectionRange(id, pickRange(&input, in: id))
      }
    }
  }

  func describeSelection(_ selection: [SelectionRange]) -> String {
    let parts = selection.map {
      "SelectionRange(from: TextPosition(\(Self.describeID($0.start.storage)), \($0.start.offset)),"
        + " to: TextPosition(\(Self.describeID($0.end.storage)), \($0.end.offset)))"
    }
    return "[" + parts.joined(separator: ", ") + "]"
  }

  static func describeID(_ id: StorageID) -> String { literal(id.rawValue) }

  // MARK: Operations

  func run(_ input: inout FuzzInput) {
    // A few storages to start with, and often a session right away.
    for _ in 0..<(1 + input.int(below: 3)) { add(&input) }
    if input.bool() { startSession(&input) }
    while !input.isExhausted && step < 120 {
      step += 1
      trackedTouched = []
      trackedRemoved = []
      trackedResync = []
      let op = input.byte()
      if history.enabled && op >= 200 && op < 240 {
        // The history operations (History.swift), in inputs that record it.
        historyOperation(Int(op - 200), &input)
        continue
      }
      if op == 252 || op == 253 || op == 255 {
        // The review operations (Review.swift), on bytes of the
        // tracked-range operations that no seed or regression used.
        reviewOperation(&input)
        continue
      }
      if op >= 240 {
        // The tracked-range operations (Tracked.swift), on bytes that
        // decoded as 0...15 before them.
        if op < 248 && history.enabled && Avoid.contains("restored-ranges") {
          // No host's range where the history records (undo puts back the
          // ranges its edits removed, which Tracked.swift does not model).
          continue
        }
        trackedOperation(Int(op - 240), &input)
        continue
      }
      switch op % 40 {
      case 0, 1: add(&input)
      case 2: remove(&input)
      case 3: move(&input)
      case 4, 5, 6, 7: edit(&input)
      case 8, 9: originEdit(&input)
      case 10: setExcluded(&input)
      case 11, 12: select(&input)
      case 13: setVisible(&input)
      case 14, 15: startSession(&input)
      case 16, 17, 18, 19, 20, 32, 33, 34, 35: replace(&input)
      case 21: toolSelect(&input)
      case 22, 23: setState(&input)
      case 24, 25, 36: undo(redo: false)
      case 26, 37: undo(redo: true)
      case 27, 38: revert()
      case 28: mark(&input)
      case 29: mapAndTouched(&input)
      case 30, 39: pinOrUnpin(&input)
      default: if input.byte() % 2 == 0 { batch(&input) } else { misc(&input) }
      }
    }
  }

  func add(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let text = input.text(maxPieces: 24)
    let after: StorageID? = input.bool() ? pickID(&input) : nil
    if Avoid.contains("readd-replacement-local") && storages[id] == nil
      && session?.start[id] != nil
    {
      return
    }
    let what =
      "try document.add(\(describe(id)), text: Rope(\(literal(text))), after:"
      + " \(after.map { describe($0) } ?? "nil"))"
    trace(what)
    let old = before()
    do {
      try document.add(id, text: Rope(text), after: after)
      expect(storages[id] == nil, "\(what) added a duplicate")
      generations += 1
      historyAdded(generations, text)
      let model = TextModel(text)
      storages[id] = StorageModel(
        text: model, version: 0, generation: generations,
        excluded: [Bool](repeating: false, count: model.utf16.count),
        attributes: [Attributes](repeating: [:], count: model.utf16.count))
      // A storage added (again) tracks nothing and has no suggestions.
      tracked[id] = [:]
      suggestionModels[id] = [:]
      if let after {
        guard let i = order.firstIndex(of: after) else {
          oracleFailed("\(what) succeeded after a missing storage")
        }
        order.insert(id, at: i + 1)
      } else {
        order.append(id)
      }
    } catch {
      expect(
        storages[id] != nil || (after.map { storages[$0] == nil } ?? false),
        "\(what) threw \(error) for a valid request")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func remove(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let what = "try document.remove(\(describe(id)))"
    trace(what)
    let old = before()
    do {
      try document.remove(id)
      expect(storages[id] != nil, "\(what) removed a missing storage")
      if let generation = storages[id]?.generation { historyRemoved(generation) }
      storages[id] = nil
      order.removeAll { $0 == id }
      // Its ranges are gone; their ids are unknown from now on.
      for trackedID in (tracked[id] ?? [:]).keys.sorted() { noteDead(trackedID) }
      tracked[id] = nil
      forgetReview(of: id)
      if let contexts = session?.contexts {
        session?.contexts = contexts.filter { $0.value.storage != id }
      }
      if keystroke?.storage == id { keystroke = nil }
      for mark in document.marks {
        expect(mark.storage != id, "\(what) kept mark \(mark)")
      }
    } catch {
      expect(storages[id] == nil, "\(what) threw \(error) for an existing storage")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func move(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let after: StorageID? = input.bool() ? pickID(&input) : nil
    let what = "try document.move(\(describe(id)), after: \(after.map { describe($0) } ?? "nil"))"
    trace(what)
    let old = before()
    do {
      try document.move(id, after: after)
      guard storages[id] != nil, after.map({ storages[$0] != nil && $0 != id }) ?? true else {
        oracleFailed("\(what) succeeded for a missing storage")
      }
      order.removeAll { $0 == id }
      if let after, let i = order.firstIndex(of: after) {
        order.insert(id, at: i + 1)
      } else {
        order.insert(id, at: 0)
      }
    } catch {
      expect(
        storages[id] == nil || after.map({ storages[$0] == nil || $0 == id }) ?? false,
        "\(what) threw \(error) for a valid request")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// A plain person edit: exactly predictable. Sometimes its range is
  /// given in UTF-8 or in scalars (`edit(_:range:in:with:)`).
  func edit(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let picked = pickRange(&input, in: id)
    let text = pickText(&input)
    let choice = input.byte()
    let withBasis = choice % 4 == 0
    let basis: Int? = withBasis ? storages[id]?.version : nil
    // The unit of the call: UTF-16 (the range as picked), or UTF-8 or
    // scalars, where a range of valid bounds is the same text, and one of
    // bad bounds keeps its numbers (bad in their own way).
    let unit: ModelUnit? = withBasis ? nil : [nil, .utf8, .scalars, nil][Int(choice / 4 % 4)]
    var call = picked
    var range = picked
    var valid: Bool
    if let unit {
      let model = storages[id]?.text
      if let model, let lo = model.boundary(picked.lowerBound, .utf16),
        let hi = model.boundary(picked.upperBound, .utf16)
      {
        call = model.offset(ofBoundary: lo, in: unit)..<model.offset(ofBoundary: hi, in: unit)
      }
      let lo = model?.boundary(call.lowerBound, unit)
      let hi = model?.boundary(call.upperBound, unit)
      valid = lo != nil && hi != nil
      if let model, let lo, let hi {
        range = model.offset(ofBoundary: lo, in: .utf16)..<model.offset(ofBoundary: hi, in: .utf16)
      }
    } else {
      valid =
        storages[id].map {
          $0.text.boundary(picked.lowerBound, .utf16) != nil
            && $0.text.boundary(picked.upperBound, .utf16) != nil
        } ?? false
    }
    let textUnit: TextUnit? = unit.map {
      $0 == .utf8 ? .utf8 : $0 == .utf16 ? .utf16 : .unicodeScalars
    }
    let attributes = stepAttributes()
    let what =
      "try document.edit(\(describe(id)), range: \(describe(call)), "
      + (textUnit.map { "in: .\($0), " } ?? "") + "with: \(literal(text))"
      + (attributes.map { ", attributes: \($0)" } ?? "")
      + (withBasis ? ", basis: \(describe(basis))" : "") + ")"
    beginEdit(.person, id, range, text.utf16.count)
    trace(what)
    let old = before()
    var changed = false
    do {
      let result: EditResult
      if let textUnit {
        result = try document.edit(
          id, range: call, in: textUnit, with: text, attributes: attributes)
      } else {
        result = try document.edit(
          id, range: range, with: text, attributes: attributes,
          basis: basis.map { StorageVersion($0) })
      }
      trace("  // version \(result.version), range \(describe(result.range))")
      guard valid, var model = storages[id] else {
        oracleFailed("\(what) accepted an invalid range or storage")
      }
      let n = text.utf16.count
      let noOp = range.isEmpty && n == 0
      expect(
        result.version.rawValue == model.version + (noOp ? 0 : 1),
        "\(what): version \(model.version) -> \(result.version)")
      expect(
        result.range == range.lowerBound..<(range.lowerBound + n),
        "\(what): landed at \(result.range)")
      if noOp {
        expect(result.events.isEmpty, "\(what): a no-op edit has events")
      } else {
        apply(
          range, n, to: id, text: text, what, newUnits: attributes.map { set in { _, _ in set } })
        model = storages[id] ?? model
        model.version += 1
        storages[id] = model
        apply(result.events, what)
        personEdited(id)
        changed = true
      }
      expectTracked(result.tracked, what)
      if !noOp {
        if n > 0 {
          keystroke = Keystroke(
            storage: id, generation: model.generation, range: result.range, text: text)
        }
      }
    } catch {
      expect(!valid, "\(what) threw \(error) for a valid edit")
      expectUnchanged(old, what, error)
    }
    endEdit(.person, id, range, text.utf16.count, changed: changed)
    checkAll(what)
  }

  /// A batch of the person's edits (UTF-16), all or nothing: each range is
  /// picked in the model as the edits before it leave the text; the batch is
  /// refused at its first edit that is not valid there, and then nothing
  /// changes; otherwise every edit is made, as one by one.
  func batch(_ input: inout FuzzInput) {
    var edits: [DocumentEdit] = []
    var texts = storages.mapValues(\.text)
    var firstInvalid: Int? = nil
    for k in 0..<(1 + input.int(below: 3)) {
      let id = pickID(&input)
      let range: Range<Int>
      if var text = texts[id], input.byte() % 4 != 0 {
        range = Self.validRange(&input, in: text)
        let new = pickText(&input)
        edits.append(DocumentEdit(id, range: range, with: new))
        if !text.replace(utf16: range, with: new), firstInvalid == nil { firstInvalid = k }
        texts[id] = text
      } else {
        range = pickRange(&input, in: id)
        let new = pickText(&input)
        edits.append(DocumentEdit(id, range: range, with: new))
        if var text = texts[id], text.replace(utf16: range, with: new) {
          texts[id] = text
        } else if firstInvalid == nil {
          firstInvalid = k
        }
      }
    }
    let what =
      "try document.apply(["
      + edits.map {
        "DocumentEdit(\(describe($0.storage)), range: \(describe($0.range)), with: \(literal($0.text)))"
      }.joined(separator: ", ") + "])"
    trace(what)
    let old = before()
    // The person's edits of a batch are one group (a new one).
    if history.enabled && history.recordingOn { history.recording = .party(.person) }
    defer { history.recording = .none }
    do {
      let results = try document.apply(edits)
      expect(firstInvalid == nil, "\(what) accepted edit \(firstInvalid ?? -1), which is not valid")
      expect(results.count == edits.count, "\(what): \(results.count) results")
      for (edit, result) in zip(edits, results) {
        guard var model = storages[edit.storage] else {
          oracleFailed("\(what): an edit of a missing storage was made")
        }
        let n = edit.text.utf16.count
        let noOp = edit.range.isEmpty && n == 0
        expect(
          result.version.rawValue == model.version + (noOp ? 0 : 1),
          "\(what): version \(model.version) -> \(result.version)")
        expect(
          result.range == edit.range.lowerBound..<(edit.range.lowerBound + n),
          "\(what): landed at \(result.range)")
        if noOp {
          expectTracked(result.tracked, what + " (edit \(describe(edit.range)))")
          continue
        }
        apply(edit.range, n, to: edit.storage, text: edit.text, what)
        expectTracked(result.tracked, what + " (edit \(describe(edit.range)))")
        model = storages[edit.storage] ?? model
        model.version += 1
        storages[edit.storage] = model
        apply(result.events, what)
        personEdited(edit.storage)
      }
      keystroke = nil
      // A batch that made a group leaves no group open.
      if case .action = history.recording { history.runs[.person] = nil }
    } catch {
      if case .batchRefused(let index, _) = error {
        expect(
          index == firstInvalid,
          "\(what) refused edit \(index), expected \(String(describing: firstInvalid))")
      } else {
        expect(false, "\(what) threw \(error), not batchRefused")
      }
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// An edit with an origin or an old basis: transformed.
  func originEdit(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let origin: String? = input.byte() % 4 == 0 ? nil : input.pick(Self.origins)
    let basis: Int? = input.bool() ? pickVersion(&input, id) : nil
    // The range is in the editor's view: sometimes one of an older version.
    let range = pickRange(&input, in: id)
    let text = pickText(&input)
    performOriginEdit(
      id, origin: origin, basis: basis, range: range, text: text, attributes: stepAttributes())
  }

  /// An edit with an origin or a basis (`origin` nil: the person's), in the
  /// origin's (or the person's) history.
  func performOriginEdit(
    _ id: StorageID, origin: String?, basis: Int?, range: Range<Int>, text: String,
    attributes: Attributes?
  ) {
    let what =
      "try document.edit(\(describe(id)), range: \(describe(range)), with: \(literal(text)),"
      + (attributes.map { " attributes: \($0)," } ?? "")
      + " origin: \(origin.map(literal) ?? "nil"), basis: \(describe(basis)))"
    let oldVersion = storages[id]?.version ?? 0
    let party = origin.map(HistoryParty.origin) ?? .person
    // As made (no transformation): the history's runs go on with it.
    let asMade = basis == nil || basis == oldVersion
    let n = text.utf16.count
    beginEdit(party, id, asMade ? range : nil, n)
    trace(what)
    let old = before()
    let attributesBefore = storages[id]?.attributes ?? []
    var changed = false
    defer { endEdit(party, id, asMade ? range : nil, n, changed: changed) }
    do {
      let result = try document.edit(
        id, range: range, with: text, attributes: attributes, origin: origin,
        basis: basis.map { StorageVersion($0) })
      trace("  // version \(result.version), range \(describe(result.range))")
      guard storages[id] != nil else { oracleFailed("\(what) succeeded for a missing storage") }
      expect(
        result.version.rawValue >= oldVersion,
        "\(what): version went back \(oldVersion) -> \(result.version)")
      if result.version.rawValue == oldVersion {
        expect(range.isEmpty && text.isEmpty, "\(what) changed nothing: no version")
      }
      history.byCaller = true
      let records = follow(
        id, from: oldVersion, text: text, what,
        newUnits: attributes.map { set in { _, _ in set } })
      history.byCaller = false
      changed = result.version.rawValue != oldVersion
      if records == nil && asMade {
        // No history is kept (no session, no pin, not keepsAllChanges), and
        // the basis was the current version: nothing transformed it, and
        // the edit was applied as made, in one step.
        expect(
          result.range.lowerBound == range.lowerBound,
          "\(what): without history it landed at \(result.range)")
        trackedResync.remove(id)
        if changed {
          followUnits(id, range, text.utf16.count, text: text, attributes: attributesBefore)
        }
        followTracked(range, text.utf16.count, in: id)
      } else if records == nil {
        // An older basis that the engine could still transform (a session
        // that ended kept the history, and the log is trimmed only by the
        // next edit): the history is gone now, so the model cannot follow
        // where it landed. It takes the engine's text (`follow`) and
        // forgets its units; the edit is still a group of the party's
        // history, with units the model no longer knows (the engine keeps
        // it: finding FuzzDocument-history-group-count-after-origin-edit).
        loseUnits(id)
        if changed { _ = recordingAction(range, n) }
      }
      expectTracked(result.tracked, what)
      apply(result.events, what)
      if result.version.rawValue != oldVersion { personEdited(id) }
      if let model = storages[id], !text.isEmpty {
        expect(
          model.text.string(utf16: result.range) == text,
          "\(what): \(literal(text)) is not at the reported \(result.range) in"
            + " \(literal(model.text.string))")
        if records != nil {
          keystroke = Keystroke(
            storage: id, generation: model.generation, range: result.range, text: text)
        }
      }
    } catch {
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func setExcluded(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let range = pickRange(&input, in: id)
    let flag = input.byte() % 4 != 0
    let what = "try document.setExcluded(\(flag), in: \(describe(id)), range: \(describe(range)))"
    trace(what)
    let old = before()
    do {
      try document.setExcluded(flag, in: id, range: range)
      guard var model = storages[id], model.text.boundary(range.lowerBound, .utf16) != nil,
        model.text.boundary(range.upperBound, .utf16) != nil
      else {
        oracleFailed(
          "\(what) accepted a range out of bounds or inside a surrogate pair (DESIGN, Bad input)")
      }
      for i in range { model.excluded[i] = flag }
      storages[id] = model
    } catch {
      expect(
        !isValid(TextPosition(id, range.lowerBound))
          || !isValid(TextPosition(id, range.upperBound)),
        "\(what) threw \(error) for a valid range")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func isValid(_ position: TextPosition) -> Bool {
    storages[position.storage]?.text.boundary(position.offset, .utf16) != nil
  }

  func select(_ input: inout FuzzInput) {
    let selection = pickSelection(&input)
    let what = "try document.select(\(describeSelection(selection)))"
    trace(what)
    let old = before()
    do {
      try document.select(selection)
      expect(
        selection.allSatisfy { isValid($0.start) && isValid($0.end) },
        "\(what) accepted an invalid position")
      expect(document.selection.count == selection.count, "\(what): selection count")
    } catch {
      expect(
        !selection.allSatisfy { isValid($0.start) && isValid($0.end) },
        "\(what) threw \(error) for a valid selection")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func setVisible(_ input: inout FuzzInput) {
    var visible: [StorageID: Range<Int>] = [:]
    for _ in 0..<input.int(below: 3) {
      let id = pickID(&input)
      visible[id] = pickRange(&input, in: id)
    }
    let entries = visible.sorted { $0.key < $1.key }.map {
      "\(describe($0.key)): \(describe($0.value))"
    }
    let what =
      "try document.setVisible([\(entries.isEmpty ? ":" : entries.joined(separator: ", "))])"
    trace(what)
    let old = before()
    let valid = visible.allSatisfy {
      isValid(TextPosition($0.key, $0.value.lowerBound))
        && isValid(TextPosition($0.key, $0.value.upperBound))
    }
    do {
      try document.setVisible(visible)
      expect(valid, "\(what) accepted an invalid range")
      expect(document.visible == visible, "\(what): visible is \(document.visible)")
    } catch {
      expect(!valid, "\(what) threw \(error) for valid ranges")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func startSession(_ input: inout FuzzInput) {
    let scope = input.pick(ContextScope.allCases)
    let surrounding: Int
    switch input.byte() % 6 {
    case 0, 1, 2: surrounding = 0
    case 3: surrounding = 1 + input.int(below: 3)
    case 4: surrounding = -1 - input.int(below: 3)
    default: surrounding = input.pick([Int.max, Int.min, Int.max - 1, 1 << 40])
    }
    sessionCount += 1
    let name = "s\(sessionCount)"
    let options = Self.resultOptions[sessionCount % Self.resultOptions.count]
    let what =
      "let \(name) = try document.startSession(scope: .\(scope), surroundingParagraphs:"
      + " \(surrounding), resultOptions: ResultOptions(rawValue: \(options.rawValue)))"
    trace(what)
    let old = before()
    do {
      let started = try document.startSession(
        scope: scope, surroundingParagraphs: surrounding, resultOptions: options)
      expect(surrounding >= 0, "\(what) accepted a negative count")
      var contexts: [UUID: ContextModel] = [:]
      var lastPosition = -1
      for (i, context) in started.contexts.enumerated() {
        let contextName = "\(name).contexts[\(i)].id"
        guard let storage = storages[context.storage] else {
          oracleFailed("\(what): context for missing storage \(describe(context.storage))")
        }
        let position = order.firstIndex(of: context.storage) ?? -1
        expect(position >= lastPosition, "\(what): contexts are not in document order")
        lastPosition = position
        let text = String(context.text)
        expect(
          storage.text.string(utf16: context.storageRange) == text,
          "\(what): context \(i) text \(literal(text)) is not its storage range"
            + " \(context.storageRange)")
        expect(context.version.rawValue == storage.version, "\(what): context \(i) version")
        expect(
          context.range.lowerBound >= 0 && context.range.upperBound <= context.text.utf16Count,
          "\(what): context \(i) range \(context.range) is outside its text")
        expect(context.contextVersion == 0, "\(what): context \(i) starts at a version")
        let r = context.storageRange
        expect(
          isParagraphBoundary(r.lowerBound, storage.text)
            && isParagraphBoundary(r.upperBound, storage.text),
          "\(what): context \(i) \(r) does not fall on paragraph bounds in"
            + " \(literal(storage.text.string))")
        if scope == .fullDocument {
          expect(
            r == 0..<storage.text.utf16.count && !r.isEmpty,
            "\(what): full-document context \(i) is \(r)")
        }
        contexts[context.id] = ContextModel(
          id: context.id, storage: context.storage, generation: storage.generation,
          text: TextModel(text), version: 0, name: contextName)
        handedOut.append((context.id, contextName))
        trace("  // \(contextName): \(describe(context.storage)) \(describe(r))")
      }
      if scope == .fullDocument {
        expect(
          started.contexts.count == order.filter { length($0) > 0 }.count,
          "\(what): \(started.contexts.count) contexts for the full document")
      }
      // The session before (if any) ended: its streaming phase's group
      // goes on the history first; its groups go with it (those the
      // history recorded stay).
      endSessionInModel()
      session = SessionModel(
        session: started, name: name, contexts: contexts, start: texts(),
        startAttributes: attributeSnapshot(), options: options)
      expect(document.isLive(started), "\(what): the new session is not live")
    } catch {
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// Whether `offset` is 0, the end, or right after a paragraph separator.
  func isParagraphBoundary(_ offset: Int, _ text: TextModel) -> Bool {
    if offset == 0 || offset == text.utf16.count { return true }
    guard let i = text.boundary(offset, .utf16) else { return false }
    return text.separators.contains { $0.upperBound == i }
  }

  func replace(_ input: inout FuzzInput, attributed: Bool = false) {
    let (contextID, contextName) = pickContext(&input)
    let context = session?.contexts[contextID]
    let contextLength = context?.text.utf16.count ?? 0
    let range: Range<Int>
    if let context, input.byte() % 4 != 0 {
      range = Self.validRange(&input, in: context.text)
    } else {
      range = input.range(
        length: contextLength,
        interesting: context?.text.interestingOffsets(.utf16, limit: 16) ?? [])
    }
    let text = pickText(&input)
    let basis: Int?
    switch input.byte() % 6 {
    case 0, 1, 2: basis = nil
    case 3: basis = context?.version ?? 0
    case 4: basis = (context?.version ?? 0) - 1 - input.int(below: 3)
    default: basis = input.pick([-1, Int.min, Int.max, 100])
    }
    var policy: ReplacementPolicy = input.byte() % 3 == 0 ? .merge : .refuse
    if Avoid.contains("merge-after-swap") && session?.swapped == true { policy = .refuse }
    let (runs, runsValid) =
      attributed ? pickRuns(&input, over: TextModel(text)) : (stepRuns(over: text), true)
    let what =
      "try document.replace(context: \(contextName), range: \(describe(range)), with:"
      + " \(literal(text))" + (runs.map { ", attributes: \($0)" } ?? "")
      + ", basis: \(describe(basis)), policy: .\(policy))"
    trace(what)
    let old = before()
    let live = try? document.liveContext(contextID)
    let storageID = context?.storage
    let oldVersion = storageID.flatMap { storages[$0]?.version } ?? 0
    let oldExcluded = storageID.flatMap { storages[$0]?.excluded } ?? []
    let oldLength = storageID.map { length($0) } ?? 0
    // Without basis the replacement is predictable, and so is its refusal.
    var expected: Range<Int>? = nil
    var mustSucceed = false
    if let live, let storage = storageID.flatMap({ storages[$0] }),
      basis == nil || basis == context?.version
    {
      let start = live.storageRange.lowerBound
      if range.lowerBound >= 0 && range.upperBound <= live.storageRange.count {
        let target = (start + range.lowerBound)..<(start + range.upperBound)
        expected = target
        let onBoundaries =
          storage.text.boundary(target.lowerBound, .utf16) != nil
          && storage.text.boundary(target.upperBound, .utf16) != nil
        let excluded =
          target.isEmpty
          ? target.lowerBound > 0 && target.lowerBound < oldExcluded.count
            && oldExcluded[target.lowerBound - 1] && oldExcluded[target.lowerBound]
          : oldExcluded[target].contains(true)
        mustSucceed = onBoundaries && !excluded && runsValid
      }
    }
    let options = session?.options ?? .plainText
    do {
      let result = try document.replace(
        context: contextID, range: range, with: text, attributes: runs,
        basis: basis.map { ContextVersion($0) }, policy: policy)
      expect(runsValid, "\(what) accepted hostile attributes")
      trace("  // landed at \(describe(result.storageRange)), \(result.events.count) events")
      guard var session, var replaced = session.contexts[contextID], let live,
        let storageID
      else { oracleFailed("\(what) succeeded for a context that is not live") }
      expect(result.storage == storageID, "\(what): replaced in \(describe(result.storage))")
      let n = text.utf16.count
      expect(
        result.storageRange.count == n, "\(what): landed at \(result.storageRange) for \(n) units")
      if let expected {
        expect(
          result.storageRange.lowerBound == expected.lowerBound,
          "\(what): landed at \(result.storageRange), expected at \(expected.lowerBound)")
      }
      let noOp = range.isEmpty && text.isEmpty
      // With the history recording, the replacement is a group of the main
      // history (the streaming phase's, in one), its edits followed in it.
      let toolGroup = noOp ? nil : toolGroupForReplacement(&session)
      history.sessionEdit = .replacement
      let records = follow(
        storageID, from: oldVersion, text: text, what,
        newUnits: runs.map { runs in
          { replacementUnit($0, inherited: $1, runs: runs, options: options) }
        })
      history.recording = .none
      history.linking = false
      history.sessionEdit = .others
      expectTracked(result.tracked, what)
      guard let storage = storages[storageID] else { oracleFailed("\(what): storage vanished") }
      if let expected, records == nil {
        // No records: the exact prediction.
        var model = TextModel(String(old.content.storages[storageID]?.text ?? Rope()))
        _ = model.replace(utf16: expected, with: text)
        expect(model == storage.text, "\(what): text is not the predicted one")
      }
      if !text.isEmpty {
        expect(
          storage.text.string(utf16: result.storageRange) == text,
          "\(what): \(literal(text)) is not at \(result.storageRange) in"
            + " \(literal(storage.text.string))")
      }
      // Where it landed held no excluded text (before the change).
      let deleted = oldLength + n - storage.text.utf16.count
      let landed = result.storageRange.lowerBound..<(result.storageRange.lowerBound + deleted)
      let p = landed.lowerBound
      if deleted == 0 && records?.count == 1 && p > 0 && p < oldExcluded.count {
        expect(
          !(oldExcluded[p - 1] && oldExcluded[p]), "\(what) inserted inside excluded text at \(p)")
      }
      if deleted > 0 && landed.upperBound <= oldExcluded.count {
        expect(
          !oldExcluded[landed].contains(true) || records.map({ $0.count > 1 }) ?? true,
          "\(what) replaced excluded text at \(landed)")
      }
      // The replaced context: its text changes by the records, relative to
      // its start; it heard no event of its own.
      if noOp {
        expect(
          result.contextVersion.rawValue == replaced.version,
          "\(what): a no-op bumped the context")
      } else {
        expect(
          result.contextVersion.rawValue == replaced.version + 1,
          "\(what): context version \(replaced.version) -> \(result.contextVersion)")
        if let records {
          for record in records {
            let r = record.range
            let start = live.storageRange.lowerBound
            let relative = (r.lowerBound - start)..<(r.upperBound - start)
            expect(
              relative.lowerBound >= 0 && relative.upperBound <= replaced.text.utf16.count
                && replaced.text.replace(
                  utf16: relative, with: record.insertedLength == 0 ? "" : text),
              "\(what): record \(r) is outside context \(live.storageRange)")
          }
        } else if let now = try? document.liveContext(contextID) {
          replaced.text = TextModel(String(now.text))
        }
        replaced.version = result.contextVersion.rawValue
        session.contexts[contextID] = replaced
        self.session = session
        if session.streaming != nil {
          self.session?.streaming? += 1
        } else if let toolGroup {
          // The history's group: it ends the person's (the limit applies).
          pushToolGroup(toolGroup)
        } else {
          // A tool's group ends the person's.
          history.runs[.person] = nil
          undoStack.append(.session)
        }
        // A new group clears the redo stack (accepted suggestions' and the
        // person's too).
        clearMainRedo()
        session = self.session ?? session
      }
      self.session = session
      apply(result.events, what, skipping: contextID)
    } catch {
      expect(!mustSucceed, "\(what) threw \(error) for a valid replacement without basis")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// Values of every kind, some of them hostile (a value of another kind
  /// for its key, an empty or unknown inline intent, a malformed block).
  static let attributeValues: [(AttributeKey, AttributeValue, valid: Bool)] = [
    (.inlinePresentationIntent, .inlinePresentationIntent(.stronglyEmphasized), true),
    (.inlinePresentationIntent, .inlinePresentationIntent([.emphasized, .code]), true),
    (.link, .link("https://example.com/\u{1F600}"), true),
    (
      .presentationIntent,
      .presentationIntent(PresentationIntent([.init(.header(level: 2), identity: 1)])), true
    ),
    (
      .presentationIntent,
      .presentationIntent(
        PresentationIntent([
          .init(.unorderedList, identity: 2), .init(.listItem(ordinal: 1), identity: 3),
          .init(.paragraph, identity: 4),
        ])), true
    ),
    (
      .presentationIntent,
      .presentationIntent(
        PresentationIntent([
          .init(.table(columns: [.left, .center]), identity: 5),
          .init(.tableRow(rowIndex: 0), identity: 6),
          .init(.tableCell(columnIndex: 1), identity: 7),
        ])), true
    ),
    ("font", .string("Menlo"), true), ("size", .integer(12), true), ("x", .boolean(false), true),
    (.link, .integer(1), false), (.inlinePresentationIntent, .inlinePresentationIntent([]), false),
    (
      .inlinePresentationIntent, .inlinePresentationIntent(InlinePresentationIntent(rawValue: 8)),
      false
    ),
    ("font", .link("x"), false),
    (.presentationIntent, .presentationIntent(PresentationIntent([])), false),
    (
      .presentationIntent,
      .presentationIntent(PresentationIntent([.init(.header(level: 0), identity: 1)])), false
    ),
  ]

  /// The valid values, for the attributes the plain operations give
  /// without reading input (so that inputs decode as they always did).
  static let validAttributeValues = attributeValues.filter(\.valid)

  /// Attributes chosen by the step number, or nil (the edit rule): what the
  /// person's and origins' edits give, without reading input.
  func stepAttributes() -> Attributes? {
    switch step % 4 {
    case 0: return nil
    case 1: return [:]
    default:
      let values = Self.validAttributeValues
      var set: Attributes = [:]
      // Two picks, the second winning where both name one key.
      for (key, value, _) in [values[step % values.count], values[(step / 3) % values.count]] {
        set[key] = value
      }
      return set
    }
  }

  /// Runs over a replacement's `text` chosen by the step number, or nil:
  /// what a plain replacement gives, without reading input.
  func stepRuns(over text: String) -> [AttributeRun]? {
    let n = text.utf16.count
    guard step % 3 != 0, let attributes = stepAttributes() else { return nil }
    let model = TextModel(text)
    let middle = model.utf16Bounds[model.scalars.count / 2]
    return [AttributeRun(0..<middle, attributes), AttributeRun(middle..<n, [.link: .link("m")])]
  }

  /// A set of attributes, and whether every value is valid for its key.
  func pickAttributes(_ input: inout FuzzInput) -> (Attributes, valid: Bool) {
    var set: Attributes = [:]
    var valid = true
    for _ in 0..<input.int(below: 3) {
      let (key, value, ok) = input.pick(Self.attributeValues)
      if !ok && input.byte() % 4 != 0 { continue }
      set[key] = value
      valid = valid && ok
    }
    // A key given twice keeps its last value: whether the set is valid
    // depends on what stayed.
    valid = set.allSatisfy { key, value in
      Self.attributeValues.contains { $0.0 == key && $0.1 == value && $0.valid }
    }
    return (set, valid)
  }

  /// Runs over `text`, mostly valid (in order, on scalar boundaries), and
  /// whether they are.
  func pickRuns(_ input: inout FuzzInput, over text: TextModel) -> ([AttributeRun]?, Bool) {
    var runs: [AttributeRun] = []
    var valid = true
    var start = 0
    let bounds = text.utf16Bounds
    for _ in 0..<input.int(below: 3) {
      let (set, ok) = pickAttributes(&input)
      let hostile = input.byte() % 8 == 0
      let range: Range<Int>
      if hostile {
        range = input.range(length: text.utf16.count + 2)
      } else {
        let lower = bounds.firstIndex { $0 >= start } ?? bounds.count - 1
        let a = lower + input.int(below: bounds.count - lower)
        let b = a + input.int(below: bounds.count - a)
        range = bounds[a]..<bounds[b]
      }
      let inOrder =
        range.lowerBound >= start && range.upperBound <= text.utf16.count
        && text.boundary(range.lowerBound, .utf16) != nil
        && text.boundary(range.upperBound, .utf16) != nil
      valid = valid && ok && inOrder
      runs.append(AttributeRun(range, set))
      start = max(start, range.upperBound)
    }
    return (runs, valid)
  }

  /// Whether `range` is a UTF-16 range of storage `id`'s text on scalar
  /// boundaries (false for a storage that does not exist).
  func isOnBoundaries(_ range: Range<Int>, in id: StorageID) -> Bool {
    storages[id].map {
      $0.text.boundary(range.lowerBound, .utf16) != nil
        && $0.text.boundary(range.upperBound, .utf16) != nil
    } ?? false
  }

  /// The person sets attributes over a range: no version, no event.
  func setAttributes(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let range = pickRange(&input, in: id)
    var values: [AttributeKey: AttributeValue?] = pickAttributes(&input).0.mapValues { $0 }
    if input.bool() { values[input.pick(Self.attributeValues).0] = .some(nil) }
    // Valid when every value left is one its key takes (a removal always is).
    let validValues = values.allSatisfy { key, value in
      value.map { value in
        Self.attributeValues.contains { $0.0 == key && $0.1 == value && $0.valid }
      }
        ?? true
    }
    let what =
      "try document.setAttributes(\(values), in: \(describe(id)), range: \(describe(range)))"
    trace(what)
    let old = before()
    let valid =
      validValues
      && isOnBoundaries(range, in: id)
    do {
      try document.setAttributes(values, in: id, range: range)
      guard valid, var model = storages[id] else {
        oracleFailed("\(what) accepted a hostile request")
      }
      for i in range {
        for (key, value) in values { model.attributes[i][key] = value }
      }
      storages[id] = model
      session?.attributesSet.insert(model.generation)
      expect(
        storage(id)?.version.rawValue == model.version, "\(what) made a version")
    } catch {
      expect(!valid, "\(what) threw \(error) for a valid request")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// The person's edit (UTF-16) with the attributes of its new text, some
  /// of them hostile.
  func attributedEdit(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let range = pickRange(&input, in: id)
    let text = pickText(&input)
    let (set, validValues) = pickAttributes(&input)
    let what =
      "try document.edit(\(describe(id)), range: \(describe(range)), with: \(literal(text)),"
      + " attributes: \(set))"
    beginEdit(.person, id, range, text.utf16.count)
    trace(what)
    let old = before()
    let valid =
      validValues
      && isOnBoundaries(range, in: id)
    var changed = false
    defer { endEdit(.person, id, range, text.utf16.count, changed: changed) }
    do {
      let result = try document.edit(id, range: range, with: text, attributes: set)
      guard valid, var model = storages[id] else {
        oracleFailed("\(what) accepted a hostile request")
      }
      let n = text.utf16.count
      if range.isEmpty && n == 0 {
        expect(result.events.isEmpty, "\(what): a no-op edit has events")
      } else {
        apply(range, n, to: id, text: text, what, newUnits: { _, _ in set })
        model = storages[id] ?? model
        model.version += 1
        storages[id] = model
        apply(result.events, what)
        personEdited(id)
        keystroke = nil
        changed = true
      }
      expectTracked(result.tracked, what)
    } catch {
      expect(!valid, "\(what) threw \(error) for a valid edit")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func toolSelect(_ input: inout FuzzInput) {
    let (contextID, contextName) = pickContext(&input)
    let length = session?.contexts[contextID]?.text.utf16.count ?? 0
    let ranges = (0..<input.int(below: 3)).map { _ in input.range(length: length) }
    let what =
      "try document.toolSelect(context: \(contextName), ranges: \(ranges.map(describe)))"
    trace(what)
    let old = before()
    let live = try? document.liveContext(contextID)
    do {
      let selection = try document.toolSelect(context: contextID, ranges: ranges)
      guard let live else { oracleFailed("\(what) succeeded for a context that is not live") }
      expect(selection == document.selection, "\(what): returned \(selection)")
      let start = live.storageRange.lowerBound
      let expected = ranges.map {
        SelectionRange(live.storage, (start + $0.lowerBound)..<(start + $0.upperBound))
      }
      expect(selection == expected, "\(what): selection \(selection), expected \(expected)")
    } catch {
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func setState(_ input: inout FuzzInput) {
    let next = input.pick(WritingToolsState.allCases)
    let what = "try document.setWritingToolsState(.\(next))"
    trace(what)
    let old = before()
    do {
      try document.setWritingToolsState(next)
      guard let state = session?.state else {
        oracleFailed("\(what) succeeded without a session")
      }
      expect(state.canMove(to: next), "\(what) from .\(state)")
      if state == .interactiveStreaming && next != .interactiveStreaming {
        // The phase's group goes on the history (a tool's group ends the
        // person's).
        closeStreamingPhase(goesOn: false)
      }
      guard var session else { oracleFailed("\(what): the session vanished") }
      if next == .interactiveStreaming && session.streaming == nil { session.streaming = 0 }
      session.state = next
      self.session = session
      expect(document.writingToolsState == next, "\(what): state")
    } catch {
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// The model after an undo, redo or revert: the changed storages taken
  /// from the engine (their records checked), contexts through the events.
  func followSessionEdit(
    _ versions: [StorageID: Int], _ events: [DocumentEvent], _ what: String
  ) {
    for (id, oldVersion) in versions {
      guard let storage = storage(id), storage.version.rawValue != oldVersion else { continue }
      _ = follow(id, from: oldVersion, text: nil, what)
    }
    apply(events, what)
  }

  /// Whether storage `id` is the session's (there when it started) and
  /// only the tool edited it since.
  func isToolOnly(_ id: StorageID) -> Bool {
    guard let session, let model = storages[id], let start = session.start[id] else {
      return false
    }
    return start.generation == model.generation
      && !session.personEdited.contains(model.generation)
  }

  /// Oracle 4: every storage that only the tool edited is back at its text
  /// of the session start (after a revert: but where the history's rule
  /// took back one of the tool's groups, whose replacements revert then
  /// leaves alone).
  func expectSessionStart(_ what: String, afterRevert: Bool = false) {
    guard let session else { return }
    for (id, model) in storages where isToolOnly(id) {
      if afterRevert && session.ruleTakenBack.contains(model.generation) { continue }
      guard let start = session.start[id] else { continue }
      expect(
        model.text.string == start.text,
        "\(what): \(describe(id)), which only the tool edited, is"
          + " \(literal(model.text.string)), not its text at the session start"
          + " \(literal(start.text))")
      if !session.attributesSet.contains(model.generation),
        let attributes = session.startAttributes[id]
      {
        expect(
          attributeRuns(model.attributes) == attributes,
          "\(what): \(describe(id)), which only the tool edited, has attributes"
            + " \(attributeRuns(model.attributes)), not those of the session start \(attributes)")
      }
    }
  }

  /// Oracle 4: the session's undo, redo and revert leave every storage that
  /// is not the session's (added since it started, or removed and added
  /// again) as it was before the call.
  func expectOthersUnchanged(
    _ old: [StorageID: (generation: Int, text: String)], _ what: String
  ) {
    for (id, model) in storages {
      if session?.start[id]?.generation == model.generation { continue }
      guard let previous = old[id], previous.generation == model.generation else { continue }
      expect(
        model.text.string == previous.text,
        "\(what) changed \(describe(id)), which is not the session's (added since it started):"
          + " \(literal(previous.text)) -> \(literal(model.text.string))")
    }
  }

  /// - Returns: false if FUZZ_AVOID left the call out.
  @discardableResult
  func undo(redo: Bool) -> Bool {
    if redo && Avoid.contains("redo-after-revert") && session?.reverted == true { return false }
    if Avoid.contains("undo-in-empty-streaming-group") && session?.streaming == 0 { return false }
    if Avoid.contains("redo-throws-closes-streaming-group") && redo && redoStack.isEmpty
      && (session?.streaming ?? 0) > 0
    {
      return false
    }
    let what = redo ? "try document.redo()" : "try document.undo()"
    trace(what)
    let old = before()
    let versions = storages.mapValues(\.version)
    let textsBefore = texts()
    let attributesBefore = attributeSnapshot()
    // A streaming phase under way closes its group first (and goes on in
    // a new one), even when the undo then throws; a redo with nothing to
    // redo throws before. Then what the call takes is worked out on copies
    // (a call that throws changes nothing): the history's last group, the
    // session's, an accepted suggestion or the person's or the tool's,
    // moves to the other stack (the person's and the tool's as its
    // inverse). The person's open group ends first, whatever happens.
    history.runs[.person] = nil
    if !(redo && redoStack.isEmpty) { closeStreamingPhase(goesOn: true) }
    var undoStack = self.undoStack
    var redoStack = self.redoStack
    let session = self.session
    let entry = redo ? redoStack.popLast() : undoStack.popLast()
    if let entry {
      if redo { undoStack.append(entry) } else { redoStack.append(entry) }
    }
    do {
      let result = try (redo ? document.redo() : document.undo())
      trace("  // \(result.replacementCount) swapped")
      guard let entry else { oracleFailed("\(what) succeeded with no group to take") }
      self.undoStack = undoStack
      self.redoStack = redoStack
      self.session = session
      if self.session != nil { self.session?.swapped = true }
      switch entry {
      case .accepted(let index):
        // An accepted suggestion's text swapped (Review.swift).
        followAcceptedSwap(index, toOriginal: !redo, result, versions, what)
      case .group(let a):
        // A group of the person's or the tool's, taken back by the history
        // model's rule (History.swift); its inverse goes on the other
        // stack.
        let inverse = followTakeBack(a, result, versions, what)
        if redo {
          self.undoStack[self.undoStack.count - 1] = .group(inverse)
        } else {
          self.redoStack[self.redoStack.count - 1] = .group(inverse)
        }
      case .session:
        // Undo and redo are the session's edits, not the person's.
        history.sessionEdit = .swap
        followSessionEdit(versions, result.events, what)
        history.sessionEdit = .others
        expectTracked(result.tracked, what)
        guard var session = self.session else { oracleFailed("\(what): the session vanished") }
        var snapshot: [StorageID: (generation: Int, text: String)]? = nil
        var attributeSnapshot: [StorageID: [AttributeRun]]? = nil
        if redo {
          snapshot = session.redoSnapshots.popLast()
          attributeSnapshot = session.redoAttributes.popLast()
        } else {
          session.redoSnapshots.append(textsBefore)
          session.redoAttributes.append(attributesBefore)
        }
        self.session = session
        expectOthersUnchanged(textsBefore, what)
        if let snapshot {
          // Redo gives back exactly the text before the undo.
          for (id, model) in storages where isToolOnly(id) {
            guard let then = snapshot[id], then.generation == model.generation else { continue }
            expect(
              model.text.string == then.text,
              "\(what): \(describe(id)), which only the tool edited, is"
                + " \(literal(model.text.string)), not its text before the undo"
                + " \(literal(then.text))"
            )
            if !session.attributesSet.contains(model.generation),
              let attributes = attributeSnapshot?[id]
            {
              expect(
                attributeRuns(model.attributes) == attributes,
                "\(what): \(describe(id)) has attributes \(attributeRuns(model.attributes)), not"
                  + " those before the undo \(attributes)")
            }
          }
        }
      }
      if !redo && self.session != nil && !self.undoStack.contains(.session)
        && !hasSessionGroups
      {
        expectSessionStart(what + " (every group undone)")
      }
    } catch {
      expect(
        entry == nil, "\(what) threw \(error) with a group to take: \(entry.map { "\($0)" } ?? "")")
      expect(
        error == (redo ? .nothingToRedo : .nothingToUndo),
        "\(what) threw \(error), not \(redo ? "nothingToRedo" : "nothingToUndo")")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
    return true
  }

  func revert() {
    if Avoid.contains("revert-after-rule-undo") && revertDoublesADeletion { return }
    let what = "try document.revert()"
    trace(what)
    let old = before()
    let versions = storages.mapValues(\.version)
    let textsBefore = texts()
    let stroke = keystroke
    do {
      let reverted = try document.revert()
      let events = reverted.events
      trace("  // reverted \(reverted.replacementCount)")
      guard self.session != nil else { oracleFailed("\(what) succeeded without a session") }
      // A streaming phase under way closes its group first (and goes on in
      // a new one).
      closeStreamingPhase(goesOn: true)
      guard var session else { oracleFailed("\(what): the session vanished") }
      // Oracle 5: the person's last keystroke, untouched since, stays.
      if let stroke, let model = storages[stroke.storage], model.generation == stroke.generation,
        let oldVersion = versions[stroke.storage],
        let records = records(stroke.storage, since: oldVersion)
      {
        var range = stroke.range
        for record in records {
          let edge = Edge(record)
          expect(
            !edge.touches(range),
            "\(what) touched the person's keystroke \(literal(stroke.text)) at \(range)"
              + " (record \(record.range) -> \(record.insertedLength))")
          range = edge.range(range)
        }
      }
      // Each replacement's original text comes back through the link of
      // the group that holds it, if one does (History.swift).
      history.reverting = history.enabled
      history.sessionEdit = .swap
      followSessionEdit(versions, events, what)
      history.sessionEdit = .others
      history.reverting = false
      // (The ranges its replacements had removed that it brought back.)
      adoptRestored(reverted.restored, touched: reverted.tracked.touched, what)
      expectTracked(reverted.tracked, what)
      if let stroke = keystroke, let model = storages[stroke.storage] {
        expect(
          model.text.string(utf16: stroke.range) == stroke.text,
          "\(what): the person's keystroke \(literal(stroke.text)) is not at \(stroke.range) in"
            + " \(literal(model.text.string))")
      }
      // Revert clears the redo stack (accepted suggestions' and the
      // person's too).
      clearMainRedo()
      session = self.session ?? session
      session.reverted = true
      session.swapped = true
      self.session = session
      expectOthersUnchanged(textsBefore, what)
      expectSessionStart(what, afterRevert: true)
    } catch {
      expect(session == nil, "\(what) threw \(error) in a session")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func mark(_ input: inout FuzzInput) {
    let (contextID, contextName) = pickContext(&input)
    let length = session?.contexts[contextID]?.text.utf16.count ?? 0
    let ranges = (0..<input.int(below: 3)).map { _ in input.range(length: length) }
    let kind: MarkKind = input.bool() ? .hidden : .underline(input.text(maxPieces: 2))
    let what =
      "try document.mark(context: \(contextName), ranges: \(ranges.map(describe)), as: \(kind))"
    trace(what)
    let old = before()
    let live = try? document.liveContext(contextID)
    do {
      let marks = try document.mark(context: contextID, ranges: ranges, as: kind)
      guard let live else { oracleFailed("\(what) succeeded for a context that is not live") }
      expect(marks.count == ranges.count, "\(what): \(marks.count) marks")
      for (mark, range) in zip(marks, ranges) {
        let start = live.storageRange.lowerBound
        expect(
          isValid(TextPosition(live.storage, start + range.lowerBound))
            && isValid(TextPosition(live.storage, start + range.upperBound)),
          "\(what) accepted a range inside a surrogate pair (DESIGN, Bad input)")
        expect(
          mark.storage == live.storage
            && mark.range == (start + range.lowerBound)..<(start + range.upperBound),
          "\(what): mark \(mark) for \(range)")
      }
    } catch {
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func mapAndTouched(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let version = pickVersion(&input, id)
    let storage = self.storage(id)
    let records = records(id, since: version)
    // The length of the text at `version`.
    let oldLength = records.map {
      length(id) - $0.reduce(0) { $0 + $1.insertedLength - $1.range.count }
    }
    let offset = input.offset(length: oldLength ?? length(id))
    // The old `assoc` values (negative is the left side, anything else the
    // right, as the model reads them), so that old inputs decode as before.
    let assoc = input.pick([1, -1, 0, Int.min, Int.max, 2])
    let bias: Bias = assoc < 0 ? .left : .right
    var what =
      "try document.map(\(offset), in: \(describe(id)), from: \(version), bias: .\(bias))"
    trace(what)
    var old = before()
    do {
      let mapped = try document.map(offset, in: id, from: StorageVersion(version), bias: bias)
      trace("  // \(mapped)")
      guard let records, let oldLength else {
        oracleFailed("\(what) answered for an unknown storage or version")
      }
      guard offset >= 0 && offset <= oldLength else {
        oracleFailed("\(what) answered for an offset outside 0...\(oldLength)")
      }
      let expected = sequentialMap(offset, through: records, assoc: assoc)
      expect(
        mapped == expected,
        "\(what) = \(mapped), sequentially \(expected) through"
          + " \(records.map { "\($0.range)->\($0.insertedLength)" })")
    } catch {
      expect(
        storage == nil || records == nil || offset < 0 || offset > (oldLength ?? 0),
        "\(what) threw \(error) for a valid question")
      expectUnchanged(old, what, error)
    }
    let range = input.range(length: oldLength ?? length(id))
    what = "try document.isTouched(\(describe(range)), in: \(describe(id)), since: \(version))"
    trace(what)
    old = before()
    do {
      let touched = try document.isTouched(range, in: id, since: StorageVersion(version))
      trace("  // \(touched)")
      guard let records, let oldLength else {
        oracleFailed("\(what) answered for an unknown storage or version")
      }
      expect(
        range.lowerBound >= 0 && range.upperBound <= oldLength,
        "\(what) answered for a range outside 0...\(oldLength) (DESIGN, Bad input)")
      do {
        let (certainly, possibly) = touches(range, records, oldLength)
        expect(
          (!certainly || touched) && (possibly || !touched),
          "\(what) = \(touched), but the records \(records.map { "\($0.range)->\($0.insertedLength)" })"
            + (certainly ? " deleted in it or left text inserted inside it" : " never touched it"))
      }
    } catch {
      expect(
        storage == nil || records == nil || range.lowerBound < 0
          || range.upperBound > (oldLength ?? 0),
        "\(what) threw \(error) for a known storage and version")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// Whether `records` touched `range` of a text of `length` units: for
  /// certain (a unit of it is gone, or inserted text is inside it now), and
  /// possibly (some record touched it on the way). For an empty range,
  /// both are whether the units on both sides are gone.
  func touches(
    _ range: Range<Int>, _ records: ArraySlice<ChangeRecord>, _ length: Int
  ) -> (certainly: Bool, possibly: Bool) {
    // The units as identities: old ones 0..<length, new ones negative.
    var units = Array(0..<length)
    var fresh = -1
    var possibly = false
    var tracked = range
    for record in records {
      let edge = Edge(record)
      if !range.isEmpty && edge.touches(tracked) { possibly = true }
      tracked = edge.range(tracked)
      let inserted = (0..<record.insertedLength).map { _ in
        fresh -= 1
        return fresh
      }
      guard record.range.lowerBound >= 0 && record.range.upperBound <= units.count else {
        return (false, true)
      }
      units.replaceSubrange(record.range, with: inserted)
    }
    let present = Set(units.filter { $0 >= 0 })
    if range.isEmpty {
      let p = range.lowerBound
      let both = p > 0 && p < length && !present.contains(p - 1) && !present.contains(p)
      return (both, both)
    }
    let allPresent = range.allSatisfy { present.contains($0) }
    var contiguous = true
    if allPresent, let first = units.firstIndex(of: range.lowerBound),
      let last = units.firstIndex(of: range.upperBound - 1)
    {
      contiguous = last - first == range.count - 1
    }
    let certainly = !allPresent || !contiguous
    return (certainly, possibly || certainly)
  }

  func pinOrUnpin(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let version = pickVersion(&input, id)
    if input.bool() {
      let what = "try document.pin(\(describe(id)), version: \(version))"
      trace(what)
      let old = before()
      let known = records(id, since: version) != nil
      do {
        try document.pin(id, version: StorageVersion(version))
        expect(known, "\(what) pinned an unknown version")
      } catch {
        expect(!known, "\(what) threw \(error) for a known version")
        expectUnchanged(old, what, error)
      }
      checkAll(what)
    } else {
      let what = "document.unpin(\(describe(id)), version: \(version))"
      trace(what)
      document.unpin(id, version: StorageVersion(version))
      checkAll(what)
    }
  }

  /// The rest: ending the session, reading, contexts of a snapshot with an
  /// unchecked selection, locating document offsets, removing marks.
  func misc(_ input: inout FuzzInput) {
    switch input.byte() % 9 {
    case 6: setAttributes(&input)
    case 7: attributedEdit(&input)
    case 8: replace(&input, attributed: true)
    case 0:
      trace("document.endSession()")
      document.endSession()
      endSessionInModel()
      checkAll("endSession()")
    case 1:
      let (contextID, contextName) = pickContext(&input)
      let what = "try document.liveContext(\(contextName))"
      trace(what)
      do {
        let live = try document.liveContext(contextID)
        expect(session?.contexts[contextID] != nil, "\(what) answered for a dead context")
        _ = live
      } catch {
        expect(session?.contexts[contextID] == nil, "\(what) threw \(error) for a live one")
      }
    case 2:
      // contexts(for:) on a snapshot, with a selection nobody validated.
      let content = document.content
      let scope = input.pick(ContextScope.allCases)
      let selection = pickSelection(&input)
      var visible: [StorageID: Range<Int>] = [:]
      if input.bool() {
        let id = pickID(&input)
        visible[id] = pickRange(&input, in: id)
      }
      let surrounding = input.offset(length: 3)
      let what =
        "try document.content.contexts(for: .\(scope), selection: \(describeSelection(selection)),"
        + " visible: \(visible), surroundingParagraphs: \(surrounding))"
      trace(what)
      do {
        let contexts = try content.contexts(
          for: scope, selection: selection, visible: visible,
          surroundingParagraphs: surrounding)
        for context in contexts {
          guard let storage = storages[context.storage] else {
            oracleFailed("\(what): a context of a missing storage")
          }
          expect(
            storage.text.string(utf16: context.storageRange) == String(context.text),
            "\(what): a context's text is not its storage range")
        }
      } catch {
        trace("  // threw \(error)")
      }
    case 3:
      let total = order.reduce(0) { $0 + length($1) }
      let offset = input.offset(length: total)
      let bias: Bias = input.bool() ? .left : .right
      let what = "try document.content.locate(\(offset), bias: .\(bias))"
      trace(what)
      do {
        let located = try document.content.locate(offset, bias: bias)
        let (id, local) = (located.storage, located.offset)
        guard let position = order.firstIndex(of: id) else {
          oracleFailed("\(what) located a missing storage")
        }
        let start = order[..<position].reduce(0) { $0 + length($1) }
        expect(
          local >= 0 && local <= length(id) && start + local == offset,
          "\(what) = (\(describe(id)), \(local))")
      } catch {
        expect(
          offset < 0 || offset > total || order.isEmpty,
          "\(what) threw \(error) for an offset in the document")
      }
    case 4:
      let ids: Set<Int>? =
        input.bool()
        ? nil
        : Set(
          (0..<input.int(below: 3)).map { _ in
            input.int(below: 6)
          })
      if let ids {
        trace("document.removeMarks(\(ids.sorted()))")
        document.removeMarks(ids)
        expect(!document.marks.contains { ids.contains($0.id) }, "removeMarks left some")
      } else {
        trace("document.removeAllMarks()")
        document.removeAllMarks()
        expect(document.marks.isEmpty, "removeAllMarks() left some")
      }
      checkAll("removeMarks")
    default:
      if let live = session?.session {
        expect(document.isLive(live), "the model's session is not live")
      }
      _ = document.writingToolsState
      _ = document.visible
    }
  }
}

// MARK: - Entry points

/// The program's entry point (SwiftPM links `main` to `<Module>_main`):
/// libFuzzer's driver, testing `fuzz`.
@_cdecl("FuzzDocument_main")
public func entry(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  runFuzzer(argc, argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  // The first byte: whether the document keeps all history (0 mod 4), and
  // whether the person's and the origins' edits are recorded for undo (the
  // high bit; History.swift).
  let first = input.byte()
  let harness = Harness(keepsAllChanges: first % 4 == 0, recordsHistory: first >= 128)
  harness.run(&input)
  return 0
}
