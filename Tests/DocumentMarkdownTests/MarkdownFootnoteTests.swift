import DocumentEngine
import DocumentMarkdown
import Testing

/// Footnotes: a reference is its label with `footnoteReference`, a
/// definition a `footnoteDefinition` around its blocks, where the file has
/// it; both written back as Markdown, and kept by a file's source.
@Suite struct MarkdownFootnoteTests {
  static let file = """
    Swift[^1] runs on Linux[^linux]. Again[^1].

    [^1]: A language.

    [^Linux]: The kernel, with a second paragraph:

        indented four spaces.

    After the notes.

    [^unused]: Nothing refers to this one.

    """

  static func runs(
    _ text: AttributedText, with key: AttributeKey
  ) -> [(text: String, value: AttributeValue)] {
    let units = Array(text.text.utf16)
    return text.runs.compactMap { run in
      guard let value = run.attributes[key] else { return nil }
      return (String(decoding: units[run.range], as: UTF16.self), value)
    }
  }

  @Test func referencesAndDefinitionsAreRead() throws {
    let text = AttributedText(markdown: Self.file)
    // The unused definition is not text (cmark-gfm drops it), the others
    // stand where the file has them.
    #expect(
      text.text
        == "Swift1 runs on Linuxlinux. Again1.\nA language.\nThe kernel, with a second paragraph:\n"
        + "indented four spaces.\nAfter the notes.")
    let references = Self.runs(text, with: .footnoteReference)
    #expect(references.map(\.text) == ["1", "linux", "1"])
    #expect(references.map(\.value) == [.string("1"), .string("linux"), .string("1")])
    var labels: [String] = []
    for run in text.runs {
      guard case .presentationIntent(let intent)? = run.attributes[.presentationIntent],
        case .footnoteDefinition(let label)? = intent.components.first?.kind
      else { continue }
      if labels.last != label { labels.append(label) }
    }
    // Each definition's label as the definition spells it.
    #expect(labels == ["1", "Linux"])
  }

  @Test func aFileWithFootnotesIsKeptByteForByte() throws {
    let document = Document()
    try document.add("file", markdown: Self.file)
    #expect(try document.markdown(of: "file") == Self.file)
  }

  /// The case: a paragraph with references edited, and saved: the
  /// references stay references (they came back as escaped text).
  @Test func anEditedParagraphKeepsItsReferences() throws {
    let document = Document()
    try document.add("file", markdown: Self.file)
    try document.edit("file", range: 0..<5, with: "Swift 6")
    let written = try document.markdown(of: "file")
    #expect(
      written
        == Self.file.replacingOccurrences(
          of: "Swift[^1] runs", with: "Swift 6[^1] runs"))
    #expect(
      _CMarkBaseline.html(written)
        == _CMarkBaseline.html(
          Self.file.replacingOccurrences(of: "Swift[^1] runs", with: "Swift 6[^1] runs")))
  }

  /// A definition's paragraph edited keeps the definition's label line.
  @Test func anEditedDefinitionKeepsItsLabel() throws {
    let document = Document()
    try document.add("file", markdown: Self.file)
    let offset = try document.offset(of: "A language", in: "file")
    try document.edit("file", range: offset..<offset + 1, with: "The")
    let written = try document.markdown(of: "file")
    #expect(
      written == Self.file.replacingOccurrences(of: "[^1]: A language", with: "[^1]: The language"))
  }

  /// Written without a source: references as `[^label]`, definitions with
  /// their label and four spaces before their later lines; read back the
  /// same, rendered as the file is.
  @Test func footnotesAreWrittenAndReadBack() throws {
    let text = AttributedText(markdown: Self.file)
    let written = text.markdown
    #expect(
      written
        == "Swift[^1] runs on Linux[^linux]. Again[^1].\n\n[^1]: A language.\n\n"
        + "[^Linux]: The kernel, with a second paragraph:\n\n    indented four spaces.\n\n"
        + "After the notes.\n")
    #expect(AttributedText(markdown: written) == text)
    #expect(_CMarkBaseline.html(written) == _CMarkBaseline.html(Self.file))
  }

  /// References side by side are one run; a reference before `(` or, at a
  /// line's start, before `:` has them escaped (a link, a definition).
  @Test(arguments: [
    "a[^x][^x] b\n\n[^x]: n\n",
    "a[^x]\\(b)\n\n[^x]: n\n",
    "[^x]\\: b\n\n[^x]: n\n",
    "_a[^x]_ **[^x]**\n\n[^x]: n\n",
    "| a | b |\n| --- | --- |\n| x[^x] | y |\n\n[^x]: n\n",
    "a[^x]\n\n[^x]: > quoted\n    > note\n\n    - and\n    - a list\n",
  ])
  func shapes(markdown: String) {
    let text = AttributedText(markdown: markdown)
    #expect(text.markdown == markdown)
    #expect(AttributedText(markdown: text.markdown) == text)
  }

  /// Text typed into a reference makes it text: its characters are kept.
  @Test func textTypedIntoAReferenceIsKept() throws {
    let document = Document()
    try document.add("file", markdown: "a[^x] b\n\n[^x]: n\n")
    try document.edit("file", range: 2..<2, with: "yz")
    let storage = try document.content.storage("file")
    let plain = try AttributedText(
      String(storage.text), runs: storage.attributeRuns(in: 0..<storage.length)
    ).markdown
    #expect(AttributedText(markdown: plain).text.hasPrefix("axyz b"), "\(plain)")
    let kept = try document.markdown(of: "file")
    #expect(AttributedText(markdown: kept).text.hasPrefix("axyz b"), "\(kept)")
  }

  /// The engine refuses a label Markdown cannot write, and a definition
  /// inside another block.
  @Test func badFootnotesAreRefused() {
    let document = Document()
    #expect(throws: DocumentError.self) {
      try document.add(
        "a", text: "x", attributes: [AttributeRun(0..<1, [.footnoteReference: .string("a b")])])
    }
    let nested = PresentationIntent([
      .init(.blockQuote, identity: 1), .init(.footnoteDefinition(label: "x"), identity: 2),
      .init(.paragraph, identity: 3),
    ])
    #expect(throws: DocumentError.self) {
      try document.add(
        "b", text: "x",
        attributes: [AttributeRun(0..<1, [.presentationIntent: .presentationIntent(nested)])])
    }
  }
}
