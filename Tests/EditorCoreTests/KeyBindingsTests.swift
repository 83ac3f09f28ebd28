import DocumentEngine
import DocumentMarkdown
import EditorCore
import EditorTerminal
import Testing
import TextRope

/// Which command each key stands for, and how rich text is drawn.
struct KeyBindingsTests {
  static let cases: [(KeyEvent, EditorCommand?)] = [
    (.text("é👩🏽‍💻"), .insert("é👩🏽‍💻")),
    (.paste("two\nlines"), .insert("two\nlines")),
    (.key(.enter), .insert("\n")),
    (.key(.tab), .insert("\t")),
    (.key(.backspace), .deleteBackward),
    (.key(.delete), .deleteForward),
    (.key(.left), .move(.left, extend: false)),
    (.key(.left, .shift), .move(.left, extend: true)),
    (.key(.right, .ctrl), .move(.wordRight, extend: false)),
    (.key(.left, [.ctrl, .shift]), .move(.wordLeft, extend: true)),
    (.key(.right, .alt), .move(.wordRight, extend: false)),
    (.key(.up), .move(.up, extend: false)),
    (.key(.down, .shift), .move(.down, extend: true)),
    (.key(.home), .move(.lineStart, extend: false)),
    (.key(.end, .shift), .move(.lineEnd, extend: true)),
    (.key(.home, .ctrl), .move(.notebookStart, extend: false)),
    (.key(.end, .ctrl), .move(.notebookEnd, extend: false)),
    (.key(.pageUp), .move(.pageUp, extend: false)),
    (.key(.pageDown, .shift), .move(.pageDown, extend: true)),
    (.ctrl("a"), .move(.paragraphStart, extend: false)),
    (.ctrl("e"), .move(.paragraphEnd, extend: false)),
    (.ctrl("s"), .save),
    (.ctrl("q"), .quit),
    (.ctrl("z"), .undo),
    (.key(.character("z"), [.ctrl, .shift]), .redo),
    (.ctrl("y"), .redo),
    (.ctrl("b"), .strong),
    (.ctrl("r"), .runTool),
    (.key(.f(7)), .nextSuggestion),
    (.key(.escape), nil),
    (.key(.f(5)), nil),
    (.unknown([0x1B, 0x5B, 0x4D]), nil),
  ]

  @Test(arguments: cases.indices)
  func eachKeyStandsForItsCommand(_ i: Int) {
    let (event, command) = Self.cases[i]
    #expect(KeyBindings.command(for: event) == command, "\(event)")
  }

  @Test func onASuggestionTabEnterAndEscapeReviewIt() {
    #expect(KeyBindings.command(for: .key(.tab), onSuggestion: true) == .previewNextCandidate)
    #expect(KeyBindings.command(for: .key(.enter), onSuggestion: true) == .acceptSuggestion)
    #expect(KeyBindings.command(for: .key(.escape), onSuggestion: true) == .ignoreSuggestion)
    #expect(KeyBindings.command(for: .text("x"), onSuggestion: true) == .insert("x"))
  }

  /// An editor of one Markdown cell holding `text`, 60 columns wide.
  static func editor(_ text: AttributedText, rows: Int) throws -> Editor {
    let document = Document()
    try document.add("a", text: Rope(text.text), attributes: text.runs)
    let cell = Notebook.Cell(
      id: "a", path: nil, format: .markdown, title: "a",
      savedVersion: try document.content.storage("a").version)
    return Editor(notebook: Notebook(document: document, cells: [cell]), rows: rows, columns: 60)
  }

  @Test func richTextIsDrawnWithTerminalStyles() throws {
    let read = AttributedText(
      markdown:
        "# Title\n\n**strong** *em* `code` [link](https://example.com) ~~gone~~\n\n> quoted\n")
    let e = try Self.editor(read, rows: 8)
    let lines = e.frame().lines
    func span(_ row: Int, _ text: String) -> StyledSpan? {
      lines[row].spans.first { $0.text.contains(text) }
    }
    #expect(span(1, "#")?.style.dim == true)
    #expect(span(1, "Title")?.style.bold == true)
    #expect(span(2, "strong")?.style.bold == true)
    #expect(span(2, "em")?.style.italic == true)
    #expect(span(2, "code")?.style.foreground == .cyan)
    #expect(span(2, "link")?.style.underline == .single)
    #expect(span(2, "gone")?.style.strikethrough == true)
    #expect(span(3, "│")?.style.dim == true)
    #expect(span(3, "quoted")?.style.dim == false)
  }

  @Test func anImageIsDrawnAsItsAltTextMarkedAsAnImage() throws {
    let read = AttributedText(
      markdown:
        "See ![the logo](logo.png) and [![badge](b.svg)](https://example.com) or ![](x.png).\n")
    let e = try Self.editor(read, rows: 6)
    let line = e.frame().lines[1]
    func span(_ text: String) -> StyledSpan? { line.spans.first { $0.text.contains(text) } }
    #expect(span("See")?.style.foreground == nil)
    #expect(span("the logo")?.style.foreground == .magenta)
    #expect(span("the logo")?.style.underline == .single)
    #expect(span("badge")?.style.foreground == .magenta)
    #expect(span("\u{FFFC}")?.style.foreground == .magenta)
  }
}
