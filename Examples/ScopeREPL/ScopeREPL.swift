import ArgumentParser
import DocumentEngine
import DocumentMCP
import Foundation
import ScopeREPLCore
import TextRope

#if MCP
import MCP
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints a line on stdout and flushes it (programs read it at once).
func emit(_ line: String) {
  print(line)
  fflush(nil)
}

/// Prints a line on stderr.
func diagnose(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

@main
struct ScopeREPL: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scope-repl",
    abstract: "Ask a multi-storage document for Writing Tools contexts, replace, map, replay.",
    discussion: """
      Without --json it reads short commands ('help' lists them) and starts on a built-in \
      sample document unless given files. With --json it speaks the JSON-lines protocol of \
      PROTOCOL.md: one request per line in, one response per line out.
      """)

  @Flag(help: "Speak the JSON-lines protocol: one JSON object per line in and out.")
  var json = false

  #if MCP
  @Flag(
    help: """
      Serve the document to an agent over the Model Context Protocol on stdin and stdout: \
      the protocol's commands as tools (PROTOCOL.md), the storages as resources.
      """)
  var mcp = false
  #endif

  @Option(
    name: .long, parsing: .upToNextOption,
    help: "UTF-8 files to add as storages, named by their file names.")
  var load: [String] = []

  @Flag(help: "Start on the built-in sample document (the default in human mode without --load).")
  var sample = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The largest file that --load, add and replay read, in bytes.",
      valueName: "bytes"))
  var maxFileBytes = REPLLimits.defaultMaxFileBytes

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The largest JSON text of a trace that replay decodes (a .gz inflated), in bytes.",
      valueName: "bytes"))
  var maxInflatedBytes = REPLLimits.defaultMaxInflatedBytes

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The longest input line read, in bytes; a longer one is skipped with an error.",
      valueName: "bytes"))
  var maxLineBytes = REPLLimits.defaultMaxLineBytes

  func validate() throws {
    for (name, value) in [
      ("--max-file-bytes", maxFileBytes), ("--max-inflated-bytes", maxInflatedBytes),
      ("--max-line-bytes", maxLineBytes),
    ] where value < 0 {
      throw ValidationError("\(name) must not be negative")
    }
  }

  func run() throws {
    let engine = REPLEngine(
      limits: REPLLimits(
        maxFileBytes: maxFileBytes, maxInflatedBytes: maxInflatedBytes,
        maxLineBytes: maxLineBytes))
    if !json && !servesAgent {
      // Progress lines on a terminal, rewritten in place; never in --json mode.
      engine.progress = ProgressReporter(isTerminal: isatty(2) != 0) { text in
        FileHandle.standardError.write(Data(text.utf8))
      }
    }
    var startup: [String] = []
    for path in load {
      let name = StorageID(URL(fileURLWithPath: path).lastPathComponent)
      do {
        _ = try engine.run(.add(name, .file(path: path), after: nil, unit: .utf16))
      } catch {
        diagnose("scope-repl: \(error.message)")
        throw ExitCode(1)
      }
    }
    startup += engine.progress?.takeSummaries() ?? []
    if sample || (!json && !servesAgent && load.isEmpty) {
      for storage in Sample.storages {
        try engine.document.add(StorageID(storage.name), text: Rope(storage.text))
        if storage.excluded {
          try engine.document.setExcluded(
            true, in: StorageID(storage.name), range: 0..<storage.text.utf16.count)
        }
      }
      startup.append("The sample document (a title, a body in several scripts, excluded code):")
    }
    #if MCP
    if mcp {
      serveAgent(engine)
      return
    }
    #endif
    var reader = LineReader.standardInput(maxLineBytes: maxLineBytes)
    if json {
      while let line = reader.next() {
        let (response, quit) = engine.handleLine(line)
        emit(response)
        if quit { return }
      }
      return
    }
    // Attributes show as ANSI styles only when stdout is a terminal.
    let human = HumanMode(engine: engine, styled: isatty(1) != 0)
    let interactive = isatty(0) != 0
    // A person at a terminal gets line editing and history; anything else
    // (a pipe, a file, stdout redirected) is read as it always was.
    var terminal =
      TerminalLineReader.isAvailable
      ? TerminalLineReader(prompt: "> ", maxLineBytes: maxLineBytes) : nil
    emit("scope-repl — Writing Tools contexts on a multi-storage document. Type 'help'.")
    for line in startup { emit(line) }
    if !load.isEmpty { emit("Loaded:") }
    emit(human.run("storages").output)
    while true {
      let next: LineReader.Line?
      if terminal != nil {
        next = terminal?.next()
      } else {
        if interactive {
          print("> ", terminator: "")
          fflush(nil)
        }
        next = reader.next()
      }
      guard let line = next else { break }
      let (output, quit) = human.run(line)
      if !output.isEmpty { emit(output) }
      if quit { return }
    }
  }
}

extension ScopeREPL {
  /// Whether the program serves an agent (`--mcp`): stdout then carries
  /// the protocol's messages only.
  var servesAgent: Bool {
    #if MCP
    mcp
    #else
    false
    #endif
  }

  #if MCP
  /// Serves `engine`'s document to one agent over stdio (origin `agent`)
  /// until its input ends.
  func serveAgent(_ engine: REPLEngine) {
    let access = LockedREPLEngine(engine)
    let done = DispatchSemaphore(value: 0)
    Task {
      do {
        let server = try await AgentServer.start(
          on: StdioTransport(), engine: access, origin: "agent")
        await server.waitUntilCompleted()
        // (The input ended; a call it made may still be answering.)
        try? await Task.sleep(for: .milliseconds(200))
        await server.stop()
      } catch {
        diagnose("scope-repl: the MCP server stopped: \(error)")
      }
      done.signal()
    }
    done.wait()
  }
  #endif
}
