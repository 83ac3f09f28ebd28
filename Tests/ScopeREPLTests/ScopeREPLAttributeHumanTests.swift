import DocumentEngine
import Foundation
import ScopeREPLCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Human mode's attribute commands, and attributes shown with and without a
/// terminal.
@Suite struct ScopeREPLAttributeHumanTests {
  // MARK: Words

  @Test(arguments: [
    ("bold body 0", "usage: bold NAME OFFSET LENGTH"),
    ("bold body 0 1 x", "usage: bold NAME OFFSET LENGTH"),
    ("italic body x 1", "OFFSET must be a number, not 'x'"),
    ("link body 0 1", "usage: link NAME OFFSET LENGTH URL"),
    ("link body 0 1 u v", "usage: link NAME OFFSET LENGTH URL"),
    ("header body 0 1", "usage: header NAME OFFSET LENGTH LEVEL"),
    ("header body 0 1 x", "LEVEL must be a number, not 'x'"),
    ("plain body", "usage: plain NAME OFFSET LENGTH"),
    ("attr body 0 1", "usage: attr NAME OFFSET LENGTH KEY=VALUE …"),
    ("attr body 0 1 font", "an attribute is KEY=VALUE, not 'font'"),
    ("attr body 0 1 =x", "an attribute is KEY=VALUE, not '=x'"),
    ("attr body 0 1 inlinePresentationIntent=bold", "unknown inline presentation intent 'bold'"),
    ("attr body 0 1 inlinePresentationIntent=code,,x", "unknown inline presentation intent 'x'"),
    ("attr body 0 1 link=5", "'link' must be a string"),
    ("attr body 0 1 presentationIntent=header", "'presentationIntent' must be an array"),
    (
      #"attr body 0 1 presentationIntent=[{"kind":"aside","identity":1}]"#,
      "unknown presentation intent kind 'aside'"
    ),
    ("attr body 0 1 size=1.5", "'size' must be a string, an integer"),
    ("attr body 0 1 tags=[1]", "'tags' must be a string, an integer"),
    (
      "contexts full fancy",
      "'fancy' is neither a number (N) nor an option: a result option (plainText, "
    ),
    (
      "contexts full 2 richText x",
      "unknown option 'x': a result option (plainText, richText, list, table, presentationIntent) "
        + "or a format (markdown)"
    ),
  ])
  func wordsThatSetNoAttributesAreRefused(words: String, message: String) {
    let error = parseError { () throws(REPLError) in try command(words: words) }
    #expect(error?.code == "badRequest", "\(words)")
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
  }

  @Test func attrReadsJSONOrABareWord() throws {
    let header = PresentationIntent([.init(.header(level: 2), identity: 1)])
    #expect(
      try command(
        words:
          #"attr a 0 3 inlinePresentationIntent=["strikethrough","code"] link=https://x.y/?a=b&c=d n=-3 on=false s="12" bare=12a presentationIntent=[{"kind":"header","identity":1,"level":2}] gone= none=null"#
      )
        == .setAttributes(
          StorageSpan("a", 0..<3),
          [
            .inlinePresentationIntent: .inlinePresentationIntent([.code, .strikethrough]),
            .link: .link("https://x.y/?a=b&c=d"), "n": .integer(-3), "on": .boolean(false),
            "s": .string("12"), "bare": .string("12a"),
            .presentationIntent: .presentationIntent(header), "gone": .none, "none": .none,
          ], unit: .utf16))
  }

  // MARK: Replies

  static let runs = [
    AttributeRun(
      0..<2, [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)]),
    AttributeRun(
      2..<5,
      [
        .inlinePresentationIntent: .inlinePresentationIntent([.stronglyEmphasized, .emphasized]),
        .link: .link("u"),
      ]),
    AttributeRun(6..<8, ["font": .string("Menlo"), "size": .integer(9)]),
  ]

  @Test func aTextWithRunsIsWrittenForProgramsAndForPeople() {
    let reply = Reply.text("ab\ncd\nef", version: 4, attributes: Self.runs)
    #expect(
      JSONWriter.write(reply.json)
        == #"{"ok":true,"text":"ab\ncd\nef","version":4,"attributes":[{"offset":0,"length":2,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}},{"offset":2,"length":3,"attributes":{"inlinePresentationIntent":["emphasized","stronglyEmphasized"],"link":"u"}},{"offset":6,"length":2,"attributes":{"font":"Menlo","size":9}}]}"#
    )
    #expect(
      reply.text(numbering: [])
        == "**ab**[_**\ncd**_](u)\n{font=\"Menlo\"}{size=9}ef{/size}{/font}\n(version 4)")
    // On a terminal: styles, reset before each line break and set again
    // after it.
    #expect(
      reply.text(numbering: [], styled: true)
        == "\u{1B}[1mab\u{1B}[22m\u{1B}[4m\u{1B}[3m\u{1B}[1m\u{1B}[0m\n\u{1B}[4m\u{1B}[3m\u{1B}[1m"
        + "cd\u{1B}[22m\u{1B}[23m\u{1B}[24m⟨u⟩\n{font=\"Menlo\"}{size=9}ef{/size}{/font}\n(version 4)"
    )
    // Without runs, as before.
    #expect(Reply.text("ab\n", version: 1).text(numbering: []) == "ab\n\n(version 1)")
    #expect(
      JSONWriter.write(Reply.text("ab\n", version: 1, attributes: []).json)
        == #"{"ok":true,"text":"ab\n","version":1,"attributes":[]}"#)
  }

  @Test func attributesSetIsWrittenForProgramsAndForPeople() {
    let reply = Reply.attributesSet("body", range: 3..<7, version: 2)
    #expect(JSONWriter.write(reply.json) == #"{"ok":true,"version":2}"#)
    #expect(
      reply.text(numbering: []) == "set the attributes of body 3..<7; body stays at version 2")
  }

  // MARK: A session, with and without a terminal

  static let lines = [
    #"add note Title\nSome bold, italic and linked text.\n> quoted\n"#,
    "header note 0 6 1",
    "bold note 11 4",
    "italic note 17 6",
    "link note 28 6 https://example.com",
    "attr note 35 4 inlinePresentationIntent=code",
    #"attr note 41 9 presentationIntent=[{"kind":"blockQuote","identity":1},{"kind":"paragraph","identity":2}] font=Menlo"#,
    "show note",
    "select note 11 12",
    "contexts richText",
  ]

  func run(styled: Bool) -> [String] {
    let human = HumanMode(engine: REPLEngine(), styled: styled)
    return Self.lines.map { human.run($0).output }
  }

  @Test func withoutATerminalAttributesAreMarkedWithText() {
    let outputs = run(styled: false)
    #expect(outputs[0] == "added note: 50 units, version 0")
    #expect(outputs[1] == "set the attributes of note 0..<6; note stays at version 0")
    #expect(
      outputs[7] == """
        # Title
        Some **bold**, _italic_ and [linked](https://example.com) `text`.
        > {font="Menlo"}> quoted{/font}

        (version 0)
        """)
    #expect(
      outputs[9] == """
        [1] note 6..<41, version 0
            Some ⟦**bold**, _italic_⟧ and [linked](https://example.com) `text`.⏎
        (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
        (**strong**, _emphasized_, `code`, ~~struck~~, [link](url), # header, - item, > quote, {key=value}…{/key} other attributes)
        """)
  }

  @Test func onATerminalAttributesAreStyled() {
    let outputs = run(styled: true)
    #expect(outputs[0] == "added note: 50 units, version 0")
    #expect(
      outputs[7] == """
        # Title
        Some \u{1B}[1mbold\u{1B}[22m, \u{1B}[3mitalic\u{1B}[23m and \u{1B}[4mlinked\u{1B}[24m⟨https://example.com⟩ \u{1B}[36mtext\u{1B}[39m.
        > {font="Menlo"}> quoted{/font}

        (version 0)
        """)
    #expect(
      outputs[9] == """
        [1] note 6..<41, version 0
            Some ⟦\u{1B}[1mbold\u{1B}[22m, \u{1B}[3mitalic\u{1B}[23m⟧ and \u{1B}[4mlinked\u{1B}[24m⟨https://example.com⟩ \u{1B}[36mtext\u{1B}[39m.⏎
        (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
        (\u{1B}[1mstrong\u{1B}[22m, \u{1B}[3memphasized\u{1B}[23m, \u{1B}[36mcode\u{1B}[39m, \u{1B}[9mstruck\u{1B}[29m, \u{1B}[4mlink\u{1B}[24m⟨url⟩, # header, - item, > quote, {key=value}…{/key} other attributes)
        """)
    // The same session without attributes shows no escapes.
    let human = HumanMode(engine: REPLEngine(), styled: true)
    _ = human.run("add plain Just text.\\n")
    #expect(human.run("show plain").output == "Just text.\n\n(version 0)")
    #expect(!human.run("contexts full").output.contains("\u{1B}"))
  }

  // MARK: Through the program

  static let input = """
    bold body 3 4
    italic body 8 6
    link body 8 6 https://www.visitlisboa.com
    attr body 24 3 inlinePresentationIntent=code,strikethrough font=Menlo size=12
    header title 0 17 1
    show title
    show body 0 30
    select body 45 3
    contexts selection richText
    plain body 0 64
    show body 0 30
    bold body 0
    attr body 0 1 font
    header body 0 5 9
    bold body 129 1
    bold body 290 2
    contexts full fancy
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
    set the attributes of body 8..<14; body stays at version 0
    set the attributes of body 24..<27; body stays at version 0
    set the attributes of title 0..<17; title stays at version 0
    # A travel journal

    (version 0)
    We **left** [_Lisbon_](https://www.visitlisboa.com) at dawn; `~~{font="Menlo"}{size=12}the{/size}{/font}~~` se
    (version 0)
    ok
    [1] body 0..<64, version 0
        We **left** [_Lisbon_](https://www.visitlisboa.com) at dawn; `~~{font="Menlo"}{size=12}the{/size}{/font}~~` sea was calm and ⟦teh⟧ sky was clear.⏎
    (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
    (**strong**, _emphasized_, `code`, ~~struck~~, [link](url), # header, - item, > quote, {key=value}…{/key} other attributes)
    set the attributes of body 0..<64; body stays at version 0
    We left Lisbon at dawn; {font="Menlo"}{size=12}the{/size}{/font} se
    (version 0)
    error (badRequest): usage: bold NAME OFFSET LENGTH
    error (badRequest): an attribute is KEY=VALUE, not 'font'
    error (badRequest): the attribute 'presentationIntent' is not valid: a header's level is 1 to 6, not 9
    error (splitsSurrogatePair): in storage 'body': UTF-16 offset 129 falls inside a surrogate pair
    error (outOfRange): in storage 'body': offset 292 is out of bounds 0...291 (utf16)
    error (badRequest): 'fancy' is neither a number (N) nor an option: a result option (plainText, richText, list, table, presentationIntent) or a format (markdown)
    bye

    """

  @Test func throughAPipeAttributesAreMarkedWithText() throws {
    let lines = try REPL.expectTranscript(input: Self.input, expected: Self.expected)
    #expect(!lines.joined().contains("\u{1B}"))
  }

  @Test func onATerminalTheProgramStylesAttributes() throws {
    let screen = try Self.runWithOutputOnATerminal("bold title 2 6\nshow title\n")
    #expect(screen.contains("A \u{1B}[1mtravel\u{1B}[22m journal\r\n\r\n(version 0)\r\n"))
  }

  /// What the REPL writes with its stdout on a pseudo-terminal (its stdin
  /// a pipe with `input`), line breaks as the terminal makes them (CR LF).
  static func runWithOutputOnATerminal(_ input: String) throws -> String {
    let terminal = try PseudoTerminal()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: REPL.path)
    let stdin = Pipe()
    process.standardInput = stdin
    process.standardOutput = FileHandle(
      fileDescriptor: terminal.programSide, closeOnDealloc: false)
    process.standardError = FileHandle.nullDevice
    try process.run()
    terminal.closeProgramSide()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    // Until the program's side closes.
    terminal.readToEnd()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: terminal.output, as: UTF8.self)
  }
}
