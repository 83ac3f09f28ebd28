import Foundation
import Testing
import TextRope

@testable import DocumentEngine

/// Observers with a bounded buffer while several tasks edit (run under the
/// thread sanitizer in CI: the suite's name has "Concurrency").
@Suite struct ObserverConcurrencyTests {
  /// Several tasks type inside one context while a fast observer and a
  /// slow one with a small limit read: each hears the context's versions
  /// in order, and where it fell behind, one `missed` that counts exactly
  /// the versions it did not hear.
  @Test(.timeLimit(.minutes(10)))  // a hang's backstop, not a speed check
  func aSlowObserverHearsInOrderAndCountsWhatItMissed() async throws {
    let document = Document()
    try document.add("body", text: Rope(String(repeating: "One two three.\n", count: 4)))
    try document.select([SelectionRange("body", 17..<20)])
    let session = try document.startSession(scope: .userSelection)
    let context = try #require(session.contexts.first)
    let editors = 3
    let keystrokes = 200
    let total = editors * keystrokes
    let fast = document.events()
    let slow = document.events(limit: 8)
    async let fastHeard = Self.versions(fast, until: total, pause: false)
    async let slowHeard = Self.versions(slow, until: total, pause: true)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<editors {
        group.addTask {
          for _ in 0..<keystrokes {
            let start = context.storageRange.lowerBound
            try document.edit("body", range: (start + 1)..<(start + 1), with: "x")
          }
        }
      }
      try await group.waitForAll()
    }
    let (fastVersions, fastMissed) = await fastHeard
    let (slowVersions, slowMissed) = await slowHeard
    #expect(fastMissed == 0)
    #expect(fastVersions == Array(1...total))
    #expect(slowVersions.count + slowMissed == total)
    #expect(slowVersions == slowVersions.sorted())
  }

  /// The context versions an observer heard, in order, and how many events
  /// it was told it missed (each `missed` checked against the gap in the
  /// versions), until it accounted for `count` events.
  static func versions(
    _ events: DocumentEvents, until count: Int, pause: Bool
  ) async -> (versions: [Int], missed: Int) {
    var versions: [Int] = []
    var missed = 0
    var gap: Int? = nil
    for await event in events {
      switch event {
      case .textUpdated(_, _, _, let version, _):
        if let gap {
          #expect(version.rawValue - (versions.last ?? 0) - 1 == gap)
        }
        gap = nil
        versions.append(version.rawValue)
      case .missed(let n):
        missed += n
        gap = n
      default:
        Issue.record("an event not about the context: \(event)")
      }
      if versions.count + missed >= count { break }
      if pause { try? await Task.sleep(nanoseconds: 50_000) }
    }
    return (versions, missed)
  }
}
