#if MCP
import Foundation
import Logging
import MCP
import ScopeREPLCore

/// A transport that hands an agent's tool arguments to the server with
/// every string as the agent wrote it.
///
/// The SDK decodes a JSON string that reads as a `data:` URL as binary data
/// (`Value.data`), which it writes back as another string: a text such as
/// `data:,hello` typed by an agent would land as `data:text/plain;base64,…`.
/// This transport escapes such strings in a `tools/call` request's
/// arguments before the SDK reads them (``AgentStrings/escape(_:)``), and
/// the server takes the escape off (``AgentStrings/unescape(_:)``).
///
/// Made by ``AgentServer/start(on:engine:origin:name:version:onCall:)``, it
/// also answers the `tools/call` requests itself once the session is
/// initialized (the direct path): the request is read once, its call run
/// on the engine, and its result written as the server's handler writes
/// it, in the order the requests came.
public actor StringPreservingTransport: Transport {
  private let base: any Transport
  public nonisolated let logger: Logger
  /// The direct path's calls, if it has one.
  private let calls: AgentCallRunner?
  /// Whether the client asked to initialize (the direct path waits for it).
  private var initialized = false

  /// `base`, with the agent's strings kept. The server logs through
  /// `logger`; by default nowhere (the editor's terminal is the screen, and
  /// stdio's standard output the protocol).
  public init(_ base: any Transport, logger: Logger? = nil) {
    self.init(base, calls: nil, logger: logger)
  }

  init(_ base: any Transport, calls: AgentCallRunner?, logger: Logger? = nil) {
    self.base = base
    self.calls = calls
    self.logger =
      logger
      ?? Logger(label: "swift-text-engine.agent-transport") { _ in SwiftLogNoOpLogHandler() }
  }

  /// Answers `data` if it is a `tools/call` request the direct path takes;
  /// false if the server is to have it.
  func answered(_ message: JSON?) async -> Bool {
    guard let calls, let message, message["jsonrpc"] == .string("2.0"),
      case .string(let method)? = message["method"]
    else { return false }
    if method == "initialize" { initialized = true }
    guard initialized, method == "tools/call", let id = message["id"], id != .null,
      case .string(let name)? = message["params"]?["name"]
    else { return false }
    // (Arguments that are not an object go to the server, which refuses them.)
    let arguments: JSON?
    switch message["params"]?["arguments"] {
    case nil, .null?: arguments = nil
    case .object(let fields)?: arguments = .object(fields)
    default: return false
    }
    let base = self.base
    let result = await calls.run(name, arguments: arguments) { uri in
      let note = JSON.object([
        ("jsonrpc", .string("2.0")), ("method", .string("notifications/resources/updated")),
        ("params", .object([("uri", .string(uri))])),
      ])
      try? await base.send(Data(JSONWriter.write(note).utf8))
    }
    let text = JSONWriter.write(result.json)
    let response = JSON.object([
      ("jsonrpc", .string("2.0")), ("id", id),
      (
        "result",
        .object([
          ("content", .array([.object([("type", .string("text")), ("text", .string(text))])])),
          ("structuredContent", result.json), ("isError", .bool(result.isError)),
        ])
      ),
    ])
    try? await base.send(Data(JSONWriter.write(response).utf8))
    return true
  }

  public func connect() async throws { try await base.connect() }
  public func disconnect() async { await base.disconnect() }
  public func send(_ data: Data) async throws { try await base.send(data) }

  public func receive() -> AsyncThrowingStream<Data, Swift.Error> {
    let incoming = base
    return AsyncThrowingStream { continuation in
      let task = Task {
        do {
          for try await data in await incoming.receive() {
            // (Read once, for both.)
            let message =
              data.contains(UInt8(ascii: ":")) ? try? JSONReader.parse(Array(data)) : nil
            if await self.answered(message) { continue }
            continuation.yield(AgentStrings.escapingArguments(data, read: message))
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

/// The escape of strings the SDK would read as `data:` URLs.
public enum AgentStrings {
  /// A private-use character put before a string that starts with `data:`
  /// or with itself.
  static let marker: Character = "\u{F8FF}"

  /// `text`, escaped: one marker more if it starts with `data:` or with a
  /// marker; as it is otherwise.
  public static func escape(_ text: String) -> String {
    text.hasPrefix("data:") || text.first == marker ? String(marker) + text : text
  }

  /// What ``escape(_:)`` made of a string, as it was.
  public static func unescape(_ text: String) -> String {
    text.first == marker ? String(text.dropFirst()) : text
  }

  /// A JSON-RPC message (or a batch of them) with the strings of each
  /// `tools/call` request's arguments escaped; anything that is not JSON,
  /// or escapes nothing, as it is. `message` is `data` as read (nil: not JSON).
  static func escapingArguments(_ data: Data, read message: JSON?) -> Data {
    guard let message else { return data }
    var changed = false
    func request(_ json: JSON) -> JSON {
      guard case .object(var fields) = json, json["method"] == .string("tools/call"),
        let p = fields.lastIndex(where: { $0.0 == "params" }),
        case .object(var params) = fields[p].1,
        let a = params.lastIndex(where: { $0.0 == "arguments" })
      else { return json }
      params[a].1 = strings(params[a].1)
      fields[p].1 = .object(params)
      return .object(fields)
    }
    func strings(_ json: JSON) -> JSON {
      switch json {
      case .string(let text):
        let escaped = escape(text)
        if escaped != text { changed = true }
        return .string(escaped)
      case .array(let items): return .array(items.map(strings))
      case .object(let fields): return .object(fields.map { ($0.0, strings($0.1)) })
      default: return json
      }
    }
    let result: JSON
    if case .array(let batch) = message {
      result = .array(batch.map(request))
    } else {
      result = request(message)
    }
    return changed ? Data(JSONWriter.write(result).utf8) : data
  }
}
#endif
