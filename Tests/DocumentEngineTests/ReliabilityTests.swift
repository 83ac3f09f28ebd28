import DocumentEngine
import Foundation
import Testing
import TextRope

/// Regression tests for the defects the fuzzing found (issue 12): each is
/// named for what it protects.
@Suite struct ReliabilityTests {
  func text(_ document: Document, _ id: StorageID) throws -> String {
    String(try document.content.storage(id).text)
  }

  // MARK: Surrounding paragraphs (defect 3)

  @Test(arguments: [-1, Int.min])
  func negativeSurroundingParagraphsAreRefused(_ count: Int) throws {
    let document = Document()
    try document.add("body", text: "One.\nTwo.\nThree.\n")
    try document.select([SelectionRange("body", 5..<8)])
    #expect(throws: DocumentError.negativeCount(count)) {
      try document.startSession(scope: .userSelection, surroundingParagraphs: count)
    }
    #expect(document.session == nil)
  }

  @Test(arguments: [3, 1_000, Int.max])
  func hugeSurroundingParagraphsTakeTheWholeStorage(_ count: Int) throws {
    let document = Document()
    try document.add("body", text: "One.\nTwo.\nThree.\n")
    try document.select([SelectionRange("body", 5..<8)])
    let context = try document.startSession(
      scope: .userSelection, surroundingParagraphs: count
    ).contexts[0]
    #expect(context.storageRange == 0..<17)
    #expect(context.range == 5..<8)
  }

  // MARK: No-op edits (defect 7)

  @Test func emptyEditAtAnInvalidOffsetIsRefused() throws {
    let document = Document()
    try document.add("a", text: "👋")
    for offset in [1, -1, 3] {
      #expect(throws: DocumentError.self) {
        try document.edit("a", range: offset..<offset, with: "")
      }
      #expect(throws: DocumentError.self) {
        try document.edit("a", range: offset..<offset, with: "", origin: "peer", basis: 0)
      }
    }
    var content = document.content
    #expect(throws: DocumentError.self) { try content.edit("a", range: 1..<1, with: "") }
    #expect(try document.content.storage("a").version == 0)
    #expect(try document.content.storage("a").changes.records(since: 0).isEmpty)
  }

  @Test func emptyEditMakesNoVersion() throws {
    let document = Document()
    try document.add("a", text: "👋b")
    try document.select([SelectionRange("a", 2..<3)])
    let context = try document.startSession(scope: .userSelection).contexts[0]
    let result = try document.edit("a", range: 2..<2, with: "")
    #expect(result.version == 0)
    #expect(result.events.isEmpty)
    let peer = try document.edit("a", range: 3..<3, with: "", origin: "peer", basis: 0)
    #expect(peer.version == 0)
    var content = document.content
    #expect(try content.edit("a", range: 0..<0, with: "") == 0)
    #expect(throws: DocumentError.self) {
      try document.replace(context: context.id, range: 1..<1, with: "")
    }
    let replaced = try document.replace(context: context.id, range: 2..<2, with: "")
    #expect(replaced.contextVersion == 0)
    #expect(try document.content.storage("a").version == 0)
    #expect(try document.liveContext(context.id).contextVersion == 0)
    #expect(try document.revert().reverted == 0)
    #expect(try text(document, "a") == "👋b")
  }

  // MARK: A caret at the end of the text, visibleArea (defect 8)

  @Test func caretAtTheEndWithoutFinalSeparatorIsInTheLastParagraph() throws {
    let document = Document()
    try document.add("a", text: "One.\nTwo")
    try document.setVisible(["a": 5..<6])
    try document.select([SelectionRange(caret: TextPosition("a", 8))])
    let context = try document.startSession(scope: .visibleArea).contexts[0]
    #expect(context.storageRange == 5..<8)
    #expect(context.range == 3..<3)
  }

  @Test func caretAfterAFinalSeparatorIsInTheEmptyLastParagraph() throws {
    let document = Document()
    try document.add("a", text: "One.\nTwo\n")
    try document.setVisible(["a": 5..<6])
    try document.select([SelectionRange(caret: TextPosition("a", 9))])
    let shown = try document.startSession(scope: .visibleArea).contexts[0]
    #expect(shown.storageRange == 5..<9)
    #expect(shown.range == 0..<1)
    try document.setVisible(["a": 9..<9])
    let last = try document.startSession(scope: .visibleArea).contexts[0]
    #expect(last.storageRange == 9..<9)
    #expect(last.range == 0..<0)
  }
}
