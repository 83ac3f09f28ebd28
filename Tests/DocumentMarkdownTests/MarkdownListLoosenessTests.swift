import DocumentEngine
import DocumentMarkdown
import Testing

/// A list's looseness: read into its component's `isLoose`, written with
/// blank lines between its items and blocks when loose, and without where
/// Markdown lets a tight list do without them.
@Suite struct MarkdownListLoosenessTests {
  static func lists(_ text: AttributedText) -> [PresentationIntent.Component] {
    var seen: [PresentationIntent.Component] = []
    for run in text.runs {
      guard case .presentationIntent(let intent)? = run.attributes[.presentationIntent] else {
        continue
      }
      for component in intent.components
      where component.kind.isListContainer && !seen.contains(component) {
        seen.append(component)
      }
    }
    return seen
  }

  /// Each Markdown, with the looseness of its lists in order, and what the
  /// writer writes of it.
  @Test(arguments: [
    ("- a\n- b\n", [false], "- a\n- b\n"),
    ("- a\n\n- b\n", [true], "- a\n\n- b\n"),
    ("1. a\n\n   b\n", [true], "1. a\n\n   b\n"),
    // An item's nested list, header, code block, quote and table need no
    // blank line in a tight list.
    ("- a\n  - b\n  - c\n- d\n", [false, false], "- a\n  * b\n  * c\n- d\n"),
    ("- # h\n  a\n", [false], "- # h\n  a\n"),
    ("- a\n  ```\n  x\n  ```\n  b\n", [false], "- a\n  ```\n  x\n  ```\n  b\n"),
    ("- a\n  > q\n", [false], "- a\n  > q\n"),
    ("- a\n  | x |\n  | - |\n", [false], "- a\n  | x |\n  | --- |\n"),
    // A nested loose list in a tight one, and the reverse.
    ("- a\n  - b\n\n  - c\n- d\n", [false, true], "- a\n  * b\n\n  * c\n- d\n"),
    ("- a\n\n  - b\n  - c\n", [true, false], "- a\n\n  * b\n  * c\n"),
    // A paragraph after a nested list needs a blank line: a loose list.
    ("- a\n  - b\n\n  c\n", [true, false], "- a\n\n  * b\n\n  c\n"),
    // A thematic break's blank line does not count.
    ("- ___\n\n- a\n", [false], "- ___\n- a\n"),
    // An empty item cannot interrupt a paragraph; one with a box, which
    // cmark-gfm takes out, can (FuzzMarkdown's finding: written with a
    // blank line, the tight list read as loose).
    ("- a\n  - [ ] \n", [false, false], "- a\n  * [ ] \n"),
    ("- a\n  1. [ ] \n  2. b\n", [false, false], "- a\n  1. [ ] \n  2. b\n"),
    // A loose list keeps its blank line, and its empty item no box.
    ("- a\n\n  -\n", [true, false], "- a\n\n  *\n"),
  ])
  func looseness(markdown: String, loose: [Bool], written: String) {
    let read = AttributedText(markdown: markdown)
    #expect(Self.lists(read).map(\.isLoose) == loose)
    #expect(read.markdown == written)
    #expect(AttributedText(markdown: read.markdown) == read)
    #expect(_CMarkBaseline.html(read.markdown) == _CMarkBaseline.html(markdown))
  }

  /// cmark-gfm calls a list loose for a blank line before a reference
  /// definition in it; when the list is one item of one block, Markdown
  /// cannot write it loose, so the reader calls it tight, and the kept
  /// source still gives the file back (a fuzzer's finding).
  @Test func aListOfOneBlockIsTightWhateverItsDefinitions() throws {
    let markdown = "- | in | lis\n\n    [foo]: /url\n***"
    let read = AttributedText(markdown: markdown)
    #expect(Self.lists(read).map(\.isLoose) == [false])
    #expect(AttributedText(markdown: read.markdown) == read)
    // Two blocks in the item, or two items: loose, as cmark-gfm says.
    #expect(
      Self.lists(AttributedText(markdown: "- a\n\n  [foo]: /url\n  b\n")).map(\.isLoose) == [true])
    #expect(
      Self.lists(AttributedText(markdown: "- a\n\n  [foo]: /url\n- b\n")).map(\.isLoose) == [true])
    let document = Document()
    try document.add("file", markdown: markdown)
    #expect(try document.markdown(of: "file") == markdown)
  }

  /// A list with a changed item, written anew in a kept file, keeps its
  /// looseness: the blank lines between items stay, and no tight list
  /// gains any.
  @Test func aChangedListKeepsItsLooseness() throws {
    let markdown = "* one\n\n* two\n\n* three\n\nText.\n\n* a\n* b\n"
    let document = Document()
    try document.add("file", markdown: markdown)
    // "two" becomes a header: the list's shape changes and it is written
    // anew, in the file's bullet.
    let offset = try document.offset(of: "two", in: "file")
    let intent = try #require(
      try document.content.storage("file").attributeRuns(in: offset..<offset + 1).first?
        .attributes[.presentationIntent])
    guard case .presentationIntent(var changed) = intent else {
      Issue.record("no intent")
      return
    }
    changed.components[changed.components.count - 1] = .init(
      .header(level: 2), identity: changed.components.last?.identity ?? 0)
    try document.setAttributes(
      [.presentationIntent: .presentationIntent(changed)], in: "file", range: offset..<offset + 4)
    let written = try document.markdown(of: "file")
    #expect(written == "* one\n\n* ## two\n\n* three\n\nText.\n\n* a\n* b\n")
  }

  /// A tool's list asked to be loose, with one item of one block, has no
  /// blank line to be loose with: it reads back tight.
  @Test func aLooseListNeedsABlankLineThatCounts() throws {
    let list = PresentationIntent.Component(.unorderedList, identity: 1, isLoose: true)
    let intent = PresentationIntent([
      list, .init(.listItem(ordinal: 1), identity: 2), .init(.paragraph, identity: 3),
    ])
    let text = try AttributedText(
      "a", runs: [AttributeRun(0..<1, [.presentationIntent: .presentationIntent(intent)])])
    #expect(text.markdown == "- a\n")
    #expect(Self.lists(AttributedText(markdown: text.markdown)).map(\.isLoose) == [false])
  }

  /// The engine refuses looseness on anything but a list.
  @Test func onlyAListIsLoose() {
    let document = Document()
    let intent = PresentationIntent([.init(.paragraph, identity: 1, isLoose: true)])
    #expect(throws: DocumentError.self) {
      try document.add(
        "a", text: "x",
        attributes: [AttributeRun(0..<1, [.presentationIntent: .presentationIntent(intent)])])
    }
  }
}
