import DocumentEngine
import Testing
import TextRope
import _EngineTestSupport

@Suite struct DocumentContentTests {
  func sample() throws -> DocumentContent {
    var document = DocumentContent()
    try document.add("title", text: "Draft\n")
    try document.add("body", text: "One two.\nThree fuor.\nFive.\n")
    return document
  }

  @Test func storagesInOrder() throws {
    var document = try sample()
    try document.add("note", text: "n", after: "title")
    #expect(document.order == ["title", "note", "body"])
    try document.move("title", after: "body")
    #expect(document.order == ["note", "body", "title"])
    try document.move("title", after: nil)
    #expect(document.order == ["title", "note", "body"])
    try document.move("title", after: "note")
    #expect(document.order == ["note", "title", "body"])
    try document.remove("note")
    #expect(document.order == ["title", "body"])
    #expect(try document.locate(8) == TextPosition("body", 2))
    #expect(document.index.length == 6 + 27)
  }

  @Test func editsBumpVersionsAndMoveExclusions() throws {
    var document = try sample()
    try document.setExcluded(true, in: "body", range: 9..<14)  // "Three"
    let snapshot = document
    #expect(try document.edit("body", range: 0..<0, with: "Zero. ") == 1)
    #expect(try document.storage("body").excludedRanges == [15..<20])
    #expect(try document.edit("body", range: 17..<17, with: "XX") == 2)  // inside: grows
    #expect(try document.storage("body").excludedRanges == [15..<22])
    #expect(try document.edit("body", range: 15..<15, with: "<") == 3)  // at the edge: not
    #expect(try document.storage("body").excludedRanges == [16..<23])
    #expect(try document.storage("title").version == 0)
    #expect(document.index.length == 6 + 36)
    // The snapshot did not move.
    #expect(try snapshot.storage("body").version == 0)
    #expect(try snapshot.storage("body").excludedRanges == [9..<14])
    #expect(String(try snapshot.storage("body").text) == "One two.\nThree fuor.\nFive.\n")
  }

  @Test func refusalsChangeNothing() throws {
    var document = try sample()
    let before = document
    #expect(throws: DocumentError.duplicateStorage("body")) { try document.add("body", text: "") }
    #expect(throws: DocumentError.unknownStorage("nope")) {
      try document.add("x", text: "", after: "nope")
    }
    #expect(throws: DocumentError.unknownStorage("nope")) { try document.remove("nope") }
    #expect(throws: DocumentError.unknownStorage("nope")) {
      try document.move("body", after: "nope")
    }
    #expect(throws: DocumentError.self) { try document.edit("body", range: 0..<99, with: "") }
    #expect(throws: DocumentError.self) { try document.edit("nope", range: 0..<0, with: "") }
    #expect(throws: DocumentError.self) {
      try document.setExcluded(true, in: "title", range: 0..<7)
    }
    try document.add("emoji", text: "a😀")
    #expect(
      throws: DocumentError.invalidRange("emoji", .splitsSurrogatePair(utf16Offset: 2))
    ) { try document.edit("emoji", range: 2..<3, with: "") }
    try document.remove("emoji")
    #expect(document.order == before.order)
    #expect(try document.storage("body").version == 0)
    #expect(try document.storage("title").excludedRanges.isEmpty)
  }

  @Test func randomEditsKeepTheIndexInStep() throws {
    var rng = SeededRandom(seed: TestSettings.seed("document content"))
    var document = DocumentContent()
    var texts: [StorageID: TextModel] = [:]
    var next = 0
    for _ in 0..<TestSettings.iterations(500) {
      let ids = document.order
      if ids.isEmpty || Int.random(in: 0..<8, using: &rng) == 0 {
        let id = StorageID("s\(next)")
        next += 1
        let text = rng.randomText(pieces: Int.random(in: 0...10, using: &rng))
        try document.add(id, text: Rope(text), after: ids.randomElement(using: &rng))
        texts[id] = TextModel(text)
      } else if let id = ids.randomElement(using: &rng), var model = texts[id] {
        let bounds = model.boundaries
        let a = bounds.randomElement(using: &rng) ?? bounds[0]
        let b = bounds.randomElement(using: &rng) ?? bounds[0]
        let (lo, hi) = a.scalar <= b.scalar ? (a, b) : (b, a)
        let piece = rng.randomText(pieces: Int.random(in: 0...3, using: &rng))
        try document.edit(id, range: lo.utf16..<hi.utf16, with: piece)
        model.replace(lo.scalar..<hi.scalar, with: piece)
        texts[id] = model
      }
      var start = 0
      for id in document.order {
        let storage = try document.storage(id)
        #expect(String(storage.text) == texts[id]?.string)
        #expect(try document.index.start(of: id) == start)
        #expect(storage.exclusions.length == storage.length)
        start += storage.length
      }
      #expect(document.index.length == start)
    }
  }
}
