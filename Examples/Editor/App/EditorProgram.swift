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

  @Option(
    help: """
      A prose checker run on the visible paragraphs that changed when you \
      pause: a shell command that reads text and writes proselint's JSON \
      ('proselint check -o json'); its findings are grammar and style \
      suggestions (F7, Tab, Enter, Esc).
      """)
  var checker: String? = nil

  @Option(
    name: .customLong("mcp"),
    help: """
      Serve the notebook to agents over the Model Context Protocol at \
      http://127.0.0.1:PORT/mcp (Streamable HTTP, loopback only). Agents \
      send the bearer token in MCP_TOKEN, or the one the status line shows. \
      Needs a build with the trait MCP (swift run --traits MCP editor …).
      """)
  var mcpPort: Int? = nil

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
    #if !MCP
    if mcpPort != nil {
      throw ValidationError(
        "this editor was built without MCP: build it with the trait (swift run --traits MCP editor)"
      )
    }
    #endif
    if let port = mcpPort, !(0...65_535).contains(port) {
      throw ValidationError("--mcp needs a port from 0 to 65535, not \(port)")
    }
    let terminal = try Terminal()
    try terminal.enterRawMode()
    defer { terminal.restore() }
    let size = terminal.size() ?? (rows: 24, columns: 80)
    let editor = Editor(notebook: notebook, rows: size.rows, columns: size.columns)
    editor.toolCommand = tool
    editor.toolTimeout = toolTimeout
    editor.toolOutputLimit = toolLimit
    editor.checkerCommand = checker
    if !noSpelling {
      do {
        editor.spelling = SpellingService(checker: try SpellChecker(language: lang))
      } catch {
        editor.message = "No spelling: \(error)"
      }
    }
    #if MCP
    var agents: EditorAgents? = nil
    if let port = mcpPort {
      let (token, isNew) = EditorAgents.token(from: Self.environment("MCP_TOKEN"))
      do {
        let served = try EditorAgents(document: notebook.document)
        let bound = try served.start(port: port, token: token)
        agents = served
        editor.agentStatus = "MCP :\(bound)"
        editor.message =
          "agents: http://127.0.0.1:\(bound)/mcp, token "
          + (isNew ? token : "from MCP_TOKEN")
      } catch {
        editor.message = "No MCP: \(error)"
      }
    }
    let wake = agents?.queue.wakeDescriptor
    #else
    let wake: Int32? = nil
    #endif
    var renderer = FrameRenderer(
      supportsStyledUnderlines: FrameRenderer.isKnownToSupportStyledUnderlines(
        term: Self.environment("TERM"), termProgram: Self.environment("TERM_PROGRAM")))
    try terminal.write(renderer.render(editor.frame()))
    var decoder = KeyDecoder()
    let clock = ContinuousClock()
    var lastKey = clock.now
    var paused = false
    while true {
      let bytes = try terminal.read(timeoutMilliseconds: 50, wake: wake)
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
        // The person paused (a quarter of a second, whatever woke the
        // loop meanwhile): check the visible paragraphs that changed,
        // count the words.
        if !paused, clock.now - lastKey >= .milliseconds(250) {
          paused = true
          editor.checkVisibleSpelling()
          editor.checkVisibleProse()
          editor.countWords()
          #if MCP
          agents?.documentChanged()
          #endif
        }
      } else {
        lastKey = clock.now
        paused = false
      }
      if editor.landSpelling() { redraw = true }
      if editor.landWordCounts() { redraw = true }
      if editor.pollTool() { redraw = true }
      if editor.pollChecker() { redraw = true }
      #if MCP
      if let agents {
        let (changed, status) = agents.run()
        if changed {
          editor.agentsCalled(status)
          redraw = true
        }
      }
      #endif
      if redraw { try terminal.write(renderer.render(editor.frame())) }
    }
  }

  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
