#if MCP
import DocumentEngine
import DocumentMCP
import Foundation
import MCP
import ScopeREPLCore
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An agent on the SDK's own `Client` over its stdio transport (two pipes),
/// the server as `scope-repl --mcp` starts it (`AgentServer.start`).
@Suite struct AgentStdioTests {
  @Test func anAgentWorksOverStdio() async throws {
    var toServer: [Int32] = [0, 0]
    var toClient: [Int32] = [0, 0]
    #expect(pipe(&toServer) == 0 && pipe(&toClient) == 0)
    defer { for fd in toServer + toClient { close(fd) } }
    let engine = REPLEngine()
    try engine.document.add("notes", text: "Ünïcode 👩‍👩‍👧 teh.\r\nEnd.\u{2029}")
    let server = try await AgentServer.start(
      on: StdioTransport(
        input: FileDescriptor(rawValue: toServer[0]), output: FileDescriptor(rawValue: toClient[1])),
      engine: LockedREPLEngine(engine), origin: "agent")
    let client = Client(name: "AgentStdioTests", version: "1")
    _ = try await client.connect(
      transport: StdioTransport(
        input: FileDescriptor(rawValue: toClient[0]), output: FileDescriptor(rawValue: toServer[1]))
    )
    let (tools, _) = try await client.listTools()
    #expect(tools.count == AgentTool.all.count)
    func call(_ name: String, _ arguments: [String: Value]) async throws -> CallTool.Result {
      try await client.send(CallTool.request(.init(name: name, arguments: arguments))).value
    }
    // "teh" is at 17 (the family is 8 units); the agent fixes it as itself.
    let edit = try await call(
      "edit", ["storage": "notes", "offset": 17, "length": 3, "text": "the"])
    #expect(edit.isError == false)
    #expect(edit.structuredContent?.objectValue?["range"] == ["offset": 17, "length": 3])
    #expect(
      String(try engine.document.content.storage("notes").text)
        == "Ünïcode 👩‍👩‍👧 the.\r\nEnd.\u{2029}")
    // Inside the family's surrogate pair: refused, nothing changed.
    let refused = try await call(
      "edit", ["storage": "notes", "offset": 9, "length": 0, "text": "x"])
    #expect(refused.isError == true)
    #expect(
      refused.structuredContent?.objectValue?["error"]?.objectValue?["code"]
        == "splitsSurrogatePair")
    // Its undo takes back its own edit.
    let undone = try await call("undo", [:])
    #expect(undone.isError == false)
    #expect(
      String(try engine.document.content.storage("notes").text)
        == "Ünïcode 👩‍👩‍👧 teh.\r\nEnd.\u{2029}")
    await client.disconnect()
    await server.stop()
  }
}
#endif
