import EditorTerminal
import Testing

@Suite struct KeyEventTests {
  @Test(
    arguments: [
      (KeyEvent.key(.left, .ctrl), "Ctrl-Left"),
      (.key(.end, .shift), "Shift-End"),
      (.key(.f(7)), "F7"),
      (.ctrl("s"), "Ctrl-S"),
      (.ctrl("S"), "Ctrl-S"),
      (.key(.right, [.ctrl, .shift]), "Ctrl-Shift-Right"),
      (.key(.pageUp, [.alt, .ctrl]), "Ctrl-Alt-PageUp"),
      (.key(.backTab), "Shift-Tab"),
      (.key(.enter), "Enter"),
      (.key(.escape), "Escape"),
      (.key(.character("x"), .alt), "Alt-x"),
      (.key(.character(" "), .ctrl), "Ctrl-Space"),
      (.key(.character("s"), [.ctrl, .alt]), "Ctrl-Alt-S"),
      (.key(.up, .meta), "Meta-Up"),
      (.text("hé"), "\"hé\""),
      (.paste("a\nb"), "Paste \"a\\nb\""),
      (.unknown([0x1B, 0x5B, 0x39, 0x39, 0x78]), "Unknown ESC[99x"),
      (.unknown([0x1B, 0x07, 0xFF]), "Unknown ESC\\x07\\xFF"),
    ] as [(KeyEvent, String)])
  func description(event: KeyEvent, description: String) {
    #expect(event.description == description)
  }

  @Test func longPasteDescriptionIsShortened() {
    let event = KeyEvent.paste(String(repeating: "a", count: 100))
    #expect(event.description == "Paste \"\(String(repeating: "a", count: 40))\"… (100 characters)")
  }

  @Test func ctrlMatchesInSwitch() {
    let name: String
    switch KeyEvent.key(.character("s"), .ctrl) {
    case .ctrl("q"): name = "quit"
    case .ctrl("s"): name = "save"
    default: name = "other"
    }
    #expect(name == "save")
  }
}
