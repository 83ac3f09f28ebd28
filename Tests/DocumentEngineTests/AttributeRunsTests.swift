import DocumentEngine
import Testing
import _EngineTestSupport

@Suite struct AttributeRunsTests {
  @Test func insertionsInsideARunExtendItButNotAtItsEdges() throws {
    var excluded = AttributeRuns<Bool>(length: 20)
    try excluded.set(true, in: 5..<10)
    try excluded.replace(7..<7, withLength: 3)
    #expect(excluded.runs(in: 0..<23).map(\.range) == [5..<13])
    try excluded.replace(5..<5, withLength: 2)
    #expect(excluded.runs(in: 0..<25).map(\.range) == [7..<15])
    try excluded.replace(15..<15, withLength: 1)
    #expect(excluded.runs(in: 0..<26).map(\.range) == [7..<15])
    try excluded.replace(8..<14, withLength: 0)
    #expect(excluded.runs(in: 0..<20).map(\.range) == [7..<9])
    #expect(throws: AttributeRunsError.self) { try excluded.set(true, in: 0..<99) }
    #expect(throws: AttributeRunsError.self) { try excluded.value(at: 20) }
  }

  /// The runs of a plain array with one value a unit.
  func modelRuns(_ model: [String?], in range: Range<Int>) -> [(Range<Int>, String)] {
    var result: [(Range<Int>, String)] = []
    var i = range.lowerBound
    while i < range.upperBound {
      var j = i + 1
      while j < range.upperBound && model[j] == model[i] { j += 1 }
      if let value = model[i] { result.append((i..<j, value)) }
      i = j
    }
    return result
  }

  @Test func randomizedAgainstAnArray() throws {
    var rng = SeededRandom(seed: TestSettings.seed("attribute runs"))
    let values: [String?] = [nil, "excluded", "code", "quote"]
    var model = [String?](repeating: nil, count: Int.random(in: 0...30, using: &rng))
    var runs = AttributeRuns<String>(length: model.count)
    for _ in 0..<TestSettings.iterations(1500) {
      let a = Int.random(in: 0...model.count, using: &rng)
      let b = Int.random(in: a...min(model.count, a + 12), using: &rng)
      if Bool.random(using: &rng) {
        let value = values.randomElement(using: &rng) ?? nil
        try runs.set(value, in: a..<b)
        for i in a..<b { model[i] = value }
      } else {
        let newLength = Int.random(in: 0...6, using: &rng)
        let inside =
          a > 0 && b < model.count
          && {
            // One run from a - 1 through b.
            (a - 1...b).allSatisfy { model[$0] == model[a - 1] }
          }()
        let value = inside ? model[a - 1] : nil
        try runs.replace(a..<b, withLength: newLength)
        model.replaceSubrange(a..<b, with: [String?](repeating: value, count: newLength))
      }
      #expect(runs.length == model.count)
      let expected = modelRuns(model, in: 0..<model.count)
      let actual = runs.runs(in: 0..<model.count)
      #expect(actual.map(\.range) == expected.map(\.0))
      #expect(actual.map(\.value) == expected.map(\.1))
      // Runs are stored coalesced: one per maximal stretch, nil ones too.
      var stretches = 0
      for i in model.indices where i == 0 || model[i] != model[i - 1] { stretches += 1 }
      #expect(runs.runCount == stretches)
      if !model.isEmpty {
        let i = Int.random(in: 0..<model.count, using: &rng)
        #expect(try runs.value(at: i) == model[i])
        let lo = Int.random(in: 0..<model.count, using: &rng)
        let hi = Int.random(in: lo...model.count, using: &rng)
        #expect(runs.runs(in: lo..<hi).map(\.range) == modelRuns(model, in: lo..<hi).map(\.0))
      }
    }
  }
}
