import DocumentEngine
import Foundation
import ScopeREPLCore
import Testing

/// The history rows of the protocol (PROTOCOL.md, *Tracked ranges,
/// suggestions and history*): `undo` and `redo` of the person's typing and
/// of a peer's edits (`origin`), their `selection`, `closeGroup` and
/// `nothingToUndo`; and human mode's `undo`, `redo` and `closeGroup`.
@Suite struct ScopeREPLHistoryTests {
  /// A session whose history's clock never moves: edits are grouped by
  /// where they are and by `closeGroup` only, never by a pause.
  static func session() -> ProtocolSession {
    let session = ProtocolSession()
    session.engine.document.historyOptions.clock = { .zero }
    return session
  }

  /// The text of storage `id` as the protocol gives it.
  static func text(_ session: ProtocolSession, _ id: String = "body") -> String? {
    let response = session.answer(#"{"cmd":"text","storage":"\#(id)"}"#)
    let object = try? JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any]
    return object?["text"] as? String
  }

  /// A response parsed, for the fields a test reads one by one.
  static func parsed(_ response: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any]) ?? [:]
  }

  /// The person types a word at the caret inside a live context, one
  /// keystroke at a time: one group, which `undo` takes back in one edit
  /// (the context hears it, `undoRedo`) with the caret back where it was
  /// before the group, and `redo` puts back with the caret after the
  /// word. Then the person types over a selected word: undo gives the word
  /// and the selection back.
  static let typing: [(request: String, response: String)] = [
    (
      #"{"cmd":"add","storage":"body","text":"One two three.\n"}"#,
      #"{"ok":true,"storage":"body","length":15,"version":0}"#
    ),
    (
      #"{"cmd":"contexts","scope":"fullDocument"}"#,
      #"{"ok":true,"contexts":[{"id":"$1","storage":"body","storageRange":{"offset":0,"length":15},"text":"One two three.\n","range":{"offset":0,"length":15},"excluded":[],"version":0,"contextVersion":0,"attributes":[]}]}"#
    ),
    (#"{"cmd":"select","ranges":[{"storage":"body","offset":4,"length":0}]}"#, #"{"ok":true}"#),
    (
      #"{"cmd":"edit","storage":"body","offset":4,"length":0,"text":"b"}"#,
      #"{"ok":true,"version":1,"range":{"offset":4,"length":1},"events":[{"kind":"textUpdated","context":"$1","range":{"offset":4,"length":0},"text":"b","contextVersion":1,"reason":"typing"}]}"#
    ),
    (
      #"{"cmd":"edit","storage":"body","offset":5,"length":0,"text":"i"}"#,
      #"{"ok":true,"version":2,"range":{"offset":5,"length":1},"events":[{"kind":"textUpdated","context":"$1","range":{"offset":5,"length":0},"text":"i","contextVersion":2,"reason":"typing"}]}"#
    ),
    (
      #"{"cmd":"edit","storage":"body","offset":6,"length":0,"text":"g"}"#,
      #"{"ok":true,"version":3,"range":{"offset":6,"length":1},"events":[{"kind":"textUpdated","context":"$1","range":{"offset":6,"length":0},"text":"g","contextVersion":3,"reason":"typing"}]}"#
    ),
    (
      #"{"cmd":"edit","storage":"body","offset":7,"length":0,"text":" "}"#,
      #"{"ok":true,"version":4,"range":{"offset":7,"length":1},"events":[{"kind":"textUpdated","context":"$1","range":{"offset":7,"length":0},"text":" ","contextVersion":4,"reason":"typing"}]}"#
    ),
    (
      #"{"cmd":"text","storage":"body"}"#,
      #"{"ok":true,"text":"One big two three.\n","version":4}"#
    ),
    // The four keystrokes are one group: the caret goes back before them.
    (
      #"{"cmd":"undo"}"#,
      #"{"ok":true,"events":[{"kind":"textUpdated","context":"$1","range":{"offset":4,"length":4},"text":"","contextVersion":5,"reason":"undoRedo"}],"selection":[{"storage":"body","offset":4,"length":0}]}"#
    ),
    (
      #"{"cmd":"text","storage":"body"}"#,
      #"{"ok":true,"text":"One two three.\n","version":5}"#
    ),
    // Redo: the word back, the caret after it.
    (
      #"{"cmd":"redo"}"#,
      #"{"ok":true,"events":[{"kind":"textUpdated","context":"$1","range":{"offset":4,"length":0},"text":"big ","contextVersion":6,"reason":"undoRedo"}],"selection":[{"storage":"body","offset":8,"length":0}]}"#
    ),
    (
      #"{"cmd":"text","storage":"body"}"#,
      #"{"ok":true,"text":"One big two three.\n","version":6}"#
    ),
  ]

  @Test func undoAndRedoOfThePersonsTypingAnswerTheSelection() {
    let session = Self.session()
    for (i, (request, response)) in Self.typing.enumerated() {
      #expect(session.answer(request) == response, "request \(i + 1): \(request)")
    }
    // Typing over the selected "two": undo gives the word and the
    // selection back, redo the "2" and the caret after it.
    _ = session.answer(#"{"cmd":"select","ranges":[{"storage":"body","offset":8,"length":3}]}"#)
    _ = session.answer(#"{"cmd":"edit","storage":"body","offset":8,"length":3,"text":"2"}"#)
    #expect(Self.text(session) == "One big 2 three.\n")
    let undone = Self.parsed(session.answer(#"{"cmd":"undo"}"#))
    #expect(Self.text(session) == "One big two three.\n")
    #expect(range(((undone["selection"] as? [[String: Any]])?.first)) == 8..<11)
    #expect((undone["selection"] as? [[String: Any]])?.first?["storage"] as? String == "body")
    let events = undone["events"] as? [[String: Any]] ?? []
    #expect(!events.isEmpty)
    #expect(events.allSatisfy { $0["reason"] as? String == "undoRedo" })
    let redone = Self.parsed(session.answer(#"{"cmd":"redo"}"#))
    #expect(Self.text(session) == "One big 2 three.\n")
    #expect(range(((redone["selection"] as? [[String: Any]])?.first)) == 9..<9)
    #expect(
      session.answer(#"{"cmd":"redo"}"#)
        == #"{"ok":false,"error":{"code":"nothingToUndo","message":"there is nothing to redo"}}"#)
  }

  /// The selection is written as `toolSelect` writes it, each range in
  /// one storage: a range across storages as its part in each, in
  /// document order; its offsets count the request's unit.
  @Test func theSelectionIsWrittenByStorageInTheRequestsUnit() {
    let session = Self.session()
    _ = session.answer(#"{"cmd":"add","storage":"a","text":"Title\n"}"#)
    _ = session.answer(#"{"cmd":"add","storage":"b","text":"😀 body\n"}"#)
    _ = session.answer(#"{"cmd":"add","storage":"z","text":"mid\n","after":"a"}"#)
    _ = session.answer(
      #"{"cmd":"select","from":{"storage":"a","offset":2},"to":{"storage":"b","offset":3}}"#)
    _ = session.answer(#"{"cmd":"edit","storage":"b","offset":7,"length":0,"text":"!"}"#)
    #expect(
      session.answer(#"{"cmd":"undo"}"#)
        == #"{"ok":true,"events":[],"selection":[{"storage":"a","offset":2,"length":4},{"storage":"z","offset":0,"length":4},{"storage":"b","offset":0,"length":3}]}"#
    )
    // The same in UTF-8: "😀 " is 5 bytes.
    _ = session.answer(#"{"cmd":"redo"}"#)
    #expect(
      session.answer(#"{"cmd":"undo","unit":"utf8"}"#)
        == #"{"ok":true,"events":[],"selection":[{"storage":"a","offset":2,"length":4},{"storage":"z","offset":0,"length":4},{"storage":"b","offset":0,"length":5}]}"#
    )
    // A caret after "😀 " is 2 in scalars; the redo puts it after the "x": 3.
    _ = session.answer(#"{"cmd":"select","ranges":[{"storage":"b","offset":3,"length":0}]}"#)
    _ = session.answer(#"{"cmd":"edit","storage":"b","offset":3,"length":0,"text":"x"}"#)
    #expect(
      session.answer(#"{"cmd":"undo","unit":"scalar"}"#)
        == #"{"ok":true,"events":[],"selection":[{"storage":"b","offset":2,"length":0}]}"#)
    #expect(
      session.answer(#"{"cmd":"redo","unit":"scalar"}"#)
        == #"{"ok":true,"events":[],"selection":[{"storage":"b","offset":3,"length":0}]}"#)
  }

  /// A peer's edits are in its own history: `undo` with its `origin`
  /// takes back its text and leaves the person's alone, even the person's
  /// text typed inside the peer's; the person's `undo` takes back the
  /// person's edits only.
  @Test func anOriginsUndoLeavesThePersonsTextAlone() {
    let session = Self.session()
    _ = session.answer(#"{"cmd":"add","storage":"body","text":"One two three.\n"}"#)
    let peer = session.answer(
      #"{"cmd":"edit","storage":"body","offset":0,"length":0,"text":"Hi there. ","origin":"alice","basis":0}"#
    )
    #expect(peer.hasPrefix(#"{"ok":true,"version":1,"range":{"offset":0,"length":10}"#))
    // The person types after the peer's text, then inside it.
    _ = session.answer(#"{"cmd":"edit","storage":"body","offset":14,"length":0,"text":"big "}"#)
    _ = session.answer(#"{"cmd":"edit","storage":"body","offset":2,"length":0,"text":"!"}"#)
    #expect(Self.text(session) == "Hi! there. One big two three.\n")
    // The peer's undo: the person's selection is not the peer's to move.
    #expect(
      session.answer(#"{"cmd":"undo","origin":"alice"}"#)
        == #"{"ok":true,"events":[],"selection":[]}"#)
    #expect(Self.text(session) == "!One big two three.\n")
    #expect(
      session.answer(#"{"cmd":"undo","origin":"alice"}"#)
        == #"{"ok":false,"error":{"code":"nothingToUndo","message":"there is nothing to undo"}}"#)
    #expect(code(Self.parsed(session.answer(#"{"cmd":"undo","origin":"bob"}"#))) == "nothingToUndo")
    // Redo puts the peer's text back around the person's "!".
    #expect(Self.parsed(session.answer(#"{"cmd":"redo","origin":"alice"}"#))["ok"] as? Bool == true)
    #expect(Self.text(session) == "Hi! there. One big two three.\n")
    // The person's own history: "!", then "big ", then nothing (the
    // peer's text is not in it).
    #expect(Self.parsed(session.answer(#"{"cmd":"undo"}"#))["ok"] as? Bool == true)
    #expect(Self.text(session) == "Hi there. One big two three.\n")
    #expect(Self.parsed(session.answer(#"{"cmd":"undo"}"#))["ok"] as? Bool == true)
    #expect(Self.text(session) == "Hi there. One two three.\n")
    #expect(code(Self.parsed(session.answer(#"{"cmd":"undo"}"#))) == "nothingToUndo")
    #expect(Self.text(session) == "Hi there. One two three.\n")
    #expect(Self.parsed(session.answer(#"{"cmd":"undo","origin":"alice"}"#))["ok"] as? Bool == true)
    #expect(Self.text(session) == "One two three.\n")
  }

  /// Typing that goes on where it left off is one group, unless
  /// `closeGroup` ends it in between: then undo takes back the second
  /// part only. The same for a peer's with its `origin`.
  @Test func closeGroupSplitsTypingIntoTwoUndoGroups() {
    func type(_ session: ProtocolSession, _ text: String, at offset: Int, origin: String? = nil) {
      for (i, character) in text.enumerated() {
        let from = origin.map { #","origin":"\#($0)""# } ?? ""
        let response = session.answer(
          #"{"cmd":"edit","storage":"body","offset":\#(offset + i),"length":0,"text":"\#(character)"\#(from)}"#
        )
        #expect(response.hasPrefix(#"{"ok":true,"#), "\(response)")
      }
    }
    // Without closeGroup: one group.
    let whole = Self.session()
    _ = whole.answer(#"{"cmd":"add","storage":"body","text":"One two.\n"}"#)
    type(whole, " big", at: 3)
    type(whole, "ger", at: 7)
    #expect(Self.text(whole) == "One bigger two.\n")
    #expect(Self.parsed(whole.answer(#"{"cmd":"undo"}"#))["ok"] as? Bool == true)
    #expect(Self.text(whole) == "One two.\n")
    #expect(code(Self.parsed(whole.answer(#"{"cmd":"undo"}"#))) == "nothingToUndo")

    // With it: two.
    let split = Self.session()
    _ = split.answer(#"{"cmd":"add","storage":"body","text":"One two.\n"}"#)
    type(split, " big", at: 3)
    #expect(split.answer(#"{"cmd":"closeGroup"}"#) == #"{"ok":true}"#)
    type(split, "ger", at: 7)
    #expect(Self.text(split) == "One bigger two.\n")
    #expect(Self.parsed(split.answer(#"{"cmd":"undo"}"#))["ok"] as? Bool == true)
    #expect(Self.text(split) == "One big two.\n")
    #expect(Self.parsed(split.answer(#"{"cmd":"undo"}"#))["ok"] as? Bool == true)
    #expect(Self.text(split) == "One two.\n")
    #expect(code(Self.parsed(split.answer(#"{"cmd":"undo"}"#))) == "nothingToUndo")

    // A peer's group, ended by closeGroup with its origin; closing a
    // group that is not open is no error.
    type(split, "XY", at: 0, origin: "alice")
    #expect(split.answer(#"{"cmd":"closeGroup","origin":"alice"}"#) == #"{"ok":true}"#)
    #expect(split.answer(#"{"cmd":"closeGroup","origin":"alice"}"#) == #"{"ok":true}"#)
    #expect(split.answer(#"{"cmd":"closeGroup","origin":"nobody"}"#) == #"{"ok":true}"#)
    type(split, "Z", at: 2, origin: "alice")
    #expect(Self.text(split) == "XYZOne two.\n")
    #expect(Self.parsed(split.answer(#"{"cmd":"undo","origin":"alice"}"#))["ok"] as? Bool == true)
    #expect(Self.text(split) == "XYOne two.\n")
    #expect(Self.parsed(split.answer(#"{"cmd":"undo","origin":"alice"}"#))["ok"] as? Bool == true)
    #expect(Self.text(split) == "One two.\n")
    #expect(
      code(Self.parsed(split.answer(#"{"cmd":"closeGroup","origin":7}"#))) == "badRequest")
  }

  /// An empty history, the person's or an origin's, with or without a
  /// session: `nothingToUndo` for undo and redo alike, and nothing
  /// changes.
  @Test func nothingToUndoIsAnError() {
    let fresh = Self.session()
    #expect(
      fresh.answer(#"{"cmd":"undo"}"#)
        == #"{"ok":false,"error":{"code":"nothingToUndo","message":"there is nothing to undo"}}"#)
    #expect(
      fresh.answer(#"{"cmd":"redo"}"#)
        == #"{"ok":false,"error":{"code":"nothingToUndo","message":"there is nothing to redo"}}"#)
    #expect(code(Self.parsed(fresh.answer(#"{"cmd":"undo","origin":"alice"}"#))) == "nothingToUndo")
    #expect(code(Self.parsed(fresh.answer(#"{"cmd":"undo","origin":7}"#))) == "badRequest")

    // A live session with no replacement: no longer an empty success.
    let session = Self.session()
    _ = session.answer(#"{"cmd":"add","storage":"keep","text":"Keep this.\n"}"#)
    _ = session.answer(#"{"cmd":"contexts","scope":"fullDocument"}"#)
    session.expectRefused([
      (#"{"cmd":"undo"}"#, "nothingToUndo"),
      (#"{"cmd":"redo"}"#, "nothingToUndo"),
      (#"{"cmd":"undo","origin":"alice"}"#, "nothingToUndo"),
      (#"{"cmd":"redo","origin":"alice"}"#, "nothingToUndo"),
    ])
  }

  /// Human mode on the sample document, without a session: the person's
  /// edit is undone and redone, an empty history prints the error line, a
  /// peer's undo leaves the person's text alone.
  @Test func humanModeUndoesWithoutASession() throws {
    let input = """
      edit body 0 0 Hi there 
      show body 0 12
      undo
      show body 0 12
      undo
      redo
      redo
      peer alice 0 title 0 0 My 
      edit title 5 0 !
      undo alice
      show title
      undo alice
      closeGroup
      undo
      show title
      undo alice bob
      exit

      """
    let expected = """
      scope-repl — Writing Tools contexts on a multi-storage document. Type 'help'.
      The sample document (a title, a body in several scripts, excluded code):
        title: 17 units, version 0  A travel journal⏎
        body: 291 units, version 0  We left Lisbon at dawn; the sea was calm…
        code: 55 units, version 0  let route = ["Lisbon", "Athens", "Tokyo"…  (excluded: 0..<55)
      body is now at version 1; the new text is at 0..<9
      Hi there We 
      (version 1)
      undo done; the caret is at body 0
      We left Lisb
      (version 2)
      error (nothingToUndo): there is nothing to undo
      redo done; the caret is at body 9
      error (nothingToUndo): there is nothing to redo
      title is now at version 1; the new text is at 0..<3
      title is now at version 2; the new text is at 5..<6
      undo done; the caret is at body 9
      A !travel journal

      (version 3)
      error (nothingToUndo): there is nothing to undo
      the person's undo group is closed: the next edit starts a new one
      undo done; the caret is at body 9
      A travel journal

      (version 4)
      error (badRequest): usage: undo [ORIGIN]
      bye

      """
    try REPL.expectTranscript(input: input, expected: expected)
  }
}
