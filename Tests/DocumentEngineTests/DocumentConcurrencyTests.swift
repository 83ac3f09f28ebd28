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
            #expect(context.text.utf16Count == 100 + context.version)
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
}
