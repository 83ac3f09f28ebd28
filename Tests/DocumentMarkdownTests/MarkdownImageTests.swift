import DocumentEngine
import DocumentMarkdown
import Testing

/// Images, titles and task boxes have homes (docs/DESIGN.md, *Markdown*):
/// an image is its description with `imageURL` (and `imageTitle`), one
/// without a description the attachment character; a link keeps its
/// title; a task list item says whether it is checked. Written Markdown
/// renders as the original did.
@Suite struct MarkdownImageTests {
  @Test(arguments: [
    "![logo](logo.png \"Logo\")",
    "[![Swift 5.4](https://img.shields.io/badge/swift-5.4-orange.svg)](https://swift.org)",
    "[![a](a.svg)](https://a.org) [![b](b.svg)](https://b.org)",
    "![a](a.png)![b](b.png)",
    "![](empty-alt.png) and ![*styled* alt](x.png 'single')",
    "[a link](https://x.org \"with a \\\"title\\\"\")",
    "An [inline ![icon](i.png)](u) image in a link.",
    "- ![in a list](l.png)\n\n> ![in a quote](q.png)",
    "| a | ![cell](c.png \"t|t\") |\n|---|---|\n| [x](y \"z\") | 2 |",
    "- [ ] todo\n- [x] done\n\n1. [ ] numbered\n\n> - [x] quoted\n> - [X] also",
  ])
  func imagesAndTitlesRenderAsTheyDid(markdown: String) throws {
    let read = AttributedText(markdown: markdown)
    let written = read.markdown
    #expect(AttributedText(markdown: written) == read, "\(written)")
    #expect(_CMarkBaseline.html(written) == _CMarkBaseline.html(markdown), "\(written)")
  }

  /// A box with nothing after it has no box Markdown could write back
  /// (`- [x]` alone is a paragraph): the item reads as an empty one, which
  /// written and read again stays itself (FuzzMarkdown's finding 41).
  @Test func aBoxWithNothingAfterItIsAnEmptyItem() throws {
    let read = AttributedText(markdown: "- [x]  \n- b\n")
    #expect(read.text == "\nb")
    #expect(AttributedText(markdown: read.markdown) == read, "\(read.markdown)")
  }

  /// cmark-gfm checks a box if `[x]` or `[X]` is anywhere on the item's
  /// first line: in a code span no backslash can break it, so what follows
  /// an unchecked box goes to the next line (FuzzMarkdown's finding 57:
  /// `[X]` in a code span that went over two lines, written on one).
  @Test(arguments: [
    ("- [ ] a `b\n  [X]`\n", "- [ ] \n  a `b [X]`\n"),
    (
      "- x\n  1. [ ] a `b\n     [x]`\n  2. [x] `[x]`\n",
      "- x\n  1. [ ] \n     a `b [x]`\n  2. [x] `[x]`\n"
    ),
    ("- [ ] \\[x\\]\n", "- [ ] \\[x\\]\n"),
  ])
  func anUncheckedBoxKeepsACheckMarkOffItsLine(markdown: String, written: String) throws {
    let read = AttributedText(markdown: markdown)
    #expect(read.markdown == written)
    #expect(AttributedText(markdown: read.markdown) == read, "\(read.markdown)")
  }

  /// cmark-gfm reads a box only on a line that starts with its item's
  /// marker: an outer item's marker on that line too (`- * [ ] a`) would
  /// lose it, so it goes alone on its line (a finding met while reducing
  /// FuzzMarkdown's 57).
  @Test(arguments: [
    ("-\n  - [ ] ]\n", "-\n  * [ ] \\]\n"),
    ("1.\n   - [x] a\n   - b\n", "1.\n   - [x] a\n   - b\n"),
    ("- -\n    - [ ] a\n", "- *\n    - [ ] a\n"),
    ("- - a\n  - [ ] b\n", "- * a\n  * [ ] b\n"),
  ])
  func aBoxStartsItsLine(markdown: String, written: String) throws {
    Self.checkWritten(markdown, as: written)
  }

  /// `markdown` read is written as `written`, reads back as itself, and
  /// renders as `markdown` does.
  static func checkWritten(_ markdown: String, as written: String) {
    let read = AttributedText(markdown: markdown)
    #expect(read.markdown == written)
    #expect(AttributedText(markdown: read.markdown) == read, "\(read.markdown)")
    #expect(_CMarkBaseline.html(read.markdown) == _CMarkBaseline.html(markdown))
  }

  /// cmark-gfm keeps a box before a header (`- [x] a` underlined: an
  /// `<h2>` after a checked box), but it reads the rest of a box's line as
  /// a paragraph's text (`- [x] ## a` is "## a"): the reader keeps the
  /// box, and the writer puts the header on the line after it
  /// (FuzzMarkdown's finding 62).
  @Test(arguments: [
    ("- [x] a\n  -\n", "- [x] \n  ## a\n"),
    ("- [ ] a\n  ===\n", "- [ ] \n  # a\n"),
    ("1. [x] \n   ### a\n2. [ ] b\n", "1. [x] \n   ### a\n2. [ ] b\n"),
    ("- b\n  - [x] a\n    c\n    ---\n", "- b\n  * [x] \n    a\n    c\n    ---\n"),
    ("-\n  - [ ] a\n    -\n", "-\n  * [ ] \n    ## a\n"),
  ])
  func aHeaderAfterABoxKeepsIt(markdown: String, written: String) throws {
    Self.checkWritten(markdown, as: written)
  }

  @Test func anImageIsItsDescriptionWithItsURLAndTitle() throws {
    let read = AttributedText(markdown: "![logo](logo.png \"Logo\") [t](u \"T\") ![](x.png)")
    #expect(read.text == "logo t \u{FFFC}")
    #expect(read.attributes(at: 0)[.imageURL] == .link("logo.png"))
    #expect(read.attributes(at: 0)[.imageTitle] == .string("Logo"))
    #expect(read.attributes(at: 5)[.link] == .link("u"))
    #expect(read.attributes(at: 5)[.linkTitle] == .string("T"))
    #expect(read.attributes(at: 7)[.imageURL] == .link("x.png"))
    #expect(read.attributes(at: 7)[.imageTitle] == nil)
  }

  /// FuzzMarkdown's finding (regression 60): a title's backslash was
  /// written `&#92;`, but cmark-gfm decodes a title's references before it
  /// undoes its backslash escapes, so before ASCII punctuation the decoded
  /// backslash escaped what followed: the title `\\` came back as `\`,
  /// `\!` as `!`. There the writer writes `&#92;&#92;`.
  @Test(arguments: [
    // (The title as written in the source, and as read.)
    (#"\\\\"#, #"\\"#), (#"\\\\\\"#, #"\\\"#), (#"\\!"#, #"\!"#), (#"\\&"#, #"\&"#),
    (#"\\\""#, #"\""#), (#"\\k"#, #"\k"#), (#"a\\"#, #"a\"#), (#"\\&#10;\\"#, "\\\n\\"),
    (#"train & trac\\\\\\\\\\\k"#, #"train & trac\\\\\\k"#), (#"\\|"#, #"\|"#),
  ])
  func aTitlesBackslashesComeBack(source: String, title: String) throws {
    for (markdown, key) in [
      ("[a](u \"\(source)\")", AttributeKey.linkTitle),
      ("![a](u \"\(source)\")", .imageTitle),
      ("| [a](u \"\(source.replacing("|", with: "\\|"))\") |\n|-|", .linkTitle),
      ("[a]\n\n[a]: u \"\(source)\"", .linkTitle),
    ] {
      let read = AttributedText(markdown: markdown)
      #expect(read.attributes(at: 0)[key] == .string(title), "\(markdown)")
      #expect(AttributedText(markdown: read.markdown) == read, "\(read.markdown)")
    }
  }

  @Test func theEngineRefusesAnImageOrATitleOfTheWrongKind() throws {
    let document = Document()
    try document.add("body", text: "abc")
    #expect(throws: DocumentError.self) {
      try document.setAttributes([.imageURL: .string("x.png")], in: "body", range: 0..<1)
    }
    #expect(throws: DocumentError.self) {
      try document.setAttributes([.linkTitle: .integer(1)], in: "body", range: 0..<1)
    }
    try document.setAttributes(
      [.imageURL: .link("x.png"), .imageTitle: .string("X")], in: "body", range: 0..<1)
    #expect(
      try document.content.storage("body").attributedText(in: 0..<3).markdown
        == "![a](<x.png> \"X\")bc\n")
  }
}
