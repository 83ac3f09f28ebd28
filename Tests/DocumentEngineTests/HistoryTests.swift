import Testing
import TextRope

@testable import DocumentEngine

/// The person's undo: grouping, selective undo through others' edits, the
/// selection, origins' histories, limits.
@Suite struct HistoryTests {
  /// A clock the tests move by hand.
  final class ManualClock: @unchecked Sendable {
    var now: Duration = .zero
  }

  func document(_ text: String = "One two three.\n") throws -> (Document, ManualClock) {
    let document = Document()
    let clock = ManualClock()
    document.historyOptions = HistoryOptions(clock: { clock.now })
    try document.add("body", text: Rope(text))
    return (document, clock)
  }

  func text(_ document: Document, _ id: StorageID = "body") throws -> String {
    String(try document.content.storage(id).text)
  }

  @Test func typingInOnePlaceIsOneGroup() throws {
    let (document, _) = try document()
    for (i, c) in "Hey ".enumerated() {
      try document.edit("body", range: i..<i, with: String(c))
    }
    #expect(try text(document) == "Hey One two three.\n")
    try document.undo()
    #expect(try text(document) == "One two three.\n")
    try document.redo()
    #expect(try text(document) == "Hey One two three.\n")
  }

  @Test func aReplacementThenItsUndo() throws {
    let (document, _) = try document()
    try document.edit("body", range: 3..<14, with: "!")
    #expect(try text(document) == "One!\n")
    try document.undo()
    print("DEBUG", try text(document).debugDescription)
    #expect(try text(document) == "One two three.\n")
    try document.redo()
    #expect(try text(document) == "One!\n")
    try document.undo()
    #expect(try text(document) == "One two three.\n")
  }
}

extension HistoryTests {
  @Test func debugRepro() throws {
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: nil, clock: { .zero })
    try document.add("a", text: Rope("e\u{301}\r\nbe\u{301}e\u{301}😀b\r\n"))
    try document.edit("a", range: 9..<11, with: "", attributes: [.link: .link("person")])
    try document.add("b", text: Rope("abcdefghijkl"))
    let session = try document.startSession(scope: .fullDocument)
    try document.replace(context: session.contexts[0].id, range: 1..<6, with: " ")
    document.endSession()
    try document.edit("b", range: 5..<9, with: "", attributes: [.link: .link("p2")], origin: "p2")
    try document.undo()
    print("S0", try text(document, "a").unicodeScalars.map { String($0.value, radix: 16) })
    try document.edit("a", range: 0..<7, with: "😀é\u{2029}", attributes: [:], origin: "p2")
    print("S1", try text(document, "a").unicodeScalars.map { String($0.value, radix: 16) })
    document.closeGroup(origin: "p1")
    try document.edit("a", range: 6..<7, with: "é \r\n", attributes: [.link: .link("p1")], origin: "p1")
    print("S2", try text(document, "a").unicodeScalars.map { String($0.value, radix: 16) })
    document.closeGroup(origin: "p2")
    try document.edit("a", range: 0..<10, with: "\u{2029}éz", attributes: [.link: .link("p2")], origin: "p2")
    try document.edit("a", range: 3..<3, with: "🇫🇷a", attributes: [:], origin: "p2")
    print("S3", try text(document, "a").unicodeScalars.map { String($0.value, radix: 16) })
    try document.undo(origin: "p1")
    print("S4", try text(document, "a").unicodeScalars.map { String($0.value, radix: 16) })
    document.closeGroup(origin: "p1")
    try document.edit("a", range: 1..<8, with: "", attributes: [:], origin: "p1")
    print("S5", try text(document, "a").unicodeScalars.map { String($0.value, radix: 16) })
    document.closeGroup()
    try document.edit("b", range: 3..<6, with: "", attributes: [.link: .link("person")])
    try document.undo(origin: "p2")
    print("S6", try text(document, "a").unicodeScalars.map { String($0.value, radix: 16) })
  }
}
