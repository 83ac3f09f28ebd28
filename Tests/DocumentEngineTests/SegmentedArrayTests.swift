import Testing
import _EngineTestSupport

@testable import DocumentEngine

/// `_SegmentedArray` against `Array`: appends across segment edges,
/// removals at the front (inside a segment, of whole segments, of
/// everything), copies that share segments and then diverge.
@Suite struct SegmentedArrayTests {
  @Test func randomizedAgainstArray() {
    let seed = TestSettings.seed("SegmentedArrayTests.randomizedAgainstArray")
    var random = SeededRandom(seed: seed)
    let size = _SegmentedArray<Int>.segmentCount
    for round in 0..<TestSettings.iterations(40) {
      var segmented = _SegmentedArray<Int>()
      var model: [Int] = []
      var copies: [(_SegmentedArray<Int>, [Int])] = []
      var next = 0
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6:
          // Appends: a few, or past one or more segment edges.
          let count =
            Bool.random(using: &random)
            ? Int.random(in: 0...5, using: &random)
            : Int.random(in: size - 3...2 * size + 3, using: &random)
          for _ in 0..<count {
            segmented.append(next)
            model.append(next)
            next += 1
          }
        case 6..<8:
          let k = Int.random(in: 0...model.count, using: &random)
          segmented.removeFirst(k)
          model.removeFirst(k)
        case 8:
          let keep = Bool.random(using: &random)
          segmented.removeAll(keepingCapacity: keep)
          model.removeAll(keepingCapacity: keep)
        default:
          copies.append((segmented, model))
        }
        #expect(segmented.count == model.count, "round \(round), SEED=\(seed)")
        #expect(segmented.elementsEqual(model), "round \(round), SEED=\(seed)")
        if !model.isEmpty {
          let i = Int.random(in: 0..<model.count, using: &random)
          #expect(segmented[i] == model[i], "round \(round), SEED=\(seed)")
          // (The elements are increasing: the first at or past one of them.)
          let key = model[i]
          #expect(
            segmented.partitioningIndex { $0 >= key } == model.firstIndex { $0 >= key },
            "round \(round), SEED=\(seed)")
          #expect(Array(segmented[i...]) == Array(model[i...]), "round \(round), SEED=\(seed)")
          // Runs from i: in order, each at its index, up to a stop.
          let stop = Int.random(in: i...model.count, using: &random)
          var seen: [Int] = []
          segmented.forEachRun(from: i) { run, first in
            #expect(first == i + seen.count && !run.isEmpty, "round \(round), SEED=\(seed)")
            seen += run
            return i + seen.count < stop
          }
          #expect(
            seen.count >= stop - i && Array(model[i..<i + seen.count]) == seen,
            "round \(round), SEED=\(seed)")
        }
      }
      // Copies kept their elements while the original went on.
      for (copy, expected) in copies {
        #expect(copy.elementsEqual(expected), "round \(round), SEED=\(seed)")
      }
    }
  }

  /// A short history takes little room (most storages' logs are short);
  /// a long one whole segments.
  @Test func aFewElementsTakeAFewElementsRoom() {
    var a = _SegmentedArray<Int>()
    for i in 0..<3 { a.append(i) }
    #expect(a.capacity < 64)
    let size = _SegmentedArray<Int>.segmentCount
    for i in 3..<size + 1 { a.append(i) }
    #expect(a.capacity >= 2 * size && a.capacity <= 2 * size + size / 8)
    #expect(a.elementsEqual(0..<size + 1))
  }

  @Test func aCopyThenAppendLeavesTheCopyAlone() {
    var a = _SegmentedArray<String>((0..<5000).map(String.init))
    let b = a
    a.append("new")
    a.removeFirst(4097)
    #expect(b.count == 5000 && b[4999] == "4999" && b[0] == "0")
    #expect(a.count == 904 && a[0] == "4097" && a[903] == "new")
  }
}
