// Suggestions and review (docs/DESIGN.md, "Suggestions and review") in
// FuzzDocument's model: each suggestion's range mapped on its own through
// every storage edit (a host range with `onTouch: .remove`, Tracked.swift),
// its preview (what it replaced, text and attributes), the ignored kinds and
// texts, the accepted suggestions and the document's one undo history; the
// operations that suggest, preview, accept, reject and ask, with live, gone
// and forged ids; and the checks after every call (oracle 9 in main.swift).

import DocumentEngine
import FuzzSupport
import TextRope

/// A suggestion as the model knows it.
struct SuggestionModel {
  let id: SuggestionID
  let storage: StorageID
  /// Its text's range, mapped as a host range with `onTouch: .remove` is
  /// (a point if it was empty when added).
  var tracked: TrackedModel
  let kind: SuggestionKind
  let explanation: String
  let candidates: [SuggestionCandidate]
  /// While a candidate is previewed: which, and the text it replaced, with
  /// the attributes of each unit, and the history model's units of it (nil
  /// if it lost them): what an accept's group puts back, with the history
  /// recording.
  var preview: (candidate: Int, text: String, attributes: [Attributes], units: [Int]?)? = nil

  var range: Range<Int> { tracked.range }
}

/// A rejected suggestion's kind and text.
struct IgnoredSuggestion: Hashable {
  let kind: SuggestionKind
  let text: String
}

/// An accepted suggestion, for undo and redo.
struct AcceptedModel {
  let storage: StorageID
  let generation: Int
  /// Where its text is: an engine's follower (no point, expanding at
  /// neither end, a start that passes the end takes it along), gone
  /// (`nil`) once an edit touched it or its storage was removed.
  var tracked: TrackedModel?
  /// The text it replaced, and the text it put in, with their attributes.
  let original: (text: String, attributes: [Attributes])
  let accepted: (text: String, attributes: [Attributes])
  var undone = false
  /// Whether an edit of its storage could not be followed (no change
  /// records): its undo and redo are then checked by property, unless its
  /// units say where it is.
  var unknown = false
  /// The history model's units of its text (History.swift), while they are
  /// known and it has any, and whether an edit touched it (deleted one of
  /// them or put a unit between them): where it is, and whether it is still
  /// there untouched, is then their word too, whatever the change records.
  var unitState: (units: [Int], touched: Bool)? = nil
}

/// One group of the document's undo history.
enum UndoEntry: Equatable {
  /// A group of the session's replacements made while the history did not
  /// record (it goes when the session ends).
  case session
  /// An accepted suggestion (its index in `acceptedSuggestions`).
  case accepted(Int)
  /// A group of the person's edits or of the tool's replacements (made
  /// while the history recorded: it stays after the session), or its undo
  /// (an action of the history model, History.swift).
  case group(Int)
}

/// What the engine's own edit keeps out of the mapping, and puts over its
/// new text.
enum KeptRange: Equatable {
  case suggestion(SuggestionID)
  case accepted(Int)
}

func describe(_ candidate: SuggestionCandidate) -> String {
  "SuggestionCandidate(\(literal(candidate.text))"
    + (candidate.attributes.map { ", attributes: \($0)" } ?? "") + ")"
}

func describe(_ proposal: ProposedSuggestion) -> String {
  "ProposedSuggestion(\(describe(proposal.range)), kind: \(literal(proposal.kind.rawValue)),"
    + " explanation: \(literal(proposal.explanation)), candidates: ["
    + proposal.candidates.map { describe($0) }.joined(separator: ", ") + "])"
}

func describe(_ suggestion: Suggestion) -> String {
  "\(suggestion.id.rawValue) \(describe(suggestion.storage)) \(describe(suggestion.range))"
    + (suggestion.contextRange.map { " (context \(describe($0)))" } ?? "")
    + " \(literal(suggestion.kind.rawValue)) \(suggestion.candidates.count) candidates"
    + (suggestion.previewed.map { ", previewing \($0)" } ?? "")
}

func describe(_ models: [SuggestionModel]) -> String {
  "["
    + models.map {
      "\($0.id.rawValue) \(describe($0.storage)) \(describe($0.range))"
        + " \(literal($0.kind.rawValue)) \($0.candidates.count) candidates"
        + ($0.preview.map { ", previewing \($0.candidate)" } ?? "")
    }.joined(separator: "; ") + "]"
}

func describe(_ suggestions: [Suggestion]) -> String {
  "[" + suggestions.map { describe($0) }.joined(separator: "; ") + "]"
}

extension Harness {
  static let suggestionKinds: [SuggestionKind] = [
    .spelling, .grammar, .style, "host's own", "", "\u{1F600}",
  ]
  static let explanations = ["", "Possible spelling mistake", "e\u{301} \u{1F600}"]

  // MARK: The model

  /// The live suggestions' ids, in order.
  var liveSuggestionIDs: [SuggestionID] {
    suggestionModels.values.flatMap(\.keys).sorted()
  }

  /// The storage of suggestion `id` in the model, if it is there.
  func suggestionStorage(of id: SuggestionID) -> StorageID? {
    suggestionModels.first { $0.value[id] != nil }?.key
  }

  func suggestionModel(_ id: SuggestionID) -> SuggestionModel? {
    suggestionStorage(of: id).flatMap { suggestionModels[$0]?[id] }
  }

  func noteDeadSuggestion(_ id: SuggestionID) {
    deadSuggestionIDs.append(id)
    if deadSuggestionIDs.count > 64 {
      deadSuggestionIDs.removeFirst(deadSuggestionIDs.count - 64)
    }
  }

  /// The session ended (or another started): its groups made while the
  /// history did not record leave it; those it recorded (the tool's
  /// groups) and the accepted suggestions stay.
  func forgetSessionGroups() {
    undoStack.removeAll { $0 == .session }
    redoStack.removeAll { $0 == .session }
  }

  /// Storage `id` was removed: its suggestions are gone, and the accepted
  /// ones' undo does nothing from now on.
  func forgetReview(of id: StorageID) {
    for key in (suggestionModels[id] ?? [:]).keys.sorted() { noteDeadSuggestion(key) }
    if let p = previewedSuggestion, suggestionModels[id]?[p] != nil { previewedSuggestion = nil }
    suggestionModels[id] = nil
    for i in acceptedSuggestions.indices where acceptedSuggestions[i].storage == id {
      acceptedSuggestions[i].tracked = nil
    }
  }

  /// Maps every suggestion and accepted text of storage `id` through one
  /// storage edit (but the one the engine's edit keeps); a suggestion the
  /// edit touches is gone, and the result names it.
  func followReview(_ r: Range<Int>, _ n: Int, in id: StorageID) {
    let (s, e) = (r.lowerBound, r.upperBound)
    if var models = suggestionModels[id], !models.isEmpty {
      for (key, model) in models {
        if keptByEdit == .suggestion(key) { continue }
        if let after = model.tracked.mapped(s, e, n).0 {
          models[key]?.tracked = after
        } else {
          models[key] = nil
          trackedTouched.remove(key)
          trackedRemoved.insert(key)
          noteDeadSuggestion(key)
          if previewedSuggestion == key { previewedSuggestion = nil }
        }
      }
      suggestionModels[id] = models
    }
    guard let generation = storages[id]?.generation else { return }
    for i in acceptedSuggestions.indices
    where acceptedSuggestions[i].storage == id && acceptedSuggestions[i].generation == generation {
      if keptByEdit == .accepted(i) { continue }
      // Its range is stale (the engine's word once it is swapped).
      if acceptedSuggestions[i].unknown { continue }
      guard let range = acceptedSuggestions[i].tracked else { continue }
      acceptedSuggestions[i].tracked = range.mapped(s, e, n).0
    }
  }

  /// The text of `range` of storage `id` and the attributes of its units.
  func textAndAttributes(_ id: StorageID, _ range: Range<Int>) -> (
    text: String, attributes: [Attributes]
  ) {
    guard let model = storages[id], let text = model.text.string(utf16: range) else {
      oracleFailed("the model has no text at \(describe(range)) of \(describe(id))")
    }
    return (text, Array(model.attributes[range]))
  }

  /// The engine's own edit (a preview, its taking back, an accept, an
  /// accepted suggestion's undo or redo): `range` of storage `id` replaced
  /// by `text` with `units` (nil: by the edit rule), one storage edit, the
  /// person's kind (as the engine records it); `kept` is not mapped but
  /// put over the new text.
  ///
  /// - Returns: where the new text is.
  @discardableResult
  func reviewEdit(
    _ id: StorageID, _ range: Range<Int>, _ text: String, units: [Attributes]?,
    keeping kept: KeptRange, _ what: String
  ) -> Range<Int> {
    let n = text.utf16.count
    let landed = range.lowerBound..<(range.lowerBound + n)
    if !(range.isEmpty && n == 0) {
      keptByEdit = kept
      apply(range, n, to: id, text: text, what, newUnits: units.map { u in { i, _ in u[i] } })
      keptByEdit = nil
      storages[id]?.version += 1
      personEdited(id)
    }
    switch kept {
    case .suggestion(let sid): suggestionModels[id]?[sid]?.tracked.range = landed
    case .accepted(let i): acceptedSuggestions[i].tracked?.range = landed
    }
    return landed
  }

  /// The attributes of each unit of a candidate's text, if it has runs.
  func candidateUnits(_ candidate: SuggestionCandidate) -> [Attributes]? {
    candidate.attributes.map { units($0, length: candidate.text.utf16.count) }
  }

  /// Takes suggestion `id`'s preview back in the model (text and
  /// attributes exactly), if it has one.
  func takeBackPreview(_ id: SuggestionID, _ what: String) {
    if previewedSuggestion == id { previewedSuggestion = nil }
    guard let model = suggestionModel(id), let preview = model.preview else { return }
    reviewEdit(
      model.storage, model.range, preview.text, units: preview.attributes,
      keeping: .suggestion(id), what)
    suggestionModels[model.storage]?[id]?.preview = nil
  }

  /// Whether taking back the preview under way (of a suggestion other than
  /// `id`, in the same storage) would touch suggestion `id`'s text (a
  /// checker found `id` in the text the person sees); with `anyStorage`,
  /// comparing the ranges whatever their storages.
  func takeBackTouches(_ id: SuggestionID, anyStorage: Bool = false) -> Bool {
    guard let other = previewedSuggestion, other != id, let b = suggestionModel(other),
      let preview = b.preview, let a = suggestionModel(id), anyStorage || a.storage == b.storage
    else { return false }
    return a.tracked.mapped(b.range.lowerBound, b.range.upperBound, preview.text.utf16.count).0
      == nil
  }

  /// Before a preview or an accept of suggestion `id`: the preview of
  /// another suggestion is taken back, text and attributes exactly; unless
  /// that would touch `id`'s text: then it stays as text (as if the person
  /// had typed it) and its suggestion is gone (the result names it).
  func settleOtherPreview(before id: SuggestionID, _ what: String) {
    guard let other = previewedSuggestion, other != id else { return }
    if takeBackTouches(id), let storage = suggestionStorage(of: other) {
      suggestionModels[storage]?[other] = nil
      trackedTouched.remove(other)
      trackedRemoved.insert(other)
      noteDeadSuggestion(other)
      previewedSuggestion = nil
      return
    }
    takeBackPreview(other, what)
  }

  /// Checks that every context event of a review call has one of `reasons`.
  func expectReasons(_ events: [DocumentEvent], _ reasons: [ChangeReason], _ what: String) {
    for event in events {
      if case .textUpdated(_, _, _, _, let reason) = event {
        expect(
          reasons.contains(reason), "\(what): event \(event) has reason \(reason), not \(reasons)")
      }
    }
  }

  /// An accepted suggestion's undo (`toOriginal`) or redo: its text swaps
  /// if it is still there untouched, else nothing happens (count 0).
  func followAcceptedSwap(
    _ index: Int, toOriginal: Bool, _ result: UndoResult, _ versions: [StorageID: Int],
    _ what: String
  ) {
    if storages[acceptedSuggestions[index].storage]?.generation
      == acceptedSuggestions[index].generation,
      let byUnits = acceptedRangeByUnits(index)
    {
      // Its units say where it is, or that an edit touched it; the change
      // records (where the model could follow them) must say the same.
      let record = acceptedSuggestions[index]
      if !record.unknown {
        expect(
          record.tracked?.range == byUnits,
          "\(what): the accepted text of \(describe(record.storage)) is at"
            + " \(record.tracked.map { describe($0.range) } ?? "none (touched)") by the change"
            + " records, at \(byUnits.map(describe) ?? "none (touched)") by its units")
      }
      if let byUnits {
        acceptedSuggestions[index].tracked?.range = byUnits
      } else {
        acceptedSuggestions[index].tracked = nil
      }
      acceptedSuggestions[index].unknown = false
    }
    let record = acceptedSuggestions[index]
    let alive =
      record.tracked != nil && storages[record.storage]?.generation == record.generation
    if record.unknown && alive {
      // The model lost its range: whether it swapped is the engine's word.
      expect(result.replacementCount <= 1, "\(what) swapped \(result.replacementCount) texts")
      if let old = versions[record.storage] {
        _ = follow(record.storage, from: old, text: nil, what)
      }
      if result.replacementCount == 1 {
        acceptedSuggestions[index].undone = toOriginal
        personEdited(record.storage)
      }
      // Where its new text is, the model does not know.
      acceptedSuggestions[index].unitState = nil
      apply(result.events, what)
      expectTracked(result.tracked, what)
      return
    }
    let expected = toOriginal ? record.accepted : record.original
    let target = toOriginal ? record.original : record.accepted
    var swaps = false
    if alive, let range = record.tracked?.range, record.undone != toOriginal,
      storages[record.storage]?.text.string(utf16: range) == expected.text
    {
      swaps = true
      let landed = reviewEdit(
        record.storage, range, target.text, units: target.attributes, keeping: .accepted(index),
        what)
      acceptedSuggestions[index].undone = toOriginal
      acceptedSuggestions[index].unitState = unitsAt(record.storage, landed).map { ($0, false) }
    }
    expect(
      result.replacementCount == (swaps ? 1 : 0),
      "\(what) of an accepted suggestion swapped \(result.replacementCount), the model"
        + " \(swaps ? 1 : 0) (alive \(alive), undone \(record.undone))")
    if !swaps { expect(result.events.isEmpty, "\(what) swapped nothing but has events") }
    expectReasons(result.events, [.undoRedo], what)
    apply(result.events, what)
    expectTracked(result.tracked, what)
  }

  // MARK: Checks after every call

  /// The model's suggestions of storage `id`, in position order (equal
  /// starts by id).
  func expectedSuggestions(_ id: StorageID) -> [SuggestionModel] {
    (suggestionModels[id] ?? [:]).values.sorted {
      ($0.range.lowerBound, $0.id) < ($1.range.lowerBound, $1.id)
    }
  }

  /// Whether `got` is the model's suggestion (`contextRange` as given).
  func matches(_ got: Suggestion, _ model: SuggestionModel, contextRange: Range<Int>? = nil)
    -> Bool
  {
    got.id == model.id && got.storage == model.storage && got.range == model.range
      && got.contextRange == contextRange && got.kind == model.kind
      && got.explanation == model.explanation && got.candidates == model.candidates
      && got.previewed == model.preview?.candidate
  }

  /// Oracle 9: every storage's suggestions are the model's, in order, each
  /// found by id and not as a host range; ids of suggestions gone are
  /// unknown; one preview at most.
  func checkSuggestions(_ what: String) {
    expect(
      Set(suggestionModels.keys) == Set(order),
      "after \(what): suggestions modelled for \(suggestionModels.keys.sorted()), storages"
        + " \(order)")
    var previewing: [SuggestionID] = []
    for id in order {
      let got: [Suggestion]
      do {
        got = try document.suggestions(in: id)
      } catch {
        oracleFailed("after \(what): suggestions(in: \(describe(id))) threw \(error)")
      }
      if trackedResync.contains(id) { resyncSuggestions(id, got, what) }
      let expected = expectedSuggestions(id)
      expect(
        got.count == expected.count && zip(got, expected).allSatisfy { matches($0, $1) },
        "after \(what): the suggestions of \(describe(id)) are \(describe(got)), the model"
          + " \(describe(expected))")
      for model in expected {
        if model.preview != nil { previewing.append(model.id) }
        do {
          let found = try document.suggestion(model.id)
          expect(
            matches(found, model),
            "after \(what): suggestion(\(model.id.rawValue)) = \(describe([found])), the model"
              + " \(describe([model]))")
        } catch {
          oracleFailed("after \(what): suggestion(\(model.id.rawValue)) threw \(error)")
        }
      }
      if let first = expected.first {
        // In the host's id space, but not a host range.
        do {
          let found = try document.trackedRange(first.id)
          oracleFailed(
            "after \(what): trackedRange(\(first.id.rawValue)) of a suggestion found"
              + " \(describe([found]))")
        } catch {
          expect(
            error == .unknownTrackedRange(first.id),
            "after \(what): trackedRange(\(first.id.rawValue)) of a suggestion threw \(error)")
        }
      }
    }
    expect(
      previewing.count <= 1 && previewing.first == previewedSuggestion
        && (previewedSuggestion == nil) == previewing.isEmpty,
      "after \(what): previews \(previewing.map(\.rawValue)), the model's"
        + " \(previewedSuggestion.map { "\($0.rawValue)" } ?? "none")")
    for id in deadSuggestionIDs.suffix(2) {
      do {
        let found = try document.suggestion(id)
        oracleFailed(
          "after \(what): suggestion(\(id.rawValue)) of a suggestion gone found"
            + " \(describe([found]))")
      } catch {
        expect(
          error == .unknownSuggestion(id),
          "after \(what): suggestion(\(id.rawValue)) of a suggestion gone threw \(error)")
      }
    }
  }

  /// Takes storage `id`'s suggestions from the engine (`got`) after an
  /// edit the model could not follow, checking what must hold: none
  /// appears, each keeps its kind, candidates and preview, lies on scalar
  /// boundaries; the accepted texts there are the engine's word from now.
  func resyncSuggestions(_ id: StorageID, _ got: [Suggestion], _ what: String) {
    guard let old = suggestionModels[id], let text = storages[id]?.text else { return }
    trace("  // the suggestions of \(describe(id)) are taken from the engine")
    var now: [SuggestionID: SuggestionModel] = [:]
    for suggestion in got {
      guard var model = old[suggestion.id] else {
        oracleFailed(
          "after \(what): \(describe(id)) has a new suggestion \(describe([suggestion]))")
      }
      expect(
        suggestion.kind == model.kind && suggestion.candidates == model.candidates
          && suggestion.previewed == model.preview?.candidate,
        "after \(what): \(describe([suggestion])) changed its kind, candidates or preview")
      expect(
        text.boundary(suggestion.range.lowerBound, .utf16) != nil
          && text.boundary(suggestion.range.upperBound, .utf16) != nil,
        "after \(what): \(describe([suggestion])) is outside its storage or inside a scalar")
      model.tracked.range = suggestion.range
      now[suggestion.id] = model
    }
    for key in old.keys where now[key] == nil {
      noteDeadSuggestion(key)
      if previewedSuggestion == key { previewedSuggestion = nil }
    }
    suggestionModels[id] = now
    if let generation = storages[id]?.generation {
      for i in acceptedSuggestions.indices
      where acceptedSuggestions[i].storage == id && acceptedSuggestions[i].generation == generation
      {
        acceptedSuggestions[i].unknown = true
      }
    }
  }

  /// Every storage's suggestions as the engine answers (for the check
  /// that a refused request changed none).
  func suggestionSnapshot() -> [StorageID: [Suggestion]] {
    var all: [StorageID: [Suggestion]] = [:]
    for id in order { all[id] = try? document.suggestions(in: id) }
    return all
  }

  func expectSuggestionsUnchanged(
    _ old: [StorageID: [Suggestion]], _ what: String, _ error: DocumentError
  ) {
    let now = suggestionSnapshot()
    for (id, before) in old {
      expect(
        now[id] == before,
        "\(what) threw \(error) but changed the suggestions of \(describe(id)):"
          + " \(describe(before)) -> \(now[id].map { describe($0) } ?? "none")")
    }
  }

  // MARK: Decoding arguments

  /// A suggestion id: a live one mostly (the one previewed sometimes),
  /// else one gone, a host range's, a neighbour of a live one, or an
  /// extreme.
  func pickSuggestionID(_ input: inout FuzzInput) -> SuggestionID {
    let live = liveSuggestionIDs
    let choice = input.byte() % 16
    if choice < 2, let previewed = previewedSuggestion { return previewed }
    if choice < 11 && !live.isEmpty { return input.pick(live) }
    if choice < 13 && !deadSuggestionIDs.isEmpty { return input.pick(deadSuggestionIDs) }
    let host = tracked.values.flatMap(\.keys).sorted()
    if choice == 13 && !host.isEmpty { return input.pick(host) }
    if choice == 14 && !live.isEmpty {
      let near = input.pick(live).rawValue
      return TrackedRangeID(rawValue: near &+ [1, -1, 2, 1 << 32][input.int(below: 4)])
    }
    return TrackedRangeID(rawValue: input.pick([0, 1, -1, 1 << 32, Int.max, Int.min]))
  }

  /// A candidate index for a suggestion with `count` candidates: mostly
  /// one of them, else just past them or far off.
  func pickCandidate(_ input: inout FuzzInput, count: Int) -> Int {
    switch input.byte() % 8 {
    case 0..<6: return count > 0 ? input.int(below: count) : 0
    case 6: return count
    default: return input.pick([-1, Int.min, Int.max, count + 1, 256])
    }
  }

  /// A proposed suggestion over storage `id` (or, with `context`, over the
  /// context's text): its range on scalar boundaries mostly (often where a
  /// suggestion is or a rejected one was), else hostile; a kind; 0 to 3
  /// candidates, plain or with runs; and whether the runs are all valid.
  func pickProposal(
    _ input: inout FuzzInput, in id: StorageID, context: TextModel? = nil
  ) -> (proposal: ProposedSuggestion, runsValid: Bool) {
    let text = context ?? storages[id]?.text
    let choice = input.byte() % 16
    var range: Range<Int>
    var kind: SuggestionKind? = nil
    let rejected = context == nil ? rejectedSuggestions.filter { $0.storage == id } : []
    let live = context == nil ? expectedSuggestions(id) : []
    if choice < 2 && !rejected.isEmpty {
      let again = input.pick(rejected)
      range = again.range
      if input.byte() % 4 != 0 { kind = again.kind }
    } else if choice < 4 && !live.isEmpty {
      range = input.pick(live).range
    } else if let text, choice < 13 {
      if choice < 11 {
        range = Self.validRange(&input, in: text)
      } else {
        let p = text.utf16Bounds[input.int(below: text.utf16Bounds.count)]
        range = p..<p
      }
    } else {
      let length = text?.utf16.count ?? 0
      range = input.range(
        length: length, interesting: text?.interestingOffsets(.utf16, limit: 16) ?? [])
    }
    let picked = kind ?? input.pick(Self.suggestionKinds)
    let explanation = input.pick(Self.explanations)
    var candidates: [SuggestionCandidate] = []
    var valid = true
    for _ in 0..<input.int(below: 4) {
      let candidateText = pickText(&input)
      if input.byte() % 4 == 0 {
        let (runs, ok) = pickRuns(&input, over: TextModel(candidateText))
        valid = valid && ok
        candidates.append(SuggestionCandidate(candidateText, attributes: runs))
      } else {
        candidates.append(SuggestionCandidate(candidateText))
      }
    }
    return (
      ProposedSuggestion(range, kind: picked, explanation: explanation, candidates: candidates),
      valid
    )
  }

  // MARK: Operations

  /// One of the review operations.
  func reviewOperation(_ input: inout FuzzInput) {
    switch input.byte() % 16 {
    case 0, 1: suggest(&input)
    case 2:
      // Suggest, then preview one of them at once.
      let ids = suggest(&input)
      if !ids.isEmpty {
        let id = input.pick(ids)
        preview(
          id, candidate: pickCandidate(&input, count: suggestionModel(id)?.candidates.count ?? 1))
      }
    case 3:
      // Suggest, then accept one of them at once (and undo, redo).
      let ids = suggest(&input)
      if !ids.isEmpty { accept(&input, id: input.pick(ids), thenUndo: input.bool()) }
    case 4: suggestInContext(&input)
    case 5, 6: preview(&input)
    case 7, 8: accept(&input, thenUndo: false)
    case 9: accept(&input, thenUndo: true)
    case 10, 11: reject(&input)
    case 12: querySuggestions(&input)
    case 13: lookUpSuggestion(&input)
    case 14: querySuggestionsInContext(&input)
    default: editAtSuggestion(&input)
    }
  }

  /// What `suggest` must throw for `proposals` over storage `id` (ranges
  /// already in the storage), if anything: the engine checks every range,
  /// then each proposal in turn (its candidates' runs, then whether it is
  /// ignored). `nil` as the error: some error about the runs.
  func expectedSuggestError(
    _ proposals: [(proposal: ProposedSuggestion, runsValid: Bool)], in id: StorageID
  ) -> (fails: Bool, error: DocumentError?) {
    if storages[id] == nil { return (true, .unknownStorage(id)) }
    for (p, _) in proposals where !isTrackable(p.range, in: id) {
      return (true, nil)
    }
    for (p, runsValid) in proposals {
      if !runsValid { return (true, nil) }
      if let text = storages[id]?.text.string(utf16: p.range),
        ignoredSuggestions.contains(IgnoredSuggestion(kind: p.kind, text: text))
      {
        return (true, .ignoredSuggestion(kind: p.kind, text: text))
      }
    }
    return (false, nil)
  }

  /// Adds the model's suggestions for `ids` (just given).
  func addSuggestions(
    _ ids: [SuggestionID], _ proposals: [ProposedSuggestion], in id: StorageID, _ what: String
  ) {
    expect(ids.count == proposals.count, "\(what) gave \(ids.count) ids")
    expect(Set(ids).count == ids.count, "\(what) gave an id twice: \(ids)")
    for (sid, p) in zip(ids, proposals) {
      expect(!givenIDs.contains(sid), "\(what) gave \(sid) again")
      givenIDs.insert(sid)
      suggestionModels[id, default: [:]][sid] = SuggestionModel(
        id: sid, storage: id,
        tracked: TrackedModel(
          id: sid, range: p.range, kind: "", rules: TrackingRules(onTouch: .remove),
          point: p.range.isEmpty),
        kind: p.kind, explanation: p.explanation, candidates: p.candidates)
    }
  }

  @discardableResult
  func suggest(_ input: inout FuzzInput) -> [SuggestionID] {
    var given: [SuggestionID] = []
    let id = pickID(&input)
    let picked = (0..<input.int(below: 4)).map { _ in pickProposal(&input, in: id) }
    let proposals = picked.map(\.proposal)
    let what =
      "try document.suggest([" + proposals.map { describe($0) }.joined(separator: ", ")
      + "], in: \(describe(id)))"
    trace(what)
    let old = before()
    let oldSuggestions = suggestionSnapshot()
    let (fails, error) = expectedSuggestError(picked, in: id)
    do {
      let ids = try document.suggest(proposals, in: id)
      trace("  // \(ids.map(\.rawValue))")
      expect(!fails, "\(what) succeeded; the model expected \(error.map { "\($0)" } ?? "an error")")
      addSuggestions(ids, proposals, in: id, what)
      given = ids
    } catch let thrown {
      expect(fails, "\(what) threw \(thrown) for a valid request")
      if let error {
        expect(thrown == error, "\(what) threw \(thrown), the model \(error)")
      } else {
        switch thrown {
        case .invalidRange(let storage, _): expect(storage == id, "\(what) threw \(thrown)")
        case .invalidAttribute, .overlappingRuns: break
        default: oracleFailed("\(what) threw \(thrown), not an error about its ranges or runs")
        }
      }
      expectUnchanged(old, what, thrown)
      expectSuggestionsUnchanged(oldSuggestions, what, thrown)
    }
    checkAll(what)
    return given
  }

  /// Suggestions over ranges of a live context's text.
  func suggestInContext(_ input: inout FuzzInput) {
    let (contextID, contextName) = pickContext(&input)
    let context = session?.contexts[contextID]
    let live = try? document.liveContext(contextID)
    let storageID = context?.storage ?? pickID(&input)
    let picked = (0..<input.int(below: 3)).map { _ in
      pickProposal(&input, in: storageID, context: context?.text ?? TextModel(""))
    }
    let proposals = picked.map(\.proposal)
    let what =
      "try document.suggest([" + proposals.map { describe($0) }.joined(separator: ", ")
      + "], inContext: \(contextName))"
    trace(what)
    let old = before()
    let oldSuggestions = suggestionSnapshot()
    // The context's ranges, then what suggest(_:in:) checks.
    var fails = false
    var error: DocumentError? = nil
    var mapped: [(proposal: ProposedSuggestion, runsValid: Bool)] = []
    if session == nil {
      (fails, error) = (true, .noSession)
    } else if context == nil || live == nil {
      (fails, error) = (true, .unknownContext(contextID))
    } else if let live {
      let length = live.storageRange.count
      if let outside = proposals.first(where: {
        $0.range.lowerBound < 0 || $0.range.upperBound > length
      }) {
        (fails, error) = (true, .outsideContext(outside.range, length: length))
      } else {
        let start = live.storageRange.lowerBound
        mapped = picked.map { p, ok in
          var q = p
          q.range = (start + p.range.lowerBound)..<(start + p.range.upperBound)
          return (q, ok)
        }
        (fails, error) = expectedSuggestError(mapped, in: live.storage)
      }
    }
    do {
      let ids = try document.suggest(proposals, inContext: contextID)
      trace("  // \(ids.map(\.rawValue))")
      expect(!fails, "\(what) succeeded; the model expected \(error.map { "\($0)" } ?? "an error")")
      guard let live else { oracleFailed("\(what) succeeded for a context that is not live") }
      addSuggestions(ids, mapped.map(\.proposal), in: live.storage, what)
    } catch let thrown {
      expect(fails, "\(what) threw \(thrown) for a valid request")
      if let error {
        expect(thrown == error, "\(what) threw \(thrown), the model \(error)")
      } else {
        switch thrown {
        case .invalidRange, .invalidAttribute, .overlappingRuns: break
        default: oracleFailed("\(what) threw \(thrown), not an error about its ranges or runs")
        }
      }
      expectUnchanged(old, what, thrown)
      expectSuggestionsUnchanged(oldSuggestions, what, thrown)
    }
    checkAll(what)
  }

  /// What a request about suggestion `id` with candidate `candidate` must
  /// throw, if anything (nil candidate: the previewed one, else 0).
  func expectedReviewError(_ id: SuggestionID, candidate: Int??) -> DocumentError? {
    guard let model = suggestionModel(id) else { return .unknownSuggestion(id) }
    if let candidate {
      let chosen = candidate ?? model.preview?.candidate ?? 0
      if chosen < 0 || chosen >= model.candidates.count {
        return .invalidCandidate(chosen, count: model.candidates.count)
      }
    }
    return nil
  }

  /// Whether the request must be left out (FUZZ_AVOID
  /// `settle-other-storage`): the preview under way is in another storage,
  /// at offsets that its taking back would touch in this one.
  func avoidsTakeBack(_ id: SuggestionID) -> Bool {
    Avoid.contains("settle-other-storage") && takeBackTouches(id, anyStorage: true)
      && !takeBackTouches(id)
  }

  func preview(_ input: inout FuzzInput) {
    let id = pickSuggestionID(&input)
    preview(id, candidate: pickCandidate(&input, count: suggestionModel(id)?.candidates.count ?? 1))
  }

  func preview(_ id: SuggestionID, candidate: Int) {
    if avoidsTakeBack(id) { return }
    let what = "try document.preview(\(describe(id)), candidate: \(candidate))"
    trace(what)
    let old = before()
    let oldSuggestions = suggestionSnapshot()
    let error = expectedReviewError(id, candidate: .some(candidate))
    do {
      let result = try document.preview(id, candidate: candidate)
      trace("  // \(describe(result.storageRange)), \(describe(result.tracked))")
      guard error == nil, let model = suggestionModel(id) else {
        oracleFailed("\(what) succeeded; the model expected \(error.map { "\($0)" } ?? "")")
      }
      settleOtherPreview(before: id, what)
      guard let now = suggestionModel(id) else { oracleFailed("\(what): the model lost it") }
      var landed = now.range
      if now.preview?.candidate != candidate {
        let replaced: (text: String, attributes: [Attributes]) =
          now.preview.map { ($0.text, $0.attributes) } ?? textAndAttributes(now.storage, now.range)
        let replacedUnits =
          now.preview.map(\.units) ?? (now.range.isEmpty ? [] : unitsAt(now.storage, now.range))
        let chosen = now.candidates[candidate]
        landed = reviewEdit(
          now.storage, now.range, chosen.text, units: candidateUnits(chosen),
          keeping: .suggestion(id), what)
        suggestionModels[now.storage]?[id]?.preview = (
          candidate, replaced.text, replaced.attributes, replacedUnits
        )
      }
      previewedSuggestion = id
      expect(
        result.storage == model.storage && result.storageRange == landed
          && result.reason == .temporary,
        "\(what) = \(describe(result.storage)) \(describe(result.storageRange))"
          + " \(result.reason), the model \(describe(model.storage)) \(describe(landed))")
      expectReasons(result.events, [.replacement(.temporary)], what)
      apply(result.events, what)
      expectTracked(result.tracked, what)
    } catch let thrown {
      expect(error != nil, "\(what) threw \(thrown) for a valid request")
      expect(thrown == error, "\(what) threw \(thrown), the model \(error.map { "\($0)" } ?? "")")
      expectUnchanged(old, what, thrown)
      expectSuggestionsUnchanged(oldSuggestions, what, thrown)
    }
    checkAll(what)
  }

  /// Accepts a candidate (named, or not); with `thenUndo`, undoes right
  /// after (the original text and attributes exactly) and sometimes redoes
  /// (the accepted ones exactly).
  func accept(_ input: inout FuzzInput, thenUndo: Bool) {
    accept(&input, id: pickSuggestionID(&input), thenUndo: thenUndo)
  }

  func accept(_ input: inout FuzzInput, id: SuggestionID, thenUndo: Bool) {
    let candidate: Int? =
      input.byte() % 3 == 0
      ? nil : pickCandidate(&input, count: suggestionModel(id)?.candidates.count ?? 1)
    let thenRedo = thenUndo && input.bool()
    if avoidsTakeBack(id) { return }
    let what = "try document.accept(\(describe(id)), candidate: \(describe(candidate)))"
    trace(what)
    let old = before()
    let oldSuggestions = suggestionSnapshot()
    let textsBefore = texts()
    let attributesBefore = attributeSnapshot()
    let error = expectedReviewError(id, candidate: .some(candidate))
    // Undo right after gives back exactly the text before the accept when
    // no preview was in the text (else the text before the preview, as the
    // model says).
    let noPreview = previewedSuggestion == nil
    var index: Int? = nil
    var groupMade: Int? = nil
    do {
      let result = try document.accept(id, candidate: candidate)
      trace("  // \(describe(result.storageRange)), \(describe(result.tracked))")
      guard error == nil, let model = suggestionModel(id) else {
        oracleFailed("\(what) succeeded; the model expected \(error.map { "\($0)" } ?? "")")
      }
      let chosen = candidate ?? model.preview?.candidate ?? 0
      settleOtherPreview(before: id, what)
      guard let now = suggestionModel(id) else { oracleFailed("\(what): the model lost it") }
      let original: (text: String, attributes: [Attributes]) =
        now.preview.map { ($0.text, $0.attributes) } ?? textAndAttributes(now.storage, now.range)
      var landed = now.range
      // With the history recording, the accept is a group of the person's
      // on the main history (History.swift): without a preview its edit is
      // recorded; with one, the group takes the text then there as its
      // units and the text the preview replaced as its removed units.
      let recording = history.enabled && history.recordingOn
      var group: Int? = nil
      if recording, now.preview == nil {
        history.runs[.person] = nil
        group = openGroup(.person)
        history.recording = .action(group ?? 0)
      }
      if now.preview?.candidate != chosen {
        let text = now.candidates[chosen]
        landed = reviewEdit(
          now.storage, now.range, text.text, units: candidateUnits(text),
          keeping: .suggestion(id), what)
      }
      if group != nil { history.recording = .none }
      if recording, let preview = now.preview {
        history.runs[.person] = nil
        let a = openGroup(.person)
        group = a
        let added = landed.isEmpty ? [] : unitsAt(now.storage, landed)
        if let added, let removed = preview.units {
          history.actions[a]?.added = Set(added)
          history.actions[a]?.removed = Set(removed)
        } else {
          history.actions[a]?.opaque = true
        }
        trace("  // the person's group \(a) takes the previewed text")
      }
      // The suggestion is done; its text is followed for undo.
      suggestionModels[now.storage]?[id] = nil
      noteDeadSuggestion(id)
      if previewedSuggestion == id { previewedSuggestion = nil }
      if let group {
        groupMade = group
      } else {
        guard let generation = storages[now.storage]?.generation else {
          oracleFailed("\(what): its storage is gone")
        }
        acceptedSuggestions.append(
          AcceptedModel(
            storage: now.storage, generation: generation,
            tracked: TrackedModel(
              id: id, range: landed, kind: "", rules: TrackingRules(onTouch: .remove),
              point: false, collapsesToStart: true),
            original: original,
            accepted: textAndAttributes(now.storage, landed),
            unitState: unitsAt(now.storage, landed).map { ($0, false) }))
        index = acceptedSuggestions.count - 1
        // It ends the person's group, goes on the main history after it, and
        // clears the redo stack.
        history.runs[.person] = nil
        undoStack.append(.accepted(acceptedSuggestions.count - 1))
        clearMainRedo()
      }
      expect(
        result.storage == model.storage && result.storageRange == landed
          && result.reason == .accepted,
        "\(what) = \(describe(result.storage)) \(describe(result.storageRange))"
          + " \(result.reason), the model \(describe(model.storage)) \(describe(landed))")
      expectReasons(result.events, [.replacement(.temporary), .replacement(.accepted)], what)
      apply(result.events, what)
      expectTracked(result.tracked, what)
    } catch let thrown {
      expect(error != nil, "\(what) threw \(thrown) for a valid request")
      expect(thrown == error, "\(what) threw \(thrown), the model \(error.map { "\($0)" } ?? "")")
      expectUnchanged(old, what, thrown)
      expectSuggestionsUnchanged(oldSuggestions, what, thrown)
    }
    checkAll(what)
    guard thenUndo, index != nil || groupMade != nil else { return }
    // Undo right after: the accept is the history's last group unless a
    // streaming phase's group closes first.
    let entry: UndoEntry? = index.map { .accepted($0) } ?? groupMade.map { .group($0) }
    let exact = noPreview && undoStack.last == entry && (session?.streaming ?? 0) == 0
    let textsAccepted = texts()
    let attributesAccepted = attributeSnapshot()
    guard undo(redo: false) else { return }
    if exact {
      expectSame(textsBefore, attributesBefore, "undo() right after \(what)")
    }
    guard thenRedo else { return }
    // (The undo took the accept's group: its inverse is on the redo stack.)
    let redoExact: Bool
    if let index {
      redoExact = exact && redoStack.last == .accepted(index)
    } else if case .group? = redoStack.last {
      redoExact = exact
    } else {
      redoExact = false
    }
    guard undo(redo: true) else { return }
    if redoExact {
      expectSame(textsAccepted, attributesAccepted, "redo() right after undo() after \(what)")
    }
  }

  /// Every storage's text and attributes are `texts` and `attributes`.
  func expectSame(
    _ texts: [StorageID: (generation: Int, text: String)],
    _ attributes: [StorageID: [AttributeRun]], _ what: String
  ) {
    for (id, model) in storages {
      guard let then = texts[id], then.generation == model.generation else { continue }
      expect(
        model.text.string == then.text,
        "\(what): \(describe(id)) is \(literal(model.text.string)), not \(literal(then.text))")
      expect(
        attributeRuns(model.attributes) == attributes[id],
        "\(what): \(describe(id)) has attributes \(attributeRuns(model.attributes)), not"
          + " \(attributes[id] ?? [])")
    }
  }

  func reject(_ input: inout FuzzInput) {
    let id = pickSuggestionID(&input)
    let what = "try document.reject(\(describe(id)))"
    trace(what)
    let old = before()
    let oldSuggestions = suggestionSnapshot()
    let error = expectedReviewError(id, candidate: nil)
    do {
      let result = try document.reject(id)
      trace("  // \(describe(result.storageRange)), \(describe(result.tracked))")
      guard error == nil, let model = suggestionModel(id) else {
        oracleFailed("\(what) succeeded; the model expected \(error.map { "\($0)" } ?? "")")
      }
      let original = model.preview
      takeBackPreview(id, what)
      guard let now = suggestionModel(id) else { oracleFailed("\(what): the model lost it") }
      let text = original?.text ?? textAndAttributes(now.storage, now.range).text
      if let original {
        // What the preview replaced is back, text and attributes exactly.
        let back = textAndAttributes(now.storage, now.range)
        expect(
          back.text == original.text && back.attributes == original.attributes,
          "\(what): the model did not take the preview back")
      }
      suggestionModels[now.storage]?[id] = nil
      noteDeadSuggestion(id)
      ignoredSuggestions.insert(IgnoredSuggestion(kind: now.kind, text: text))
      rejectedSuggestions.append((now.storage, now.range, now.kind))
      if rejectedSuggestions.count > 16 { rejectedSuggestions.removeFirst() }
      expect(
        result.storage == now.storage && result.storageRange == now.range
          && result.reason == .rejected,
        "\(what) = \(describe(result.storage)) \(describe(result.storageRange))"
          + " \(result.reason), the model \(describe(now.storage)) \(describe(now.range))")
      expectReasons(result.events, [.replacement(.rejected)], what)
      apply(result.events, what)
      expectTracked(result.tracked, what)
    } catch let thrown {
      expect(error != nil, "\(what) threw \(thrown) for a valid request")
      expect(thrown == error, "\(what) threw \(thrown), the model \(error.map { "\($0)" } ?? "")")
      expectUnchanged(old, what, thrown)
      expectSuggestionsUnchanged(oldSuggestions, what, thrown)
    }
    checkAll(what)
  }

  /// `suggestions(in:overlapping:)`: a filter of the model, in order.
  func querySuggestions(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let range: Range<Int>? = input.byte() % 4 == 0 ? nil : pickTrackedRange(&input, in: id)
    let what =
      "try document.suggestions(in: \(describe(id)), overlapping: \(range.map(describe) ?? "nil"))"
    trace(what)
    let old = before()
    let valid = storages[id] != nil && range.map { isTrackable($0, in: id) } ?? true
    do {
      let found = try document.suggestions(in: id, overlapping: range)
      trace("  // \(describe(found))")
      expect(valid, "\(what) answered for a bad range or an unknown storage")
      let expected = expectedSuggestions(id).filter { s in
        range.map { s.tracked.overlaps($0) } ?? true
      }
      expect(
        found.count == expected.count && zip(found, expected).allSatisfy { matches($0, $1) },
        "\(what) = \(describe(found)), the model \(describe(expected))")
    } catch {
      expect(!valid, "\(what) threw \(error) for a valid query")
      expect(isRangeError(error, for: id), "\(what) threw \(error), not the error for it")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// `suggestion(_:)` of a live, gone or forged id.
  func lookUpSuggestion(_ input: inout FuzzInput) {
    let id = pickSuggestionID(&input)
    let what = "try document.suggestion(\(describe(id)))"
    trace(what)
    let old = before()
    let expected = suggestionModel(id)
    do {
      let found = try document.suggestion(id)
      trace("  // \(describe([found]))")
      guard let expected else { oracleFailed("\(what) found \(describe([found])), the model none") }
      expect(
        matches(found, expected),
        "\(what) = \(describe([found])), the model \(describe([expected]))")
    } catch {
      expect(expected == nil, "\(what) threw \(error) for a live suggestion")
      expect(error == .unknownSuggestion(id), "\(what) threw \(error)")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// `suggestions(inContext:)`: those inside the context, relative to it.
  func querySuggestionsInContext(_ input: inout FuzzInput) {
    let (contextID, contextName) = pickContext(&input)
    let what = "try document.suggestions(inContext: \(contextName))"
    trace(what)
    let old = before()
    let live = try? document.liveContext(contextID)
    do {
      let found = try document.suggestions(inContext: contextID)
      trace("  // \(describe(found))")
      guard let live, session?.contexts[contextID] != nil else {
        oracleFailed("\(what) answered for a context that is not live")
      }
      let r = live.storageRange
      let expected = expectedSuggestions(live.storage).filter {
        r.lowerBound <= $0.range.lowerBound && $0.range.upperBound <= r.upperBound
      }
      let ok =
        found.count == expected.count
        && zip(found, expected).allSatisfy {
          matches(
            $0, $1,
            contextRange: ($1.range.lowerBound - r.lowerBound)..<($1.range.upperBound
              - r.lowerBound))
        }
      expect(
        ok,
        "\(what) = \(describe(found)), the model (context at \(describe(r)))"
          + " \(describe(expected))")
    } catch {
      if session == nil {
        expect(error == .noSession, "\(what) threw \(error) without a session")
      } else {
        expect(session?.contexts[contextID] == nil, "\(what) threw \(error) for a live context")
        expect(error == .unknownContext(contextID), "\(what) threw \(error)")
      }
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// The person's edit at a suggestion's edge or inside it (an insertion
  /// at either end leaves it; one strictly inside, or a deletion of a unit
  /// of it, removes it): exactly predictable.
  func editAtSuggestion(_ input: inout FuzzInput) {
    let live = liveSuggestionIDs
    guard !live.isEmpty else { return }
    let sid = input.pick(live)
    guard let model = suggestionModel(sid), let text = storages[model.storage]?.text else {
      return
    }
    let r = model.range
    let bounds = text.utf16Bounds.filter { r.lowerBound <= $0 && $0 <= r.upperBound }
    guard !bounds.isEmpty else { oracleFailed("suggestion \(sid) at \(r) is not on scalar bounds") }
    let range: Range<Int>
    switch input.byte() % 6 {
    case 0: range = r.lowerBound..<r.lowerBound
    case 1: range = r.upperBound..<r.upperBound
    case 2:
      let p = input.pick(bounds)
      range = p..<p
    case 3:
      // Across its start (a unit before it and one of it).
      let before = text.utf16Bounds.last { $0 < r.lowerBound } ?? r.lowerBound
      range = before..<(bounds.dropFirst().first ?? r.lowerBound)
    default:
      let a = input.int(below: bounds.count)
      let b = a + input.int(below: bounds.count - a)
      range = bounds[a]..<bounds[b]
    }
    let new = pickText(&input)
    let id = model.storage
    let what =
      "try document.edit(\(describe(id)), range: \(describe(range)), with: \(literal(new)))"
    beginEdit(.person, id, range, new.utf16.count)
    trace(what)
    let old = before()
    var changed = false
    defer { endEdit(.person, id, range, new.utf16.count, changed: changed) }
    do {
      let result = try document.edit(id, range: range, with: new)
      trace("  // version \(result.version), range \(describe(result.range))")
      let n = new.utf16.count
      if !(range.isEmpty && n == 0) {
        apply(range, n, to: id, text: new, what)
        storages[id]?.version += 1
        apply(result.events, what)
        personEdited(id)
        changed = true
        if n > 0, let generation = storages[id]?.generation {
          keystroke = Keystroke(storage: id, generation: generation, range: result.range, text: new)
        }
      }
      expect(
        result.range == range.lowerBound..<(range.lowerBound + n),
        "\(what): landed at \(result.range)")
      expectReasons(result.events, [.typing], what)
      expectTracked(result.tracked, what)
    } catch {
      oracleFailed("\(what) threw \(error) for a valid edit")
    }
    checkAll(what)
  }
}
