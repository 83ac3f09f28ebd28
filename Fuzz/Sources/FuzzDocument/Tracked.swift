// The host's tracked ranges (docs/DESIGN.md, "Tracked ranges (anchors)")
// in FuzzDocument's model: each range mapped on its own through every
// storage edit by the contract's rule, the operations that track, untrack
// and query them, and the checks after every call (oracle 8 in main.swift).

import DocumentEngine
import FuzzSupport
import TextRope

/// A host's tracked range as the model knows it: mapped on its own through
/// each storage edit `s..<e` → `n` by the contract's rule (*Mapping* and
/// *Tracked ranges*), as `TrackedRangeModel` in the engine's tests.
struct TrackedModel {
  let id: TrackedRangeID
  var range: Range<Int>
  let kind: String
  let rules: TrackingRules
  /// Whether it was empty when added: then both ends follow `bias`, for
  /// its whole life.
  let point: Bool
  /// Whether a start that passes its end takes the end with it (the
  /// engine's own followers, such as an accepted suggestion's text in
  /// Review.swift); the host's ranges and suggestions are then empty at the
  /// end's place.
  var collapsesToStart = false

  /// Maps `p` through `s..<e` → `n` with association `assoc` (ProseMirror's
  /// sequential rule).
  static func map(_ p: Int, assoc: Int, _ s: Int, _ e: Int, _ n: Int) -> Int {
    if p < s { return p }
    if p > e { return p - (e - s) + n }
    if s == e { return assoc < 0 ? s : s + n }
    let side = p == s ? -1 : (p == e ? 1 : assoc)
    return side < 0 ? s : s + n
  }

  var startAssoc: Int {
    if point { return rules.bias == .right ? 1 : -1 }
    return rules.expand == .before || rules.expand == .both ? -1 : 1
  }

  var endAssoc: Int {
    if point { return rules.bias == .right ? 1 : -1 }
    return rules.expand == .after || rules.expand == .both ? 1 : -1
  }

  /// The touch rule of *Replacements*: a unit of it deleted or replaced, or
  /// an insertion strictly inside it; for an empty range, a deletion across
  /// it.
  static func touches(_ r: Range<Int>, _ s: Int, _ e: Int, _ n: Int) -> Bool {
    if r.isEmpty { return s < r.lowerBound && r.lowerBound < e }
    if s < e && s < r.upperBound && r.lowerBound < e { return true }
    return n > 0 && r.lowerBound < s && s < r.upperBound
  }

  /// The range after the edit (nil if the edit removed it), and whether
  /// the edit touched it.
  func mapped(_ s: Int, _ e: Int, _ n: Int) -> (TrackedModel?, touched: Bool) {
    var start = Self.map(range.lowerBound, assoc: startAssoc, s, e, n)
    var end = Self.map(range.upperBound, assoc: endAssoc, s, e, n)
    if start > end {
      if collapsesToStart { end = start } else { start = end }
    }
    let touched = Self.touches(range, s, e, n)
    if touched && rules.onTouch == .remove { return (nil, true) }
    var copy = self
    copy.range = start..<end
    return (copy, touched)
  }

  /// Whether a query over `q` finds it: a unit of it in `q`, or empty
  /// inside `q`; for an empty `q`, containing or touching the point.
  func overlaps(_ q: Range<Int>) -> Bool {
    let r = range
    if q.isEmpty { return r.lowerBound <= q.lowerBound && q.lowerBound <= r.upperBound }
    return (r.lowerBound < q.upperBound && r.upperBound > q.lowerBound)
      || (r.isEmpty && q.lowerBound <= r.lowerBound && r.lowerBound < q.upperBound)
  }

  func value(in storage: StorageID) -> TrackedRange {
    TrackedRange(id: id, storage: storage, range: range, kind: kind, rules: rules)
  }
}

/// Every host range of storage `id` in `content`, in position order, from
/// two queries that find all of them by the contract's overlap rule: over
/// the whole text (each range with a unit, each empty one before the end)
/// and at its end (each empty one there). (The query without a range is
/// checked on its own: it once left out empty ranges at the end,
/// `tracked-all-misses-end`.)
func allTracked(in content: DocumentContent, _ id: StorageID) throws(DocumentError)
  -> [TrackedRange]
{
  let length = try content.storage(id).length
  var found = try content.trackedRanges(in: id, overlapping: 0..<length)
  let known = Set(found.map(\.id))
  found += try content.trackedRanges(in: id, overlapping: length..<length).filter {
    !known.contains($0.id)
  }
  return found.sorted(by: inPositionOrder)
}

/// Position order, equal starts by id: the order of every query's answer.
func inPositionOrder(_ a: TrackedRange, _ b: TrackedRange) -> Bool {
  (a.range.lowerBound, a.id.rawValue) < (b.range.lowerBound, b.id.rawValue)
}

func describe(_ rules: TrackingRules) -> String {
  "TrackingRules(expand: .\(rules.expand), bias: .\(rules.bias), onTouch: .\(rules.onTouch))"
}

func describe(_ id: TrackedRangeID) -> String { "TrackedRangeID(rawValue: \(id.rawValue))" }

func describe(_ ids: [TrackedRangeID]) -> String {
  "[" + ids.map { describe($0) }.joined(separator: ", ") + "]"
}

func describe(_ ranges: [TrackedRange]) -> String {
  "["
    + ranges.map {
      "\($0.id.rawValue) \(describe($0.range)) \(literal($0.kind)) \($0.rules.expand)"
        + " \($0.rules.bias) \($0.rules.onTouch)"
    }.joined(separator: "; ") + "]"
}

/// How `got` differs from `expected`: the ranges that differ (a few), or
/// their order.
func difference(_ got: [TrackedRange], _ expected: [TrackedRange]) -> String {
  let a = Dictionary(got.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  let b = Dictionary(expected.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  let differing = Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
  if differing.isEmpty {
    return "the same \(got.count) ranges (\(expected.count) in the model), in another order or"
      + " repeated: \(describe(got))"
  }
  let lines = differing.prefix(8).map { id in
    "\(id.rawValue): \(a[id].map { describe([$0]) } ?? "none"), the model"
      + " \(b[id].map { describe([$0]) } ?? "none")"
  }
  return "\(differing.count) of \(max(got.count, expected.count)) differ: "
    + lines.joined(separator: "; ") + (differing.count > 8 ? "; …" : "")
}

func describe(_ changes: TrackedChanges) -> String {
  "touched \(changes.touched.map(\.rawValue)), removed \(changes.removed.map(\.rawValue))"
}

extension Harness {
  /// The kinds the operations give (the host's strings, the empty one, a
  /// non-BMP one); queries also ask for one nobody gave.
  static let trackedKinds = ["host", "spelling", "comment", "", "\u{1F600}"]

  // MARK: Following edits

  /// Maps every model range of storage `id` through one storage edit, and
  /// notes what it touched and removed; the suggestions and accepted
  /// suggestions too (Review.swift).
  func followTracked(_ r: Range<Int>, _ n: Int, in id: StorageID) {
    followReview(r, n, in: id)
    guard var ranges = tracked[id], !ranges.isEmpty else { return }
    for (key, model) in ranges {
      let (after, touched) = model.mapped(r.lowerBound, r.upperBound, n)
      if let after {
        ranges[key] = after
        if touched { trackedTouched.insert(key) }
      } else {
        ranges[key] = nil
        trackedTouched.remove(key)
        trackedRemoved.insert(key)
        noteDead(key)
        removedTracked[key] = (id, model)
      }
    }
    tracked[id] = ranges
  }

  /// The ranges an undo or redo brought back where they were
  /// (`UndoResult.restored`, docs/DESIGN.md *History*): the model does not
  /// say where (it maps each range on its own), so each is taken from the
  /// engine after checking what must hold: it is a range the model had
  /// (tracked, or removed by an edit), with its kind and rules, inside its
  /// storage's text on scalar boundaries; a removed one is known again.
  func adoptRestored(
    _ restored: [TrackedRangeID], touched: [TrackedRangeID], _ what: String
  ) {
    expect(
      restored == restored.sorted() && Set(restored).count == restored.count,
      "\(what): restored \(restored.map(\.rawValue)) is not sorted or repeats an id")
    for id in restored {
      let known: (StorageID, TrackedModel)? =
        trackedStorage(of: id).flatMap { storage in tracked[storage]?[id].map { (storage, $0) } }
        ?? removedTracked[id]
      guard let (storage, model) = known else {
        oracleFailed("\(what): restored \(id.rawValue), a range the model never had or untracked")
      }
      guard let got = try? document.trackedRange(id) else {
        oracleFailed("\(what): restored \(id.rawValue), which trackedRange(_:) does not know")
      }
      expect(
        got.storage == storage && got.kind == model.kind && got.rules == model.rules,
        "\(what): restored \(describe([got])) changed its storage, kind or rules")
      if let text = storages[storage]?.text {
        expect(
          text.boundary(got.range.lowerBound, .utf16) != nil
            && text.boundary(got.range.upperBound, .utf16) != nil,
          "\(what): restored \(describe([got])) is outside its storage or inside a scalar")
      }
      var moved = model
      moved.range = got.range
      tracked[storage, default: [:]][id] = moved
      removedTracked[id] = nil
      deadIDs.removeAll { $0 == id }
      // (Whether the undo's edit touched it on the way is the engine's to
      // say: the model did not follow it.)
      trackedRemoved.remove(id)
      if touched.contains(id) { trackedTouched.insert(id) } else { trackedTouched.remove(id) }
    }
  }

  func noteDead(_ id: TrackedRangeID) {
    deadIDs.append(id)
    if deadIDs.count > 64 { deadIDs.removeFirst(deadIDs.count - 64) }
  }

  /// The storage of host range `id` in the model, if it is there.
  func trackedStorage(of id: TrackedRangeID) -> StorageID? {
    tracked.first { $0.value[id] != nil }?.key
  }

  /// Checks what a change's result says it did to the host's ranges
  /// against the model (exactly, except in storages the model could not
  /// follow this call: there by property), and starts afresh.
  func expectTracked(_ got: TrackedChanges, _ what: String) {
    defer {
      trackedTouched = []
      trackedRemoved = []
    }
    if !got.isEmpty { trace("  // tracked: \(describe(got))") }
    for list in [got.touched, got.removed] {
      expect(
        list == list.sorted() && Set(list).count == list.count,
        "\(what): the result's tracked changes are not sorted or repeat an id: \(describe(got))")
    }
    expect(
      Set(got.touched).isDisjoint(with: got.removed),
      "\(what): a tracked range both touched and removed: \(describe(got))")
    let expected = TrackedChanges(
      touched: trackedTouched.sorted(), removed: trackedRemoved.sorted())
    if trackedResync.isEmpty {
      expect(
        got == expected,
        "\(what): the result says \(describe(got)), the model \(describe(expected))")
      return
    }
    // Some storage's ranges are taken from the engine after this call: its
    // ids by property (touched ones still there, removed ones gone and
    // removable), the others exactly.
    let loose = { (id: TrackedRangeID) -> Bool in
      (self.trackedStorage(of: id) ?? self.suggestionStorage(of: id)).map {
        self.trackedResync.contains($0)
      } ?? false
    }
    expect(
      got.touched.filter { !loose($0) } == expected.touched.filter { !loose($0) }
        && got.removed.filter { !loose($0) } == expected.removed.filter { !loose($0) },
      "\(what): the result says \(describe(got)), the model \(describe(expected))")
    for id in got.removed where loose(id) && suggestionStorage(of: id) != nil {
      expect(
        (try? document.suggestion(id)) == nil,
        "\(what): the result names suggestion \(id) as removed, but it is still there")
    }
    for id in got.touched where loose(id) {
      expect(
        (try? document.trackedRange(id)) != nil,
        "\(what): the result names \(id) as touched, but it is gone")
    }
    for id in got.removed where loose(id) {
      guard let storage = trackedStorage(of: id), let model = tracked[storage]?[id] else {
        continue
      }
      expect(
        model.rules.onTouch == .remove,
        "\(what): the result names \(id) as removed, but its rule keeps it")
      expect(
        (try? document.trackedRange(id)) == nil,
        "\(what): the result names \(id) as removed, but it is still there")
    }
  }

  // MARK: Checks after every call

  /// The model's host ranges of storage `id`, as a query for all of them
  /// answers.
  func expectedTracked(_ id: StorageID) -> [TrackedRange] {
    (tracked[id] ?? [:]).values.map { $0.value(in: id) }.sorted(by: inPositionOrder)
  }

  /// The model's host ranges of every storage.
  func trackedSnapshot() -> [StorageID: [TrackedRange]] {
    Dictionary(uniqueKeysWithValues: tracked.keys.map { ($0, expectedTracked($0)) })
  }

  /// Oracle 8: every storage's host ranges are the model's (or, where the
  /// model could not follow the call, hold what must hold, and are taken);
  /// each is found by id; ids of ranges gone are unknown; the snapshot
  /// taken before the call still sees the ranges as they were then.
  func checkTracked(_ what: String) {
    expect(
      Set(tracked.keys) == Set(order),
      "after \(what): tracked ranges modelled for \(tracked.keys.sorted()), storages \(order)")
    for id in order {
      let got: [TrackedRange]
      do {
        got = try allTracked(in: document.content, id)
      } catch {
        oracleFailed("after \(what): trackedRanges(in: \(describe(id))) threw \(error)")
      }
      if trackedResync.contains(id) { resyncTracked(id, got, what) }
      let expected = expectedTracked(id)
      expect(
        got == expected,
        "after \(what): the ranges of \(describe(id)): \(difference(got, expected))")
      if !Avoid.contains("tracked-all-misses-end") {
        let all = try? document.trackedRanges(in: id)
        expect(
          all == expected,
          "after \(what): trackedRanges(in: \(describe(id))):"
            + " \(all.map { difference($0, expected) } ?? "threw")")
      }
      for range in expected {
        expect(
          (try? document.trackedRange(range.id)) == range,
          "after \(what): trackedRange(\(range.id)) is not \(describe([range]))")
      }
    }
    trackedResync = []
    for id in deadIDs.suffix(3) {
      do {
        let found = try document.trackedRange(id)
        oracleFailed(
          "after \(what): trackedRange(\(id)) of a range gone found \(describe([found]))")
      } catch {
        expect(
          error == .unknownTrackedRange(id),
          "after \(what): trackedRange(\(id)) of a range gone threw \(error)")
      }
    }
    if let (content, ranges) = snapshot {
      for (id, expected) in ranges {
        let got = try? allTracked(in: content, id)
        expect(
          got == expected,
          "after \(what): the snapshot taken before it sees \(describe(id))'s ranges not as"
            + " they were: \(got.map { difference($0, expected) } ?? "an error")")
      }
      snapshot = nil
    }
  }

  /// Takes storage `id`'s host ranges from the engine (`got`), after
  /// checking what must hold whatever the edits were: no range appears,
  /// ids, kinds and rules stay, a range gone was one its rule removes,
  /// every range is inside the text on scalar boundaries, in position
  /// order.
  func resyncTracked(_ id: StorageID, _ got: [TrackedRange], _ what: String) {
    guard let old = tracked[id], let text = storages[id]?.text else { return }
    trace("  // the ranges of \(describe(id)) are taken from the engine")
    expect(
      got == got.sorted(by: inPositionOrder),
      "after \(what): \(describe(id)) tracks \(describe(got)): not in position order")
    var now: [TrackedRangeID: TrackedModel] = [:]
    for range in got {
      guard let model = old[range.id] else {
        oracleFailed("after \(what): \(describe(id)) has a new range \(describe([range]))")
      }
      expect(
        range.storage == id && range.kind == model.kind && range.rules == model.rules,
        "after \(what): \(describe([range])) changed its storage, kind or rules")
      expect(
        text.boundary(range.range.lowerBound, .utf16) != nil
          && text.boundary(range.range.upperBound, .utf16) != nil,
        "after \(what): \(describe([range])) is outside \(describe(id)) or inside a scalar")
      var moved = model
      moved.range = range.range
      now[range.id] = moved
    }
    for (key, model) in old where now[key] == nil {
      expect(
        model.rules.onTouch == .remove,
        "after \(what): \(describe(id)) lost \(key), whose rule keeps it")
      noteDead(key)
      removedTracked[key] = (id, model)
    }
    tracked[id] = now
  }

  // MARK: Decoding arguments

  func pickRules(_ input: inout FuzzInput) -> TrackingRules {
    let b = input.byte()
    return TrackingRules(
      expand: TrackedExpansion.allCases[Int(b % 4)], bias: b & 4 != 0 ? .right : .left,
      onTouch: b / 8 % 3 == 0 ? .remove : .keep)
  }

  /// A range to track or query in storage `id`: on scalar boundaries (often
  /// empty) five times in eight, else hostile (out of bounds, negative,
  /// inside a surrogate pair, between CR and LF).
  func pickTrackedRange(_ input: inout FuzzInput, in id: StorageID) -> Range<Int> {
    let kind = input.byte() % 8
    if let text = storages[id]?.text, kind < 5 {
      if kind < 3 { return Self.validRange(&input, in: text) }
      let p = text.utf16Bounds[input.int(below: text.utf16Bounds.count)]
      return p..<p
    }
    return input.range(length: length(id), interesting: interesting(id))
  }

  /// An id: a live one mostly, else one gone, a neighbour of a live one (an
  /// engine's own range, a context or a mark, or one never given), or an
  /// extreme.
  func pickTrackedID(_ input: inout FuzzInput) -> TrackedRangeID {
    let live = tracked.values.flatMap(\.keys).sorted()
    let choice = input.byte() % 8
    if choice < 5 && !live.isEmpty { return input.pick(live) }
    if choice == 5 && !deadIDs.isEmpty { return input.pick(deadIDs) }
    if choice == 6 && !liveSuggestionIDs.isEmpty && input.byte() % 2 == 0 {
      // A suggestion's id: in the same space, but not the host's.
      return input.pick(liveSuggestionIDs)
    }
    if choice == 6 && !live.isEmpty {
      let near = input.pick(live).rawValue
      return TrackedRangeID(rawValue: near &+ [1, -1, 2, 1 << 32, -(1 << 32)][input.int(below: 5)])
    }
    return TrackedRangeID(
      rawValue: input.pick([0, 1, -1, 1 << 32, Int.max, Int.min, Int(UInt32.max)]))
  }

  /// Whether `range` may be tracked or queried in storage `id`.
  func isTrackable(_ range: Range<Int>, in id: StorageID) -> Bool {
    range.lowerBound >= 0 && range.upperBound <= length(id) && isOnBoundaries(range, in: id)
  }

  /// Whether `error` is what a request about storage `id` with a bad range
  /// (or an unknown storage) gets.
  func isRangeError(_ error: DocumentError, for id: StorageID) -> Bool {
    if storages[id] == nil { return error == .unknownStorage(id) }
    if case .invalidRange(let storage, _) = error { return storage == id }
    return false
  }

  // MARK: Operations

  /// One of the tracked-range operations (`k` in 0..<16; 12, 13 and 15,
  /// operation bytes 252, 253 and 255, are the review operations' since).
  func trackedOperation(_ k: Int, _ input: inout FuzzInput) {
    switch k {
    case 0..<7: track(&input)
    case 7: trackMany(&input)
    case 8, 9, 10: untrack(&input)
    case 11, 12, 13: queryTracked(&input)
    default: lookUpTracked(&input)
    }
  }

  func track(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let ranges = (0..<input.int(below: 5)).map { _ in pickTrackedRange(&input, in: id) }
    let rules = pickRules(&input)
    let kind = input.pick(Self.trackedKinds)
    track(ranges, in: id, kind: kind, rules: rules)
  }

  /// Many ranges at once (64 or more: the engine builds its tree again),
  /// from a few bytes: spread over the text, or piled at one point; one of
  /// them sometimes hostile.
  func trackMany(_ input: inout FuzzInput) {
    let id = pickID(&input)
    let count = 64 + input.int(below: 64)
    var seed = UInt64(input.byte()) << 8 | UInt64(input.byte()) | 1
    let piled = input.bool()
    let rules = pickRules(&input)
    let bounds = storages[id]?.text.utf16Bounds ?? [0]
    func next(_ n: Int) -> Int {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      return Int(seed % UInt64(n))
    }
    let pile = bounds[next(bounds.count)]
    var ranges: [Range<Int>] = (0..<count).map { _ in
      if piled {
        let other = next(3) == 0 ? bounds[next(bounds.count)] : pile
        return min(pile, other)..<max(pile, other)
      }
      let a = next(bounds.count)
      let b = a + next(min(bounds.count - a, 6))
      return bounds[a]..<bounds[b]
    }
    if input.byte() % 4 == 0 {
      ranges[next(count)] = input.range(length: length(id), interesting: interesting(id))
    }
    let kind = input.pick(Self.trackedKinds)
    // Every range is checked after every call: a few thousand are enough.
    guard tracked.values.reduce(0, { $0 + $1.count }) < 2048 else { return }
    track(ranges, in: id, kind: kind, rules: rules)
  }

  func track(_ ranges: [Range<Int>], in id: StorageID, kind: String, rules: TrackingRules) {
    let what =
      "try document.track(\(ranges.map(describe)), in: \(describe(id)), kind: \(literal(kind)),"
      + " rules: \(describe(rules)))"
    trace(what)
    let old = before()
    let valid = storages[id] != nil && ranges.allSatisfy { isTrackable($0, in: id) }
    do {
      let ids = try document.track(ranges, in: id, kind: kind, rules: rules)
      trace("  // \(ids.map(\.rawValue))")
      expect(valid, "\(what) accepted a bad range or an unknown storage")
      expect(ids.count == ranges.count, "\(what) gave \(ids.count) ids")
      expect(Set(ids).count == ids.count, "\(what) gave an id twice: \(ids)")
      for (trackedID, range) in zip(ids, ranges) {
        expect(!givenIDs.contains(trackedID), "\(what) gave \(trackedID) again")
        givenIDs.insert(trackedID)
        tracked[id, default: [:]][trackedID] = TrackedModel(
          id: trackedID, range: range, kind: kind, rules: rules, point: range.isEmpty)
      }
    } catch {
      expect(!valid, "\(what) threw \(error) for a valid request")
      expect(isRangeError(error, for: id), "\(what) threw \(error), not the error for it")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  func untrack(_ input: inout FuzzInput) {
    var ids = (0..<input.int(below: 4)).map { _ in pickTrackedID(&input) }
    if !ids.isEmpty && input.byte() % 8 == 0 { ids.append(ids[0]) }
    let what = "try document.untrack(\(describe(ids)))"
    trace(what)
    let old = before()
    let unknown = ids.first { trackedStorage(of: $0) == nil }
    do {
      try document.untrack(ids)
      expect(unknown == nil, "\(what) accepted the unknown id \(unknown.map(describe) ?? "")")
      for trackedID in ids {
        guard let storage = trackedStorage(of: trackedID) else { continue }
        tracked[storage]?[trackedID] = nil
        noteDead(trackedID)
      }
    } catch {
      expect(unknown != nil, "\(what) threw \(error) for known ids")
      expect(
        unknown.map { error == .unknownTrackedRange($0) } ?? false,
        "\(what) threw \(error), not unknownTrackedRange(\(unknown.map(describe) ?? ""))")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// `trackedRanges(in:overlapping:kind:)`: a filter of the model, in
  /// position order.
  func queryTracked(_ input: inout FuzzInput) {
    let id = pickID(&input)
    var range: Range<Int>? = input.byte() % 4 == 0 ? nil : pickTrackedRange(&input, in: id)
    if range == nil && Avoid.contains("tracked-all-misses-end") { range = 0..<length(id) }
    let kind: String? =
      input.byte() % 3 == 0 ? input.pick(Self.trackedKinds + ["nobody's"]) : nil
    let what =
      "try document.trackedRanges(in: \(describe(id)), overlapping: \(range.map(describe) ?? "nil"),"
      + " kind: \(kind.map(literal) ?? "nil"))"
    trace(what)
    let old = before()
    let valid = storages[id] != nil && range.map { isTrackable($0, in: id) } ?? true
    do {
      let found = try document.trackedRanges(in: id, overlapping: range, kind: kind)
      trace("  // \(describe(found))")
      expect(valid, "\(what) answered for a bad range or an unknown storage")
      let expected = expectedTracked(id).filter { r in
        (kind.map { $0 == r.kind } ?? true)
          && (range.map { tracked[id]?[r.id]?.overlaps($0) ?? false } ?? true)
      }
      expect(found == expected, "\(what): \(difference(found, expected))")
    } catch {
      expect(!valid, "\(what) threw \(error) for a valid query")
      expect(isRangeError(error, for: id), "\(what) threw \(error), not the error for it")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }

  /// `trackedRange(_:)` of a live, gone or forged id.
  func lookUpTracked(_ input: inout FuzzInput) {
    let trackedID = pickTrackedID(&input)
    let what = "try document.trackedRange(\(describe(trackedID)))"
    trace(what)
    let old = before()
    let expected = trackedStorage(of: trackedID).flatMap { storage in
      tracked[storage]?[trackedID]?.value(in: storage)
    }
    do {
      let found = try document.trackedRange(trackedID)
      trace("  // \(describe([found]))")
      expect(
        found == expected,
        "\(what) = \(describe([found])), the model \(expected.map { describe([$0]) } ?? "none")")
    } catch {
      expect(expected == nil, "\(what) threw \(error) for a live range")
      expect(error == .unknownTrackedRange(trackedID), "\(what) threw \(error)")
      expectUnchanged(old, what, error)
    }
    checkAll(what)
  }
}
