import Foundation
import Testing

extension EditorEndToEnd {
  @Suite struct EditingTests {
    /// Typing Unicode, moving by grapheme cluster, word and paragraph,
    /// selecting with Shift, Ctrl-B, Ctrl-Z, Ctrl-S and Ctrl-Q, in a plain
    /// and a Markdown file: the files on disk are what the person typed.
    @Test func typingMovingSelectingBoldUndoAndSaving() throws {
      let folder = try TemporaryFolder()
      let notes = try folder.write("notes.txt", "Hello world\n")
      let draft = try folder.write("draft.md", "A plain word here.\n")
      let editor = try EditorSession(arguments: [notes, draft])
      defer { editor.close() }
      try editor.waitForScreen(containing: "A plain word here.")
      try editor.waitForStatus("notes.txt  cell 1/2  Ln 1, Col 1")

      // Ctrl-Right: to the end of "Hello"; typing accents and wide text.
      try editor.send(Keys.key(.right, .ctrl))
      try editor.type(" café 日本")
      try editor.waitForScreen(containing: "Hello café 日本 world")
      // Ctrl-E: the paragraph's end; an emoji of five scalars.
      try editor.send(Keys.ctrl("e"))
      try editor.type(" 👩🏽‍💻")
      // Left passes over the emoji as one character.
      try editor.send(Keys.key(.left))
      try editor.type("X")
      try editor.waitForScreen(containing: "Hello café 日本 world X👩🏽‍💻")
      // Ctrl-A: the paragraph's start; Shift-Ctrl-Right selects "Hello",
      // typing replaces it.
      try editor.send(Keys.ctrl("a"), Keys.key(.right, [.shift, .ctrl]))
      try editor.type("Hi")
      // Ctrl-Right to the end of "café", Shift-Left selects "é", typing
      // replaces it.
      try editor.send(Keys.key(.right, .ctrl), Keys.key(.left, .shift))
      try editor.type("è")
      try editor.waitForScreen(containing: "Hi cafè 日本 world X👩🏽‍💻")

      // To the Markdown file's end, back two words, select "word", bold.
      try editor.send(
        Keys.key(.end, .ctrl), Keys.key(.left, .ctrl), Keys.key(.left, .ctrl),
        Keys.key(.right, [.shift, .ctrl]), Keys.ctrl("b"))
      try editor.waitUntil("“word” drawn bold") {
        $0.screen.styles(of: "word")?.allSatisfy(\.bold) == true
      }
      try editor.send(Keys.ctrl("e"))
      try editor.type(" More text.")
      try editor.waitForScreen(containing: "A plain word here. More text.")
      // Typing elsewhere, then Ctrl-Z: only that typing goes.
      try editor.send(Keys.ctrl("a"))
      try editor.type("Oops ")
      try editor.waitForScreen(containing: "Oops A plain word")
      try editor.send(Keys.ctrl("z"))
      try editor.waitUntil("the undo of “Oops ”") {
        !$0.screen.text.contains("Oops") && $0.screen.text.contains("A plain word here. More text.")
      }

      let mark = editor.statusMark
      try editor.save()
      #expect(editor.statuses(since: mark).contains { $0.contains("Saved 2 files") })
      expectFile(folder, "notes.txt", "Hi cafè 日本 world X👩🏽‍💻\n")
      expectFile(folder, "draft.md", "A plain **word** here. More text.\n")
      #expect(try editor.quit() == .exited(0))
      #expect(!editor.screen.statuses.contains { $0.contains("Unsaved changes") })
    }

    /// A real README (swift-collections', Apache-2.0; the Markdown tests'
    /// corpus) opened, " x" typed at its end, saved: only the last
    /// paragraph's line changes (issue 49: before, 296 of its 369 lines
    /// changed and its badges were lost).
    @Test func aReadmeSavedAfterOneWordChangesOnlyThatBlock() throws {
      let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("DocumentMarkdownTests/Corpus/apple__swift-collections__README.md")
      let original = try String(contentsOf: corpus, encoding: .utf8)
      let folder = try TemporaryFolder()
      let readme = try folder.write("README.md", original)
      let editor = try EditorSession(arguments: ["--no-spelling", readme])
      defer { editor.close() }
      try editor.waitForStatus("README.md")
      try editor.send(Keys.key(.end, .ctrl))
      try editor.type(" x")
      try editor.waitUntil("the cell is modified") { $0.screen.statusLine.contains("README.md •") }
      let mark = editor.statusMark
      try editor.save()
      #expect(editor.statuses(since: mark).contains { $0.contains("Saved 1 file") })
      let saved = try #require(folder.read("README.md"))
      let old = original.split(separator: "\n", omittingEmptySubsequences: false)
      let new = saved.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(old.count == new.count)
      let changed = zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
      #expect(changed == [old.count - 2], "\(changed)")
      #expect(new[new.count - 2].hasSuffix(". x"))
      #expect(saved.contains("[![](https://img.shields.io/endpoint?url="), "the badges are kept")
      try editor.quit()
    }

    /// Ctrl-B alone (no typing) changes the Markdown file: the cell is
    /// modified, and Ctrl-S writes the strong word.
    @Test func boldAloneIsSaved() throws {
      let folder = try TemporaryFolder()
      let draft = try folder.write("draft.md", "A plain word here.\n")
      let editor = try EditorSession(arguments: [draft])
      defer { editor.close() }
      try editor.waitForScreen(containing: "A plain word here.")
      // Ctrl-Right to the end of "word", Shift-Ctrl-Left selects it.
      try editor.send(
        Keys.times(3, Keys.key(.right, .ctrl)), Keys.key(.left, [.shift, .ctrl]), Keys.ctrl("b"))
      try editor.waitUntil("“word” drawn bold") {
        $0.screen.styles(of: "word")?.allSatisfy(\.bold) == true
      }
      #expect(editor.screen.statusLine.contains("draft.md •"), "the cell is modified")
      let mark = editor.statusMark
      try editor.save()
      #expect(editor.statuses(since: mark).contains { $0.contains("Saved 1 file") })
      expectFile(folder, "draft.md", "A plain **word** here.\n")
      try editor.quit()
    }

    /// A file that does not exist opens as an empty cell, and Ctrl-S
    /// creates it.
    @Test func aMissingFileOpensEmptyAndIsCreatedOnSave() throws {
      let folder = try TemporaryFolder()
      let path = folder.path("new.txt")
      let editor = try EditorSession(arguments: [path])
      defer { editor.close() }
      try editor.waitForStatus("new.txt  cell 1/1  Ln 1, Col 1")
      #expect(editor.screen.line(1).isEmpty, "the cell is empty")
      #expect(!folder.exists("new.txt"), "nothing is created before saving")
      try editor.type("Fresh start ✓")
      try editor.waitForScreen(containing: "Fresh start ✓")
      try editor.send(Keys.ctrl("s"))
      try editor.waitForFile(path, toBe: "Fresh start ✓")
      #expect(try editor.quit() == .exited(0))
    }

    /// A file that is not UTF-8 is refused before the terminal is touched:
    /// a message on standard error, a non-zero exit, no escape sequence
    /// written, the terminal's settings as they were.
    @Test func aFileThatIsNotUTF8IsRefused() throws {
      let folder = try TemporaryFolder()
      let latin1 = try folder.write("latin1.txt", bytes: [0x63, 0x61, 0x66, 0xE9, 0x0A])
      let editor = try EditorSession(arguments: [latin1], separateStandardError: true)
      defer { editor.close() }
      let status = try editor.waitForExit(timeout: .seconds(15))
      #expect(status != .exited(0))
      if case .exited = status {} else { Issue.record("ended by a signal: \(status)") }
      let message = String(decoding: editor.standardError, as: UTF8.self)
      #expect(message.contains("latin1.txt is not UTF-8"), "stderr: \(message)")
      #expect(!editor.output.contains(0x1B), "no escape sequence: the terminal was not touched")
      #expect(try editor.terminal.settings() == editor.settingsBefore)
      #expect(folder.bytes("latin1.txt") == [0x63, 0x61, 0x66, 0xE9, 0x0A])
    }
  }
}
