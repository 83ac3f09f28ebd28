import DocumentEngine
import Foundation
import ScopeREPLCore
import Testing

/// The protocol's suggestion rows (PROTOCOL.md, *Tracked ranges,
/// suggestions and history*): `suggest`, `suggestions`, `preview`,
/// `accept`, `reject`, the codes `unknownSuggestion` and `ignored`, the
/// reasons of events and replies, and the `touched` and `removed` fields
/// of a review, exactly; refused requests; and human mode's review
/// commands and `show`.
@Suite struct ScopeREPLReviewTests {
  // MARK: Every row, exactly

  /// "Notes\nHi 👋🏽 there, teh sea.\n": the emoji and its skin tone are
  /// two surrogate pairs, UTF-16 9..<11 and 11..<13; "teh" is 21..<24. The
  /// storage is the first, so ids are 2^32 + 1, 2^32 + 2… (a session's
  /// context takes two of them).
  static let note = #"{"cmd":"add","storage":"note","text":"Notes\nHi 👋🏽 there, teh sea.\n"}"#

  /// The candidates of the spelling suggestion, as `suggestions` writes
  /// them: plain text, text with runs, and Markdown read into both.
  static let spelling =
    #""kind":"spelling","explanation":"Possible spelling mistake","candidates":[{"text":"the","attributes":[]},{"text":"tea","attributes":[{"offset":0,"length":3,"attributes":{"inlinePresentationIntent":["emphasized"]}}]},{"text":"thé","attributes":[{"offset":0,"length":3,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}}]}]"#
  static let comma =
    #""kind":"grammar","explanation":"Remove the comma","candidates":[{"text":"there","attributes":[]}]"#

  /// A session through every row, each request with its response.
  static let session: [(request: String, response: String)] = [
    (note, #"{"ok":true,"storage":"note","length":30,"version":0}"#),
    // A candidate is a string, text with runs, or Markdown.
    (
      #"{"cmd":"suggest","storage":"note","offset":21,"length":3,"kind":"spelling","explanation":"Possible spelling mistake","candidates":["the",{"text":"tea","attributes":[{"offset":0,"length":3,"attributes":{"inlinePresentationIntent":["emphasized"]}}]},{"markdown":"**thé**"}]}"#,
      #"{"ok":true,"id":4294967297}"#
    ),
    // A finding with nothing to propose, and no explanation.
    (
      #"{"cmd":"suggest","storage":"note","offset":0,"length":5,"kind":"style","candidates":[]}"#,
      #"{"ok":true,"id":4294967298}"#
    ),
    // A host's comment over "teh sea": the review's changes touch it.
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":21,"length":7}],"kind":"comment"}"#,
      #"{"ok":true,"ids":[4294967299]}"#
    ),
    // All of a storage's, in position order; those overlapping a range,
    // or touching a point.
    (
      #"{"cmd":"suggestions","storage":"note"}"#,
      #"{"ok":true,"suggestions":[{"id":4294967298,"offset":0,"length":5,"kind":"style","explanation":"","candidates":[]},{"id":4294967297,"offset":21,"length":3,\#(spelling)}]}"#
    ),
    (
      #"{"cmd":"suggestions","storage":"note","range":{"offset":20,"length":2}}"#,
      #"{"ok":true,"suggestions":[{"id":4294967297,"offset":21,"length":3,\#(spelling)}]}"#
    ),
    (
      #"{"cmd":"suggestions","storage":"note","range":{"offset":24,"length":0}}"#,
      #"{"ok":true,"suggestions":[{"id":4294967297,"offset":21,"length":3,\#(spelling)}]}"#
    ),
    (
      #"{"cmd":"suggestions","storage":"note","range":{"offset":6,"length":10}}"#,
      #"{"ok":true,"suggestions":[]}"#
    ),
    (#"{"cmd":"select","ranges":[{"storage":"note","offset":21,"length":3}]}"#, #"{"ok":true}"#),
    (
      #"{"cmd":"contexts","scope":"userSelection"}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"note","storageRange":{"offset":6,"length":24},"text":"Hi 👋🏽 there, teh sea.\n","range":{"offset":15,"length":3},"excluded":[],"version":0,"contextVersion":0,"attributes":[]}]}"#
    ),
    // In a context: its offsets are relative to its text ("there," is
    // 8..<14 there, 14..<20 in the storage).
    (
      #"{"cmd":"suggest","context":"$1","offset":8,"length":6,"kind":"grammar","explanation":"Remove the comma","candidates":[{"text":"there","attributes":[]}]}"#,
      #"{"ok":true,"id":4294967302}"#
    ),
    // A context's suggestions: those inside it, relative to its text.
    (
      #"{"cmd":"suggestions","context":"$1"}"#,
      #"{"ok":true,"suggestions":[{"id":4294967302,"offset":8,"length":6,\#(comma)},{"id":4294967297,"offset":15,"length":3,\#(spelling)}]}"#
    ),
    // A preview: the context hears it, the comment is touched.
    (
      #"{"cmd":"preview","suggestion":4294967297,"candidate":1}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":21,"length":3},"reason":"temporary","events":[{"kind":"textUpdated","context":"$1","range":{"offset":15,"length":3},"text":"tea","contextVersion":1,"reason":"temporary"}],"touched":[4294967299]}"#
    ),
    (
      #"{"cmd":"suggestions","storage":"note","range":{"offset":21,"length":3}}"#,
      #"{"ok":true,"suggestions":[{"id":4294967297,"offset":21,"length":3,\#(spelling),"previewed":1}]}"#
    ),
    (
      #"{"cmd":"text","storage":"note","attributes":true}"#,
      #"{"ok":true,"text":"Notes\nHi 👋🏽 there, tea sea.\n","version":1,"attributes":[{"offset":21,"length":3,"attributes":{"inlinePresentationIntent":["emphasized"]}}]}"#
    ),
    // The same preview again changes nothing.
    (
      #"{"cmd":"preview","suggestion":4294967297,"candidate":1}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":21,"length":3},"reason":"temporary","events":[]}"#
    ),
    // Accepting another candidate than the previewed one.
    (
      #"{"cmd":"accept","suggestion":4294967297,"candidate":2}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":21,"length":3},"reason":"accepted","events":[{"kind":"textUpdated","context":"$1","range":{"offset":15,"length":3},"text":"thé","contextVersion":2,"reason":"accepted"}],"touched":[4294967299]}"#
    ),
    (
      #"{"cmd":"text","storage":"note","attributes":true}"#,
      #"{"ok":true,"text":"Notes\nHi 👋🏽 there, thé sea.\n","version":2,"attributes":[{"offset":21,"length":3,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}}]}"#
    ),
    (
      #"{"cmd":"suggestions","storage":"note"}"#,
      #"{"ok":true,"suggestions":[{"id":4294967298,"offset":0,"length":5,"kind":"style","explanation":"","candidates":[]},{"id":4294967302,"offset":14,"length":6,\#(comma)}]}"#
    ),
    // Undo gives the text back, attributes and all, by the history's rule
    // (the text the accept replaced goes back before its units, which go),
    // and the document's selection: still on "teh". The comment's start was
    // in the text the preview replaced: it is restored there, as after an
    // accept without a preview.
    (
      #"{"cmd":"undo"}"#,
      #"{"ok":true,"events":[{"kind":"textUpdated","context":"$1","range":{"offset":15,"length":0},"text":"teh","contextVersion":3,"reason":"undoRedo"},{"kind":"textUpdated","context":"$1","range":{"offset":18,"length":3},"text":"","contextVersion":4,"reason":"undoRedo"}],"touched":[4294967299],"restored":[4294967299],"selection":[{"storage":"note","offset":21,"length":3}]}"#
    ),
    (
      #"{"cmd":"text","storage":"note","attributes":true}"#,
      #"{"ok":true,"text":"Notes\nHi 👋🏽 there, teh sea.\n","version":4,"attributes":[]}"#
    ),
    // A reject without a preview changes no text; the same kind over the
    // same text is ignored from then on, another kind is not.
    (
      #"{"cmd":"reject","suggestion":4294967302}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":14,"length":6},"reason":"rejected","events":[]}"#
    ),
    (
      #"{"cmd":"suggest","context":"$1","offset":8,"length":6,"kind":"grammar","candidates":["there"]}"#,
      #"{"ok":false,"error":{"code":"ignored","message":"a grammar suggestion over \"there,\" was rejected before and is ignored"}}"#
    ),
    (
      #"{"cmd":"suggest","storage":"note","offset":14,"length":6,"kind":"style","candidates":["there"]}"#,
      #"{"ok":true,"id":4294967304}"#
    ),
    // Accepted, rejected: gone.
    (
      #"{"cmd":"accept","suggestion":4294967297}"#,
      #"{"ok":false,"error":{"code":"unknownSuggestion","message":"no suggestion has the id 4294967297"}}"#
    ),
    (
      #"{"cmd":"reject","suggestion":4294967302}"#,
      #"{"ok":false,"error":{"code":"unknownSuggestion","message":"no suggestion has the id 4294967302"}}"#
    ),
    (
      #"{"cmd":"suggestions","context":"$1"}"#,
      #"{"ok":true,"suggestions":[{"id":4294967304,"offset":8,"length":6,"kind":"style","explanation":"","candidates":[{"text":"there","attributes":[]}]}]}"#
    ),
  ]

  @Test func everyRowAnswersExactly() {
    let session = ProtocolSession()
    for (i, (request, response)) in Self.session.enumerated() {
      #expect(session.answer(request) == response, "request \(i + 1): \(request)")
    }
  }

  /// Each storage's text and runs, without its version (a preview and its
  /// reject are two edits).
  static func texts(_ session: ProtocolSession) -> String {
    let content = session.engine.document.content
    return content.order.compactMap { id in
      (try? content.storage(id)).map {
        "\(id) \(String($0.text).debugDescription) "
          + JSONWriter.write(AttributesJSON.json($0.attributeRuns(in: 0..<$0.length)))
      }
    }.joined(separator: "\n")
  }

  @Test func aSpellingSuggestionIsPreviewedAcceptedAndUndone() {
    let session = ProtocolSession()
    _ = session.answer(
      #"{"cmd":"add","storage":"note","text":"Notes\nHi 👋🏽 there, teh sea.\n","attributes":[{"offset":21,"length":3,"attributes":{"inlinePresentationIntent":["emphasized"],"draft":true}}]}"#
    )
    let before = Self.texts(session)
    #expect(
      session.answer(
        #"{"cmd":"suggest","storage":"note","offset":21,"length":3,"kind":"spelling","candidates":["the","tea"]}"#
      ) == #"{"ok":true,"id":4294967297}"#)
    _ = session.answer(#"{"cmd":"select","ranges":[{"storage":"note","offset":21,"length":3}]}"#)
    _ = session.answer(#"{"cmd":"contexts","scope":"userSelection"}"#)
    // In the storage's coordinates and in the context's.
    let candidates =
      #""kind":"spelling","explanation":"","candidates":[{"text":"the","attributes":[]},{"text":"tea","attributes":[]}]"#
    #expect(
      session.answer(#"{"cmd":"suggestions","storage":"note"}"#)
        == #"{"ok":true,"suggestions":[{"id":4294967297,"offset":21,"length":3,\#(candidates)}]}"#)
    #expect(
      session.answer(#"{"cmd":"suggestions","context":"$1"}"#)
        == #"{"ok":true,"suggestions":[{"id":4294967297,"offset":15,"length":3,\#(candidates)}]}"#)
    // A plain candidate takes the attributes of the text it replaces.
    #expect(
      session.answer(#"{"cmd":"preview","suggestion":4294967297,"candidate":1}"#)
        == #"{"ok":true,"storage":"note","storageRange":{"offset":21,"length":3},"reason":"temporary","events":[{"kind":"textUpdated","context":"$1","range":{"offset":15,"length":3},"text":"tea","contextVersion":1,"reason":"temporary"}]}"#
    )
    #expect(
      session.answer(#"{"cmd":"accept","suggestion":4294967297}"#)
        == #"{"ok":true,"storage":"note","storageRange":{"offset":21,"length":3},"reason":"accepted","events":[]}"#
    )
    #expect(
      session.answer(#"{"cmd":"text","storage":"note","attributes":true}"#)
        == #"{"ok":true,"text":"Notes\nHi 👋🏽 there, tea sea.\n","version":1,"attributes":[{"offset":21,"length":3,"attributes":{"draft":true,"inlinePresentationIntent":["emphasized"]}}]}"#
    )
    #expect(
      session.answer(#"{"cmd":"undo"}"#)
        == #"{"ok":true,"events":[{"kind":"textUpdated","context":"$1","range":{"offset":15,"length":0},"text":"teh","contextVersion":2,"reason":"undoRedo"},{"kind":"textUpdated","context":"$1","range":{"offset":18,"length":3},"text":"","contextVersion":3,"reason":"undoRedo"}],"selection":[{"storage":"note","offset":21,"length":3}]}"#
    )
    #expect(Self.texts(session) == before)
    #expect(
      session.answer(#"{"cmd":"redo"}"#)
        == #"{"ok":true,"events":[{"kind":"textUpdated","context":"$1","range":{"offset":18,"length":0},"text":"tea","contextVersion":4,"reason":"undoRedo"},{"kind":"textUpdated","context":"$1","range":{"offset":15,"length":3},"text":"","contextVersion":5,"reason":"undoRedo"}],"selection":[{"storage":"note","offset":24,"length":0}]}"#
    )
    #expect(session.answer(#"{"cmd":"undo"}"#).hasPrefix(#"{"ok":true,"events":[{"#))
    #expect(Self.texts(session) == before)
  }

  @Test func aRejectAfterAPreviewGivesTheTextBackExactly() {
    let session = ProtocolSession()
    _ = session.answer(
      #"{"cmd":"add","storage":"note","text":"Notes\nHi 👋🏽 there, teh sea.\n","attributes":[{"offset":21,"length":3,"attributes":{"inlinePresentationIntent":["emphasized"],"draft":true}}]}"#
    )
    let before = Self.texts(session)
    #expect(
      session.answer(
        #"{"cmd":"suggest","storage":"note","offset":21,"length":3,"kind":"spelling","candidates":["the",{"markdown":"**the**"}]}"#
      ) == #"{"ok":true,"id":4294967297}"#)
    _ = session.answer(#"{"cmd":"select","ranges":[{"storage":"note","offset":21,"length":3}]}"#)
    _ = session.answer(#"{"cmd":"contexts","scope":"userSelection"}"#)
    // The Markdown candidate brings its own attributes, in place of those
    // there.
    #expect(
      session.answer(#"{"cmd":"preview","suggestion":4294967297,"candidate":1}"#)
        == #"{"ok":true,"storage":"note","storageRange":{"offset":21,"length":3},"reason":"temporary","events":[{"kind":"textUpdated","context":"$1","range":{"offset":15,"length":3},"text":"the","contextVersion":1,"reason":"temporary"}]}"#
    )
    #expect(
      session.answer(#"{"cmd":"text","storage":"note","attributes":true}"#)
        == #"{"ok":true,"text":"Notes\nHi 👋🏽 there, the sea.\n","version":1,"attributes":[{"offset":21,"length":3,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}}]}"#
    )
    #expect(
      session.answer(#"{"cmd":"reject","suggestion":4294967297}"#)
        == #"{"ok":true,"storage":"note","storageRange":{"offset":21,"length":3},"reason":"rejected","events":[{"kind":"textUpdated","context":"$1","range":{"offset":15,"length":3},"text":"teh","contextVersion":2,"reason":"rejected"}]}"#
    )
    #expect(Self.texts(session) == before)
    // Rejected: the same kind over the same text is ignored, in the
    // storage or in the context; another kind, or other text, is not.
    let ignored =
      #"{"ok":false,"error":{"code":"ignored","message":"a spelling suggestion over \"teh\" was rejected before and is ignored"}}"#
    #expect(
      session.answer(
        #"{"cmd":"suggest","storage":"note","offset":21,"length":3,"kind":"spelling","candidates":["tea"]}"#
      ) == ignored)
    #expect(
      session.answer(
        #"{"cmd":"suggest","context":"$1","offset":15,"length":3,"kind":"spelling","explanation":"again","candidates":[]}"#
      ) == ignored)
    #expect(Self.texts(session) == before)
    #expect(
      session.answer(
        #"{"cmd":"suggest","storage":"note","offset":21,"length":3,"kind":"grammar","candidates":["tea"]}"#
      ) == #"{"ok":true,"id":4294967300}"#)
    #expect(
      session.answer(
        #"{"cmd":"suggest","storage":"note","offset":21,"length":2,"kind":"spelling","candidates":["te"]}"#
      ) == #"{"ok":true,"id":4294967301}"#)
  }

  /// An edit of a suggestion's text removes it, an insertion at its end
  /// does not; an accept removes the suggestions its text touches, and a
  /// tool's replacement those it touches.
  static let changes: [(request: String, response: String)] = [
    (note, #"{"ok":true,"storage":"note","length":30,"version":0}"#),
    (
      #"{"cmd":"suggest","storage":"note","offset":21,"length":3,"kind":"spelling","candidates":["the"]}"#,
      #"{"ok":true,"id":4294967297}"#
    ),
    (
      #"{"cmd":"track","storage":"note","ranges":[{"offset":15,"length":13}],"kind":"comment"}"#,
      #"{"ok":true,"ids":[4294967298]}"#
    ),
    (
      #"{"cmd":"suggest","storage":"note","offset":25,"length":3,"kind":"style","candidates":["ocean"]}"#,
      #"{"ok":true,"id":4294967299}"#
    ),
    (
      #"{"cmd":"edit","storage":"note","offset":22,"length":2,"text":"he"}"#,
      #"{"ok":true,"version":1,"range":{"offset":22,"length":2},"events":[],"touched":[4294967298],"removed":[4294967297]}"#
    ),
    (
      #"{"cmd":"edit","storage":"note","offset":28,"length":0,"text":"s"}"#,
      #"{"ok":true,"version":2,"range":{"offset":28,"length":1},"events":[]}"#
    ),
    (
      #"{"cmd":"suggestions","storage":"note"}"#,
      #"{"ok":true,"suggestions":[{"id":4294967299,"offset":25,"length":3,"kind":"style","explanation":"","candidates":[{"text":"ocean","attributes":[]}]}]}"#
    ),
    (
      #"{"cmd":"suggest","storage":"note","offset":21,"length":3,"kind":"spelling","candidates":["The"]}"#,
      #"{"ok":true,"id":4294967300}"#
    ),
    (
      #"{"cmd":"suggest","storage":"note","offset":19,"length":5,"kind":"grammar","candidates":["the"]}"#,
      #"{"ok":true,"id":4294967301}"#
    ),
    (
      #"{"cmd":"accept","suggestion":4294967300}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":21,"length":3},"reason":"accepted","events":[],"touched":[4294967298],"removed":[4294967301]}"#
    ),
    (#"{"cmd":"select","ranges":[{"storage":"note","offset":25,"length":4}]}"#, #"{"ok":true}"#),
    (
      #"{"cmd":"contexts","scope":"userSelection"}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"note","storageRange":{"offset":6,"length":25},"text":"Hi 👋🏽 there, The seas.\n","range":{"offset":19,"length":4},"excluded":[],"version":3,"contextVersion":0,"attributes":[]}]}"#
    ),
    (
      #"{"cmd":"replace","context":"$1","offset":19,"length":4,"text":"ocean"}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":25,"length":5},"contextVersion":1,"reason":"noninteractive","events":[],"touched":[4294967298],"removed":[4294967299]}"#
    ),
    (#"{"cmd":"suggestions","storage":"note"}"#, #"{"ok":true,"suggestions":[]}"#),
    // Reasons: a replacement while the session is interactive; the
    // person's and a peer's edits are typing.
    (
      #"{"cmd":"state","state":"interactiveResting"}"#, #"{"ok":true,"state":"interactiveResting"}"#
    ),
    (
      #"{"cmd":"replace","context":"$1","offset":0,"length":2,"text":"Yo"}"#,
      #"{"ok":true,"storage":"note","storageRange":{"offset":6,"length":2},"contextVersion":2,"reason":"interactive","events":[]}"#
    ),
    (
      #"{"cmd":"edit","storage":"note","offset":6,"length":2,"text":"Hey"}"#,
      #"{"ok":true,"version":6,"range":{"offset":6,"length":3},"events":[{"kind":"textUpdated","context":"$1","range":{"offset":0,"length":2},"text":"Hey","contextVersion":3,"reason":"typing"}]}"#
    ),
    (
      #"{"cmd":"edit","storage":"note","offset":31,"length":0,"text":"!","origin":"peer","basis":6}"#,
      #"{"ok":true,"version":7,"range":{"offset":31,"length":1},"events":[{"kind":"textUpdated","context":"$1","range":{"offset":25,"length":0},"text":"!","contextVersion":4,"reason":"typing"}]}"#
    ),
    (
      #"{"cmd":"edit","storage":"note","offset":9,"length":0,"text":"Ho","origin":"peer","basis":6}"#,
      #"{"ok":true,"version":8,"range":{"offset":9,"length":2},"events":[{"kind":"textUpdated","context":"$1","range":{"offset":3,"length":0},"text":"Ho","contextVersion":5,"reason":"typing"}]}"#
    ),
  ]

  @Test func changesTellTheSuggestionsTheyTouchedAndRemoved() {
    let session = ProtocolSession()
    for (i, (request, response)) in Self.changes.enumerated() {
      #expect(session.answer(request) == response, "request \(i + 1): \(request)")
    }
  }

  // MARK: Refused requests change nothing

  /// Everything a refused request must leave as it was: the document (as
  /// ``ProtocolSession/state`` has it), every storage's host ranges and
  /// suggestions (with their candidates and previews).
  static func state(_ session: ProtocolSession) -> String {
    let document = session.engine.document
    var lines = [session.state]
    for id in document.content.order {
      for tracked in (try? document.trackedRanges(in: id)) ?? [] {
        lines.append("tracked \(tracked)")
      }
      for suggestion in (try? document.suggestions(in: id)) ?? [] {
        lines.append("suggestion \(suggestion)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// Suggestion 4294967297 over "teh", its candidate 0 previewed; host
  /// range 4294967298; a style suggestion over "Notes" rejected; a live
  /// context `$1` over the second paragraph.
  static let setUp: [String] = [
    note,
    #"{"cmd":"suggest","storage":"note","offset":21,"length":3,"kind":"spelling","candidates":["the","tea"]}"#,
    #"{"cmd":"track","storage":"note","ranges":[{"offset":15,"length":13}]}"#,
    #"{"cmd":"suggest","storage":"note","offset":0,"length":5,"kind":"style","candidates":["NOTES"]}"#,
    #"{"cmd":"reject","suggestion":4294967299}"#,
    #"{"cmd":"select","ranges":[{"storage":"note","offset":21,"length":3}]}"#,
    #"{"cmd":"contexts","scope":"userSelection"}"#,
    #"{"cmd":"preview","suggestion":4294967297,"candidate":0}"#,
  ]

  static let suggest = #""cmd":"suggest","storage":"note","offset":21,"length":3"#

  static let refused: [(request: String, code: String)] = [
    // An id that is no suggestion: never given, a host range's, rejected,
    // of another storage, negative.
    (#"{"cmd":"preview","suggestion":1,"candidate":0}"#, "unknownSuggestion"),
    (#"{"cmd":"preview","suggestion":4294967296,"candidate":0}"#, "unknownSuggestion"),
    (#"{"cmd":"accept","suggestion":4294967298}"#, "unknownSuggestion"),
    (#"{"cmd":"reject","suggestion":4294967299}"#, "unknownSuggestion"),
    (#"{"cmd":"reject","suggestion":8589934593}"#, "unknownSuggestion"),
    (#"{"cmd":"accept","suggestion":-1,"candidate":0}"#, "unknownSuggestion"),
    // A candidate the suggestion does not have.
    (#"{"cmd":"preview","suggestion":4294967297,"candidate":2}"#, "outOfRange"),
    (#"{"cmd":"preview","suggestion":4294967297,"candidate":-1}"#, "outOfRange"),
    (
      #"{"cmd":"preview","suggestion":4294967297,"candidate":9223372036854775807}"#, "outOfRange"
    ),
    (#"{"cmd":"accept","suggestion":4294967297,"candidate":5}"#, "outOfRange"),
    // Missing fields, and fields of the wrong type.
    (#"{\#(suggest),"candidates":["the"]}"#, "badRequest"),
    (#"{\#(suggest),"kind":"spelling"}"#, "badRequest"),
    (
      #"{"cmd":"suggest","storage":"note","offset":21,"kind":"spelling","candidates":[]}"#,
      "badRequest"
    ),
    (
      #"{"cmd":"suggest","offset":21,"length":3,"kind":"spelling","candidates":[]}"#, "badRequest"
    ),
    (#"{\#(suggest),"context":"$1","kind":"spelling","candidates":[]}"#, "badRequest"),
    (#"{\#(suggest),"kind":5,"candidates":[]}"#, "badRequest"),
    (#"{\#(suggest),"kind":"spelling","explanation":5,"candidates":[]}"#, "badRequest"),
    (#"{\#(suggest),"kind":"spelling","candidates":"the"}"#, "badRequest"),
    (#"{\#(suggest),"kind":"spelling","candidates":[5]}"#, "badRequest"),
    (#"{\#(suggest),"kind":"spelling","candidates":[null]}"#, "badRequest"),
    (#"{\#(suggest),"kind":"spelling","candidates":[["the"]]}"#, "badRequest"),
    (#"{\#(suggest),"kind":"spelling","candidates":[{}]}"#, "badRequest"),
    (#"{\#(suggest),"kind":"spelling","candidates":[{"text":5}]}"#, "badRequest"),
    (
      #"{\#(suggest),"kind":"spelling","candidates":[{"text":"the","markdown":"the"}]}"#,
      "badRequest"
    ),
    (
      #"{\#(suggest),"kind":"spelling","candidates":[{"markdown":"the","attributes":[]}]}"#,
      "badRequest"
    ),
    (
      #"{\#(suggest),"kind":"spelling","candidates":[{"text":"the","attributes":{}}]}"#,
      "badRequest"
    ),
    (#"{\#(suggest),"kind":"spelling","candidates":[],"unit":"utf8"}"#, "badRequest"),
    (#"{\#(suggest),"kind":"spelling","candidates":[],"unit":"scalar"}"#, "badRequest"),
    (#"{"cmd":"suggestions"}"#, "badRequest"),
    (#"{"cmd":"suggestions","storage":"note","context":"$1"}"#, "badRequest"),
    (
      #"{"cmd":"suggestions","context":"$1","range":{"offset":0,"length":1}}"#, "badRequest"
    ),
    (#"{"cmd":"suggestions","storage":"note","range":5}"#, "badRequest"),
    (#"{"cmd":"suggestions","storage":"note","unit":"utf8"}"#, "badRequest"),
    (#"{"cmd":"preview","suggestion":4294967297}"#, "badRequest"),
    (#"{"cmd":"preview","candidate":0}"#, "badRequest"),
    (#"{"cmd":"preview","suggestion":"4294967297","candidate":0}"#, "badRequest"),
    (#"{"cmd":"preview","suggestion":4294967297.5,"candidate":0}"#, "badRequest"),
    (#"{"cmd":"preview","suggestion":4294967297,"candidate":0.5}"#, "badRequest"),
    (#"{"cmd":"accept"}"#, "badRequest"),
    (#"{"cmd":"accept","suggestion":4294967297,"candidate":"1"}"#, "badRequest"),
    (#"{"cmd":"reject"}"#, "badRequest"),
    (#"{"cmd":"reject","suggestion":null}"#, "badRequest"),
    (#"{"cmd":"reject","suggestion":[4294967297]}"#, "badRequest"),
    // Runs the engine refuses: past the candidate's text, negative,
    // overlapping, a value a key does not take.
    (
      #"{\#(suggest),"kind":"spelling","candidates":[{"text":"the","attributes":[{"offset":0,"length":4,"attributes":{"link":"x"}}]}]}"#,
      "outOfRange"
    ),
    (
      #"{\#(suggest),"kind":"spelling","candidates":["ok",{"text":"the","attributes":[{"offset":3,"length":1,"attributes":{"link":"x"}}]}]}"#,
      "outOfRange"
    ),
    (
      #"{\#(suggest),"kind":"spelling","candidates":[{"text":"the","attributes":[{"offset":-1,"length":1,"attributes":{"link":"x"}}]}]}"#,
      "outOfRange"
    ),
    (
      #"{\#(suggest),"kind":"spelling","candidates":[{"text":"the","attributes":[{"offset":0,"length":2,"attributes":{"link":"x"}},{"offset":1,"length":2,"attributes":{"link":"y"}}]}]}"#,
      "badRequest"
    ),
    (
      #"{\#(suggest),"kind":"spelling","candidates":[{"text":"the","attributes":[{"offset":0,"length":1,"attributes":{"inlinePresentationIntent":["loud"]}}]}]}"#,
      "badRequest"
    ),
    (
      #"{\#(suggest),"kind":"spelling","candidates":[{"text":"👋","attributes":[{"offset":0,"length":1,"attributes":{"link":"x"}}]}]}"#,
      "splitsSurrogatePair"
    ),
    // Ranges: splitting a surrogate pair, out of bounds, outside the
    // context, in an unknown storage or context.
    (
      #"{"cmd":"suggest","storage":"note","offset":10,"length":3,"kind":"spelling","candidates":[]}"#,
      "splitsSurrogatePair"
    ),
    (
      #"{"cmd":"suggest","storage":"note","offset":9,"length":1,"kind":"spelling","candidates":[]}"#,
      "splitsSurrogatePair"
    ),
    (
      #"{"cmd":"suggest","context":"$1","offset":4,"length":2,"kind":"spelling","candidates":[]}"#,
      "splitsSurrogatePair"
    ),
    (
      #"{"cmd":"suggestions","storage":"note","range":{"offset":10,"length":0}}"#,
      "splitsSurrogatePair"
    ),
    (
      #"{"cmd":"suggest","storage":"note","offset":30,"length":1,"kind":"spelling","candidates":[]}"#,
      "outOfRange"
    ),
    (
      #"{"cmd":"suggest","storage":"note","offset":-1,"length":1,"kind":"spelling","candidates":[]}"#,
      "outOfRange"
    ),
    (
      #"{"cmd":"suggest","storage":"note","offset":1,"length":-1,"kind":"spelling","candidates":[]}"#,
      "outOfRange"
    ),
    (
      #"{"cmd":"suggest","context":"$1","offset":20,"length":5,"kind":"spelling","candidates":[]}"#,
      "outOfRange"
    ),
    (#"{"cmd":"suggestions","storage":"note","range":{"offset":0,"length":31}}"#, "outOfRange"),
    (
      #"{"cmd":"suggest","storage":"nope","offset":0,"length":1,"kind":"spelling","candidates":[]}"#,
      "unknownStorage"
    ),
    (#"{"cmd":"suggestions","storage":"nope"}"#, "unknownStorage"),
    (
      #"{"cmd":"suggest","context":"nope","offset":0,"length":1,"kind":"spelling","candidates":[]}"#,
      "unknownContext"
    ),
    (
      #"{"cmd":"suggestions","context":"9F1C0000-0000-4000-8000-000000000001"}"#,
      "unknownContext"
    ),
    // Rejected before.
    (
      #"{"cmd":"suggest","storage":"note","offset":0,"length":5,"kind":"style","candidates":["N"]}"#,
      "ignored"
    ),
  ]

  @Test func badRequestsAreRefusedWithTheirCodeAndChangeNothing() {
    let session = ProtocolSession()
    for request in Self.setUp {
      #expect(session.answer(request).hasPrefix(#"{"ok":true"#), "\(request)")
    }
    let before = Self.state(session)
    #expect(before.contains("previewed: Optional(0)"), "\(before)")
    for (request, code) in Self.refused {
      let response = session.answer(request)
      #expect(
        response.hasPrefix(#"{"ok":false,"error":{"code":"\#(code)","message":""#),
        "\(request) → \(response)")
      #expect(Self.state(session) == before, "\(request) changed the document")
    }
    // The next requests are answered as if none had come.
    #expect(
      session.answer(#"{\#(Self.suggest),"kind":"grammar","candidates":[]}"#)
        == #"{"ok":true,"id":4294967302}"#)
    #expect(
      session.answer(#"{"cmd":"accept","suggestion":4294967297,"candidate":1}"#)
        == #"{"ok":true,"storage":"note","storageRange":{"offset":21,"length":3},"reason":"accepted","events":[{"kind":"textUpdated","context":"$1","range":{"offset":15,"length":3},"text":"tea","contextVersion":2,"reason":"accepted"}],"touched":[4294967298],"removed":[4294967302]}"#
    )
  }

  @Test func refusalsSayWhatWasWrong() {
    let session = ProtocolSession()
    _ = session.answer(Self.note)
    _ = session.answer(
      #"{"cmd":"suggest","storage":"note","offset":21,"length":3,"kind":"spelling","candidates":["the"]}"#
    )
    let answers = [
      (
        #"{"cmd":"preview","suggestion":7,"candidate":0}"#,
        #"{"ok":false,"error":{"code":"unknownSuggestion","message":"no suggestion has the id 7"}}"#
      ),
      (
        #"{"cmd":"preview","suggestion":4294967297,"candidate":1}"#,
        #"{"ok":false,"error":{"code":"outOfRange","message":"the suggestion has no candidate 1 (it has 1)"}}"#
      ),
      (
        #"{\#(Self.suggest),"candidates":[]}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"missing field 'kind'"}}"#
      ),
      (
        #"{\#(Self.suggest),"kind":"spelling"}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"missing field 'candidates'"}}"#
      ),
      (
        #"{\#(Self.suggest),"kind":"spelling","candidates":["a",true]}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"'candidates[1]' must be a string or an object with 'text' or 'markdown'"}}"#
      ),
      (
        #"{\#(Self.suggest),"kind":"spelling","candidates":[{"attributes":[]}]}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"missing field 'candidates[0].text'"}}"#
      ),
      (
        #"{\#(Self.suggest),"kind":"spelling","candidates":[{"text":"a","markdown":"b"}]}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"give 'candidates[0].text' or 'candidates[0].markdown', not both"}}"#
      ),
      (
        #"{\#(Self.suggest),"context":"\#(contextID)","kind":"spelling","candidates":[]}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"give 'storage' or 'context', not both"}}"#
      ),
      (
        #"{"cmd":"suggestions","context":"\#(contextID)","range":{"offset":0,"length":1}}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"'range' goes with 'storage': a context's suggestions are all of it"}}"#
      ),
      (
        #"{"cmd":"suggestions","storage":"note","unit":"scalar"}"#,
        #"{"ok":false,"error":{"code":"badRequest","message":"'suggestions' counts UTF-16 units (a suggestion's offsets, as its candidates' runs): 'unit' must be utf16"}}"#
      ),
      (
        #"{"cmd":"suggest","storage":"note","offset":9,"length":1,"kind":"spelling","candidates":[]}"#,
        #"{"ok":false,"error":{"code":"splitsSurrogatePair","message":"in storage 'note': UTF-16 offset 10 falls inside a surrogate pair"}}"#
      ),
    ]
    for (request, response) in answers {
      #expect(session.answer(request) == response, "\(request)")
    }
  }

  // MARK: The typed layer

  static let id = SuggestionID(rawValue: 8_589_934_593)

  /// The same request as a line of JSON and as human words, and the command
  /// both are (human words name context 1 as `@1`).
  static let requests: [(json: String, words: String, command: Command)] = [
    (
      #"{"cmd":"suggest","storage":"body","offset":45,"length":3,"kind":"spelling","explanation":"Possible spelling mistake","candidates":["the","tea"]}"#,
      "suggest body 45 3 spelling the | tea # Possible spelling mistake",
      .suggest(
        .storage("body"), range: 45..<48, kind: .spelling,
        explanation: "Possible spelling mistake", candidates: [.text("the"), .text("tea")])
    ),
    (
      #"{"cmd":"suggest","context":"\#(contextID)","offset":0,"length":2,"kind":"style","candidates":[{"markdown":"**We**"},{"markdown":"_We_"}]}"#,
      "suggest-md @1 0 2 style **We** | _We_",
      .suggest(
        .context(contextID), range: 0..<2, kind: .style, explanation: "",
        candidates: [.markdown("**We**"), .markdown("_We_")])
    ),
    (
      #"{"cmd":"suggest","context":"\#(contextID)","offset":0,"length":2,"kind":"tone","candidates":[]}"#,
      "suggest @9F1C 0 2 tone",
      .suggest(.context(contextID), range: 0..<2, kind: "tone", explanation: "", candidates: [])
    ),
    (
      #"{"cmd":"suggest","storage":"b","offset":0,"length":1,"kind":"k","candidates":[{"text":"x","attributes":[{"offset":0,"length":1,"attributes":{"link":"u"}}]}]}"#,
      #"json {"cmd":"suggest","storage":"b","offset":0,"length":1,"kind":"k","candidates":[{"text":"x","attributes":[{"offset":0,"length":1,"attributes":{"link":"u"}}]}]}"#,
      .suggest(
        .storage("b"), range: 0..<1, kind: "k", explanation: "",
        candidates: [.text("x", attributes: [AttributeRun(0..<1, [.link: .link("u")])])])
    ),
    (
      #"{"cmd":"suggestions","storage":"body"}"#, "suggestions body",
      .suggestions(.storage("body"))
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
      #"{"cmd":"preview","suggestion":8589934593,"candidate":0}"#, "preview 8589934593 0",
      .preview(id, candidate: 0)
    ),
    (
      #"{"cmd":"accept","suggestion":8589934593,"candidate":1}"#, "accept 8589934593 1",
      .accept(id, candidate: 1)
    ),
    (
      #"{"cmd":"accept","suggestion":8589934593}"#, "accept 8589934593",
      .accept(id, candidate: nil)
    ),
    (#"{"cmd":"reject","suggestion":8589934593}"#, "reject 8589934593", .reject(id)),
  ]

  @Test func jsonAndWordsParseToTheSameCommand() throws {
    for (json, words, expected) in Self.requests {
      #expect(try command(json: json) == expected, "\(json)")
      #expect(try command(words: words) == expected, "\(words)")
    }
    // Defaults written out; preview, accept and reject take any unit.
    #expect(
      try command(
        json:
          #"{"cmd":"suggest","storage":"b","offset":1,"length":2,"kind":"k","explanation":null,"candidates":[],"unit":"utf16"}"#
      ) == .suggest(.storage("b"), range: 1..<3, kind: "k", explanation: "", candidates: []))
    #expect(
      try command(json: #"{"cmd":"suggestions","storage":"b","range":null,"context":null}"#)
        == .suggestions(.storage("b")))
    #expect(
      try command(json: #"{"cmd":"accept","suggestion":5,"candidate":null,"unit":"utf8"}"#)
        == .accept(SuggestionID(rawValue: 5), candidate: nil))
  }

  /// How human mode reads candidates and an explanation.
  @Test(arguments: [
    ("a | b", ["a", "b"], ""),
    ("a|b", ["a", "b"], ""),
    ("a | | b", ["a", "", "b"], ""),
    (#"a \| b | c"#, ["a | b", "c"], ""),
    (" x", [" x"], ""),
    ("# why not", [], "why not"),
    ("", [], ""),
    (#"a\n # b\tc"#, ["a\n"], "b\tc"),
    ("C# code", ["C# code"], ""),
    ("a #", ["a"], ""),
    (#"\u{1F600} | \\"#, ["😀", "\\"], ""),
    ("a # b # c", ["a"], "b # c"),
  ])
  func wordsGiveCandidatesAndAnExplanation(
    typed: String, candidates: [String], explanation: String
  ) throws {
    let line = "suggest b 0 1 k" + (typed.isEmpty ? "" : " " + typed)
    #expect(
      try command(words: line)
        == .suggest(
          .storage("b"), range: 0..<1, kind: "k", explanation: explanation,
          candidates: candidates.map { .text($0) }), "\(line)")
  }

  @Test(arguments: [
    (
      "suggest", "badRequest",
      "usage: suggest NAME|@CONTEXT OFFSET LENGTH KIND [CANDIDATE | CANDIDATE …] [# EXPLANATION]"
    ),
    ("suggest b 0", "badRequest", "usage: suggest NAME"),
    ("suggest b 0 1", "badRequest", "usage: suggest NAME"),
    ("suggest b x 1 k", "badRequest", "OFFSET must be a number, not 'x'"),
    ("suggest b 1 -2 k", "outOfRange", "offset 1 and length -2 make no range"),
    ("suggest @2 0 1 k", "unknownContext", "no context 2"),
    ("suggest-md", "badRequest", "usage: suggest-md NAME|@CONTEXT"),
    (
      "suggestions", "badRequest",
      "usage: suggestions NAME [OFFSET LENGTH] or suggestions @CONTEXT"
    ),
    ("suggestions b 1", "badRequest", "usage: suggestions NAME"),
    ("suggestions b 1 2 3", "badRequest", "usage: suggestions NAME"),
    ("suggestions @1 0 2", "badRequest", "usage: suggestions NAME"),
    ("suggestions @ABC", "unknownContext", "no context 'ABC'"),
    ("preview", "badRequest", "usage: preview ID N"),
    ("preview 1", "badRequest", "usage: preview ID N"),
    ("preview x 0", "badRequest", "ID must be a number, not 'x'"),
    ("preview 1 y", "badRequest", "N must be a number, not 'y'"),
    ("preview 1 0 2", "badRequest", "usage: preview ID N"),
    ("accept", "badRequest", "usage: accept ID [N]"),
    ("accept 1 2 3", "badRequest", "usage: accept ID [N]"),
    ("accept 1 z", "badRequest", "N must be a number, not 'z'"),
    ("reject", "badRequest", "usage: reject ID"),
    ("reject 1 2", "badRequest", "usage: reject ID"),
  ])
  func wordsThatAreNoReviewCommandAreRefused(words: String, code: String, message: String) {
    let error = parseError { () throws(REPLError) in try command(words: words) }
    #expect(error?.code == code, "\(words)")
    #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
  }

  /// Suggestions as the engine gives them (a `Suggestion` has no public
  /// initializer): one over "teh" with a plain and a strong candidate, one
  /// empty with none, and both again as a context sees them.
  static func suggestions() throws -> [Suggestion] {
    let document = Document()
    try document.add("body", text: "A line\nteh end.\n")
    let bold = AttributeRun(
      0..<3, [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)])
    let ids = try document.suggest(
      [
        ProposedSuggestion(
          7..<10, kind: .spelling, explanation: "Possible spelling\tmistake",
          candidates: [SuggestionCandidate("the"), SuggestionCandidate("The", attributes: [bold])]),
        ProposedSuggestion(15..<15, kind: "tone"),
      ], in: "body")
    try document.preview(ids[0], candidate: 1)
    try document.select([SelectionRange("body", 7..<10)])
    let context = try document.startSession(scope: .userSelection).contexts[0]
    return [try document.suggestion(ids[0]), try document.suggestion(ids[1])]
      + (try document.suggestions(inContext: context.id))
  }

  @Test func repliesAreWrittenForProgramsAndForPeople() throws {
    let found = try Self.suggestions()
    try #require(found.count == 4)
    let (teh, empty, inContext) = (found[0], found[1], found[2])
    let candidates =
      #""candidates":[{"text":"the","attributes":[]},{"text":"The","attributes":[{"offset":0,"length":3,"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]}}]}],"previewed":1"#
    let replies: [(reply: Reply, json: String, text: String)] = [
      (
        .suggested(SuggestionInfo(teh, text: "The")), #"{"ok":true,"id":4294967297}"#,
        #"suggested 4294967297 in body: spelling 7..<10 "The" → 0 "the", 1 "**The**" (previewing 1) — Possible spelling⇥mistake"#
      ),
      (
        .suggestions(
          .storage("body"),
          [SuggestionInfo(teh, text: "The"), SuggestionInfo(empty, text: "")]),
        #"{"ok":true,"suggestions":[{"id":4294967297,"offset":7,"length":3,"kind":"spelling","explanation":"Possible spelling\tmistake",\#(candidates)},{"id":4294967298,"offset":15,"length":0,"kind":"tone","explanation":"","candidates":[]}]}"#,
        """
          4294967297 spelling 7..<10 "The" → 0 "the", 1 "**The**" (previewing 1) — Possible spelling⇥mistake
          4294967298 tone 15..<15 "" → no candidates
        """
      ),
      // In a context, offsets relative to its text.
      (
        .suggestions(.context(contextID), [SuggestionInfo(inContext, text: "The")]),
        #"{"ok":true,"suggestions":[{"id":4294967297,"offset":0,"length":3,"kind":"spelling","explanation":"Possible spelling\tmistake",\#(candidates)}]}"#,
        #"  4294967297 spelling 0..<3 "The" → 0 "the", 1 "**The**" (previewing 1) — Possible spelling⇥mistake"#
      ),
      (
        .suggestions(.storage("body"), []), #"{"ok":true,"suggestions":[]}"#,
        "no suggestions in body"
      ),
      (
        .suggestions(.context(contextID), []), #"{"ok":true,"suggestions":[]}"#,
        "no suggestions in context [1]"
      ),
      (
        .reviewed(
          teh.id,
          SuggestionResult(
            storage: "body", storageRange: 7..<10, reason: .temporary,
            events: [
              .textUpdated(
                context: contextID, range: 0..<3, text: "The", contextVersion: 1,
                reason: .replacement(.temporary))
            ], tracked: TrackedChanges(touched: [TrackedRangeID(rawValue: 9)])), text: "The"),
        #"{"ok":true,"storage":"body","storageRange":{"offset":7,"length":3},"reason":"temporary","events":[{"kind":"textUpdated","context":"\#(contextID)","range":{"offset":0,"length":3},"text":"The","contextVersion":1,"reason":"temporary"}],"touched":[9]}"#,
        """
        previewing 4294967297: body 7..<10 is now "The"
          event: context [1] text 0..<3 is now "The" (context version 1, temporary)
          tracked ranges touched: 9
        """
      ),
      (
        .reviewed(
          teh.id,
          SuggestionResult(
            storage: "body", storageRange: 7..<10, reason: .accepted, events: [],
            tracked: TrackedChanges(removed: [empty.id])), text: "the"),
        #"{"ok":true,"storage":"body","storageRange":{"offset":7,"length":3},"reason":"accepted","events":[],"removed":[4294967298]}"#,
        """
        accepted 4294967297: body 7..<10 is now "the"
          tracked ranges removed: 4294967298
        """
      ),
      (
        .reviewed(
          teh.id,
          SuggestionResult(storage: "body", storageRange: 7..<10, reason: .rejected, events: []),
          text: "teh"),
        #"{"ok":true,"storage":"body","storageRange":{"offset":7,"length":3},"reason":"rejected","events":[]}"#,
        #"rejected 4294967297: body 7..<10 is "teh""#
      ),
      // A replacement says why it was made, and its events too.
      (
        .replaced(
          ReplacementResult(
            storage: "body", storageRange: 1..<2, contextVersion: 2,
            events: [
              .textUpdated(
                context: contextID, range: 0..<1, text: "x", contextVersion: 4,
                reason: .replacement(.interactive))
            ], reason: .interactive)),
        #"{"ok":true,"storage":"body","storageRange":{"offset":1,"length":1},"contextVersion":2,"reason":"interactive","events":[{"kind":"textUpdated","context":"\#(contextID)","range":{"offset":0,"length":1},"text":"x","contextVersion":4,"reason":"interactive"}]}"#,
        """
        replaced: body 1..<2, context version 2
          event: context [1] text 0..<1 is now "x" (context version 4, interactive)
        """
      ),
      // Undo of an accepted suggestion outside every context: no event,
      // but done.
      (
        .undone(UndoResult(replacementCount: 1, events: [])),
        #"{"ok":true,"events":[],"selection":[]}"#, "undo done"
      ),
      (
        .edited("body", version: 1, range: 0..<0, events: [.missed(3)]),
        #"{"ok":true,"version":1,"range":{"offset":0,"length":0},"events":[{"kind":"missed","count":3}]}"#,
        "body is now at version 1; the new text is at 0..<0\n  event: 3 events missed"
      ),
    ]
    for (reply, json, text) in replies {
      #expect(JSONWriter.write(reply.json) == json)
      #expect(reply.text(numbering: [contextID]) == text)
    }
  }

  // MARK: Human mode

  static let lines = [
    #"add note Notes\nHi 👋🏽 there, teh sea.\n"#,
    "suggest note 21 3 spelling the | tea # Possible spelling mistake",
    "suggest-md note 0 5 style **Notes** | _Notes_",
    "suggest note 9 4 grammar",
    "track note 15 13 kind=comment",
    "suggestions note",
    "suggestions note 20 2",
    "show note",
    "select note 21 3",
    "contexts",
    "suggest @1 8 6 grammar there # Remove the comma",
    "suggestions @1",
    "preview 4294967297 1",
    "show note 6 24",
    "accept 4294967297",
    "show note 19 10",
    "undo",
    "reject 4294967298",
    "suggest-md note 0 5 style x",
    "suggestions note 10 0",
    "preview 4294967297 0",
    "edit note 7 1 o",
    "suggestions note 0 0",
  ]

  @Test func humanModeSuggestsListsReviewsAndShows() {
    let human = HumanMode(engine: REPLEngine())
    let outputs = Self.lines.map { human.run($0).output }
    let expected = [
      "added note: 30 units, version 0",
      #"suggested 4294967297 in note: spelling 21..<24 "teh" → 0 "the", 1 "tea" — Possible spelling mistake"#,
      #"suggested 4294967298 in note: style 0..<5 "Notes" → 0 "**Notes**", 1 "_Notes_""#,
      #"suggested 4294967299 in note: grammar 9..<13 "👋🏽" → no candidates"#,
      "tracked note 15..<28 as 4294967300",
      """
        4294967298 style 0..<5 "Notes" → 0 "**Notes**", 1 "_Notes_"
        4294967299 grammar 9..<13 "👋🏽" → no candidates
        4294967297 spelling 21..<24 "teh" → 0 "the", 1 "tea" — Possible spelling mistake
      """,
      #"  4294967297 spelling 21..<24 "teh" → 0 "the", 1 "tea" — Possible spelling mistake"#,
      // Suggestions in ⦃ ⦄, tracked ranges in ⟦ ⟧: they nest.
      """
      ⦃Notes⦄
      Hi ⦃👋🏽⦄ t⟦here, ⦃teh⦄ sea⟧.

      (version 0; tracked: 1 range in ⟦ ⟧; suggestions: 3 in ⦃ ⦄)
      """,
      "ok",
      """
      [1] note 6..<30, version 0
          Hi 👋🏽 there, ⟦teh⟧ sea.⏎
      (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
      """,
      #"suggested 4294967303 in note: grammar 14..<20 "there," → 0 "there" — Remove the comma"#,
      """
        4294967299 grammar 3..<7 "👋🏽" → no candidates
        4294967303 grammar 8..<14 "there," → 0 "there" — Remove the comma
        4294967297 spelling 15..<18 "teh" → 0 "the", 1 "tea" — Possible spelling mistake
      """,
      """
      previewing 4294967297: note 21..<24 is now "tea"
        event: context [1] text 15..<18 is now "tea" (context version 1, temporary)
        tracked ranges touched: 4294967300
      """,
      """
      Hi ⦃👋🏽⦄ ⦃t⟦here,⦄ ⦃tea⦄ sea⟧.

      (version 1; tracked: 1 range in ⟦ ⟧; suggestions: 3 in ⦃ ⦄)
      """,
      """
      accepted 4294967297: note 21..<24 is now "tea"
      """,
      // A part shows what is over it, cut to it.
      """
      ⟦⦃,⦄ tea sea⟧.
      (version 1; tracked: 1 range in ⟦ ⟧; suggestions: 1 in ⦃ ⦄)
      """,
      """
      undo done; the selection is note 21..<24
        event: context [1] text 15..<15 is now "teh" (context version 2, undoRedo)
        event: context [1] text 18..<21 is now "" (context version 3, undoRedo)
        tracked ranges touched: 4294967300
      """,
      #"rejected 4294967298: note 0..<5 is "Notes""#,
      #"error (ignored): a style suggestion over "Notes" was rejected before and is ignored"#,
      "error (splitsSurrogatePair): in storage 'note': UTF-16 offset 10 falls inside a surrogate "
        + "pair",
      "error (unknownSuggestion): no suggestion has the id 4294967297",
      """
      note is now at version 4; the new text is at 7..<8
        event: context [1] text 1..<2 is now "o" (context version 4, typing)
      """,
      "no suggestions in note",
    ]
    #expect(outputs.count == expected.count)
    for (i, (got, want)) in zip(outputs, expected).enumerated() {
      #expect(got == want, "line \(i + 1): \(Self.lines[i])")
    }
  }

  @Test func overlappingSuggestionsNestOrAreNumbered() {
    let human = HumanMode(engine: REPLEngine())
    _ = human.run(#"add x One two three\n"#)
    // Two suggestions that cross, one inside both, an empty one; and a
    // tracked range that crosses one of them (of another kind: no number).
    _ = human.run("suggest x 0 7 k")
    _ = human.run("suggest x 4 9 k")
    _ = human.run("suggest x 4 3 k")
    _ = human.run("suggest x 8 0 k")
    _ = human.run("track x 2 4")
    #expect(
      human.run("show x").output == """
        ⦃₁On⟦e ⦃₂⦃tw⟧o⦄⦄₁ ⦃⦄three⦄₂

        (version 0; tracked: 1 range in ⟦ ⟧; suggestions: 4 in ⦃ ⦄, ₁ is 4294967297, ₂ is 4294967298)
        """)
    // Tracked ranges that cross are numbered first.
    _ = human.run("track x 5 5")
    #expect(
      human.run("show x").output == """
        ⦃₃On⟦₁e ⦃₄⦃t⟦₂w⟧₁o⦄⦄₃ ⦃⦄th⟧₂ree⦄₄

        (version 0; tracked: 2 ranges in ⟦ ⟧; suggestions: 4 in ⦃ ⦄, ₁ is 4294967301, ₂ is 4294967302, ₃ is 4294967297, ₄ is 4294967298)
        """)
  }

  @Test func onATerminalSuggestionsHaveARedCurlyUnderline() {
    let human = HumanMode(engine: REPLEngine(), styled: true)
    let curly = "\u{1B}[4m\u{1B}[4:3m\u{1B}[58:5:1m"
    let off = "\u{1B}[59m\u{1B}[24m"
    _ = human.run(#"add x Go to Lisbon now.\nBye\n"#)
    // A suggestion, one over a line break (set again after it), an empty
    // one.
    _ = human.run("suggest x 0 2 k")
    _ = human.run("suggest x 13 7 k")
    _ = human.run("suggest x 6 0 k")
    #expect(
      human.run("show x").output
        == "\(curly)Go\(off) to ⦃⦄Lisbon \(curly)now.\u{1B}[0m\n\(curly)By\(off)e\n\n"
        + "(version 0; suggestions: 3 with a red curly underline, an empty one as ⦃⦄)")
    // Over a tracked range, the curly underline wins; where the suggestion
    // ends, the plain one goes on. In a link, the link's own underline
    // stays where the suggestion ends, and ends with the link.
    _ = human.run("add y abcdef")
    _ = human.run("track y 0 5")
    _ = human.run("suggest y 2 2 k")
    _ = human.run("link y 3 3 u")
    #expect(
      human.run("show y").output
        == "\u{1B}[4mab\u{1B}[24m\(curly)c\(off)\u{1B}[4m\(curly)d\u{1B}[59m\u{1B}[4m"
        + "\u{1B}[4mef\u{1B}[24m⟨u⟩"
        + "\n(version 0; tracked: 1 range underlined; suggestions: 1 with a red curly underline)"
    )
  }

  @Test func helpListsTheReviewCommands() {
    for command in [
      "suggest NAME|@CONTEXT", "suggest-md NAME|@CONTEXT", "suggestions NAME",
      "suggestions @CONTEXT",
      "preview ID N", "accept ID [N]", "reject ID",
    ] {
      #expect(HumanMode.help.contains("\n  \(command)"), "\(command)")
    }
    #expect(
      HumanMode.help.contains(
        "e.g. suggest body 45 3 spelling the | tea # Possible spelling mistake"))
  }

  static let input = """
    suggest body 45 3 spelling the | tea # Possible spelling mistake
    preview 8589934593 1
    show body 0 64
    accept 8589934593 0
    undo
    show body 40 10
    reject 8589934593
    quit

    """

  static let expected = """
    scope-repl — Writing Tools contexts on a multi-storage document. Type 'help'.
    The sample document (a title, a body in several scripts, excluded code):
      title: 17 units, version 0  A travel journal⏎
      body: 291 units, version 0  We left Lisbon at dawn; the sea was calm…
      code: 55 units, version 0  let route = ["Lisbon", "Athens", "Tokyo"…  (excluded: 0..<55)
    suggested 8589934593 in body: spelling 45..<48 "teh" → 0 "the", 1 "tea" — Possible spelling mistake
    previewing 8589934593: body 45..<48 is now "tea"
    We left Lisbon at dawn; the sea was calm and ⦃tea⦄ sky was clear.

    (version 1; suggestions: 1 in ⦃ ⦄)
    accepted 8589934593: body 45..<48 is now "the"
    undo done; the caret is at body 48
     and teh s
    (version 4)
    error (unknownSuggestion): no suggestion has the id 8589934593
    bye

    """

  @Test func throughAPipeSuggestionsAreMarkedWithText() throws {
    let lines = try REPL.expectTranscript(input: Self.input, expected: Self.expected)
    #expect(!lines.joined().contains("\u{1B}"))
  }
}
