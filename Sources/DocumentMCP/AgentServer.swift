#if MCP
import DocumentEngine
import Foundation
import MCP
import ScopeREPLCore

/// Gives an agent's calls the REPL's engine, one call at a time: the
/// engine is not shared between threads, and each call lands whole.
public protocol AgentEngineAccess: Sendable {
  /// Runs `body` on the engine, alone.
  func withEngine<R: Sendable>(_ body: @escaping @Sendable (REPLEngine) -> R) async -> R
}

/// An engine behind a lock (`scope-repl --mcp`: nothing else uses it).
public final class LockedREPLEngine: AgentEngineAccess, @unchecked Sendable {
  private let lock = NSLock()
  private let engine: REPLEngine

  public init(_ engine: REPLEngine) {
    self.engine = engine
  }

  public func withEngine<R: Sendable>(_ body: @escaping @Sendable (REPLEngine) -> R) async -> R {
    lock.withLock { body(engine) }
  }
}

/// An engine that one thread owns (an editor's loop): each call is handed
/// to that thread through `enqueue`, and runs there, alone, between the
/// thread's own work.
public final class QueuedREPLEngine: AgentEngineAccess, @unchecked Sendable {
  private let engine: REPLEngine
  private let enqueue: @Sendable (@escaping () -> Void) -> Void

  /// `engine`, touched only by the jobs `enqueue` hands to its thread.
  public init(_ engine: REPLEngine, enqueue: @escaping @Sendable (@escaping () -> Void) -> Void) {
    self.engine = engine
    self.enqueue = enqueue
  }

  public func withEngine<R: Sendable>(_ body: @escaping @Sendable (REPLEngine) -> R) async -> R {
    let engine = Unchecked(engine)
    return await withCheckedContinuation { continuation in
      enqueue { continuation.resume(returning: body(engine.value)) }
    }
  }

  private struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
  }
}

/// The MCP server of one connected agent: the protocol's commands as tools
/// (``AgentTool/all``), the storages as resources (`storage://ID`, their
/// text; a subscriber hears when it changes), the agent an origin of its
/// own. Start it on a ``StringPreservingTransport`` around the real one,
/// so that text shaped as a `data:` URL lands as the agent wrote it.
public enum AgentServer {
  /// A server for the agent whose edits are origin `origin`, on `engine`.
  /// Start it on a transport (`StdioTransport`, an in-memory one, or an
  /// HTTP session's).
  /// `onCall` hears each tool call once it ran: the origin, the tool, and
  /// what it gave back (the editor's status line).
  public static func make(
    engine: any AgentEngineAccess, origin: String, name: String = "swift-text-engine",
    version: String = "0.1.0",
    onCall: (@Sendable (String, String, AgentResult) -> Void)? = nil
  ) async -> Server {
    await build(
      AgentCallRunner(engine: engine, origin: origin, onCall: onCall), name: name,
      version: version)
  }

  /// A server as ``make(engine:origin:name:version:onCall:)`` gives,
  /// started on `transport` (wrapped in a ``StringPreservingTransport``)
  /// with its tool calls answered on the transport's way in: each
  /// `tools/call` request is read once, run on the engine and answered
  /// without the SDK's decoding of its arguments (which builds a regular
  /// expression for every string), the same result the server's handler
  /// gives; everything else goes to the server.
  public static func start(
    on transport: any Transport, engine: any AgentEngineAccess, origin: String,
    name: String = "swift-text-engine", version: String = "0.1.0",
    onCall: (@Sendable (String, String, AgentResult) -> Void)? = nil
  ) async throws -> Server {
    try await serve(
      on: transport, AgentCallRunner(engine: engine, origin: origin, onCall: onCall), name: name,
      version: version)
  }

  /// ``start(on:engine:origin:name:version:onCall:)`` with its runner
  /// given (the HTTP sessions keep it, to tell a subscriber of edits made
  /// by others).
  static func serve(
    on transport: any Transport, _ runner: AgentCallRunner, name: String = "swift-text-engine",
    version: String = "0.1.0"
  ) async throws -> Server {
    let server = await build(runner, name: name, version: version)
    try await server.start(transport: StringPreservingTransport(transport, calls: runner))
    return server
  }

  static func build(_ runner: AgentCallRunner, name: String, version: String) async -> Server {
    let engine = runner.engine
    let subscriptions = runner.subscriptions
    let server = Server(
      name: name, version: version,
      instructions: """
        A multi-storage text document that a person edits while you work. Read it with \
        storages and text (or the storage:// resources); start a Writing Tools session with \
        contexts and land rewrites with replace on the contextVersion you read (a replacement \
        that someone's later edit touched is refused as a conflict: read again); propose \
        changes the person reviews with suggest; edit, undo and redo as your own origin. \
        Offsets are UTF-16 code units unless a tool's unit says otherwise.
        """,
      capabilities: .init(
        resources: .init(subscribe: true, listChanged: false), tools: .init(listChanged: false)))
    let tools = AgentTool.all.map {
      Tool(name: $0.name, description: $0.description, inputSchema: Value(json: $0.inputSchema))
    }
    await server.withMethodHandler(ListTools.self) { _ in .init(tools: tools) }
    await server.withMethodHandler(CallTool.self) { [weak server] params in
      let arguments = params.arguments.map { JSON.object($0.map { ($0.key, $0.value.json) }) }
      let strong = server
      let result = await runner.run(params.name, arguments: arguments) { uri in
        try? await strong?.notify(ResourceUpdatedNotification.message(.init(uri: uri)))
      }
      let value = Value(json: result.json)
      return .init(
        content: [.text(text: JSONWriter.write(result.json), annotations: nil, _meta: nil)],
        structuredContent: .some(value), isError: result.isError)
    }
    await server.withMethodHandler(ListResources.self) { _ in
      let resources = await engine.withEngine { engine in
        engine.document.content.order.map { id in
          Resource(
            name: id.rawValue, uri: AgentSubscriptions.uri(of: id),
            description: "The text of storage '\(id.rawValue)'", mimeType: "text/plain")
        }
      }
      return .init(resources: resources)
    }
    await server.withMethodHandler(ReadResource.self) { params in
      guard let id = AgentSubscriptions.storage(of: params.uri) else {
        throw MCPError.invalidParams("unknown resource \(params.uri)")
      }
      let text = await engine.withEngine { engine in
        (try? engine.document.content.storage(id)).map { String($0.text) }
      }
      guard let text else { throw MCPError.invalidParams("unknown storage '\(id.rawValue)'") }
      return .init(contents: [.text(text, uri: params.uri, mimeType: "text/plain")])
    }
    await server.withMethodHandler(ResourceSubscribe.self) { params in
      guard let id = AgentSubscriptions.storage(of: params.uri) else {
        throw MCPError.invalidParams("unknown resource \(params.uri)")
      }
      let version = await engine.withEngine { engine in
        (try? engine.document.content.storage(id))?.version.rawValue
      }
      guard let version else { throw MCPError.invalidParams("unknown storage '\(id.rawValue)'") }
      await subscriptions.subscribe(id, at: version)
      return Empty()
    }
    await server.withMethodHandler(ResourceUnsubscribe.self) { params in
      if let id = AgentSubscriptions.storage(of: params.uri) { await subscriptions.unsubscribe(id) }
      return Empty()
    }
    return server
  }
}

/// Runs an agent's tool calls on the engine, for the server's handler and
/// for ``StringPreservingTransport``'s direct path alike: the call, its
/// status for `onCall`, and the resource updates its subscriber hears.
final class AgentCallRunner: Sendable {
  let engine: any AgentEngineAccess
  let origin: String
  let onCall: (@Sendable (String, String, AgentResult) -> Void)?
  let subscriptions = AgentSubscriptions()

  init(
    engine: any AgentEngineAccess, origin: String,
    onCall: (@Sendable (String, String, AgentResult) -> Void)?
  ) {
    self.engine = engine
    self.origin = origin
    self.onCall = onCall
  }

  /// Runs tool `name`; `notify` sends a resource update (its URI).
  func run(
    _ name: String, arguments: JSON?, notify: @Sendable (String) async -> Void
  ) async -> AgentResult {
    let origin = self.origin
    // (The storages' versions only for a subscriber: a call of an agent
    // that subscribed to nothing reads none.)
    let listens = await subscriptions.isListening
    let (result, versions) = await engine.withEngine { engine in
      (
        engine.runAgentTool(name, arguments: arguments, origin: origin),
        listens ? AgentSubscriptions.versions(of: engine.document) : [:]
      )
    }
    onCall?(origin, name, result)
    if listens { await subscriptions.notifyChanged(versions, notify) }
    return result
  }

  /// Tells the subscriber of each storage whose text changed since it last
  /// heard (by anyone: the person typing, another agent) through `notify`.
  func notifyChanged(_ notify: @Sendable (String) async -> Void) async {
    guard await subscriptions.isListening else { return }
    let versions = await engine.withEngine { AgentSubscriptions.versions(of: $0.document) }
    await subscriptions.notifyChanged(versions, notify)
  }
}

/// The storages an agent subscribed to, and the version it last heard of.
actor AgentSubscriptions {
  private var heard: [StorageID: Int] = [:]

  /// Whether the agent subscribed to any storage.
  var isListening: Bool { !heard.isEmpty }

  func subscribe(_ id: StorageID, at version: Int) { heard[id] = version }
  func unsubscribe(_ id: StorageID) { heard[id] = nil }

  /// Tells the agent of each subscribed storage whose version moved (or
  /// that went): one notification per storage, whatever the edits since.
  func notifyChanged(_ versions: [StorageID: Int], _ notify: @Sendable (String) async -> Void) async
  {
    for (id, version) in heard where versions[id] != version {
      heard[id] = versions[id]
      await notify(Self.uri(of: id))
    }
  }

  static func versions(of document: Document) -> [StorageID: Int] {
    let content = document.content
    var versions: [StorageID: Int] = [:]
    for id in content.order {
      if let storage = try? content.storage(id) { versions[id] = storage.version.rawValue }
    }
    return versions
  }

  /// What a URI keeps as it is (RFC 3986's unreserved characters).
  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  static func uri(of id: StorageID) -> String {
    "storage://" + (id.rawValue.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
  }

  static func storage(of uri: String) -> StorageID? {
    guard uri.hasPrefix("storage://"),
      let name = String(uri.dropFirst("storage://".count)).removingPercentEncoding
    else { return nil }
    return StorageID(name)
  }
}

extension Value {
  /// The protocol's JSON as the SDK's value (a string stays a string).
  init(json: JSON) {
    switch json {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(i)
    case .double(let d): self = .double(d)
    case .string(let s): self = .string(s)
    case .array(let a): self = .array(a.map(Value.init(json:)))
    case .object(let fields):
      var object: [String: Value] = [:]
      for (key, value) in fields { object[key] = Value(json: value) }
      self = .object(object)
    }
  }

  /// The SDK's value as the protocol's JSON.
  var json: JSON {
    switch self {
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): .int(i)
    case .double(let d): .double(d)
    case .string(let s): .string(AgentStrings.unescape(s))
    // (Only where the transport did not keep the string: see
    // ``StringPreservingTransport``.)
    case .data(let mimeType, let data): .string(data.dataURLEncoded(mimeType: mimeType))
    case .array(let a): .array(a.map(\.json))
    case .object(let o): .object(o.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
    }
  }
}
#endif
