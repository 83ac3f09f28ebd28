#if MCP
import DocumentEngine
import DocumentMCP
import EditorTerminal
import ScopeREPLCore
import Synchronization

/// The agents' door into the editor (`editor --mcp PORT`): the MCP server
/// on loopback, whose tool calls run on the editor's loop, between the
/// person's keystrokes, on the same document — so that nothing the person
/// types and nothing an agent lands is lost, and each call lands whole.
final class EditorAgents: @unchecked Sendable {
  /// The calls waiting for the loop.
  let queue: MainLoopQueue
  /// The protocol's engine on the editor's document, its calls run on the
  /// loop (by the jobs of ``queue``).
  private let engine: QueuedREPLEngine
  /// What the last call did, for the status line, until the loop shows it.
  private let lastCall = Mutex<String?>(nil)
  private var server: AgentHTTPServer? = nil

  init(document: Document) throws {
    let queue = try MainLoopQueue()
    self.queue = queue
    engine = QueuedREPLEngine(REPLEngine(document: document)) { queue.enqueue($0) }
  }

  /// Listens on `127.0.0.1:port` for agents that carry `token`; returns
  /// the port.
  func start(port: Int, token: String) throws -> Int {
    let server = try AgentHTTPServer.start(
      AgentHTTPOptions(port: port, token: token), engine: engine
    ) { [weak self] origin, tool, result in
      self?.lastCall.withLock { $0 = Self.describe(origin, tool, result) }
    }
    self.server = server
    return server.port
  }

  /// Runs the calls that wait (on the loop's thread). Returns whether any
  /// ran or a call's status is new, and that status.
  func run() -> (changed: Bool, status: String?) {
    let ran = queue.drain() > 0
    let status = lastCall.withLock { last in
      defer { last = nil }
      return last
    }
    return (ran || status != nil, status)
  }

  /// Tells the agents that subscribed to a cell whose text changed (the
  /// person paused): off the loop, whose queue runs the reads it needs.
  func documentChanged() {
    guard let server else { return }
    Task { await server.notifyChanged() }
  }

  /// One call as the status line says it.
  static func describe(_ origin: String, _ tool: String, _ result: AgentResult) -> String {
    switch result {
    case .success: "\(origin): \(tool)"
    case .failure(let code, _): "\(origin): \(tool) refused (\(code))"
    }
  }

  /// The token agents must send: the environment's `MCP_TOKEN`, or a new
  /// random one (nil for the first: the person set it).
  static func token(from environment: String?) -> (token: String, isNew: Bool) {
    if let environment, !environment.isEmpty { return (environment, false) }
    return (AgentHTTPServer.randomToken(), true)
  }
}
#endif
