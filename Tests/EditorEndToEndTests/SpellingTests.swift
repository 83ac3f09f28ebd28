import Testing

extension EditorEndToEnd {
  /// Spelling, with Enchant's `en_US` dictionary (`.ci/setup` installs
  /// Enchant and Hunspell's dictionary). `TERM=xterm-kitty`, so that the
  /// editor draws curly underlines (`ESC [ 4:3 m`); 200 columns, so that
  /// the status line shows the whole list of candidates.
  @Suite struct SpellingTests {
    static let typo = "This sentnce has a typo.\n"

    /// Starts the editor on a file with a typo and waits until the typo is
    /// underlined.
    static func startOnTypo(_ folder: TemporaryFolder) throws -> EditorSession {
      let path = try folder.write("typo.txt", typo)
      let editor = try EditorSession(
        arguments: ["--lang", "en_US", path], columns: 200, term: "xterm-kitty")
      try editor.waitForScreen(containing: "This sentnce has a typo.")
      // After a pause (a quarter of a second without keys) the visible
      // paragraphs are checked.
      try editor.waitForStatus("1 suggestion")
      try editor.waitUntil("“sentnce” underlined with a curl") {
        $0.screen.styles(of: "sentnce")?.allSatisfy { $0.underline == .curly } == true
      }
      #expect(editor.output.contains(Array("\u{1B}[4:3m".utf8)))
      #expect(editor.screen.styles(of: "typo")?.allSatisfy { $0.underline == .none } == true)
      return editor
    }

    /// F7 goes to the misspelling and shows the candidates; Enter accepts
    /// the first; Ctrl-S saves the fixed word.
    @Test func f7ThenEnterFixesAMisspelling() throws {
      let folder = try TemporaryFolder()
      let editor = try Self.startOnTypo(folder)
      defer { editor.close() }
      var mark = editor.statusMark
      try editor.send(Keys.f7)
      try editor.waitForStatus("Enter accepts", since: mark)
      #expect(
        editor.statuses(since: mark).contains { $0.drop { $0 == " " }.hasPrefix("sentence, ") },
        "“sentence” is the first candidate")
      mark = editor.statusMark
      try editor.send(Keys.enter)
      try editor.waitForScreen(containing: "This sentence has a typo.")
      try editor.waitForStatus("0 suggestions", since: mark)
      try editor.save()
      expectFile(folder, "typo.txt", "This sentence has a typo.\n")
      #expect(try editor.quit() == .exited(0))
    }

    /// Esc instead of Enter ignores the word: no suggestion left, the text
    /// and the file unchanged.
    @Test func f7ThenEscapeIgnoresIt() throws {
      let folder = try TemporaryFolder()
      let editor = try Self.startOnTypo(folder)
      defer { editor.close() }
      var mark = editor.statusMark
      try editor.send(Keys.f7)
      try editor.waitForStatus("Esc ignores", since: mark)
      mark = editor.statusMark
      // Esc alone: the editor takes it once no byte follows for a moment.
      try editor.send(Keys.escape)
      try editor.waitForStatus("Ignoring “sentnce”", since: mark)
      try editor.waitForStatus("0 suggestions", since: mark)
      try editor.waitUntil("“sentnce” no longer underlined") {
        $0.screen.styles(of: "sentnce")?.allSatisfy { $0.underline == .none } == true
      }
      mark = editor.statusMark
      try editor.save()
      #expect(editor.statuses(since: mark).contains { $0.contains("Nothing to save") })
      expectFile(folder, "typo.txt", Self.typo)
      #expect(try editor.quit() == .exited(0))
      #expect(!editor.screen.statuses.contains { $0.contains("Unsaved changes") })
    }

    /// `--no-spelling`: no suggestion count, no underline, and F7 says
    /// there is no spell checker.
    @Test func noSpellingShowsNoSuggestions() throws {
      let folder = try TemporaryFolder()
      let path = try folder.write("typo.txt", Self.typo)
      let editor = try EditorSession(
        arguments: ["--no-spelling", path], columns: 200, term: "xterm-kitty")
      defer { editor.close() }
      try editor.waitForScreen(containing: "This sentnce has a typo.")
      // The word count comes after the pause that would check spelling.
      try editor.waitForStatus("5 words")
      let mark = editor.statusMark
      try editor.send(Keys.f7)
      try editor.waitForStatus("No spell checker", since: mark)
      #expect(!editor.screen.statuses.contains { $0.contains("suggestion") })
      #expect(editor.screen.styles(of: "sentnce")?.allSatisfy { $0.underline == .none } == true)
      #expect(!editor.output.contains(Array("\u{1B}[4:3m".utf8)))
      #expect(try editor.quit() == .exited(0))
    }
  }
}

extension Array where Element: Equatable {
  /// Whether `part` occurs in the array.
  func contains(_ part: [Element]) -> Bool {
    guard !part.isEmpty, part.count <= count else { return part.isEmpty }
    return (0...(count - part.count)).contains { self[$0..<($0 + part.count)].elementsEqual(part) }
  }
}
