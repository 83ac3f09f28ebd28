import Foundation
import Testing

extension EditorEndToEnd {
  /// The prose checker through the editor: proselint (in the virtual
  /// environment `.ci/setup` makes, or `PROSELINT`) on a text with emoji,
  /// CJK and CR LF; its findings underlined where they are, reviewed with
  /// F7 and accepted with Enter, and saved with the file's CR LF kept.
  @Suite struct ProseCheckerTests {
    static let proselint: String? = {
      if let given = ProcessInfo.processInfo.environment["PROSELINT"] { return given }
      let path = FileManager.default.currentDirectoryPath + "/.venv-mcp/bin/proselint"
      return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    static let text = "Enter the PIN number 👩‍👩‍👧 中文 now.\r\nThe ATM machine 🇫🇷 is here.\r\n"

    @Test(.enabled(if: ProseCheckerTests.proselint != nil, "proselint is installed by .ci/setup"))
    func proselintsFindingsAreUnderlinedAndAccepted() throws {
      let folder = try TemporaryFolder()
      let path = try folder.write("notes.txt", Self.text)
      let editor = try EditorSession(
        arguments: [
          "--no-spelling", "--checker", "\(Self.proselint!) check -o json", path,
        ], columns: 120, term: "xterm-kitty")
      defer { editor.close() }
      try editor.waitForScreen(containing: "Enter the PIN number")
      try editor.waitForStatus("2 suggestions", timeout: .seconds(60))
      try editor.waitUntil("“PIN number” and “ATM machine” underlined, “Enter” not") {
        $0.screen.styles(of: "PIN number")?.allSatisfy { $0.underline == .curly } == true
          && $0.screen.styles(of: "ATM machine")?.allSatisfy { $0.underline == .curly } == true
      }
      #expect(editor.screen.styles(of: "Enter")?.allSatisfy { $0.underline == .none } == true)
      #expect(editor.screen.styles(of: "now.")?.allSatisfy { $0.underline == .none } == true)
      var mark = editor.statusMark
      try editor.send(Keys.f7)
      try editor.waitForStatus("PIN — Tab previews, Enter accepts", since: mark)
      mark = editor.statusMark
      try editor.send(Keys.enter)
      try editor.waitForScreen(containing: "Enter the PIN 👩‍👩‍👧 中文 now.")
      try editor.waitForStatus("1 suggestion", since: mark)
      try editor.save()
      expectFile(folder, "notes.txt", Self.text.replacingOccurrences(of: "PIN number", with: "PIN"))
      #expect(try editor.quit() == .exited(0))
    }

    /// A checker that prints garbage: the status line says so, and the
    /// person's typing goes on.
    @Test func aCheckerThatPrintsGarbageCostsNothing() throws {
      let folder = try TemporaryFolder()
      let path = try folder.write("notes.txt", "Some text.\n")
      let editor = try EditorSession(
        arguments: ["--no-spelling", "--checker", "cat; echo ]]", path], columns: 120)
      defer { editor.close() }
      try editor.waitForScreen(containing: "Some text.")
      try editor.waitForStatus("checker failed: its output is not proselint's JSON")
      try editor.send(Array("Yes. ".utf8))
      try editor.waitForScreen(containing: "Yes. Some text.")
      try editor.save()
      expectFile(folder, "notes.txt", "Yes. Some text.\n")
      #expect(try editor.quit() == .exited(0))
    }
  }
}
