import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import DocumentMCP
import EditorCore
import EditorSpelling
import EditorTerminal
import Foundation
import ScopeREPLCore

// 47. The example editor's keystroke to its screen (issue 31's benchmark:
//     100 MB of Markdown, spelling on, 10,000 keys) while an agent connected
//     over Streamable HTTP (`editor --mcp`) edits the paragraph the person
//     types in every 10 ms (an insertion and its deletion in turn, before
//     the caret), its calls run on the loop between keystrokes as `editor`
//     runs them. Target: issue 31's rows, p99 ≤ 2 ms, max ≤ 20 ms.

/// A client of the endpoint on its own thread: initializes, then sends a
/// `tools/call` every `interval` until `stop`, each over its own
/// connection, waiting for its answer.
final class PacedAgent: @unchecked Sendable {
  let port: Int
  let token: String
  let storage: String
  let offset: Int
  let stop = Box(false)
  let calls = Box(0)
  /// The jobs the loop ran for it (its calls, on the loop's thread).
  let ran = Box(0)
  /// The endpoint, kept while the agent runs.
  var server: AgentHTTPServer? = nil
  private var session = ""

  init(port: Int, token: String, storage: String, offset: Int) {
    self.port = port
    self.token = token
    self.storage = storage
    self.offset = offset
  }

  func start(every interval: Duration) {
    Thread.detachNewThread { [self] in
      let initialize =
        #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"paced","version":"1"}}}"#
      guard let (headers, _) = post(initialize, session: nil),
        let id = headers.first(where: { $0.lowercased().hasPrefix("mcp-session-id:") })
      else { return }
      session = String(id.dropFirst("mcp-session-id:".count)).trimmingCharacters(in: .whitespaces)
      _ = post(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, session: session)
      var k = 1
      let clock = ContinuousClock()
      var next = clock.now
      while !stop.value {
        let edit =
          k % 2 == 1
          ? #"{"storage":"\#(storage)","offset":\#(offset),"length":0,"text":"·"}"#
          : #"{"storage":"\#(storage)","offset":\#(offset),"length":1,"text":""}"#
        _ = post(
          #"{"jsonrpc":"2.0","id":\#(k),"method":"tools/call","params":{"name":"edit","arguments":\#(edit)}}"#,
          session: session)
        calls.value += 1
        k += 1
        next = next + interval
        let now = clock.now
        if next > now {
          Thread.sleep(forTimeInterval: Double((next - now).components.attoseconds) / 1e18)
        }
      }
    }
  }

  /// One POST; its header lines and body.
  func post(_ body: String, session: String?) -> ([String], [UInt8])? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return nil }
    let bytes = Array(body.utf8)
    var request = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    request += "Authorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
    request += "Accept: application/json, text/event-stream\r\n"
    if let session { request += "MCP-Session-Id: \(session)\r\n" }
    request += "Content-Length: \(bytes.count)\r\n\r\n"
    let all = Array(request.utf8) + bytes
    var sent = 0
    while sent < all.count {
      let n = all[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { return nil }
      sent += n
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 14)
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      response += buffer[..<n]
    }
    let text = String(decoding: response, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else { return nil }
    let headers = text[..<split.lowerBound].components(separatedBy: "\r\n")
    return (headers, Array(text[split.upperBound...].utf8))
  }
}

/// How many of the agent's calls the editor's loop had run by each sample
/// (so that a run shows the agent was there: its p100 is the run's total).
let agentCallsRun = BenchmarkMetric.custom(
  "agent's calls run", polarity: .prefersLarger, useScalingFactor: false)

func registerEditorWithAgentBenchmark() {
  let keystrokes = configuration(
    metrics: [.wallClock, agentCallsRun], timeUnits: .microseconds, warmupIterations: 50,
    maxDuration: .seconds(120), maxIterations: 10_000)
  Benchmark(
    "Agents/keystroke to frame, 100 MB Markdown, an agent's edit every 10 ms over HTTP",
    configuration: keystrokes
  ) { benchmark, state in
    let (editor, renderer, keys, count, queue, agent) = state
    // (So far in the run: its largest value is how many ran in all.)
    defer { benchmark.measurement(agentCallsRun, agent.ran.value) }
    for _ in benchmark.scaledIterations {
      let key = keys[count.value % keys.count]
      count.value += 1
      if count.value % 100 == 0 { editor.checkVisibleSpelling() }
      // The loop's tick, as `editor` runs it: the agents' calls, the key,
      // the findings, the frame.
      let ran = queue.drain()
      if ran > 0 {
        agent.ran.value += ran
        editor.agentsCalled(nil)
      }
      editor.perform(key)
      editor.landSpelling()
      blackHole(renderer.value.render(editor.frame()))
    }
  } setup: {
    () -> (Editor, Box<FrameRenderer>, [EditorCommand], Box<Int>, MainLoopQueue, PacedAgent) in
    let path = NSTemporaryDirectory() + "editor-agent-benchmark-\(getpid()).md"
    if !FileManager.default.fileExists(atPath: path) {
      let markdown = MarkdownText.document(byteCount: 100 * 1_048_576)
      _ = FileManager.default.createFile(atPath: path, contents: Data(markdown.utf8))
    }
    guard let notebook = try? Notebook.open(paths: [path]), let queue = try? MainLoopQueue()
    else { fatalError("the benchmark's editor could not be made") }
    let editor = Editor(notebook: notebook, rows: 50, columns: 120)
    editor.spelling = (try? SpellChecker(language: "en_US")).map(SpellingService.init)
    let renderer = Box(FrameRenderer())
    _ = renderer.value.render(editor.frame())
    for _ in 0..<2_000 { editor.perform(.move(.pageDown, extend: false)) }
    // The agent edits where the caret's paragraph starts.
    editor.perform(.move(.paragraphStart, extend: false))
    let offset = editor.head.offset
    editor.perform(.move(.paragraphEnd, extend: false))
    var keys: [EditorCommand] = []
    for (i, character) in "The quick brown fox jumps over the lazy dog. ".enumerated() {
      keys.append(.insert(String(character)))
      if i % 11 == 10 { keys.append(.deleteBackward) }
    }
    keys += [.insert("\n"), .move(.up, extend: false), .move(.down, extend: false)]
    keys += [.move(.wordLeft, extend: false), .move(.wordRight, extend: false)]
    let token = AgentHTTPServer.randomToken()
    let engine = QueuedREPLEngine(REPLEngine(document: notebook.document)) { queue.enqueue($0) }
    guard
      let server = try? AgentHTTPServer.start(
        AgentHTTPOptions(port: 0, token: token), engine: engine)
    else { fatalError("the endpoint could not start") }
    let agent = PacedAgent(
      port: server.port, token: token, storage: notebook.cells[0].id.rawValue, offset: offset)
    agent.server = server
    agent.start(every: .milliseconds(10))
    return (editor, renderer, keys, Box(0), queue, agent)
  }
}
