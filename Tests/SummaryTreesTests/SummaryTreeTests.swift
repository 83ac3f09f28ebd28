import SummaryTrees
import Testing
import _EngineTestSupport

/// Test items: a value; the summary counts items and adds values (some 0, so
/// that items of zero measure sit on boundaries).
struct Piece: TreeItem, Equatable {
  var value: Int
  var summary: Counts { Counts(items: 1, total: value) }
}

struct Counts: TreeSummary {
  var items: Int
  var total: Int
  static let zero = Counts(items: 0, total: 0)
  static func + (lhs: Counts, rhs: Counts) -> Counts {
    Counts(items: lhs.items + rhs.items, total: lhs.total + rhs.total)
  }
}

enum ItemMetric: TreeMetric {
  static func measure(_ s: Counts) -> Int { s.items }
}

enum TotalMetric: TreeMetric {
  static func measure(_ s: Counts) -> Int { s.total }
}

typealias Tree = SummaryTree<Piece>

func values(_ tree: Tree) -> [Int] { tree.map(\.value) }

func expectMatches(_ tree: Tree, _ model: [Int], sourceLocation: SourceLocation = #_sourceLocation)
{
  tree._invariantCheck()
  #expect(values(tree) == model, sourceLocation: sourceLocation)
  #expect(
    tree.summary == Counts(items: model.count, total: model.reduce(0, +)),
    sourceLocation: sourceLocation)
}

func randomValues(_ count: Int, using rng: inout SeededRandom) -> [Int] {
  (0..<count).map { _ in Int.random(in: 0...4, using: &rng) }
}

@Suite struct SummaryTreeTests {
  @Test(arguments: [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 64, 65, 100, 257, 1000])
  func buildsFromItems(count: Int) {
    let model = Array(0..<count)
    let tree = Tree(model.map(Piece.init))
    expectMatches(tree, model)
    #expect(tree.isEmpty == (count == 0))
  }

  @Test func emptyTree() {
    let tree = Tree()
    #expect(tree.isEmpty)
    #expect(tree.find(ItemMetric.self, 0, bias: .right) == nil)
    #expect(tree.withItem(ItemMetric.self, at: 0, bias: .right) { item, _ in item.value } == nil)
    let (a, b) = tree.split(ItemMetric.self, at: 0)
    #expect(a.isEmpty && b.isEmpty)
    #expect(Array(tree).isEmpty)
    var cursor = tree.cursorAtStart()
    #expect(cursor.item == nil)
    #expect(cursor.moveNext() == nil)
  }

  @Test func findHonoursBias() {
    // Values 2, 0, 3: boundaries at totals 0, 2, 2, 5.
    let tree = Tree([2, 0, 3].map(Piece.init))
    #expect(tree.find(TotalMetric.self, 0, bias: .left)?.item.value == 2)
    #expect(tree.find(TotalMetric.self, 1, bias: .right)?.item.value == 2)
    #expect(tree.find(TotalMetric.self, 2, bias: .left)?.item.value == 2)
    #expect(tree.find(TotalMetric.self, 2, bias: .right)?.item.value == 3)
    #expect(tree.find(TotalMetric.self, 2, bias: .right)?.prefix == Counts(items: 2, total: 2))
    #expect(tree.find(TotalMetric.self, 5, bias: .right)?.item.value == 3)
    #expect(tree.find(TotalMetric.self, 99, bias: .left)?.item.value == 3)
  }

  @Test func concatenatesTreesOfEveryHeight() {
    let sizes = [0, 1, 2, 3, 5, 8, 13, 30, 64, 100, 300]
    for a in sizes {
      for b in sizes {
        let left = Array(0..<a)
        let right = Array(1000..<(1000 + b))
        let tree = Tree(left.map(Piece.init)) + Tree(right.map(Piece.init))
        expectMatches(tree, left + right)
      }
    }
  }

  @Test func concatenationLeavesOperandsUnchanged() {
    let a = Tree((0..<50).map(Piece.init))
    let b = Tree((50..<60).map(Piece.init))
    var c = a
    c.append(contentsOf: b)
    c.append(contentsOf: a)
    expectMatches(a, Array(0..<50))
    expectMatches(b, Array(50..<60))
    expectMatches(c, Array(0..<60) + Array(0..<50))
  }

  @Test func splitsAtEveryItemBoundary() {
    for count in [1, 2, 5, 17, 100] {
      let model = Array(0..<count)
      let tree = Tree(model.map(Piece.init))
      for k in 0...count {
        let (a, b) = tree.split(ItemMetric.self, at: k)
        expectMatches(a, Array(model[..<k]))
        expectMatches(b, Array(model[k...]))
        expectMatches(a + b, model)
      }
      expectMatches(tree, model)
    }
  }

  @Test func splitByTotalKeepsZeroItemsOnTheLeft() {
    let tree = Tree([1, 0, 0, 2, 0, 1].map(Piece.init))
    let (a, b) = tree.split(TotalMetric.self, at: 1)
    #expect(values(a) == [1, 0, 0])
    #expect(values(b) == [2, 0, 1])
    let (c, d) = tree.split(TotalMetric.self, at: 2)  // inside the item of 2
    #expect(values(c) == [1, 0, 0])
    #expect(values(d) == [2, 0, 1])
  }

  @Test func splitCuttingTheStraddlingItem() {
    // Values 2, 0, 3: cutting at total 3 falls one unit into the 3.
    let tree = Tree([2, 0, 3].map(Piece.init))
    let (a, b) = tree.split(TotalMetric.self, at: 3) { piece, inside in
      (Piece(value: inside), Piece(value: piece.value - inside))
    }
    expectMatches(a, [2, 0, 1])
    expectMatches(b, [2])
    let (c, d) = tree.split(TotalMetric.self, at: 2) { _, _ in
      Issue.record("no item straddles a boundary")
      return (Piece(value: 0), Piece(value: 0))
    }
    expectMatches(c, [2, 0])
    expectMatches(d, [3])
  }

  @Test func splitBiasDecidesWhereZeroItemsGo() {
    // Zero-measure items on the cut go left with .left, right with .right,
    // and stay after an item that a cut straddles.
    let tree = Tree([2, 0, 0, 3, 0, 1].map(Piece.init))
    let (a, b) = tree.split(TotalMetric.self, at: 2, bias: .right)
    expectMatches(a, [2])
    expectMatches(b, [0, 0, 3, 0, 1])
    let (c, d) = tree.split(TotalMetric.self, at: 2, bias: .left)
    expectMatches(c, [2, 0, 0])
    expectMatches(d, [3, 0, 1])
    let (e, f) = tree.split(TotalMetric.self, at: 4, bias: .right) { piece, inside in
      (Piece(value: inside), Piece(value: piece.value - inside))
    }
    expectMatches(e, [2, 0, 0, 2])
    expectMatches(f, [1, 0, 1])
    var rng = SeededRandom(seed: TestSettings.seed("SummaryTree split bias"))
    for _ in 0..<TestSettings.iterations(300) {
      let model = randomValues(Int.random(in: 0...60, using: &rng), using: &rng)
      let big = Tree(model.map(Piece.init))
      let offset = Int.random(in: 0...model.reduce(0, +), using: &rng)
      for bias in [Bias.left, .right] {
        var total = 0
        var cut = 0
        while cut < model.count {
          let next = total + model[cut]
          if next > offset
            || (bias == .right && next == offset && model[cut] == 0 && total == offset)
          {
            break
          }
          total = next
          cut += 1
        }
        let (l, r) = big.split(TotalMetric.self, at: offset, bias: bias)
        expectMatches(l, Array(model[..<cut]))
        expectMatches(r, Array(model[cut...]))
      }
    }
  }

  @Test func randomizedAgainstAnArray() {
    var rng = SeededRandom(seed: TestSettings.seed("SummaryTree randomized"))
    let rounds = TestSettings.iterations(3000)
    var model = randomValues(Int.random(in: 0...40, using: &rng), using: &rng)
    var tree = Tree(model.map(Piece.init))
    var snapshots: [(Tree, [Int])] = []
    for _ in 0..<rounds {
      if Int.random(in: 0..<10, using: &rng) == 0 { snapshots.append((tree, model)) }
      switch Int.random(in: 0..<8, using: &rng) {
      case 0:  // append or prepend a random tree
        let extra = randomValues(Int.random(in: 0...60, using: &rng), using: &rng)
        if Bool.random(using: &rng) {
          tree.append(contentsOf: Tree(extra.map(Piece.init)))
          model += extra
        } else {
          tree = Tree(extra.map(Piece.init)) + tree
          model = extra + model
        }
      case 1:  // split and rejoin, or keep a part
        let k = Int.random(in: 0...model.count, using: &rng)
        let (a, b) = tree.split(ItemMetric.self, at: k)
        expectMatches(a, Array(model[..<k]))
        expectMatches(b, Array(model[k...]))
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
          tree = a
          model = Array(model[..<k])
        case 1:
          tree = b
          model = Array(model[k...])
        default:
          tree = a + b
        }
      case 2, 3:  // update an item in place
        guard !model.isEmpty else { continue }
        let i = Int.random(in: 0..<model.count, using: &rng)
        let action = Int.random(in: 0..<3, using: &rng)
        let newValue = Int.random(in: 0...4, using: &rng)
        let extra = randomValues(Int.random(in: 1...12, using: &rng), using: &rng)
        let seen = tree.updateItem(ItemMetric.self, at: i, bias: .right) {
          (item: inout Piece, prefix: Counts) -> (Int, TreeItemChange<Piece>) in
          let old = item.value
          item.value = newValue
          #expect(prefix.items == i)
          switch action {
          case 0: return (old, .keep)
          case 1: return (old, .remove)
          default: return (old, .insertAfter(ContiguousArray(extra.map(Piece.init))))
          }
        }
        #expect(seen == model[i])
        model[i] = newValue
        if action == 1 { model.remove(at: i) }
        if action == 2 { model.insert(contentsOf: extra, at: i + 1) }
      case 4:  // find by both metrics
        guard !model.isEmpty else { continue }
        let i = Int.random(in: 0..<model.count, using: &rng)
        let hit = tree.find(ItemMetric.self, i, bias: .right)
        #expect(hit?.item.value == model[i])
        #expect(hit?.prefix == Counts(items: i, total: model[..<i].reduce(0, +)))
        let total = model.reduce(0, +)
        let t = Int.random(in: 0...total, using: &rng)
        let bias: Bias = Bool.random(using: &rng) ? .left : .right
        let found = tree.find(TotalMetric.self, t, bias: bias)
        // The model: the first item (left) or the first non-empty item (right)
        // whose end reaches t; with .left an item may end exactly at t.
        var acc = 0
        var expected = model.count - 1
        for (j, v) in model.enumerated() {
          if t < acc + v || (bias == .left && t == acc + v) {
            expected = j
            break
          }
          acc += v
        }
        #expect(found?.prefix.items == expected)
        // `withItem` lends the same item, with the same prefix.
        let lent = tree.withItem(TotalMetric.self, at: t, bias: bias) { item, prefix in
          (item.value, prefix)
        }
        #expect(lent?.0 == found?.item.value && lent?.1 == found?.prefix)
      case 5:  // cursor walks
        guard !model.isEmpty else { continue }
        let i = Int.random(in: 0..<model.count, using: &rng)
        var cursor = tree.cursor(ItemMetric.self, at: i, bias: .right)
        #expect(cursor.item?.value == model[i])
        var j = i
        for _ in 0..<Int.random(in: 0...20, using: &rng) {
          if Bool.random(using: &rng) {
            let next = cursor.moveNext()
            j += 1
            #expect(next?.value == (j < model.count ? model[j] : nil))
            if next == nil { break }
          } else {
            let previous = cursor.movePrevious()
            j -= 1
            #expect(previous?.value == (j >= 0 ? model[j] : nil))
            if previous == nil { break }
          }
          #expect(cursor.prefix.items == j)
          #expect(cursor.prefix.total == model[..<j].reduce(0, +))
        }
      case 6:  // replace a range of items
        let lower = Int.random(in: 0...model.count, using: &rng)
        let upper = Int.random(in: lower...model.count, using: &rng)
        let extra = randomValues(Int.random(in: 0...30, using: &rng), using: &rng)
        if Bool.random(using: &rng) {
          tree.replace(ItemMetric.self, lower..<upper, with: extra.map(Piece.init))
          model.replaceSubrange(lower..<upper, with: extra)
        } else {
          tree.insert(contentsOf: extra.map(Piece.init), at: lower, in: ItemMetric.self)
          model.insert(contentsOf: extra, at: lower)
        }
      default:  // rebuild from scratch now and then, to vary shapes
        if Int.random(in: 0..<4, using: &rng) == 0 {
          model = randomValues(Int.random(in: 0...200, using: &rng), using: &rng)
          tree = Tree(model.map(Piece.init))
        }
      }
      expectMatches(tree, model)
    }
    for (tree, model) in snapshots {
      expectMatches(tree, model)
    }
  }
}

struct Refusal: Error {}

@Suite struct SummaryTreeUpdateTests {
  @Test func aThrowingUpdateLeavesSummariesRight() {
    var tree = Tree((0..<100).map { Piece(value: $0 % 5) })
    var model = (0..<100).map { $0 % 5 }
    #expect(throws: Refusal.self) {
      try tree.updateItem(ItemMetric.self, at: 42, bias: .right) {
        (item: inout Piece, _: Counts) throws -> (Void, TreeItemChange<Piece>) in
        item.value = 100
        throw Refusal()
      }
    }
    model[42] = 100
    expectMatches(tree, model)
  }
}

/// Items whose summary tells how a slot's change changes its node's
/// (``TreeSummary/replacing(_:with:in:isLast:)``): a count, a total, and the
/// last value.
struct Tally: TreeItem, Equatable {
  var value: Int
  var summary: TallySum { TallySum(items: 1, total: value, last: value) }
}

struct TallySum: TreeSummary {
  var items: Int
  var total: Int
  var last: Int
  static let zero = TallySum(items: 0, total: 0, last: 0)
  static func + (lhs: TallySum, rhs: TallySum) -> TallySum {
    TallySum(
      items: lhs.items + rhs.items, total: lhs.total + rhs.total,
      last: rhs.items > 0 ? rhs.last : lhs.last)
  }
  static func replacing(
    _ old: TallySum, with new: TallySum, in whole: TallySum, isLast: Bool
  ) -> TallySum? {
    guard old.items == new.items else { return nil }
    return TallySum(
      items: whole.items, total: whole.total - old.total + new.total,
      last: isLast ? new.last : whole.last)
  }
}

@Suite struct SummaryTreeInPlaceTests {
  /// `updateEach` changes the admitted items in place; the summaries on
  /// their paths stay right (kept slot by slot), and a copy taken before
  /// is unchanged.
  @Test func inPlaceUpdatesKeepSummariesAndCopies() {
    let seed = TestSettings.seed("SummaryTreeInPlaceTests.inPlaceUpdatesKeepSummariesAndCopies")
    var random = SeededRandom(seed: seed)
    for _ in 0..<TestSettings.iterations(40) {
      let count = Int.random(in: 0...300, using: &random)
      var model = (0..<count).map { _ in Int.random(in: 0...5, using: &random) }
      var tree = SummaryTree<Tally>(model.map { Tally(value: $0) })
      for _ in 0..<20 {
        let before = tree
        let beforeModel = model
        let limit = Int.random(in: 0...(count + 1), using: &random)
        let delta = Int.random(in: -2...3, using: &random)
        if Bool.random(using: &random) {
          // Every item before `limit` (by count), stopping there.
          tree.updateEach(
            admitting: { prefix, _ in prefix.items < limit },
            { item, prefix in
              if prefix.items >= limit { return false }
              item.value += delta
              return true
            })
          for i in model.indices where i < limit { model[i] += delta }
        }
        tree._invariantCheck()
        #expect(tree.map(\.value) == model, "seed \(seed)")
        #expect(
          tree.summary
            == TallySum(items: model.count, total: model.reduce(0, +), last: model.last ?? 0),
          "seed \(seed)")
        #expect(before.map(\.value) == beforeModel, "seed \(seed)")
      }
    }
  }
}
