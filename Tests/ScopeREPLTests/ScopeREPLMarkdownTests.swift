import DocumentEngine
import DocumentMarkdown
import Foundation
import ScopeREPLCore
import Testing

/// The protocol's Markdown fields (PROTOCOL.md, *Attributes*): `contexts`
/// with `"format": "markdown"` and `replace` with `markdown`, exactly;
/// contexts' Markdown read back; hostile requests; and human mode's
/// `contexts … markdown` and `replace-md`.
@Suite struct ScopeREPLMarkdownTests {
  // MARK: Every field, exactly

  /// A session through both fields, each request with its response.
  static let session: [(request: String, response: String)] = [
    // A storage with a header, strong text and a link; one without attributes.
    (
      #"{"cmd":"add","storage":"note","text":"Title\nSome bold, big text.\n","attributes":[{"offset":0,"length":6,"attributes":{"presentationIntent":[{"kind":"header","identity":1,"level":1}]}},{"offset":11,"length":4,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}},{"offset":17,"length":3,"attributes":{"link":"https://big.example"}}]}"#,
      #"{"ok":true,"storage":"note","length":27,"version":0}"#
    ),
    (
      #"{"cmd":"add","storage":"plain","text":"Just *text*"}"#,
      #"{"ok":true,"storage":"plain","length":11,"version":0}"#
    ),
    // Without a format (or with null), contexts answer as before: no markdown.
    (
      #"{"cmd":"contexts","scope":"fullDocument","format":null}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"note","storageRange":{"offset":0,"length":27},"text":"Title\nSome bold, big text.\n","range":{"offset":0,"length":27},"excluded":[],"version":0,"contextVersion":0,"attributes":[{"offset":0,"length":6,"attributes":{"presentationIntent":[{"kind":"header","identity":1,"level":1}]}},{"offset":11,"length":4,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}},{"offset":17,"length":3,"attributes":{"link":"https://big.example"}}]},{"id":"$2","storage":"plain","storageRange":{"offset":0,"length":11},"text":"Just *text*","range":{"offset":0,"length":11},"excluded":[],"version":0,"contextVersion":0,"attributes":[]}]}"#
    ),
    // With "format": "markdown", each context also has its text as Markdown
    // (after its attributes); plain text is escaped.
    (
      #"{"cmd":"contexts","scope":"fullDocument","format":"markdown"}"#,
      ##"{"ok":true,"contexts":[{"id":"$1","storage":"note","storageRange":{"offset":0,"length":27},"text":"Title\nSome bold, big text.\n","range":{"offset":0,"length":27},"excluded":[],"version":0,"contextVersion":0,"attributes":[{"offset":0,"length":6,"attributes":{"presentationIntent":[{"kind":"header","identity":1,"level":1}]}},{"offset":11,"length":4,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}},{"offset":17,"length":3,"attributes":{"link":"https://big.example"}}],"markdown":"# Title\n\nSome **bold**, [big](<https://big.example>) text.\n"},{"id":"$2","storage":"plain","storageRange":{"offset":0,"length":11},"text":"Just *text*","range":{"offset":0,"length":11},"excluded":[],"version":0,"contextVersion":0,"attributes":[],"markdown":"Just \\*text\\*\n"}]}"##
    ),
    // Under plain text the Markdown's text lands and the edit rule gives it
    // the attributes of what it replaced (the link of "big"); the reply
    // also has the text that landed.
    (
      #"{"cmd":"replace","context":"$1","offset":17,"length":3,"markdown":"**huge**"}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":17,"length":4},"contextVersion":1,"reason":"noninteractive","events":[],"text":"huge"}"#
    ),
    (
      #"{"cmd":"text","storage":"note","attributes":true}"#,
      #"{"ok":true,"text":"Title\nSome bold, huge text.\n","version":1,"attributes":[{"offset":0,"length":6,"attributes":{"presentationIntent":[{"kind":"header","identity":1,"level":1}]}},{"offset":11,"length":4,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}},{"offset":17,"length":4,"attributes":{"link":"https://big.example"}}]}"#
    ),
    // Blocks are paragraphs of the text, separated by one line break; basis
    // and policy go with markdown as with text.
    (
      #"{"cmd":"replace","context":"$2","offset":0,"length":4,"markdown":"Only\n\nthe","basis":0,"policy":"merge"}"#,
      #"{"ok":true,"storage":"plain","storageRange":{"offset":0,"length":8},"contextVersion":1,"reason":"noninteractive","events":[],"text":"Only\nthe"}"#
    ),
    (
      #"{"cmd":"text","storage":"plain","attributes":true}"#,
      #"{"ok":true,"text":"Only\nthe *text*","version":1,"attributes":[]}"#
    ),
    // Under rich text the Markdown's inline intents and links land.
    (
      #"{"cmd":"contexts","scope":"fullDocument","resultOptions":["richText"],"format":"markdown"}"#,
      ##"{"ok":true,"contexts":[{"id":"$1","storage":"note","storageRange":{"offset":0,"length":28},"text":"Title\nSome bold, huge text.\n","range":{"offset":0,"length":28},"excluded":[],"version":1,"contextVersion":0,"attributes":[{"offset":0,"length":6,"attributes":{"presentationIntent":[{"kind":"header","identity":1,"level":1}]}},{"offset":11,"length":4,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}},{"offset":17,"length":4,"attributes":{"link":"https://big.example"}}],"markdown":"# Title\n\nSome **bold**, [huge](<https://big.example>) text.\n"},{"id":"$2","storage":"plain","storageRange":{"offset":0,"length":15},"text":"Only\nthe *text*","range":{"offset":0,"length":15},"excluded":[],"version":1,"contextVersion":0,"attributes":[],"markdown":"Only\n\nthe \\*text\\*\n"}]}"##
    ),
    (
      #"{"cmd":"replace","context":"$1","offset":17,"length":4,"markdown":"_vast_ `code` [link](https://x.example)"}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":17,"length":14},"contextVersion":1,"reason":"noninteractive","events":[],"text":"vast code link"}"#
    ),
    (
      #"{"cmd":"text","storage":"note","attributes":true}"#,
      #"{"ok":true,"text":"Title\nSome bold, vast code link text.\n","version":2,"attributes":[{"offset":0,"length":6,"attributes":{"presentationIntent":[{"kind":"header","identity":1,"level":1}]}},{"offset":11,"length":4,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}},{"offset":17,"length":4,"attributes":{"inlinePresentationIntent":["emphasized"]}},{"offset":22,"length":4,"attributes":{"inlinePresentationIntent":["code"]}},{"offset":27,"length":4,"attributes":{"link":"https://x.example"}}]}"#
    ),
    // With presentationIntent and list its blocks land too: list components,
    // not table ones (a cell left with no component takes the edit rule).
    (
      #"{"cmd":"contexts","scope":"fullDocument","resultOptions":["presentationIntent","list"]}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"note","storageRange":{"offset":0,"length":38},"text":"Title\nSome bold, vast code link text.\n","range":{"offset":0,"length":38},"excluded":[],"version":2,"contextVersion":0,"attributes":[{"offset":0,"length":6,"attributes":{"presentationIntent":[{"kind":"header","identity":1,"level":1}]}},{"offset":11,"length":4,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}},{"offset":17,"length":4,"attributes":{"inlinePresentationIntent":["emphasized"]}},{"offset":22,"length":4,"attributes":{"inlinePresentationIntent":["code"]}},{"offset":27,"length":4,"attributes":{"link":"https://x.example"}}]},{"id":"$2","storage":"plain","storageRange":{"offset":0,"length":15},"text":"Only\nthe *text*","range":{"offset":0,"length":15},"excluded":[],"version":1,"contextVersion":0,"attributes":[]}]}"#
    ),
    (
      #"{"cmd":"replace","context":"$2","offset":0,"length":0,"markdown":"- one\n- *two*\n\n| a |\n|---|\n| b |\n"}"#,
      #"{"ok":true,"storage":"plain","storageRange":{"offset":0,"length":12},"contextVersion":1,"reason":"noninteractive","events":[],"text":"one\ntwo\na\nb\n"}"#
    ),
    (
      #"{"cmd":"text","storage":"plain","attributes":true}"#,
      #"{"ok":true,"text":"one\ntwo\na\nb\nOnly\nthe *text*","version":2,"attributes":[{"offset":0,"length":4,"attributes":{"presentationIntent":[{"kind":"unorderedList","identity":1},{"kind":"listItem","identity":2,"ordinal":1},{"kind":"paragraph","identity":3}]}},{"offset":4,"length":3,"attributes":{"inlinePresentationIntent":["emphasized"],"presentationIntent":[{"kind":"unorderedList","identity":1},{"kind":"listItem","identity":4,"ordinal":2},{"kind":"paragraph","identity":5}]}},{"offset":7,"length":1,"attributes":{"presentationIntent":[{"kind":"unorderedList","identity":1},{"kind":"listItem","identity":4,"ordinal":2},{"kind":"paragraph","identity":5}]}}]}"#
    ),
    // Undo and redo take back and put back the text with its attributes.
    (
      #"{"cmd":"undo"}"#,
      #"{"ok":true,"events":[{"kind":"textUpdated","context":"$2","range":{"offset":0,"length":12},"text":"","contextVersion":2,"reason":"undoRedo"}],"selection":[]}"#
    ),
    (
      #"{"cmd":"text","storage":"plain","attributes":true}"#,
      #"{"ok":true,"text":"Only\nthe *text*","version":3,"attributes":[]}"#
    ),
    (
      #"{"cmd":"redo"}"#,
      #"{"ok":true,"events":[{"kind":"textUpdated","context":"$2","range":{"offset":0,"length":0},"text":"one\ntwo\na\nb\n","contextVersion":3,"reason":"undoRedo"}],"selection":[]}"#
    ),
    (
      #"{"cmd":"text","storage":"plain","attributes":true}"#,
      #"{"ok":true,"text":"one\ntwo\na\nb\nOnly\nthe *text*","version":4,"attributes":[{"offset":0,"length":4,"attributes":{"presentationIntent":[{"kind":"unorderedList","identity":1},{"kind":"listItem","identity":2,"ordinal":1},{"kind":"paragraph","identity":3}]}},{"offset":4,"length":3,"attributes":{"inlinePresentationIntent":["emphasized"],"presentationIntent":[{"kind":"unorderedList","identity":1},{"kind":"listItem","identity":4,"ordinal":2},{"kind":"paragraph","identity":5}]}},{"offset":7,"length":1,"attributes":{"presentationIntent":[{"kind":"unorderedList","identity":1},{"kind":"listItem","identity":4,"ordinal":2},{"kind":"paragraph","identity":5}]}}]}"#
    ),
  ]

  @Test func everyMarkdownFieldAnswersExactly() {
    let session = ProtocolSession()
    for (i, (request, response)) in Self.session.enumerated() {
      #expect(session.answer(request) == response, "request \(i + 1): \(request)")
    }
  }

  @Test func withoutAFormatContextsAnswerByteForByteAsBefore() {
    let session = ProtocolSession()
    _ = session.answer(Self.session[0].request)
    let plain = session.answer(#"{"cmd":"contexts","scope":"fullDocument"}"#)
    #expect(!plain.contains(#""markdown""#))
    #expect(session.answer(#"{"cmd":"contexts","scope":"fullDocument","format":null}"#) == plain)
    // Other commands ignore a format, as any field the protocol does not
    // name for them; `text` writes the storage as Markdown with one (a
    // storage added as text and runs has no source: its attributed text
    // is written).
    #expect(
      session.answer(#"{"cmd":"storages","format":"markdown"}"#)
        == session.answer(#"{"cmd":"storages"}"#))
    #expect(
      session.answer(#"{"cmd":"text","storage":"note","format":"markdown"}"#)
        == ##"{"ok":true,"markdown":"# Title\n\nSome **bold**, [big](<https://big.example>) text.\n","version":0}"##
    )
    #expect(
      session.answer(#"{"cmd":"text","storage":"note","format":null}"#)
        == #"{"ok":true,"text":"Title\nSome bold, big text.\n","version":0}"#)
  }

  /// `add` with `markdown` keeps the source, and `text` with `"format":
  /// "markdown"` gives it back: byte for byte, and after an edit anew only
  /// where the edit was.
  @Test func aStorageAddedFromMarkdownIsWrittenBackWithItsSource() {
    let session = ProtocolSession()
    let file = "* one\n* two\n\n![logo](logo.png \"Logo\")\n\n[ref]: https://x.org\n"
    let literal = file.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    #expect(
      session.answer(#"{"cmd":"add","storage":"f","markdown":""# + literal + #""}"#)
        == #"{"ok":true,"storage":"f","length":12,"version":0}"#)
    #expect(
      session.answer(#"{"cmd":"text","storage":"f","format":"markdown"}"#)
        == #"{"ok":true,"markdown":""# + literal + #"","version":0}"#)
    #expect(
      session.answer(#"{"cmd":"text","storage":"f"}"#)
        == #"{"ok":true,"text":"one\ntwo\nlogo","version":0}"#)
    _ = session.answer(#"{"cmd":"edit","storage":"f","offset":4,"length":3,"text":"2"}"#)
    #expect(
      session.answer(#"{"cmd":"text","storage":"f","format":"markdown"}"#)
        == #"{"ok":true,"markdown":""#
        + literal.replacingOccurrences(of: "* two", with: "* 2") + #"","version":1}"#)
    // A part is written as its attributed text is.
    #expect(
      session.answer(
        #"{"cmd":"text","storage":"f","format":"markdown","range":{"offset":0,"length":4}}"#)
        == #"{"ok":true,"markdown":"- one\n","version":1}"#)
    // Refused, changing nothing.
    for (request, message) in [
      (
        #"{"cmd":"add","storage":"g","markdown":"x","text":"y"}"#,
        "'add' takes 'text' or 'markdown', not both"
      ),
      (
        #"{"cmd":"add","storage":"g","markdown":"x","attributes":[]}"#,
        "'add' with 'markdown' takes no 'attributes' (the Markdown has its own)"
      ),
      (
        #"{"cmd":"text","storage":"f","format":"markdown","attributes":true}"#,
        "'text' with 'format' takes no 'attributes' (the Markdown has its own)"
      ),
      (#"{"cmd":"text","storage":"f","format":"html"}"#, "unknown format 'html' (markdown)"),
    ] {
      #expect(
        session.answer(request)
          == #"{"ok":false,"error":{"code":"badRequest","message":""# + message + #""}}"#)
    }
    #expect(
      session.answer(#"{"cmd":"add","storage":"f","markdown":"x"}"#).contains("duplicateStorage"))
    #expect(session.answer(#"{"cmd":"storages"}"#).contains(#""storage":"f""#))
    #expect(!session.answer(#"{"cmd":"storages"}"#).contains(#""storage":"g""#))
  }

  /// Images, titles and task boxes in the protocol: what a Markdown
  /// storage holds is written, and read back.
  @Test func imagesTitlesAndBoxesGoBothWays() {
    let session = ProtocolSession()
    _ = session.answer(
      #"{"cmd":"add","storage":"f","markdown":"- [x] ![logo](l.png \"L\") [a](u \"T\")"}"#)
    let runs =
      #"[{"offset":0,"length":4,"attributes":{"imageTitle":"L","imageURL":"l.png","presentationIntent":[{"kind":"unorderedList","identity":1},{"kind":"listItem","identity":2,"ordinal":1,"checked":true},{"kind":"paragraph","identity":3}]}},"#
      + #"{"offset":4,"length":1,"attributes":{"presentationIntent":[{"kind":"unorderedList","identity":1},{"kind":"listItem","identity":2,"ordinal":1,"checked":true},{"kind":"paragraph","identity":3}]}},"#
      + #"{"offset":5,"length":1,"attributes":{"link":"u","linkTitle":"T","presentationIntent":[{"kind":"unorderedList","identity":1},{"kind":"listItem","identity":2,"ordinal":1,"checked":true},{"kind":"paragraph","identity":3}]}}]"#
    #expect(
      session.answer(#"{"cmd":"text","storage":"f","attributes":true}"#)
        == #"{"ok":true,"text":"logo a","version":0,"attributes":"# + runs + "}")
    // Read back: a storage added with those runs holds the same.
    #expect(
      session.answer(#"{"cmd":"add","storage":"g","text":"logo a","attributes":"# + runs + "}")
        == #"{"ok":true,"storage":"g","length":6,"version":0}"#)
    #expect(
      session.answer(#"{"cmd":"text","storage":"g","attributes":true}"#)
        == #"{"ok":true,"text":"logo a","version":0,"attributes":"# + runs + "}")
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"h","text":"x","attributes":[{"offset":0,"length":1,"attributes":{"imageURL":1}}]}"#
      ).contains("badRequest"))
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"h","text":"x","attributes":[{"offset":0,"length":1,"attributes":{"presentationIntent":[{"kind":"paragraph","identity":1,"checked":true}]}}]}"#
      ).contains("badRequest"))
  }

  /// A loose list says so in the protocol, after a list's identity; read
  /// back, and refused on another kind.
  @Test func aLooseListGoesBothWays() {
    let session = ProtocolSession()
    _ = session.answer(#"{"cmd":"add","storage":"f","markdown":"- a\n\n- b\n"}"#)
    let list = #"{"kind":"unorderedList","identity":1,"loose":true}"#
    let runs =
      #"[{"offset":0,"length":2,"attributes":{"presentationIntent":["# + list
      + #",{"kind":"listItem","identity":2,"ordinal":1},{"kind":"paragraph","identity":3}]}},"#
      + #"{"offset":2,"length":1,"attributes":{"presentationIntent":["# + list
      + #",{"kind":"listItem","identity":4,"ordinal":2},{"kind":"paragraph","identity":5}]}}]"#
    #expect(
      session.answer(#"{"cmd":"text","storage":"f","attributes":true}"#)
        == #"{"ok":true,"text":"a\nb","version":0,"attributes":"# + runs + "}")
    _ = session.answer(#"{"cmd":"add","storage":"g","text":"a\nb","attributes":"# + runs + "}")
    #expect(
      session.answer(#"{"cmd":"text","storage":"g","format":"markdown"}"#)
        .contains(#""markdown":"- a\n\n- b\n""#))
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"h","text":"x","attributes":[{"offset":0,"length":1,"attributes":{"presentationIntent":[{"kind":"paragraph","identity":1,"loose":true}]}}]}"#
      ).contains("badRequest"))
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"h","text":"x","attributes":[{"offset":0,"length":1,"attributes":{"presentationIntent":[{"kind":"unorderedList","identity":1,"loose":1},{"kind":"listItem","identity":2,"ordinal":1}]}}]}"#
      ).contains("badRequest"))
  }

  /// Footnotes in the protocol: a reference's key and a definition's
  /// component with its label, written and read back; a bad label refused.
  @Test func footnotesGoBothWays() {
    let session = ProtocolSession()
    _ = session.answer(#"{"cmd":"add","storage":"f","markdown":"a[^n]\n\n[^n]: b\n"}"#)
    let runs =
      #"[{"offset":0,"length":1,"attributes":{"presentationIntent":[{"kind":"paragraph","identity":1}]}},"#
      + #"{"offset":1,"length":1,"attributes":{"footnoteReference":"n","presentationIntent":[{"kind":"paragraph","identity":1}]}},"#
      + #"{"offset":2,"length":1,"attributes":{"presentationIntent":[{"kind":"paragraph","identity":1}]}},"#
      + #"{"offset":3,"length":1,"attributes":{"presentationIntent":[{"kind":"footnoteDefinition","identity":2,"label":"n"},{"kind":"paragraph","identity":3}]}}]"#
    #expect(
      session.answer(#"{"cmd":"text","storage":"f","attributes":true}"#)
        == #"{"ok":true,"text":"an\nb","version":0,"attributes":"# + runs + "}")
    _ = session.answer(#"{"cmd":"add","storage":"g","text":"an\nb","attributes":"# + runs + "}")
    #expect(
      session.answer(#"{"cmd":"text","storage":"g","format":"markdown"}"#)
        .contains(#""markdown":"a[^n]\n\n[^n]: b\n""#))
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"h","text":"x","attributes":[{"offset":0,"length":1,"attributes":{"footnoteReference":"a b"}}]}"#
      ).contains("badRequest"))
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"h","text":"x","attributes":[{"offset":0,"length":1,"attributes":{"presentationIntent":[{"kind":"footnoteDefinition","identity":1}]}}]}"#
      ).contains("badRequest"))
  }

  // MARK: Read back

  /// Markdown whose attributed text goes into a storage: the context's
  /// `markdown` must read back to that text and its runs.
  static let markdowns = [
    "Some **bold**, _emphasized_ and ***both***, `code`, ~~struck~~ and [a link](https://x.example).",
    "# Title\n\nA paragraph.\n\n## Sub\n\nAnother one.",
    "- one\n- *two*\n  - nested\n\n3. three\n4. four",
    "> quoted **text**\n>\n> - and a list",
    "```swift\nlet x = 1\n\nprint(x)\n```\n\nafter",
    "| a | *b* |\n|:--|--:|\n| 1 | 2 |\n| 3 |  |",
    "hard  \nbreak and soft\nbreak",
    "😀 **👋🏽** [é](https://é.example) `😀`",
    "Plain text with *stars* escaped: \\*, \\_, \\#, \\[x\\](y).",
    "first\n\n\n\nafter blank lines\n\n---\n\nafter a rule",
  ]

  /// The first context of a `contexts` response: its text and Markdown.
  static func firstContext(_ response: String) -> (text: String, markdown: String)? {
    guard let json = try? JSONReader.parse(Array(response.utf8)),
      case .array(let contexts)? = json["contexts"], let context = contexts.first,
      case .string(let text)? = context["text"], case .string(let markdown)? = context["markdown"]
    else { return nil }
    return (text, markdown)
  }

  @Test(arguments: markdowns)
  func aContextsMarkdownReadsBackToItsTextAndRuns(markdown: String) throws {
    let expected = AttributedText(markdown: markdown)
    let session = ProtocolSession()
    let runs = JSONWriter.write(AttributesJSON.json(expected.runs))
    let text = JSONWriter.write(.string(expected.text))
    #expect(
      session.answer(#"{"cmd":"add","storage":"m","text":\#(text),"attributes":\#(runs)}"#)
        .hasPrefix(#"{"ok":true"#))
    let context = try #require(
      Self.firstContext(
        session.answer(#"{"cmd":"contexts","scope":"fullDocument","format":"markdown"}"#)))
    #expect(context.text == expected.text)
    #expect(AttributedText(markdown: context.markdown) == expected, "\(context.markdown)")
  }

  /// Texts without attributes that look like Markdown: written, they are
  /// escaped, and read back they are the same text.
  static let plainTexts = [
    "Just *text* with_underscores_ and #hash", "1. not a list", "- not a list", "# not a header",
    "<b>not html</b>", "a  b\tc", "    indented", "😀 [x](y) `z`", "line\u{2028}break", "a\\b",
    "> not a quote", "---", "a\n\nb", "  two leading", "trailing  ", "[^1] footnote",
    "http://example.com", "a | b", "~~not struck~~", "&amp; entity", "``` fence", "1) paren",
    "***", "\ttab", "text\n\n\n", "a_b_c", "![img](u)", "<http://x>", "e\u{301}", "a\n=", "a\n-",
    "\n",
  ]

  @Test(arguments: plainTexts)
  func aPlainContextsMarkdownReadsBackToItsText(text: String) throws {
    let session = ProtocolSession()
    #expect(
      session.answer(#"{"cmd":"add","storage":"p","text":\#(JSONWriter.write(.string(text)))}"#)
        .hasPrefix(#"{"ok":true"#))
    let context = try #require(
      Self.firstContext(
        session.answer(#"{"cmd":"contexts","scope":"fullDocument","format":"markdown"}"#)))
    #expect(context.text == text)
    #expect(AttributedText(markdown: context.markdown).text == text, "\(context.markdown)")
  }

  /// A context that ends with its paragraph's line break (what every
  /// context of a storage's paragraphs does): its Markdown leaves the line
  /// break out (Markdown's blocks have none), and replacing the whole
  /// context with that Markdown keeps it, so the storage is as it was.
  @Test(arguments: [
    #"{"cmd":"add","storage":"p","text":"Hello\n"}"#,
    #"{"cmd":"add","storage":"p","text":"One.\nTwo.\n"}"#,
    #"{"cmd":"add","storage":"p","text":"Hello\n","attributes":[{"offset":0,"length":5,"attributes":{"presentationIntent":[{"kind":"paragraph","identity":1}]}}]}"#,
  ])
  func aContextsMarkdownLeavesOutItsLastLineBreakAndAReplacementKeepsIt(add: String) throws {
    let session = ProtocolSession()
    #expect(session.answer(add).hasPrefix(#"{"ok":true"#))
    let before = String(try session.engine.document.content.storage("p").text)
    let contexts = session.answer(
      #"{"cmd":"contexts","scope":"fullDocument","format":"markdown"}"#)
    let context = try #require(Self.firstContext(contexts))
    #expect(AttributedText(markdown: context.markdown).text == String(context.text.dropLast()))
    let markdown = JSONWriter.write(.string(context.markdown))
    let length = context.text.utf16.count
    #expect(
      session.answer(
        #"{"cmd":"replace","context":"$1","offset":0,"length":\#(length),"markdown":\#(markdown)}"#
      ).hasPrefix(#"{"ok":true"#))
    #expect(String(try session.engine.document.content.storage("p").text) == before)
  }

  // MARK: Hostile requests

  static func replaced(_ fields: String) -> String {
    #"{"cmd":"replace","context":"$1",\#(fields)}"#
  }

  /// Requests that must be refused with a code, changing nothing.
  static let hostile: [(request: String, code: String)] = [
    // Both texts, or Markdown with runs.
    (replaced(#""offset":0,"length":1,"text":"x","markdown":"x""#), "badRequest"),
    (replaced(#""offset":0,"length":1,"markdown":"x","text":"""#), "badRequest"),
    (replaced(#""offset":0,"length":1,"markdown":"x","attributes":[]"#), "badRequest"),
    (
      replaced(
        #""offset":0,"length":1,"markdown":"x","attributes":[{"offset":0,"length":1,"attributes":{"link":"u"}}]"#
      ), "badRequest"
    ),
    // Markdown of the wrong type, or none at all.
    (replaced(#""offset":0,"length":1,"markdown":5"#), "badRequest"),
    (replaced(#""offset":0,"length":1,"markdown":["x"]"#), "badRequest"),
    (replaced(#""offset":0,"length":1,"markdown":{"text":"x"}"#), "badRequest"),
    (replaced(#""offset":0,"length":1,"markdown":true"#), "badRequest"),
    (replaced(#""offset":0,"length":1,"markdown":null"#), "badRequest"),
    (replaced(#""offset":0,"length":1"#), "badRequest"),
    // Formats: only markdown, as a string.
    (#"{"cmd":"contexts","scope":"fullDocument","format":"html"}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"fullDocument","format":"Markdown"}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"fullDocument","format":""}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"fullDocument","format":1}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"fullDocument","format":["markdown"]}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"fullDocument","format":{"markdown":true}}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"everything","format":"markdown"}"#, "badRequest"),
    // Bases the context has not been at, and an edit the tool had not seen.
    (replaced(#""offset":0,"length":1,"markdown":"x","basis":7"#), "staleVersion"),
    (replaced(#""offset":0,"length":1,"markdown":"x","basis":-1"#), "staleVersion"),
    (replaced(#""offset":3,"length":2,"markdown":"**x**","basis":0"#), "conflict"),
    // Ranges outside the context, inside a surrogate pair, excluded.
    (replaced(#""offset":0,"length":99,"markdown":"x""#), "outOfRange"),
    (replaced(#""offset":99,"length":0,"markdown":"x""#), "outOfRange"),
    (replaced(#""offset":0,"length":-1,"markdown":"x""#), "outOfRange"),
    (replaced(#""offset":9223372036854775807,"length":1,"markdown":"x""#), "outOfRange"),
    (replaced(#""offset":2,"length":0,"markdown":"x""#), "splitsSurrogatePair"),
    (replaced(#""offset":1,"length":1,"markdown":"x""#), "splitsSurrogatePair"),
    (replaced(#""offset":7,"length":2,"markdown":"x""#), "excluded"),
    // Other fields as with text.
    (replaced(#""offset":0,"length":1,"markdown":"x","unit":"scalar""#), "badRequest"),
    (replaced(#""offset":0,"length":1,"markdown":"x","policy":"maybe""#), "badRequest"),
    (
      #"{"cmd":"replace","context":"00000000-0000-0000-0000-000000000000","offset":0,"length":1,"markdown":"x"}"#,
      "unknownContext"
    ),
    (#"{"cmd":"replace","context":"nope","offset":0,"length":1,"markdown":"x"}"#, "unknownContext"),
  ]

  @Test func hostileRequestsAreRefusedWithTheirCodeAndChangeNothing() {
    let session = ProtocolSession()
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"s","text":"a😀b\nsecond line\n","attributes":[{"offset":0,"length":1,"attributes":{"link":"keep"}}]}"#
      ) == #"{"ok":true,"storage":"s","length":17,"version":0}"#)
    #expect(
      session.answer(#"{"cmd":"exclude","storage":"s","offset":5,"length":6}"#) == #"{"ok":true}"#)
    #expect(
      session.answer(#"{"cmd":"contexts","scope":"fullDocument","resultOptions":["richText"]}"#)
        .hasPrefix(#"{"ok":true,"contexts":[{"id":"$1""#))
    // The person types in the context: its version 1.
    #expect(
      session.answer(#"{"cmd":"edit","storage":"s","offset":4,"length":0,"text":"!"}"#)
        .hasPrefix(#"{"ok":true,"version":1"#))
    session.expectRefused(Self.hostile)
    // The same session still takes good requests.
    #expect(
      session.answer(Self.replaced(#""offset":0,"length":1,"markdown":"**ok**""#))
        == #"{"ok":true,"storage":"s","storageRange":{"offset":0,"length":2},"contextVersion":2,"reason":"noninteractive","events":[],"text":"ok"}"#
    )
    #expect(
      session.answer(
        #"{"cmd":"text","storage":"s","range":{"offset":0,"length":2},"attributes":true}"#)
        == #"{"ok":true,"text":"ok","version":2,"attributes":[{"offset":0,"length":2,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}}]}"#
    )
  }

  @Test func withoutASessionMarkdownIsRefusedToo() {
    let session = ProtocolSession()
    _ = session.answer(#"{"cmd":"add","storage":"s","text":"abc\n"}"#)
    _ = session.answer(#"{"cmd":"contexts","scope":"fullDocument"}"#)
    #expect(session.answer(#"{"cmd":"end"}"#) == #"{"ok":true}"#)
    let before = session.state
    let response = session.answer(Self.replaced(#""offset":0,"length":1,"markdown":"*x*""#))
    #expect(response.hasPrefix(#"{"ok":false,"error":{"code":"noSession""#), "\(response)")
    #expect(session.state == before)
  }

  @Test(arguments: [
    (
      replaced(#""offset":0,"length":0,"text":"x","markdown":"x""#),
      "give 'text' or 'markdown', not both"
    ),
    (
      replaced(#""offset":0,"length":0,"markdown":"x","attributes":[]"#),
      "'attributes' goes with 'text': 'markdown' carries its own"
    ),
    (replaced(#""offset":0,"length":0,"markdown":1"#), "'markdown' must be a string"),
    (
      #"{"cmd":"contexts","scope":"fullDocument","format":"html"}"#,
      "unknown format 'html' (markdown)"
    ),
    (#"{"cmd":"contexts","scope":"fullDocument","format":7}"#, "'format' must be a string"),
  ])
  func refusalsSayWhatIsWrong(request: String, message: String) {
    let session = ProtocolSession()
    _ = session.answer(#"{"cmd":"add","storage":"s","text":"abc"}"#)
    _ = session.answer(#"{"cmd":"contexts","scope":"fullDocument"}"#)
    let response = session.answer(request)
    #expect(response.contains(#""code":"badRequest","message":"\#(message)"#), "\(response)")
  }

  // MARK: Human mode

  @Test func humanModeShowsTheMarkdownAndReadsATypedOne() {
    let human = HumanMode(engine: REPLEngine())
    _ = human.run(#"add note Hello *you*\n"#)
    #expect(
      human.run("contexts full markdown").output == """
        [1] note 0..<12, version 0
            ⟦Hello *you*⏎⟧
            as Markdown:
              Hello \\*you\\*
        (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
        """)
    // \n is a line break, and Markdown's own backslash escapes stay.
    #expect(
      human.run(#"replace-md 1 0 11 # Hi\n\n**you** \*too\*"#).output
        == #"replaced: note 0..<12, context version 1; the Markdown's text: "Hi⏎you *too*""#)
    #expect(human.run("show note").output == "Hi\nyou *too*\n\n(version 1)")
  }

  static let input = """
    bold body 3 4
    link body 8 6 https://www.visitlisboa.com
    select body 45 3
    contexts markdown
    replace-md 1 45 3 **the**
    show body 0 64
    contexts selection richText markdown
    replace-md 1 45 3 basis=0 *the*
    replace-md 1 0 2 basis=0 merge `We`
    show body 0 64
    undo
    show body 0 64
    caret title 0
    contexts presentationIntent list
    replace-md 1 0 17 ## Notes\\n\\n1. *Lisbon*\\n2. Athens
    show title
    undo
    show title
    redo
    select title 0 19
    contexts markdown
    replace-md 1 0 99 x
    replace-md 1 0
    replace-md 9 0 0 x
    contexts markdown html
    quit

    """

  static let expected = """
    scope-repl — Writing Tools contexts on a multi-storage document. Type 'help'.
    The sample document (a title, a body in several scripts, excluded code):
      title: 17 units, version 0  A travel journal⏎
      body: 291 units, version 0  We left Lisbon at dawn; the sea was calm…
      code: 55 units, version 0  let route = ["Lisbon", "Athens", "Tokyo"…  (excluded: 0..<55)
    set the attributes of body 3..<7; body stays at version 0
    set the attributes of body 8..<14; body stays at version 0
    ok
    [1] body 0..<64, version 0
        We **left** [Lisbon](https://www.visitlisboa.com) at dawn; the sea was calm and ⟦teh⟧ sky was clear.⏎
        as Markdown:
          We **left** [Lisbon](<https://www.visitlisboa.com>) at dawn; the sea was calm and teh sky was clear.
    (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
    (**strong**, _emphasized_, `code`, ~~struck~~, [link](url), # header, - item, > quote, {key=value}…{/key} other attributes)
    replaced: body 45..<48, context version 1; the Markdown's text: "the"
    We **left** [Lisbon](https://www.visitlisboa.com) at dawn; the sea was calm and the sky was clear.

    (version 1)
    [1] body 0..<64, version 1
        We **left** [Lisbon](https://www.visitlisboa.com) at dawn; the sea was calm and ⟦the⟧ sky was clear.⏎
        as Markdown:
          We **left** [Lisbon](<https://www.visitlisboa.com>) at dawn; the sea was calm and the sky was clear.
    (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
    (**strong**, _emphasized_, `code`, ~~struck~~, [link](url), # header, - item, > quote, {key=value}…{/key} other attributes)
    replaced: body 45..<48, context version 1; the Markdown's text: "the"
    replaced: body 0..<2, context version 2; the Markdown's text: "We"
    `We` **left** [Lisbon](https://www.visitlisboa.com) at dawn; the sea was calm and _the_ sky was clear.

    (version 3)
    undo done; the selection is body 45..<48
      event: context [1] text 0..<2 is now "We" (context version 3, undoRedo)
    We **left** [Lisbon](https://www.visitlisboa.com) at dawn; the sea was calm and _the_ sky was clear.

    (version 4)
    ok
    [1] title 0..<17, version 0
        ‸A travel journal⏎
    (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
    replaced: title 0..<19, context version 1; the Markdown's text: "Notes⏎Lisbon⏎Athens"
    ## Notes
    1. _Lisbon_
    2. Athens

    (version 1)
    undo done; the caret is at title 0
      event: context [1] text 0..<19 is now "A travel journal" (context version 2, undoRedo)
    A travel journal

    (version 2)
    redo done; the caret is at title 0
      event: context [1] text 0..<16 is now "Notes⏎Lisbon⏎Athens" (context version 3, undoRedo)
    ok
    [1] title 0..<20, version 3
        ⟦## Notes⏎
        1. _Lisbon_⏎
        2. Athens⟧⏎
        as Markdown:
          ## Notes

          1. _Lisbon_
          2. Athens
    (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
    (**strong**, _emphasized_, `code`, ~~struck~~, [link](url), # header, - item, > quote, {key=value}…{/key} other attributes)
    error (outOfRange): the range 0..<99 is not within the context's text of 20 UTF-16 units
    error (badRequest): usage: replace-md CONTEXT OFFSET LENGTH [basis=V] [merge] [MARKDOWN]
    error (unknownContext): no context 9; 'contexts' lists them (1 now)
    error (badRequest): unknown option 'html': a result option (plainText, richText, list, table, presentationIntent) or a format (markdown)
    bye

    """

  @Test func throughAPipeContextsShowTheirMarkdownAndReplaceMdTakesOne() throws {
    try REPL.expectTranscript(input: Self.input, expected: Self.expected)
  }
}
