import Testing
import _EngineTestSupport

@testable import DocumentEngine

/// The mapping rules, one step at a time, as ProseMirror states them: the
/// oracle the composed map must agree with.
enum SequentialMapping {
  /// Maps `p` through one edit: `s..<e` replaced by `n` units.
  static func step(_ p: Int, assoc: Int, _ s: Int, _ e: Int, _ n: Int) -> (Int, Bool) {
    if p < s { return (p, false) }
    if p > e { return (p - (e - s) + n, false) }
    if s == e { return (assoc < 0 ? s : s + n, false) }
    let side = p == s ? -1 : (p == e ? 1 : assoc)
    let deleted = assoc < 0 ? p > s : p < e
    return (side < 0 ? s : s + n, deleted)
  }

  /// Maps `p` through `edits` in turn.
  static func map(_ p: Int, assoc: Int, through edits: [(Int, Int, Int)]) -> MappedOffset {
    var p = p
    var deleted = false
    for (s, e, n) in edits {
      let (q, d) = step(p, assoc: assoc, s, e, n)
      p = q
      deleted = deleted || d
    }
    return MappedOffset(offset: p, deleted: deleted)
  }

  /// Whether an edit touches a non-empty range by the conflict rule, the
  /// range being mapped through the edits before it.
  static func touches(_ range: Range<Int>, through edits: [(Int, Int, Int)]) -> Bool {
    var a = range.lowerBound
    var b = range.upperBound
    for (s, e, n) in edits {
      if (s < e && s < b && a < e) || (n > 0 && a < s && s < b) { return true }
      a = step(a, assoc: 1, s, e, n).0
      b = max(a, step(b, assoc: -1, s, e, n).0)
    }
    return false
  }
}

@Suite struct ChangeMapTests {
  func composed(_ length: Int, _ edits: [(Int, Int, Int)]) -> ChangeMap {
    var map = ChangeMap(length: length)
    for (s, e, n) in edits { map.record(s..<e, insertedLength: n) }
    return map
  }

  @Test func insertionAtThePositionFollowsAssoc() {
    let map = composed(10, [(4, 4, 3)])
    #expect(map.map(4, bias: .left) == MappedOffset(offset: 4, deleted: false))
    #expect(map.map(4, bias: .right) == MappedOffset(offset: 7, deleted: false))
    #expect(map.map(3, bias: .right).offset == 3)
    #expect(map.map(5, bias: .left).offset == 8)
    #expect(map.newLength == 13)
  }

  @Test func deletionAroundAndAcrossThePosition() {
    let map = composed(10, [(2, 6, 0)])
    #expect(map.map(2, bias: .right) == MappedOffset(offset: 2, deleted: true))
    #expect(map.map(2, bias: .left) == MappedOffset(offset: 2, deleted: false))
    #expect(map.map(4, bias: .left) == MappedOffset(offset: 2, deleted: true))
    #expect(map.map(6, bias: .right) == MappedOffset(offset: 2, deleted: false))
    #expect(map.map(6, bias: .left) == MappedOffset(offset: 2, deleted: true))
    #expect(map.map(8, bias: .right).offset == 4)
  }

  @Test func replacementKeepsStartAndEnd() {
    let map = composed(10, [(2, 6, 3)])
    #expect(map.map(2, bias: .right).offset == 2)  // the start stays at the start
    #expect(map.map(6, bias: .left).offset == 5)  // the end goes to the end
    #expect(map.map(4, bias: .left).offset == 2)
    #expect(map.map(4, bias: .right).offset == 5)
  }

  @Test func sequencesMatchTheSequentialRule() {
    // A deletion, then an insertion where it collapsed: +1 at the old start
    // goes after the later insertion (sequentially), not before.
    let cases: [(Int, [(Int, Int, Int)])] = [
      (10, [(2, 4, 0), (2, 2, 1)]),
      (10, [(4, 4, 2), (3, 6, 0)]),
      (10, [(4, 4, 3), (5, 6, 1)]),
      (10, [(0, 10, 4), (2, 2, 2), (0, 1, 0)]),
      (6, [(3, 3, 2), (3, 3, 2), (4, 6, 5)]),
    ]
    for (length, edits) in cases {
      let map = composed(length, edits)
      for p in 0...length {
        for assoc in [-1, 1] {
          #expect(
            map.map(p, bias: assoc < 0 ? .left : .right)
              == SequentialMapping.map(p, assoc: assoc, through: edits),
            "p \(p) assoc \(assoc) edits \(edits)")
        }
      }
    }
  }

  @Test func touchesByTheConflictRule() {
    #expect(!composed(10, [(2, 2, 3)]).touches(2..<5))  // at the start
    #expect(!composed(10, [(5, 5, 3)]).touches(2..<5))  // at the end
    #expect(composed(10, [(3, 3, 1)]).touches(2..<5))  // strictly inside
    #expect(composed(10, [(4, 6, 0)]).touches(2..<5))  // deletes the last unit
    #expect(!composed(10, [(5, 8, 2)]).touches(2..<5))  // starts at the end
    #expect(composed(10, [(3, 3, 1), (3, 4, 0)]).touches(2..<5))  // inserted, then deleted
    #expect(composed(10, [(1, 3, 0)]).touches(2..<2))  // across the point
    #expect(!composed(10, [(2, 4, 0)]).touches(2..<2))  // from the point
    #expect(!composed(10, [(2, 2, 4)]).touches(2..<2))
  }

  @Test func randomizedAgainstTheSequentialRule() {
    let seed = TestSettings.seed("ChangeMapTests.randomized")
    var random = SeededRandom(seed: seed)
    for round in 0..<TestSettings.iterations(300) {
      let length = Int.random(in: 0...12, using: &random)
      var current = length
      var edits: [(Int, Int, Int)] = []
      var map = ChangeMap(length: length)
      for _ in 0..<Int.random(in: 1...14, using: &random) {
        let s = Int.random(in: 0...current, using: &random)
        let e = Int.random(in: s...min(current, s + 4), using: &random)
        let n = Int.random(in: 0...3, using: &random)
        edits.append((s, e, n))
        map.record(s..<e, insertedLength: n)
        current += n - (e - s)
        for p in 0...length {
          for assoc in [-1, 1] {
            let expected = SequentialMapping.map(p, assoc: assoc, through: edits)
            let got = map.map(p, bias: assoc < 0 ? .left : .right)
            if got != expected {
              Issue.record("seed \(seed) round \(round) p \(p) assoc \(assoc) \(edits): \(got)")
              return
            }
          }
        }
        for a in 0..<length {
          for b in (a + 1)...length
          where map.touches(a..<b) != SequentialMapping.touches(a..<b, through: edits) {
            Issue.record("seed \(seed) round \(round) touches \(a)..<\(b) \(edits)")
            return
          }
        }
      }
      #expect(map.newLength == current)
    }
  }
}

@Suite struct TransformTests {
  /// Applies an operation's pieces (last first) to a string of units; the
  /// first piece's text is `text`, the others insert nothing.
  static func apply(_ op: _Operation, text: [Character], to string: [Character]) -> [Character] {
    var result = string
    for (i, piece) in op.pieces.enumerated().reversed() {
      result.replaceSubrange(piece.range, with: i == 0 ? text : [])
    }
    return result
  }

  @Test func concurrentOperationsConverge() {
    let seed = TestSettings.seed("TransformTests.converge")
    var random = SeededRandom(seed: seed)
    let parties: [EditParty] = [.person, .tool(1), .origin("a"), .origin("b")]
    for _ in 0..<TestSettings.iterations(3000) {
      let base = Array("abcdefgh".prefix(Int.random(in: 0...8, using: &random)))
      func randomOp(_ party: EditParty, _ letter: Character) -> (_Operation, [Character]) {
        let s = Int.random(in: 0...base.count, using: &random)
        let e = Int.random(in: s...base.count, using: &random)
        let text = Array(repeating: letter, count: Int.random(in: 0...2, using: &random))
        return (_Operation(s..<e, length: text.count, party: party), text)
      }
      let two = parties.shuffled(using: &random).prefix(2)
      let (a, ta) = randomOp(two.first!, "X")
      let (b, tb) = randomOp(two.last!, "Y")
      let ab = Self.apply(
        b.transformed(against: a), text: tb, to: Self.apply(a, text: ta, to: base))
      let ba = Self.apply(
        a.transformed(against: b), text: ta, to: Self.apply(b, text: tb, to: base))
      #expect(ab == ba, "seed \(seed): \(base) \(a) \(b)")
      // The in-place transformation is the same as the copying one.
      var inPlace = b
      inPlace.transform(against: a.pieces[0], by: a.party)
      #expect(inPlace == b.transformed(against: a), "seed \(seed): \(a) \(b)")
      // Nothing either inserted is lost.
      #expect(ab.filter { $0 == "X" }.count == ta.count)
      #expect(ab.filter { $0 == "Y" }.count == tb.count)
    }
  }
}
