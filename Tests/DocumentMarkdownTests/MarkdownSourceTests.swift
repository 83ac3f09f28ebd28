import DocumentEngine
import DocumentMarkdown
import Testing
import TextRope
import _EngineTestSupport

/// A Markdown file keeps its form (docs/DESIGN.md): a storage read from
/// Markdown writes back its source byte for byte where it did not change,
/// and only the changed blocks anew.
@Suite struct MarkdownSourceTests {
  /// Files of many shapes: what a README, a change log and notes hold.
  static let files: [String] = [
    """
    # Title

    [![Swift 5.4](https://img.shields.io/badge/swift-5.4-orange.svg)](https://swift.org)
    ![logo](logo.png "Logo")

    Some *text* with a [reference link][ref] and a footnote[^1].

    * first bullet
    * second bullet
        continued

    1) one
    2) two

    - [ ] todo
    - [x] done

    [ref]: https://example.com "Example"
    [^1]: The note.

    """,
    "Setext heading\n==============\n\nText  \nwith a hard break.\n\n***\n\n    indented code\n\n",
    "> A quote\nwith a lazy line\n>\n> - and a list\n>   in it\n\n<div>\nraw HTML\n</div>\n",
    "| a | b |\n|:--|--:|\n| 1 | 2 |\n| *x* | `y` |\n\nAfter the table.",
    "CRLF file\r\n\r\n- one\r\n- two\r\n\r\nEnd.\r\n",
    "[a]: /url\n[b]: /other 'title'\nA paragraph after definitions, [a] and [b].\n",
    "Trailing spaces   \nand tabs\t\n\n\n\nMany blank lines above.\n\n\n",
    "```swift\nlet x = 1\n\n\nlet y = 2\n```\n\n~~~\ntilde fence\n~~~\n",
    "- loose\n\n- list\n\n  with two paragraphs\n- and a tight end\n",
    "",
    "\n\n",
    "no final newline",
  ]

  static func read(_ markdown: String) throws -> Document {
    let document = Document()
    try document.add("file", markdown: markdown)
    return document
  }

  /// The attributed text with the presentation intents' identities
  /// numbered anew in order of appearance: two texts of the same blocks
  /// compare equal.
  static func normalized(_ text: AttributedText) -> AttributedText {
    var numbers: [Int: Int] = [:]
    let runs = text.runs.map { run -> AttributeRun in
      var attributes = run.attributes
      if case .presentationIntent(let intent)? = attributes[.presentationIntent] {
        attributes[.presentationIntent] = .presentationIntent(
          PresentationIntent(
            intent.components.map { component in
              if numbers[component.identity] == nil {
                numbers[component.identity] = numbers.count + 1
              }
              var renumbered = component
              renumbered.identity = numbers[component.identity] ?? 0
              return renumbered
            }))
      }
      return AttributeRun(run.range, attributes)
    }
    return (try? AttributedText(text.text, runs: runs)) ?? text
  }

  static func attributedText(_ document: Document) throws -> AttributedText {
    let storage = try document.content.storage("file")
    return storage.attributedText(in: 0..<storage.length)
  }

  /// The lines of `new` that are not lines of `old`, as `diff` would show
  /// them (the longest common subsequence of lines).
  static func changedLines(from old: String, to new: String) -> (removed: [String], added: [String])
  {
    let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var removed: [String] = []
    var added: [String] = []
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if i < a.count, j < b.count, a[i] == b[j] {
        i += 1
        j += 1
      } else if j < b.count, i == a.count || table[i][j + 1] >= table[i + 1][j] {
        added.append(b[j])
        j += 1
      } else {
        removed.append(a[i])
        i += 1
      }
    }
    return (removed, added)
  }

  @Test(arguments: 0..<files.count)
  func anUnchangedFileIsWrittenByteForByte(file: Int) throws {
    let markdown = Self.files[file]
    let document = try Self.read(markdown)
    #expect(Array(try document.markdown(of: "file").utf8) == Array(markdown.utf8))
  }

  /// What the writer with the source kept writes reads back as what the
  /// writer without it writes (`AttributedText.markdown`, the oracle):
  /// the same blocks, text and attributes.
  static func expectSameReading(
    _ document: Document, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let written = try document.markdown(of: "file")
    let plain = try attributedText(document).markdown
    #expect(
      normalized(AttributedText(markdown: written)) == normalized(AttributedText(markdown: plain)),
      "kept:\n\(written)\nplain:\n\(plain)", sourceLocation: sourceLocation)
  }

  @Test(arguments: 0..<files.count)
  func whatIsWrittenReadsBackAsTheStorage(file: Int) throws {
    let document = try Self.read(Self.files[file])
    let storage = try document.content.storage("file")
    try Self.expectSameReading(document)
    guard storage.length > 2 else { return }
    // A character typed in the middle, and one at the end.
    var middle = storage.length / 2
    if (try? storage.text.utf8Offset(of: middle, in: .utf16)) == nil { middle += 1 }
    try document.edit("file", range: middle..<middle, with: "Z")
    try Self.expectSameReading(document)
    try document.edit("file", range: storage.length + 1..<storage.length + 1, with: " x")
    try Self.expectSameReading(document)
  }

  /// A storage nothing changed since it was read gives its source back as
  /// it is; any edit or attribute set (even one taken back) has the
  /// writer compare the blocks again, and a snapshot taken before keeps
  /// what it was.
  @Test func aStorageAsItWasReadGivesItsSourceBack() throws {
    for file in Self.files {
      let document = Document()
      try document.add("file", markdown: file)
      let read = try document.content.storage("file")
      #expect(read.isAsSourceRead)
      #expect(read.markdown == file)
      _ = try document.edit("file", range: 0..<0, with: "x")
      _ = try document.undo()
      let undone = try document.content.storage("file")
      #expect(!undone.isAsSourceRead)
      #expect(undone.markdown == file)
      #expect(read.isAsSourceRead)
      guard read.length > 0 else { continue }
      let other = Document()
      try other.add("file", markdown: file)
      try other.setAttributes([.link: .link("https://swift.org")], in: "file", range: 0..<1)
      #expect(try !other.content.storage("file").isAsSourceRead)
    }
    let plain = Document()
    try plain.add("text", text: Rope("*not* Markdown"))
    #expect(try !plain.content.storage("text").isAsSourceRead)
  }

  @Test func aTypoFixedChangesOnlyItsParagraphsLines() throws {
    let markdown = Self.files[0]
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "reference link", in: "file")
    try document.edit("file", range: offset..<offset + 1, with: "R")
    let written = try document.markdown(of: "file")
    let (removed, added) = Self.changedLines(from: markdown, to: written)
    #expect(removed == ["Some *text* with a [reference link][ref] and a footnote[^1]."])
    #expect(added.count == 1)
    #expect(added.first?.contains("Reference link") == true)
  }

  @Test func anItemsTypoChangesOnlyItsLinesWithTheFilesBullet() throws {
    let markdown = Self.files[0]
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "second bullet", in: "file")
    try document.edit("file", range: offset..<offset + 6, with: "2nd")
    let written = try document.markdown(of: "file")
    let (removed, added) = Self.changedLines(from: markdown, to: written)
    // Its continuation line keeps its own indentation.
    #expect(removed == ["* second bullet"])
    #expect(added == ["* 2nd bullet"])
    #expect(
      _CMarkBaseline.html(written)
        == _CMarkBaseline.html(
          markdown.replacingOccurrences(of: "* second bullet", with: "* 2nd bullet")))
  }

  /// A rewritten block nests emphasis and links as its source did (the
  /// file's way where the block shows none): rendered as the file edited.
  @Test(arguments: [
    ("*[Quick](q.md)* tests quikly.\n", "quikly", "quickly"),
    ("[**Quick**](q.md) tests quikly.\n", "quikly", "quickly"),
    ("- **[A](a)** one\n- [**B**](b) twoo\n", "twoo", "two"),
  ])
  func aRewrittenBlockNestsLinksAsItsSourceDid(
    markdown: String, typo: String, fixed: String
  ) throws {
    let document = try Self.read(markdown)
    let offset = try document.offset(of: typo, in: "file")
    try document.edit("file", range: offset..<offset + typo.utf16.count, with: fixed)
    let written = try document.markdown(of: "file")
    let expected = markdown.replacingOccurrences(of: typo, with: fixed)
    #expect(_CMarkBaseline.html(written) == _CMarkBaseline.html(expected), "\(written)")
  }

  /// FuzzMarkdown's finding with the source kept: cmark-gfm ends an HTML
  /// comment closed on a later line a line early, and that line, read
  /// alone, was nothing (a footnote definition nobody cites): edited, the
  /// comment was written and then its last line again.
  @Test func aCommentClosedOnALaterLineKeepsItsLastLine() throws {
    let markdown = "Intro.\n\n<!--\nnote\n[^x]: hidden -->\n\n    code\n"
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "note", in: "file")
    try document.edit("file", range: offset..<offset + 4, with: "notes")
    let written = try document.markdown(of: "file")
    let expected = markdown.replacingOccurrences(of: "note\n", with: "notes\n")
    #expect(written == expected)
    #expect(_CMarkBaseline.html(written) == _CMarkBaseline.html(expected), "\(written)")
  }

  /// FuzzMarkdown's finding with the source kept: a quote between a list
  /// and an indented block deleted, the block kept as it was went on in
  /// the list (its fence, or its paragraph, indented as the item's text):
  /// it is written anew, without the indentation.
  @Test(arguments: [
    ("- b\n>q\n  ```\n-", "q\n"),
    ("- b\n>q\n\n  c\n", "q\n"),
  ])
  func anIndentedBlockKeptAfterAListStaysOutOfIt(markdown: String, deleted: String) throws {
    let document = try Self.read(markdown)
    let offset = try document.offset(of: deleted, in: "file")
    try document.edit("file", range: offset..<offset + deleted.utf16.count, with: "")
    let written = try document.markdown(of: "file")
    let storage = try document.content.storage("file")
    let expected = storage.attributedText(in: 0..<storage.length).markdown
    #expect(_CMarkBaseline.html(written) == _CMarkBaseline.html(expected), "\(written)")
  }

  /// FuzzMarkdown's finding with the source kept: a definition whose
  /// title closes on an escaped quote (`"\"`) reads as one alone, but a
  /// later `"` of its paragraph extends the title (cmark-gfm takes the
  /// longest), and then it is no definition: the text written under it
  /// brought the definition's line back as text, or wrote it twice.
  @Test(arguments: [
    ("[foo]:z \"\\\"\n[> [foo]: r", "o: ", false),
    ("[foo]: /u \"\\\"\nx [foo] y", "x", true),
    ("[foo]: /u \"\\\"\nx \"y", "x", true),
    ("> [foo]: /u \"\\\"\n> x \"y", "x", true),
    // (And a title written anew that ends with a backslash: `"\\"` went
    // on to the next `"` too; the writer writes `&#92;`.)
    ("[foo]:z \"\\\"\n[foo]> [foo]: /", "o: ", false),
  ])
  func aTitleClosingOnAnEscapedQuoteStaysATitle(
    markdown: String, target: String, strong: Bool
  ) throws {
    let document = try Self.read(markdown)
    let offset = try document.offset(of: target, in: "file")
    let range = offset..<offset + target.utf16.count
    if strong {
      try document.setAttributes(
        [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)],
        in: "file", range: range)
    } else {
      try document.edit("file", range: range, with: "")
    }
    let written = try document.markdown(of: "file")
    let storage = try document.content.storage("file")
    let expected = storage.attributedText(in: 0..<storage.length).markdown
    #expect(_CMarkBaseline.html(written) == _CMarkBaseline.html(expected), "\(written)")
  }

  /// FuzzMarkdown's finding with the source kept: a table's header row
  /// that cuts into a paragraph makes the text before it a paragraph that
  /// cmark-gfm gives no position; the leaf before took it for one on line
  /// 0 and ended on its first line, so its rewrite left its other lines
  /// behind, read as more of its text.
  @Test(arguments: ["- a\n  two\n- x\n  |a|\n  |-|", "- a\n  two\n\n  x\n  |a|\n  |-|"])
  func aParagraphBeforeASplitOffOneKeepsItsLines(markdown: String) throws {
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "two", in: "file")
    try document.edit("file", range: offset..<offset + 3, with: "x*")
    let written = try document.markdown(of: "file")
    let storage = try document.content.storage("file")
    let expected = storage.attributedText(in: 0..<storage.length).markdown
    #expect(_CMarkBaseline.html(written) == _CMarkBaseline.html(expected), "\(written)")
    #expect(!written.contains("two"))
  }

  /// FuzzMarkdown's finding with the source kept: a fenced code block that
  /// its container's end cuts short (an unreferenced footnote definition
  /// after it, which cmark-gfm drops) ends, by cmark-gfm's positions, on
  /// the line that ended the container: rewritten, it took that line's
  /// place, and the footnote's lazy line after it stayed as a paragraph.
  @Test(arguments: [
    "-\n  ```\n  F600\n[^b]:m\n\"",
    "> ```\n> F600\n[^b]:m\n\"",
    "> - ```\n>   F600\n> [^b]:m\n> \"",
  ])
  func aFenceCutShortByItsContainerEndsWithItsCode(markdown: String) throws {
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "60", in: "file")
    try document.setAttributes(
      [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)],
      in: "file", range: offset..<offset + 2)
    let written = try document.markdown(of: "file")
    let storage = try document.content.storage("file")
    let expected = storage.attributedText(in: 0..<storage.length).markdown
    #expect(_CMarkBaseline.html(written) == _CMarkBaseline.html(expected), "\(written)")
  }

  /// FuzzMarkdown's finding with the source kept: emphasis set on part of
  /// a tag (`<r r="[ref]">`) made its pieces written raw, no longer a tag,
  /// and a reference definition the file kept made `[ref]` a link: its
  /// brackets were lost. HTML that is no longer whole tags is text now.
  @Test func emphasisInsideATagKeepsItsCharacters() throws {
    let markdown = "a <r r=\"[ref]\"> b\n\n[ref]: https://example.com\n"
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "=", in: "file")
    try document.setAttributes(
      [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)],
      in: "file", range: offset..<offset + 1)
    let written = try document.markdown(of: "file")
    let read = AttributedText(markdown: written)
    #expect(read.text == "a <r r=\"[ref]\"> b", "\(written)")
    #expect(!read.runs.contains { $0.attributes[.link] != nil }, "\(written)")
  }

  /// FuzzMarkdown's finding with the source kept: a paragraph's later line
  /// indented past four spaces and starting with `>` (text, no quote) kept
  /// the `>` as its indentation when the paragraph was written anew, and
  /// the writer's escaped `\>` after it doubled the character.
  @Test func aLaterLinesGreaterThanSignIsText() throws {
    let markdown = "aaa\n         >  text\n"
    let document = try Self.read(markdown)
    try document.edit("file", range: 0..<2, with: "")
    let written = try document.markdown(of: "file")
    #expect(AttributedText(markdown: written).text == "a >  text", "\(written)")
    // In a quote, its own marker is the line's indentation.
    let quoted = try Self.read("> aaa\n>      > text\n")
    try quoted.edit("file", range: 0..<2, with: "")
    let quotedWritten = try quoted.markdown(of: "file")
    #expect(AttributedText(markdown: quotedWritten).text == "a > text", "\(quotedWritten)")
    // A lazy line of a quote, its `>` four columns in: text too (a later
    // finding); the line is written with the first line's marker.
    for lazy in ["> aaa\n    > text\n", "> aaa\n\t> text\n"] {
      let document = try Self.read(lazy)
      try document.edit("file", range: 0..<2, with: "")
      let written = try document.markdown(of: "file")
      #expect(AttributedText(markdown: written).text == "a > text", "\(written)")
      #expect(written == "> a\n> \\> text\n")
    }
    // Past a list item's indentation, a `>` four columns in is a marker.
    let inItem = try Self.read("- > aaa\n    > text\n")
    try inItem.edit("file", range: 0..<2, with: "")
    let itemWritten = try inItem.markdown(of: "file")
    #expect(AttributedText(markdown: itemWritten).text == "a text", "\(itemWritten)")
  }

  /// FuzzMarkdown's finding with the source kept: a paragraph written anew
  /// right under the reference definition it started with, its text now
  /// starting with a quotation mark, read as the definition's title and
  /// was lost. Its first `"`, `'` or `(` is escaped there.
  @Test(arguments: ["[foo]: /url\nabc\n", "> [foo]: /url\n> abc\n"])
  func aParagraphUnderADefinitionIsNoTitle(markdown: String) throws {
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "abc", in: "file")
    try document.edit("file", range: offset..<offset + 3, with: "\"abc\"")
    let written = try document.markdown(of: "file")
    #expect(AttributedText(markdown: written).text == "\"abc\"", "\(written)")
    // Its shape changed too (a header): written anew whole.
    let intent = try #require(
      try document.content.storage("file").attributeRuns(in: 0..<1).first?
        .attributes[.presentationIntent])
    guard case .presentationIntent(var header) = intent else { return }
    header.components[header.components.count - 1] = .init(
      .header(level: 2), identity: header.components.last?.identity ?? 0)
    try document.setAttributes(
      [.presentationIntent: .presentationIntent(header)], in: "file",
      range: 0..<(try document.content.storage("file").length))
    let headed = try document.markdown(of: "file")
    #expect(AttributedText(markdown: headed).text == "\"abc\"", "\(headed)")
  }

  /// FuzzMarkdown's finding with the source kept: strong set on a line
  /// break inside an HTML block took its HTML mark off, so the block was cut
  /// in two there, and the second half (`b` then a fence line), written
  /// raw, read as a paragraph and a fence that took in the rest of the
  /// file. Block HTML that would start no block is written as text.
  @Test func blockHTMLThatStartsNoBlockIsText() throws {
    let markdown = "<div></div>\nb\n```\n\nafter\n"
    let document = try Self.read(markdown)
    try document.setAttributes(
      [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)],
      in: "file", range: 11..<12)
    for written in [
      try document.markdown(of: "file"), try Self.attributedText(document).markdown,
    ] {
      let read = AttributedText(markdown: written)
      #expect(read.text.hasSuffix("after"), "\(written)")
      #expect(read.text.unicodeScalars.filter { $0 != "\n" }.count == 20, "\(written)")
    }
  }

  /// FuzzMarkdown's finding with the source kept (reduced): a line break
  /// typed into an HTML block of kind 7 gave its text a blank line, which
  /// ends such a block in any Markdown; written whole, the line after it
  /// opened a fence that took in the rest of the file. The writer writes
  /// the text as the blocks Markdown reads, the HTML block ended there.
  /// Likewise an end of a comment typed before the comment's last line.
  @Test(arguments: [
    ("<a>\nx```\n\n<\n", 4..<5, "\n", "<a>\n```\n<"),
    ("<!--\nx\n-->\n\n<\n", 5..<6, "-->\n```", "<!--\n-->\n```\n-->\n<"),
    ("<div>\nx\n</div>\n\nafter\n", 6..<7, "\n\n\n", "<div>\n</div>\nafter"),
  ])
  func htmlBlockTextThatMarkdownEndsEarly(
    markdown: String, range: Range<Int>, typed: String, reads: String
  ) throws {
    let document = try Self.read(markdown)
    try document.edit("file", range: range, with: typed)
    for written in [
      try document.markdown(of: "file"), try Self.attributedText(document).markdown,
    ] {
      let read = AttributedText(markdown: written)
      #expect(read.text == reads, "\(written.debugDescription)")
      #expect(
        !read.runs.contains { run in
          if case .presentationIntent(let intent)? = run.attributes[.presentationIntent],
            case .codeBlock? = intent.components.last?.kind
          {
            return true
          }
          return false
        }, "\(written.debugDescription)")
    }
  }

  /// FuzzMarkdown's finding with the source kept (regression 61, reduced):
  /// a line break typed into an HTML block of kind 6 (`<table><td>`) gave its
  /// text a blank line before a `<pre` line. Written as the blocks it
  /// reads as, that line started a block of kind 1 that nothing ended,
  /// which took in the paragraph after it (the kept source wrote its `<`
  /// raw, the writer `\<`: they read apart). What follows the end and
  /// would start such a block is written as text; the paragraph after it
  /// stays one, its emphasis too. Likewise after a comment's end.
  @Test(arguments: [
    ("<table><td>\n<pre\n\n_d_<\n", 11..<11, "\n", "<table><td>\n<pre\nd<"),
    ("<div>\nx\n</div>\n\n_d_\n", 6..<7, "\n<!--", "<div>\n<!--\n</div>\nd"),
    ("<!--\nx\n-->\n\n_d_\n", 5..<6, "-->\n<?", "<!--\n-->\n<?\n-->\nd"),
  ])
  func htmlBlockTextThatMarkdownEndsEarlyBeforeAnOpenOne(
    markdown: String, range: Range<Int>, typed: String, reads: String
  ) throws {
    let document = try Self.read(markdown)
    try document.edit("file", range: range, with: typed)
    let kept = try document.markdown(of: "file")
    let written = try Self.attributedText(document).markdown
    #expect(AttributedText(markdown: kept) == AttributedText(markdown: written))
    for written in [kept, written] {
      let read = AttributedText(markdown: written)
      #expect(read.text == reads, "\(written.debugDescription)")
      // (The last `d`, in the paragraph after.)
      let d = Array(read.text.utf16).lastIndex(of: UInt16(UInt8(ascii: "d")))
      let emphasized = read.runs.first { d.map($0.range.contains) ?? false }.map { run in
        if case .inlinePresentationIntent(let intent)? = run.attributes[.inlinePresentationIntent] {
          return intent.contains(.emphasized)
        }
        return false
      }
      #expect(emphasized == true, "\(written.debugDescription)")
    }
  }

  @Test func aTaskItemsTypoKeepsItsBox() throws {
    let markdown = "- [ ] buy milk\n  and bread\n- [x] done\n"
    let document = try Self.read(markdown)
    try document.edit("file", range: 4..<8, with: "oat milk")
    let written = try document.markdown(of: "file")
    #expect(written == "- [ ] buy oat milk\n  and bread\n- [x] done\n")
  }

  /// FuzzMarkdown's first finding of the kept source: a deletion of a
  /// block's separator and the next block's first character left the
  /// first block without a separator, and its last character was taken
  /// for one.
  @Test func aBlockThatLostItsSeparatorKeepsItsLastCharacter() throws {
    let document = try Self.read("foo\nbaz\n\nfoo \n baz\n")
    try document.edit("file", range: 7..<9, with: "")
    #expect(try document.markdown(of: "file") == "foo\nbaz\n\noo\n baz\n")
    try Self.expectSameReading(document)
  }

  /// Text typed into an empty list item takes the item's intent (the edit
  /// rule: the unit before is the item's line break); it is written as a
  /// paragraph in the item, never dropped (FuzzMarkdown, with the source
  /// kept).
  @Test func textTypedIntoAnEmptyItemIsWritten() throws {
    let document = try Self.read("-\n\nafter\n")
    try document.edit("file", range: 1..<1, with: "typed")
    let written = try document.markdown(of: "file")
    #expect(AttributedText(markdown: written).text.contains("typed"), "\(written)")
    let plain = try Self.attributedText(document).markdown
    #expect(plain.contains("typed"), "\(plain)")
  }

  /// FuzzMarkdown's finding with the source kept (reduced to
  /// `-\n| a |\n| - |`, text typed into the empty item): the item, written
  /// anew, now ends in a paragraph, and the block kept right under it (its
  /// neighbour in the file, where nothing could go on the empty item) was
  /// taken in as its lazy lines. Such a block goes a blank line apart, its
  /// own bytes kept.
  @Test(arguments: [
    ("-\n| a |\n| - |\n", "- x\n\n| a |\n| - |\n"),
    ("1.\n| a |\n| - |\n", "1. x\n\n| a |\n| - |\n"),
    (">\n| a |\n| - |\n", "> x\n\n| a |\n| - |\n"),
    ("- >\n| a |\n| - |\n", "- > x\n\n| a |\n| - |\n"),
    ("-\nafter\n", "- x\n\nafter\n"),
  ])
  func aBlockKeptUnderAnEmptyContainerThatGotTextStaysApart(
    markdown: String, expected: String
  ) throws {
    let document = try Self.read(markdown)
    try document.edit("file", range: 0..<0, with: "x")
    #expect(try document.markdown(of: "file") == expected)
    try Self.expectSameReading(document)
  }

  /// A source given with a text it was not read from (a host's mistake)
  /// is compared like any other: the writer never traps, and what it
  /// writes of blocks that match nothing is the writer's.
  @Test func aSourceOfAnotherFileNeverTraps() throws {
    for (first, second) in zip(Self.files, Self.files.reversed()) {
      let (_, source) = AttributedText.read(markdown: first)
      let text = AttributedText(markdown: second)
      let document = Document()
      try document.add("file", text: Rope(text.text), attributes: text.runs, source: source)
      _ = try document.markdown(of: "file")
      try document.edit("file", range: 0..<0, with: "x")
      _ = try document.markdown(of: "file")
    }
  }

  @Test func everyChangeOfABlockIsSeen() throws {
    let markdown = "One.\n\nTwo.\n\nThree.\n"
    // At a block's start (in the block: with its attributes), at its end,
    // and an attribute set (which makes no version).
    let document = try Self.read(markdown)
    let two = try document.content.storage("file").attributedText(in: 5..<6).runs[0].attributes
    try document.edit("file", range: 5..<5, with: "A", attributes: two)
    #expect(try document.markdown(of: "file") == "One.\n\nATwo.\n\nThree.\n")
    try document.edit("file", range: 10..<10, with: "B")
    #expect(try document.markdown(of: "file") == "One.\n\nATwo.B\n\nThree.\n")
    try document.setAttributes(
      [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)], in: "file",
      range: 12..<17)
    #expect(try document.markdown(of: "file") == "One.\n\nATwo.B\n\n**Three**.\n")
    // Taken back, the block is the file's again.
    try document.setAttributes([.inlinePresentationIntent: nil], in: "file", range: 12..<17)
    try document.edit("file", range: 10..<11, with: "")
    try document.edit("file", range: 5..<6, with: "")
    #expect(try document.markdown(of: "file") == markdown)
  }

  @Test func aDeletedBlockKeepsTheDefinitionsBeforeIt() throws {
    let markdown = "See [a].\n\n[a]: /url\n\nDelete me.\n\nEnd.\n"
    let document = try Self.read(markdown)
    let text = String(try document.content.storage("file").text)
    #expect(text == "See a.\nDelete me.\nEnd.\n" || text == "See a.\nDelete me.\nEnd.")
    try document.edit("file", range: 7..<18, with: "")
    let written = try document.markdown(of: "file")
    #expect(written == "See [a].\n\n[a]: /url\n\nEnd.\n")
  }

  @Test func aRewrittenParagraphKeepsItsDefinitions() throws {
    let markdown = "[a]: /url\n[b]:\n  /other\nA paragraph after definitions, [a] and [b].\n"
    let document = try Self.read(markdown)
    try document.edit("file", range: 0..<1, with: "The a")
    let written = try document.markdown(of: "file")
    #expect(written.hasPrefix("[a]: /url\n[b]:\n  /other\nThe a paragraph"))
    #expect(
      _CMarkBaseline.html(written)
        == _CMarkBaseline.html(markdown.replacingOccurrences(of: "\nA para", with: "\nThe a para")))
  }

  /// So does a setext header (FuzzMarkdown's finding: the definitions
  /// were lost, and the links elsewhere that used them became text).
  @Test func aRewrittenSetextHeaderKeepsItsDefinitions() throws {
    let markdown = "See [foo].\n\n[foo]: /url\nbar\n===\n"
    let document = try Self.read(markdown)
    // "bar" is at 9..<12 (after "See foo." and its separator).
    try document.edit("file", range: 9..<10, with: "")
    let written = try document.markdown(of: "file")
    #expect(written.contains("[foo]: /url\n"), "\(written)")
    #expect(
      _CMarkBaseline.html(written)
        == _CMarkBaseline.html("See [foo].\n\n[foo]: /url\nar\n===\n"))
  }

  /// A list written anew keeps the definitions inside its items, out of
  /// the list (FuzzMarkdown's finding: `[ref]` elsewhere became text); so
  /// does a deleted one.
  @Test func aListWrittenAnewOrDeletedKeepsTheDefinitionsInIt() throws {
    let markdown = "See [ref].\n\n- a\n- b\n\n  [ref]: /url\n- d\n\nEnd.\n"
    let html = _CMarkBaseline.html(markdown)
    #expect(html.contains("href=\"/url\""))
    // "d" is at 14..<15 ("See ref.\n" 9, "a\n" 11, "b\n" 13, "d" 14).
    let document = try Self.read(markdown)
    try document.edit("file", range: 13..<15, with: "")
    let written = try document.markdown(of: "file")
    #expect(_CMarkBaseline.html(written).contains("<a href=\"/url\">ref</a>"), "\(written)")
    #expect(AttributedText(markdown: written).text == "See ref.\na\nb\nEnd.", "\(written)")
    // The whole list deleted.
    let deleting = try Self.read(markdown)
    try deleting.edit("file", range: 9..<15, with: "")
    let rest = try deleting.markdown(of: "file")
    #expect(_CMarkBaseline.html(rest).contains("<a href=\"/url\">ref</a>"), "\(rest)")
    #expect(AttributedText(markdown: rest).text == "See ref.\nEnd.", "\(rest)")
  }

  /// FuzzMarkdown's finding with the source kept (reduced to
  /// `-\n- [f]:l\n  a b`, a line break typed over the space): a list
  /// written anew went right under the definitions kept out of it, and its
  /// empty first item `-`, which cannot interrupt a paragraph, was read as
  /// their paragraph's text. Such a block goes a blank line apart.
  @Test func aListWrittenAnewUnderItsDefinitionsStaysApart() throws {
    let markdown = "See [f].\n\n-\n- [f]: /url\n  a b\n"
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "a b", in: "file")
    try document.edit("file", range: (offset + 1)..<(offset + 2), with: "\n")
    let written = try document.markdown(of: "file")
    #expect(_CMarkBaseline.html(written).contains("<a href=\"/url\">f</a>"), "\(written)")
    #expect(AttributedText(markdown: written).text == "See f.\n\na\nb", "\(written)")
    try Self.expectSameReading(document)
  }

  /// FuzzMarkdown's finding 59 with the source kept (reduced to
  /// `b\n\n[f]:u\na`, "a" deleted): the paragraph read with the
  /// definitions went, and they were kept right under "b" (the blank line
  /// before them was the deleted block's gap, which was dropped), so they
  /// were read as lazy lines of its paragraph. Definitions kept from a
  /// deleted block, or from a gap or the tail whose neighbour in the file
  /// (a header: `# h\n[f]:u`) went, now go a blank line apart.
  @Test(arguments: [
    ("b\n\n[f]: /url\na\n", "a", 1),
    ("- b\n\n[f]: /url\na", "a", 1),
    ("b\n\n# h\n[f]: /url\n\nc\n", "h", 2),
    ("b\n\n# h\n[f]: /url\n", "h", 1),
  ])
  func definitionsKeptFromADeletedBlockStayApart(
    markdown: String, deleted: String, length: Int
  ) throws {
    let document = try Self.read(markdown)
    let offset = try document.offset(of: deleted, in: "file")
    try document.edit("file", range: offset..<(offset + length), with: "")
    let written = try document.markdown(of: "file")
    #expect(!AttributedText(markdown: written).text.contains("[f]"), "\(written)")
    #expect(
      _CMarkBaseline.html(written + "\n[f]\n").contains("<a href=\"/url\">f</a>"), "\(written)")
    try Self.expectSameReading(document)
  }

  /// FuzzMarkdown's finding 62 with the source kept (reduced to
  /// `- [x] a\n  -`, text typed into the header): cmark-gfm shows the box
  /// of an item whose paragraph an underline makes a header, but the
  /// reader kept none, and the header written anew went after the file's
  /// `- [x] `, on the box's line, whose rest cmark-gfm reads as a
  /// paragraph's text (`## ax*`). The box is kept, and the header goes on
  /// the line after it, as the writer puts it.
  @Test(arguments: [
    ("- [x] a\n  -\n", "- [x] \n  ## ab\n"),
    ("- [ ] a\n  ===\n", "- [ ] \n  # ab\n"),
    ("x\r\n\r\n- [x] a\r\n  -\r\n", "x\r\n\r\n- [x] \r\n  ## ab\r\n"),
    ("10. [x]\ta\n    ---\n", "10. [x]\t\n    ## ab\n"),
    ("- [x] [r]: /u\n  ### a\n", "- [x] [r]: /u\n  ### ab\n"),
  ])
  func aHeaderAfterATaskBoxGoesOnTheNextLine(markdown: String, expected: String) throws {
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "a", in: "file")
    try document.edit("file", range: (offset + 1)..<(offset + 1), with: "b")
    let written = try document.markdown(of: "file")
    #expect(written == expected)
    #expect(_CMarkBaseline.html(written).contains("type=\"checkbox\""), "\(written)")
    try Self.expectSameReading(document)
  }

  @Test func aNewBlockAfterTheLastLineStaysApart() throws {
    let markdown = "no final newline"
    let document = try Self.read(markdown)
    try document.edit("file", range: 16..<16, with: "\nA new paragraph")
    let written = try document.markdown(of: "file")
    #expect(written == "no final newline\n\nA new paragraph")
    try Self.expectSameReading(document)
  }

  @Test func crlfFilesKeepTheirLineEndings() throws {
    let markdown = Self.files[4]
    let document = try Self.read(markdown)
    let offset = try document.offset(of: "two", in: "file")
    try document.edit("file", range: offset..<offset + 3, with: "2")
    #expect(try document.markdown(of: "file") == "CRLF file\r\n\r\n- one\r\n- 2\r\n\r\nEnd.\r\n")
  }
}

extension Document {
  /// The UTF-16 offset of the first `needle` in storage `id`'s text.
  func offset(of needle: String, in id: StorageID) throws -> Int {
    let text = String(try content.storage(id).text)
    let at = try #require(text.range(of: needle))
    return text.utf16.distance(from: text.startIndex, to: at.lowerBound)
  }
}
