import Foundation
import Testing

/// Human mode driven through a pipe, compared with the expected transcript.
@Suite struct ScopeREPLHumanTests {
  /// Three sessions on the sample document. The person's typing
  /// ("Yesterday: ", the caret at 0) and the tools' replacements are the
  /// groups of one history, and the tools' stay after their sessions: the
  /// `undo` in the third session takes back the second session's "Hi" (the
  /// selection stays: a tool's group does not move it), `redo` gives it
  /// back; after `end`, `undo` takes back "Hi", then the first session's
  /// "the", then the typing (the caret back at 0); then there is nothing to
  /// undo.
  static let input = """
    select body 45 3
    contexts
    caret body 0
    edit body 0 0 Yesterday: 
    replace 1 45 3 basis=0 the
    caret body 0
    contexts full
    replace 3 0 4 x
    replace 2 11 2 Hi
    state interactiveStreaming
    map body 45 0
    locate 20
    paragraph body 80
    graphemes body 168 16
    select title 2 to body 3
    contexts
    undo
    show body 0 11
    redo
    revert
    end
    undo
    undo
    show body 0 64
    undo
    undo
    bogus 1 2
    edit body x 0
    exit
    storages

    """

  static let expected = """
    scope-repl — Writing Tools contexts on a multi-storage document. Type 'help'.
    The sample document (a title, a body in several scripts, excluded code):
      title: 17 units, version 0  A travel journal⏎
      body: 291 units, version 0  We left Lisbon at dawn; the sea was calm…
      code: 55 units, version 0  let route = ["Lisbon", "Athens", "Tokyo"…  (excluded: 0..<55)
    ok
    [1] body 0..<64, version 0
        We left Lisbon at dawn; the sea was calm and ⟦teh⟧ sky was clear.⏎
    (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
    ok
    body is now at version 1; the new text is at 0..<11
      event: context [1] moved
    replaced: body 56..<59, context version 1
    ok
    [1] title 0..<17, version 0
        ⟦A travel journal⏎⟧
    [2] body 0..<302, version 2
        ‸Yesterday: We left Lisbon at dawn; the sea was calm and the sky was clear.⏎
        Στην Αθήνα φάγαμε σουβλάκι και είδαμε την Ακρόπολη.⏎
        東京では桜が満開でした。🌸⏎
        The whole family came along 👨‍👩‍👧‍👦 and we waved the flag 🇵🇹 at every port.␍⏎
        Café au lait, naïve questions and a résumé of the day.¶
        Next stop: Reykjavík.⏎
    [3] code 0..<55, version 0
        ⟪⟦let route = ["Lisbon", "Athens", "Tokyo"]⏎
        print(route)⏎⟫⟧
    (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
    error (excluded): the storage range 0..<4 touches text excluded from Writing Tools
    replaced: body 11..<13, context version 1
    error (invalidState): a session cannot go from inactive to interactiveStreaming
    offset 45 of version 0 is now 56 (the character on its side deleted: yes)
    document offset 20 is body offset 3
    paragraph 75..<127, contents end at 126
    boundaries: 168 169 170 181 182 183 184
    ok
    [1] title 0..<17, version 0
        A ⟦travel journal⏎⟧
    [2] body 0..<75, version 3
        ⟦Yes⟧terday: Hi left Lisbon at dawn; the sea was calm and the sky was clear.⏎
    (⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)
    undo done; the selection is title 2..<17, body 0..<3
      event: context [2] text 11..<11 is now "We" (context version 1, undoRedo)
      event: context [2] text 13..<15 is now "" (context version 2, undoRedo)
    Yesterday: 
    (version 5)
    redo done; the selection is title 2..<17, body 0..<3
      event: context [2] text 13..<13 is now "Hi" (context version 3, undoRedo)
      event: context [2] text 11..<13 is now "" (context version 4, undoRedo)
    reverted 0 replacement(s)
    session ended
    undo done; the selection is title 2..<17, body 0..<3
    undo done; the selection is title 2..<17, body 0..<3
    Yesterday: We left Lisbon at dawn; the sea was calm and teh sky 
    (version 11)
    undo done; the caret is at body 0
    error (nothingToUndo): there is nothing to undo
    error (badRequest): unknown command 'bogus'; 'help' lists the commands
    error (badRequest): OFFSET must be a number, not 'x'
    bye

    """

  @Test func aSessionOnTheSampleDocument() throws {
    _ = try REPL.expectTranscript(input: Self.input, expected: Self.expected)
  }

  @Test func helpListsEveryCommandWithAnExample() throws {
    let (lines, status) = try REPL.run([], input: Array("help\n".utf8))
    #expect(status == 0)
    let help = lines.drop { !$0.hasPrefix("Commands") }
    #expect(help.count > 40)
    for command in ["contexts", "replace", "select", "map", "replay", "undo", "revert", "state"] {
      #expect(help.contains { $0.hasPrefix("  \(command)") }, "\(command)")
    }
    #expect(help.filter { $0.contains("e.g.") }.count * 2 == help.count - 1)
  }

  @Test func filesAreLoadedByName() throws {
    let directory = FileManager.default.temporaryDirectory
    let file = directory.appendingPathComponent("notes-\(UUID().uuidString).txt")
    try Data("first line\nsecond 👋\n".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let (lines, status) = try REPL.run(
      ["--load", file.path], input: Array("show \(file.lastPathComponent)\n".utf8))
    #expect(status == 0)
    #expect(lines.contains { $0.hasPrefix("  \(file.lastPathComponent): 21 units, version 0") })
    #expect(lines.contains("first line"))
    let bad = directory.appendingPathComponent("bad-\(UUID().uuidString).txt")
    try Data([0x61, 0xC3, 0x28]).write(to: bad)
    defer { try? FileManager.default.removeItem(at: bad) }
    let (_, failed) = try REPL.run(["--load", bad.path], input: [])
    #expect(failed != 0)
  }
}
