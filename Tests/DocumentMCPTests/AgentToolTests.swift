import DocumentEngine
import DocumentMCP
import ScopeREPLCore
import Testing

/// The protocol's commands as an agent calls them (without the MCP
/// transport: ``REPLEngine/runAgentTool(_:arguments:origin:)``).
@Suite struct AgentToolTests {
  func object(_ fields: (String, JSON)...) -> JSON { .object(fields) }

  func engine(_ text: String = "One teh two.\nThree fuor.\n") throws -> REPLEngine {
    let engine = REPLEngine()
    let added = engine.runAgentTool(
      "add", arguments: object(("storage", .string("b")), ("text", .string(text))),
      origin: "agent")
    #expect(!added.isError)
    return engine
  }

  /// The error code of a refused call; nil for a success.
  func code(_ result: AgentResult) -> String? {
    if case .failure(let code, _) = result { return code }
    return nil
  }

  func text(_ engine: REPLEngine) throws -> String {
    String(try engine.document.content.storage("b").text)
  }

  @Test func everyToolIsACommandWithAnObjectSchema() {
    let names = AgentTool.all.map(\.name)
    #expect(Set(names).count == names.count)
    for tool in AgentTool.all {
      #expect(tool.inputSchema["type"] == .string("object"))
      #expect(tool.inputSchema["additionalProperties"] == .bool(false))
      #expect(!tool.description.isEmpty)
    }
    for name in ["quit", "replay", "select", "visible", "exclude", "closeGroup"] {
      #expect(AgentTool.named(name) == nil, "\(name) is not an agent's")
    }
  }

  @Test func aResultIsTheResponseWithoutOk() throws {
    let engine = try engine()
    let result = engine.runAgentTool("storages", arguments: nil, origin: "agent")
    guard case .success(let json) = result else {
      Issue.record("refused: \(result)")
      return
    }
    #expect(json["ok"] == nil)
    #expect(
      json["storages"]
        == .array([
          object(("storage", .string("b")), ("length", .int(25)), ("version", .int(0)))
        ]))
  }

  @Test func anAgentsEditsAndUndoAreItsOwn() throws {
    let engine = try engine()
    // The person types, then the agent edits, then the person again.
    _ = try engine.document.edit("b", range: 12..<12, with: "!")
    let edit = engine.runAgentTool(
      "edit",
      arguments: object(
        ("storage", .string("b")), ("offset", .int(4)), ("length", .int(3)),
        ("text", .string("the"))), origin: "agent")
    #expect(!edit.isError)
    _ = try engine.document.edit("b", range: 0..<0, with: "¡")
    #expect(try text(engine) == "¡One the two.!\nThree fuor.\n")
    // Its undo takes back its edit only.
    #expect(!engine.runAgentTool("undo", arguments: nil, origin: "agent").isError)
    #expect(try text(engine) == "¡One teh two.!\nThree fuor.\n")
    #expect(code(engine.runAgentTool("undo", arguments: nil, origin: "agent")) == "nothingToUndo")
    // Another origin's history is not the agent's.
    let other = engine.runAgentTool(
      "undo", arguments: object(("origin", .string("peer"))), origin: "agent")
    #expect(code(other) == "badRequest", "an agent undid as another origin")
    #expect(!engine.runAgentTool("redo", arguments: nil, origin: "agent").isError)
    #expect(try text(engine) == "¡One the two.!\nThree fuor.\n")
    // The person's undo is the person's: it takes back "¡".
    _ = try engine.document.undo()
    #expect(try text(engine) == "One the two.!\nThree fuor.\n")
  }

  @Test func contextsAreRefusedWhileAnotherToolStreams() throws {
    let engine = try engine()
    let first = engine.runAgentTool(
      "contexts", arguments: object(("scope", .string("fullDocument"))), origin: "agent")
    guard case .success(let json) = first, case .array(let contexts)? = json["contexts"],
      case .string(let id)? = contexts.first?["id"]
    else {
      Issue.record("no context: \(first)")
      return
    }
    for state in ["interactiveResting", "interactiveStreaming"] {
      #expect(
        !engine.runAgentTool("state", arguments: object(("state", .string(state))), origin: "agent")
          .isError)
    }
    let second = engine.runAgentTool(
      "contexts", arguments: object(("scope", .string("fullDocument"))), origin: "agent")
    #expect(code(second) == "busy", "a streaming session was ended")
    // The live session goes on: its replacement lands.
    let replaced = engine.runAgentTool(
      "replace",
      arguments: object(
        ("context", .string(id)), ("offset", .int(4)), ("length", .int(3)),
        ("text", .string("the"))), origin: "agent")
    #expect(!replaced.isError)
    #expect(try text(engine) == "One the two.\nThree fuor.\n")
  }

  @Test func badCallsAreRefusedAndChangeNothing() throws {
    let engine = try engine()
    let before = try text(engine)
    let version = try engine.document.content.storage("b").version
    let calls: [(String, JSON?, String)] = [
      ("quit", nil, "badRequest"),
      ("replay", object(("path", .string("/etc/passwd")), ("storage", .string("x"))), "badRequest"),
      ("add", object(("storage", .string("x")), ("path", .string("/etc/passwd"))), "badRequest"),
      ("edit", .array([]), "badRequest"),
      ("edit", .string("x"), "badRequest"),
      ("storages", object(("cmd", .string("quit"))), "badRequest"),
      (
        "edit",
        object(
          ("storage", .string("b")), ("offset", .int(99)), ("length", .int(0)),
          ("text", .string("x"))), "outOfRange"
      ),
      (
        "edit",
        object(
          ("storage", .string("nope")), ("offset", .int(0)), ("length", .int(0)),
          ("text", .string("x"))), "unknownStorage"
      ),
      ("edit", object(("storage", .string("b")), ("offset", .string("0"))), "badRequest"),
      (
        "replace",
        object(
          ("context", .string("nope")), ("offset", .int(0)), ("length", .int(0)),
          ("text", .string("x"))), "unknownContext"
      ),
      ("accept", object(("suggestion", .int(7))), "unknownSuggestion"),
    ]
    for (name, arguments, code) in calls {
      let result = engine.runAgentTool(name, arguments: arguments, origin: "agent")
      guard case .failure(let got, let message) = result else {
        Issue.record("\(name) \(String(describing: arguments)) was not refused")
        continue
      }
      #expect(got == code, "\(name): \(message)")
    }
    #expect(try text(engine) == before)
    #expect(try engine.document.content.storage("b").version == version)
  }

  @Test func suggestionsAreProposedAndReviewed() throws {
    let engine = try engine()
    let suggested = engine.runAgentTool(
      "suggest",
      arguments: object(
        ("storage", .string("b")), ("offset", .int(19)), ("length", .int(4)),
        ("kind", .string("spelling")), ("explanation", .string("A typo.")),
        ("candidates", .array([.string("four")]))), origin: "agent")
    guard case .success(let json) = suggested, case .int(let id)? = json["id"] else {
      Issue.record("not suggested: \(suggested)")
      return
    }
    let listed = engine.runAgentTool(
      "suggestions", arguments: object(("storage", .string("b"))), origin: "agent")
    guard case .success(let list) = listed, case .array(let items)? = list["suggestions"] else {
      Issue.record("no list: \(listed)")
      return
    }
    #expect(items.count == 1)
    #expect(
      !engine.runAgentTool("accept", arguments: object(("suggestion", .int(id))), origin: "agent")
        .isError)
    #expect(try text(engine) == "One teh two.\nThree four.\n")
    // An accepted suggestion is a group of the document's history.
    _ = try engine.document.undo()
    #expect(try text(engine) == "One teh two.\nThree fuor.\n")
  }
}
