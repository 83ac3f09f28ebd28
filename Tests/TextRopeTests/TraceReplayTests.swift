import EditingTraces
import TextRope
import Testing
import _EngineTestSupport

/// Real editing sessions replayed into a rope must end with exactly the
/// text the trace recorded.
@Suite struct TraceReplayTests {
  @Test(arguments: TestData.traceNames)
  func replay(name: String) throws {
    let trace = try EditingTrace(contentsOf: TestData.trace(name))
    #expect(!trace.patches.isEmpty)
    var rope = Rope(trace.startContent)
    for (index, patch) in trace.patches.enumerated() {
      try rope.replace(
        patch.position..<patch.position + patch.deleteCount, in: .unicodeScalars,
        with: patch.insert)
      if index % 5000 == 0 { rope._invariantCheck() }
    }
    rope._invariantCheck()
    #expect(String(rope) == trace.endContent)
    #expect(rope.scalarCount == trace.endContent.unicodeScalars.count)
    #expect(rope.utf16Count == trace.endContent.utf16.count)
  }

  @Test func corruptTracesAreErrors() {
    #expect(throws: EditingTrace.Failure.self) {
      try EditingTrace(contentsOf: TestData.directory + "/no-such-trace.json.gz")
    }
    #expect(throws: EditingTrace.Failure.self) {
      try EditingTrace(json: Array("{\"startContent\": 3}".utf8))
    }
    #expect(throws: Gzip.Failure.self) {
      try Gzip.decompress([0x1F, 0x8B, 0x08, 0x00, 0x01])
    }
  }
}
