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
// itself put in is gone for good. Everyone else's edits (a preview, an
// accepted suggestion's swap, a tool's replacement made while the history
// does not record, the session's undo of such a group) make fresh units
// that no history revives.
//
// A Writing Tools session's tool is a party too (the engine's `.tool`):
// while the history records, each replacement made outside streaming is a
// group, pushed when it is made, and each streaming phase is one, pushed
// when the phase closes (leaving `.interactiveStreaming`, an undo, redo or
// revert during it, the session ending) if it recorded anything. They are
// groups of the main history like the person's, and stay when the session
// ends; undo and redo take them back by the same rule. While the session
// lives, a group whose replacements (its links to them, `ToolLink`) are
// all intact, none made before someone else's edit, swaps them first, one
// edit each, the last first (the model follows the session's replacements
// as the engine does, `SessionReplacement`: their ranges, collapsed and
// put back by the session's own edits, whether someone else's edit
// touched them, and the engine's count of others' edits): by the rule's
// units, except that the text a replacement took out comes back as new
// units where it cannot come back whole (it took out units its own group
// put in) or does not wait at the replacement's range. `revert()` swaps
// through the links too: the text comes back revived where it waits whole
// at the range and nobody else edited since the replacement was made,
// else as new units, and the link is used up (its group keeps nothing of
// those units). Without the recording, the session's groups are
// `UndoEntry.session`, swapped by the session's records and dropped when
// it ends, as before.
//
// The person's groups share the document's main undo history with the
// tool's groups and the accepted suggestions (`UndoEntry.group`); an
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

/// A group of a party's edits (the person's, an origin's, the tool's), or
/// an undo's or redo's inverse.
struct HistoryAction {
  var added: Set<Int> = []
  var removed: Set<Int> = []
  /// It recorded an edit whose units the model did not know (it is not
  /// empty, whatever the sets say).
  var opaque = false

  var isEmpty: Bool { added.isEmpty && removed.isEmpty && !opaque }
}

/// A tool's group's link to one of the live session's replacements (one
/// storage edit of it), or an undo's or redo's that swapped it: the units
/// in place (the edit put them in), the units it took out, and of those the
/// ones it can put back (not its group's own). While the session lives,
/// nobody else edited since the replacement was made and it is intact, the
/// engine swaps its text as one edit, and `revert()` puts `back` back
/// (revived) where the engine finds it waiting at the replacement's start
/// with the whole text it took out.
struct ToolLink {
  let generation: Int
  /// The replacement's index in the session (`sessionReplacements`).
  let replacement: Int
  /// Its storage's `othersEdits` when the replacement was made.
  let othersAtMaking: Int
  var out: [Int]
  var taken: [Int]
  var back: [Int]

  /// Whether the units it took out are all its to put back.
  var whole: Bool { back.count == taken.count }
}

/// One of the live session's replacements (a storage edit of the tool's),
/// as the engine follows it: its tracked range, and whether someone else's
/// edit changed its text since (then it is never swapped again).
struct SessionReplacement {
  let generation: Int
  var range: Range<Int>
  /// Whether it put no text in (its text in place is empty while it is not
  /// undone).
  let deletion: Bool
  /// The units it took out.
  let taken: [Int]
  var intact = true
  /// Whether its original text is in place (`revert()` leaves it alone).
  var undone = false
  /// Where the session's last own edit of it (its making, its last swap)
  /// collapsed the ends of the others (by `2 * index + (upper ? 1 : 0)`):
  /// its next swap puts them back there.
  var collapsed: [Int: Int] = [:]
}

/// Whose edits the storage edits being followed are, for the session.
enum SessionEdit {
  /// Someone else's: the person's, an origin's, an undo's or redo's by the
  /// history's rule, a review's.
  case others
  /// A tool's replacement: each edit makes a replacement.
  case replacement
  /// The session's swaps of its replacements' text.
  case swap
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
  /// The tool's groups' links to the live session's replacements, by
  /// action, in the order they were made.
  var links: [Int: [ToolLink]] = [:]
  /// The tool's groups of the live session, and their undos' and redos'
  /// inverses.
  var sessionActions: Set<Int> = []
  /// The live session's replacements, in order (in inputs that record the
  /// history).
  var sessionReplacements: [SessionReplacement] = []
  /// How many edits of someone else met each storage (by incarnation)
  /// while it had an intact replacement of the live session (the engine's
  /// `othersEdits`, by storage): a replacement made before one of them in
  /// its storage is no longer swapped.
  var othersEdits: [Int: Int] = [:]
  /// Whose the storage edits being followed are.
  var sessionEdit = SessionEdit.others
  /// While a live tool's group's undo or redo is followed: the
  /// replacements it swaps in each incarnation, in order (its first edits
  /// there).
  var swaps: [Int: [Int]] = [:]
  /// While a tool's replacement is followed: each storage edit links the
  /// group recording it to the replacement it makes.
  var linking = false
  /// While `revert()` is followed (in inputs that record the history):
  /// each edit swaps a replacement back, through the link that holds it.
  var reverting = false

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
  /// person's: the main one, the tool's and the session's groups and
  /// accepted suggestions there too).
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
        if history.sessionActions.contains(best.action) { session?.lostGroups = true }
      }
      forgetAction(best.action)
    }
  }

  /// Forgets action `a` (dropped, or its redo cleared).
  func forgetAction(_ a: Int) {
    history.actions[a] = nil
    history.links[a] = nil
    history.sessionActions.remove(a)
  }

  /// Clears the main redo stack (a new group of the person's or a tool's,
  /// an accepted suggestion, revert).
  func clearMainRedo() {
    for entry in redoStack {
      if case .group(let a) = entry { forgetAction(a) }
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
    // (`revert()`'s swap: which replacement it swaps, found before.)
    let reverted = history.reverting ? revertTarget(r, generation) : nil
    if let reverted, let swapped = sessionReplacement(reverted.replacement), swapped.deletion,
      swapped.taken.contains(where: {
        history.visiblePosition(of: $0, generation: generation) != nil
      })
    {
      oracleFailed(
        "revert() put back the text a tool's deletion took out of \(describe(id)) at"
          + " \(describe(r)), which is back already (the history's rule took its group back):"
          + " it is there twice")
    }
    let made = followSessionReplacements(
      r, n, generation, swapping: reverted?.replacement,
      taken: unitsAt(id, r) ?? [])
    guard !history.byTakeBack else { return }
    // The group is made even where the model lost the units: it is on the
    // stack.
    let action = recordingAction(r, n)
    guard !history.lost.contains(generation), var units = history.units[generation] else {
      if let action { history.actions[action]?.opaque = true }
      return
    }
    var seen = 0
    var taken: [Int] = []
    var back: [Int] = []
    for i in units.indices where units[i].visible {
      if seen >= r.lowerBound && seen < r.upperBound {
        units[i].visible = false
        units[i].attributes = seen < attributes.count ? attributes[seen] : [:]
        taken.append(units[i].id)
        if let action {
          if history.actions[action]?.added.contains(units[i].id) == true {
            // Its own: gone for good.
            history.actions[action]?.added.remove(units[i].id)
          } else {
            history.actions[action]?.removed.insert(units[i].id)
            back.append(units[i].id)
          }
        }
      }
      seen += 1
    }
    var replacing: [Int]? = nil
    if let reverted {
      let swap = revive(reverted, r, n, in: &units)
      if swap.revived {
        history.units[generation] = units
        noteAcceptedTouches(generation)
        return
      }
      replacing = swap.replacing
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
    if let replacing, replacing.count == n {
      // New units of a link's text: they take the old ones' place.
      substituteLinks(Dictionary(uniqueKeysWithValues: zip(replacing, new.map(\.id))))
    }
    if history.linking, let action, let made {
      history.links[action, default: []].append(
        ToolLink(
          generation: generation, replacement: made,
          othersAtMaking: history.othersEdits[generation, default: 0],
          out: new.map(\.id), taken: taken, back: back))
    }
    noteAcceptedTouches(generation)
  }

  /// `revert()`'s swap of `r` of incarnation `generation` (before it):
  /// which replacement it swaps back (the engine reverts the last first,
  /// every intact deletion that is not undone among them: one whose group
  /// the history's rule took back is broken, and revert leaves it alone),
  /// and the link of the live session's groups that holds it, if one does.
  func revertTarget(
    _ r: Range<Int>, _ generation: Int
  ) -> (replacement: Int, link: (action: Int, index: Int)?)? {
    var taken: [Int] = []
    var seen = 0
    for unit in history.units[generation] ?? [] where unit.visible {
      if r.contains(seen) { taken.append(unit.id) }
      seen += 1
    }
    var linked: (action: Int, index: Int)? = nil
    var replacement: Int? = nil
    for (a, links) in history.links where history.sessionActions.contains(a) {
      for (k, link) in links.enumerated()
      where link.generation == generation && !taken.isEmpty && link.out == taken
        && sessionReplacement(link.replacement)?.undone == false
      {
        linked = (a, k)
        replacement = link.replacement
      }
    }
    if replacement == nil {
      let matching = history.sessionReplacements.indices.filter {
        let candidate = history.sessionReplacements[$0]
        return candidate.generation == generation && !candidate.undone
          && (r.isEmpty ? candidate.deletion : !candidate.deletion && candidate.range == r)
      }
      // (A broken one only where no intact one matches: the engine swapped
      // one the rule took back, and the oracle in `followUnits` says so.
      // A later broken deletion is no reason to doubt an earlier intact
      // one's swap: regression `revert-earlier-deletion-after-rule-undo`.)
      replacement =
        matching.last { history.sessionReplacements[$0].intact } ?? matching.last
    }
    guard let replacement else { return nil }
    if linked == nil {
      for (a, links) in history.links where history.sessionActions.contains(a) {
        if let k = links.firstIndex(where: { $0.replacement == replacement }) { linked = (a, k) }
      }
    }
    return (replacement, linked)
  }

  /// `revert()`'s swap of the replacement `reverted` says, which put `n`
  /// units in at `r`'s start: the link that holds it is used up (its group
  /// keeps nothing of it: its later undo does nothing for those units),
  /// and its text comes back revived where it waits there, whole, if
  /// nobody else edited since the replacement was made and the history
  /// records (else the swap's are new units, nobody's: a revert the history
  /// does not record lets the group go of it too).
  ///
  /// - Returns: whether it revived them; else the link's text the new
  ///   units are, if a link was used up.
  func revive(
    _ reverted: (replacement: Int, link: (action: Int, index: Int)?), _ r: Range<Int>, _ n: Int,
    in units: inout [HistoryUnit]
  ) -> (revived: Bool, replacing: [Int]?) {
    guard let (a, k) = reverted.link, let link = history.links[a]?[k] else { return (false, nil) }
    history.links[a]?.remove(at: k)
    for unit in link.out + link.back {
      history.actions[a]?.added.remove(unit)
      history.actions[a]?.removed.remove(unit)
    }
    guard link.whole && link.back.count == n && waits(link.back, at: r.lowerBound, in: units),
      link.othersAtMaking == history.othersEdits[link.generation, default: 0],
      history.recordingOn
    else {
      trace("  // revert: the link of group \(a) is used up; its text comes back as new units")
      return (false, link.taken)
    }
    trace("  // revert: group \(a)'s link puts its \(n) units back")
    let ids = Set(link.back)
    for i in units.indices where ids.contains(units[i].id) { units[i].visible = true }
    history.lastInserted = link.back.last
    return (true, nil)
  }

  /// The live session's replacement `i`, if there is one.
  func sessionReplacement(_ i: Int) -> SessionReplacement? {
    i >= 0 && i < history.sessionReplacements.count ? history.sessionReplacements[i] : nil
  }

  /// Follows one storage edit (`r` → `n` units) of incarnation
  /// `generation` in the live session's replacements, as the engine does:
  /// someone else's edit counts in `othersEdits` where the storage has an
  /// intact replacement, breaks those whose text it changes, and moves the
  /// others by the tracked-range rule; the session's own edit (a tool's
  /// replacement, which makes one, or a swap of replacement `swapping`,
  /// or of the next of `swaps`) collapses the ends inside it, and puts back
  /// those its replacement's last own edit collapsed.
  ///
  /// - Returns: the replacement the edit made, if it made one.
  func followSessionReplacements(
    _ r: Range<Int>, _ n: Int, _ generation: Int, swapping: Int? = nil, taken: [Int] = []
  ) -> Int? {
    guard history.enabled, session != nil else { return nil }
    var kind = history.sessionEdit
    var own = swapping
    if kind == .others, let next = history.swaps[generation]?.first {
      history.swaps[generation]?.removeFirst()
      kind = .swap
      own = next
    }
    let (s, e) = (r.lowerBound, r.upperBound)
    let step = Edge(r, n)
    if kind == .others {
      if history.sessionReplacements.contains(where: { $0.generation == generation && $0.intact }) {
        history.othersEdits[generation, default: 0] += 1
      }
      for i in history.sessionReplacements.indices
      where history.sessionReplacements[i].generation == generation {
        let range = history.sessionReplacements[i].range
        if history.sessionReplacements[i].intact
          && ((s < e && s < range.upperBound && range.lowerBound < e && !range.isEmpty)
            || (n > 0 && range.lowerBound < s && s < range.upperBound))
        {
          history.sessionReplacements[i].intact = false
        }
        history.sessionReplacements[i].range = step.range(range)
      }
      return nil
    }
    let collapsed = Self.placeOwnEdit(
      r, n, generation, own: own, in: &history.sessionReplacements)
    guard kind == .replacement, !(r.isEmpty && n == 0) else { return nil }
    history.sessionReplacements.append(
      SessionReplacement(
        generation: generation, range: s..<(s + n), deletion: n == 0, taken: taken,
        collapsed: collapsed))
    return history.sessionReplacements.count - 1
  }

  /// The session's own edit (`r` → `n` units of incarnation
  /// `generation`: a swap of replacement `own`, or, with `own` nil, the
  /// making of a new one) in `replacements` (the engine's
  /// `placeThroughOwnEdit`): the ends of the intact others inside it
  /// collapse (kept in `own`'s table, or returned for the new one), and
  /// those `own`'s last own edit collapsed go back where they were; the
  /// swapped one's range is its new text, and it is undone or redone.
  ///
  /// - Returns: the ends it collapsed.
  @discardableResult
  static func placeOwnEdit(
    _ r: Range<Int>, _ n: Int, _ generation: Int, own: Int?,
    in replacements: inout [SessionReplacement]
  ) -> [Int: Int] {
    let (s, e) = (r.lowerBound, r.upperBound)
    let step = Edge(r, n)
    let restoring =
      own.flatMap { $0 < replacements.count ? replacements[$0].collapsed : nil } ?? [:]
    var collapsed: [Int: Int] = [:]
    for i in replacements.indices where i != own && replacements[i].generation == generation {
      let old = replacements[i].range
      guard replacements[i].intact else {
        replacements[i].range = step.range(old)
        continue
      }
      var lower = step.start(old.lowerBound)
      var upper = step.end(old.upperBound)
      for (end, isUpper) in [(old.lowerBound, false), (old.upperBound, true)]
      where s <= end && end <= e {
        let key = 2 * i + (isUpper ? 1 : 0)
        collapsed[key] = end - s
        if let offset = restoring[key] {
          if isUpper { upper = s + min(offset, n) } else { lower = s + min(offset, n) }
        }
      }
      replacements[i].range = lower..<max(lower, upper)
    }
    if let own, own < replacements.count {
      replacements[own].range = s..<(s + n)
      replacements[own].collapsed = collapsed
      replacements[own].undone.toggle()
    }
    return collapsed
  }

  /// FUZZ_AVOID `revert-after-rule-undo`: whether a deletion of the live
  /// session's tool, not undone by a swap, has its text back (the history's
  /// rule took its group back): `revert()` would put it back a second time
  /// (finding FuzzDocument-revert-after-rule-undo).
  var revertDoublesADeletion: Bool {
    history.sessionReplacements.contains { replacement in
      replacement.deletion && !replacement.undone
        && replacement.taken.contains {
          history.visiblePosition(of: $0, generation: replacement.generation) != nil
        }
    }
  }

  /// Whether units `ids` are all deleted, in order, waiting at visible
  /// position `p` (no visible unit between them).
  func waits(_ ids: [Int], at p: Int, in units: [HistoryUnit]) -> Bool {
    guard !ids.isEmpty else { return true }
    var seen = 0
    var k = 0
    for unit in units {
      if k < ids.count && unit.id == ids[k] {
        guard !unit.visible && seen == p else { return false }
        k += 1
      } else if unit.visible {
        seen += 1
      }
    }
    return k == ids.count
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

  // MARK: The tool's groups

  /// Before a tool's replacement is followed (`session` is the model's
  /// copy the caller goes on with): with the history recording, the group
  /// it goes in, recording its edits, each linked to a replacement; the
  /// streaming phase's (made at its first replacement), or a new one (not
  /// on the history yet).
  func toolGroupForReplacement(_ session: inout SessionModel) -> Int? {
    guard history.enabled && history.recordingOn else { return nil }
    let a: Int
    if session.streaming != nil, let open = session.streamingAction, history.actions[open] != nil {
      a = open
    } else {
      a = history.nextAction
      history.nextAction += 1
      history.actions[a] = HistoryAction()
      history.sessionActions.insert(a)
      if session.streaming != nil { session.streamingAction = a }
    }
    trace("  // the tool's group \(a) records it")
    history.recording = .action(a)
    history.linking = true
    return a
  }

  /// Puts the tool's group `a` on the main undo stack (one that recorded
  /// nothing is dropped): it ends the person's group, and the limit
  /// applies.
  func pushToolGroup(_ a: Int) {
    guard let action = history.actions[a] else { return }
    guard !action.isEmpty else {
      trace("  // the tool's group \(a) recorded nothing: dropped")
      forgetAction(a)
      return
    }
    trace("  // the tool's group \(a) goes on the history")
    history.runs[.person] = nil
    undoStack.append(.group(a))
    enforceGroupLimit()
  }

  /// Closes the streaming phase under way, if one is (leaving
  /// `.interactiveStreaming`, an undo or redo, revert, the session
  /// ending): its group goes on the history (the history's, if it recorded
  /// a replacement; else the session's, if it made one). With `goesOn`,
  /// the phase goes on in a new group.
  func closeStreamingPhase(goesOn: Bool) {
    guard let live = session, let count = live.streaming else { return }
    if let a = live.streamingAction {
      pushToolGroup(a)
    } else if count > 0 {
      // A tool's group ends the person's.
      history.runs[.person] = nil
      undoStack.append(.session)
    }
    session?.streamingAction = nil
    session?.streaming = goesOn && live.state == .interactiveStreaming ? 0 : nil
  }

  /// The session ended (or another started): its streaming phase's group
  /// goes on the history first; the session's groups go with it, but those
  /// the history recorded stay (their links count no more).
  func endSessionInModel() {
    closeStreamingPhase(goesOn: false)
    session = nil
    forgetSessionGroups()
    history.links = [:]
    history.sessionActions = []
    history.sessionReplacements = []
    history.othersEdits = [:]
  }

  /// Whether a group of the live session's tool (or its undo's or redo's
  /// inverse) is on the undo stack, or the limit dropped one there.
  var hasSessionGroups: Bool {
    if session?.lostGroups == true { return true }
    return undoStack.contains {
      if case .group(let a) = $0 { return history.sessionActions.contains(a) }
      return false
    }
  }

  // MARK: Undo and redo

  /// Takes action `a` back in the model (the units it added that are still
  /// there go, the ones it removed that are not come back): its inverse,
  /// and the units revived (to check their attributes once the engine's
  /// edits are followed). Reads the storages as they are before the undo.
  func takeBackInModel(_ a: Int) -> (inverse: Int, revived: [(StorageID, Int, Attributes)]) {
    let (inverse, revived) = takeBackUnits(a)
    for id in order {
      if let generation = storages[id]?.generation { noteAcceptedTouches(generation) }
    }
    return (inverse, revived)
  }

  /// ``takeBackInModel(_:)`` in the history model alone.
  ///
  /// A tool's group of the live session whose replacements are all intact,
  /// none made before someone else's edit, swaps them first, the last
  /// first, as the engine does, until one cannot swap (its units are not
  /// in place): each one's units go (those an earlier swap of the same
  /// undo put in, for good), and the text it took out comes back, revived
  /// where it waits whole at the replacement's start, else (a replacement
  /// that took out units of its own group's: the piece is let go) as new
  /// units there, which take the place of the old ones in the other links;
  /// the inverse takes the link over. Then the rule takes back the rest.
  func takeBackUnits(_ a: Int) -> (inverse: Int, revived: [(StorageID, Int, Attributes)]) {
    var action = history.actions.removeValue(forKey: a) ?? HistoryAction()
    let live = history.sessionActions.remove(a) != nil && session != nil
    var links = history.links.removeValue(forKey: a) ?? []
    var inverse = HistoryAction()
    var revived: [(StorageID, Int, Attributes)] = []
    // The storages by incarnation, and each visible unit's attributes now.
    var storageOf: [Int: StorageID] = [:]
    var attributesOf: [Int: Attributes] = [:]
    for id in order {
      guard let model = storages[id], !history.lost.contains(model.generation),
        let units = history.units[model.generation]
      else { continue }
      storageOf[model.generation] = id
      var seen = 0
      for unit in units where unit.visible {
        attributesOf[unit.id] = seen < model.attributes.count ? model.attributes[seen] : [:]
        seen += 1
      }
    }
    var moved: [ToolLink] = []
    history.swaps = [:]
    // All of them swap, or none.
    let swaps =
      live
      && links.allSatisfy {
        sessionReplacement($0.replacement)?.intact == true
          && $0.othersAtMaking == history.othersEdits[$0.generation, default: 0]
          && storageOf[$0.generation] != nil
      }
    // (Where the replacements are as the swaps go, the last first.)
    var placed = history.sessionReplacements
    for k in links.indices.reversed() where swaps {
      let link = links[k]
      let g = link.generation
      guard let id = storageOf[g], var units = history.units[g], isInPlace(link.out, g),
        let p = link.out.first.flatMap({ history.visiblePosition(of: $0, generation: g) })
          ?? (link.replacement < placed.count ? placed[link.replacement].range.lowerBound : nil)
      else { break }
      links.removeLast()
      history.swaps[g, default: []].append(link.replacement)
      let revives =
        !link.back.isEmpty && link.whole && isWaiting(link.back, g)
        && waits(link.back, at: p, in: units)
      // Its units go.
      let out = Set(link.out)
      var back: [Int] = []
      for i in units.indices where out.contains(units[i].id) {
        units[i].visible = false
        units[i].attributes = attributesOf[units[i].id] ?? [:]
        action.added.remove(units[i].id)
        if inverse.added.remove(units[i].id) == nil {
          inverse.removed.insert(units[i].id)
          back.append(units[i].id)
        }
      }
      var put: [Int] = []
      if revives {
        let ids = Set(link.back)
        for i in units.indices where ids.contains(units[i].id) {
          units[i].visible = true
          inverse.added.insert(units[i].id)
          revived.append((id, units[i].id, units[i].attributes))
        }
        put = link.back
      } else if !link.taken.isEmpty {
        // New units of the text it took out, where its range starts.
        var codes: [Int: UInt16] = [:]
        for unit in units { codes[unit.id] = unit.code }
        var new: [HistoryUnit] = []
        for unit in link.taken {
          new.append(HistoryUnit(id: history.nextUnit, code: codes[unit] ?? 0))
          inverse.added.insert(history.nextUnit)
          history.nextUnit += 1
        }
        put = new.map(\.id)
        units.insert(contentsOf: new, at: HistoryModel.index(ofVisible: p, in: units))
        trace("  // the swap lets the text it took out go: \(put.count) new units")
        let map = Dictionary(uniqueKeysWithValues: zip(link.taken, put))
        for j in links.indices { links[j].out = links[j].out.map { map[$0] ?? $0 } }
        substituteLinks(map)
      }
      // Its piece is used (or let go).
      for unit in link.back { action.removed.remove(unit) }
      history.units[g] = units
      moved.append(
        ToolLink(
          generation: g, replacement: link.replacement, othersAtMaking: link.othersAtMaking,
          out: put, taken: link.out, back: back))
      Self.placeOwnEdit(
        p..<(p + link.out.count), put.count, g, own: link.replacement, in: &placed)
    }
    // The replacements the rule takes back are no longer the session's to
    // swap: revert leaves them alone.
    if live {
      for link in links where link.replacement < history.sessionReplacements.count {
        history.sessionReplacements[link.replacement].intact = false
        session?.ruleTakenBack.insert(link.generation)
      }
    }
    // The rule takes back the rest.
    for id in order {
      guard let model = storages[id], !history.lost.contains(model.generation),
        var units = history.units[model.generation]
      else { continue }
      for i in units.indices {
        let unit = units[i]
        if unit.visible {
          if action.added.contains(unit.id) {
            units[i].visible = false
            units[i].attributes = attributesOf[unit.id] ?? [:]
            inverse.removed.insert(unit.id)
          }
        } else if action.removed.contains(unit.id) {
          units[i].visible = true
          inverse.added.insert(unit.id)
          revived.append((id, unit.id, unit.attributes))
        }
      }
      history.units[model.generation] = units
    }
    let id = history.nextAction
    history.nextAction += 1
    history.actions[id] = inverse
    if live {
      history.sessionActions.insert(id)
      if !moved.isEmpty { history.links[id] = moved }
    }
    return (id, revived)
  }

  /// Puts new units in the place of old ones in every link's units in
  /// place (a swap put the text of those back as new units: the other
  /// replacements' ranges hold them now).
  func substituteLinks(_ map: [Int: Int]) {
    for (a, links) in history.links {
      for k in links.indices {
        history.links[a]?[k].out = links[k].out.map { map[$0] ?? $0 }
      }
    }
  }

  /// Whether units `ids` of incarnation `generation` are all there, next
  /// to each other, in order.
  func isInPlace(_ ids: [Int], _ generation: Int) -> Bool {
    guard !history.lost.contains(generation), let units = history.units[generation] else {
      return false
    }
    var position: [Int: Int] = [:]
    var seen = 0
    for unit in units where unit.visible {
      position[unit.id] = seen
      seen += 1
    }
    guard let first = ids.first.flatMap({ position[$0] }) else { return ids.isEmpty }
    return ids.enumerated().allSatisfy { position[$0.element] == first + $0.offset }
  }

  /// Whether units `ids` of incarnation `generation` are all deleted.
  func isWaiting(_ ids: [Int], _ generation: Int) -> Bool {
    guard !history.lost.contains(generation), let units = history.units[generation] else {
      return false
    }
    let set = Set(ids)
    return units.allSatisfy { !set.contains($0.id) || !$0.visible }
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
    // The live session's tool's groups are the session's edits (oracle 4),
    // the others' the person's kind.
    let byTool = history.sessionActions.contains(a) && session != nil
    let (inverse, revived) = takeBackInModel(a)
    history.byTakeBack = true
    followSessionEdit(versions, result.events, what)
    history.byTakeBack = false
    history.swaps = [:]
    // (The ranges it brought back are taken from the engine first.)
    adoptRestored(result.restored, touched: result.tracked.touched, what)
    expectTracked(result.tracked, what)
    expectReasons(result.events, [.undoRedo], what)
    var made = 0
    for (id, old) in versions {
      guard let now = storages[id]?.version, now != old else { continue }
      made += now - old
      // Undo and redo are the person's kind of edit (or the origin's), but
      // of the live session's tool's groups.
      if !byTool { personEdited(id) }
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
        // and redo still take the groups kept. A streaming phase under way
        // closes first, and goes on in a new group.
        closeStreamingPhase(goesOn: true)
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
