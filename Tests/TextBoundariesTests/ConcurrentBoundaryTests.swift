import Testing
import TextBoundaries
import TextRope

/// Break iterators are pooled and lent to one query at a time: queries from
/// many tasks at once must each get their own answers.
@Suite struct ConcurrentBoundaryTests {
  @Test func boundariesFromManyTasks() async throws {
    let texts = (0..<8).map { i in
      String(repeating: "e\u{301}👨‍👩‍👧 🇫🇷\r\nक्षि ", count: 20 + i)
    }
    let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
      for text in texts {
        group.addTask {
          let clusters = GraphemeClusters(Rope(text))
          var ok = true
          for _ in 0..<20 {
            let boundaries = try clusters.boundaries(in: 0..<clusters.rope.utf16Count)
            ok = ok && boundaries == characterBoundaries(text)
          }
          return ok
        }
      }
      var all: [Bool] = []
      for try await outcome in group { all.append(outcome) }
      return all
    }
    #expect(outcomes.count == texts.count)
    #expect(outcomes.allSatisfy { $0 })
  }
}
