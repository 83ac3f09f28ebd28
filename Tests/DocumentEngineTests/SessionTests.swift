import DocumentEngine
import Foundation
import Testing
import TextRope

/// Events, replacements, origins and sessions (docs/DESIGN.md, "Replacements,
/// edits and versions" and "Sessions"), rule by rule.
@Suite struct SessionTests {
  /// title "Draft\n", body "One two.\nThree fuor.\nFive.\n", the selection
  /// on "fuor" (body 15..<19), and a session for it: the context is body
  /// 9..<21, "Three fuor.\n", range 6..<10.
  func started() throws -> (Document, UUID) {
    let document = Document(keepsAllChanges: true)
    try document.add("title", text: "Draft\n")
    try document.add("body", text: "One two.\nThree fuor.\nFive.\n")
    try document.select([SelectionRange("body", 15..<19)])
    let session = try document.startSession(scope: .userSelection)
    #expect(session.contexts.count == 1)
    return (document, session.contexts[0].id)
  }

  func text(_ document: Document, _ id: StorageID) throws -> String {
    String(try document.content.storage(id).text)
  }

  @Test func protocolExample() throws {
    let (document, context) = try started()
    let edit = try document.edit("body", range: 0..<0, with: "Zero. ")
    #expect(edit.version == 1)
    #expect(edit.range == 0..<6)
    #expect(edit.events == [.reflowed(context: context, storageRange: 15..<27)])
    let replaced = try document.replace(context: context, range: 6..<10, with: "four")
    #expect(replaced.storage == "body")
    #expect(replaced.storageRange == 21..<25)
    #expect(replaced.contextVersion == 1)
    #expect(replaced.events.isEmpty)
    #expect(try text(document, "body") == "Zero. One two.\nThree four.\nFive.\n")
  }

  @Test func eventsForEditsBeforeInsideAndAfter() throws {
    let (document, context) = try started()
    // After the context: nothing.
    #expect(try document.edit("body", range: 24..<24, with: "!").events.isEmpty)
    // At its end: outside, nothing.
    #expect(try document.edit("body", range: 21..<21, with: "x").events.isEmpty)
    // At its start: outside, it only moves.
    #expect(
      try document.edit("body", range: 9..<9, with: ">").events == [
        .reflowed(context: context, storageRange: 10..<22)
      ])
    // Inside: the range relative to the text before the edit.
    let inside = try document.edit("body", range: 10..<15, with: "Four")
    #expect(
      inside.events == [
        .textUpdated(context: context, range: 0..<5, text: "Four", contextVersion: 1)
      ])
    #expect(String(try document.liveContext(context).text) == "Four fuor.\n")
    // Straddling its end: the part inside goes, the new text is outside.
    let straddle = try document.edit("body", range: 19..<22, with: "??")
    #expect(
      straddle.events == [
        .textUpdated(context: context, range: 9..<11, text: "", contextVersion: 2)
      ])
    #expect(String(try document.liveContext(context).text) == "Four fuor")
    // The events an edit handed out stay as they were (the engine reuses
    // their buffer only once its reader let them go).
    #expect(
      inside.events == [
        .textUpdated(context: context, range: 0..<5, text: "Four", contextVersion: 1)
      ])
    // Another storage: nothing.
    #expect(try document.edit("title", range: 0..<0, with: "A ").events.isEmpty)
  }

  @Test func replacementsAgainstAnOlderBasis() throws {
    let (document, context) = try started()
    // The person types in the context: context version 1.
    try document.edit("body", range: 9..<9, with: "")  // no-op, at the start
    let typed = try document.edit("body", range: 10..<10, with: "h")  // "Thhree"
    #expect(typed.events.count == 1)
    // The tool still works on version 0: "fuor" is 6..<10 there.
    let fixed = try document.replace(context: context, range: 6..<10, with: "four", basis: 0)
    #expect(fixed.storageRange == 16..<20)
    #expect(try text(document, "body") == "One two.\nThhree four.\nFive.\n")
    // Its own replacement is seen: against basis 0 "." is at 10..<11 still.
    _ = try document.replace(context: context, range: 10..<11, with: "!", basis: 0)
    #expect(try text(document, "body") == "One two.\nThhree four!\nFive.\n")
  }

  @Test func conflictsAreRefusedUnlessMerged() throws {
    let (document, context) = try started()
    try document.edit("body", range: 16..<17, with: "U")  // "fUor": inside the range
    #expect(throws: DocumentError.conflict(context: context)) {
      try document.replace(context: context, range: 6..<10, with: "four", basis: 0)
    }
    #expect(try text(document, "body") == "One two.\nThree fUor.\nFive.\n")
    // Typing right at either end does not touch.
    let (other, context2) = try started()
    try other.edit("body", range: 19..<19, with: "s")
    try other.edit("body", range: 15..<15, with: "(")
    let result = try other.replace(context: context2, range: 6..<10, with: "four", basis: 0)
    #expect(result.storageRange == 16..<20)
    #expect(try text(other, "body") == "One two.\nThree (fours.\nFive.\n")
    // Merge applies it anyway, keeping what the person inserted inside.
    let (merged, context3) = try started()
    try merged.edit("body", range: 17..<17, with: "X")  // "fuXor"
    let applied = try merged.replace(
      context: context3, range: 6..<10, with: "four", basis: 0, policy: .merge)
    #expect(applied.storageRange == 15..<19)
    #expect(try text(merged, "body") == "One two.\nThree fourX.\nFive.\n")
  }

  @Test func badReplacementsChangeNothing() throws {
    let (document, context) = try started()
    let before = try text(document, "body")
    #expect(throws: DocumentError.outsideContext(10..<13, length: 12)) {
      try document.replace(context: context, range: 10..<13, with: "x")
    }
    #expect(throws: DocumentError.staleContextVersion(3)) {
      try document.replace(context: context, range: 0..<1, with: "x", basis: 3)
    }
    let unknown = UUID()
    #expect(throws: DocumentError.unknownContext(unknown)) {
      try document.replace(context: unknown, range: 0..<1, with: "x")
    }
    try document.setExcluded(true, in: "body", range: 9..<14)
    #expect(throws: DocumentError.excluded(12..<13)) {
      try document.replace(context: context, range: 3..<4, with: "x")
    }
    #expect(throws: DocumentError.excluded(11..<11)) {
      try document.replace(context: context, range: 2..<2, with: "x")
    }
    // At the excluded run's edge: allowed.
    _ = try document.replace(context: context, range: 5..<5, with: "")
    document.endSession()
    #expect(throws: DocumentError.noSession) {
      try document.replace(context: context, range: 0..<1, with: "x")
    }
    #expect(try text(document, "body") == before)
  }

  @Test func surrogatePairsAreNotSplit() throws {
    let document = Document()
    try document.add("body", text: "a😀b\n")
    try document.select([SelectionRange("body", 0..<1)])
    let context = try document.startSession(scope: .userSelection).contexts[0].id
    #expect(throws: DocumentError.invalidRange("body", .splitsSurrogatePair(utf16Offset: 2))) {
      try document.replace(context: context, range: 2..<3, with: "x")
    }
    _ = try document.replace(context: context, range: 1..<3, with: "🎉")
    #expect(String(try document.content.storage("body").text) == "a🎉b\n")
  }

  @Test func originEditsAreTransformed() throws {
    let document = Document(keepsAllChanges: true)
    try document.add("doc", text: "abc")
    // Two peers typed at the same place on version 0.
    try document.edit("doc", range: 1..<1, with: "X", origin: "b", basis: 0)
    try document.edit("doc", range: 1..<1, with: "Y", origin: "a", basis: 0)
    // The person typed there too, on version 0: it goes first.
    try document.edit("doc", range: 1..<1, with: "P", basis: 0)
    #expect(String(try document.content.storage("doc").text) == "aPYXbc")
    // Peer b, still on version 0 plus its own "X", deletes "bc".
    let result = try document.edit("doc", range: 2..<4, with: "", origin: "b", basis: 0)
    #expect(String(try document.content.storage("doc").text) == "aPYX")
    #expect(result.range == 4..<4)
    #expect(throws: DocumentError.staleVersion(9)) {
      try document.edit("doc", range: 0..<0, with: "z", origin: "a", basis: 9)
    }
  }

  @Test func mappingAndTouchedThroughTheHistory() throws {
    let document = Document(keepsAllChanges: true)
    try document.add("doc", text: "0123456789")
    try document.edit("doc", range: 2..<4, with: "")
    try document.edit("doc", range: 0..<0, with: "ab")
    #expect(try document.map(5, in: "doc", from: 0) == MappedOffset(offset: 5, deleted: false))
    #expect(
      try document.map(3, in: "doc", from: 0, bias: .left) == MappedOffset(offset: 4, deleted: true)
    )
    #expect(try document.map(0, in: "doc", from: 1, bias: .right).offset == 2)
    #expect(try document.map(0, in: "doc", from: 1, bias: .left).offset == 0)
    #expect(try document.isTouched(1..<5, in: "doc", since: 0))
    #expect(try !document.isTouched(5..<9, in: "doc", since: 0))
    #expect(throws: DocumentError.staleVersion(4)) { try document.map(0, in: "doc", from: 4) }
    #expect(
      throws: DocumentError.invalidRange(
        "doc", .offsetOutOfBounds(offset: 11, unit: .utf16, count: 10))
    ) {
      try document.map(11, in: "doc", from: 0)
    }
  }

  @Test func historyIsDroppedWhenNothingPinsIt() throws {
    let document = Document()
    try document.add("doc", text: "abc")
    try document.edit("doc", range: 0..<0, with: "x")
    #expect(throws: DocumentError.staleVersion(0)) { try document.map(0, in: "doc", from: 0) }
    try document.pin("doc", version: 1)
    try document.edit("doc", range: 0..<0, with: "y")
    #expect(try document.map(0, in: "doc", from: 1).offset == 1)
    document.unpin("doc", version: 1)
    try document.edit("doc", range: 0..<0, with: "z")
    #expect(throws: DocumentError.staleVersion(1)) { try document.map(0, in: "doc", from: 1) }
    #expect(try document.content.storage("doc").changes.records.isEmpty)
  }

  @Test func stateTransitions() throws {
    let (document, _) = try started()
    #expect(document.writingToolsState == .inactive)
    #expect(
      throws: DocumentError.invalidStateTransition(from: .inactive, to: .interactiveStreaming)
    ) {
      try document.setWritingToolsState(.interactiveStreaming)
    }
    try document.setWritingToolsState(.interactiveResting)
    try document.setWritingToolsState(.interactiveStreaming)
    try document.setWritingToolsState(.interactiveResting)
    #expect(
      throws: DocumentError.invalidStateTransition(from: .interactiveResting, to: .noninteractive)
    ) {
      try document.setWritingToolsState(.noninteractive)
    }
    try document.setWritingToolsState(.inactive)
    try document.setWritingToolsState(.noninteractive)
    #expect(
      throws: DocumentError.invalidStateTransition(from: .noninteractive, to: .interactiveResting)
    ) {
      try document.setWritingToolsState(.interactiveResting)
    }
    document.endSession()
    #expect(throws: DocumentError.noSession) { try document.setWritingToolsState(.inactive) }
  }

  @Test func oneStreamingPhaseIsOneUndoGroup() throws {
    let (document, context) = try started()
    try document.setWritingToolsState(.interactiveResting)
    try document.setWritingToolsState(.interactiveStreaming)
    _ = try document.replace(context: context, range: 0..<5, with: "Six")  // "Six fuor.\n"
    _ = try document.replace(context: context, range: 4..<8, with: "four")  // "Six four.\n"
    try document.setWritingToolsState(.interactiveResting)
    _ = try document.replace(context: context, range: 8..<9, with: "!")  // its own group
    #expect(try text(document, "body") == "One two.\nSix four!\nFive.\n")
    let first = try document.undo().events
    #expect(try text(document, "body") == "One two.\nSix four.\nFive.\n")
    #expect(
      first == [
        .textUpdated(
          context: context, range: 8..<9, text: ".", contextVersion: 4, reason: .undoRedo)
      ])
    _ = try document.undo()
    #expect(try text(document, "body") == "One two.\nThree fuor.\nFive.\n")
    _ = try document.redo()
    #expect(try text(document, "body") == "One two.\nSix four.\nFive.\n")
    #expect(try document.undo().events.count == 2)
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
  }

  @Test func revertKeepsThePersonsEdits() throws {
    let (document, context) = try started()
    _ = try document.replace(context: context, range: 0..<5, with: "Six")  // "Six fuor.\n"
    _ = try document.replace(context: context, range: 4..<8, with: "four")  // "Six four.\n"
    // The person types around the first replacement and inside the second.
    try document.edit("body", range: 9..<9, with: "[")  // "[Six four.\n"
    try document.edit("body", range: 13..<13, with: "]")  // "[Six] four.\n"
    try document.edit("body", range: 17..<17, with: "-")  // "[Six] fo-ur.\n"
    #expect(try text(document, "body") == "One two.\n[Six] fo-ur.\nFive.\n")
    let reverted = try document.revert()
    #expect(reverted.replacementCount == 1)
    #expect(reverted.events.count == 1)
    #expect(try text(document, "body") == "One two.\n[Three] fo-ur.\nFive.\n")
  }

  @Test func toolSelectionAndMarksFollowEdits() throws {
    let (document, context) = try started()
    let selection = try document.toolSelect(context: context, ranges: [0..<5])
    #expect(selection == [SelectionRange("body", 9..<14)])
    let marks = try document.mark(context: context, ranges: [6..<10], as: .underline("spelling"))
    #expect(marks.map(\.range) == [15..<19])
    try document.edit("body", range: 0..<0, with: "++")
    #expect(document.marks.map(\.range) == [17..<21])
    #expect(document.selection == [SelectionRange("body", 11..<16)])
    #expect(throws: DocumentError.outsideContext(0..<13, length: 12)) {
      try document.toolSelect(context: context, ranges: [0..<13])
    }
  }

  /// A caller's `unpin` drops only its own pins: the history a session keeps
  /// for its contexts stays, and a replacement on the context's first
  /// version still lands.
  @Test func aCallerCannotUnpinTheSessionsHistory() throws {
    let document = Document()
    try document.add("body", text: "One two.\nThree fuor.\nFive.\n")
    try document.select([SelectionRange("body", 15..<19)])
    let context = try document.startSession(scope: .userSelection).contexts[0].id
    try document.edit("body", range: 0..<0, with: "Zero. ")
    try document.edit("body", range: 17..<17, with: "!")  // inside the context
    document.unpin("body", version: 0)
    document.unpin("body", version: 0)
    #expect(try document.content.storage("body").changes.oldestVersion == 0)
    let replaced = try document.replace(context: context, range: 6..<10, with: "four", basis: 0)
    #expect(replaced.storageRange == 22..<26)
    // The caller's own pin goes with its unpin.
    try document.pin("body", version: 3)
    document.unpin("body", version: 3)
    #expect(try document.content.storage("body").changes.pins[3] == nil)
  }

  /// An undo while a streaming phase has streamed nothing keeps the phase
  /// one group (found by FuzzDocument).
  @Test func anUndoBeforeAnythingStreamedKeepsThePhaseOneGroup() throws {
    let document = Document()
    try document.add("title", text: "Draft\r\n")
    let session = try document.startSession(scope: .fullDocument)
    let context = session.contexts[0].id
    try document.setWritingToolsState(.interactiveResting)
    try document.setWritingToolsState(.interactiveStreaming)
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
    _ = try document.replace(context: context, range: 3..<6, with: "")
    _ = try document.replace(context: context, range: 3..<4, with: "")
    #expect(try text(document, "title") == "Dra")
    _ = try document.undo()
    #expect(try text(document, "title") == "Draft\r\n")
  }
}
