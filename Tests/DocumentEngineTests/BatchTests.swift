import DocumentEngine
import Foundation
import Testing
import TextRope
import _EngineTestSupport

/// `Document.apply(_:)`: a batch of edits, all or nothing.
@Suite struct BatchTests {
  /// The document after `body` = "One two.\nThree fuor.\nFive.\n" and a
  /// title, with the selection on "fuor" and a session on it.
  func started() throws -> (Document, UUID) {
    let document = Document()
    try document.add("title", text: Rope("Draft\n"))
    try document.add("body", text: Rope("One two.\nThree fuor.\nFive.\n"))
    try document.select([SelectionRange("body", 15..<19)])
    let context = try document.startSession(scope: .userSelection).contexts[0]
    return (document, context.id)
  }

  @Test func editsApplyInOrderEachOnTheTextBeforeIt() throws {
    let (document, context) = try started()
    let results = try document.apply([
      DocumentEdit("title", range: 0..<5, with: "Notes"),
      DocumentEdit("body", range: 0..<0, with: "Zero. "),
      // On the text the edit before left: "Zero. One two.\n…".
      DocumentEdit("body", range: 6..<9, with: "1"),
      // In scalars: "🙂" is one scalar, two UTF-16 units.
      DocumentEdit("title", range: 5..<5, in: .unicodeScalars, with: "🙂"),
      DocumentEdit("title", range: 6..<6, in: .unicodeScalars, with: "!"),
    ])
    #expect(String(try document.content.storage("title").text) == "Notes🙂!\n")
    #expect(
      String(try document.content.storage("body").text) == "Zero. 1 two.\nThree fuor.\nFive.\n")
    #expect(results.map(\.version) == [1, 1, 2, 2, 3])
    #expect(results[3].range == 5..<7)
    #expect(results[4].range == 7..<8)
    // The context moved with the edits before it, and heard each.
    #expect(
      results[1].events == [.reflowed(context: context, storageRange: 15..<27)])
    #expect(
      results[2].events == [.reflowed(context: context, storageRange: 13..<25)])
    #expect(try document.liveContext(context).storageRange == 13..<25)
  }

  @Test func aRefusedEditLeavesEverythingAsItWas() async throws {
    let (document, context) = try started()
    try document.select([SelectionRange("body", 15..<19)])
    let before = document.content
    let events = document.events()
    var refused: DocumentError? = nil
    do {
      try document.apply([
        DocumentEdit("body", range: 0..<0, with: "Zero. "),
        DocumentEdit("title", range: 0..<5, with: "Notes"),
        // Past the end of the title: out of bounds.
        DocumentEdit("title", range: 3..<40, with: "x"),
        DocumentEdit("body", range: 0..<1, with: "o"),
      ])
    } catch {
      refused = error
    }
    guard case .batchRefused(let index, let reason)? = refused else {
      Issue.record("expected batchRefused, got \(String(describing: refused))")
      return
    }
    #expect(index == 2)
    #expect(
      reason == .invalidRange("title", .offsetOutOfBounds(offset: 40, unit: .utf16, count: 6)))
    for id: StorageID in ["title", "body"] {
      let now = try document.content.storage(id)
      let then = try before.storage(id)
      #expect(String(now.text) == String(then.text))
      #expect(now.version == then.version)
      #expect(now.changes.records.count == then.changes.records.count)
    }
    #expect(try document.liveContext(context).storageRange == 9..<21)
    #expect(try document.liveContext(context).contextVersion == 0)
    #expect(document.selection == [SelectionRange("body", 15..<19)])
    // Nothing was published: the next event is the next edit's.
    try document.edit("body", range: 0..<0, with: ">")
    var iterator = events.makeAsyncIterator()
    let first = await iterator.next()
    #expect(first == .reflowed(context: context, storageRange: 10..<22))
  }

  @Test func aBatchInAUnitIsRefusedInsideAScalar() throws {
    let document = Document()
    try document.add("a", text: Rope("é😀"))
    #expect(
      throws: DocumentError.batchRefused(index: 1, .invalidRange("a", .splitsScalar(utf8Offset: 2)))
    ) {
      try document.apply([
        DocumentEdit("a", range: 0..<0, in: .utf8, with: "x"),
        DocumentEdit("a", range: 2..<2, in: .utf8, with: "y"),
      ])
    }
    #expect(String(try document.content.storage("a").text) == "é😀")
    #expect(try document.content.storage("a").version == 0)
  }

  @Test func anEmptyBatchDoesNothing() throws {
    let document = Document()
    try document.add("a", text: Rope("abc"))
    #expect(try document.apply([]).isEmpty)
    #expect(try document.content.storage("a").version == 0)
  }

  @Test func oneEditAsABatchWouldTakeIt() throws {
    let document = Document()
    try document.add("a", text: Rope("é😀x"))
    let result = try document.edit(DocumentEdit("a", range: 2..<3, in: .unicodeScalars, with: "y"))
    #expect(result.range == 3..<4)
    #expect(String(try document.content.storage("a").text) == "é😀y")
    #expect(throws: DocumentError.invalidRange("a", .splitsSurrogatePair(utf16Offset: 2))) {
      try document.edit(DocumentEdit("a", range: 2..<2, with: "z"))
    }
  }

  @Test func indexErrorsReadAsSentences() {
    #expect(
      DocumentIndexError.offsetOutOfBounds(9, length: 4).description
        == "document offset 9 is outside the document of 4 UTF-16 units")
    #expect(DocumentIndexError.empty.description == "the document has no storage")
  }

  @Test func errorsReadAsSentences() {
    let errors: [DocumentError] = [
      .unknownStorage("notes"), .duplicateStorage("notes"),
      .invalidRange("notes", .offsetOutOfBounds(offset: 9, unit: .utf16, count: 4)),
      .unknownContext(UUID()), .noSession, .outsideContext(3..<9, length: 4),
      .conflict(context: UUID()), .excluded(2..<5), .staleVersion(7), .staleContextVersion(2),
      .invalidStateTransition(from: .noninteractive, to: .interactiveStreaming),
      .negativeCount(-1), .batchRefused(index: 3, .staleVersion(7)),
    ]
    // Every case says something of its own: no two read the same.
    let texts = errors.map(\.description)
    #expect(Set(texts).count == texts.count, "\(texts)")
    #expect(DocumentError.unknownStorage("notes").description == "no storage is named 'notes'")
    #expect(
      DocumentError.batchRefused(index: 3, .staleVersion(7)).description
        == "edit 3 of the batch was refused: storage version 7 is not known: newer than the "
        + "text, or older than the history kept")
  }
}
