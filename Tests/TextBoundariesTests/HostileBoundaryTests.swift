import Testing
import TextBoundaries
import TextRope

/// Untrusted offsets get typed errors from every boundary query; nothing
/// traps.
@Suite struct HostileBoundaryTests {
  @Test func randomOffsetsNeverTrap() {
    let offsets = [Int.min, -2, -1, 0, 1, 2, 3, 5, 7, 15, 16, 1_000_000, Int.max]
    let clusters = GraphemeClusters(Rope("a😀\r\nb\u{2029}é👨‍👩‍👧"))
    var answered = 0
    for a in offsets {
      if (try? clusters.isBoundary(a)) != nil { answered += 1 }
      _ = try? clusters.boundary(after: a)
      _ = try? clusters.boundary(before: a)
      for b in offsets where a <= b {
        _ = try? clusters.boundaries(in: a..<b)
        _ = try? clusters.snappedOutward(a..<b)
        _ = try? clusters.snappedInward(a..<b)
      }
    }
    #expect(answered == 6)  // 0, 1, 3, 5, 7 and 16: in bounds, outside surrogate pairs
  }
}
