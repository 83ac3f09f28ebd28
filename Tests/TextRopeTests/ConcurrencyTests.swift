import Testing
import TextRope
import _EngineTestSupport

/// Ropes share nodes between copies; a copy edited on one task must never
/// disturb copies read or edited on others. Run under
/// `swift test --sanitize=thread` to check for data races.
@Suite struct ConcurrencyTests {
  @Test func copiesEditedOnManyTasks() async throws {
    let seed = TestSettings.seed("rope concurrency")
    var rng = SeededRandom(seed: seed)
    let text = rng.randomText(pieces: 400)
    let base = Rope(text)
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for task in 0..<4 {
        group.addTask {
          var rng = SeededRandom(seed: seed &+ UInt64(task))
          var rope = base
          var model = TextModel(text)
          for _ in 0..<200 {
            let bounds = model.boundaries
            let a = bounds.randomElement(using: &rng) ?? bounds[0]
            let b = bounds.randomElement(using: &rng) ?? bounds[0]
            let (lo, hi) = a.scalar <= b.scalar ? (a, b) : (b, a)
            let piece = rng.randomText(pieces: Int.random(in: 0...3, using: &rng))
            try rope.replace(lo.utf16..<hi.utf16, with: piece)
            model.replace(lo.scalar..<hi.scalar, with: piece)
          }
          return String(rope) == model.string
        }
      }
      for _ in 0..<2 {
        group.addTask {
          // Readers of the shared original.
          var ok = true
          for _ in 0..<50 {
            ok = ok && String(base) == text && base.utf16Count == text.utf16.count
            let middle = try? base.convert(base.scalarCount / 2, from: .unicodeScalars, to: .utf16)
            ok = ok && (try? base.paragraph(containing: middle ?? -1)) != nil
          }
          return ok
        }
      }
      var all: [Bool] = []
      for try await result in group { all.append(result) }
      return all
    }
    #expect(results.count == 6)
    #expect(results.allSatisfy { $0 })
    #expect(String(base) == text)
  }

  /// A buffered rope copied mid-typing: each task flushes and types on in
  /// its own copy (the buffered bytes and the rope's nodes shared until
  /// then), while others read a snapshot flushed before the tasks began.
  @Test func bufferedCopiesTypedOnManyTasks() async throws {
    let seed = TestSettings.seed("buffered rope concurrency")
    var rng = SeededRandom(seed: seed)
    let text = rng.randomText(pieces: 300)
    var start = BufferedRope(Rope(text))
    let middle = TextModel(text).boundaries
    try start.insert("typing", at: middle[middle.count / 2].utf16)
    var flushedCopy = start
    let snapshot = flushedCopy.flushed()
    let expected = String(snapshot)
    let shared = start
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for task in 0..<4 {
        group.addTask {
          var rng = SeededRandom(seed: seed &+ UInt64(task))
          var buffered = shared
          var model = TextModel(expected)
          var at = model.boundaries[model.boundaries.count / 2]
          for step in 0..<300 {
            if step % 40 == 39 { buffered.flush() }
            if Bool.random(using: &rng) || at.scalar == 0 {
              let piece = rng.randomText(pieces: 1)
              try buffered.insert(piece, at: at.utf16)
              model.replace(at.scalar..<at.scalar, with: piece)
              at = model.boundaries[at.scalar + piece.unicodeScalars.count]
            } else {
              let back = model.boundaries[at.scalar - 1]
              try buffered.delete(back.utf16..<at.utf16)
              model.replace(back.scalar..<at.scalar, with: "")
              at = back
            }
          }
          return String(buffered) == model.string && buffered.utf16Count == model.string.utf16.count
        }
      }
      for _ in 0..<2 {
        group.addTask {
          var ok = true
          for _ in 0..<50 {
            ok = ok && String(snapshot) == expected && String(shared) == expected
            ok = ok && shared.utf16Count == expected.utf16.count
          }
          return ok
        }
      }
      var all: [Bool] = []
      for try await result in group { all.append(result) }
      return all
    }
    #expect(results.count == 6)
    #expect(results.allSatisfy { $0 })
  }
}
