// The person's and the origins' undo histories (docs/DESIGN.md, "History
// (the person's undo)") in FuzzDocument's model, as
// Tests/DocumentEngineTests/HistoryModelTests.swift models them: every
// UTF-16 unit ever put in a storage is kept, in order, with whether it is
// still there; a group of a party's edits is an action, the units it added
// and removed; undoing it removes the units it added that are still there
// and revives the ones it removed that are not (with the attributes they
// had), and that is a new action, its inverse, which redo takes back by the
// same rule. A unit put in at visible position p goes right before the
// visible unit at p (after every deleted unit before it); a revived unit
// reappears where it always was. A unit a group removes that the group
// itself put in is gone for good. Everyone else's edits (a tool's
// replacements, a preview, an accepted suggestion's swap, the session's
// undo) make fresh units that no history revives.
//
// The person's groups share the document's main undo history with the
// session's groups and the accepted suggestions (`UndoEntry.group`); an
// origin's groups are its own history (`undo(origin:)`). The grouping rules
// are the engine's (same storage, same kind, going on where the group left
// off, on a fixed clock); the model goes on in a party's group only where
// it is certain that the engine does (typing at the end of the last unit
// typed, deleting next to the group's point while nobody else edited the
// storage), and otherwise calls `closeGroup` before the edit.
//
// Only inputs whose first byte has its high bit set record the history
// (`HistoryOptions(maxGroups: nil, maxBytes: nil, clock: { .zero })`);
// the others (every seed and regression before it) run with
// `HistoryOptions(isEnabled: false)`, as they were written for an engine
// whose undo took back only the tools' groups and accepted suggestions. In
// those inputs operation bytes 200...239 are the history operations
// (`historyOperation`).

import DocumentEngine
import FuzzSupport
import TextRope

/// Whose history an edit goes in.
enum HistoryParty: Hashable, CustomStringConvertible {
  case person
  case origin(String)

  var origin: String? {
    if case .origin(let name) = self { return name }
    return nil
  }

  var description: String { origin.map { "origin \(literal($0))" } ?? "the person" }
}

/// A UTF-16 unit of a storage, as the history model knows it.
struct HistoryUnit {
  let id: Int
  var code: UInt16
  var visible = true
  /// Put in by an edit whose text the model did not know (filled in from
  /// the engine's text after it).
  var unknown = false
  /// Its attributes when it was deleted (what reviving it gives back).
  var attributes: Attributes = [:]
}

/// A group of a party's edits, or an undo's or redo's inverse.
struct HistoryAction {
  var added: Set<Int> = []
  var removed: Set<Int> = []
}

/// A party's run of edits in its open group, where the model is certain
/// the engine goes on in it.
struct HistoryRun {
  let storage: StorageID
  let generation: Int
  let deleting: Bool
  /// Deleting: the group's point (while nobody else edited the storage).
  let at: Int
  /// Typing: the last unit typed (the run goes on right after it).
  let lastUnit: Int?
  /// How many edits the storage had after the run's last one.
  let stamp: Int
  let action: Int
}

/// Which history the storage edits being followed go in.
enum HistoryRecording: Equatable {
  case none
  /// A party's new group, made at the first edit that changes something.
  case party(HistoryParty)
  case action(Int)
}

struct HistoryModel {
  /// Whether the input records the person's and origins' history.
  let enabled: Bool
  /// Whether it records it now (`HistoryOptions.isEnabled`, which the
  /// history operations turn off and on again): edits made while it is off
  /// are nobody's, and leave the open groups open.
  var recordingOn = true
  /// `HistoryOptions.maxGroups` (the history operations set it): past it
  /// the oldest groups go.
  var maxGroups: Int? = nil
  /// Every unit of each storage incarnation (by generation), deleted ones
  /// included, in order.
  var units: [Int: [HistoryUnit]] = [:]
  /// The incarnations whose units the model lost (an edit it could not
  /// follow): not checked, and not revived in the model, from then on.
  var lost: Set<Int> = []
  /// How many storage edits each incarnation had (a deletion run goes on
  /// only while nobody else edited the storage).
  var edits: [Int: Int] = [:]
  var actions: [Int: HistoryAction] = [:]
  var nextAction = 0
  var nextUnit = 0
  var originUndo: [String: [Int]] = [:]
  var originRedo: [String: [Int]] = [:]
  var runs: [HistoryParty: HistoryRun] = [:]
  var recording: HistoryRecording = .none
  /// While an undo's or redo's edits are followed: the model takes the
  /// group back on its own (``Harness/takeBackInModel(_:)``).
  var byTakeBack = false
  /// While the caller follows the units of an edit without change records
  /// itself.
  var byCaller = false
  /// The last unit the last edit put in.
  var lastInserted: Int? = nil

  init(enabled: Bool) { self.enabled = enabled }

  /// The index in the sequence of the `p`th visible unit (the end if there
  /// is none).
  static func index(ofVisible p: Int, in units: [HistoryUnit]) -> Int {
    var seen = 0
    for (i, unit) in units.enumerated() where unit.visible {
      if seen == p { return i }
      seen += 1
    }
    return units.count
  }

  /// The visible position of unit `id`, if it is there.
  func visiblePosition(of id: Int, generation: Int) -> Int? {
    var seen = 0
    for unit in units[generation] ?? [] where unit.visible {
      if unit.id == id { return seen }
      seen += 1
    }
    return nil
  }
}

extension Harness {
  // MARK: Following every storage edit

  /// A storage incarnation was added with `text`: fresh units, nobody's.
  func historyAdded(_ generation: Int, _ text: String) {
    var units: [HistoryUnit] = []
    for code in text.utf16 {
      units.append(HistoryUnit(id: history.nextUnit, code: code))
      history.nextUnit += 1
    }
    history.units[generation] = units
    history.edits[generation] = 0
  }

  /// Storage `id` (incarnation `generation`) was removed: its runs end.
  func historyRemoved(_ generation: Int) {
    history.units[generation] = nil
    for (party, run) in history.runs where run.generation == generation {
      history.runs[party] = nil
    }
  }

  /// The model lost the units of storage `id` (an edit it could not
  /// follow).
  func loseUnits(_ id: StorageID) {
    guard let generation = storages[id]?.generation else { return }
    if !history.lost.contains(generation) {
      trace("  // the history model loses the units of \(describe(id))")
    }
    history.lost.insert(generation)
    history.units[generation] = nil
    for (party, run) in history.runs where run.generation == generation {
      history.runs[party] = nil
    }
  }

  /// The action that records an edit `r` → `n` units now, if any: a new
  /// group is made at the first edit that changes something.
  func recordingAction(_ r: Range<Int>, _ n: Int) -> Int? {
    switch history.recording {
    case .none: return nil
    case .action(let a): return a
    case .party(let party):
      guard !(r.isEmpty && n == 0) else { return nil }
      let a = openGroup(party)
      history.recording = .action(a)
      return a
    }
  }

  /// A new group of `party`: on its undo stack, its redo stack cleared (the
  /// person's: the main one, the session's groups and accepted suggestions
  /// there too).
  func openGroup(_ party: HistoryParty) -> Int {
    let a = history.nextAction
    history.nextAction += 1
    history.actions[a] = HistoryAction()
    switch party {
    case .person:
      undoStack.append(.group(a))
      clearMainRedo()
    case .origin(let name):
      for dropped in history.originRedo[name] ?? [] { history.actions[dropped] = nil }
      history.originRedo[name] = []
      history.originUndo[name, default: []].append(a)
    }
    enforceGroupLimit()
    return a
  }

  /// The history options the model says the document has.
  var historyOptions: HistoryOptions {
    HistoryOptions(
      isEnabled: history.recordingOn, maxGroups: history.maxGroups, maxBytes: nil,
      clock: { .zero })
  }

  /// Drops the oldest groups while there are more than `maxGroups`: the
  /// one with the lowest number at the bottom of an undo stack (the main
  /// one's first group of the person's, each origin's first), else of a
  /// redo stack. A party's open group dropped is closed.
  func enforceGroupLimit() {
    guard let limit = history.maxGroups else { return }
    while history.actions.count > limit {
      var best: (action: Int, origin: String?, redo: Bool)? = nil
      for redo in [false, true] {
        var candidates: [(Int, String?)] = []
        for entry in redo ? redoStack : undoStack {
          if case .group(let a) = entry {
            candidates.append((a, nil))
            break
          }
        }
        for (name, stack) in redo ? history.originRedo : history.originUndo {
          if let first = stack.first { candidates.append((first, name)) }
        }
        for (a, origin) in candidates {
          if best.map({ ($0.redo ? 1 : 0, $0.action) > (redo ? 1 : 0, a) }) ?? true {
            best = (a, origin, redo)
          }
        }
      }
      guard let best else { return }
      trace("  // the histories drop group \(best.action) (maxGroups \(limit))")
      if let name = best.origin {
        if best.redo {
          history.originRedo[name]?.removeFirst()
        } else {
          history.originUndo[name]?.removeFirst()
        }
      } else if best.redo {
        redoStack.removeAll { $0 == .group(best.action) }
      } else {
        undoStack.removeAll { $0 == .group(best.action) }
      }
      history.actions[best.action] = nil
    }
  }

  /// Clears the main redo stack (a new group of the person's or a tool's,
  /// an accepted suggestion, revert).
  func clearMainRedo() {
    for entry in redoStack {
      if case .group(let a) = entry { history.actions[a] = nil }
    }
    redoStack = []
    session?.redoSnapshots = []
    session?.redoAttributes = []
  }

  /// Follows one storage edit (`r` → `n` units, `text` if the model knows
  /// it) in the units of storage `id`, recorded by the action recording
  /// now; `attributes` are the units' before it.
  func followUnits(
    _ id: StorageID, _ r: Range<Int>, _ n: Int, text: String?, attributes: [Attributes]
  ) {
    guard let generation = storages[id]?.generation else { return }
    history.edits[generation, default: 0] += 1
    guard !history.byTakeBack else { return }
    // The group is made even where the model lost the units: it is on the
    // stack.
    let action = recordingAction(r, n)
    guard !history.lost.contains(generation), var units = history.units[generation] else { return }
    var seen = 0
    for i in units.indices where units[i].visible {
      if seen >= r.lowerBound && seen < r.upperBound {
        units[i].visible = false
        units[i].attributes = seen < attributes.count ? attributes[seen] : [:]
        if let action {
          if history.actions[action]?.added.contains(units[i].id) == true {
            // Its own: gone for good.
            history.actions[action]?.added.remove(units[i].id)
          } else {
            history.actions[action]?.removed.insert(units[i].id)
          }
        }
      }
      seen += 1
    }
    // Before the visible unit now at r.lowerBound.
    let at = HistoryModel.index(ofVisible: r.lowerBound, in: units)
    let codes = text.map { Array($0.utf16) }
    var new: [HistoryUnit] = []
    for k in 0..<n {
      let code = codes.flatMap { $0.count == n ? $0[k] : nil }
      let unit = history.nextUnit
      new.append(HistoryUnit(id: unit, code: code ?? 0, unknown: code == nil))
      if let action { history.actions[action]?.added.insert(unit) }
      history.nextUnit += 1
    }
    history.lastInserted = n > 0 ? history.nextUnit - 1 : nil
    units.insert(contentsOf: new, at: at)
    history.units[generation] = units
    noteAcceptedTouches(generation)
  }

  /// The units of the visible text at `range` of storage `id`, if the model
  /// knows them and there are any.
  func unitsAt(_ id: StorageID, _ range: Range<Int>) -> [Int]? {
    guard !range.isEmpty, let generation = storages[id]?.generation,
      !history.lost.contains(generation), let units = history.units[generation]
    else { return nil }
    let visible = units.filter(\.visible)
    guard range.upperBound <= visible.count else { return nil }
    return visible[range].map(\.id)
  }

  /// Where accepted suggestion `index`'s text is by its units: `nil` if the
  /// model does not know them, `.some(nil)` if an edit touched it.
  func acceptedRangeByUnits(_ index: Int) -> Range<Int>?? {
    let accepted = acceptedSuggestions[index]
    guard let state = accepted.unitState, !history.lost.contains(accepted.generation),
      let units = history.units[accepted.generation]
    else { return nil }
    if state.touched { return .some(nil) }
    var position: [Int: Int] = [:]
    var seen = 0
    for unit in units where unit.visible {
      position[unit.id] = seen
      seen += 1
    }
    guard let first = state.units.first.flatMap({ position[$0] }) else { return .some(nil) }
    for (k, unit) in state.units.enumerated() where position[unit] != first + k {
      return .some(nil)
    }
    return .some(first..<(first + state.units.count))
  }

  /// After a storage edit (one change record, or an undo's in all): each
  /// accepted text of incarnation `generation` whose units it deleted or
  /// put a unit between is touched for good (but the one the edit swaps).
  func noteAcceptedTouches(_ generation: Int) {
    for i in acceptedSuggestions.indices
    where acceptedSuggestions[i].generation == generation
      && acceptedSuggestions[i].unitState?.touched == false && keptByEdit != .accepted(i)
    {
      if case .some(nil) = acceptedRangeByUnits(i) {
        acceptedSuggestions[i].unitState?.touched = true
      }
    }
  }

  /// After the change records of an edit whose text the model did not know
  /// were followed (the storage's text is the engine's now): the units put
  /// in take their codes from it; the others must be where the records
  /// left them.
  func fillUnits(_ id: StorageID, _ what: String) {
    guard let model = storages[id], !history.lost.contains(model.generation),
      var units = history.units[model.generation]
    else { return }
    let codes = model.text.utf16
    var seen = 0
    for i in units.indices where units[i].visible {
      guard seen < codes.count else { break }
      if units[i].unknown {
        units[i].code = codes[seen]
        units[i].unknown = false
      }
      seen += 1
    }
    history.units[model.generation] = units
    checkUnits(of: id, what + " (its change records)")
  }

  /// Oracle 10: every storage's text is its visible units (the history
  /// model's).
  func checkUnits(_ what: String) {
    for id in order { checkUnits(of: id, what) }
    // Without limits the histories keep every group on a stack: the
    // model's (undone ones as their inverses; a redo stack cleared drops
    // its groups).
    let count = document.historyGroupCount
    expect(
      count == history.actions.count,
      "after \(what): the histories keep \(count) groups, the model \(history.actions.count)")
  }

  func checkUnits(of id: StorageID, _ what: String) {
    guard let model = storages[id], !history.lost.contains(model.generation),
      let units = history.units[model.generation]
    else { return }
    let visible = units.filter(\.visible).map(\.code)
    guard visible != model.text.utf16 else { return }
    let expected = String(decoding: visible, as: UTF16.self)
    oracleFailed(
      "after \(what): \(describe(id)) is \(literal(model.text.string)), the history model"
        + " (every unit ever typed, undo and redo by its rule) \(literal(expected))")
  }

  // MARK: Groups

  /// Whether an edit of `party` of `range` (as made) by `n` units certainly
  /// goes on in its open group: the run it goes on with.
  func continuedRun(
    _ party: HistoryParty, _ id: StorageID, _ range: Range<Int>, _ n: Int
  ) -> HistoryRun? {
    guard let run = history.runs[party], run.storage == id,
      let generation = storages[id]?.generation, generation == run.generation,
      !history.lost.contains(generation), history.actions[run.action] != nil
    else { return nil }
    if run.deleting {
      guard n == 0, !range.isEmpty, history.edits[generation] == run.stamp,
        range.upperBound == run.at || range.lowerBound == run.at
      else { return nil }
      return run
    }
    guard n > 0, range.isEmpty, let last = run.lastUnit,
      let p = history.visiblePosition(of: last, generation: generation),
      range.lowerBound == p + 1
    else { return nil }
    return run
  }

  /// Before an edit of `party`: the group it goes in. As made (`range` of
  /// the current text), it goes on in the party's open group where the
  /// model is certain the engine does; otherwise the open group is closed
  /// and the edit makes a new one.
  func beginEdit(_ party: HistoryParty, _ id: StorageID, _ range: Range<Int>?, _ n: Int) {
    guard history.enabled && history.recordingOn else { return }
    if let range, let run = continuedRun(party, id, range, n) {
      history.recording = .action(run.action)
      trace("  // goes on in \(party)'s group \(run.action)")
      return
    }
    closeGroup(party)
    history.recording = .party(party)
  }

  /// After an edit of `party` (`changed`: it made a version): its run goes
  /// on from it (as made), or ends (`range` nil: transformed).
  func endEdit(
    _ party: HistoryParty, _ id: StorageID, _ range: Range<Int>?, _ n: Int, changed: Bool
  ) {
    defer {
      history.recording = .none
      history.lastInserted = nil
    }
    guard history.enabled && history.recordingOn, changed else { return }
    guard case .action(let a) = history.recording, let range,
      let generation = storages[id]?.generation, !history.lost.contains(generation)
    else {
      history.runs[party] = nil
      return
    }
    history.runs[party] = HistoryRun(
      storage: id, generation: generation, deleting: n == 0, at: range.lowerBound,
      lastUnit: n > 0 ? history.lastInserted : nil, stamp: history.edits[generation] ?? 0,
      action: a)
  }

  /// `closeGroup(origin:)`: the party's next edit starts a new group.
  func closeGroup(_ party: HistoryParty) {
    trace("document.closeGroup(origin: \(party.origin.map(literal) ?? "nil"))")
    document.closeGroup(origin: party.origin)
    history.runs[party] = nil
  }

  // MARK: Undo and redo

  /// Takes action `a` back in the model (the units it added that are still
  /// there go, the ones it removed that are not come back): its inverse,
  /// and the units revived (to check their attributes once the engine's
  /// edits are followed). Reads the storages as they are before the undo.
  func takeBackInModel(_ a: Int) -> (inverse: Int, revived: [(StorageID, Int, Attributes)]) {
    let action = history.actions.removeValue(forKey: a) ?? HistoryAction()
    var inverse = HistoryAction()
    var revived: [(StorageID, Int, Attributes)] = []
    for id in order {
      guard let model = storages[id], !history.lost.contains(model.generation),
        var units = history.units[model.generation]
      else { continue }
      var seen = 0
      for i in units.indices {
        let unit = units[i]
        if unit.visible {
          if action.added.contains(unit.id) {
            units[i].visible = false
            units[i].attributes = seen < model.attributes.count ? model.attributes[seen] : [:]
            inverse.removed.insert(unit.id)
          }
          seen += 1
        } else if action.removed.contains(unit.id) {
          units[i].visible = true
          inverse.added.insert(unit.id)
          revived.append((id, unit.id, unit.attributes))
        }
      }
      history.units[model.generation] = units
      noteAcceptedTouches(model.generation)
    }
    let id = history.nextAction
    history.nextAction += 1
    history.actions[id] = inverse
    return (id, revived)
  }

  /// After the engine took a group of the person's or an origin's back:
  /// follows its edits (through the change records, or from the engine's
  /// text), takes the group back in the model, checks what the model says
  /// (the text, in `checkAll`; the revived units' attributes; its
  /// edits, reasons and selection).
  ///
  /// - Returns: the inverse.
  func followTakeBack(
    _ a: Int, _ result: UndoResult, _ versions: [StorageID: Int], _ what: String
  ) -> Int {
    trace("  // takes back group \(a): \(result.replacementCount) edits")
    let (inverse, revived) = takeBackInModel(a)
    history.byTakeBack = true
    followSessionEdit(versions, result.events, what)
    history.byTakeBack = false
    expectTracked(result.tracked, what)
    expectReasons(result.events, [.undoRedo], what)
    var made = 0
    for (id, old) in versions {
      guard let now = storages[id]?.version, now != old else { continue }
      made += now - old
      // Undo and redo are the person's kind of edit (or the origin's).
      personEdited(id)
    }
    expect(
      result.replacementCount == made,
      "\(what) says it made \(result.replacementCount) edits; the storages have \(made) new"
        + " versions")
    for (id, unit, attributes) in revived {
      guard let model = storages[id],
        let p = history.visiblePosition(of: unit, generation: model.generation),
        p < model.attributes.count
      else { continue }
      expect(
        model.attributes[p] == attributes,
        "\(what): the unit revived at \(p) of \(describe(id)) has attributes"
          + " \(model.attributes[p]), not those it had when it was deleted \(attributes)")
    }
    expect(
      result.selection == document.selection,
      "\(what): the result's selection \(result.selection) is not the document's"
        + " \(document.selection)")
    return inverse
  }

  /// `undo(origin:)` or `redo(origin:)`: that origin's last group (or
  /// undone group).
  func undoOrigin(_ origin: String, redo: Bool) {
    let what =
      redo
      ? "try document.redo(origin: \(literal(origin)))"
      : "try document.undo(origin: \(literal(origin)))"
    trace(what)
    let old = before()
    let versions = storages.mapValues(\.version)
    // The origin's open group ends, whatever happens.
    history.runs[.origin(origin)] = nil
    let a = redo ? history.originRedo[origin]?.last : history.originUndo[origin]?.last
    do {
      let result = try redo ? document.redo(origin: origin) : document.undo(origin: origin)
      guard let a else { oracleFailed("\(what) succeeded with nothing to take") }
      if redo {
        history.originRedo[origin]?.removeLast()
      } else {
        history.originUndo[origin]?.removeLast()
      }
      let inverse = followTakeBack(a, result, versions, what)
      if redo {
        history.originUndo[origin, default: []].append(inverse)
      } else {
        history.originRedo[origin, default: []].append(inverse)
      }
    } catch {
      expect(a == nil, "\(what) threw \(error) with group \(a ?? -1) to take")
      expect(
        error == (redo ? .nothingToRedo : .nothingToUndo),
        "\(what) threw \(error), not \(redo ? "nothingToRedo" : "nothingToUndo")")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  // MARK: Operations

  /// One of the history operations (`k` in 0..<40: operation bytes
  /// 200...239 of an input that records the history).
  func historyOperation(_ k: Int, _ input: inout FuzzInput) {
    switch k {
    case 0..<12: typeOn(&input, party: .person)
    case 12..<18: typeOn(&input, party: .origin(input.pick(Self.historyOrigins)))
    case 18..<23: undoOrigin(input.pick(Self.historyOrigins), redo: false)
    case 23..<26: undoOrigin(input.pick(Self.historyOrigins), redo: true)
    case 26..<29:
      closeGroup(.person)
      checkAll("closeGroup()")
    case 29:
      closeGroup(.origin(input.pick(Self.historyOrigins)))
      checkAll("closeGroup(origin:)")
    case 30, 35:
      if k == 30 {
        // Recording off (or on again): edits are nobody's meanwhile; undo
        // and redo still take the groups kept.
        history.recordingOn.toggle()
      } else {
        // A limit (lowering it drops the oldest groups at once).
        history.maxGroups = [nil, 0, 1, 2, 3, 5, 8, nil][input.int(below: 8)]
      }
      let what =
        "document.historyOptions = HistoryOptions(isEnabled: \(history.recordingOn),"
        + " maxGroups: \(describe(history.maxGroups)), maxBytes: nil, clock: { .zero })"
      trace(what)
      document.historyOptions = historyOptions
      enforceGroupLimit()
      checkAll(what)
    case 31..<35: undo(redo: false)
    default: undo(redo: true)
    }
  }

  /// The origins of the history operations: mostly two, so that their
  /// groups meet.
  static let historyOrigins = ["peer", "peer", "a", "a", "", "\u{1F600}"]

  /// The party types on in its run (at the end of what it typed last, or
  /// deleting next to where it deleted), or starts a new run somewhere.
  func typeOn(_ input: inout FuzzInput, party: HistoryParty) {
    var target: (id: StorageID, range: Range<Int>, text: String)? = nil
    if let run = history.runs[party], let model = storages[run.storage],
      model.generation == run.generation, !history.lost.contains(run.generation)
    {
      let bounds = model.text.utf16Bounds
      if !run.deleting, let last = run.lastUnit,
        let p = history.visiblePosition(of: last, generation: run.generation)
      {
        target = (run.storage, (p + 1)..<(p + 1), nonEmptyText(&input))
      } else if run.deleting, history.edits[run.generation] == run.stamp {
        if input.bool() {
          if let b = bounds.last(where: { $0 < run.at }) { target = (run.storage, b..<run.at, "") }
        } else if let b = bounds.first(where: { $0 > run.at }) {
          target = (run.storage, run.at..<b, "")
        }
      }
    }
    if target == nil {
      // A new run: where another party's run is (at the end of what it
      // typed, or its point), at a seam (a place where deleted units wait),
      // or anywhere.
      var id = pickID(&input)
      var point: Int? = nil
      switch input.byte() % 4 {
      case 0:
        let others = history.runs.filter { $0.key != party }.values.sorted {
          ($0.action, $0.at) < ($1.action, $1.at)
        }
        if !others.isEmpty {
          let run = input.pick(others)
          if storages[run.storage]?.generation == run.generation {
            id = run.storage
            point =
              run.lastUnit.flatMap {
                history.visiblePosition(of: $0, generation: run.generation).map { $0 + 1 }
              } ?? run.at
          }
        }
      case 1:
        let seams = seamsOf(id)
        if !seams.isEmpty { point = input.pick(seams) }
      default: break
      }
      guard let text = storages[id]?.text else { return }
      var range = Self.validRange(&input, in: text)
      if let point, text.boundary(point, .utf16) != nil {
        range = point..<point
      }
      if input.byte() % 3 == 0 {
        if range.isEmpty {
          // Delete a scalar next to the point.
          let bounds = text.utf16Bounds
          let p = range.lowerBound
          if input.bool() {
            guard let b = bounds.last(where: { $0 < p }) else { return }
            range = b..<p
          } else {
            guard let b = bounds.first(where: { $0 > p }) else { return }
            range = p..<b
          }
        }
        target = (id, range, "")
      } else {
        target = (id, range, nonEmptyText(&input))
      }
    }
    guard let (id, range, text) = target else { return }
    switch party {
    case .person: personEdit(id, range, text)
    case .origin(let name):
      performOriginEdit(
        id, origin: name, basis: nil, range: range, text: text, attributes: stepAttributes())
    }
  }

  /// The visible offsets of storage `id` where deleted units wait (before
  /// the visible unit there), if the model knows its units.
  func seamsOf(_ id: StorageID) -> [Int] {
    guard let generation = storages[id]?.generation, !history.lost.contains(generation),
      let units = history.units[generation]
    else { return [] }
    var seams: [Int] = []
    var seen = 0
    var waiting = false
    for unit in units {
      if unit.visible {
        if waiting { seams.append(seen) }
        waiting = false
        seen += 1
      } else {
        waiting = true
      }
    }
    if waiting { seams.append(seen) }
    return seams
  }

  /// Text of one or two pieces, never empty.
  func nonEmptyText(_ input: inout FuzzInput) -> String {
    let text = input.text(maxPieces: 2)
    return text.isEmpty ? "a" : text
  }

  /// The person's plain edit of a valid range: exactly predictable.
  func personEdit(_ id: StorageID, _ range: Range<Int>, _ text: String) {
    let attributes = stepAttributes()
    let n = text.utf16.count
    beginEdit(.person, id, range, n)
    let what =
      "try document.edit(\(describe(id)), range: \(describe(range)), with: \(literal(text))"
      + (attributes.map { ", attributes: \($0)" } ?? "") + ")"
    trace(what)
    let old = before()
    var changed = false
    do {
      let result = try document.edit(id, range: range, with: text, attributes: attributes)
      trace("  // version \(result.version), range \(describe(result.range))")
      expect(
        result.range == range.lowerBound..<(range.lowerBound + n),
        "\(what): landed at \(result.range)")
      if !(range.isEmpty && n == 0) {
        apply(
          range, n, to: id, text: text, what, newUnits: attributes.map { set in { _, _ in set } })
        storages[id]?.version += 1
        apply(result.events, what)
        personEdited(id)
        changed = true
        if n > 0, let generation = storages[id]?.generation {
          keystroke = Keystroke(
            storage: id, generation: generation, range: result.range, text: text)
        }
      }
      expectReasons(result.events, [.typing], what)
      expectTracked(result.tracked, what)
    } catch {
      expect(!isOnBoundaries(range, in: id), "\(what) threw \(error) for a valid edit")
      expectUnchanged(old, what, error)
    }
    endEdit(.person, id, range, n, changed: changed)
    checkAll(what)
  }
}
