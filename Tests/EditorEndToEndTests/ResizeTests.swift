import Testing

extension EditorEndToEnd {
  @Suite struct ResizeTests {
    /// A resize (the terminal's new size, then SIGWINCH) redraws at the new
    /// size: the status line on the new last row, as wide as the new width,
    /// the text wrapped again.
    @Test func aResizeRedrawsAtTheNewWidth() throws {
      let folder = try TemporaryFolder()
      let sentence = "the quick brown fox jumps over the lazy dog"
      let path = try folder.write("notes.txt", "\(sentence), \(sentence).\n")
      let editor = try EditorSession(arguments: [path], rows: 24, columns: 80)
      defer { editor.close() }
      // The first pause's redraw (the word count) comes before the
      // resizes, so that no frame of the old size arrives after them.
      try editor.waitForStatus("18 words")
      #expect(editor.screen.count(inRow: 23) { $0.reverse } == 80)

      // A frame drawn just before a resize reached the editor may arrive
      // after the screen model took the new size (a terminal draws it and
      // the next frame replaces it): what counts is the frame after it.
      for (rows, columns, wrapped) in [(30, 100, false), (12, 50, true)] {
        let clears = editor.screen.clears
        try editor.resize(rows: rows, columns: columns)
        try editor.waitUntil("a status line \(columns) columns wide on row \(rows)") {
          $0.screen.clears > clears && $0.screen.statusLine.contains("notes.txt  cell 1/1")
            && $0.screen.count(inRow: rows - 1) { $0.reverse } == columns
            && ($0.screen.line(2) == "quick brown fox jumps over the lazy dog.") == wrapped
        }
      }
      // At 50 columns the paragraph (88 columns) takes two lines.
      #expect(editor.screen.line(1) == "the quick brown fox jumps over the lazy dog, the")
      #expect(editor.screen.line(2) == "quick brown fox jumps over the lazy dog.")
      // Once the size is settled, a frame fits it.
      let overflow = editor.screen.overflow
      try editor.type("!")
      try editor.waitUntil("the typed key drawn") {
        $0.screen.line(2).hasSuffix("dog.!") || $0.screen.line(1).hasPrefix("!")
      }
      #expect(editor.screen.overflow == overflow, "nothing written past the right edge")
      #expect(try editor.quit() == .exited(0))
    }
  }
}
