import DocumentEngine
import DocumentMarkdown
import EditorCore
import EditorTerminal
import Testing
import TextRope

#if canImport(Glibc)
import Glibc
#endif

/// The editor's commands on a notebook, through the engine: what the text,
/// the caret and the screen are after each.
struct EditorCommandTests {
  /// A notebook of plain cells with the given texts.
  func editor(_ texts: [String], rows: Int = 10, columns: Int = 40) throws -> Editor {
    let document = Document()
    var cells: [Notebook.Cell] = []
    for (i, text) in texts.enumerated() {
      let id = StorageID("c\(i)")
      try document.add(id, text: Rope(text))
      cells.append(
        Notebook.Cell(
          id: id, path: nil, format: .plain, title: "c\(i)",
          savedVersion: try document.content.storage(id).version))
    }
    return Editor(
      notebook: Notebook(document: document, cells: cells), rows: rows, columns: columns)
  }

  func text(_ editor: Editor, _ cell: Int = 0) throws -> String {
    String(try editor.document.content.storage(editor.notebook.cells[cell].id).text)
  }

  @Test func typingInsertsAtTheCaretAndMovesIt() throws {
    let e = try editor(["world"])
    e.perform(.insert("Hello, "))
    e.perform(.insert("👋🏽 "))
    #expect(try text(e) == "Hello, 👋🏽 world")
    #expect(e.head == Position(cell: 0, offset: "Hello, 👋🏽 ".utf16.count))
  }

  @Test func backspaceAndDeleteTakeOneGraphemeCluster() throws {
    let family = "👨‍👩‍👧"
    let e = try editor(["a\(family)🇫🇷e\u{301}\r\nb"])
    e.perform(.move(.notebookEnd, extend: false))
    e.perform(.move(.left, extend: false))  // before "b"
    e.perform(.deleteBackward)  // CR LF is one cluster
    #expect(try text(e) == "a\(family)🇫🇷e\u{301}b")
    e.perform(.deleteBackward)
    #expect(try text(e) == "a\(family)🇫🇷b")
    e.perform(.deleteBackward)
    #expect(try text(e) == "a\(family)b")
    e.perform(.move(.notebookStart, extend: false))
    e.perform(.move(.right, extend: false))
    e.perform(.deleteForward)
    #expect(try text(e) == "ab")
  }

  @Test func motionCrossesCells() throws {
    let e = try editor(["ab", "cd"])
    e.perform(.move(.right, extend: false))
    e.perform(.move(.right, extend: false))
    #expect(e.head == Position(cell: 0, offset: 2))
    e.perform(.move(.right, extend: false))
    #expect(e.head == Position(cell: 1, offset: 0))
    e.perform(.move(.left, extend: false))
    #expect(e.head == Position(cell: 0, offset: 2))
    e.perform(.move(.down, extend: false))
    #expect(e.head.cell == 1)
  }

  @Test func wordMotionSkipsSpacesAndPunctuation() throws {
    let e = try editor(["Hello, wide 世界 world."])
    e.perform(.move(.wordRight, extend: false))
    #expect(e.head.offset == 5)
    e.perform(.move(.wordRight, extend: false))
    #expect(e.head.offset == 11)
    e.perform(.move(.notebookEnd, extend: false))
    e.perform(.move(.wordLeft, extend: false))
    #expect(e.head.offset == "Hello, wide 世界 ".utf16.count)
  }

  @Test func verticalMotionKeepsTheGoalColumn() throws {
    let e = try editor(["abcdef\nab\nabcdef"])
    for _ in 0..<4 { e.perform(.move(.right, extend: false)) }
    e.perform(.move(.down, extend: false))
    #expect(e.head.offset == 9)  // the end of "ab"
    e.perform(.move(.down, extend: false))
    #expect(e.head.offset == 14)  // column 4 again
  }

  @Test func shiftSelectsAndTypingReplacesTheSelection() throws {
    let e = try editor(["one two three"])
    e.perform(.move(.wordRight, extend: false))
    e.perform(.move(.wordRight, extend: true))
    #expect(e.selection.start.offset == 3 && e.selection.end.offset == 7)
    e.perform(.insert(" 2"))
    #expect(try text(e) == "one 2 three")
    #expect(e.isCaret)
  }

  @Test func aSelectionAcrossCellsIsDeletedInOneGroup() throws {
    let e = try editor(["first", "middle", "last"])
    e.perform(.move(.right, extend: false))
    e.perform(.move(.notebookEnd, extend: true))
    for _ in 0..<2 { e.perform(.move(.left, extend: true)) }
    e.perform(.deleteBackward)
    #expect(try text(e, 0) == "f")
    #expect(try text(e, 1) == "")
    #expect(try text(e, 2) == "st")
    e.perform(.undo)
    #expect(try text(e, 0) == "first")
    #expect(try text(e, 1) == "middle")
    #expect(try text(e, 2) == "last")
  }

  @Test func undoAndRedoTakeBackTypingAndPutTheCaretBack() throws {
    let e = try editor(["abc"])
    e.perform(.move(.notebookEnd, extend: false))
    e.perform(.insert("d"))
    e.perform(.insert("e"))
    #expect(try text(e) == "abcde")
    e.perform(.undo)
    #expect(try text(e) == "abc")
    #expect(e.head == Position(cell: 0, offset: 3))
    e.perform(.redo)
    #expect(try text(e) == "abcde")
    e.perform(.undo)
    e.perform(.undo)
    #expect(e.message == "Nothing to undo")
  }

  @Test func strongTogglesOverTheSelection() throws {
    let e = try editor(["plain words"])
    e.perform(.move(.wordRight, extend: true))
    e.perform(.strong)
    let storage = try e.document.content.storage(e.notebook.cells[0].id)
    #expect(
      storage.attributeRuns(in: 0..<storage.length) == [
        AttributeRun(
          0..<5, [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)])
      ])
    e.perform(.strong)
    let after = try e.document.content.storage(e.notebook.cells[0].id)
    #expect(after.attributeRuns(in: 0..<after.length).isEmpty)
  }

  @Test func strongInTheMiddleOfATextKeepsTheOtherIntents() throws {
    let document = Document()
    try document.add(
      "c0", text: Rope("one two three"),
      attributes: [
        AttributeRun(4..<7, [.inlinePresentationIntent: .inlinePresentationIntent(.emphasized)])
      ])
    let cell = Notebook.Cell(id: "c0", path: nil, format: .plain, title: "c0", savedVersion: 1)
    let e = Editor(notebook: Notebook(document: document, cells: [cell]), rows: 5, columns: 40)
    e.perform(.move(.wordRight, extend: false))
    e.perform(.move(.right, extend: false))
    e.perform(.move(.wordRight, extend: true))
    e.perform(.move(.wordRight, extend: true))  // "two three"
    e.perform(.strong)
    let storage = try document.content.storage("c0")
    #expect(
      storage.attributeRuns(in: 0..<storage.length) == [
        AttributeRun(
          4..<7,
          [
            .inlinePresentationIntent: .inlinePresentationIntent([.emphasized, .stronglyEmphasized])
          ]),
        AttributeRun(
          7..<13, [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)]),
      ])
    let line = e.frame().lines[1]
    #expect(line.spans.first { $0.text.contains("two") }?.style.italic == true)
    #expect(line.spans.first { $0.text.contains("three") }?.style.bold == true)
    #expect(line.spans.first { $0.text.contains("one") }?.style.bold == false)
  }

  @Test func strongAloneIsAChangeToSave() throws {
    let e = try editor(["plain words"])
    e.perform(.move(.wordRight, extend: true))
    e.perform(.strong)
    #expect(e.notebook.isModified)
    #expect(e.perform(.quit) == .handled)
  }

  @Test func quitAsksOnceWhenThereAreUnsavedChanges() throws {
    let e = try editor(["x"])
    #expect(e.perform(.quit) == .quit)
    e.perform(.insert("y"))
    #expect(e.perform(.quit) == .handled)
    #expect(e.perform(.quit) == .quit)
  }

  @Test func theFrameShowsTheTextTheCaretAndTheStatusLine() throws {
    let e = try editor(["Hello wide world"], rows: 5, columns: 9)
    e.perform(.move(.wordRight, extend: false))
    let frame = e.frame()
    let rows = frame.lines.map { $0.spans.map(\.text).joined() }
    #expect(rows.count == 5)
    #expect(rows[0].hasPrefix("── c0"))
    #expect(rows[1] == "Hello ")
    #expect(rows[2] == "wide ")
    #expect(rows[3] == "world")
    #expect(rows[4].hasPrefix(" c0"))
    #expect(frame.cursor?.row == 1 && frame.cursor?.column == 5)
    // The document knows what is visible.
    #expect(e.document.visible[e.notebook.cells[0].id] == 0..<16)
  }

  @Test func wordsAreCountedInTheBackground() throws {
    let e = try editor(["Two words", "and three more, don’t 42 日本語"], rows: 4, columns: 80)
    e.countWords()
    var waited = 0
    while !e.landWordCounts() && waited < 2000 {
      usleep(5_000)
      waited += 1
    }
    // A second cell's count may land just after the first.
    usleep(50_000)
    _ = e.landWordCounts()
    let status = e.frame().lines[3].spans.map(\.text).joined()
    #expect(status.contains(" 8 words"), "\(status)")
  }

  @Test func theSelectionIsDrawnReversed() throws {
    let e = try editor(["abc"], rows: 3, columns: 10)
    e.perform(.move(.right, extend: true))
    let line = e.frame().lines[1]
    #expect(line.spans.first?.text == "a")
    #expect(line.spans.first?.style.reverse == true)
    #expect(line.spans.last?.text == "bc")
    #expect(line.spans.last?.style.reverse == false)
  }

  @Test func theScreenFollowsTheCaret() throws {
    let lines = (1...50).map { "line \($0)" }.joined(separator: "\n")
    let e = try editor([lines], rows: 6, columns: 20)
    e.perform(.move(.notebookEnd, extend: false))
    let frame = e.frame()
    let rows = frame.lines.map { $0.spans.map(\.text).joined() }
    #expect(rows[4] == "line 50")
    #expect(frame.cursor?.row == 4)
    e.perform(.move(.pageUp, extend: false))
    e.perform(.move(.notebookStart, extend: false))
    #expect(e.frame().lines[0].spans.map(\.text).joined().hasPrefix("── c0"))
  }

  @Test func savingWritesMarkdownBackAndLeavesNoTemporaryFile() throws {
    let folder = "/tmp/editor-core-tests-\(getpid())-\(Int.random(in: 0..<1_000_000))"
    #expect(mkdir(folder, 0o755) == 0)
    defer {
      _ = unlink(folder + "/notes.md")
      _ = unlink(folder + "/plain.txt")
      _ = rmdir(folder)
    }
    let markdown = "# Title\n\nSome **bold** words.\n"
    #expect(write(path: folder + "/notes.md", markdown))
    #expect(write(path: folder + "/plain.txt", "a\r\nb\u{2029}c"))
    let notebook = try Notebook.open(paths: [folder + "/notes.md", folder + "/plain.txt"])
    let e = Editor(notebook: notebook, rows: 10, columns: 40)
    #expect(!notebook.isModified)
    e.perform(.move(.notebookEnd, extend: false))
    e.perform(.insert("!"))
    e.perform(.save)
    #expect(e.message == "Saved 1 file")
    #expect(!notebook.isModified)
    #expect(read(path: folder + "/plain.txt") == "a\r\nb\u{2029}c!")
    #expect(read(path: folder + "/notes.md") == markdown)
    // Nothing else was left in the folder.
    #expect(entries(folder).sorted() == ["notes.md", "plain.txt"])
  }

  @Test func aFailedSaveLeavesTheOldFileAndSaysWhy() throws {
    let folder = "/tmp/editor-core-tests-fail-\(getpid())-\(Int.random(in: 0..<1_000_000))"
    #expect(mkdir(folder, 0o755) == 0)
    // The save's temporary file cannot be made: a folder has its name
    // (permissions would not stop root).
    let blocker = folder + "/.a.txt.saving-\(getpid())"
    defer {
      _ = rmdir(blocker)
      _ = unlink(folder + "/a.txt")
      _ = rmdir(folder)
    }
    #expect(write(path: folder + "/a.txt", "old"))
    let notebook = try Notebook.open(paths: [folder + "/a.txt"])
    let e = Editor(notebook: notebook, rows: 10, columns: 40)
    e.perform(.insert("new "))
    #expect(mkdir(blocker, 0o755) == 0)
    e.perform(.save)
    #expect(e.message?.hasPrefix("cannot save") == true)
    #expect(read(path: folder + "/a.txt") == "old")
    #expect(notebook.isModified)
    // Once it can, it saves.
    _ = rmdir(blocker)
    e.perform(.save)
    #expect(read(path: folder + "/a.txt") == "new old")
  }

  @Test func aFileThatIsNotUTF8IsRefused() throws {
    let path = "/tmp/editor-core-tests-latin1-\(getpid()).txt"
    defer { _ = unlink(path) }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9]  // "café" in Latin-1
    _ = Glibc.write(fd, &bytes, bytes.count)
    close(fd)
    #expect(throws: NotebookError.self) { try Notebook.open(paths: [path]) }
  }

  // MARK: - Files

  func write(path: String, _ text: String) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
  }

  func read(path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = fread(&buffer, 1, buffer.count, file)
      if n == 0 { break }
      bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  func entries(_ folder: String) -> [String] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  @Test func aResizeWrapsAgain() throws {
    let sentence = "the quick brown fox jumps over the lazy dog"
    let e = try editor(["\(sentence), \(sentence).\n"], rows: 24, columns: 80)
    _ = e.frame()
    e.resize(rows: 30, columns: 100)
    #expect(e.frame().lines[1].spans.map(\.text).joined() == "\(sentence), \(sentence).")
    e.resize(rows: 12, columns: 50)
    let rows = e.frame().lines.map { $0.spans.map(\.text).joined() }
    #expect(rows[1] == "the quick brown fox jumps over the lazy dog, the ")
    #expect(rows[2] == "quick brown fox jumps over the lazy dog.")
    #expect(rows.count == 12)
  }
}
