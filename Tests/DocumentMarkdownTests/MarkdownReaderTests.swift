import DocumentEngine
import DocumentMarkdown
import Testing

/// The reader, rule by rule (docs/DESIGN.md, "Markdown"), on small inputs
/// with their exact attributed texts.
@Suite struct MarkdownReaderTests {
  typealias Component = PresentationIntent.Component

  static func block(_ components: Component...) -> [AttributeKey: AttributeValue] {
    [.presentationIntent: .presentationIntent(PresentationIntent(components))]
  }

  static func inline(
    _ intent: InlinePresentationIntent, _ block: [AttributeKey: AttributeValue]
  ) -> [AttributeKey: AttributeValue] {
    block.merging([.inlinePresentationIntent: .inlinePresentationIntent(intent)]) { $1 }
  }

  static func expect(
    _ markdown: String, _ text: String, _ runs: [AttributeRun],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let read = AttributedText(markdown: markdown)
    let expected = try AttributedText(text, runs: runs)
    #expect(read == expected, "\(markdown.debugDescription)", sourceLocation: sourceLocation)
    #expect(AttributedText(markdown: read.markdown) == read, sourceLocation: sourceLocation)
  }

  @Test func blocksAreParagraphsSeparatedByOneLineFeedThatCarriesTheirIntent() throws {
    let header = Self.block(.init(.header(level: 2), identity: 1))
    let paragraph = Self.block(.init(.paragraph, identity: 2))
    let code = Self.block(.init(.codeBlock(languageHint: "swift"), identity: 3))
    try Self.expect(
      "## Title\n\nSome *text*\nwrapped  \nhard\n\n```swift\nlet a = 1\n\n```\n",
      "Title\nSome text wrapped\u{2028}hard\nlet a = 1\n",
      [
        AttributeRun(0..<6, header),
        AttributeRun(6..<11, paragraph),
        AttributeRun(11..<15, Self.inline(.emphasized, paragraph)),
        AttributeRun(15..<16, Self.inline(.softBreak, paragraph)),
        AttributeRun(16..<23, paragraph),
        AttributeRun(23..<24, Self.inline(.lineBreak, paragraph)),
        AttributeRun(24..<29, paragraph),
        AttributeRun(29..<39, code),
      ])
  }

  @Test func listsQuotesAndTheirComponents() throws {
    let list = Component(.orderedList, identity: 1)
    let first = Self.block(
      list, .init(.listItem(ordinal: 3), identity: 2), .init(.paragraph, identity: 3))
    let quote = Component(.blockQuote, identity: 5)
    let second = Self.block(
      list, .init(.listItem(ordinal: 4), identity: 4), quote, .init(.paragraph, identity: 6))
    let empty = Self.block(list, .init(.listItem(ordinal: 5), identity: 7))
    let rule = Self.block(.init(.thematicBreak, identity: 8))
    try Self.expect(
      "3. one\n4. > two\n5.\n\n---", "one\ntwo\n\n\n",
      [
        AttributeRun(0..<4, first), AttributeRun(4..<8, second), AttributeRun(8..<9, empty),
        AttributeRun(9..<10, rule),
      ])
  }

  @Test func tablesAreCellsSeparatedByTabsAndRowsByLineFeeds() throws {
    let table = Component(.table(columns: [.left, .center, .right]), identity: 1)
    let header = Component(.tableHeaderRow, identity: 2)
    let row = Component(.tableRow(rowIndex: 0), identity: 6)
    try Self.expect(
      "| a | b | c |\n|---|:-:|--:|\n| 1 |\n", "a\tb\tc\n1\t\t\n",
      [
        AttributeRun(
          0..<2, Self.block(table, header, .init(.tableCell(columnIndex: 0), identity: 3))),
        AttributeRun(
          2..<4, Self.block(table, header, .init(.tableCell(columnIndex: 1), identity: 4))),
        AttributeRun(
          4..<6, Self.block(table, header, .init(.tableCell(columnIndex: 2), identity: 5))),
        AttributeRun(6..<8, Self.block(table, row, .init(.tableCell(columnIndex: 0), identity: 7))),
        AttributeRun(8..<9, Self.block(table, row, .init(.tableCell(columnIndex: 1), identity: 8))),
        AttributeRun(
          9..<10, Self.block(table, row, .init(.tableCell(columnIndex: 2), identity: 9))),
      ])
  }

  /// What has no key: HTML is text marked as HTML, a footnote mark stays
  /// text; links, autolinks and bare URLs are links. An image is its
  /// description with its URL and title; a task list item's box is its
  /// item's.
  @Test func whatHasNoKeyOfItsOwn() throws {
    let paragraph = Self.block(.init(.paragraph, identity: 1))
    var image = paragraph
    image[.imageURL] = .link("cat.png")
    image[.imageTitle] = .string("title")
    try Self.expect(
      "![a *cat*](cat.png \"title\") <b>x</b> [^1]", "a cat <b>x</b> [^1]",
      [
        AttributeRun(0..<2, image), AttributeRun(2..<5, Self.inline(.emphasized, image)),
        AttributeRun(5..<6, paragraph), AttributeRun(6..<9, Self.inline(.inlineHTML, paragraph)),
        AttributeRun(9..<10, paragraph), AttributeRun(10..<14, Self.inline(.inlineHTML, paragraph)),
        AttributeRun(14..<19, paragraph),
      ])
    // A task list item's box is the item's (checked or not), not text.
    let item = Self.block(
      .init(.unorderedList, identity: 1),
      .init(.listItem(ordinal: 1), identity: 2, isChecked: true),
      .init(.paragraph, identity: 3))
    try Self.expect("- [x] done", "done", [AttributeRun(0..<4, item)])
    let html = Self.block(.init(.paragraph, identity: 1))
    try Self.expect(
      "<div>\nhi\n</div>", "<div>\nhi\n</div>",
      [AttributeRun(0..<15, Self.inline(.blockHTML, html))])
    var link = paragraph
    link[.link] = .link("http://www.example.com")
    var mail = paragraph
    mail[.link] = .link("mailto:a@b.co")
    try Self.expect(
      "see www.example.com or a@b.co", "see www.example.com or a@b.co",
      [
        AttributeRun(0..<4, paragraph), AttributeRun(4..<19, link),
        AttributeRun(19..<23, paragraph), AttributeRun(23..<29, mail),
      ])
  }

  /// Text that looks like Markdown is written escaped and reads back as
  /// the same text, not as markup.
  @Test(arguments: [
    "*not emphasis*", "# not a header", "- not a list", "1. not a list", "> not a quote",
    "a | b", "<b>not html</b>", "&amp; not an entity", "`not code`", "~~not struck~~",
    "www.example.com", "http://example.com", "a@b.co", "[not](a link)", "  spaces  ",
    "\\ backslash", "***", "a\n=", "![not](an image)", "😀 e\u{301} 🇫🇷",
  ])
  func markupLookingTextStaysText(text: String) throws {
    let plain = try AttributedText(text)
    let read = AttributedText(markdown: plain.markdown)
    #expect(read.text == text.split(separator: "\n").joined(separator: "\n"), "\(plain.markdown)")
    #expect(read.runs.allSatisfy { $0.attributes.keys.sorted() == [.presentationIntent] })
  }

  /// What the fuzzer (FuzzMarkdown) found, each now written and read back
  /// the same: references to non-characters (cmark-gfm writes them as bytes
  /// that are not UTF-8), a byte order mark first, form feeds at a cell's
  /// edges, spaces at a URL's edges, bullets that make a thematic break,
  /// `&` in a URL and an info string, emphasis next to `~~` (transparent to
  /// flanking in cmark-gfm), a pipe in a cell's URL, an info string that
  /// starts with the fence's character, a mark reopened before a line end,
  /// a backtick in an info string under a combining mark, a link that holds
  /// a paragraph's first line break, an HTML block that its list item's end
  /// closed, a paragraph line that reads as a table's delimiter row, HTML
  /// first on a paragraph's indented line, a line with nothing on it, an
  /// indented HTML block after a list or first in a list item, a header's
  /// inline HTML over two lines, emphasis on a line end that is a whole
  /// link, HTML first on a line inside a link, an HTML block in a list item
  /// in a quote before another quote, emphasis that ends or starts with a
  /// soft line break, a tag's next line that a lazy line kept indented,
  /// emphasis that ends with a hard line break.
  @Test(arguments: [
    "&#65535;", "*&#xFFFE;* b", "&#65279;a", "| &#12;a | &#11; |\n| --- | --- |\n",
    "[a](<&#32;x&#9;>)", "+ * +\n", "[a](<&#38;amp;>)\n\n```&#38;amp;\n```\n", "~~I~~*a*",
    "*a*~~I~~", "~~&#48;~~**&#769;x**", "| [a](<x&#124;y>) |\n| --- |\n",
    "~~~ ~`x\nb\n~~~\n\nafter\n", "_&#97;_**_&#98;_\n&#99;**", "~~~ `\u{301}\nx\n~~~\n",
    "[\n]()", "[\n](u) a", "- <!A\nb", "a|b\n:-", "i\n\t<td>", "o\n[]()\no", "[\na](u)",
    "foo <a href=\"x\n<strong> y\">\nf", "__\\\nb__", "a __\\\nb__ c",
    "foo <bar attr=\"x\n    - a\n    > b\">",
    "-  i\n  <d>", "- i\n\n   <d>", "1. a\n   1. b\n\n    <d>", "-\n    <d>",
    "- a\n-\n    <d>", "1.\n    <d>\n\n  <e>", "o<!E\n\\>\n-", "o <!--\nx\n-->\n===",
    "*[\n]()*", "a *[\n]()*", "**[\n](u)**\nb", "*[\\\n](u)*", "[\n<x>]()",
    "> [a\n<div>\nb](u)", "[a\\\n<x>](u)",
    "> - <!--b\n\n> c", "> - <div>\n\n> c", "- > <!--b\n\n- > c", "> - a\n>   <!--b\n\n> > c",
    "_h\n[]()_", "**h\n[]()**", "_h\n[]()_b", "_[]()\nh_", "a_[]()\nh_", "~~h\n[]()~~b",
    "***a\n[]()**\n[]()*", "*a\n[]()*\n[]()*b*", "- _x\n  []()_\n\n  y",
    "><i\n v>", "- a <i\n v>", "> - a <i\n v>", "- > a <i\n v>", "> a <i\n\t v x=\"1\">\nb",
    // Findings 35–38: a tag's lazy next line before punctuation or a
    // digit, and an empty line inside a link.
    "><i\n />", "><a x=\n \"1\">", "> a <a x=\n 1>", "> a <a x=\n 1. b>", "> a <a x=\n 1) b>",
    "- a <i\n  (x)>", "[a\n![]()\nb](u)", "[a\n<b>\nc](u)", "[\n![]()\n](u) b",
    // Finding 39: before a scalar that is not ASCII.
    "1. <a f=\"\n \u{FFFD}\">", "- <a f=\"\n é\">", "> a <i\n 日本>", "- a <i\n\t😀 x>",
    // Finding 40: emphasis that ends with a hard line break (it closes
    // after the break's line end, behind the zero-width inline).
    "_\\\n[]()_", "a _b\\\n[]()_ c", "x[]()*\\\n[]()*[]()y", "**a\\\n[]()**\nb",
    "~~a\\\n[]()~~", "> _a\\\n> []()_\n> b", "_a\\\n\\\n[]()_", "- ***a\\\n  []()**_b_*",
  ])
  func formerFindingsReadBackTheSame(markdown: String) {
    let read = AttributedText(markdown: markdown)
    #expect(AttributedText(markdown: read.markdown) == read, "\(read.markdown.debugDescription)")
  }
}
