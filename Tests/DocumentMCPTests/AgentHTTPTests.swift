#if MCP
import DocumentEngine
import Foundation
import ScopeREPLCore
import Testing

@testable import DocumentMCP

/// The Streamable HTTP endpoint's router (``AgentHTTPRouter``), request by
/// request: the guards answer before anything reaches the engine, and a
/// session's calls land on it. (The socket and the official Python client:
/// `Tests/MCPClient/http_agent.py`, against the editor.)
@Suite struct AgentHTTPTests {
  static let token = "t0ken"

  func router(_ engine: REPLEngine = REPLEngine(), maxSessions: Int = 16) -> AgentHTTPRouter {
    var options = AgentHTTPOptions(port: 0, token: Self.token)
    options.maxSessions = maxSessions
    let router = AgentHTTPRouter(options: options, engine: LockedREPLEngine(engine), onCall: nil)
    router.setPort(8931)
    return router
  }

  func request(
    _ body: String, method: String = "POST", session: String? = nil,
    headers extra: [String: String] = [:]
  ) -> AgentHTTPRequest {
    var headers = [
      "authorization": "Bearer \(Self.token)", "content-type": "application/json",
      "accept": "application/json, text/event-stream",
    ]
    if let session { headers["mcp-session-id"] = session }
    for (key, value) in extra { headers[key] = value }
    return AgentHTTPRequest(method: method, path: "/mcp", headers: headers, body: Array(body.utf8))
  }

  static let initialize = """
    {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",\
    "capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
    """

  /// The status, the session header and the JSON body of a whole response.
  func answer(_ response: AgentHTTPResponse) -> (Int, String?, JSON?) {
    guard case .full(let status, let headers, let body) = response else { return (0, nil, nil) }
    let session = headers.first { $0.0 == "MCP-Session-Id" }?.1
    return (status, session, try? JSONReader.parse(body))
  }

  @Test func everyGuardAnswersBeforeTheEngine() async {
    let engine = REPLEngine()
    let router = self.router(engine)
    var noToken = request(Self.initialize)
    noToken.headers["authorization"] = nil
    var otherPath = request(Self.initialize)
    otherPath.path = "/"
    let cases: [(String, AgentHTTPRequest, Int)] = [
      ("no token", noToken, 401),
      ("a wrong token", request(Self.initialize, headers: ["authorization": "Bearer t0kem"]), 401),
      (
        "a token that is longer",
        request(Self.initialize, headers: ["authorization": "Bearer t0ken "]), 401
      ),
      ("another site", request(Self.initialize, headers: ["origin": "http://evil.example"]), 403),
      ("another port", request(Self.initialize, headers: ["origin": "http://localhost:1"]), 403),
      ("another path", otherPath, 404),
      ("not JSON", request("{"), 400),
      ("a batch", request("[\(Self.initialize)]"), 400),
      ("not JSON-RPC 2.0", request(#"{"id":1,"method":"initialize"}"#), 400),
      ("text/plain", request(Self.initialize, headers: ["content-type": "text/plain"]), 415),
      ("no JSON accepted", request(Self.initialize, headers: ["accept": "text/html"]), 406),
      ("an unknown version", request(Self.initialize, headers: ["mcp-protocol-version": "1"]), 400),
      ("no session", request(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#), 400),
      (
        "an unknown session",
        request(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, session: "nope"), 404
      ),
      ("PUT", request(Self.initialize, method: "PUT"), 405),
      (
        "a GET without a session",
        request("", method: "GET", headers: ["accept": "text/event-stream"]), 400
      ),
    ]
    for (what, request, status) in cases {
      let (got, session, _) = answer(await router.handle(request))
      #expect(got == status, "\(what)")
      #expect(session == nil, "\(what): no session")
    }
    // The page of this endpoint itself may call it.
    let (status, _, _) = answer(
      await router.handle(request(Self.initialize, headers: ["origin": "http://127.0.0.1:8931"])))
    #expect(status == 200)
    #expect(engine.document.content.order.isEmpty)
  }

  @Test func aSessionCallsToolsAndEnds() async throws {
    let engine = REPLEngine()
    let router = self.router(engine)
    let (status, session, body) = answer(await router.handle(request(Self.initialize)))
    #expect(status == 200)
    let id = try #require(session)
    #expect(body?["result"]?["serverInfo"]?["name"] == .string("swift-text-engine"))
    let (accepted, _, _) = answer(
      await router.handle(
        request(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, session: id)))
    #expect(accepted == 202)
    let add = #"""
      {"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"add",\#
      "arguments":{"storage":"notes","text":"Hëllo 🇫🇷\r\n"}}}
      """#
    let (added, _, reply) = answer(await router.handle(request(add, session: id)))
    #expect(added == 200)
    #expect(reply?["id"] == .string("a"))
    #expect(reply?["result"]?["structuredContent"]?["length"] == .int(12))
    #expect(String(try engine.document.content.storage("notes").text) == "Hëllo 🇫🇷\r\n")
    // A refusal is the tool's error, with the protocol's code.
    let bad = #"""
      {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"edit",\#
      "arguments":{"storage":"notes","offset":7,"length":0,"text":"x"}}}
      """#
    let (_, _, refused) = answer(await router.handle(request(bad, session: id)))
    #expect(refused?["result"]?["isError"] == .bool(true))
    #expect(
      refused?["result"]?["structuredContent"]?["error"]?["code"] == .string("splitsSurrogatePair"))
    #expect(String(try engine.document.content.storage("notes").text) == "Hëllo 🇫🇷\r\n")
    // DELETE ends it; the session is then unknown.
    let (ended, _, _) = answer(await router.handle(request("", method: "DELETE", session: id)))
    #expect(ended == 200)
    let (gone, _, _) = answer(
      await router.handle(request(#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#, session: id)))
    #expect(gone == 404)
  }

  @Test func tooManyAgentsAreTurnedAway() async {
    let router = self.router(maxSessions: 2)
    var statuses: [Int] = []
    for _ in 0..<3 { statuses.append(answer(await router.handle(request(Self.initialize))).0) }
    #expect(statuses == [200, 200, 503])
    await router.closeAll()
  }

  @Test func theEventStreamOpensForASession() async throws {
    let router = self.router()
    let (_, session, _) = answer(await router.handle(request(Self.initialize)))
    let id = try #require(session)
    let response = await router.handle(
      request("", method: "GET", session: id, headers: ["accept": "text/event-stream"]))
    guard case .events(let headers, _) = response else {
      Issue.record("not an event stream: \(response)")
      return
    }
    #expect(headers.contains { $0 == ("Content-Type", "text/event-stream") })
    let (refused, _, _) = answer(
      await router.handle(
        request("", method: "GET", session: id, headers: ["accept": "application/json"])))
    #expect(refused == 406)
    await router.closeAll()
  }

  /// An agent that never reads its event stream costs a bounded number of
  /// notifications: the newest wait, the older ones are dropped.
  @Test func aReaderThatNeverReadsKeepsOnlyTheNewestEvents() async throws {
    let transport = AgentHTTPSessionTransport(eventLimit: 4)
    let stream = await transport.openEvents()
    for k in 0..<1_000 {
      try await transport.send(
        Data(
          #"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"n":\#(k)}}"#.utf8
        ))
    }
    await transport.close()
    var seen: [String] = []
    for await event in stream { seen.append(String(decoding: event, as: UTF8.self)) }
    #expect(seen.count == 4)
    #expect(seen.last?.contains(#""n":999"#) == true)
    #expect(seen.first?.contains(#""n":996"#) == true)
  }

  @Test func anEventIsOneServerSentEventPerLine() {
    let frame = AgentHTTPSessionTransport.frame(Data("{\"a\":1}\n{\"b\":2}".utf8))
    #expect(
      String(decoding: frame, as: UTF8.self)
        == "event: message\ndata: {\"a\":1}\ndata: {\"b\":2}\n\n")
  }
}
#endif
