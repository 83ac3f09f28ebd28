import DocumentEngine
import Testing
import TextRope

/// The shared document serializes mutations; snapshots and contexts are
/// values other tasks read while edits go on. Run under
/// `swift test --sanitize=thread`.
@Suite struct DocumentConcurrencyTests {
  @Test func sessionsEndWhenContextsAreAskedAgain() throws {
    let document = Document()
    try document.add("body", text: "One two.\nThree fuor.\n")
    try document.select([SelectionRange("body", 15..<19)])
    let first = try document.startSession(scope: .userSelection)
    #expect(first.contexts.map(\.storageRange) == [9..<21])
    #expect(document.isLive(first))
    let second = try document.startSession(scope: .fullDocument)
    #expect(!document.isLive(first))
    #expect(document.isLive(second))
    document.endSession()
    #expect(!document.isLive(second))
    #expect(throws: DocumentError.self) { try document.select([SelectionRange("body", 0..<99)]) }
    #expect(document.selection == [SelectionRange("body", 15..<19)])
    try document.remove("body")
    #expect(document.selection.isEmpty)
  }

  @Test func editsFromManyTasksWhileContextsAreRead() async throws {
    let document = Document()
    let ids: [StorageID] = ["a", "b", "c", "d"]
    for id in ids { try document.add(id, text: Rope(String(repeating: "line\n", count: 20))) }
    try document.select([SelectionRange("a", 0..<3)])
    try await withThrowingTaskGroup(of: Void.self) { group in
      for id in ids {
        group.addTask {
          for i in 0..<100 {
            try document.edit(id, range: 0..<0, with: "\(i % 10)")
          }
        }
      }
      group.addTask {
        for _ in 0..<50 {
          let session = try document.startSession(scope: .fullDocument)
          for context in session.contexts {
            // Each context's text is the storage as of its version.
            #expect(context.text.utf16Count == 100 + context.version.rawValue)
          }
          let snapshot = document.content
          #expect(snapshot.order == ids)
        }
      }
      try await group.waitForAll()
    }
    for id in ids {
      #expect(try document.content.storage(id).version == 100)
      #expect(try document.content.storage(id).length == 200)
    }
  }

  /// A peer's edits on one task reach an observer on another, in order and
  /// exactly as the calls returned them; with several editing tasks, every
  /// event reaches it once.
  @Test(arguments: [1, 4])
  func observersHearEveryEventFromOtherTasks(editors: Int) async throws {
    let document = Document()
    let paragraph = "One two three.\n"
    try document.add("body", text: Rope(String(repeating: paragraph, count: 6)))
    try document.select([SelectionRange("body", 30..<33)])
    let session = try document.startSession(scope: .userSelection)
    let context = try #require(session.contexts.first)
    let events = document.events()
    // Edits before the context reflow it; edits inside update its text.
    let returned = try await withThrowingTaskGroup(of: [DocumentEvent].self) { group in
      for task in 0..<editors {
        group.addTask {
          var heard: [DocumentEvent] = []
          for i in 0..<40 {
            let start = context.storageRange.lowerBound
            let result =
              i % 2 == 0
              ? try document.edit("body", range: 0..<0, with: "\(task)", origin: "peer\(task)")
              : try document.edit("body", range: start + 1..<start + 1, with: "x")
            heard += result.events
          }
          return heard
        }
      }
      var all: [[DocumentEvent]] = []
      for try await heard in group { all.append(heard) }
      return all
    }
    let total = returned.reduce(0) { $0 + $1.count }
    #expect(total > 0)
    var observed: [DocumentEvent] = []
    for await event in events {
      observed.append(event)
      if observed.count == total { break }
    }
    if editors == 1 {
      #expect(observed == returned[0])
    } else {
      var counts: [DocumentEvent: Int] = [:]
      for event in returned.joined() { counts[event, default: 0] += 1 }
      for event in observed { counts[event, default: 0] -= 1 }
      #expect(counts.values.allSatisfy { $0 == 0 })
    }
  }

  /// A tool's replacement, its undo and a revert are heard too.
  @Test func observersHearReplacementsUndoAndRevert() async throws {
    let document = Document()
    try document.add("body", text: "One two.\nThree fuor.\n")
    try document.select([SelectionRange("body", 15..<19)])
    let session = try document.startSession(scope: .userSelection)
    let context = try #require(session.contexts.first).id
    let events = document.events()
    var returned = try document.replace(context: context, range: 6..<10, with: "four").events
    returned += try document.undo().events
    returned += try document.redo().events
    returned += try document.revert().events
    #expect(returned.count >= 3)
    var observed: [DocumentEvent] = []
    for await event in events {
      observed.append(event)
      if observed.count == returned.count { break }
    }
    #expect(observed == returned)
  }

  /// Publishing skips the observers' lock while nobody observes, by a count
  /// of the observers: an observer that leaves is no longer counted, and
  /// the ones that stay, or come later, still hear every event.
  @Test(.timeLimit(.minutes(10)))  // a hang's backstop, not a speed check
  func observersThatStayOrComeLaterHearEveryEvent() async throws {
    let document = Document()
    try document.add("body", text: "One two three.\n")
    try document.select([SelectionRange("body", 4..<7)])
    _ = try document.startSession(scope: .userSelection)
    let staying = document.events()
    // An observer that leaves: its task is cancelled, so its stream ends.
    let leaving = Task {
      var count = 0
      for await _ in document.events() { count += 1 }
      return count
    }
    leaving.cancel()
    _ = await leaving.value
    let first = try document.edit("body", range: 5..<5, with: "x").events
    #expect(!first.isEmpty)
    // And an observer that comes later hears what follows.
    var heard: [DocumentEvent] = []
    for await event in staying {
      heard.append(event)
      if heard.count == first.count { break }
    }
    #expect(heard == first)
    let later = document.events()
    let second = try document.edit("body", range: 6..<6, with: "y").events
    #expect(!second.isEmpty)
    heard = []
    for await event in later {
      heard.append(event)
      if heard.count == second.count { break }
    }
    #expect(heard == second)
  }

  /// An observer's stream ends when its document goes away (else the loop
  /// below would wait until the time limit fails the test).
  @Test(.timeLimit(.minutes(10)))  // a hang's backstop, not a speed check
  func eventStreamsEndWithTheirDocument() async throws {
    var document: Document? = Document()
    let events = try #require(document).events()
    document = nil
    var count = 0
    for await _ in events { count += 1 }
    #expect(count == 0)
  }

  @Test func personsEditsWhileASessionReplaces() async throws {
    // The person types in several tasks while the tool streams replacements
    // on an old basis and a peer sends origin-tagged edits: every keystroke
    // of the person survives, every refusal is a conflict, and the
    // context's text is always the storage's text in its range.
    let document = Document(keepsAllChanges: true)
    let paragraph = "The quick brown fox jumps over the lazy dog.\n"
    try document.add("body", text: Rope(String(repeating: paragraph, count: 8)))
    try document.select([SelectionRange("body", 90..<100)])
    let session = try document.startSession(scope: .userSelection)
    let context = try #require(session.contexts.first).id
    try document.setWritingToolsState(.interactiveResting)
    try document.setWritingToolsState(.interactiveStreaming)
    try await withThrowingTaskGroup(of: Int.self) { group in
      for task in 0..<3 {
        group.addTask {
          // The person: one mark per keystroke, at the start of the body.
          for _ in 0..<60 {
            try document.edit("body", range: 0..<0, with: "\(task)")
          }
          return 0
        }
      }
      group.addTask {
        var applied = 0
        for i in 0..<60 {
          do {
            _ = try document.replace(
              context: context, range: (i % 40)..<(i % 40 + 1), with: "~", basis: 0)
            applied += 1
          } catch let error as DocumentError {
            #expect(error == .conflict(context: context))
          }
          let live = try document.liveContext(context)
          #expect(live.text.utf16Count == live.storageRange.count)
        }
        return applied
      }
      group.addTask {
        for i in 0..<60 {
          try document.edit(
            "body", range: 200..<200, with: "§", origin: "peer", basis: StorageVersion(i / 2))
        }
        return 0
      }
      for try await _ in group {}
    }
    try document.setWritingToolsState(.interactiveResting)
    let text = String(try document.content.storage("body").text)
    for task in 0..<3 {
      #expect(text.filter { $0 == Character("\(task)") }.count == 60)
    }
    #expect(text.filter { $0 == "§" }.count == 60)
  }
}
