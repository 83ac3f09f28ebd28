import DocumentEngine
import ScopeREPLCore

/// What a tool call gives back: the protocol's response without `ok`, or
/// its error (code and message); a refused call changed nothing.
public enum AgentResult: Equatable, Sendable {
  case success(JSON)
  case failure(code: String, message: String)

  /// The result as the protocol's JSON: the response without `ok`, or
  /// `{"error": {"code": …, "message": …}}`.
  public var json: JSON {
    switch self {
    case .success(let json): json
    case .failure(let code, let message):
      .object([("error", .object([("code", .string(code)), ("message", .string(message))]))])
    }
  }

  public var isError: Bool {
    if case .failure = self { return true }
    return false
  }
}

extension REPLEngine {
  /// Runs tool `name` with `arguments` for the agent whose origin is
  /// `origin`: the protocol's command of that name, with the agent's rules
  /// (`../shared/PROTOCOL.md`, *The same commands over the Model Context
  /// Protocol*):
  /// - an `edit`, `undo` or `redo` is the agent's own (its origin; another
  ///   origin is refused): its undo never takes back anyone else's edits;
  /// - `contexts` is refused (`busy`) while a tool's session streams: an
  ///   agent never ends another tool's live session;
  /// - `add` takes text or Markdown, not a file's path;
  /// - a tool agents may not call (``AgentTool/all``) is a `badRequest`.
  public func runAgentTool(_ name: String, arguments: JSON?, origin: String) -> AgentResult {
    guard AgentTool.named(name) != nil else {
      return .failure(code: "badRequest", message: "unknown tool '\(name)'")
    }
    var fields: [(String, JSON)]
    switch arguments {
    case nil, .null?: fields = []
    case .object(let given)?: fields = given
    case let other?:
      return .failure(
        code: "badRequest", message: "the arguments are \(Self.kind(of: other)), not an object")
    }
    if fields.contains(where: { $0.0 == "cmd" }) {
      return .failure(code: "badRequest", message: "'cmd' is the tool's name, not an argument")
    }
    switch name {
    case "edit", "undo", "redo":
      if let given = fields.last(where: { $0.0 == "origin" })?.1 {
        guard given == .string(origin) else {
          return .failure(
            code: "badRequest",
            message: "an agent edits and undoes as its own origin '\(origin)', not as another")
        }
      } else {
        fields.append(("origin", .string(origin)))
      }
    case "contexts":
      if document.writingToolsState == .interactiveStreaming {
        return .failure(
          code: "busy",
          message: "another tool's session is streaming: its contexts stay until it rests or ends")
      }
    case "add":
      if fields.contains(where: { $0.0 == "path" }) {
        return .failure(code: "badRequest", message: "an agent adds text or markdown, not a file")
      }
    default: break
    }
    let request = JSON.object([("cmd", .string(name))] + fields)
    guard case .object(let response) = handle(request) else {
      return .failure(code: "io", message: "the engine's response was not an object")
    }
    if response.first(where: { $0.0 == "ok" })?.1 == .bool(true) {
      return .success(.object(response.filter { $0.0 != "ok" }))
    }
    let error = response.first { $0.0 == "error" }?.1
    guard case .string(let code)? = error?["code"], case .string(let message)? = error?["message"]
    else {
      return .failure(code: "io", message: "the engine's response had no error code")
    }
    return .failure(code: code, message: message)
  }

  private static func kind(of json: JSON) -> String {
    switch json {
    case .null: "null"
    case .bool: "a boolean"
    case .int, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
