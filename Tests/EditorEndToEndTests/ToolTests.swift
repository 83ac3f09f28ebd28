import Foundation
import Testing

extension EditorEndToEnd {
  /// The writing tool: `--tool 'COMMAND'` (run with `/bin/sh -c`),
  /// `--tool-timeout SECONDS`, Ctrl-R. The tool reads the Markdown of the
  /// caret's paragraph, or of the selection's paragraphs, on its standard
  /// input; each finished paragraph of its standard output (a block ended by
  /// a blank line) lands as soon as it arrives, while the person keeps
  /// typing elsewhere; the status line says what it is doing; a failure or
  /// a timeout changes nothing and says why; one Ctrl-Z takes the whole
  /// answer back.
  ///
  /// The tools are shell scripts written into the test's folder.
  @Suite struct ToolTests {
    /// Starts the editor on `file` with `tool`, 200 columns wide (room for
    /// the tool's messages).
    static func start(
      _ file: String, tool: String, timeout: Int = 20
    ) throws -> EditorSession {
      try EditorSession(
        arguments: ["--no-spelling", "--tool", tool, "--tool-timeout", "\(timeout)", file],
        columns: 200)
    }

    /// A two-paragraph selection is rewritten paragraph by paragraph: the
    /// first lands while the tool still runs, the person types in another
    /// paragraph meanwhile, and the file saved has the tool's paragraphs and
    /// the typed text.
    @Test func aToolRewritesTheSelectionWhileThePersonTypesElsewhere() throws {
      let folder = try TemporaryFolder()
      let path = try folder.write(
        "doc.md", "First paragraph here.\n\nSecond paragraph here.\n\nThird one.\n")
      let input = folder.path("input.md")
      let go = folder.path("go")
      // The second paragraph comes once the test has typed elsewhere (the
      // file `go`), or after 20 seconds.
      let tool = try folder.writeScript(
        "rewrite.sh",
        """
        cat > '\(input)'
        sleep 0.5
        printf 'First, rewritten.\\n\\n'
        i=0
        while [ ! -e '\(go)' ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
        printf 'Second, rewritten.\\n'

        """)
      let editor = try Self.start(path, tool: tool)
      defer { editor.close() }
      try editor.waitForScreen(containing: "Third one.")

      // Select the first two paragraphs: Ctrl-Home, Shift-Down, then
      // Shift-Ctrl-E to the second's end.
      try editor.send(
        Keys.key(.home, .ctrl), Keys.key(.down, .shift), Keys.ctrlShift("e"))
      try editor.waitForStatus("Ln 2, Col 23")
      var mark = editor.statusMark
      try editor.send(Keys.ctrl("r"))
      try editor.waitForStatus("tool: running", since: mark)
      try editor.waitForScreen(containing: "First, rewritten.")
      #expect(
        editor.screen.statusLine.contains("tool: running"), "the first paragraph landed early")
      #expect(editor.screen.text.contains("Second paragraph here."))

      // Meanwhile, the person types at the end of the third paragraph.
      try editor.send(Keys.key(.end, .ctrl))
      try editor.type(" Typed meanwhile.")
      try editor.waitForScreen(containing: "Third one. Typed meanwhile.")
      #expect(editor.screen.statusLine.contains("tool: running"))
      mark = editor.statusMark
      try folder.write("go", "")
      try editor.waitForStatus("tool: done", since: mark)
      try editor.waitForScreen(containing: "Second, rewritten.")
      #expect(!editor.screen.text.contains("paragraph here"))

      try editor.save()
      expectFile(
        folder, "doc.md", "First, rewritten.\n\nSecond, rewritten.\n\nThird one. Typed meanwhile.\n"
      )
      let given = folder.read("input.md") ?? ""
      #expect(given.contains("First paragraph here.\n\nSecond paragraph here."), "\(given)")
      #expect(!given.contains("Third"), "only the selection's paragraphs: \(given)")
      try editor.quit()
    }

    /// With a caret (no selection), the tool gets the caret's paragraph
    /// alone, and its answer replaces that paragraph.
    @Test func aCaretHandsTheToolItsParagraph() throws {
      let folder = try TemporaryFolder()
      let path = try folder.write("doc.md", "Alpha one.\n\nBeta two.\n\nGamma three.\n")
      let input = folder.path("input.md")
      let tool = try folder.writeScript("upper.sh", "tee '\(input)' | tr a-z A-Z\n")
      let editor = try Self.start(path, tool: tool)
      defer { editor.close() }
      try editor.waitForScreen(containing: "Gamma three.")
      // The caret into the second paragraph.
      try editor.send(Keys.key(.home, .ctrl), Keys.key(.down), Keys.key(.right))
      try editor.waitForStatus("Ln 2, Col 2")
      let mark = editor.statusMark
      try editor.send(Keys.ctrl("r"))
      try editor.waitForStatus("tool: done", since: mark)
      try editor.waitForScreen(containing: "BETA TWO.")
      try editor.save()
      expectFile(folder, "doc.md", "Alpha one.\n\nBETA TWO.\n\nGamma three.\n")
      let given = folder.read("input.md") ?? ""
      #expect(given.trimmingCharacters(in: .whitespacesAndNewlines) == "Beta two.", "\(given)")
      try editor.quit()
    }

    /// A tool that exits with a non-zero status changes nothing and shows
    /// its error.
    @Test func aFailingToolChangesNothing() throws {
      let folder = try TemporaryFolder()
      let original = "Alpha one.\n\nBeta two.\n"
      let path = try folder.write("doc.md", original)
      let tool = try folder.writeScript(
        "fail.sh", "cat > /dev/null\necho 'model unavailable' >&2\nexit 3\n")
      let editor = try Self.start(path, tool: tool)
      defer { editor.close() }
      try editor.waitForScreen(containing: "Beta two.")
      let mark = editor.statusMark
      try editor.send(Keys.ctrl("r"))
      try editor.waitForStatus("tool failed", since: mark)
      let failure = editor.statuses(since: mark).first { $0.contains("tool failed") } ?? ""
      #expect(failure.contains("model unavailable"), "its error is shown: \(failure)")
      #expect(editor.screen.line(1) == "Alpha one.")
      #expect(!editor.screen.statusLine.contains("•"), "nothing changed")
      try editor.save()
      expectFile(folder, "doc.md", original)
      #expect(try editor.quit() == .exited(0))
      #expect(!editor.screen.statuses.contains { $0.contains("Unsaved changes") })
    }

    /// A tool that runs past `--tool-timeout` is stopped; nothing changes,
    /// and the status line says it timed out.
    @Test func aHangingToolTimesOutAndChangesNothing() throws {
      let folder = try TemporaryFolder()
      let original = "Alpha one.\n\nBeta two.\n"
      let path = try folder.write("doc.md", original)
      let tool = try folder.writeScript("hang.sh", "cat > /dev/null\nexec sleep 30\n")
      let editor = try Self.start(path, tool: tool, timeout: 1)
      defer { editor.close() }
      try editor.waitForScreen(containing: "Beta two.")
      let mark = editor.statusMark
      try editor.send(Keys.ctrl("r"))
      try editor.waitForStatus("tool: running", since: mark)
      try editor.waitForStatus("timed out", since: mark, timeout: .seconds(20))
      #expect(editor.screen.statusLine.contains("tool failed"))
      #expect(!editor.screen.statusLine.contains("•"), "nothing changed")
      try editor.save()
      expectFile(folder, "doc.md", original)
      #expect(try editor.quit() == .exited(0))
    }

    /// One Ctrl-Z after the tool's answer gives back the original
    /// paragraphs.
    @Test func undoTakesTheWholeAnswerBack() throws {
      let folder = try TemporaryFolder()
      let original = "Alpha one.\n\nBeta two.\n"
      let path = try folder.write("doc.md", original)
      let tool = try folder.writeScript(
        "rewrite.sh",
        "cat > /dev/null\nprintf 'Alpha rewritten.\\n\\n'\nsleep 0.2\nprintf 'Beta rewritten.\\n'\n"
      )
      let editor = try Self.start(path, tool: tool)
      defer { editor.close() }
      try editor.waitForScreen(containing: "Beta two.")
      try editor.send(Keys.key(.home, .ctrl), Keys.key(.end, [.shift, .ctrl]))
      var mark = editor.statusMark
      try editor.send(Keys.ctrl("r"))
      try editor.waitForStatus("tool: done", since: mark)
      try editor.waitForScreen(containing: "Alpha rewritten.")
      try editor.waitForScreen(containing: "Beta rewritten.")

      mark = editor.statusMark
      try editor.send(Keys.ctrl("z"))
      try editor.waitUntil("the original paragraphs back") {
        !$0.screen.text.contains("rewritten") && $0.screen.text.contains("Alpha one.")
          && $0.screen.text.contains("Beta two.")
      }
      try editor.save()
      expectFile(folder, "doc.md", original)
      try editor.quit()
    }
  }
}
