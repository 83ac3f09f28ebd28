import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EditorEndToEnd {
  @Suite struct QuittingTests {
    /// With unsaved changes, Ctrl-Q (and Ctrl-C, which raw mode makes a
    /// key) asks first on the status line; pressed again, it quits without
    /// saving.
    @Test(arguments: ["q", "c"] as [Character])
    func quittingWithUnsavedChangesAsksFirst(key: Character) throws {
      let folder = try TemporaryFolder()
      let path = try folder.write("keep.txt", "Keep me.\n")
      // Wide enough for the whole question.
      let editor = try EditorSession(arguments: [path], columns: 140)
      defer { editor.close() }
      try editor.waitForScreen(containing: "Keep me.")
      try editor.type("Not saved ")
      try editor.waitForStatus("keep.txt •")

      let mark = editor.statusMark
      try editor.send(Keys.ctrl(key))
      try editor.waitForStatus(
        "Unsaved changes: Ctrl-Q again quits without saving, Ctrl-S saves", since: mark)
      #expect(!editor.hasExited, "the first Ctrl-\(key.uppercased()) only asks")
      try editor.send(Keys.ctrl(key))
      #expect(try editor.waitForExit() == .exited(0))
      expectFile(folder, "keep.txt", "Keep me.\n")
    }

    /// Without changes, Ctrl-Q and Ctrl-C quit at once.
    @Test(arguments: ["q", "c"] as [Character])
    func quittingWithoutChangesQuitsAtOnce(key: Character) throws {
      let folder = try TemporaryFolder()
      let path = try folder.write("keep.txt", "Keep me.\n")
      let editor = try EditorSession(arguments: [path])
      defer { editor.close() }
      try editor.waitForScreen(containing: "Keep me.")
      try editor.send(Keys.ctrl(key))
      #expect(try editor.waitForExit() == .exited(0))
      #expect(!editor.screen.statuses.contains { $0.contains("Unsaved changes") })
      expectFile(folder, "keep.txt", "Keep me.\n")
    }

    /// A key between two Ctrl-Q takes the question back: the next Ctrl-Q
    /// asks again.
    @Test func anotherKeyTakesTheQuestionBack() throws {
      let folder = try TemporaryFolder()
      let path = try folder.write("keep.txt", "Keep me.\n")
      let editor = try EditorSession(arguments: [path])
      defer { editor.close() }
      try editor.waitForScreen(containing: "Keep me.")
      try editor.type("x")
      try editor.waitForStatus("keep.txt •")
      var mark = editor.statusMark
      try editor.send(Keys.ctrl("q"))
      try editor.waitForStatus("Unsaved changes", since: mark)
      try editor.type("y")
      try editor.waitForScreen(containing: "xyKeep me.")
      mark = editor.statusMark
      try editor.send(Keys.ctrl("q"))
      try editor.waitForStatus("Unsaved changes", since: mark)
      #expect(!editor.hasExited)
      try editor.send(Keys.ctrl("q"))
      #expect(try editor.waitForExit() == .exited(0))
      expectFile(folder, "keep.txt", "Keep me.\n")
    }

    /// The terminal is given back: raw while the editor runs, then the
    /// settings from before, and the output ends with the sequence that
    /// leaves the alternate screen.
    @Test func theTerminalIsGivenBack() throws {
      let folder = try TemporaryFolder()
      let path = try folder.write("notes.txt", "Some text.\n")
      let editor = try EditorSession(arguments: [path])
      defer { editor.close() }
      #expect(editor.settingsBefore.isCooked, "a new terminal is in canonical mode with echo")
      try editor.waitForScreen(containing: "Some text.")
      let raw = try editor.terminal.settings()
      #expect(raw != editor.settingsBefore)
      #expect(raw.localFlags & UInt32(ICANON | ECHO | ISIG) == 0, "raw while it runs")
      #expect(editor.output.starts(with: Array("\u{1B}[?1049h".utf8)), "the alternate screen")

      try editor.type("typed ")
      try editor.waitForScreen(containing: "typed Some text.")
      #expect(try editor.quit() == .exited(0))
      #expect(try editor.terminal.settings() == editor.settingsBefore)
      let leave = Array("\u{1B}[?1049l".utf8)
      #expect(editor.output.suffix(leave.count).elementsEqual(leave), "ends with ESC[?1049l")
      #expect(!editor.screen.isAlternateScreen)
    }
  }
}
