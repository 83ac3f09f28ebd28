import DocumentEngine
import DocumentMarkdown
import Testing
import TextRope
import _EngineTestSupport

/// Markdown in the document: a context as Markdown, a tool's Markdown
/// answer landing as an attributed replacement through the session's result
/// options, conflict checks and undo, and the line break a block ends with.
@Suite struct MarkdownDocumentTests {
  static let notes = """
    # Trip notes

    We left *Lisbon* at dawn. the sea was calm

    Next: Athens
    """

  static func document(
    _ options: ResultOptions = [.richText, .presentationIntent, .list]
  ) throws -> (Document, WritingContext) {
    let source = AttributedText(markdown: notes)
    let document = Document()
    try document.add("notes", text: Rope(source.text), attributes: source.runs)
    try document.select([SelectionRange("notes", 30..<33)])  // "the"
    let session = try document.startSession(scope: .userSelection, resultOptions: options)
    return (document, session.contexts[0])
  }

  static func storage(_ document: Document) throws -> AttributedText {
    let storage = try document.content.storage("notes")
    return try AttributedText(
      String(storage.text), runs: storage.attributeRuns(in: 0..<storage.length))
  }

  /// The article's session (LanguageModels.md), step by step.
  @Test func theArticlesRoundTrip() throws {
    let (document, context) = try Self.document()
    #expect(String(context.text) == "We left Lisbon at dawn. the sea was calm\n")
    #expect(context.markdown == "We left _Lisbon_ at dawn. the sea was calm\n")

    // The person types in the header while the model works.
    try document.edit("notes", range: 5..<5, with: "and ")
    #expect(String(try document.content.storage("notes").text).hasPrefix("Trip and notes\n"))

    let answer = """
      We left **Lisbon** at dawn:

      - the sea was calm
      - the sky was clear
      """
    let (result, landed) = try document.replace(
      context: context.id, range: 0..<context.text.utf16Count, markdown: answer, basis: 0)
    #expect(landed.text == "We left Lisbon at dawn:\nthe sea was calm\nthe sky was clear")
    #expect(result.storageRange == 15..<73)
    let after = try Self.storage(document)
    #expect(
      after.text
        == "Trip and notes\nWe left Lisbon at dawn:\nthe sea was calm\nthe sky was clear\nNext: Athens"
    )
    // "Lisbon" is strong now (the tool decides inline intents under
    // richText); the list items are the tool's blocks.
    #expect(
      after.attributes(at: 25)[.inlinePresentationIntent]
        == .inlinePresentationIntent(.stronglyEmphasized))
    guard case .presentationIntent(let item)? = after.attributes(at: 45)[.presentationIntent] else {
      Issue.record("no block on the list item")
      return
    }
    #expect(item.components.map(\.kind) == [.unorderedList, .listItem(ordinal: 1), .paragraph])
    // The paragraph after it is untouched, its own block still.
    #expect(
      after.attributes(at: after.text.utf16.count - 1)[.presentationIntent]
        == AttributedText(markdown: Self.notes).attributes(at: 56)[.presentationIntent])

    // Undo gives back the paragraph, text and attributes; the person's edit stays.
    try document.undo()
    let undone = try Self.storage(document)
    var expected = AttributedText(markdown: Self.notes)
    expected = try AttributedText(
      "Trip and notes\n" + String(expected.text.dropFirst("Trip notes\n".count)),
      runs: [AttributeRun(0..<15, expected.attributes(at: 0))]
        + expected.runs.dropFirst().map {
          AttributeRun(($0.range.lowerBound + 4)..<($0.range.upperBound + 4), $0.attributes)
        })
    #expect(undone == expected, "\(undone)")
  }

  /// Under plain text only the Markdown's text lands, and the edit rule
  /// gives it the attributes of what it replaced.
  @Test func underPlainTextOnlyTheTextLands() throws {
    let (document, context) = try Self.document(.plainText)
    let (_, landed) = try document.replace(
      context: context.id, range: 24..<27, markdown: "**The**")
    #expect(landed.text == "The")
    let after = try Self.storage(document)
    #expect(after.text.contains("at dawn. The sea"))
    #expect(after.attributes(at: 37)[.inlinePresentationIntent] == nil)
    // What it gives back is what landed, not what it read: no strong text.
    #expect(landed.runs.allSatisfy { $0.attributes[.inlinePresentationIntent] == nil })
    #expect(landed.attributes(at: 0) == after.attributes(at: 37))
  }

  /// A context as Markdown carries an image, a footnote and a loose
  /// list to the tool, and the tool's Markdown answer lands with them.
  @Test func imagesFootnotesAndLooseListsGoToTheToolAndBack() throws {
    let source = AttributedText(
      markdown: "See ![map](map.png \"Map\")[^1].\n\n- one\n\n- two\n\n[^1]: A note.\n")
    let document = Document()
    try document.add("notes", text: Rope(source.text), attributes: source.runs)
    let session = try document.startSession(
      scope: .fullDocument, resultOptions: [.richText, .presentationIntent, .list])
    let context = session.contexts[0]
    #expect(context.markdown.contains("![map](<map.png> \"Map\")[^1]"), "\(context.markdown)")
    #expect(context.markdown.contains("- one\n\n- two"), "\(context.markdown)")
    #expect(context.markdown.contains("[^1]: A note."), "\(context.markdown)")
    let (_, landed) = try document.replace(
      context: context.id, range: 0..<3, markdown: "Look at ![the map](m.png)[^1]")
    #expect(landed.text.hasPrefix("Look at the map1"))
    #expect(landed.runs.contains { $0.attributes[.imageURL] == .link("m.png") })
    #expect(landed.runs.contains { $0.attributes[.footnoteReference] == .string("1") })
    // An answer that defines the note itself lands its own definition.
    let (_, own) = try document.replace(
      context: context.id, range: 0..<0, markdown: "New[^1]\n\n[^1]: The tool's note.\n")
    #expect(own.text == "New1\nThe tool's note.\n", "\(own.text.debugDescription)")
  }

  /// The context's Markdown leaves out its last line break and a whole
  /// replacement keeps it; an empty range at the start of a paragraph puts
  /// the answer's blocks before it, apart.
  @Test func blocksKeepTheirLineBreaks() throws {
    let (document, context) = try Self.document()
    let before = try Self.storage(document)
    try document.replace(
      context: context.id, range: 0..<context.text.utf16Count, markdown: context.markdown)
    #expect(try Self.storage(document).text == before.text)
    try document.replace(context: context.id, range: 0..<0, markdown: "# Day one")
    let text = try Self.storage(document).text
    #expect(text.contains("Trip notes\nDay one\nWe left Lisbon"))
  }

  /// Hostile answers and ranges: the replacement is refused with a typed
  /// error and the document stays as it was.
  @Test(arguments: [-1..<0, 0..<999, 3..<1_000_000])
  func aReplacementOutsideTheContextChangesNothing(range: Range<Int>) throws {
    let (document, context) = try Self.document()
    let before = try Self.storage(document)
    #expect(throws: DocumentError.self) {
      try document.replace(context: context.id, range: range, markdown: "*x*")
    }
    #expect(try Self.storage(document) == before)
  }

  @Test func anUnknownContextOrNoSessionIsRefused() throws {
    let (document, context) = try Self.document()
    #expect(throws: DocumentError.self) {
      try document.replace(context: .init(), range: 0..<0, markdown: "x")
    }
    document.endSession()
    #expect(throws: DocumentError.self) {
      try document.replace(context: context.id, range: 0..<0, markdown: "x")
    }
  }

  /// cmark-gfm shares a table between parsers; every parse takes one lock,
  /// so readings from several tasks at once are each what one alone gives.
  @Test func concurrentReadingsAgree() async {
    let inputs = (0..<8).map {
      "| a~\($0)~ | b |\n|---|---|\n| ~~x~~ | *y* |\n\n~~struck \($0)~~ www.x.com"
    }
    let alone = inputs.map { AttributedText(markdown: $0) }
    await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var same = true
          for _ in 0..<200 {
            for (input, expected) in zip(inputs, alone) {
              same = same && AttributedText(markdown: input) == expected
            }
          }
          return same
        }
      }
      for await same in group { #expect(same) }
    }
  }
}

extension MarkdownDocumentTests {
  /// cmark-gfm keeps a fence's length in 8 bits: a code block whose text
  /// has a run of 255 backticks or more is fenced otherwise, and reads back
  /// the same (FuzzMarkdown finding 30).
  @Test(arguments: [254, 255, 256, 400])
  func aCodeBlockWithALongRunOfBackticksReadsBackTheSame(run: Int) {
    let backticks = String(repeating: "`", count: run)
    for markdown in [
      "~~~\n\(backticks)\n~~~\n", "~~~ swift\nlet a = 1\n\(backticks)\n  \(backticks)  \n~~~\n",
      "~~~\n~~~~ x\n\(backticks)\n~~~~~\n", "- > ~~~\n  > \(backticks)\n",
    ] {
      let read = AttributedText(markdown: markdown)
      let written = read.markdown
      #expect(AttributedText(markdown: written) == read, "\(markdown.prefix(40))…")
      #expect(written.utf8.count < markdown.utf8.count + 600)
    }
  }
}
