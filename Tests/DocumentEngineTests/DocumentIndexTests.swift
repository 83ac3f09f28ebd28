import DocumentEngine
import SummaryTrees
import Testing
import _EngineTestSupport

@Suite struct DocumentIndexTests {
  @Test func example() throws {
    var index = DocumentIndex()
    try index.append("title", length: 6)
    try index.append("body", length: 27)
    #expect(index.length == 33)
    #expect(try index.locate(8) == TextPosition("body", 2))
    #expect(try index.locate(6, bias: .left) == TextPosition("title", 6))
    #expect(try index.locate(6, bias: .right) == TextPosition("body", 0))
    #expect(try index.locate(33) == TextPosition("body", 27))
    #expect(try index.start(of: "body") == 6)
    try index.setLength(of: "title", to: 7)
    #expect(try index.start(of: "body") == 7)
    #expect(try index.documentOffset(of: 3, in: "body") == 10)
  }

  @Test func emptyStoragesArePassedOverOnBoundaries() throws {
    var index = DocumentIndex()
    try index.append("a", length: 5)
    try index.append("empty", length: 0)
    try index.append("c", length: 3)
    #expect(try index.locate(5, bias: .right) == TextPosition("c", 0))
    #expect(try index.locate(5, bias: .left) == TextPosition("a", 5))
    #expect(try index.start(of: "empty") == 5)
    #expect(try index.documentOffset(of: 0, in: "empty") == 5)
  }

  @Test func badRequestsAreErrorsAndChangeNothing() throws {
    var index = DocumentIndex()
    #expect(throws: DocumentIndexError.empty) { try index.locate(0) }
    try index.append("a", length: 5)
    let before = index.ids
    #expect(throws: DocumentIndexError.duplicateStorage("a")) { try index.append("a", length: 1) }
    #expect(throws: DocumentIndexError.unknownStorage("zz")) { try index.remove("zz") }
    #expect(throws: DocumentIndexError.offsetOutOfBounds(6, length: 5)) { try index.locate(6) }
    #expect(throws: DocumentIndexError.offsetOutOfBounds(-1, length: 5)) { try index.locate(-1) }
    #expect(throws: DocumentIndexError.positionOutOfBounds(3, count: 1)) {
      try index.insert("b", length: 1, at: 3)
    }
    #expect(throws: DocumentIndexError.negativeLength(-2)) { try index.setLength(of: "a", to: -2) }
    #expect(throws: DocumentIndexError.offsetOutOfBounds(9, length: 5)) {
      try index.documentOffset(of: 9, in: "a")
    }
    #expect(index.ids == before)
    #expect(index.length == 5)
  }

  @Test func randomizedAgainstAnArray() throws {
    var rng = SeededRandom(seed: TestSettings.seed("document index"))
    var index = DocumentIndex()
    var model: [(id: StorageID, length: Int)] = []
    var next = 0
    for _ in 0..<TestSettings.iterations(2000) {
      switch Int.random(in: 0..<6, using: &rng) {
      case 0, 1:
        let id = StorageID("s\(next)")
        next += 1
        let length = Int.random(in: 0...50, using: &rng)
        let position = Int.random(in: 0...model.count, using: &rng)
        try index.insert(id, length: length, at: position)
        model.insert((id, length), at: position)
      case 2:
        guard let victim = model.randomElement(using: &rng) else { continue }
        try index.remove(victim.id)
        model.removeAll { $0.id == victim.id }
      case 3:
        guard let moved = model.randomElement(using: &rng) else { continue }
        let position = Int.random(in: 0..<model.count, using: &rng)
        try index.move(moved.id, to: position)
        model.removeAll { $0.id == moved.id }
        model.insert(moved, at: position)
      default:
        guard let edited = model.randomElement(using: &rng) else { continue }
        let length = Int.random(in: 0...80, using: &rng)
        try index.setLength(of: edited.id, to: length)
        if let i = model.firstIndex(where: { $0.id == edited.id }) { model[i].length = length }
      }
      index._invariantCheck()
      #expect(index.ids == model.map(\.id))
      let total = model.reduce(0) { $0 + $1.length }
      #expect(index.length == total)
      guard !model.isEmpty else { continue }
      // Every storage's start, and a few offsets located both ways.
      var start = 0
      for (p, entry) in model.enumerated() {
        #expect(try index.position(of: entry.id) == p)
        #expect(try index.start(of: entry.id) == start)
        start += entry.length
      }
      for _ in 0..<5 {
        let offset = Int.random(in: 0...total, using: &rng)
        let bias: Bias = Bool.random(using: &rng) ? .left : .right
        let position = try index.locate(offset, bias: bias)
        let (id, local) = (position.storage, position.offset)
        #expect(try index.documentOffset(of: local, in: id) == offset)
        // The model: with .right the first storage whose range holds the
        // offset before its end (or the last), with .left the first that
        // reaches it.
        var acc = 0
        var expected = model[model.count - 1].id
        for entry in model {
          if offset < acc + entry.length || (bias == .left && offset == acc + entry.length) {
            expected = entry.id
            break
          }
          acc += entry.length
        }
        #expect(id == expected)
      }
    }
  }
}
