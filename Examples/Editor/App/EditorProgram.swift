import ArgumentParser
import EditorCore
import EditorSpelling
import EditorTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `editor FILE…`: a terminal notebook on the engine.
@main
struct EditorProgram: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "editor",
    abstract: "A terminal notebook that embeds the document engine.",
    discussion: """
      Each FILE is one cell, shown one after the other; .md files are read \
      as Markdown into rich text and saved back as Markdown. Without files, \
      a built-in sample notebook. Ctrl-S saves, Ctrl-Q quits, Ctrl-Z and \
      Ctrl-Y undo and redo, Ctrl-B makes the selection strong.
      """)

  @Argument(help: "The files to open, one cell each (a missing file is created on save).")
  var files: [String] = []

  @Option(help: "The spell checker's language (an Enchant dictionary).")
  var lang = "en_US"

  @Flag(help: "Check no spelling.")
  var noSpelling = false

  @Option(
    help: """
      The writing tool Ctrl-R runs: a shell command that reads Markdown on its \
      standard input and writes Markdown (a language model's client, a formatter).
      """)
  var tool: String? = nil

  @Option(help: "How long the tool may run, in seconds.")
  var toolTimeout: Double = 60

  @Option(help: "How many bytes the tool may write.")
  var toolLimit: Int = 1 << 20

  mutating func run() throws {
    let notebook: Notebook
    do {
      notebook = files.isEmpty ? Notebook.sample() : try Notebook.open(paths: files)
    } catch {
      throw ValidationError(error.description)
    }
    guard Terminal.isTerminal(0) else {
      throw ValidationError("editor needs a terminal on its standard input")
    }
    let terminal = try Terminal()
    try terminal.enterRawMode()
    defer { terminal.restore() }
    let size = terminal.size() ?? (rows: 24, columns: 80)
    let editor = Editor(notebook: notebook, rows: size.rows, columns: size.columns)
    editor.toolCommand = tool
    editor.toolTimeout = toolTimeout
    editor.toolOutputLimit = toolLimit
    if !noSpelling {
      do {
        editor.spelling = SpellingService(checker: try SpellChecker(language: lang))
      } catch {
        editor.message = "No spelling: \(error)"
      }
    }
    var renderer = FrameRenderer(
      supportsStyledUnderlines: FrameRenderer.isKnownToSupportStyledUnderlines(
        term: Self.environment("TERM"), termProgram: Self.environment("TERM_PROGRAM")))
    try terminal.write(renderer.render(editor.frame()))
    var decoder = KeyDecoder()
    var idleSince = 0
    while true {
      let bytes = try terminal.read(timeoutMilliseconds: 50)
      var redraw = false
      if terminal.consumeResize(), let size = terminal.size() {
        editor.resize(rows: size.rows, columns: size.columns)
        renderer.invalidate()
        redraw = true
      }
      var events = decoder.feed(bytes)
      if bytes.isEmpty && decoder.isPending { events += decoder.flush() }
      for event in events {
        // Ctrl-C quits as Ctrl-Q does (asking first if there are unsaved
        // changes): raw mode makes it a key.
        let command =
          event == .ctrl("c")
          ? .quit
          : KeyBindings.command(for: event, onSuggestion: editor.currentSuggestion != nil)
        guard let command else { continue }
        if editor.perform(command) == .quit { return }
        redraw = true
      }
      if events.isEmpty {
        idleSince += 1
        // The person paused (a quarter of a second): check the visible
        // paragraphs that changed, count the words.
        if idleSince == 5 {
          editor.checkVisibleSpelling()
          editor.countWords()
        }
      } else {
        idleSince = 0
      }
      if editor.landSpelling() { redraw = true }
      if editor.landWordCounts() { redraw = true }
      if editor.pollTool() { redraw = true }
      if redraw { try terminal.write(renderer.render(editor.frame())) }
    }
  }

  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
