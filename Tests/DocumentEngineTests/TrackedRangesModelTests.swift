import SummaryTrees
import Testing
import _EngineTestSupport

@testable import DocumentEngine

/// The contract's rule for one tracked range and one edit, written
/// straight from docs/DESIGN.md (*Mapping* and *Tracked ranges*), one range
/// at a time: the oracle the tree must agree with.
struct TrackedRangeModel: Equatable {
  var local: UInt32
  var range: Range<Int>
  var rules: TrackingRules
  var point: Bool
  /// An engine follower's rule: a start that passes the end takes it along.
  var toStart = false

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

  /// The touch rule of *Replacements*.
  static func touches(_ r: Range<Int>, _ s: Int, _ e: Int, _ n: Int) -> Bool {
    if r.isEmpty { return s < r.lowerBound && r.lowerBound < e }
    if s < e && s < r.upperBound && r.lowerBound < e { return true }
    return n > 0 && r.lowerBound < s && s < r.upperBound
  }

  /// The range after the edit, `nil` if removed, and whether touched.
  func mapped(_ s: Int, _ e: Int, _ n: Int) -> (TrackedRangeModel?, Bool) {
    var start = Self.map(range.lowerBound, assoc: startAssoc, s, e, n)
    var end = Self.map(range.upperBound, assoc: endAssoc, s, e, n)
    if start > end {
      if toStart { end = start } else { start = end }
    }
    let touched = Self.touches(range, s, e, n)
    if touched && rules.onTouch == .remove { return (nil, true) }
    var copy = self
    copy.range = start..<end
    return (copy, touched)
  }
}

@Suite struct TrackedRangesModelTests {
  static func randomRules(_ random: inout SeededRandom) -> TrackingRules {
    TrackingRules(
      expand: TrackedExpansion.allCases[Int.random(in: 0..<4, using: &random)],
      bias: Bool.random(using: &random) ? .left : .right,
      onTouch: Int.random(in: 0..<4, using: &random) == 0 ? .remove : .keep)
  }

  static func randomRange(_ length: Int, _ random: inout SeededRandom) -> Range<Int> {
    let a = Int.random(in: 0...length, using: &random)
    let b = Int.random(in: 0...length, using: &random)
    // Many empty ranges and many at the same points.
    if Int.random(in: 0..<4, using: &random) == 0 { return a..<a }
    return min(a, b)..<max(a, b)
  }

  /// Every range mapped on its own by the contract's rule, against the
  /// tree, through random edits, adds and removals, on the tiny test
  /// nodes; after each step the ranges, the overlap queries and the lookups
  /// by number agree.
  @Test func treeAgreesWithTheSequentialRule() throws {
    let seed = TestSettings.seed("TrackedRangesModelTests.treeAgreesWithTheSequentialRule")
    var random = SeededRandom(seed: seed)
    for round in 0..<TestSettings.iterations(25) {
      var length = Int.random(in: 0...40, using: &random)
      var tree = _TrackedRanges()
      var model: [UInt32: TrackedRangeModel] = [:]
      var lastEdit = ""
      for step in 0..<120 {
        let context = "seed \(seed), round \(round), step \(step)"
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1:
          let range = Self.randomRange(length, &random)
          let rules = Self.randomRules(&random)
          let local = try tree.newLocals(1).lowerBound
          // Now and then one of the engine's own followers.
          let role: _TrackedRole = Int.random(in: 0..<4, using: &random) == 0 ? .mark : .host
          tree.insert(
            range, local: local,
            flags: _TrackedItem.flags(rules, empty: range.isEmpty, role: role), kind: 0)
          model[local] = TrackedRangeModel(
            local: local, range: range, rules: rules, point: range.isEmpty, toStart: role != .host)
        case 2:
          // Many at once (the rebuild path when there are enough).
          var batch: [(range: Range<Int>, local: UInt32, flags: UInt16, kind: UInt16)] = []
          for _ in 0..<Int.random(in: 0..<100, using: &random) {
            let range = Self.randomRange(length, &random)
            let rules = Self.randomRules(&random)
            let local = try tree.newLocals(1).lowerBound
            batch.append(
              (range, local, _TrackedItem.flags(rules, empty: range.isEmpty, role: .host), 0))
            model[local] = TrackedRangeModel(
              local: local, range: range, rules: rules, point: range.isEmpty)
          }
          tree.insert(contentsOf: batch)
        case 3:
          if let victim = model.keys.randomElement(using: &random) {
            let removed = tree.remove(victim)
            #expect(removed, "\(context)")
            model[victim] = nil
          }
        default:
          let a = Int.random(in: 0...length, using: &random)
          let b = Int.random(
            in: a...min(length, a + Int.random(in: 0...6, using: &random)), using: &random)
          let n = Int.random(in: 0...4, using: &random)
          if a == b && n == 0 { continue }
          lastEdit = "\(a)..<\(b) → \(n)"
          var report: [_TrackedChange] = []
          tree.edit(_EditStep(a..<b, insertedLength: n), report: &report)
          var expectedTouched: Set<UInt32> = []
          var expectedRemoved: Set<UInt32> = []
          for (local, range) in model {
            let (after, touched) = range.mapped(a, b, n)
            if touched { expectedTouched.insert(local) }
            if after == nil { expectedRemoved.insert(local) }
            model[local] = after
          }
          #expect(
            Set(report.filter(\.touched).map(\.local)) == expectedTouched,
            "touched, \(context), edit \(a)..<\(b) → \(n)")
          #expect(
            Set(report.filter { $0.new == nil }.map(\.local)) == expectedRemoved,
            "removed, \(context)")
          for change in report where change.new != nil {
            #expect(model[change.local]?.range == change.new, "reported range, \(context)")
          }
          length += n - (b - a)
        }
        // The whole structure against the model.
        var seen: [UInt32: Range<Int>] = [:]
        var previous: (Int, UInt8)? = nil
        tree.forEachRange { item, range in
          seen[item.local] = range
          if let previous {
            #expect(previous <= (range.lowerBound, item.keyClass), "order, \(context)")
          }
          previous = (range.lowerBound, item.keyClass)
        }
        let expectedRanges = model.mapValues(\.range)
        if seen != expectedRanges {
          let wrong = Set(seen.keys).union(expectedRanges.keys).filter {
            seen[$0] != expectedRanges[$0]
          }.sorted().map {
            "\($0): \(seen[$0].map { "\($0)" } ?? "none") ≠ \(expectedRanges[$0].map { "\($0)" } ?? "none") \(model[$0].map { "\($0.rules) point \($0.point)" } ?? "")"
          }
          Issue.record(
            "ranges, \(context), last edit \(lastEdit): \(wrong.joined(separator: "; "))")
          return
        }
        for local in model.keys.shuffled(using: &random).prefix(5) {
          #expect(tree.range(local) == model[local]?.range, "lookup \(local), \(context)")
        }
        #expect(tree.count == model.count, "count, \(context)")
        // Overlap queries against a filter of the model.
        let q = Self.randomRange(length, &random)
        var found: [UInt32] = []
        tree.forEach(overlapping: q) { item, _ in found.append(item.local) }
        let expected = model.values.filter {
          let r = $0.range
          return q.isEmpty
            ? r.lowerBound <= q.lowerBound && q.lowerBound <= r.upperBound
            : (r.lowerBound < q.upperBound && r.upperBound > q.lowerBound)
              || (r.isEmpty && q.lowerBound <= r.lowerBound && r.lowerBound < q.upperBound)
        }.map(\.local)
        #expect(Set(found) == Set(expected), "overlapping \(q), \(context)")
        #expect(found.count == expected.count, "no range twice, \(context)")
        tree._invariantCheck(length: length)
      }
    }
  }

  /// Labels run out where ranges keep being added at one point: the
  /// window around it is spread again, and every lookup still finds its
  /// range.
  @Test func addingAtOnePointRelabels() throws {
    var tree = _TrackedRanges()
    var locals: [UInt32] = []
    for i in 0..<300 {
      let local = try tree.newLocals(1).lowerBound
      // Always right after the first range: the gap there halves each time.
      tree.insert(
        5..<5, local: local,
        flags: _TrackedItem.flags(TrackingRules(bias: .left), empty: true, role: .host),
        kind: 0)
      locals.append(local)
      if i == 0 {
        tree.insert(
          6..<6, local: 10_000,
          flags: _TrackedItem.flags(TrackingRules(), empty: true, role: .host), kind: 0)
      }
    }
    for local in locals { #expect(tree.range(local) == 5..<5) }
    #expect(tree.range(10_000) == 6..<6)
    var labels: [UInt64] = []
    for item in tree.tree { labels.append(item.label) }
    #expect(labels == labels.sorted() && Set(labels).count == labels.count)
  }
}
