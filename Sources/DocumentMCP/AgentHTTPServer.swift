#if MCP
import Foundation
import MCP
import NIOCore
import NIOHTTP1
import NIOPosix
import ScopeREPLCore
import Synchronization

/// What the HTTP endpoint allows (see ``AgentHTTPServer``).
public struct AgentHTTPOptions: Sendable {
  /// The port on 127.0.0.1 (0: a free one, which ``AgentHTTPServer/port``
  /// tells).
  public var port: Int
  /// The bearer token every request must carry (`Authorization: Bearer …`).
  public var token: String
  /// The largest request body, in bytes: a larger one is answered 413.
  public var maxBodyBytes = 4 << 20
  /// How many agents may be connected at once: another `initialize` is
  /// answered 503.
  public var maxSessions = 16
  /// How many notifications an agent's event stream holds when it does not
  /// read them (the oldest go first).
  public var maxQueuedNotifications = 64

  public init(port: Int, token: String) {
    self.port = port
    self.token = token
  }
}

/// The Model Context Protocol over Streamable HTTP, on loopback only: each
/// agent that connects (an `initialize` POST) gets a session of its own —
/// an ``AgentServer`` whose edits are its own origin (`agent-1`,
/// `agent-2`, …) — on a shared engine.
///
/// The guards, before anything reaches the engine: the bearer token (401),
/// the `Origin` header, which a browser sends and which must name this
/// loopback endpoint (403: the specification's guard against DNS
/// rebinding), the body's size (413), its type and JSON (415, 400), the
/// session (400 without, 404 unknown), the protocol version (400), the
/// method (405). Responses are JSON bodies; the server's notifications go
/// to the session's event stream (a GET), bounded. A client that goes away
/// mid-call leaves the document as the call left it: each call lands whole
/// on the engine, or not at all.
public final class AgentHTTPServer: Sendable {
  /// The port it listens on.
  public let port: Int
  private let channel: any Channel
  private let router: AgentHTTPRouter

  private init(port: Int, channel: any Channel, router: AgentHTTPRouter) {
    self.port = port
    self.channel = channel
    self.router = router
  }

  /// Listens on `127.0.0.1:options.port` for agents of `engine`; `onCall`
  /// hears each tool call (the agent's origin, the tool, what it gave back).
  public static func start(
    _ options: AgentHTTPOptions, engine: any AgentEngineAccess,
    onCall: (@Sendable (String, String, AgentResult) -> Void)? = nil
  ) throws -> AgentHTTPServer {
    let router = AgentHTTPRouter(options: options, engine: engine, onCall: onCall)
    let maxBody = options.maxBodyBytes
    let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(
            AgentHTTPHandler(router: router, maxBodyBytes: maxBody))
        }
      }
      .bind(host: "127.0.0.1", port: options.port).wait()
    let port = channel.localAddress?.port ?? options.port
    router.setPort(port)
    return AgentHTTPServer(port: port, channel: channel, router: router)
  }

  /// Tells each agent that subscribed to a storage whose text changed
  /// since it last heard (the person typed, another agent edited): one
  /// `notifications/resources/updated` per storage on its event stream.
  /// The editor calls it when the person pauses.
  public func notifyChanged() async {
    await router.notifyChanged()
  }

  /// Stops listening and ends every session.
  public func stop() async {
    try? await channel.close()
    await router.closeAll()
  }

  /// A random token of 32 hexadecimal digits.
  public static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in
      let word = String(generator.next() as UInt32, radix: 16)
      return String(repeating: "0", count: 8 - word.count) + word
    }.joined()
  }
}

/// A request as the router reads it: header names in lower case.
struct AgentHTTPRequest: Sendable {
  var method: String
  var path: String
  var headers: [String: String]
  var body: [UInt8]
}

/// What the router answers: a whole body, or an event stream.
enum AgentHTTPResponse: Sendable {
  case full(status: Int, headers: [(String, String)], body: [UInt8])
  case events(headers: [(String, String)], stream: AsyncStream<[UInt8]>)

  /// A JSON-RPC error (`id` null) with an HTTP status.
  static func error(
    _ status: Int, _ code: Int, _ message: String, headers: [(String, String)] = []
  ) -> AgentHTTPResponse {
    let body = JSON.object([
      ("jsonrpc", .string("2.0")), ("id", .null),
      ("error", .object([("code", .int(code)), ("message", .string(message))])),
    ])
    return .full(
      status: status, headers: [("Content-Type", "application/json")] + headers,
      body: Array(JSONWriter.write(body).utf8))
  }
}

/// Checks each request and hands it to its session.
final class AgentHTTPRouter: Sendable {
  let options: AgentHTTPOptions
  let engine: any AgentEngineAccess
  let onCall: (@Sendable (String, String, AgentResult) -> Void)?
  private let state: AgentHTTPSessions

  init(
    options: AgentHTTPOptions, engine: any AgentEngineAccess,
    onCall: (@Sendable (String, String, AgentResult) -> Void)?
  ) {
    self.options = options
    self.engine = engine
    self.onCall = onCall
    self.state = AgentHTTPSessions(options: options)
  }

  /// The protocol versions a client may name in `MCP-Protocol-Version`.
  static let versions: Set<String> = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]

  private let portBox = Mutex(0)

  func setPort(_ port: Int) { portBox.withLock { $0 = port } }

  /// The origins a browser page of this endpoint may send.
  func allowedOrigins() -> Set<String> {
    let port = portBox.withLock { $0 }
    return ["http://127.0.0.1:\(port)", "http://localhost:\(port)", "http://[::1]:\(port)"]
  }

  func closeAll() async { await state.closeAll() }

  func notifyChanged() async {
    for (runner, transport) in await state.listeners() {
      await runner.notifyChanged { uri in
        let note = JSON.object([
          ("jsonrpc", .string("2.0")), ("method", .string("notifications/resources/updated")),
          ("params", .object([("uri", .string(uri))])),
        ])
        try? await transport.send(Data(JSONWriter.write(note).utf8))
      }
    }
  }

  func handle(_ request: AgentHTTPRequest) async -> AgentHTTPResponse {
    guard request.path == "/mcp" else {
      return .error(404, -32600, "Not Found: the endpoint is /mcp")
    }
    if let origin = request.headers["origin"], !allowedOrigins().contains(origin) {
      return .error(403, -32600, "Forbidden: origin \(origin) is not this endpoint's")
    }
    guard let authorization = request.headers["authorization"],
      Self.same(authorization, "Bearer " + options.token)
    else {
      return .error(
        401, -32600, "Unauthorized: a bearer token is required",
        headers: [("WWW-Authenticate", "Bearer")])
    }
    if let version = request.headers["mcp-protocol-version"], !Self.versions.contains(version) {
      return .error(400, -32600, "Bad Request: unsupported protocol version \(version)")
    }
    switch request.method {
    case "POST": return await post(request)
    case "GET": return await get(request)
    case "DELETE":
      guard let id = request.headers["mcp-session-id"] else {
        return .error(400, -32600, "Bad Request: no MCP-Session-Id")
      }
      guard await state.remove(id) else { return .error(404, -32001, "Session not found") }
      return .full(status: 200, headers: [], body: [])
    default:
      return .error(
        405, -32600, "Method Not Allowed", headers: [("Allow", "GET, POST, DELETE")])
    }
  }

  private func post(_ request: AgentHTTPRequest) async -> AgentHTTPResponse {
    guard let type = request.headers["content-type"],
      type.lowercased().hasPrefix("application/json")
    else { return .error(415, -32600, "Unsupported Media Type: send application/json") }
    if let accept = request.headers["accept"]?.lowercased(),
      !(accept.contains("application/json") || accept.contains("*/*"))
    {
      return .error(406, -32600, "Not Acceptable: the responses are application/json")
    }
    guard let message = try? JSONReader.parse(request.body) else {
      return .error(400, -32700, "Parse error: the body is not JSON")
    }
    guard case .object = message, message["jsonrpc"] == .string("2.0") else {
      return .error(400, -32600, "Invalid Request: one JSON-RPC 2.0 message, an object")
    }
    let body = Data(request.body)
    let sessionID = request.headers["mcp-session-id"]
    if message["method"] == .string("initialize") {
      guard sessionID == nil else {
        return .error(400, -32600, "Bad Request: the session is initialized already")
      }
      guard let id = message["id"] else {
        return .error(400, -32600, "Invalid Request: initialize is a request (an id)")
      }
      guard let (sessionID, transport) = await state.open(engine: engine, onCall: onCall) else {
        return .error(503, -32000, "Service Unavailable: too many agents connected")
      }
      guard let response = await transport.request(body, id: id) else {
        await state.remove(sessionID)
        return .error(500, -32603, "Internal error: the session closed")
      }
      return .full(
        status: 200,
        headers: [("Content-Type", "application/json"), ("MCP-Session-Id", sessionID)],
        body: Array(response))
    }
    guard let sessionID else { return .error(400, -32600, "Bad Request: no MCP-Session-Id") }
    guard let transport = await state.transport(sessionID) else {
      return .error(404, -32001, "Session not found")
    }
    if message["method"] != nil, let id = message["id"] {
      guard let response = await transport.request(body, id: id) else {
        return .error(409, -32600, "Conflict: request id \(JSONWriter.write(id)) is in flight")
      }
      return .full(
        status: 200,
        headers: [("Content-Type", "application/json"), ("MCP-Session-Id", sessionID)],
        body: Array(response))
    }
    await transport.deliver(body)
    return .full(status: 202, headers: [("MCP-Session-Id", sessionID)], body: [])
  }

  private func get(_ request: AgentHTTPRequest) async -> AgentHTTPResponse {
    guard request.headers["accept"]?.lowercased().contains("text/event-stream") == true else {
      return .error(406, -32600, "Not Acceptable: the GET stream is text/event-stream")
    }
    guard let sessionID = request.headers["mcp-session-id"] else {
      return .error(400, -32600, "Bad Request: no MCP-Session-Id")
    }
    guard let transport = await state.transport(sessionID) else {
      return .error(404, -32001, "Session not found")
    }
    return .events(
      headers: [
        ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"),
        ("MCP-Session-Id", sessionID),
      ], stream: await transport.openEvents())
  }

  /// Compares two strings in time that depends only on their lengths.
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for i in x.indices { difference |= x[i] ^ y[i] }
    return difference == 0
  }
}

/// The open sessions: each agent's server and transport.
actor AgentHTTPSessions {
  let options: AgentHTTPOptions
  private var sessions:
    [String: (server: Server, transport: AgentHTTPSessionTransport, runner: AgentCallRunner)] = [:]
  private var agents = 0

  init(options: AgentHTTPOptions) { self.options = options }

  /// A new session, its agent the next origin; nil when there are too many.
  func open(
    engine: any AgentEngineAccess, onCall: (@Sendable (String, String, AgentResult) -> Void)?
  ) async -> (String, AgentHTTPSessionTransport)? {
    guard sessions.count < options.maxSessions else { return nil }
    agents += 1
    let origin = "agent-\(agents)"
    let transport = AgentHTTPSessionTransport(eventLimit: options.maxQueuedNotifications)
    let runner = AgentCallRunner(engine: engine, origin: origin, onCall: onCall)
    let server: Server
    do {
      server = try await AgentServer.serve(on: transport, runner)
    } catch {
      return nil
    }
    let id = UUID().uuidString
    sessions[id] = (server, transport, runner)
    return (id, transport)
  }

  func transport(_ id: String) -> AgentHTTPSessionTransport? { sessions[id]?.transport }

  /// Each session's runner and transport.
  func listeners() -> [(AgentCallRunner, AgentHTTPSessionTransport)] {
    sessions.values.map { ($0.runner, $0.transport) }
  }

  @discardableResult
  func remove(_ id: String) async -> Bool {
    guard let session = sessions.removeValue(forKey: id) else { return false }
    await session.transport.close()
    await session.server.stop()
    return true
  }

  func closeAll() async {
    for id in Array(sessions.keys) { await remove(id) }
  }
}

/// HTTP/1.1 on SwiftNIO: gathers a request (its body up to the limit),
/// hands it to the router on a task, and writes the answer back on the
/// channel's event loop.
final class AgentHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  let router: AgentHTTPRouter
  let maxBodyBytes: Int
  private var head: HTTPRequestHead? = nil
  private var body: [UInt8] = []
  private var tooLarge = false
  /// The event stream being written, ended when the channel closes.
  private var streaming: Task<Void, Never>? = nil

  init(router: AgentHTTPRouter, maxBodyBytes: Int) {
    self.router = router
    self.maxBodyBytes = maxBodyBytes
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let h):
      head = h
      body = []
      tooLarge =
        h.headers.first(name: "content-length").flatMap(Int.init).map {
          $0 > maxBodyBytes
        } ?? false
    case .body(var buffer):
      guard !tooLarge else { return }
      if body.count + buffer.readableBytes > maxBodyBytes {
        tooLarge = true
        body = []
      } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
        body += bytes
      }
    case .end:
      guard let h = head else { return }
      head = nil
      if tooLarge {
        write(
          .error(413, -32600, "Payload Too Large: at most \(maxBodyBytes) bytes"), for: h,
          closing: true, context: context)
        return
      }
      var headers: [String: String] = [:]
      for (name, value) in h.headers {
        let key = name.lowercased()
        headers[key] = headers[key].map { $0 + ", " + value } ?? value
      }
      let path = String(h.uri.split(separator: "?", maxSplits: 1).first ?? "")
      let request = AgentHTTPRequest(
        method: h.method.rawValue, path: path, headers: headers, body: body)
      body = []
      let router = self.router
      let loop = context.eventLoop
      let bound = NIOLoopBound((self, context), eventLoop: loop)
      Task {
        let response = await router.handle(request)
        loop.execute {
          let (handler, context) = bound.value
          handler.write(response, for: h, closing: !h.isKeepAlive, context: context)
        }
      }
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    streaming?.cancel()
    streaming = nil
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }

  /// Writes `response` to request `h`, and closes the connection after it
  /// if `closing`.
  private func write(
    _ response: AgentHTTPResponse, for h: HTTPRequestHead, closing: Bool,
    context: ChannelHandlerContext
  ) {
    switch response {
    case .full(let status, let headers, let bytes):
      var fields = HTTPHeaders(headers)
      fields.replaceOrAdd(name: "Content-Length", value: "\(bytes.count)")
      if closing { fields.replaceOrAdd(name: "Connection", value: "close") }
      context.write(
        wrapOutboundOut(
          .head(
            HTTPResponseHead(version: h.version, status: .init(statusCode: status), headers: fields)
          )),
        promise: nil)
      if !bytes.isEmpty {
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
      }
      let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
      if closing {
        let channel = context.channel
        done.whenComplete { _ in channel.close(promise: nil) }
      }
    case .events(let headers, let stream):
      context.writeAndFlush(
        wrapOutboundOut(
          .head(HTTPResponseHead(version: h.version, status: .ok, headers: HTTPHeaders(headers)))),
        promise: nil)
      let loop = context.eventLoop
      let bound = NIOLoopBound((self, context), eventLoop: loop)
      streaming?.cancel()
      streaming = Task {
        for await chunk in stream {
          // A reader that does not keep up loses events, not memory: an
          // event is written only while the channel takes more.
          loop.execute {
            let (handler, context) = bound.value
            guard context.channel.isActive, context.channel.isWritable else { return }
            context.writeAndFlush(
              handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: chunk)))),
              promise: nil)
          }
        }
        loop.execute {
          let (handler, context) = bound.value
          guard context.channel.isActive else { return }
          context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
        }
      }
    }
  }
}
#endif
