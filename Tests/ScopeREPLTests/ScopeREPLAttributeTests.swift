import DocumentEngine
import Foundation
import ScopeREPLCore
import Testing

/// An engine answering protocol lines in-process. The ids of the contexts
/// of the last `contexts` reply are written `$1`, `$2`… in the responses
/// and may be written so in the requests.
final class ProtocolSession {
  let engine = REPLEngine()
  private(set) var ids: [String] = []

  /// The response to `request`, with context ids as `$N`.
  func answer(_ request: String) -> String {
    var line = request
    for (i, id) in ids.enumerated().reversed() {
      line = line.replacingOccurrences(of: "$\(i + 1)", with: id)
    }
    var response = engine.handleLine(Array(line.utf8)).response
    if response.hasPrefix(#"{"ok":true,"contexts":"#) {
      ids = engine.contextIDs.map(\.uuidString)
    }
    for (i, id) in ids.enumerated() {
      response = response.replacingOccurrences(of: id, with: "$\(i + 1)")
    }
    return response
  }

  /// Sends each request, which must be refused with its code and leave
  /// `state` as it was (a live session and context among it).
  func expectRefused(
    _ requests: [(request: String, code: String)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = state
    #expect(
      before.contains("keep") && before.contains("session ") && before.contains("context "),
      sourceLocation: sourceLocation)
    for (request, code) in requests {
      let response = answer(request)
      #expect(
        response.hasPrefix(#"{"ok":false,"error":{"code":"\#(code)","message":""#),
        "\(request) → \(response)", sourceLocation: sourceLocation)
      #expect(state == before, "\(request) changed the document", sourceLocation: sourceLocation)
    }
  }

  /// Everything a refused request must leave as it was: each storage's
  /// text, version, exclusions and attributes, their order, the session
  /// and each live context's text and version.
  var state: String {
    let content = engine.document.content
    var lines: [String] = []
    for id in content.order {
      guard let storage = try? content.storage(id) else { continue }
      lines.append(
        "\(id) v\(storage.version) \(String(storage.text).debugDescription) "
          + "\(storage.excludedRanges) "
          + JSONWriter.write(AttributesJSON.json(storage.attributeRuns(in: 0..<storage.length))))
    }
    lines.append("session \(engine.document.session?.id.uuidString ?? "none")")
    for id in engine.contextIDs {
      if let context = try? engine.document.liveContext(id) {
        lines.append("context \(String(describing: context))")
      }
    }
    return lines.joined(separator: "\n")
  }
}

/// The protocol's attribute rows (PROTOCOL.md, *Attributes*): exact
/// responses, round trips of every kind of value, hostile values.
@Suite struct ScopeREPLAttributeTests {
  // MARK: Every row, exactly

  static let bold = #"{"inlinePresentationIntent":["stronglyEmphasized"]}"#
  static let big = #"{"inlinePresentationIntent":["emphasized"],"link":"https://big.example"}"#
  static let there = #"{"draft":true,"font":"Menlo","size":12}"#

  /// A session through every new field, each request with its response.
  static let session: [(request: String, response: String)] = [
    // Runs need not be maximal; they are written maximal, keys by name.
    (
      #"{"cmd":"add","storage":"note","text":"Hello big world\n","attributes":[{"offset":0,"length":2,"attributes":\#(bold)},{"offset":2,"length":3,"attributes":\#(bold)},{"offset":6,"length":3,"attributes":{"link":"https://big.example","inlinePresentationIntent":["emphasized"]}}]}"#,
      #"{"ok":true,"storage":"note","length":16,"version":0}"#
    ),
    (
      #"{"cmd":"text","storage":"note","attributes":true}"#,
      #"{"ok":true,"text":"Hello big world\n","version":0,"attributes":[{"offset":0,"length":5,"attributes":\#(bold)},{"offset":6,"length":3,"attributes":\#(big)}]}"#
    ),
    // Without "attributes": true, `text` answers as before.
    (#"{"cmd":"text","storage":"note"}"#, #"{"ok":true,"text":"Hello big world\n","version":0}"#),
    (
      #"{"cmd":"text","storage":"note","attributes":false}"#,
      #"{"ok":true,"text":"Hello big world\n","version":0}"#
    ),
    // Runs of a part are relative to it.
    (
      #"{"cmd":"text","storage":"note","range":{"offset":3,"length":5},"attributes":true}"#,
      #"{"ok":true,"text":"lo bi","version":0,"attributes":[{"offset":0,"length":2,"attributes":\#(bold)},{"offset":3,"length":2,"attributes":\#(big)}]}"#
    ),
    // The edit rule: an insertion takes the attributes before it…
    (
      #"{"cmd":"edit","storage":"note","offset":5,"length":0,"text":"!!"}"#,
      #"{"ok":true,"version":1,"range":{"offset":5,"length":2},"events":[]}"#
    ),
    // …unless the edit says: {} is none,
    (
      #"{"cmd":"edit","storage":"note","offset":1,"length":0,"text":"-","attributes":{}}"#,
      #"{"ok":true,"version":2,"range":{"offset":1,"length":1},"events":[]}"#
    ),
    // and a set is exactly that set.
    (
      #"{"cmd":"edit","storage":"note","offset":13,"length":5,"text":"there","attributes":{"size":12,"font":"Menlo","draft":true}}"#,
      #"{"ok":true,"version":3,"range":{"offset":13,"length":5},"events":[]}"#
    ),
    (
      #"{"cmd":"text","storage":"note","attributes":true}"#,
      #"{"ok":true,"text":"H-ello!! big there\n","version":3,"attributes":[{"offset":0,"length":1,"attributes":\#(bold)},{"offset":2,"length":6,"attributes":\#(bold)},{"offset":9,"length":3,"attributes":\#(big)},{"offset":13,"length":5,"attributes":\#(there)}]}"#
    ),
    // setAttributes: null removes a key, a value sets one, the others stay;
    // no version.
    (
      #"{"cmd":"setAttributes","storage":"note","offset":0,"length":9,"attributes":{"inlinePresentationIntent":null,"font":"Georgia"}}"#,
      #"{"ok":true,"version":3}"#
    ),
    (
      #"{"cmd":"text","storage":"note","attributes":true}"#,
      #"{"ok":true,"text":"H-ello!! big there\n","version":3,"attributes":[{"offset":0,"length":9,"attributes":{"font":"Georgia"}},{"offset":9,"length":3,"attributes":\#(big)},{"offset":13,"length":5,"attributes":\#(there)}]}"#
    ),
    // Contexts carry their runs; plain text by default.
    (
      #"{"cmd":"contexts","scope":"fullDocument"}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"note","storageRange":{"offset":0,"length":19},"text":"H-ello!! big there\n","range":{"offset":0,"length":19},"excluded":[],"version":3,"contextVersion":0,"attributes":[{"offset":0,"length":9,"attributes":{"font":"Georgia"}},{"offset":9,"length":3,"attributes":\#(big)},{"offset":13,"length":5,"attributes":\#(there)}]}]}"#
    ),
    // Under plain text a replacement's attributes are ignored: the edit
    // rule gives "BIG" those of "big".
    (
      #"{"cmd":"replace","context":"$1","offset":9,"length":3,"text":"BIG","attributes":[{"offset":0,"length":3,"attributes":{"inlinePresentationIntent":["code"]}}]}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":9,"length":3},"contextVersion":1,"reason":"noninteractive","events":[]}"#
    ),
    (
      #"{"cmd":"text","storage":"note","range":{"offset":9,"length":3},"attributes":true}"#,
      #"{"ok":true,"text":"BIG","version":4,"attributes":[{"offset":0,"length":3,"attributes":\#(big)}]}"#
    ),
    (
      #"{"cmd":"add","storage":"plain","text":"Just text.\n"}"#,
      #"{"ok":true,"storage":"plain","length":11,"version":0}"#
    ),
    // A context without attributes has none: [].
    (
      #"{"cmd":"contexts","scope":"fullDocument","resultOptions":["richText"]}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"note","storageRange":{"offset":0,"length":19},"text":"H-ello!! BIG there\n","range":{"offset":0,"length":19},"excluded":[],"version":4,"contextVersion":0,"attributes":[{"offset":0,"length":9,"attributes":{"font":"Georgia"}},{"offset":9,"length":3,"attributes":\#(big)},{"offset":13,"length":5,"attributes":\#(there)}]},{"id":"$2","storage":"plain","storageRange":{"offset":0,"length":11},"text":"Just text.\n","range":{"offset":0,"length":11},"excluded":[],"version":0,"contextVersion":0,"attributes":[]}]}"#
    ),
    // Under rich text the tool decides the inline intents and links of its
    // text; the host's font follows the edit rule (none at "B").
    (
      #"{"cmd":"replace","context":"$1","offset":9,"length":3,"text":"huge","attributes":[{"offset":0,"length":4,"attributes":{"inlinePresentationIntent":["code"],"font":"Courier"}}]}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":9,"length":4},"contextVersion":1,"reason":"noninteractive","events":[]}"#
    ),
    (
      #"{"cmd":"text","storage":"note","attributes":true}"#,
      #"{"ok":true,"text":"H-ello!! huge there\n","version":5,"attributes":[{"offset":0,"length":9,"attributes":{"font":"Georgia"}},{"offset":9,"length":4,"attributes":{"inlinePresentationIntent":["code"]}},{"offset":14,"length":5,"attributes":\#(there)}]}"#
    ),
    // Without presentationIntent among the options a block is not taken.
    (
      #"{"cmd":"replace","context":"$2","offset":0,"length":4,"text":"Only","attributes":[{"offset":0,"length":4,"attributes":{"presentationIntent":[{"kind":"paragraph","identity":1}],"link":"x"}}]}"#,
      #"{"ok":true,"storage":"plain","storageRange":{"offset":0,"length":4},"contextVersion":1,"reason":"noninteractive","events":[]}"#
    ),
    (
      #"{"cmd":"text","storage":"plain","attributes":true}"#,
      #"{"ok":true,"text":"Only text.\n","version":1,"attributes":[{"offset":0,"length":4,"attributes":{"link":"x"}}]}"#
    ),
    // With presentationIntent and list, a block keeps its list components
    // and loses its table ones.
    (
      #"{"cmd":"contexts","scope":"userSelection","resultOptions":["list","presentationIntent"]}"#,
      #"{"ok":true,"contexts":[]}"#
    ),
    (
      #"{"cmd":"select","ranges":[{"storage":"plain","offset":5,"length":4}]}"#, #"{"ok":true}"#
    ),
    (
      #"{"cmd":"contexts","scope":"userSelection","resultOptions":["presentationIntent","list"]}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"plain","storageRange":{"offset":0,"length":11},"text":"Only text.\n","range":{"offset":5,"length":4},"excluded":[],"version":1,"contextVersion":0,"attributes":[{"offset":0,"length":4,"attributes":{"link":"x"}}]}]}"#
    ),
    (
      #"{"cmd":"replace","context":"$1","offset":5,"length":4,"text":"TEXT","attributes":[{"offset":0,"length":4,"attributes":{"presentationIntent":[{"kind":"table","identity":1,"columns":["left"]},{"kind":"unorderedList","identity":2},{"kind":"listItem","identity":3,"ordinal":1},{"kind":"paragraph","identity":4}]}}]}"#,
      #"{"ok":true,"storage":"plain","storageRange":{"offset":5,"length":4},"contextVersion":1,"reason":"noninteractive","events":[]}"#
    ),
    (
      #"{"cmd":"text","storage":"plain","attributes":true}"#,
      #"{"ok":true,"text":"Only TEXT.\n","version":2,"attributes":[{"offset":0,"length":4,"attributes":{"link":"x"}},{"offset":5,"length":4,"attributes":{"presentationIntent":[{"kind":"unorderedList","identity":2},{"kind":"listItem","identity":3,"ordinal":1},{"kind":"paragraph","identity":4}]}}]}"#
    ),
    // Undo gives back the attributes of the text it puts back.
    (
      #"{"cmd":"undo"}"#,
      #"{"ok":true,"events":[{"kind":"textUpdated","context":"$1","range":{"offset":5,"length":4},"text":"text","contextVersion":2,"reason":"undoRedo"}],"selection":[{"storage":"plain","offset":5,"length":4}]}"#
    ),
    (
      #"{"cmd":"text","storage":"plain","attributes":true}"#,
      #"{"ok":true,"text":"Only text.\n","version":3,"attributes":[{"offset":0,"length":4,"attributes":{"link":"x"}}]}"#
    ),
  ]

  @Test func everyNewFieldAnswersExactly() {
    let session = ProtocolSession()
    for (i, (request, response)) in Self.session.enumerated() {
      #expect(session.answer(request) == response, "request \(i + 1): \(request)")
    }
  }

  // MARK: Round trips

  /// Sets of attributes as the protocol writes them: every kind of value.
  static let sets: [String] = [
    #"{"inlinePresentationIntent":["emphasized"]}"#,
    #"{"inlinePresentationIntent":["stronglyEmphasized"]}"#,
    #"{"inlinePresentationIntent":["code"]}"#,
    #"{"inlinePresentationIntent":["strikethrough"]}"#,
    #"{"inlinePresentationIntent":["softBreak"]}"#,
    #"{"inlinePresentationIntent":["lineBreak"]}"#,
    #"{"inlinePresentationIntent":["inlineHTML"]}"#,
    #"{"inlinePresentationIntent":["blockHTML"]}"#,
    #"{"inlinePresentationIntent":["emphasized","stronglyEmphasized","code","strikethrough","softBreak","lineBreak","inlineHTML","blockHTML"]}"#,
    ##"{"link":"https://example.com/a?b=c&d=\"é\"#😀"}"##,
    #"{"link":""}"#,
    #"{"presentationIntent":[{"kind":"paragraph","identity":0}]}"#,
    #"{"presentationIntent":[{"kind":"header","identity":7,"level":1}]}"#,
    #"{"presentationIntent":[{"kind":"header","identity":-3,"level":6}]}"#,
    #"{"presentationIntent":[{"kind":"orderedList","identity":1},{"kind":"listItem","identity":2,"ordinal":3},{"kind":"paragraph","identity":3}]}"#,
    #"{"presentationIntent":[{"kind":"blockQuote","identity":1},{"kind":"unorderedList","identity":2},{"kind":"listItem","identity":3,"ordinal":0},{"kind":"paragraph","identity":4}]}"#,
    #"{"presentationIntent":[{"kind":"codeBlock","identity":1,"languageHint":"swift"}]}"#,
    #"{"presentationIntent":[{"kind":"codeBlock","identity":1}]}"#,
    #"{"presentationIntent":[{"kind":"thematicBreak","identity":9223372036854775807}]}"#,
    #"{"presentationIntent":[{"kind":"table","identity":1,"columns":["left","center","right"]},{"kind":"tableHeaderRow","identity":2},{"kind":"tableCell","identity":3,"column":0}]}"#,
    #"{"presentationIntent":[{"kind":"table","identity":1,"columns":[]},{"kind":"tableRow","identity":2,"rowIndex":4},{"kind":"tableCell","identity":3,"column":2}]}"#,
    #"{"font":"Menlo 😀 \"quoted\"\n\u2028"}"#,
    #"{"":""}"#,
    #"{"size":-12}"#,
    #"{"count":9223372036854775807}"#,
    #"{"draft":true}"#,
    #"{"draft":false}"#,
    #"{"color":"red","inlinePresentationIntent":["code"],"link":"u","presentationIntent":[{"kind":"paragraph","identity":1}],"zIndex":3}"#,
  ]

  @Test(arguments: sets)
  func everyKindOfValueComesBackAsItWent(set: String) {
    let session = ProtocolSession()
    let runs = #"[{"offset":0,"length":4,"attributes":\#(set)}]"#
    // Set when a storage is added, over a range, and with an edit.
    #expect(
      session.answer(#"{"cmd":"add","storage":"a","text":"xy😀z\n","attributes":\#(runs)}"#)
        == #"{"ok":true,"storage":"a","length":6,"version":0}"#)
    #expect(
      session.answer(#"{"cmd":"add","storage":"b","text":"xy😀z\n"}"#).hasPrefix(#"{"ok":true"#))
    #expect(
      session.answer(
        #"{"cmd":"setAttributes","storage":"b","offset":0,"length":4,"attributes":\#(set)}"#)
        == #"{"ok":true,"version":0}"#)
    #expect(session.answer(#"{"cmd":"add","storage":"c","text":"z\n"}"#).hasPrefix(#"{"ok":true"#))
    #expect(
      session.answer(
        #"{"cmd":"edit","storage":"c","offset":0,"length":0,"text":"xy😀","attributes":\#(set)}"#)
        == #"{"ok":true,"version":1,"range":{"offset":0,"length":4},"events":[]}"#)
    for (id, version) in [("a", 0), ("b", 0), ("c", 1)] {
      #expect(
        session.answer(#"{"cmd":"text","storage":"\#(id)","attributes":true}"#)
          == #"{"ok":true,"text":"xy😀z\n","version":\#(version),"attributes":\#(runs)}"#, "\(id)")
    }
    // Contexts carry them too; a replacement under every result option
    // gives them to its text where the options allow.
    let contexts = session.answer(
      #"{"cmd":"contexts","scope":"fullDocument","resultOptions":["richText","list","table","presentationIntent"]}"#
    )
    #expect(contexts.components(separatedBy: #","attributes":\#(runs)}"#).count == 4, "\(contexts)")
    #expect(
      session.answer(
        #"{"cmd":"replace","context":"$1","offset":0,"length":4,"text":"XY😀","attributes":\#(runs)}"#
      )
        == #"{"ok":true,"storage":"a","storageRange":{"offset":0,"length":4},"contextVersion":1,"reason":"noninteractive","events":[]}"#
    )
    #expect(
      session.answer(#"{"cmd":"text","storage":"a","attributes":true}"#)
        == #"{"ok":true,"text":"XY😀z\n","version":1,"attributes":\#(runs)}"#)
  }

  @Test func aRequestsValuesMayComeInAnyOrderAndAreWrittenInOne() {
    let session = ProtocolSession()
    let given =
      #"{"zIndex":3.0,"link":"u","inlinePresentationIntent":["code","emphasized","code"],"presentationIntent":[{"level":2,"identity":1,"kind":"header","note":"ignored"},{"kind":"codeBlock","identity":2,"languageHint":null}],"color":"red","gone":null}"#
    let written =
      #"{"color":"red","inlinePresentationIntent":["emphasized","code"],"link":"u","presentationIntent":[{"kind":"header","identity":1,"level":2},{"kind":"codeBlock","identity":2}],"zIndex":3}"#
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"a","text":"abc","attributes":[{"length":2,"attributes":\#(given),"offset":1}]}"#
      ) == #"{"ok":true,"storage":"a","length":3,"version":0}"#)
    #expect(
      session.answer(#"{"cmd":"text","storage":"a","attributes":true}"#)
        == #"{"ok":true,"text":"abc","version":0,"attributes":[{"offset":1,"length":2,"attributes":\#(written)}]}"#
    )
    // Empty runs and empty sets are no attributes.
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"b","text":"abc","attributes":[{"offset":0,"length":0,"attributes":{"link":"u"}},{"offset":0,"length":3,"attributes":{}}]}"#
      ) == #"{"ok":true,"storage":"b","length":3,"version":0}"#)
    #expect(
      session.answer(#"{"cmd":"text","storage":"b","attributes":true}"#)
        == #"{"ok":true,"text":"abc","version":0,"attributes":[]}"#)
  }

  // MARK: Units

  @Test func runsAreUTF16AndTheirRequestsSaySo() {
    let session = ProtocolSession()
    let runs = #"[{"offset":1,"length":2,"attributes":{"link":"u"}}]"#
    for request in [
      #"{"cmd":"add","storage":"a","text":"a😀b","unit":"scalar","attributes":\#(runs)}"#,
      #"{"cmd":"add","storage":"a","text":"a😀b","unit":"utf8","attributes":\#(runs)}"#,
      #"{"cmd":"text","storage":"a","unit":"scalar","attributes":true}"#,
    ] {
      let response = session.answer(request)
      #expect(response.contains(#""code":"badRequest""#), "\(request)")
      #expect(response.contains("'unit' must be utf16"), "\(request)")
    }
    #expect(session.answer(#"{"cmd":"storages"}"#) == #"{"ok":true,"storages":[]}"#)
    // Without runs a unit is as before; with utf16 they are taken.
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"a","text":"a😀b","unit":"utf16","attributes":\#(runs)}"#)
        == #"{"ok":true,"storage":"a","length":4,"version":0}"#)
    #expect(
      session.answer(#"{"cmd":"text","storage":"a","unit":"scalar","attributes":false}"#)
        == #"{"ok":true,"text":"a😀b","version":0}"#)
    // setAttributes counts its offsets in the request's unit, as exclude
    // does: scalar 2..<3 is "b", UTF-16 3..<4.
    #expect(
      session.answer(
        #"{"cmd":"setAttributes","storage":"a","offset":2,"length":1,"unit":"scalar","attributes":{"draft":true}}"#
      ) == #"{"ok":true,"version":0}"#)
    #expect(
      session.answer(
        #"{"cmd":"setAttributes","storage":"a","offset":1,"length":1,"unit":"utf8","attributes":{"draft":true}}"#
      ).contains(#""code":"outOfRange""#))
    // An edit's set has no offsets: any unit goes.
    #expect(
      session.answer(
        #"{"cmd":"edit","storage":"a","offset":0,"length":1,"unit":"scalar","text":"é","attributes":{"size":1}}"#
      ) == #"{"ok":true,"version":1,"range":{"offset":0,"length":1},"events":[]}"#)
    #expect(
      session.answer(#"{"cmd":"text","storage":"a","attributes":true}"#)
        == #"{"ok":true,"text":"é😀b","version":1,"attributes":[{"offset":0,"length":1,"attributes":{"size":1}},{"offset":1,"length":2,"attributes":{"link":"u"}},{"offset":3,"length":1,"attributes":{"draft":true}}]}"#
    )
  }

  // MARK: Hostile values

  static func put(_ set: String) -> String {
    #"{"cmd":"setAttributes","storage":"s","offset":0,"length":1,"attributes":\#(set)}"#
  }

  static func pi(_ component: String) -> String {
    put(#"{"presentationIntent":[\#(component)]}"#)
  }

  static func added(_ runs: String, text: String = "ab") -> String {
    #"{"cmd":"add","storage":"n","text":"\#(text)","attributes":\#(runs)}"#
  }

  static func replaced(_ runs: String, text: String = "xy") -> String {
    #"{"cmd":"replace","context":"$1","offset":0,"length":1,"text":"\#(text)","attributes":\#(runs)}"#
  }

  /// Requests that must be refused with a code, changing nothing.
  static let hostile: [(request: String, code: String)] = [
    // Runs of the wrong shape.
    (added("{}"), "badRequest"),
    (added(#""runs""#), "badRequest"),
    (added("[1]"), "badRequest"),
    (added(#"[{"offset":0,"length":1}]"#), "badRequest"),
    (added(#"[{"offset":0,"length":1,"attributes":null}]"#), "badRequest"),
    (added(#"[{"length":1,"attributes":{}}]"#), "badRequest"),
    (added(#"[{"offset":"0","length":1,"attributes":{}}]"#), "badRequest"),
    (added(#"[{"offset":0,"length":1.5,"attributes":{}}]"#), "badRequest"),
    (added(#"[{"offset":0,"length":1,"attributes":[]}]"#), "badRequest"),
    (added(#"[{"offset":0,"length":1,"attributes":"link"}]"#), "badRequest"),
    // Runs past their text, or that make no range.
    (added(#"[{"offset":0,"length":3,"attributes":{"link":"u"}}]"#), "outOfRange"),
    (added(#"[{"offset":3,"length":0,"attributes":{"link":"u"}}]"#), "outOfRange"),
    (added(#"[{"offset":-1,"length":1,"attributes":{"link":"u"}}]"#), "outOfRange"),
    (added(#"[{"offset":0,"length":-1,"attributes":{"link":"u"}}]"#), "outOfRange"),
    (added(#"[{"offset":9223372036854775807,"length":1,"attributes":{}}]"#), "outOfRange"),
    // Overlapping and out of order.
    (
      added(
        #"[{"offset":0,"length":2,"attributes":{"link":"u"}},{"offset":1,"length":1,"attributes":{"link":"v"}}]"#
      ),
      "badRequest"
    ),
    (
      added(
        #"[{"offset":1,"length":1,"attributes":{"link":"u"}},{"offset":0,"length":1,"attributes":{"link":"v"}}]"#
      ),
      "badRequest"
    ),
    // Inside a surrogate pair.
    (
      added(#"[{"offset":0,"length":2,"attributes":{"link":"u"}}]"#, text: "a😀"),
      "splitsSurrogatePair"
    ),
    (
      added(#"[{"offset":2,"length":1,"attributes":{"link":"u"}}]"#, text: "a😀"),
      "splitsSurrogatePair"
    ),
    (#"{"cmd":"add","storage":"n","text":"ab","unit":"scalar","attributes":[]}"#, "badRequest"),
    // Inline presentation intents.
    (put(#"{"inlinePresentationIntent":"code"}"#), "badRequest"),
    (put(#"{"inlinePresentationIntent":[4]}"#), "badRequest"),
    (put(#"{"inlinePresentationIntent":["bold"]}"#), "badRequest"),
    (put(#"{"inlinePresentationIntent":["Code"]}"#), "badRequest"),
    (put(#"{"inlinePresentationIntent":["code",null]}"#), "badRequest"),
    (put(#"{"inlinePresentationIntent":[]}"#), "badRequest"),
    (put(#"{"inlinePresentationIntent":{"code":true}}"#), "badRequest"),
    // Links.
    (put(#"{"link":5}"#), "badRequest"),
    (put(#"{"link":["u"]}"#), "badRequest"),
    (put(#"{"link":true}"#), "badRequest"),
    (put(#"{"link":{"url":"u"}}"#), "badRequest"),
    // Presentation intents.
    (put(#"{"presentationIntent":{}}"#), "badRequest"),
    (put(#"{"presentationIntent":"header"}"#), "badRequest"),
    (put(#"{"presentationIntent":[]}"#), "badRequest"),
    (pi("1"), "badRequest"),
    (pi(#"{"identity":1}"#), "badRequest"),
    (pi(#"{"kind":5,"identity":1}"#), "badRequest"),
    (pi(#"{"kind":"bogus","identity":1}"#), "badRequest"),
    (pi(#"{"kind":"Header","identity":1,"level":1}"#), "badRequest"),
    (pi(#"{"kind":"paragraph"}"#), "badRequest"),
    (pi(#"{"kind":"paragraph","identity":"1"}"#), "badRequest"),
    (pi(#"{"kind":"paragraph","identity":1.5}"#), "badRequest"),
    (pi(#"{"kind":"header","identity":1}"#), "badRequest"),
    (pi(#"{"kind":"header","identity":1,"level":0}"#), "badRequest"),
    (pi(#"{"kind":"header","identity":1,"level":7}"#), "badRequest"),
    (pi(#"{"kind":"header","identity":1,"level":"1"}"#), "badRequest"),
    (pi(#"{"kind":"listItem","identity":1}"#), "badRequest"),
    (pi(#"{"kind":"listItem","identity":1,"ordinal":-1}"#), "badRequest"),
    (pi(#"{"kind":"codeBlock","identity":1,"languageHint":5}"#), "badRequest"),
    (pi(#"{"kind":"table","identity":1}"#), "badRequest"),
    (pi(#"{"kind":"table","identity":1,"columns":"left"}"#), "badRequest"),
    (pi(#"{"kind":"table","identity":1,"columns":["middle"]}"#), "badRequest"),
    (pi(#"{"kind":"table","identity":1,"columns":[0]}"#), "badRequest"),
    (pi(#"{"kind":"tableRow","identity":1}"#), "badRequest"),
    (pi(#"{"kind":"tableRow","identity":1,"rowIndex":-1}"#), "badRequest"),
    (pi(#"{"kind":"tableCell","identity":1,"columnIndex":1}"#), "badRequest"),
    (pi(#"{"kind":"tableCell","identity":1,"column":-1}"#), "badRequest"),
    (pi(#"{"kind":"tableCell","identity":1,"column":1e300}"#), "badRequest"),
    (put(#"{"presentationIntent":[{"kind":"paragraph","identity":1},null]}"#), "badRequest"),
    // A host's key: a string, an integer or a Boolean.
    (put(#"{"font":1.5}"#), "badRequest"),
    (put(#"{"font":1e300}"#), "badRequest"),
    (put(#"{"font":[]}"#), "badRequest"),
    (put(#"{"font":{}}"#), "badRequest"),
    (put(#"{"font":"Menlo","size":[12]}"#), "badRequest"),
    // setAttributes itself.
    (#"{"cmd":"setAttributes","storage":"s","offset":0,"length":1}"#, "badRequest"),
    (put("null"), "badRequest"),
    (put("[]"), "badRequest"),
    (put(#""link""#), "badRequest"),
    (#"{"cmd":"setAttributes","storage":"s","offset":0,"attributes":{}}"#, "badRequest"),
    (
      #"{"cmd":"setAttributes","storage":"s","offset":0,"length":9,"attributes":{"a":1}}"#,
      "outOfRange"
    ),
    (
      #"{"cmd":"setAttributes","storage":"s","offset":2,"length":1,"attributes":{"a":1}}"#,
      "splitsSurrogatePair"
    ),
    (
      #"{"cmd":"setAttributes","storage":"s","offset":1,"length":1,"attributes":{"a":1}}"#,
      "splitsSurrogatePair"
    ),
    (
      #"{"cmd":"setAttributes","storage":"x","offset":0,"length":0,"attributes":{"a":1}}"#,
      "unknownStorage"
    ),
    (
      #"{"cmd":"setAttributes","storage":"s","offset":0,"length":1,"unit":"scalar","attributes":{"link":5}}"#,
      "badRequest"
    ),
    // edit.
    (
      #"{"cmd":"edit","storage":"s","offset":0,"length":0,"text":"x","attributes":[]}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"edit","storage":"s","offset":0,"length":0,"text":"x","attributes":"u"}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"edit","storage":"s","offset":0,"length":0,"text":"x","attributes":{"link":1}}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"edit","storage":"s","offset":0,"length":0,"text":"x","attributes":{"inlinePresentationIntent":[]}}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"edit","storage":"s","offset":0,"length":0,"text":"x","origin":"p","basis":0,"attributes":{"presentationIntent":[{"kind":"header","identity":1,"level":9}]}}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"edit","storage":"s","offset":2,"length":0,"text":"x","attributes":{"link":"u"}}"#,
      "splitsSurrogatePair"
    ),
    // text.
    (#"{"cmd":"text","storage":"s","attributes":"yes"}"#, "badRequest"),
    (#"{"cmd":"text","storage":"s","attributes":1}"#, "badRequest"),
    (#"{"cmd":"text","storage":"s","attributes":true,"unit":"utf8"}"#, "badRequest"),
    (
      #"{"cmd":"text","storage":"s","attributes":true,"range":{"offset":0,"length":2}}"#,
      "splitsSurrogatePair"
    ),
    // contexts.
    (#"{"cmd":"contexts","scope":"fullDocument","resultOptions":"richText"}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"fullDocument","resultOptions":["fancy"]}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"fullDocument","resultOptions":["RichText"]}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"fullDocument","resultOptions":[1]}"#, "badRequest"),
    (#"{"cmd":"contexts","scope":"fullDocument","resultOptions":{"richText":true}}"#, "badRequest"),
    // replace.
    (replaced("{}"), "badRequest"),
    (replaced("[null]"), "badRequest"),
    (replaced(#"[{"offset":0,"length":3,"attributes":{"link":"u"}}]"#), "outOfRange"),
    (
      replaced(
        #"[{"offset":0,"length":2,"attributes":{"link":"u"}},{"offset":1,"length":1,"attributes":{}}]"#
      ),
      "badRequest"
    ),
    (
      replaced(#"[{"offset":1,"length":1,"attributes":{"link":"u"}}]"#, text: "😀"),
      "splitsSurrogatePair"
    ),
    (replaced(#"[{"offset":0,"length":1,"attributes":{"link":1}}]"#), "badRequest"),
    (
      replaced(#"[{"offset":0,"length":1,"attributes":{"inlinePresentationIntent":[]}}]"#),
      "badRequest"
    ),
    (
      replaced(#"[{"offset":0,"length":1,"attributes":{"inlinePresentationIntent":["big"]}}]"#),
      "badRequest"
    ),
  ]

  @Test func hostileValuesAreRefusedWithTheirCodeAndChangeNothing() {
    let session = ProtocolSession()
    #expect(
      session.answer(
        #"{"cmd":"add","storage":"s","text":"a😀b\n","attributes":[{"offset":0,"length":1,"attributes":{"link":"keep"}},{"offset":3,"length":1,"attributes":{"size":2}}]}"#
      ) == #"{"ok":true,"storage":"s","length":5,"version":0}"#)
    #expect(
      session.answer(#"{"cmd":"contexts","scope":"fullDocument","resultOptions":["richText"]}"#)
        .hasPrefix(#"{"ok":true,"contexts":[{"id":"$1""#))
    session.expectRefused(Self.hostile)
    // The same session still takes good requests.
    #expect(
      session.answer(Self.replaced(#"[{"offset":0,"length":2,"attributes":{"link":"ok"}}]"#))
        == #"{"ok":true,"storage":"s","storageRange":{"offset":0,"length":2},"contextVersion":1,"reason":"noninteractive","events":[]}"#
    )
  }

  @Test(arguments: [
    (
      added(#"[{"offset":0,"length":1,"attributes":{"link":5}}]"#),
      "'attributes[0].attributes.link' must be a string"
    ),
    (
      pi(#"{"kind":"table","identity":1,"columns":["left",7]}"#),
      "'attributes.presentationIntent[0].columns[1]' must be an alignment"
    ),
    (
      pi(#"{"kind":"header","identity":1}"#),
      "missing field 'attributes.presentationIntent[0].level'"
    ),
    (
      pi(#"{"kind":"aside","identity":1}"#),
      "unknown presentation intent kind 'aside' (paragraph, header"
    ),
    (
      put(#"{"inlinePresentationIntent":["bold"]}"#),
      "unknown inline presentation intent 'bold' (emphasized, "
    ),
    (
      put(#"{"font":[]}"#),
      "'attributes.font' must be a string, an integer that fits in 64 bits or a boolean"
    ),
    (
      put(#"{"inlinePresentationIntent":[]}"#),
      "the attribute 'inlinePresentationIntent' is not valid"
    ),
    (
      added(#"[{"offset":1,"length":1,"attributes":{}},{"offset":0,"length":1,"attributes":{}}]"#),
      "the attribute run 0..<1 starts before the run before it ends"
    ),
    (
      #"{"cmd":"contexts","scope":"fullDocument","resultOptions":["rich"]}"#,
      "unknown result option 'rich' (plainText, richText, list, table, presentationIntent)"
    ),
  ])
  func refusalsSayWhatIsWrong(request: String, message: String) {
    let session = ProtocolSession()
    _ = session.answer(#"{"cmd":"add","storage":"s","text":"abc"}"#)
    let response = session.answer(request)
    #expect(response.contains(message), "\(response)")
  }
}
