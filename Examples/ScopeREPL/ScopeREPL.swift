import ArgumentParser
import DocumentEngine
import Foundation
import TextRope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads stdin a line at a time, as bytes (so that a line that is not UTF-8
/// can be answered, not repaired).
struct LineReader {
  var buffer: [UInt8] = []
  var atEnd = false

  mutating func next() -> [UInt8]? {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        var line = Array(buffer[..<newline])
        buffer.removeFirst(newline + 1)
        if line.last == 0x0D { line.removeLast() }
        return line
      }
      if atEnd {
        guard !buffer.isEmpty else { return nil }
        defer { buffer.removeAll() }
        return buffer
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = read(0, &chunk, chunk.count)
      if count <= 0 {
        atEnd = true
      } else {
        buffer.append(contentsOf: chunk[..<count])
      }
    }
  }
}

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

  @Option(
    name: .long, parsing: .upToNextOption,
    help: "UTF-8 files to add as storages, named by their file names.")
  var load: [String] = []

  @Flag(help: "Start on the built-in sample document (the default in human mode without --load).")
  var sample = false

  func run() throws {
    let engine = REPLEngine()
    let terminal = isatty(2) != 0
    if terminal { engine.progress = { diagnose($0) } }
    var startup: [String] = []
    for path in load {
      let name = URL(fileURLWithPath: path).lastPathComponent
      let response = engine.handle(
        .object([("cmd", .string("add")), ("storage", .string(name)), ("path", .string(path))]))
      if response["ok"] != .bool(true) {
        let message = response["error"]?["message"] ?? .null
        diagnose("scope-repl: \(JSONWriter.write(message))")
        throw ExitCode(1)
      }
    }
    if sample || (!json && load.isEmpty) {
      for storage in Sample.storages {
        try engine.document.add(StorageID(storage.name), text: Rope(storage.text))
        if storage.excluded {
          try engine.document.setExcluded(
            true, StorageID(storage.name), range: 0..<storage.text.utf16.count)
        }
      }
      startup.append("The sample document (a title, a body in several scripts, excluded code):")
    }
    var reader = LineReader()
    if json {
      while let bytes = reader.next() {
        let response: JSON
        if String(validating: bytes, as: UTF8.self) == nil {
          response = REPLEngine.failure(REPLError("invalidUTF8", "the line is not UTF-8"))
        } else {
          do {
            let request = try JSONReader.parse(bytes)
            response = engine.handle(request)
            emit(JSONWriter.write(response))
            if request["cmd"] == .string("quit") && response["ok"] == .bool(true) { return }
            continue
          } catch {
            response = REPLEngine.failure(.badRequest("\(error)"))
          }
        }
        emit(JSONWriter.write(response))
      }
      return
    }
    let human = HumanMode(engine: engine)
    let interactive = isatty(0) != 0
    emit("scope-repl — Writing Tools contexts on a multi-storage document. Type 'help'.")
    for line in startup { emit(line) }
    if !load.isEmpty { emit("Loaded:") }
    emit(human.run("storages").output)
    while true {
      if interactive {
        print("> ", terminator: "")
        fflush(nil)
      }
      guard let bytes = reader.next() else { break }
      let line = String(decoding: bytes, as: UTF8.self)
      let (output, quit) = human.run(line)
      if !output.isEmpty { emit(output) }
      if quit { return }
    }
  }
}
