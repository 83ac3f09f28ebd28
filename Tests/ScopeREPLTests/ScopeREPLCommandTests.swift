import DocumentEngine
import Foundation
import ScopeREPLCore
import SummaryTrees
import Testing
import TextRope

/// A context id for commands that name one: `1` in human words.
let contextID = UUID(uuidString: "9F1C0000-0000-4000-8000-000000000001") ?? UUID()

/// The command a JSON request parses to.
func command(json: String) throws(REPLError) -> Command {
  try Command(jsonLine: Array(json.utf8))
}

/// The command human words parse to, with one context in the session.
func command(words: String) throws(REPLError) -> Command {
  try Command(words: words, contexts: [contextID])
}

/// An undo's or a redo's result with no edit and no event, and
/// `selection`.
func undoResult(selection: [SelectionRange]) -> UndoResult {
  var result = UndoResult(replacementCount: 0, events: [])
  result.selection = selection
  return result
}

/// The error that parsing `line` throws, if any.
func parseError(_ parse: () throws(REPLError) -> Command) -> REPLError? {
  do {
    _ = try parse()
    return nil
  } catch {
    return error
  }
}

/// The typed layer: requests parse to commands, and replies are written as
/// protocol lines and as text for people.
@Suite struct ScopeREPLCommandTests {
  /// The same request as a line of JSON and as human words, and the command
  /// both are.
  static let requests: [(json: String, words: String, command: Command)] = [
    (
      #"{"cmd":"add","storage":"note","text":"Hi\nthere"}"#, #"add note Hi\nthere"#,
      .add("note", .text("Hi\nthere"), after: nil, unit: .utf16)
    ),
    (
      #"{"cmd":"add","storage":"n.txt","path":"/tmp/n.txt"}"#, "load /tmp/n.txt",
      .add("n.txt", .file(path: "/tmp/n.txt"), after: nil, unit: .utf16)
    ),
    (#"{"cmd":"remove","storage":"note"}"#, "remove note", .remove("note")),
    (#"{"cmd":"storages"}"#, "ls", .storages(unit: .utf16)),
    (
      #"{"cmd":"text","storage":"body","range":{"offset":0,"length":20}}"#, "show body 0 20",
      .text("body", range: 0..<20, unit: .utf16)
    ),
    (
      #"{"cmd":"edit","storage":"body","offset":0,"length":2,"text":"Yo "}"#, "edit body 0 2 Yo ",
      .edit(DocumentEdit("body", range: 0..<2, with: "Yo "))
    ),
    (
      #"{"cmd":"edit","storage":"body","offset":3,"length":0,"text":"Hi","origin":"alice","basis":2}"#,
      "peer alice 2 body 3 0 Hi",
      .edit(DocumentEdit("body", range: 3..<3, with: "Hi", origin: "alice", basis: 2))
    ),
    (
      #"{"cmd":"select","ranges":[{"storage":"body","offset":45,"length":3},{"storage":"title","offset":0,"length":1}]}"#,
      "select body 45 3, title 0 1",
      .select(.ranges([StorageSpan("body", 45..<48), StorageSpan("title", 0..<1)]), unit: .utf16)
    ),
    (
      #"{"cmd":"select","from":{"storage":"title","offset":2},"to":{"storage":"body","offset":6}}"#,
      "select title 2 to body 6",
      .select(.span(from: TextPosition("title", 2), to: TextPosition("body", 6)), unit: .utf16)
    ),
    (
      #"{"cmd":"select","ranges":[{"storage":"body","offset":10,"length":0}]}"#, "caret body 10",
      .select(.ranges([StorageSpan("body", 10..<10)]), unit: .utf16)
    ),
    (
      #"{"cmd":"visible","ranges":[{"storage":"body","offset":70,"length":10}]}"#,
      "visible body 70 10", .visible([StorageSpan("body", 70..<80)], unit: .utf16)
    ),
    (
      #"{"cmd":"exclude","storage":"body","offset":0,"length":4}"#, "exclude body 0 4",
      .exclude(StorageSpan("body", 0..<4), unit: .utf16)
    ),
    (
      #"{"cmd":"contexts","scope":"userSelection","surroundingParagraphs":2}"#,
      "contexts selection 2",
      .contexts(.userSelection, surroundingParagraphs: 2)
    ),
    (
      #"{"cmd":"contexts","scope":"fullDocument"}"#, "contexts full",
      .contexts(.fullDocument, surroundingParagraphs: 0)
    ),
    (
      #"{"cmd":"contexts","scope":"fullDocument","resultOptions":["richText","list"]}"#,
      "contexts full richText list",
      .contexts(.fullDocument, surroundingParagraphs: 0, resultOptions: [.richText, .list])
    ),
    (
      #"{"cmd":"contexts","scope":"userSelection","resultOptions":["presentationIntent"]}"#,
      "contexts presentationIntent",
      .contexts(.userSelection, surroundingParagraphs: 0, resultOptions: .presentationIntent)
    ),
    (
      #"{"cmd":"contexts","scope":"userSelection","surroundingParagraphs":1,"resultOptions":["plainText"]}"#,
      "contexts sel 1 plainText", .contexts(.userSelection, surroundingParagraphs: 1)
    ),
    (
      #"{"cmd":"contexts","scope":"fullDocument","resultOptions":["richText"],"format":"markdown"}"#,
      "contexts full markdown richText",
      .contexts(
        .fullDocument, surroundingParagraphs: 0, resultOptions: .richText, format: .markdown)
    ),
    (
      #"{"cmd":"contexts","scope":"userSelection","format":"markdown"}"#, "contexts markdown",
      .contexts(.userSelection, surroundingParagraphs: 0, format: .markdown)
    ),
    (
      #"{"cmd":"setAttributes","storage":"body","offset":3,"length":4,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}}"#,
      "bold body 3 4",
      .setAttributes(
        StorageSpan("body", 3..<7),
        [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)], unit: .utf16)
    ),
    (
      #"{"cmd":"setAttributes","storage":"body","offset":8,"length":6,"attributes":{"inlinePresentationIntent":["emphasized"]}}"#,
      "italic body 8 6",
      .setAttributes(
        StorageSpan("body", 8..<14),
        [.inlinePresentationIntent: .inlinePresentationIntent(.emphasized)], unit: .utf16)
    ),
    (
      #"{"cmd":"setAttributes","storage":"body","offset":8,"length":6,"attributes":{"link":"https://www.visitlisboa.com"}}"#,
      "link body 8 6 https://www.visitlisboa.com",
      .setAttributes(
        StorageSpan("body", 8..<14), [.link: .link("https://www.visitlisboa.com")], unit: .utf16)
    ),
    (
      #"{"cmd":"setAttributes","storage":"title","offset":2,"length":15,"attributes":{"presentationIntent":[{"kind":"header","identity":2,"level":1}]}}"#,
      "header title 2 15 1",
      .setAttributes(
        StorageSpan("title", 2..<17),
        [
          .presentationIntent: .presentationIntent(
            PresentationIntent([.init(.header(level: 1), identity: 2)]))
        ], unit: .utf16)
    ),
    (
      #"{"cmd":"setAttributes","storage":"body","offset":0,"length":64,"attributes":{"inlinePresentationIntent":null,"link":null,"presentationIntent":null}}"#,
      "plain body 0 64",
      .setAttributes(
        StorageSpan("body", 0..<64),
        [.inlinePresentationIntent: .none, .link: .none, .presentationIntent: .none], unit: .utf16)
    ),
    (
      #"{"cmd":"setAttributes","storage":"body","offset":0,"length":7,"attributes":{"inlinePresentationIntent":["strikethrough","code"],"font":"Menlo","size":12,"old":null}}"#,
      "attr body 0 7 inlinePresentationIntent=strikethrough,code font=Menlo size=12 old=",
      .setAttributes(
        StorageSpan("body", 0..<7),
        [
          .inlinePresentationIntent: .inlinePresentationIntent([.code, .strikethrough]),
          "font": .string("Menlo"), "size": .integer(12), "old": .none,
        ], unit: .utf16)
    ),
    (
      #"{"cmd":"replace","context":"\#(contextID)","offset":45,"length":3,"text":"the","basis":0,"policy":"merge"}"#,
      "replace 1 45 3 basis=0 merge the",
      .replace(context: contextID, range: 45..<48, with: .text("the"), basis: 0, policy: .merge)
    ),
    (
      #"{"cmd":"replace","context":"\#(contextID)","offset":45,"length":3,"markdown":"**the**\nsea","basis":0}"#,
      #"replace-md 1 45 3 basis=0 **the**\nsea"#,
      .replace(
        context: contextID, range: 45..<48, with: .markdown("**the**\nsea"), basis: 0,
        policy: .refuse)
    ),
    (
      #"{"cmd":"replace","context":"\#(contextID)","offset":0,"length":0,"text":"","policy":"merge"}"#,
      "replace 9f1c 0 0 merge",
      .replace(context: contextID, range: 0..<0, with: .text(""), basis: nil, policy: .merge)
    ),
    (
      #"{"cmd":"toolSelect","context":"\#(contextID)","ranges":[{"offset":0,"length":5}]}"#,
      "toolselect 1 0 5", .toolSelect(context: contextID, ranges: [0..<5])
    ),
    (
      #"{"cmd":"state","state":"interactiveResting"}"#, "state interactiveResting",
      .state(.interactiveResting)
    ),
    (#"{"cmd":"undo"}"#, "undo", .undo()),
    (#"{"cmd":"redo"}"#, "redo", .redo()),
    (#"{"cmd":"undo","origin":"alice"}"#, "undo alice", .undo(origin: "alice")),
    (#"{"cmd":"redo","origin":"alice"}"#, "redo alice", .redo(origin: "alice")),
    (#"{"cmd":"closeGroup"}"#, "closeGroup", .closeGroup()),
    (#"{"cmd":"closeGroup","origin":"bob"}"#, "closegroup bob", .closeGroup(origin: "bob")),
    (#"{"cmd":"revert"}"#, "revert", .revert),
    (#"{"cmd":"end"}"#, "end", .end),
    (
      #"{"cmd":"map","storage":"body","offset":5,"from":0,"assoc":-1}"#, "map body 5 0 -1",
      .map("body", offset: 5, from: 0, bias: .left)
    ),
    (
      #"{"cmd":"map","storage":"body","offset":5,"from":3}"#, "map body 5 3",
      .map("body", offset: 5, from: 3, bias: .right)
    ),
    (#"{"cmd":"locate","offset":30}"#, "locate 30", .locate(offset: 30)),
    (
      #"{"cmd":"paragraph","storage":"body","offset":70}"#, "paragraph body 70",
      .paragraph("body", offset: 70, unit: .utf16)
    ),
    (
      #"{"cmd":"graphemes","storage":"body","range":{"offset":180,"length":20}}"#,
      "graphemes body 180 20", .graphemes("body", range: 180..<200, unit: .utf16)
    ),
    (
      #"{"cmd":"graphemes","storage":"body"}"#, "graphemes body",
      .graphemes("body", range: nil, unit: .utf16)
    ),
    (
      #"{"cmd":"replay","path":"t.json.gz","storage":"t"}"#, "replay t.json.gz t",
      .replay(path: "t.json.gz", storage: "t")
    ),
    (#"{"cmd":"quit"}"#, "exit", .quit),
    (#"{"cmd":"storages"}"#, #"json {"cmd":"storages"}"#, .storages(unit: .utf16)),
    (
      #"{"cmd":"track","storage":"body","ranges":[{"offset":45,"length":3}],"kind":"spelling","onTouch":"remove"}"#,
      "track body 45 3 kind=spelling onTouch=remove",
      .track(
        "body", ranges: [45..<48], unit: .utf16, kind: "spelling",
        rules: TrackingRules(onTouch: .remove))
    ),
    (
      #"{"cmd":"tracked","storage":"body","range":{"offset":40,"length":10}}"#,
      "tracked body 40 10", .tracked("body", range: 40..<50, unit: .utf16, kind: nil)
    ),
    (
      #"{"cmd":"untrack","ids":[8589934593]}"#, "untrack 8589934593",
      .untrack([TrackedRangeID(rawValue: 8_589_934_593)])
    ),
    (
      #"{"cmd":"suggest","storage":"body","offset":45,"length":3,"kind":"spelling","explanation":"Possible spelling mistake","candidates":["the","tea"]}"#,
      "suggest body 45 3 spelling the | tea # Possible spelling mistake",
      .suggest(
        .storage("body"), range: 45..<48, kind: .spelling,
        explanation: "Possible spelling mistake", candidates: [.text("the"), .text("tea")])
    ),
    (
      #"{"cmd":"suggest","context":"\#(contextID)","offset":0,"length":2,"kind":"style","candidates":[{"markdown":"**We**"}]}"#,
      "suggest-md @1 0 2 style **We**",
      .suggest(
        .context(contextID), range: 0..<2, kind: .style, explanation: "",
        candidates: [.markdown("**We**")])
    ),
    (
      #"{"cmd":"suggestions","storage":"body","range":{"offset":40,"length":10}}"#,
      "suggestions body 40 10", .suggestions(.storage("body"), range: 40..<50)
    ),
    (
      #"{"cmd":"suggestions","context":"\#(contextID)"}"#, "suggestions @1",
      .suggestions(.context(contextID))
    ),
    (
      #"{"cmd":"preview","suggestion":8589934593,"candidate":1}"#, "preview 8589934593 1",
      .preview(SuggestionID(rawValue: 8_589_934_593), candidate: 1)
    ),
    (
      #"{"cmd":"accept","suggestion":8589934593}"#, "accept 8589934593",
      .accept(SuggestionID(rawValue: 8_589_934_593), candidate: nil)
    ),
    (
      #"{"cmd":"reject","suggestion":8589934593}"#, "reject 8589934593",
      .reject(SuggestionID(rawValue: 8_589_934_593))
    ),
  ]

  @Test(arguments: requests)
  func jsonAndWordsParseToTheSameCommand(json: String, words: String, expected: Command) throws {
    #expect(try command(json: json) == expected)
    #expect(try command(words: words) == expected)
  }

  @Test func everyCmdOfTheProtocolIsParsed() throws {
    let protocolFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Examples/ScopeREPL/PROTOCOL.md")
    let text = try String(contentsOf: protocolFile, encoding: .utf8)
    // The first cell of each row of the requests table: `add`, `undo` / `redo`…
    let cmds = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.flatMap { row in
      row.split(separator: "|")[0].split(separator: "`").enumerated()
        .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
    // 22 requests, the 6 rows of the attributes table, and the 19 names in
    // the 11 rows of the tracked ranges, suggestions and history table.
    #expect(cmds.count == 47)
    let parsed = Self.requests.compactMap { try? JSONReader.parse(Array($0.json.utf8))["cmd"] }
    for cmd in cmds {
      #expect(parsed.contains(.string(cmd)), "\(cmd) has no case here")
    }
  }

  @Test func aUnitGoesWithTheOffsetsItCounts() throws {
    #expect(
      try command(
        json: #"{"cmd":"edit","storage":"b","offset":1,"length":2,"text":"é","unit":"scalar"}"#)
        == .edit(DocumentEdit("b", range: 1..<3, in: .unicodeScalars, with: "é")))
    #expect(
      try command(json: #"{"cmd":"text","storage":"b","unit":"utf8","range":null}"#)
        == .text("b", range: nil, unit: .utf8))
    #expect(
      try command(json: #"{"cmd":"storages","unit":"utf16"}"#) == .storages(unit: .utf16))
    // A request may carry fields the protocol does not name.
    #expect(try command(json: #"{"cmd":"undo","id":7}"#) == .undo())
    // The selection of an undo's or a redo's response counts the request's
    // unit; `closeGroup` has no offsets and ignores it.
    #expect(
      try command(json: #"{"cmd":"undo","unit":"scalar"}"#) == .undo(unit: .unicodeScalars))
    #expect(
      try command(json: #"{"cmd":"redo","origin":"p","unit":"utf8"}"#)
        == .redo(origin: "p", unit: .utf8))
    #expect(try command(json: #"{"cmd":"closeGroup","unit":"utf8"}"#) == .closeGroup())
  }

  /// Requests that are refused before they run: the code and a part of the
  /// message that names what is wrong.
  static let refused: [(json: String, code: String, message: String)] = [
    ("[]", "badRequest", "a request must be a JSON object"),
    (#"{"cmd":"add","storage":"b","text":"x"} ,"#, "badRequest", "text after the value"),
    (#"{"storage":"b"}"#, "badRequest", "missing field 'cmd'"),
    (#"{"cmd":"fly"}"#, "badRequest", "unknown cmd 'fly'"),
    (#"{"cmd":"text","storage":7}"#, "badRequest", "'storage' must be a string"),
    (
      #"{"cmd":"edit","storage":"b","offset":"1","length":0,"text":"x"}"#, "badRequest",
      "'offset' must be an integer"
    ),
    (
      #"{"cmd":"edit","storage":"b","offset":1.5,"length":0,"text":"x"}"#, "badRequest",
      "'offset' must be an integer"
    ),
    (
      #"{"cmd":"edit","storage":"b","offset":0,"length":1e300,"text":"x"}"#, "badRequest",
      "'length' must be an integer that fits in 64 bits"
    ),
    (#"{"cmd":"edit","storage":"b","offset":0,"length":0}"#, "badRequest", "missing field 'text'"),
    (
      #"{"cmd":"text","storage":"b","range":{"offset":0,"length":true}}"#, "badRequest",
      "'range.length' must be an integer"
    ),
    (#"{"cmd":"text","storage":"b","range":[0,1]}"#, "badRequest", "'range' must be an object"),
    (
      #"{"cmd":"select","ranges":[{"storage":"b","offset":0}]}"#, "badRequest",
      "missing field 'ranges[0].length'"
    ),
    (#"{"cmd":"select","ranges":[1]}"#, "badRequest", "'ranges[0]' must be an object"),
    (#"{"cmd":"select","ranges":"b"}"#, "badRequest", "'ranges' must be an array"),
    (#"{"cmd":"select","from":{"storage":"b","offset":0}}"#, "badRequest", "missing field 'to'"),
    (#"{"cmd":"text","storage":"b","unit":"bytes"}"#, "badRequest", "unknown unit 'bytes'"),
    (#"{"cmd":"contexts","scope":"all"}"#, "badRequest", "unknown scope 'all'"),
    (#"{"cmd":"state","state":"done"}"#, "badRequest", "unknown state 'done'"),
    (
      #"{"cmd":"replace","context":"\#(contextID)","offset":0,"length":0,"text":"","policy":"x"}"#,
      "badRequest", "unknown policy 'x' (refuse, merge)"
    ),
    (
      #"{"cmd":"contexts","scope":"fullDocument","format":"html"}"#, "badRequest",
      "unknown format 'html' (markdown)"
    ),
    (
      #"{"cmd":"contexts","scope":"fullDocument","format":["markdown"]}"#, "badRequest",
      "'format' must be a string"
    ),
    (
      #"{"cmd":"replace","context":"\#(contextID)","offset":0,"length":0,"text":"a","markdown":"a"}"#,
      "badRequest", "give 'text' or 'markdown', not both"
    ),
    (
      #"{"cmd":"replace","context":"\#(contextID)","offset":0,"length":0,"markdown":"a","attributes":[]}"#,
      "badRequest", "'attributes' goes with 'text': 'markdown' carries its own"
    ),
    (
      #"{"cmd":"replace","context":"\#(contextID)","offset":0,"length":0,"markdown":1}"#,
      "badRequest", "'markdown' must be a string"
    ),
    (
      #"{"cmd":"replace","context":"\#(contextID)","offset":0,"length":0}"#, "badRequest",
      "missing field 'text'"
    ),
    (
      #"{"cmd":"map","storage":"b","offset":0,"from":0,"assoc":0}"#, "badRequest",
      "'assoc' must be -1 or 1"
    ),
    (
      #"{"cmd":"map","storage":"b","offset":0,"from":0,"assoc":"left"}"#, "badRequest",
      "'assoc' must be an integer"
    ),
    (
      #"{"cmd":"contexts","scope":"fullDocument","unit":"scalar"}"#, "badRequest",
      "'unit' must be utf16"
    ),
    (#"{"cmd":"locate","offset":3,"unit":"utf8"}"#, "badRequest", "'unit' must be utf16"),
    (
      #"{"cmd":"edit","storage":"b","offset":0,"length":0,"text":"x","basis":1,"unit":"scalar"}"#,
      "badRequest", "'unit' must be utf16"
    ),
    (
      #"{"cmd":"edit","storage":"b","offset":0,"length":-1,"text":"x"}"#, "outOfRange",
      "offset 0 and length -1 make no range"
    ),
    (
      #"{"cmd":"exclude","storage":"b","offset":9223372036854775807,"length":1}"#, "outOfRange",
      "make no range"
    ),
    (
      #"{"cmd":"replace","context":"nope","offset":0,"length":1,"text":"x"}"#, "unknownContext",
      "'nope'"
    ),
  ]

  @Test(arguments: refused)
  func aBadRequestIsRefusedWithItsCode(json: String, code: String, message: String) {
    let error = parseError { () throws(REPLError) in try command(json: json) }
    #expect(error?.code == code)
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
  }

  @Test func aLineThatIsNotUTF8IsInvalidUTF8() {
    let error = parseError { () throws(REPLError) in try Command(jsonLine: [0x7B, 0xFF, 0x7D]) }
    #expect(error?.code == "invalidUTF8")
  }

  @Test(arguments: [
    ("bogus 1 2", "badRequest", "unknown command 'bogus'"),
    ("edit body x 0", "badRequest", "OFFSET must be a number, not 'x'"),
    ("show body 0", "badRequest", "usage: show NAME [OFFSET LENGTH]"),
    ("remove a b", "badRequest", "usage: remove NAME"),
    ("select body 1", "badRequest", "a range is NAME OFFSET LENGTH"),
    ("caret body", "badRequest", "usage: caret NAME OFFSET"),
    ("map body 1 0 2", "badRequest", "'assoc' must be -1 or 1"),
    ("contexts everything", "badRequest", "unknown scope 'everything'"),
    ("replace 2 0 1 x", "unknownContext", "no context 2; 'contexts' lists them (1 now)"),
    ("replace -9223372036854775808 0 1 x", "unknownContext", "no context"),
    ("toolselect abc 0 1", "unknownContext", "no context 'abc'"),
    (
      "replace-md 1 0", "badRequest",
      "usage: replace-md CONTEXT OFFSET LENGTH [basis=V] [merge] [MARKDOWN]"
    ),
    ("replace-md 2 0 0 *x*", "unknownContext", "no context 2"),
    ("json {\"cmd\":", "badRequest", "invalid JSON"),
    ("undo alice bob", "badRequest", "usage: undo [ORIGIN]"),
    ("closegroup a b", "badRequest", "usage: closeGroup [ORIGIN]"),
  ])
  func wordsThatAreNoCommandAreRefused(words: String, code: String, message: String) {
    let error = parseError { () throws(REPLError) in try command(words: words) }
    #expect(error?.code == code, "\(words)")
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
  }

  @Test func wordsUnescapeTheirText() throws {
    #expect(
      try command(words: #"add a x\ty\\n\u{1F600}\u{zz}\q\"#)
        == .add("a", .text("x\ty\\n😀\\u{zz}\\q\\"), after: nil, unit: .utf16))
    #expect(
      try command(words: "edit a 0 0  two spaces")
        == .edit(DocumentEdit("a", range: 0..<0, with: " two spaces")))
  }

  // MARK: The two writers

  static let moved = UUID(uuidString: "12345678-0000-4000-8000-000000000002") ?? UUID()

  /// Replies, their protocol line and their text for a person (events name
  /// `contextID` as context 1, and an unknown context by its id's start).
  static let replies: [(reply: Reply, json: String, text: String)] = [
    (.ok, #"{"ok":true}"#, "ok"),
    (
      .edited(
        "body", version: 1, range: 0..<11,
        events: [
          .reflowed(context: contextID, storageRange: 11..<75),
          .textUpdated(context: moved, range: 2..<4, text: "a\tb\n", contextVersion: 3),
        ]),
      #"{"ok":true,"version":1,"range":{"offset":0,"length":11},"events":[{"kind":"reflowed","context":"\#(contextID)"},{"kind":"textUpdated","context":"\#(moved)","range":{"offset":2,"length":2},"text":"a\tb\n","contextVersion":3,"reason":"typing"}]}"#,
      """
      body is now at version 1; the new text is at 0..<11
        event: context [1] moved
        event: context [12345678] text 2..<4 is now "a⇥b⏎" (context version 3, typing)
      """
    ),
    (
      .mapped(offset: 45, from: 0, to: MappedOffset(offset: 56, deleted: true)),
      #"{"ok":true,"offset":56,"deleted":true}"#,
      "offset 45 of version 0 is now 56 (the character on its side deleted: yes)"
    ),
    (
      .located(offset: 20, at: TextPosition("body", 3)),
      #"{"ok":true,"storage":"body","offset":3}"#,
      "document offset 20 is body offset 3"
    ),
    (
      .paragraph(75..<127, contentsEnd: 126),
      #"{"ok":true,"range":{"offset":75,"length":52},"contentsEnd":126}"#,
      "paragraph 75..<127, contents end at 126"
    ),
    (.graphemes([0, 1, 3]), #"{"ok":true,"boundaries":[0,1,3]}"#, "boundaries: 0 1 3"),
    (
      .replaced(
        ReplacementResult(
          storage: "body", storageRange: 45..<48, contextVersion: 1,
          events: [.reflowed(context: moved, storageRange: 60..<70)])),
      #"{"ok":true,"storage":"body","storageRange":{"offset":45,"length":3},"contextVersion":1,"reason":"noninteractive","events":[{"kind":"reflowed","context":"\#(moved)"}]}"#,
      """
      replaced: body 45..<48, context version 1
        event: context [12345678] moved
      """
    ),
    // Given as Markdown, the text that landed too.
    (
      .replaced(
        ReplacementResult(storage: "body", storageRange: 45..<52, contextVersion: 2, events: []),
        text: "the\nsea"),
      #"{"ok":true,"storage":"body","storageRange":{"offset":45,"length":7},"contextVersion":2,"reason":"noninteractive","events":[],"text":"the\nsea"}"#,
      #"replaced: body 45..<52, context version 2; the Markdown's text: "the⏎sea""#
    ),
    (
      .text("Hi\u{2028}", version: 2), #"{"ok":true,"text":"Hi\u2028","version":2}"#,
      "Hi\u{2028}\n(version 2)"
    ),
    // The selection after it, each range inside one storage; a caret.
    (
      .undone(
        undoResult(selection: [SelectionRange("body", 3..<7), SelectionRange("code", 0..<2)])),
      #"{"ok":true,"events":[],"selection":[{"storage":"body","offset":3,"length":4},{"storage":"code","offset":0,"length":2}]}"#,
      "undo done; the selection is body 3..<7, code 0..<2"
    ),
    (
      .redone(undoResult(selection: [SelectionRange(caret: TextPosition("body", 12))])),
      #"{"ok":true,"events":[],"selection":[{"storage":"body","offset":12,"length":0}]}"#,
      "redo done; the caret is at body 12"
    ),
    (
      .undone(undoResult(selection: [])), #"{"ok":true,"events":[],"selection":[]}"#,
      "undo done"
    ),
    (
      .groupClosed(origin: nil), #"{"ok":true}"#,
      "the person's undo group is closed: the next edit starts a new one"
    ),
    (
      .groupClosed(origin: "alice"), #"{"ok":true}"#,
      "alice's undo group is closed: the next edit starts a new one"
    ),
    (
      .state(.interactiveResting), #"{"ok":true,"state":"interactiveResting"}"#,
      "state: interactiveResting"
    ),
    (
      .replayed("t", edits: 2, seconds: 0.5, matches: false),
      #"{"ok":true,"storage":"t","edits":2,"seconds":0.5,"matches":false}"#,
      "replayed 2 edits into t in 0.500 s, 4 a second; the final text matches: NO"
    ),
    (
      .storages([
        StorageInfo(
          TextStorage(id: "s", text: Rope(String(repeating: "x", count: 39) + "😀 and more")),
          unit: .unicodeScalars),
        StorageInfo(TextStorage(id: "e", text: Rope("")), unit: .utf16),
      ]),
      #"{"ok":true,"storages":[{"storage":"s","length":49,"version":0},{"storage":"e","length":0,"version":0}]}"#,
      """
        s: 49 units, version 0  \(String(repeating: "x", count: 39))…
        e: 0 units, version 0  \("")
      """
    ),
    (.storages([]), #"{"ok":true,"storages":[]}"#, "no storages"),
    (.quit, #"{"ok":true}"#, "bye"),
  ]

  @Test(arguments: replies)
  func repliesAreWrittenForProgramsAndForPeople(reply: Reply, json: String, text: String) {
    #expect(JSONWriter.write(reply.json) == json)
    #expect(reply.text(numbering: [contextID]) == text)
  }

  @Test func errorsAreWrittenForProgramsAndForPeople() {
    let error = REPLError("noSession", "there is no Writing Tools session")
    #expect(
      JSONWriter.write(error.json)
        == #"{"ok":false,"error":{"code":"noSession","message":"there is no Writing Tools session"}}"#
    )
    #expect(
      error.text == "error (noSession): there is no Writing Tools session; 'contexts' starts one")
    #expect(REPLError.badRequest("x").text == "error (badRequest): x")
  }

  // MARK: The JSON reader

  @Test(arguments: [
    (
      #" {"a" : [1, -2, 3.5, 1e2, true, false, null, {}], "b": "\ud83d\ude00\u00e9\/\"\\\b\f\n\r\t"} "#,
      true
    ),
    ("-0", true), ("9223372036854775807", true), ("9223372036854775808", true),
    (String(repeating: "[", count: 64) + String(repeating: "]", count: 64), true),
    (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), false),
    ("", false), ("01", false), ("1.", false), (".5", false), ("1e", false), ("+1", false),
    ("-", false), ("1E+2", true), ("1e-2", true), ("0.0e0", true), ("-01", false),
    ("1.5e", false), ("--1", false), ("1-2", false), ("1e+", false), ("0x1", false),
    ("tru", false), ("nul", false), (#"{"a" 1}"#, false), (#"{"a":1,}"#, false), ("[1,]", false),
    ("[1 2]", false), (#"{1:2}"#, false), (#""\x""#, false), (#""\u12""#, false),
    (#""\u00G0""#, false), (#""\ud800""#, false), (#""\udc00""#, false),
    (#""\ud800\u0041""#, false),
    ("\"a\tb\"", false), ("\"abc", false), ("1 2", false), ("{}}", false),
  ])
  func theReaderIsStrict(text: String, valid: Bool) {
    let value = try? JSONReader.parse(Array(text.utf8))
    #expect((value != nil) == valid, "\(text)")
  }

  @Test func theReaderKeepsIntegersExactAndKeysInOrder() throws {
    let value = try JSONReader.parse(
      Array(#"{"z":9223372036854775807,"a":-1,"m":1.0,"big":1e400,"s":"\ud83d\ude00"}"#.utf8))
    #expect(
      value
        == .object([
          ("z", .int(.max)), ("a", .int(-1)), ("m", .double(1)), ("big", .double(.infinity)),
          ("s", .string("😀")),
        ]))
    #expect(value["z"] == .int(.max))
    #expect(try JSONReader.parse(Array("-9223372036854775808".utf8)) == .int(.min))
    #expect(
      try JSONReader.parse(Array("-9223372036854775809".utf8))
        == .double(-9_223_372_036_854_775_808.0))
    #expect(try JSONReader.parse(Array("-0".utf8)) == .int(0))
    #expect(value["nope"] == nil)
    #expect(
      JSONWriter.write(value) == #"{"z":9223372036854775807,"a":-1,"m":1.0,"big":null,"s":"😀"}"#)
  }

  @Test func whatTheWriterWritesTheReaderReads() throws {
    let text = "\u{0}\u{1F}\"\\/\n\r\t\u{7F}\u{2028}\u{2029}é😀"
    let value = JSON.object([
      ("text", .string(text)), ("list", .array([.null, .bool(true), .int(.min), .double(0.25)])),
      ("", .object([])),
    ])
    let line = JSONWriter.write(value)
    #expect(!line.contains("\n") && !line.contains("\u{2028}"))
    #expect(try JSONReader.parse(Array(line.utf8)) == value)
  }
}
