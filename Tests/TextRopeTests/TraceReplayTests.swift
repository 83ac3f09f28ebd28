import EditingTraces
import Testing
import TextRope
import _EngineTestSupport

/// Real editing sessions replayed into a rope must end with exactly the
/// text the trace recorded.
@Suite struct TraceReplayTests {
  @Test(arguments: TestData.traceNames)
  func replay(name: String) throws {
    let trace = try EditingTrace(contentsOf: TestData.trace(name))
    #expect(!trace.patches.isEmpty)
    #if ENGINE_INTERNAL_CHECKS
    // Checked builds verify the whole tree after every edit (O(n) each): a
    // prefix of the trace, compared with a plain model, keeps that fast.
    var rope = Rope(trace.startContent)
    var model = TextModel(trace.startContent)
    for patch in trace.patches.prefix(1500) {
      let range = patch.position..<patch.position + patch.deleteCount
      try rope.replace(range, in: .unicodeScalars, with: patch.insert)
      model.replace(range, with: patch.insert)
    }
    expectRope(rope, matches: model, checkAllOffsets: false)
    #else
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
    #endif
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
