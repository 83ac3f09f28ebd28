import DocumentEngine
import DocumentMarkdown
import Testing

/// The shapes where the writer's containers, blank lines and item widths
/// meet: HTML blocks at a container's end, list items whose width comes
/// from what follows them, lazy lines, several markers on one line, and the
/// prefixes of quotes and items together. Each is read, written and read
/// again, and must be the same text and attributes, and writing that again
/// must give the same Markdown.
@Suite struct MarkdownWriterShapeTests {
  static func expectRoundTrip(
    _ markdown: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let read = AttributedText(markdown: markdown)
    let written = read.markdown
    let again = AttributedText(markdown: written)
    #expect(again == read, "\(written.debugDescription)", sourceLocation: sourceLocation)
    #expect(
      again.markdown == written, "\(written.debugDescription)", sourceLocation: sourceLocation)
  }

  /// An HTML block that most kinds let go on over blank lines, where its
  /// containers end: a blank line after it is left out when only lists and
  /// items close, and written when a quote does.
  @Test(arguments: [
    "- > <!--b\n\n  y", "> - - <!--x\n> c", "- <!--x\n\n* y", "> 1. a\n>\n>    <!--x\n>\n> 2. b",
    "- <!A\nb", "- <!--x\n- y", "> - <!--b\n\n> c", "> - <div>\n\n> c",
    "- a\n  - b\n    - <!--x\n\n- c", "> - a\n>   - <div>\n\n> - b", "1. - 2. <div>\n\n3. x",
  ])
  func htmlBlocksAtContainerEnds(markdown: String) {
    Self.expectRoundTrip(markdown)
  }

  /// A list item's width: widened when an indented HTML block follows its
  /// list, or one column past its marker when its first line keeps its
  /// indentation (the marker alone on its line).
  @Test(arguments: [
    "-  i\n  <d>", "- a\n  -  b\n   <d>", "10. a\n\n   <d>", "- -\n      <d>", "> -\n>     <d>",
    "-\n    <d>", "- a\n-\n    <d>", "1.\n    <d>\n\n  <e>", "- a\n\n   <d>", "-\n  > <d>",
  ])
  func itemWidths(markdown: String) {
    Self.expectRoundTrip(markdown)
  }

  /// A tag's next line that keeps its indentation, written as a lazy line
  /// (never a block's first line, never with markers still to write).
  @Test(arguments: [
    "> a <i\n v>\n> ===", "> a <i\n\t v x=\"1\">\nb", "><i\n v>", "- > a <i\n v>",
    "><i\n />", "><a x=\n \"1\">", "> a <a x=\n 1>",
  ])
  func lazyLines(markdown: String) {
    Self.expectRoundTrip(markdown)
  }

  /// Several containers that open on one line: bullets alternate, so that
  /// a line of them is never a thematic break.
  @Test(arguments: [
    "- * - * -", "- * - * -\n\n  * a", "+ * +\n", "- - - a\n\n    b\n\n  c\n\nd",
    "1. 1) 1. -\n\n2. b", "> - > 1. > - a\n>   >    > b\n\n> c",
  ])
  func markersOnOneLine(markdown: String) {
    Self.expectRoundTrip(markdown)
  }

  /// The prefixes of quotes and items together, on blank lines and before
  /// tabs; with what is written, exactly.
  @Test(arguments: [
    ("- > a\n  >\n  > b", "- > a\n  >\n  > b\n"),
    ("> ```\n> \tx", "> ```\n> \tx\n> ```\n"),
    ("1. ```\n   \tx", "1. ```\n   \tx\n   ```\n"),
    (">\t<d>", ">   <d>\n"),
    ("- a\n\t<d>", "- a\n  []()<d>\n"),
    ("- a\n  -  b\n   <d>", "- a\n  * b\n   <d>\n"),
    ("- -\n      <d>", "- *\n      <d>\n"),
    ("> - > 1. > - a\n>   >    > b\n\n> c", "> - > 1. > * a\n>   >    >   b\n\n> c\n"),
    ("> 1. a\n>\n>    <!--x\n>\n> 2. b", "> 1. a\n>\n>    <!--x\n>\n> 2. b\n"),
  ])
  func prefixes(markdown: String, written: String) {
    Self.expectRoundTrip(markdown)
    #expect(AttributedText(markdown: markdown).markdown == written)
  }

  /// A list item's paragraph or header, not from the reader, whose first
  /// run is inline HTML that starts with a space: its first line keeps the
  /// space only when nothing opens before it (then the marker goes alone
  /// on its line), never after a delimiter, a bracket or a backtick.
  @Test func itemsWhoseTextStartsWithIndentedHTML() throws {
    func item(
      _ runs: [(String, InlinePresentationIntent, String?)],
      kind: PresentationIntent.Kind = .paragraph
    ) throws -> AttributedText {
      let intent = PresentationIntent([
        .init(.unorderedList, identity: 1), .init(.listItem(ordinal: 1), identity: 2),
        .init(kind, identity: 3),
      ])
      var text = ""
      var attributeRuns: [AttributeRun] = []
      for (string, inline, link) in runs {
        var attributes: [AttributeKey: AttributeValue] = [
          .presentationIntent: .presentationIntent(intent)
        ]
        if !inline.isEmpty {
          attributes[.inlinePresentationIntent] = .inlinePresentationIntent(inline)
        }
        if let link { attributes[.link] = .link(link) }
        let start = text.utf16.count
        text += string
        attributeRuns.append(AttributeRun(start..<text.utf16.count, attributes))
      }
      return try AttributedText(text, runs: attributeRuns)
    }
    let cases: [(AttributedText, String)] = [
      (try item([(" <x>", .inlineHTML, nil), (" a", [], nil)]), "-\n   <x> a\n"),
      (try item([(" <x>", [.inlineHTML, .emphasized], nil), (" a", [], nil)]), "- _ <x>_ a\n"),
      (try item([(" <x>", .inlineHTML, "u"), (" a", [], nil)]), "- [ <x>](<u>) a\n"),
      (
        try item([(" <x>", .inlineHTML, nil), (" a", [], nil)], kind: .header(level: 1)),
        "- #  <x> a\n"
      ),
      (
        try item(
          [(" <x>", .inlineHTML, nil), ("\u{2028}", .lineBreak, nil), ("b", [], nil)],
          kind: .header(level: 2)),
        "-\n   <x>\\\n  b\n  ---\n"
      ),
      (try item([(" <x>", [.code, .inlineHTML], nil)]), "- ` <x>`\n"),
    ]
    for (text, written) in cases {
      #expect(text.markdown == written)
    }
  }

  /// Tables not from the reader: a leaf of a table whose kind is a header
  /// is written as a cell; a table whose last cell is all block HTML counts
  /// as an HTML block for the blank line after it (none when only a list
  /// closes).
  @Test func tablesOfOtherLeaves() throws {
    func intent(_ kinds: PresentationIntent.Kind..., from identity: Int) -> AttributeValue {
      .presentationIntent(
        PresentationIntent(
          kinds.enumerated().map { .init($0.element, identity: identity + $0.offset) }))
    }
    let text = try AttributedText(
      "a\n<d>\nb",
      runs: [
        AttributeRun(
          0..<2,
          [
            .presentationIntent: intent(
              .table(columns: [.left]), .tableRow(rowIndex: 1), .tableCell(columnIndex: 0),
              .header(level: 1), from: 1)
          ]),
        AttributeRun(
          2..<6,
          [
            .presentationIntent: intent(
              .unorderedList, .table(columns: [.left]), .tableRow(rowIndex: 1),
              .tableCell(columnIndex: 0), .paragraph, from: 5),
            .inlinePresentationIntent: .inlinePresentationIntent(.blockHTML),
          ]),
        AttributeRun(6..<7, [.presentationIntent: intent(.paragraph, from: 10)]),
      ])
    #expect(text.markdown == "|  |\n| --- |\n| a |\n\n|  |\n| --- |\n| <d> |\nb\n")
  }

  /// Quotes and lists nested deeply, mixed, with blank lines, lazy lines
  /// and HTML inside.
  @Test func deepMixedNesting() {
    let opening = String(repeating: "> - 1. ", count: 300)
    let continuation = String(repeating: ">      ", count: 300)
    Self.expectRoundTrip(
      opening + "a <i\n v>\n" + continuation + "b\n\n" + continuation + "<!--c\n")
  }

  /// The zero-width inline a delimiter beside a soft line end gets is
  /// spelled by the one rule: inside a link an empty image (an empty link
  /// there would break the link), outside one an empty link — after a link
  /// that closed too.
  @Test func delimiterBesideLineEndInLink() {
    Self.expectRoundTrip("[a _![]()\nb_ c](u)")
    Self.expectRoundTrip("[a _\nb_ c](u) _d\ne_")
    Self.expectRoundTrip("[a](u) b\n<i>")
    Self.expectRoundTrip("[a\n<i> b](u)")
    #expect(AttributedText(markdown: "[a _![]()\nb_ c](u)").markdown.contains("_![]()\n"))
    #expect(AttributedText(markdown: "[a](u) b\n<i>").markdown.contains("\n[]()<i>"))
  }

  /// A hard line break keeps its own emphasis, as a soft one does: a
  /// delimiter that closes right after its line end gets the zero-width
  /// inline before it (finding 40 lost the emphasis of `_\` line end
  /// `[]()_`); one that opens before its backslash needs nothing.
  @Test func hardBreakKeepsItsEmphasis() {
    #expect(AttributedText(markdown: "_\\\n[]()_").markdown == "_\\\n[]()_\n")
    #expect(AttributedText(markdown: "_a\\\nb_").markdown == "_a\\\nb_\n")
    #expect(AttributedText(markdown: "a\\\n_b_").markdown == "a\\\n_b_\n")
    Self.expectRoundTrip("~~**a\\\n[]()**~~ c")
    Self.expectRoundTrip("[a _b\\\n![]()_](u)")
  }
}
