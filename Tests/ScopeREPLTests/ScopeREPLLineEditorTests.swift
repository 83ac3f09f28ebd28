import Foundation
import ScopeREPLCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes a terminal sends for the keys the editor reads.
private enum Key {
  static let left: [UInt8] = [0x1B, 0x5B, 0x44]
  static let right: [UInt8] = [0x1B, 0x5B, 0x43]
  static let up: [UInt8] = [0x1B, 0x5B, 0x41]
  static let down: [UInt8] = [0x1B, 0x5B, 0x42]
  static let home: [UInt8] = [0x1B, 0x5B, 0x48]
  static let end: [UInt8] = [0x1B, 0x5B, 0x46]
  static let delete: [UInt8] = [0x1B, 0x5B, 0x33, 0x7E]
  static let enter: [UInt8] = [0x0D]
  static let backspace: [UInt8] = [0x7F]
  static func control(_ letter: Character) -> [UInt8] {
    [(letter.asciiValue ?? 0) & 0x1F]
  }
}

/// An editor fed `input`, with the actions it returned.
private func editor(
  _ input: [UInt8], maxLineBytes: Int = 1 << 20
) -> (editor: LineEditor, actions: [LineEditor.Action]) {
  var editor = LineEditor(maxLineBytes: maxLineBytes)
  let actions = editor.feed(input)
  return (editor, actions)
}

/// `text` as UTF-8.
private func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A submitted line.
private func submitted(_ text: String) -> LineEditor.Action { .submit(.line(utf8(text))) }

@Suite struct ScopeREPLLineEditorTests {
  @Test func textIsInsertedWhereTheArrowsPutTheCursor() {
    let (typed, actions) = editor(utf8("abc") + Key.left + Key.left + utf8("X"))
    #expect(typed.text == "aXbc")
    #expect(typed.cursor == 2)
    #expect(actions.isEmpty)
    var moved = typed
    _ = moved.feed(Key.right)
    #expect(moved.cursor == 3)
    _ = moved.feed(Key.right + Key.right + Key.right)
    #expect(moved.cursor == 4)
    _ = moved.feed(Key.left + Key.left + Key.left + Key.left + Key.left)
    #expect(moved.cursor == 0)
    // The SS3 forms (application cursor keys) and Ctrl-B, Ctrl-F.
    _ = moved.feed([0x1B, 0x4F, 0x43] + Key.control("f") + utf8("-"))
    #expect(moved.text == "aX-bc")
    _ = moved.feed([0x1B, 0x4F, 0x44] + Key.control("b") + utf8("+"))
    #expect(moved.text == "a+X-bc")
  }

  @Test(arguments: [
    (Key.control("a"), Key.control("e")),
    (Key.home, Key.end),
    ([0x1B, 0x4F, 0x48], [0x1B, 0x4F, 0x46]),
    ([0x1B, 0x5B, 0x31, 0x7E], [0x1B, 0x5B, 0x34, 0x7E]),
    ([0x1B, 0x5B, 0x37, 0x7E], [0x1B, 0x5B, 0x38, 0x7E]),
  ])
  func homeAndEndGoToTheStartAndTheEnd(home: [UInt8], end: [UInt8]) {
    let (typed, _) = editor(
      utf8("middle") + Key.left + Key.left + home + utf8("<") + end + utf8(">"))
    #expect(typed.text == "<middle>")
    #expect(typed.cursor == 8)
    var back = typed
    _ = back.feed(home)
    #expect(back.cursor == 0)
  }

  @Test func backspaceDeleteAndControlDDeleteOneCharacter() {
    let (typed, actions) = editor(
      utf8("abcdef") + Key.backspace + Key.control("a") + Key.delete + Key.control("d")
        + Key.right + [0x08])
    #expect(typed.text == "de")
    #expect(typed.cursor == 0)
    #expect(actions.isEmpty)
    // Nothing to delete at either end.
    var ends = typed
    _ = ends.feed(Key.backspace)
    #expect(ends.text == "de")
    _ = ends.feed(Key.end + Key.delete + Key.control("d"))
    #expect(ends.text == "de")
    #expect(ends.feed(Key.control("d")).isEmpty)
  }

  @Test func controlDOnAnEmptyLineEndsTheInput() {
    #expect(editor(Key.control("d")).actions == [.endOfInput])
    #expect(editor(utf8("x") + Key.backspace + Key.control("d")).actions == [.endOfInput])
    #expect(editor(utf8("x") + Key.left + Key.control("d")).actions == [])
  }

  @Test func killsAndYank() {
    let words = utf8("one two  three")
    #expect(editor(words + Key.control("w")).0.text == "one two  ")
    #expect(editor(words + Key.control("w") + Key.control("w")).0.text == "one ")
    let (killed, _) = editor(words + Key.left + Key.left + Key.control("w"))
    #expect(killed.text == "one two  ee")
    #expect(killed.cursor == 9)
    let (toEnd, _) = editor(words + Key.control("a") + Key.right + Key.right + Key.control("k"))
    #expect(toEnd.text == "on")
    #expect(toEnd.cursor == 2)
    let (toStart, _) = editor(words + Key.left + Key.left + Key.control("u"))
    #expect(toStart.text == "ee")
    #expect(toStart.cursor == 0)
    let (yanked, _) = editor(words + Key.control("w") + Key.control("a") + Key.control("y"))
    #expect(yanked.text == "threeone two  ")
    #expect(yanked.cursor == 5)
  }

  @Test func enterSubmitsTheLineAndStartsANewOne() {
    var typed = LineEditor()
    #expect(typed.feed(utf8("storages") + Key.left + Key.enter) == [submitted("storages")])
    // The submitted line stays, the cursor at its end, for a last redraw.
    #expect(typed.text == "storages")
    #expect(typed.cursor == 8)
    #expect(typed.feed(utf8("x")).isEmpty)
    #expect(typed.text == "x")
    // `\r\n` is one Enter, `\n` alone is one, an empty line is submitted.
    #expect(typed.feed(utf8("\r\n\n")) == [submitted("x"), submitted("")])
    #expect(typed.history == ["storages", "x"])
  }

  @Test func upAndDownWalkTheHistoryAndKeepTheDraft() {
    var typed = LineEditor()
    _ = typed.feed(Key.up)
    #expect(typed.text == "")
    _ = typed.feed(utf8("first\rsecond\rsecond\r\rthird\r"))
    #expect(typed.history == ["first", "second", "third"])
    // Up on a new line recalls the last line, then the ones before it.
    _ = typed.feed(Key.up)
    #expect(typed.text == "third")
    #expect(typed.cursor == 5)
    _ = typed.feed(Key.up + Key.up)
    #expect(typed.text == "first")
    _ = typed.feed(Key.up)
    #expect(typed.text == "first")
    _ = typed.feed(Key.down)
    #expect(typed.text == "second")
    _ = typed.feed(Key.down + Key.down)
    #expect(typed.text == "")
    // The line being typed is kept while going up and comes back down.
    _ = typed.feed(utf8("dra") + Key.up + Key.up)
    #expect(typed.text == "second")
    _ = typed.feed(Key.down)
    #expect(typed.text == "third")
    _ = typed.feed(Key.down)
    #expect(typed.text == "dra")
    #expect(typed.cursor == 3)
    _ = typed.feed(Key.down)
    #expect(typed.text == "dra")
    // A recalled line is edited and submitted; the history keeps the original.
    _ = typed.feed(utf8("ft") + [0x10] + Key.control("a") + utf8("re"))
    #expect(typed.text == "rethird")
    _ = typed.feed([0x0E])
    #expect(typed.text == "draft")
    _ = typed.feed(Key.up)
    #expect(typed.text == "rethird")
    #expect(typed.feed(Key.enter) == [submitted("rethird")])
    #expect(typed.history == ["first", "second", "third", "rethird"])
    _ = typed.feed(Key.up + Key.up)
    #expect(typed.text == "third")
    _ = typed.feed(Key.down + Key.down)
    #expect(typed.text == "")
  }

  @Test func controlCClearsTheLineAndLeavesTheHistory() {
    var typed = LineEditor()
    _ = typed.feed(utf8("one\rtwo") + Key.up + utf8("!") + Key.control("c"))
    #expect(typed.text == "")
    #expect(typed.cursor == 0)
    _ = typed.feed(Key.up)
    #expect(typed.text == "one")
    _ = typed.feed(Key.down)
    #expect(typed.text == "")
  }

  @Test func anEmojiSequenceOrACombiningMarkIsOneStep() {
    let family = "👨‍👩‍👧‍👦"
    let (typed, _) = editor(utf8("a\(family)🇵🇹b") + Key.left + Key.left + Key.left)
    #expect(typed.characters.count == 4)
    #expect(typed.cursor == 1)
    var inserted = typed
    _ = inserted.feed(utf8("|") + Key.right + utf8("|"))
    #expect(inserted.text == "a|\(family)|🇵🇹b")
    // A mark typed after its letter joins it; one Left goes over both.
    let (marked, _) = editor(utf8("ne") + utf8("\u{301}") + utf8("\u{323}") + utf8("e"))
    #expect(marked.characters == ["n", "e\u{301}\u{323}", "e"])
    var back = marked
    _ = back.feed(Key.left + Key.left + utf8("|"))
    #expect(back.text == "n|e\u{301}\u{323}e")
    // Two regional indicators typed apart make one flag.
    let (flag, _) = editor(utf8("🇵") + utf8("🇹") + Key.left)
    #expect(flag.characters == ["🇵🇹"])
    #expect(flag.cursor == 0)
  }

  @Test func aCharacterSplitAcrossFeedsIsPutTogether() {
    var typed = LineEditor()
    for byte in utf8("é😀") {
      #expect(typed.feed(byte) == .continue)
    }
    #expect(typed.text == "é😀")
    #expect(typed.byteCount == 6)
  }

  @Test func backspaceDeletesAWholeMultiByteCharacter() {
    let (typed, _) = editor(utf8("aé👨‍👩‍👧‍👦") + Key.backspace)
    #expect(typed.text == "aé")
    #expect(typed.byteCount == 3)
    var again = typed
    _ = again.feed(Key.backspace)
    #expect(again.text == "a")
    #expect(again.byteCount == 1)
    // Deleting what stood between a letter and a mark (a zero width space
    // keeps them apart) joins them, as does a letter typed before a mark.
    let (apart, _) = editor(utf8("e\u{200B}\u{301}x") + Key.left + Key.left)
    #expect(apart.characters.count == 4)
    var joined = apart
    _ = joined.feed(Key.backspace)
    #expect(joined.characters == ["e\u{301}", "x"])
    #expect(joined.cursor == 1)
    #expect(joined.byteCount == 4)
    let (before, _) = editor(utf8("\u{301}") + Key.home + utf8("e"))
    #expect(before.characters == ["e\u{301}"])
    #expect(before.cursor == 1)
  }

  @Test func unknownEscapeSequencesAreIgnored() {
    let sequences: [[UInt8]] = [
      [0x1B, 0x5B, 0x35, 0x7E],  // Page Up
      [0x1B, 0x5B, 0x31, 0x3B, 0x32, 0x5A],  // Shift-Tab with a modifier
      [0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E],  // the start of a bracketed paste
      [0x1B, 0x4F, 0x50],  // F1
      [0x1B, 0x78],  // Alt-x
      // Too long to be a Left with a modifier (its first 16 bytes would be).
      [0x1B, 0x5B, 0x31, 0x3B] + [UInt8](repeating: 0x35, count: 100) + [0x44],
      [0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x41],  // Ctrl-Up
      [0x09, 0x00, 0x1C, 0x07],  // control bytes that mean nothing here
    ]
    for sequence in sequences {
      let (typed, actions) = editor(utf8("ab") + Key.left + sequence + utf8("X"))
      #expect(typed.text == "aXb", "\(sequence)")
      #expect(actions.isEmpty, "\(sequence)")
    }
    // Enter inside a sequence ends it and submits.
    #expect(editor(utf8("ok") + [0x1B, 0x5B, 0x31] + Key.enter).actions == [submitted("ok")])
  }

  @Test func invalidUTF8IsIgnored() {
    let invalid: [[UInt8]] = [
      [0xFF], [0x80], [0xC0, 0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xE0, 0x80, 0x80], [0xC2, 0x85],
      // `A` spelled in three and four bytes (overlong).
      [0xE0, 0x81, 0x81], [0xF0, 0x80, 0x81, 0x81],
    ]
    for bytes in invalid {
      let (typed, _) = editor(utf8("a") + bytes + utf8("b€"))
      #expect(typed.text == "ab€", "\(bytes)")
      #expect(typed.byteCount == 5, "\(bytes)")
    }
  }

  @Test func aLineOverTheLimitIsRefusedAndSubmittedAsTooLong() {
    var typed = LineEditor(maxLineBytes: 5)
    _ = typed.feed(utf8("abcdefg"))
    #expect(typed.text == "abcde")
    #expect(typed.refusedByteCount == 2)
    #expect(typed.feed(Key.enter) == [.submit(.tooLong(byteCount: 7, limit: 5))])
    #expect(typed.history.isEmpty)
    // A character that does not fit whole is refused whole; moving the
    // cursor keeps the refusal, and more input is refused too.
    _ = typed.feed(utf8("abcd€") + Key.left + Key.home)
    #expect(typed.text == "abcd")
    #expect(typed.feed(utf8("x") + Key.enter) == [.submit(.tooLong(byteCount: 8, limit: 5))])
    // A deletion makes the line shown the line submitted.
    #expect(typed.feed(utf8("abcdé") + Key.backspace + Key.enter) == [submitted("abc")])
    // Ctrl-C forgets the refusal.
    #expect(typed.feed(utf8("abcdefg") + Key.control("c") + utf8("ok\r")) == [submitted("ok")])
    #expect(LineEditor(maxLineBytes: 0).maxLineBytes == 0)
    var none = LineEditor(maxLineBytes: -3)
    #expect(none.feed(utf8("x\r")) == [.submit(.tooLong(byteCount: 1, limit: 0))])
    #expect(none.feed(Key.enter) == [submitted("")])
  }

  @Test func theRedrawWritesThePromptTheLineAndMovesTheCursorBack() {
    let (typed, _) = editor(utf8("abc") + Key.left + Key.left)
    #expect(typed.redraw(prompt: "> ") == utf8("\r> abc\u{1B}[K\u{1B}[2D"))
    let (atEnd, _) = editor(utf8("abc"))
    #expect(atEnd.redraw(prompt: "> ") == utf8("\r> abc\u{1B}[K"))
    // Wide characters take two columns; a combining mark none of its own.
    let (wide, _) = editor(utf8("東京e\u{301}😀x") + Key.home + Key.right)
    #expect(wide.redraw(prompt: "> ") == utf8("\r> 東京e\u{301}😀x\u{1B}[K\u{1B}[6D"))
  }

  @Test func aLineWiderThanTheTerminalIsShownAroundTheCursor() {
    let (typed, _) = editor(utf8("0123456789abcdef"))
    // 12 columns: 2 for the prompt, 1 kept free, 9 for the line and cursor.
    #expect(typed.redraw(prompt: "> ", width: 12) == utf8("\r> 89abcdef\u{1B}[K"))
    // The view of the end stays while the cursor is in it.
    var moved = typed
    _ = moved.feed(Key.left + Key.left + Key.left + Key.left + Key.left)
    #expect(moved.redraw(prompt: "> ", width: 12) == utf8("\r> 89abcdef\u{1B}[K\u{1B}[5D"))
    // Before it, the screenful from the start that holds the cursor.
    _ = moved.feed(Key.home)
    #expect(moved.redraw(prompt: "> ", width: 12) == utf8("\r> 012345678\u{1B}[K\u{1B}[9D"))
    _ = moved.feed(Key.right + Key.right + Key.right)
    #expect(moved.redraw(prompt: "> ", width: 12) == utf8("\r> 012345678\u{1B}[K\u{1B}[6D"))
    // Wide characters: a screenful is 9 columns, so 4 of them.
    let (wide, _) = editor(
      utf8("一二三四五六七八九十") + Key.home + Key.right + Key.right + Key.right + Key.right)
    #expect(wide.redraw(prompt: "> ", width: 12) == utf8("\r> 五六七八\u{1B}[K\u{1B}[8D"))
    // A terminal narrower than the prompt still shows the cursor's character.
    #expect(wide.redraw(prompt: "> ", width: 1) == utf8("\r> 五\u{1B}[K\u{1B}[2D"))
  }

  @Test func theREPLEditsLinesOnATerminalAndRestoresIt() throws {
    let terminal = try PseudoTerminal()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: REPL.path)
    let program = FileHandle(fileDescriptor: terminal.programSide, closeOnDealloc: false)
    process.standardInput = program
    process.standardOutput = program
    process.standardError = FileHandle.nullDevice
    try process.run()
    terminal.closeProgramSide()
    defer { if process.isRunning { process.terminate() } }
    // An empty prompt, drawn when a line starts.
    let prompt = utf8("\r> \u{1B}[K")
    #expect(terminal.read(untilSeen: prompt, times: 1))
    terminal.write(utf8("show title 0 5\r"))
    #expect(terminal.read(untilSeen: prompt, times: 2))
    // Up recalls the line; Backspace and 3 make it `show title 0 3`.
    terminal.write(Key.up + Key.backspace + utf8("3\r"))
    #expect(terminal.read(untilSeen: prompt, times: 3))
    terminal.write(Key.control("d"))
    terminal.readToEnd()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let screen = String(decoding: terminal.output, as: UTF8.self)
    #expect(screen.contains("\r> show title 0 5\u{1B}[K\r\nA tra\r\n(version 0)\r\n"))
    #expect(screen.contains("\r> show title 0 3\u{1B}[K\r\nA t\r\n(version 0)\r\n"))
    // No echo from the terminal itself: the editor drew every line.
    #expect(!screen.contains("^["))
    // Back as it was: echo and whole lines.
    let settings = try #require(terminal.settings)
    #expect(settings.c_lflag & tcflag_t(ECHO) != 0)
    #expect(settings.c_lflag & tcflag_t(ICANON) != 0)
  }
}
