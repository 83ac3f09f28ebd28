#if MCP
import Foundation
import Logging
import MCP
import ScopeREPLCore

/// One agent's session over Streamable HTTP, as the MCP server sees it: a
/// transport whose requests come from HTTP POSTs and whose responses go
/// back as their bodies (`application/json`), matched by JSON-RPC id; the
/// server's notifications go to the session's event stream (the GET), if
/// one is open, a bounded number at a time.
///
/// It keeps no event store for resumption: a notification that finds no
/// stream, or a stream whose reader fell behind, is dropped (a resource
/// update only says "read again"), so that an agent that never reads its
/// notifications costs the editor nothing.
actor AgentHTTPSessionTransport: Transport {
  nonisolated let logger = Logger(label: "swift-text-engine.agent-http") { _ in
    SwiftLogNoOpLogHandler()
  }
  private let incoming: AsyncThrowingStream<Data, Swift.Error>
  private let incomingContinuation: AsyncThrowingStream<Data, Swift.Error>.Continuation
  /// The POSTs waiting for their response, by the request's id (its JSON).
  private var waiting: [String: CheckedContinuation<Data?, Never>] = [:]
  /// The open event stream's writer, if any.
  private var events: AsyncStream<[UInt8]>.Continuation? = nil
  private var closed = false
  /// How many notifications an event stream holds for a slow reader.
  let eventLimit: Int

  init(eventLimit: Int) {
    self.eventLimit = eventLimit
    (incoming, incomingContinuation) = AsyncThrowingStream<Data, Swift.Error>.makeStream()
  }

  func connect() async throws {}

  func disconnect() async { close() }

  func receive() -> AsyncThrowingStream<Data, Swift.Error> { incoming }

  /// The server's message: a response goes to the POST that waits for it;
  /// anything else (a notification) to the event stream.
  func send(_ data: Data) async throws {
    guard !closed else { throw MCPError.connectionClosed }
    let message = try? JSONReader.parse(Array(data))
    if let message, message["method"] == nil, let id = message["id"] {
      waiting.removeValue(forKey: JSONWriter.write(id))?.resume(returning: data)
      return
    }
    events?.yield(Self.frame(data))
  }

  /// Hands request `body` (JSON-RPC id `id`) to the server and waits for
  /// its response; nil if the session closed first or the id is already
  /// waiting.
  func request(_ body: Data, id: JSON) async -> Data? {
    let key = JSONWriter.write(id)
    guard !closed, waiting[key] == nil else { return nil }
    return await withCheckedContinuation { continuation in
      waiting[key] = continuation
      incomingContinuation.yield(body)
    }
  }

  /// Hands a notification or a response of the client's to the server.
  func deliver(_ body: Data) {
    guard !closed else { return }
    incomingContinuation.yield(body)
  }

  /// Opens the session's event stream (a second one replaces the first).
  func openEvents() -> AsyncStream<[UInt8]> {
    events?.finish()
    let (stream, continuation) = AsyncStream.makeStream(
      of: [UInt8].self, bufferingPolicy: .bufferingNewest(eventLimit))
    events = continuation
    return stream
  }

  /// Ends the session: the server's input ends, the waiting POSTs get no
  /// response, the event stream ends.
  func close() {
    guard !closed else { return }
    closed = true
    incomingContinuation.finish()
    events?.finish()
    events = nil
    let all = waiting
    waiting = [:]
    for (_, continuation) in all { continuation.resume(returning: nil) }
  }

  /// A message as a server-sent event.
  static func frame(_ data: Data) -> [UInt8] {
    var bytes = Array("event: message\n".utf8)
    for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      bytes += Array("data: ".utf8) + Array(line) + [UInt8(ascii: "\n")]
    }
    return bytes + [UInt8(ascii: "\n")]
  }
}
#endif
