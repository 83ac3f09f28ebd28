import Benchmark
import BenchmarkHarness
import DocumentMCP
import Foundation
import MCP
import ScopeREPLCore
import SystemPackage

// 47. An agent's calls over the Model Context Protocol (DocumentMCP,
//     `scope-repl --mcp`) beside the same requests through the REPL's
//     `--json` protocol, both over pipes, in one iteration: 10,000
//     `suggest` calls on a 100 KB storage, from the first byte written to
//     the last response read. The MCP side is the SDK's `Server` on its
//     `StdioTransport` (framing, JSON-RPC, the tool's result as structured
//     content and text), the requests pipelined as a client may send them.
//     Target: ≤ 3× (300).

let mcpOverJSON = BenchmarkMetric.custom(
  "MCP over stdio ÷ --json (×100)", polarity: .prefersSmaller, useScalingFactor: false)

/// How many calls each side makes.
let agentCalls = 10_000

/// The storage the calls suggest in: 20,000 five-letter words.
let agentText = String(repeating: "word ", count: 20_000)

/// The `--json` request of call `i`.
func suggestRequest(_ i: Int) -> String {
  let offset = (i * 5) % agentText.utf16.count
  return
    #"{"cmd":"suggest","storage":"notes","offset":\#(offset),"length":4,"kind":"grammar","candidates":["w"]}"#
}

/// An engine with the storage.
func agentEngine() -> REPLEngine {
  let engine = REPLEngine()
  _ = engine.handleLine(
    Array(#"{"cmd":"add","storage":"notes","text":"\#(agentText)"}"#.utf8))
  return engine
}

/// A pipe's two ends.
func makePipe() -> (read: Int32, write: Int32) {
  var fds: [Int32] = [0, 0]
  _ = pipe(&fds)
  return (fds[0], fds[1])
}

func writeAll(_ bytes: [UInt8], to fd: Int32) {
  var done = 0
  while done < bytes.count {
    let n = bytes[done...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    if n > 0 {
      done += n
    } else if errno != EINTR && errno != EAGAIN {
      return
    }
  }
}

/// Reads `fd` on a thread of its own until it has seen `lines` newlines;
/// then signals `done`.
func countLines(_ fd: Int32, _ lines: Int, _ done: DispatchSemaphore) {
  Thread.detachNewThread {
    var seen = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while seen < lines {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        seen += buffer[..<n].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
      } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
        break
      }
    }
    done.signal()
  }
}

/// The requests through the `--json` protocol: lines in, lines out.
func runJSON() -> Duration {
  let engine = agentEngine()
  let input = makePipe()
  let output = makePipe()
  let clock = ContinuousClock()
  let start = clock.now
  let done = DispatchSemaphore(value: 0)
  countLines(output.read, agentCalls, done)
  Thread.detachNewThread {
    var bytes: [UInt8] = []
    for i in 0..<agentCalls { bytes += Array((suggestRequest(i) + "\n").utf8) }
    writeAll(bytes, to: input.write)
    close(input.write)
  }
  var reader = LineReader { buffer in read(input.read, buffer.baseAddress, buffer.count) }
  while let line = reader.next() {
    let (response, _) = engine.handleLine(line)
    writeAll(Array((response + "\n").utf8), to: output.write)
  }
  done.wait()
  let elapsed = clock.now - start
  for fd in [input.read, output.read, output.write] { close(fd) }
  return elapsed
}

/// The same calls as an agent makes them over MCP's stdio transport.
func runMCP() async -> Duration {
  let access = LockedREPLEngine(agentEngine())
  let input = makePipe()
  let output = makePipe()
  let transport = StdioTransport(
    input: FileDescriptor(rawValue: input.read), output: FileDescriptor(rawValue: output.write))
  let clock = ContinuousClock()
  let start = clock.now
  let done = DispatchSemaphore(value: 0)
  countLines(output.read, agentCalls + 1, done)
  let server: Server
  do {
    server = try await AgentServer.start(on: transport, engine: access, origin: "agent")
  } catch {
    return .zero
  }
  Thread.detachNewThread {
    var bytes = Array(
      #"""
      {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}
      {"jsonrpc":"2.0","method":"notifications/initialized"}

      """#.utf8)
    for i in 0..<agentCalls {
      let arguments = suggestRequest(i).replacingOccurrences(of: #""cmd":"suggest","#, with: "")
      bytes += Array(
        (#"{"jsonrpc":"2.0","id":\#(i + 1),"method":"tools/call","params":{"name":"suggest","arguments":\#(arguments)}}"#
          + "\n").utf8)
    }
    writeAll(bytes, to: input.write)
  }
  await withCheckedContinuation { continuation in
    Thread.detachNewThread {
      done.wait()
      continuation.resume()
    }
  }
  let elapsed = clock.now - start
  await server.stop()
  for fd in [input.read, input.write, output.read, output.write] { close(fd) }
  return elapsed
}

let benchmarks: @Sendable () -> Void = {
  registerEditorWithAgentBenchmark()
  Benchmark(
    "Agents ratio/10,000 suggest calls, MCP over stdio ÷ the --json protocol",
    configuration: configuration(
      metrics: [.wallClock, mcpOverJSON], timeUnits: .milliseconds, warmupIterations: 1,
      maxDuration: .seconds(60), maxIterations: 5)
  ) { benchmark in
    let json = runJSON()
    let mcp = await runMCP()
    benchmark.measurement(mcpOverJSON, Int((mcp / json * 100).rounded()))
  }
}
