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
}
