import DocumentEngine
import Testing
import TextRope

/// The scope contract of docs/DESIGN.md ("Contexts"), rule by rule.
@Suite struct ContextTests {
  /// title "Draft\n" (0..<6), empty "", body "One two.\nThree fuor.\nFive.\n":
  /// paragraphs 0..<9, 9..<21, 21..<27.
  func document() throws -> DocumentContent {
    var document = DocumentContent()
    try document.add("title", text: "Draft\n")
    try document.add("empty", text: "")
    try document.add("body", text: "One two.\nThree fuor.\nFive.\n")
    return document
  }

  struct Expected: Equatable, CustomStringConvertible {
    var storage: StorageID
    var storageRange: Range<Int>
    var text: String
    var range: Range<Int>
    var excluded: [Range<Int>] = []

    var description: String { "\(storage) \(storageRange) \(text.debugDescription) \(range)" }
  }

  func summarize(_ contexts: [WritingContext]) -> [Expected] {
    contexts.map {
      Expected(
        storage: $0.storage, storageRange: $0.storageRange, text: String($0.text), range: $0.range,
        excluded: $0.excluded)
    }
  }

  @Test func selectionInsideOneParagraph() throws {
    // The example of PROTOCOL.md.
    let contexts = try document().contexts(
      for: .userSelection, selection: [SelectionRange("body", 15..<19)])
    #expect(
      summarize(contexts) == [
        Expected(storage: "body", storageRange: 9..<21, text: "Three fuor.\n", range: 6..<10)
      ])
    #expect(contexts[0].resolvedRange == 0..<12)
    #expect(contexts[0].contextVersion == 0)
    #expect(contexts[0].version == 0)
  }

  @Test func selectionAcrossParagraphs() throws {
    let contexts = try document().contexts(
      for: .userSelection, selection: [SelectionRange("body", 4..<12)])
    #expect(
      summarize(contexts) == [
        Expected(
          storage: "body", storageRange: 0..<21, text: "One two.\nThree fuor.\n", range: 4..<12)
      ])
  }

  @Test func selectionEndingRightAfterASeparator() throws {
    let contexts = try document().contexts(
      for: .userSelection, selection: [SelectionRange("body", 9..<21)])
    #expect(
      summarize(contexts) == [
        Expected(storage: "body", storageRange: 9..<21, text: "Three fuor.\n", range: 0..<12)
      ])
  }

  @Test func selectionAcrossStoragesWithAnEmptyOneBetween() throws {
    let selection = SelectionRange(from: TextPosition("title", 2), to: TextPosition("body", 3))
    let contexts = try document().contexts(for: .userSelection, selection: [selection])
    #expect(
      summarize(contexts) == [
        Expected(storage: "title", storageRange: 0..<6, text: "Draft\n", range: 2..<6),
        Expected(storage: "body", storageRange: 0..<9, text: "One two.\n", range: 0..<3),
      ])
  }

  @Test func aStorageTouchedOnlyAtAnEndPointGetsNoContext() throws {
    let selection = SelectionRange(from: TextPosition("title", 6), to: TextPosition("body", 3))
    let contexts = try document().contexts(for: .userSelection, selection: [selection])
    #expect(summarize(contexts).map(\.storage) == ["body"])
    let ending = SelectionRange(from: TextPosition("title", 1), to: TextPosition("body", 0))
    let others = try document().contexts(for: .userSelection, selection: [ending])
    #expect(summarize(others).map(\.storage) == ["title"])
  }

  @Test(arguments: [0, 12, 27])
  func caretGetsTheWholeStorage(caret: Int) throws {
    let contexts = try document().contexts(
      for: .userSelection, selection: [SelectionRange(caret: TextPosition("body", caret))])
    #expect(
      summarize(contexts) == [
        Expected(
          storage: "body", storageRange: 0..<27, text: "One two.\nThree fuor.\nFive.\n",
          range: caret..<caret)
      ])
  }

  @Test func surroundingParagraphs() throws {
    let document = try document()
    let one = try document.contexts(
      for: .userSelection, selection: [SelectionRange("body", 15..<19)], surroundingParagraphs: 1)
    #expect(
      summarize(one) == [
        Expected(
          storage: "body", storageRange: 0..<27, text: "One two.\nThree fuor.\nFive.\n",
          range: 15..<19)
      ])
    let atEdge = try document.contexts(
      for: .userSelection, selection: [SelectionRange("body", 1..<2)], surroundingParagraphs: 5)
    #expect(atEdge[0].storageRange == 0..<27)
  }

  @Test func fullDocument() throws {
    let document = try document()
    let withSelection = try document.contexts(
      for: .fullDocument, selection: [SelectionRange("body", 15..<19)])
    #expect(
      summarize(withSelection) == [
        Expected(storage: "title", storageRange: 0..<6, text: "Draft\n", range: 0..<6),
        Expected(
          storage: "body", storageRange: 0..<27, text: "One two.\nThree fuor.\nFive.\n",
          range: 15..<19),
      ])
    let withCaret = try document.contexts(
      for: .fullDocument, selection: [SelectionRange(caret: TextPosition("title", 3))])
    #expect(summarize(withCaret).map(\.range) == [3..<3, 0..<27])
  }

  @Test func severalRanges() throws {
    let document = try document()
    // Two ranges in one storage: one context from the first one's paragraph
    // to the last one's, its range their hull.
    let two = try document.contexts(
      for: .userSelection,
      selection: [SelectionRange("body", 22..<24), SelectionRange("body", 4..<7)])
    #expect(
      summarize(two) == [
        Expected(
          storage: "body", storageRange: 0..<27, text: "One two.\nThree fuor.\nFive.\n",
          range: 4..<24)
      ])
    // A range and a caret: the caret does not count when characters are
    // selected; ranges in two storages give one context each.
    let mixed = try document.contexts(
      for: .userSelection,
      selection: [
        SelectionRange(caret: TextPosition("body", 2)), SelectionRange("title", 0..<5),
        SelectionRange("body", 16..<17),
      ])
    #expect(
      summarize(mixed) == [
        Expected(storage: "title", storageRange: 0..<6, text: "Draft\n", range: 0..<5),
        Expected(storage: "body", storageRange: 9..<21, text: "Three fuor.\n", range: 7..<8),
      ])
    // Only carets (several cursors): each storage holding one, whole.
    let carets = try document.contexts(
      for: .userSelection,
      selection: [
        SelectionRange(caret: TextPosition("body", 2)),
        SelectionRange(caret: TextPosition("title", 1)),
      ])
    #expect(summarize(carets).map(\.storage) == ["title", "body"])
    #expect(summarize(carets).map(\.range) == [1..<1, 2..<2])
  }

  @Test func visibleArea() throws {
    let document = try document()
    let plain = try document.contexts(
      for: .visibleArea, selection: [], visible: ["body": 11..<13])
    #expect(
      summarize(plain) == [
        Expected(storage: "body", storageRange: 9..<21, text: "Three fuor.\n", range: 2..<4)
      ])
    let empty = try document.contexts(for: .visibleArea, selection: [], visible: ["body": 11..<11])
    #expect(
      summarize(empty) == [
        Expected(storage: "body", storageRange: 9..<21, text: "Three fuor.\n", range: 2..<2)
      ])
    let selected = try document.contexts(
      for: .visibleArea, selection: [SelectionRange("body", 15..<19)],
      visible: ["body": 11..<13, "title": 0..<2])
    #expect(summarize(selected).map(\.range) == [0..<2, 6..<10])
    let caret = try document.contexts(
      for: .visibleArea, selection: [SelectionRange(caret: TextPosition("body", 12))],
      visible: ["body": 11..<13])
    #expect(summarize(caret).map(\.range) == [3..<3])
  }

  @Test func crlfParagraphSeparatorEmojiAndCombiningMarks() throws {
    var document = DocumentContent()
    try document.add("t", text: "a\r\nb\u{2029}c😀\ne\u{301}!")
    // "b" (3..<4) is the paragraph "b\u{2029}" (3..<5).
    #expect(
      summarize(try document.contexts(for: .userSelection, selection: [SelectionRange("t", 3..<4)]))
        .map(\.storageRange) == [3..<5])
    // Between CR and LF: the CR LF paragraph.
    #expect(
      summarize(try document.contexts(for: .userSelection, selection: [SelectionRange("t", 1..<2)]))
        .map(\.storageRange) == [0..<3])
    // The emoji (6..<8) and its paragraph "c😀\n" (5..<9).
    #expect(
      summarize(try document.contexts(for: .userSelection, selection: [SelectionRange("t", 6..<8)]))
        == [Expected(storage: "t", storageRange: 5..<9, text: "c😀\n", range: 1..<3)])
    // The last paragraph, with a combining mark and no separator.
    #expect(
      summarize(
        try document.contexts(for: .userSelection, selection: [SelectionRange("t", 10..<11)])
      ).map(\.storageRange) == [9..<12])
  }

  @Test func exclusionsRelativeToTheContext() throws {
    var document = try document()
    try document.setExcluded(true, in: "body", range: 15..<19)
    try document.setExcluded(true, in: "body", range: 0..<3)
    let contexts = try document.contexts(
      for: .userSelection, selection: [SelectionRange("body", 10..<12)])
    #expect(contexts[0].excluded == [6..<10])
  }

  @Test func contextsAreSnapshots() throws {
    var document = try document()
    let contexts = try document.contexts(
      for: .userSelection, selection: [SelectionRange("body", 15..<19)])
    try document.edit("body", range: 9..<14, with: "XXXXXXXX")
    #expect(String(contexts[0].text) == "Three fuor.\n")
    #expect(contexts[0].version == 0)
    let again = try document.contexts(
      for: .userSelection, selection: [SelectionRange("body", 15..<19)])
    #expect(again[0].version == 1)
    #expect(again[0].id != contexts[0].id)
  }

  @Test func invalidSelectionsAreErrors() throws {
    var document = try document()
    try document.add("emoji", text: "😀")
    #expect(throws: DocumentError.unknownStorage("nope")) {
      try document.contexts(for: .userSelection, selection: [SelectionRange("nope", 0..<1)])
    }
    #expect(throws: DocumentError.invalidRange("emoji", .splitsSurrogatePair(utf16Offset: 1))) {
      try document.contexts(for: .userSelection, selection: [SelectionRange("emoji", 0..<1)])
    }
    #expect(throws: DocumentError.self) {
      try document.contexts(for: .visibleArea, selection: [], visible: ["body": 0..<99])
    }
  }

  @Test func reversedRangesAreOrdered() throws {
    let selection = SelectionRange(from: TextPosition("body", 3), to: TextPosition("title", 2))
    let contexts = try document().contexts(for: .userSelection, selection: [selection])
    #expect(summarize(contexts).map(\.storage) == ["title", "body"])
  }
}
