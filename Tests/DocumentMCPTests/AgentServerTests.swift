#if MCP
import DocumentEngine
import DocumentMCP
import MCP
import ScopeREPLCore
import Testing

/// An agent on the SDK's own `Client`, over the in-memory transport.
@Suite struct AgentServerTests {
  /// A connected client, its server, and the engine under them.
  /// `direct`: the server as `AgentServer.start` makes it, its tool calls
  /// answered on the transport's way in; else the SDK's handler answers
  /// them (`make`). Both must answer alike.
  func connect(_ engine: REPLEngine, direct: Bool) async throws -> (Client, Server) {
    let (clientSide, serverSide) = await InMemoryTransport.createConnectedPair()
    let server: Server
    if direct {
      server = try await AgentServer.start(
        on: serverSide, engine: LockedREPLEngine(engine), origin: "agent")
    } else {
      server = await AgentServer.make(engine: LockedREPLEngine(engine), origin: "agent")
      try await server.start(transport: StringPreservingTransport(serverSide))
    }
    let client = Client(name: "AgentServerTests", version: "1")
    _ = try await client.connect(transport: clientSide)
    return (client, server)
  }

  func close(_ client: Client, _ server: Server) async {
    await client.disconnect()
    await server.stop()
  }

  func call(_ client: Client, _ name: String, _ arguments: [String: Value] = [:]) async throws
    -> CallTool.Result
  {
    try await client.send(CallTool.request(.init(name: name, arguments: arguments))).value
  }

  @Test func theToolsAreTheProtocolsCommands() async throws {
    let (client, server) = try await connect(REPLEngine(), direct: false)
    let (tools, _) = try await client.listTools()
    #expect(tools.map(\.name) == AgentTool.all.map(\.name))
    let replace = tools.first { $0.name == "replace" }
    #expect(replace?.inputSchema.objectValue?["required"] == ["context", "offset", "length"])
    await close(client, server)
  }

  @Test(arguments: [false, true]) func aReplacementLandsOnTheVersionItReadWhileThePersonTypes(
    direct: Bool
  ) async throws {
    let engine = REPLEngine()
    try engine.document.add("b", text: "One teh two.\nThree fuor.\n")
    let (client, server) = try await connect(engine, direct: direct)
    let contexts = try await call(client, "contexts", ["scope": "fullDocument"])
    #expect(contexts.isError == false)
    guard
      case .string(let id)? = contexts.structuredContent?.objectValue?["contexts"]?.arrayValue?
        .first?.objectValue?["id"]
    else {
      Issue.record("no context: \(String(describing: contexts.structuredContent))")
      return
    }
    // The person types at the start after the agent read the context.
    _ = try engine.document.edit("b", range: 0..<0, with: "👩‍👩‍👧 ")
    // Its replacement on version 0 lands where "teh" went.
    let landed = try await call(
      client, "replace",
      ["context": .string(id), "offset": 4, "length": 3, "text": "the", "basis": 0])
    #expect(landed.isError == false)
    #expect(
      landed.structuredContent?.objectValue?["storageRange"]
        == ["offset": 13, "length": 3])
    #expect(
      String(try engine.document.content.storage("b").text) == "👩‍👩‍👧 One the two.\nThree fuor.\n")
    // A stale one — the person typed inside its range since the version it
    // names — is refused. (The context starts after the text typed at its
    // start: "fuor" is at 19 in it.)
    guard case .int(let seen)? = landed.structuredContent?.objectValue?["contextVersion"] else {
      Issue.record("no context version: \(String(describing: landed.structuredContent))")
      return
    }
    _ = try engine.document.edit("b", range: 30..<30, with: "x")
    let refused = try await call(
      client, "replace",
      ["context": .string(id), "offset": 19, "length": 4, "text": "four", "basis": .int(seen)])
    #expect(refused.isError == true)
    #expect(
      refused.structuredContent?.objectValue?["error"]?.objectValue?["code"] == "conflict")
    await close(client, server)
  }

  @Test(arguments: [false, true]) func aSubscriberHearsWhenAStoragesTextChanges(direct: Bool)
    async throws
  {
    let engine = REPLEngine()
    try engine.document.add("notes", text: "Hello\r\n")
    let (client, server) = try await connect(engine, direct: direct)
    let (stream, continuation) = AsyncStream<String>.makeStream()
    await client.onNotification(ResourceUpdatedNotification.self) { message in
      continuation.yield(message.params.uri)
    }
    let (resources, _) = try await client.listResources()
    #expect(resources.map(\.uri) == ["storage://notes"])
    let contents = try await client.readResource(uri: "storage://notes")
    #expect(contents.first?.text == "Hello\r\n")
    try await client.subscribeToResource(uri: "storage://notes")
    let edit = try await call(
      client, "edit", ["storage": "notes", "offset": 5, "length": 0, "text": ", wörld 🇫🇷"])
    #expect(edit.isError == false)
    var updates = stream.makeAsyncIterator()
    #expect(await updates.next() == "storage://notes")
    #expect(
      try await client.readResource(uri: "storage://notes").first?.text == "Hello, wörld 🇫🇷\r\n")
    await close(client, server)
  }

  /// Text shaped as a `data:` URL (which the SDK would read as bytes),
  /// and text that starts with the escape's own marker, land as written.
  @Test(arguments: [false, true]) func textThatLooksLikeADataURLLandsAsWritten(direct: Bool)
    async throws
  {
    let engine = REPLEngine()
    try engine.document.add("b", text: "")
    let (client, server) = try await connect(engine, direct: direct)
    var expected = ""
    for text in [
      "data:,hello", "data:text/plain;base64,aGk=", "\u{F8FF}data:,x", "\u{F8FF}\u{F8FF}",
      "plain 👩‍👩‍👧",
    ] {
      let result = try await call(
        client, "edit",
        ["storage": "b", "offset": .int(expected.utf16.count), "length": 0, "text": .string(text)])
      #expect(result.isError == false, "\(text)")
      expected += text
      #expect(String(try engine.document.content.storage("b").text) == expected)
    }
    await close(client, server)
  }

  @Test(arguments: [false, true]) func aBadCallIsAToolErrorWithTheProtocolsCode(direct: Bool)
    async throws
  {
    let (client, server) = try await connect(REPLEngine(), direct: direct)
    for (name, arguments, code) in [
      ("nope", [:], "badRequest"),
      ("edit", ["storage": "b", "offset": 0, "length": 0, "text": "x"], "unknownStorage"),
      ("edit", ["storage": "b", "offset": "zero"], "badRequest"),
    ] as [(String, [String: Value], String)] {
      let result = try await call(client, name, arguments)
      #expect(result.isError == true)
      #expect(
        result.structuredContent?.objectValue?["error"]?.objectValue?["code"] == .string(code),
        "\(name)")
    }
    await close(client, server)
  }
}
#endif
