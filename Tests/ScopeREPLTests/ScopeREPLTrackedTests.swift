import DocumentEngine
import Foundation
import ScopeREPLCore
import SummaryTrees
import Testing

/// The protocol's tracked-range rows (PROTOCOL.md, *Tracked ranges,
/// suggestions and history*): `track`, `tracked`, `untrack`, the
/// `unknownTracked` code and the `touched` and `removed` fields of the
/// responses that change text, exactly; refused requests; and human mode's
/// `track`, `tracked`, `untrack` and `show`.
@Suite struct ScopeREPLTrackedTests {
  // MARK: Every row, exactly

  /// "Hi 👋🏽 there, teh sea.\n": the emoji and its skin tone are two
  /// surrogate pairs, UTF-16 3..<5 and 5..<7; the storage is the first, so
  /// its tracked ranges' ids are 2^32 + 1, 2^32 + 2…
  static let note = #"{"cmd":"add","storage":"note","text":"Hi 👋🏽 there, teh sea.\n"}"#

  /// A session through every row, each request with its response.
  static let session: [(request: String, response: String)] = [
    (note, #"{"ok":true,"storage":"note","length":24,"version":0}"#),
    // One range: a spelling underline that an edit of its text removes.
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":15,"length":3}],"kind":"spelling","onTouch":"remove"}"#,
      #"{"ok":true,"ids":[4294967297]}"#
    ),
    // Several: their ids in the order given, not in position order; the
    // kind is "host" by default.
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":8,"length":5},{"offset":0,"length":2}]}"#,
      #"{"ok":true,"ids":[4294967298,4294967299]}"#
    ),
    // An empty range at the end that goes after text inserted at it.
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":24,"length":0}],"kind":"bookmark","bias":"right"}"#,
      #"{"ok":true,"ids":[4294967300]}"#
    ),
    // Both surrogate pairs, taking text inserted at either end.
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":3,"length":4}],"kind":"emoji","expand":"both","onTouch":"keep"}"#,
      #"{"ok":true,"ids":[4294967301]}"#
    ),
    // No range: no id.
    (#"{"cmd":"track","storage":"note","ranges":[]}"#, #"{"ok":true,"ids":[]}"#),
    // All of them, in position order.
    (
      #"{"cmd":"tracked","storage":"note"}"#,
      #"{"ok":true,"ranges":[{"id":4294967299,"offset":0,"length":2,"kind":"host"},{"id":4294967301,"offset":3,"length":4,"kind":"emoji"},{"id":4294967298,"offset":8,"length":5,"kind":"host"},{"id":4294967297,"offset":15,"length":3,"kind":"spelling"},{"id":4294967300,"offset":24,"length":0,"kind":"bookmark"}]}"#
    ),
    // Those overlapping a range,
    (
      #"{"cmd":"tracked","storage":"note","range":{"offset":5,"length":11}}"#,
      #"{"ok":true,"ranges":[{"id":4294967301,"offset":3,"length":4,"kind":"emoji"},{"id":4294967298,"offset":8,"length":5,"kind":"host"},{"id":4294967297,"offset":15,"length":3,"kind":"spelling"}]}"#
    ),
    // those containing or touching a point (an empty range),
    (
      #"{"cmd":"tracked","storage":"note","range":{"offset":13,"length":0}}"#,
      #"{"ok":true,"ranges":[{"id":4294967298,"offset":8,"length":5,"kind":"host"}]}"#
    ),
    (
      #"{"cmd":"tracked","storage":"note","range":{"offset":14,"length":0}}"#,
      #"{"ok":true,"ranges":[]}"#
    ),
    // those of a kind (null is no filter),
    (
      #"{"cmd":"tracked","storage":"note","kind":"spelling"}"#,
      #"{"ok":true,"ranges":[{"id":4294967297,"offset":15,"length":3,"kind":"spelling"}]}"#
    ),
    (#"{"cmd":"tracked","storage":"note","kind":"comment"}"#, #"{"ok":true,"ranges":[]}"#),
    // and in other units: scalars (the emoji is two) and UTF-8 bytes (8).
    (
      #"{"cmd":"tracked","storage":"note","kind":null,"unit":"scalar"}"#,
      #"{"ok":true,"ranges":[{"id":4294967299,"offset":0,"length":2,"kind":"host"},{"id":4294967301,"offset":3,"length":2,"kind":"emoji"},{"id":4294967298,"offset":6,"length":5,"kind":"host"},{"id":4294967297,"offset":13,"length":3,"kind":"spelling"},{"id":4294967300,"offset":22,"length":0,"kind":"bookmark"}]}"#
    ),
    (
      #"{"cmd":"tracked","storage":"note","range":{"offset":3,"length":8},"unit":"utf8"}"#,
      #"{"ok":true,"ranges":[{"id":4294967301,"offset":3,"length":8,"kind":"emoji"}]}"#
    ),
    // A scalar range tracks the same text as its UTF-16 range.
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":3,"length":2}],"unit":"scalar","kind":"scalars"}"#,
      #"{"ok":true,"ids":[4294967302]}"#
    ),
    (
      #"{"cmd":"tracked","storage":"note","kind":"scalars"}"#,
      #"{"ok":true,"ranges":[{"id":4294967302,"offset":3,"length":4,"kind":"scalars"}]}"#
    ),
    (#"{"cmd":"untrack","ids":[4294967302]}"#, #"{"ok":true}"#),
    // An edit of the underlined text removes it,
    (
      #"{"cmd":"edit","storage":"note","offset":16,"length":2,"text":"he"}"#,
      #"{"ok":true,"version":1,"range":{"offset":16,"length":2},"events":[],"removed":[4294967297]}"#
    ),
    // an edit inside a kept range touches it,
    (
      #"{"cmd":"edit","storage":"note","offset":8,"length":1,"text":"T"}"#,
      #"{"ok":true,"version":2,"range":{"offset":8,"length":1},"events":[],"touched":[4294967298]}"#
    ),
    // an edit that touches none says nothing more than before,
    (
      #"{"cmd":"edit","storage":"note","offset":23,"length":0,"text":"!"}"#,
      #"{"ok":true,"version":3,"range":{"offset":23,"length":1},"events":[]}"#
    ),
    // and text inserted at a range that expands there goes into it (an
    // insertion at an end does not touch a range: it says nothing more
    // either),
    (
      #"{"cmd":"edit","storage":"note","offset":7,"length":0,"text":"✨"}"#,
      #"{"ok":true,"version":4,"range":{"offset":7,"length":1},"events":[]}"#
    ),
    // as text inserted at an empty range with a right bias goes before it.
    (
      #"{"cmd":"edit","storage":"note","offset":26,"length":0,"text":"Bye"}"#,
      #"{"ok":true,"version":5,"range":{"offset":26,"length":3},"events":[]}"#
    ),
    (
      #"{"cmd":"tracked","storage":"note"}"#,
      #"{"ok":true,"ranges":[{"id":4294967299,"offset":0,"length":2,"kind":"host"},{"id":4294967301,"offset":3,"length":5,"kind":"emoji"},{"id":4294967298,"offset":9,"length":5,"kind":"host"},{"id":4294967300,"offset":29,"length":0,"kind":"bookmark"}]}"#
    ),
    // untrack: gone from the list; a second time, unknown.
    (#"{"cmd":"untrack","ids":[4294967299,4294967300]}"#, #"{"ok":true}"#),
    (#"{"cmd":"untrack","ids":[]}"#, #"{"ok":true}"#),
    (
      #"{"cmd":"untrack","ids":[4294967299]}"#,
      #"{"ok":false,"error":{"code":"unknownTracked","message":"no tracked range has the id 4294967299"}}"#
    ),
    (
      #"{"cmd":"tracked","storage":"note"}"#,
      #"{"ok":true,"ranges":[{"id":4294967301,"offset":3,"length":5,"kind":"emoji"},{"id":4294967298,"offset":9,"length":5,"kind":"host"}]}"#
    ),
    (
      #"{"cmd":"text","storage":"note"}"#,
      #"{"ok":true,"text":"Hi 👋🏽✨ There, the sea.!\nBye","version":5}"#
    ),
  ]

  @Test func everyRowAnswersExactly() {
    let session = ProtocolSession()
    for (i, (request, response)) in Self.session.enumerated() {
      #expect(session.answer(request) == response, "request \(i + 1): \(request)")
    }
  }

  /// The example session of the protocol with a spelling underline on
  /// "fuor" and a comment over its line: the tool's replacement removes
  /// the one and touches the other, and undo, redo and revert touch the
  /// comment again.
  static let replacements: [(request: String, response: String)] = [
    (
      #"{"cmd":"add","storage":"body","text":"One two.\nThree fuor.\nFive.\n"}"#,
      #"{"ok":true,"storage":"body","length":27,"version":0}"#
    ),
    (
      #"{"cmd":"track","storage":"body","ranges":[{"offset":15,"length":4}],"kind":"spelling","onTouch":"remove"}"#,
      #"{"ok":true,"ids":[4294967297]}"#
    ),
    (
      #"{"cmd":"track","storage":"body","ranges":[{"offset":9,"length":12}],"kind":"comment"}"#,
      #"{"ok":true,"ids":[4294967298]}"#
    ),
    (#"{"cmd":"select","ranges":[{"storage":"body","offset":15,"length":4}]}"#, #"{"ok":true}"#),
    (
      #"{"cmd":"contexts","scope":"userSelection"}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"body","storageRange":{"offset":9,"length":12},"text":"Three fuor.\n","range":{"offset":6,"length":4},"excluded":[],"version":0,"contextVersion":0,"attributes":[]}]}"#
    ),
    (
      #"{"cmd":"edit","storage":"body","offset":0,"length":0,"text":"Zero. "}"#,
      #"{"ok":true,"version":1,"range":{"offset":0,"length":6},"events":[{"kind":"reflowed","context":"$1"}]}"#
    ),
    (
      #"{"cmd":"replace","context":"$1","offset":6,"length":4,"text":"four"}"#,
      #"{"ok":true,"storage":"body","storageRange":{"offset":21,"length":4},"contextVersion":1,"reason":"noninteractive","events":[],"touched":[4294967298],"removed":[4294967297]}"#
    ),
    // `selection` comes last, after `touched`, `removed` and `restored`:
    // the document's selection, still on the word ("Zero. " moved it to
    // 21..<25). The undo brings the misspelling's range back with "fuor"
    // (`restored`); the redo removes it again, and revert brings it back.
    (
      #"{"cmd":"undo"}"#,
      #"{"ok":true,"events":[{"kind":"textUpdated","context":"$1","range":{"offset":6,"length":4},"text":"fuor","contextVersion":2,"reason":"undoRedo"}],"touched":[4294967298],"restored":[4294967297],"selection":[{"storage":"body","offset":21,"length":4}]}"#
    ),
    (
      #"{"cmd":"redo"}"#,
      #"{"ok":true,"events":[{"kind":"textUpdated","context":"$1","range":{"offset":6,"length":4},"text":"four","contextVersion":3,"reason":"undoRedo"}],"touched":[4294967298],"removed":[4294967297],"selection":[{"storage":"body","offset":21,"length":4}]}"#
    ),
    (
      #"{"cmd":"revert"}"#,
      #"{"ok":true,"reverted":1,"events":[{"kind":"textUpdated","context":"$1","range":{"offset":6,"length":4},"text":"fuor","contextVersion":4,"reason":"undoRedo"}],"touched":[4294967298]}"#
    ),
    // Given as Markdown: `touched` and `removed` come after `events`,
    // before the text that landed.
    (
      #"{"cmd":"replace","context":"$1","offset":0,"length":5,"markdown":"**Tres**"}"#,
      #"{"ok":true,"storage":"body","storageRange":{"offset":15,"length":4},"contextVersion":5,"reason":"noninteractive","events":[],"touched":[4294967298],"text":"Tres"}"#
    ),
    // A replacement outside every tracked range answers as before.
    (
      #"{"cmd":"contexts","scope":"fullDocument"}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"body","storageRange":{"offset":0,"length":32},"text":"Zero. One two.\nTres fuor.\nFive.\n","range":{"offset":20,"length":4},"excluded":[],"version":6,"contextVersion":0,"attributes":[]}]}"#
    ),
    (
      #"{"cmd":"replace","context":"$1","offset":0,"length":4,"text":"Nil"}"#,
      #"{"ok":true,"storage":"body","storageRange":{"offset":0,"length":3},"contextVersion":1,"reason":"noninteractive","events":[]}"#
    ),
    (
      #"{"cmd":"tracked","storage":"body"}"#,
      #"{"ok":true,"ranges":[{"id":4294967298,"offset":14,"length":11,"kind":"comment"},{"id":4294967297,"offset":19,"length":4,"kind":"spelling"}]}"#
    ),
  ]

  @Test func changesOfTheSessionTellTheRangesTheyTouchedAndRemoved() {
    let session = ProtocolSession()
    for (i, (request, response)) in Self.replacements.enumerated() {
      #expect(session.answer(request) == response, "request \(i + 1): \(request)")
    }
  }

  @Test func aRangeOfARemovedStorageIsUnknown() {
    let session = ProtocolSession()
    _ = session.answer(Self.note)
    #expect(
      session.answer(#"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":2}]}"#)
        == #"{"ok":true,"ids":[4294967297]}"#)
    #expect(session.answer(#"{"cmd":"remove","storage":"note"}"#) == #"{"ok":true}"#)
    #expect(
      session.answer(#"{"cmd":"untrack","ids":[4294967297]}"#)
        == #"{"ok":false,"error":{"code":"unknownTracked","message":"no tracked range has the id 4294967297"}}"#
    )
    // Added again under the same name, the storage's ranges have new ids.
    _ = session.answer(Self.note)
    #expect(
      session.answer(#"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":2}]}"#)
        == #"{"ok":true,"ids":[8589934593]}"#)
  }

  // MARK: Refused requests change nothing

  /// Everything a refused request must leave as it was: the document (as
  /// ``ProtocolSession/state`` has it) and every storage's tracked ranges
  /// with their rules.
  static func state(_ session: ProtocolSession) -> String {
    let document = session.engine.document
    var lines = [session.state]
    for id in document.content.order {
      for tracked in (try? document.trackedRanges(in: id)) ?? [] {
        lines.append(
          "\(id) \(tracked.id) \(tracked.range) \(tracked.kind) \(tracked.rules.expand) "
            + "\(tracked.rules.bias) \(tracked.rules.onTouch)")
      }
    }
    return lines.joined(separator: "\n")
  }

  static let refused: [(request: String, code: String)] = [
    // track
    (#"{"cmd":"track","storage":"nope","ranges":[{"offset":0,"length":1}]}"#, "unknownStorage"),
    (#"{"cmd":"track","ranges":[{"offset":0,"length":1}]}"#, "badRequest"),
    (#"{"cmd":"track","storage":"note"}"#, "badRequest"),
    (#"{"cmd":"track","storage":"note","ranges":{"offset":0,"length":1}}"#, "badRequest"),
    (#"{"cmd":"track","storage":"note","ranges":[5]}"#, "badRequest"),
    (#"{"cmd":"track","storage":"note","ranges":[{"offset":0}]}"#, "badRequest"),
    (#"{"cmd":"track","storage":"note","ranges":[{"offset":0.5,"length":1}]}"#, "badRequest"),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"expand":"sideways"}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"expand":"None"}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"expand":1}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":0}],"bias":"up"}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":0}],"bias":-1}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"onTouch":"drop"}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"onTouch":true}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"kind":5}"#, "badRequest"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"unit":"bytes"}"#,
      "badRequest"
    ),
    (#"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":-1}]}"#, "outOfRange"),
    (#"{"cmd":"track","storage":"note","ranges":[{"offset":-1,"length":1}]}"#, "outOfRange"),
    (#"{"cmd":"track","storage":"note","ranges":[{"offset":20,"length":5}]}"#, "outOfRange"),
    // All or nothing: a good range before a bad one is not tracked either.
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":2},{"offset":24,"length":1}]}"#,
      "outOfRange"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":2},{"offset":3,"length":1}]}"#,
      "splitsSurrogatePair"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":4,"length":3}]}"#, "splitsSurrogatePair"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":6,"length":0}]}"#, "splitsSurrogatePair"
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":3,"length":2}],"unit":"utf8"}"#,
      "outOfRange"
    ),
    // tracked
    (#"{"cmd":"tracked","storage":"nope"}"#, "unknownStorage"),
    (#"{"cmd":"tracked"}"#, "badRequest"),
    (#"{"cmd":"tracked","storage":"note","range":5}"#, "badRequest"),
    (#"{"cmd":"tracked","storage":"note","range":{"offset":1}}"#, "badRequest"),
    (#"{"cmd":"tracked","storage":"note","kind":["spelling"]}"#, "badRequest"),
    (#"{"cmd":"tracked","storage":"note","range":{"offset":0,"length":25}}"#, "outOfRange"),
    (#"{"cmd":"tracked","storage":"note","range":{"offset":0,"length":-1}}"#, "outOfRange"),
    (#"{"cmd":"tracked","storage":"note","range":{"offset":4,"length":0}}"#, "splitsSurrogatePair"),
    (#"{"cmd":"tracked","storage":"note","range":{"offset":0,"length":6}}"#, "splitsSurrogatePair"),
    // untrack: an unknown id among known ones removes none of them.
    (#"{"cmd":"untrack","ids":[4294967297,4294967296]}"#, "unknownTracked"),
    (#"{"cmd":"untrack","ids":[4294967297,8589934593]}"#, "unknownTracked"),
    (#"{"cmd":"untrack","ids":[-1]}"#, "unknownTracked"),
    (#"{"cmd":"untrack"}"#, "badRequest"),
    (#"{"cmd":"untrack","ids":4294967297}"#, "badRequest"),
    (#"{"cmd":"untrack","ids":["4294967297"]}"#, "badRequest"),
    (#"{"cmd":"untrack","ids":[4294967297.5]}"#, "badRequest"),
    (#"{"cmd":"untrack","ids":[1e300]}"#, "badRequest"),
  ]

  @Test func badRequestsAreRefusedWithTheirCodeAndChangeNothing() {
    let session = ProtocolSession()
    _ = session.answer(Self.note)
    #expect(
      session.answer(
        #"{"cmd":"track","storage":"note","ranges":[{"offset":15,"length":3},{"offset":3,"length":4}],"kind":"spelling","expand":"after","bias":"right","onTouch":"remove"}"#
      ) == #"{"ok":true,"ids":[4294967297,4294967298]}"#)
    let before = Self.state(session)
    #expect(before.contains("note 4294967297 15..<18 spelling after right remove"))
    for (request, code) in Self.refused {
      let response = session.answer(request)
      #expect(
        response.hasPrefix(#"{"ok":false,"error":{"code":"\#(code)","message":""#),
        "\(request) → \(response)")
      #expect(Self.state(session) == before, "\(request) changed the document")
    }
    // The next request is answered as if none had come.
    #expect(
      session.answer(#"{"cmd":"track","storage":"note","ranges":[{"offset":3,"length":4}]}"#)
        == #"{"ok":true,"ids":[4294967299]}"#)
  }

  @Test func refusalsSayWhatWasWrong() {
    let session = ProtocolSession()
    _ = session.answer(Self.note)
    let answers = [
      (
        #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"expand":"sideways"}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"unknown expand 'sideways' (none, before, after, both)"}}"#
      ),
      (
        #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":0}],"bias":"up"}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"unknown bias 'up' (left, right)"}}"#
      ),
      (
        #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"onTouch":"drop"}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"unknown onTouch 'drop' (keep, remove)"}}"#
      ),
      (
        #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1}],"onTouch":true}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"'onTouch' must be a string"}}"#
      ),
      (
        #"{"cmd":"track","storage":"note","ranges":[{"offset":0,"length":1},{"length":1}]}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"missing field 'ranges[1].offset'"}}"#
      ),
      (
        #"{"cmd":"untrack","ids":[1,"2"]}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"'ids[1]' must be an integer that fits in 64 bits"}}"#
      ),
      (
        #"{"cmd":"track","storage":"note","ranges":[{"offset":5,"length":1}]}"#,
        #"{"ok":false,"error":{"code":"splitsSurrogatePair","message":"in storage 'note': UTF-16 offset 6 falls inside a surrogate pair"}}"#
      ),
    ]
    for (request, response) in answers {
      #expect(session.answer(request) == response, "\(request)")
    }
  }

  // MARK: The typed layer

  /// The same request as a line of JSON and as human words, and the command
  /// both are.
  static let requests: [(json: String, words: String, command: Command)] = [
    (
      #"{"cmd":"track","storage":"body","ranges":[{"offset":45,"length":3}],"kind":"spelling","onTouch":"remove"}"#,
      "track body 45 3 kind=spelling onTouch=remove",
      .track(
        "body", ranges: [45..<48], unit: .utf16, kind: "spelling",
        rules: TrackingRules(onTouch: .remove))
    ),
    (
      #"{"cmd":"track","storage":"body","ranges":[{"offset":1,"length":2},{"offset":0,"length":0}],"expand":"after","bias":"right"}"#,
      "track body 1 2 expand=after 0 0 bias=right",
      .track(
        "body", ranges: [1..<3, 0..<0], unit: .utf16, kind: "host",
        rules: TrackingRules(expand: .after, bias: .right))
    ),
    (
      #"{"cmd":"tracked","storage":"body"}"#, "tracked body",
      .tracked("body", range: nil, unit: .utf16, kind: nil)
    ),
    (
      #"{"cmd":"tracked","storage":"body","range":{"offset":5,"length":0},"kind":"spelling"}"#,
      "tracked body 5 0 kind=spelling",
      .tracked("body", range: 5..<5, unit: .utf16, kind: "spelling")
    ),
    (
      #"{"cmd":"tracked","storage":"body","kind":"comment"}"#, "tracked body kind=comment",
      .tracked("body", range: nil, unit: .utf16, kind: "comment")
    ),
    (
      #"{"cmd":"untrack","ids":[4294967297,2]}"#, "untrack 4294967297 2",
      .untrack([TrackedRangeID(rawValue: 4_294_967_297), TrackedRangeID(rawValue: 2)])
    ),
  ]

  @Test func jsonAndWordsParseToTheSameCommand() throws {
    for (json, words, expected) in Self.requests {
      #expect(try command(json: json) == expected, "\(json)")
      #expect(try command(words: words) == expected, "\(words)")
    }
    // Units, and the defaults written out.
    #expect(
      try command(
        json:
          #"{"cmd":"track","storage":"b","ranges":[{"offset":1,"length":2}],"unit":"utf8","kind":null,"expand":"none","bias":"left","onTouch":"keep"}"#
      ) == .track("b", ranges: [1..<3], unit: .utf8, kind: "host", rules: TrackingRules()))
    #expect(
      try command(json: #"{"cmd":"tracked","storage":"b","unit":"scalar"}"#)
        == .tracked("b", range: nil, unit: .unicodeScalars, kind: nil))
  }

  @Test(arguments: [
    (
      "track body", "badRequest",
      "usage: track NAME OFFSET LENGTH [OFFSET LENGTH …] [kind=KIND] [expand=E] [bias=B] [onTouch=R]"
    ),
    ("track body 1", "badRequest", "usage: track NAME OFFSET LENGTH"),
    ("track body kind=x", "badRequest", "usage: track NAME"),
    ("track body 1 x", "badRequest", "LENGTH must be a number, not 'x'"),
    ("track body 1 -2", "outOfRange", "offset 1 and length -2 make no range"),
    (
      "track body 1 2 expand=sideways", "badRequest",
      "unknown expand 'sideways' (none, before, after, both)"
    ),
    ("track body 1 2 bias=up", "badRequest", "unknown bias 'up' (left, right)"),
    ("track body 1 2 onTouch=drop", "badRequest", "unknown onTouch 'drop' (keep, remove)"),
    (
      "track body 1 2 color=red", "badRequest",
      "unknown option 'color=red' (kind=, expand=, bias=, onTouch=)"
    ),
    ("tracked", "badRequest", "usage: tracked NAME [OFFSET LENGTH] [kind=KIND]"),
    ("tracked body 1", "badRequest", "usage: tracked NAME"),
    ("tracked body 1 2 3", "badRequest", "usage: tracked NAME"),
    ("tracked body kind=a kind=b", "badRequest", "usage: tracked NAME"),
    ("untrack", "badRequest", "usage: untrack ID [ID …]"),
    ("untrack 1 x", "badRequest", "ID must be a number, not 'x'"),
  ])
  func wordsThatAreNoTrackingCommandAreRefused(words: String, code: String, message: String) {
    let error = parseError { () throws(REPLError) in try command(words: words) }
    #expect(error?.code == code, "\(words)")
    #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
  }

  static let a = TrackedRangeID(rawValue: 4_294_967_297)
  static let b = TrackedRangeID(rawValue: 4_294_967_298)

  /// Replies, their protocol line and their text for a person.
  static let replies: [(reply: Reply, json: String, text: String)] = [
    (
      .tracking("body", ranges: [45..<48, 0..<0], ids: [a, b]),
      #"{"ok":true,"ids":[4294967297,4294967298]}"#,
      "tracked body 45..<48 as 4294967297\ntracked body 0..<0 as 4294967298"
    ),
    (.tracking("body", ranges: [], ids: []), #"{"ok":true,"ids":[]}"#, "tracked nothing"),
    (
      .trackedRanges(
        "body",
        [
          TrackedRangeInfo(
            TrackedRange(
              id: b, storage: "body", range: 0..<0, kind: "bookmark",
              rules: TrackingRules(bias: .right)), text: ""),
          TrackedRangeInfo(
            TrackedRange(
              id: a, storage: "body", range: 4..<50, kind: "comment",
              rules: TrackingRules(expand: .both, onTouch: .remove)),
            text: "a\tline of forty-six units, going on and on…\n"),
        ]),
      #"{"ok":true,"ranges":[{"id":4294967298,"offset":0,"length":0,"kind":"bookmark"},{"id":4294967297,"offset":4,"length":46,"kind":"comment"}]}"#,
      """
        4294967298 bookmark 0..<0 "" bias=right
        4294967297 comment 4..<50 "a⇥line of forty-six units, going on and …" expand=both onTouch=remove
      """
    ),
    (.trackedRanges("body", []), #"{"ok":true,"ranges":[]}"#, "no tracked ranges in body"),
    (.untracked([a, b]), #"{"ok":true}"#, "untracked 4294967297, 4294967298"),
    (
      .edited(
        "body", version: 3, range: 2..<4, events: [],
        tracked: TrackedChanges(touched: [a, b], removed: [TrackedRangeID(rawValue: 7)])),
      #"{"ok":true,"version":3,"range":{"offset":2,"length":2},"events":[],"touched":[4294967297,4294967298],"removed":[7]}"#,
      """
      body is now at version 3; the new text is at 2..<4
        tracked ranges touched: 4294967297, 4294967298
        tracked ranges removed: 7
      """
    ),
    (
      .undone(
        UndoResult(replacementCount: 1, events: [], tracked: TrackedChanges(removed: [a]))),
      #"{"ok":true,"events":[],"removed":[4294967297],"selection":[]}"#,
      "undo done\n  tracked ranges removed: 4294967297"
    ),
    (
      .reverted(
        UndoResult(replacementCount: 2, events: [], tracked: TrackedChanges(touched: [b]))),
      #"{"ok":true,"reverted":2,"events":[],"touched":[4294967298]}"#,
      "reverted 2 replacement(s)\n  tracked ranges touched: 4294967298"
    ),
    (
      .replaced(
        ReplacementResult(
          storage: "body", storageRange: 1..<2, contextVersion: 1, events: [],
          tracked: TrackedChanges(touched: [b])), text: "x"),
      #"{"ok":true,"storage":"body","storageRange":{"offset":1,"length":1},"contextVersion":1,"reason":"noninteractive","events":[],"touched":[4294967298],"text":"x"}"#,
      """
      replaced: body 1..<2, context version 1; the Markdown's text: "x"
        tracked ranges touched: 4294967298
      """
    ),
  ]

  @Test func repliesAreWrittenForProgramsAndForPeople() {
    for (reply, json, text) in Self.replies {
      #expect(JSONWriter.write(reply.json) == json)
      #expect(reply.text(numbering: []) == text)
    }
  }

  // MARK: Human mode

  static let lines = [
    #"add note Hi 👋🏽 there, teh sea.\n"#,
    "track note 15 3 kind=spelling onTouch=remove",
    "track note 8 5 0 2",
    "track note 3 4 expand=both kind=emoji",
    "track note 24 0 bias=right kind=bookmark",
    "track note 4 2",
    "tracked note",
    "tracked note 13 0",
    "show note",
    "edit note 16 2 he",
    "untrack 4294967299 4294967300",
    "show note 0 10",
    "untrack 4294967299",
    "tracked note kind=spelling",
  ]

  @Test func humanModeTracksListsAndShowsRanges() {
    let human = HumanMode(engine: REPLEngine())
    let outputs = Self.lines.map { human.run($0).output }
    #expect(
      outputs == [
        "added note: 24 units, version 0",
        "tracked note 15..<18 as 4294967297",
        "tracked note 8..<13 as 4294967298\ntracked note 0..<2 as 4294967299",
        "tracked note 3..<7 as 4294967300",
        "tracked note 24..<24 as 4294967301",
        "error (splitsSurrogatePair): in storage 'note': UTF-16 offset 4 falls inside a surrogate "
          + "pair",
        """
          4294967299 host 0..<2 "Hi"
          4294967300 emoji 3..<7 "👋🏽" expand=both
          4294967298 host 8..<13 "there"
          4294967297 spelling 15..<18 "teh" onTouch=remove
          4294967301 bookmark 24..<24 "" bias=right
        """,
        #"  4294967298 host 8..<13 "there""#,
        """
        ⟦Hi⟧ ⟦👋🏽⟧ ⟦there⟧, ⟦teh⟧ sea.
        ⟦⟧
        (version 0; tracked: 5 ranges in ⟦ ⟧)
        """,
        "note is now at version 1; the new text is at 16..<18\n"
          + "  tracked ranges removed: 4294967297",
        "untracked 4294967299, 4294967300",
        // A part shows the ranges over it, cut to it.
        """
        Hi 👋🏽 ⟦th⟧
        (version 1; tracked: 1 range in ⟦ ⟧)
        """,
        "error (unknownTracked): no tracked range has the id 4294967299",
        "no tracked ranges in note",
      ])
  }

  @Test func overlappingRangesNestOrAreNumbered() {
    let human = HumanMode(engine: REPLEngine())
    _ = human.run(#"add x One two three\n"#)
    // Two ranges that cross, one inside both, an empty one.
    _ = human.run("track x 0 7 4 9 4 3 8 0")
    #expect(
      human.run("show x").output == """
        ⟦₁One ⟦₂⟦two⟧⟧₁ ⟦⟧three⟧₂

        (version 0; tracked: 4 ranges in ⟦ ⟧, ₁ is 4294967297, ₂ is 4294967298)
        """)
    // Without the crossing ones, the others nest, unnumbered; equal ranges
    // too, and ranges that meet.
    _ = human.run("untrack 4294967297 4294967298")
    _ = human.run("track x 4 3 0 4 7 6")
    #expect(
      human.run("show x").output == """
        ⟦One ⟧⟦⟦two⟧⟧⟦ ⟦⟧three⟧

        (version 0; tracked: 5 ranges in ⟦ ⟧)
        """)
    // Cut by a part, a crossing range still crosses the one it crossed.
    _ = human.run("track x 2 4")
    #expect(
      human.run("show x 1 6").output == """
        ⟦₁n⟦₂e ⟧₁⟦₃⟦₄tw⟧₂o⟧₄⟧₃
        (version 0; tracked: 4 ranges in ⟦ ⟧, ₁ is 4294967302, ₂ is 4294967304, ₃ is 4294967299, ₄ is 4294967301)
        """)
  }

  @Test func onATerminalTrackedTextIsUnderlined() {
    let human = HumanMode(engine: REPLEngine(), styled: true)
    _ = human.run(#"add x Go to Lisbon now.\nBye\n"#)
    _ = human.run("link x 6 6 u")
    // One range ends inside the link, one starts inside it and goes on
    // past a line break, one is empty.
    _ = human.run("track x 3 6 10 10 21 0")
    #expect(
      human.run("show x").output
        == "Go \u{1B}[4mto \u{1B}[24m\u{1B}[4m\u{1B}[4mLisb\u{1B}[4mon\u{1B}[24m⟨u⟩\u{1B}[4m now."
        + "\u{1B}[0m\n\u{1B}[4mBy\u{1B}[24me⟦⟧\n\n"
        + "(version 0; tracked: 3 ranges underlined, an empty one as ⟦⟧)")
    // Ranges that overlap or meet are one underline.
    _ = human.run("add y abcdef")
    _ = human.run("track y 0 2 2 2 1 4")
    #expect(
      human.run("show y").output
        == "\u{1B}[4mabcde\u{1B}[24mf\n(version 0; tracked: 3 ranges underlined)")
    // Without tracked ranges, as before.
    _ = human.run("add z abc")
    #expect(human.run("show z").output == "abc\n(version 0)")
  }

  @Test func helpListsTheTrackingCommands() {
    for command in ["track NAME", "tracked NAME", "untrack ID"] {
      #expect(HumanMode.help.contains("\n  \(command)"), "\(command)")
    }
    #expect(HumanMode.help.contains("e.g. track body 45 3 kind=spelling onTouch=remove"))
  }

  static let input = """
    track body 45 3 kind=spelling onTouch=remove
    track body 3 4
    show body 0 64
    edit body 46 1 h
    tracked body
    quit

    """

  static let expected = """
    scope-repl — Writing Tools contexts on a multi-storage document. Type 'help'.
    The sample document (a title, a body in several scripts, excluded code):
      title: 17 units, version 0  A travel journal⏎
      body: 291 units, version 0  We left Lisbon at dawn; the sea was calm…
      code: 55 units, version 0  let route = ["Lisbon", "Athens", "Tokyo"…  (excluded: 0..<55)
    tracked body 45..<48 as 8589934593
    tracked body 3..<7 as 8589934594
    We ⟦left⟧ Lisbon at dawn; the sea was calm and ⟦teh⟧ sky was clear.

    (version 0; tracked: 2 ranges in ⟦ ⟧)
    body is now at version 1; the new text is at 46..<47
      tracked ranges removed: 8589934593
      8589934594 host 3..<7 "left"
    bye

    """

  @Test func throughAPipeTrackedRangesAreMarkedWithText() throws {
    let lines = try REPL.expectTranscript(input: Self.input, expected: Self.expected)
    #expect(!lines.joined().contains("\u{1B}"))
  }
}
