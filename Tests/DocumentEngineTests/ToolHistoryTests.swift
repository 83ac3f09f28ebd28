import Foundation
import Testing
import TextRope

@testable import DocumentEngine

/// A Writing Tools session's groups in the document's one history: they
/// stay after the session ends, in order with the person's groups, and are
/// undone and redone by the history's selective rule; while the session
/// lives, an intact replacement swaps its text as one edit of the session.
@Suite struct ToolHistoryTests {
  func document(_ text: String) throws -> Document {
    let document = Document()
    try document.add("b", text: Rope(text))
    return document
  }

  func text(_ document: Document, _ id: StorageID = "b") throws -> String {
    String(try document.content.storage(id).text)
  }

  /// Replaces `range` of the whole document's context in a new session
  /// (which ends the last one, as the host asking for contexts again does).
  /// Starts a `fullDocument` session and a streaming phase in it: its
  /// context's id.
  func streaming(_ document: Document) throws -> UUID {
    let session = try document.startSession(scope: .fullDocument)
    try document.setWritingToolsState(.interactiveResting)
    try document.setWritingToolsState(.interactiveStreaming)
    return session.contexts[0].id
  }

  func rewrite(_ document: Document, _ range: Range<Int>, _ text: String) throws {
    let session = try document.startSession(scope: .fullDocument)
    _ = try document.replace(context: session.contexts[0].id, range: range, with: text)
  }

  /// The transcript: two Writing Tools operations, each in its own
  /// session, then the person types and a peer edits; undo takes back the
  /// person's typing, then each rewrite, the last first, then the "!"
  /// typed before them; the peer's edit stays throughout.
  @Test func bothRewritesAreUndoneAfterTheirSessionsEnded() throws {
    let document = try document("One teh two.\nThree fuor.\n")
    try document.edit("b", range: 12..<12, with: "!")
    document.closeGroup()
    try rewrite(document, 4..<7, "the")  // a proofreading pass
    try rewrite(document, 20..<24, "four")  // a second operation
    document.endSession()
    try document.edit("b", range: 25..<25, with: " Five.")
    try document.edit("b", range: 14..<19, with: "THREE", origin: "peer")
    #expect(try text(document) == "One the two.!\nTHREE four. Five.\n")
    try document.undo()
    #expect(try text(document) == "One the two.!\nTHREE four.\n")
    try document.undo()
    #expect(try text(document) == "One the two.!\nTHREE fuor.\n")
    try document.undo()
    #expect(try text(document) == "One teh two.!\nTHREE fuor.\n")
    try document.undo()
    #expect(try text(document) == "One teh two.\nTHREE fuor.\n")
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
    // And redo brings them back, in order.
    try document.redo()
    try document.redo()
    #expect(try text(document) == "One the two.!\nTHREE fuor.\n")
    try document.redo()
    #expect(try text(document) == "One the two.!\nTHREE four.\n")
  }

  /// After the session, a rewrite someone typed inside is undone
  /// selectively: the tool's units go, the text it replaced comes back,
  /// and what the peer typed stays.
  @Test func anEditedRewriteIsUndoneSelectively() throws {
    let document = try document("Three fuor.\n")
    try rewrite(document, 6..<10, "four")
    document.endSession()
    try document.edit("b", range: 8..<8, with: "-", origin: "peer")  // "fo-ur"
    try document.undo()
    #expect(try text(document) == "Three fuor-.\n")
    try document.redo()
    #expect(try text(document) == "Three fo-ur.\n")
  }

  /// While the session lives, an intact replacement's undo is one edit of
  /// the session (its context hears it), and undo, redo and revert agree.
  @Test func aLiveSessionsUndoRedoAndRevert() throws {
    let document = try document("One teh two.\n")
    let session = try document.startSession(scope: .fullDocument)
    let context = session.contexts[0].id
    _ = try document.replace(context: context, range: 4..<7, with: "the")
    _ = try document.replace(context: context, range: 8..<11, with: "2")
    #expect(try text(document) == "One the 2.\n")
    let undone = try document.undo()
    #expect(undone.replacementCount == 1)
    #expect(try text(document) == "One the two.\n")
    #expect(try document.liveContext(context).text.description == "One the two.\n")
    try document.redo()
    #expect(try text(document) == "One the 2.\n")
    let reverted = try document.revert()
    #expect(reverted.replacementCount == 2)
    #expect(try text(document) == "One teh two.\n")
    // Nothing of the reverted groups is left to undo twice: their undo
    // does nothing.
    #expect(try document.undo().replacementCount == 0)
    #expect(try text(document) == "One teh two.\n")
    document.endSession()
    #expect(try text(document) == "One teh two.\n")
  }

  /// A streaming phase is one group, and stays after the session.
  @Test func aStreamingPhaseIsOneGroupThatStays() throws {
    let document = try document("a b c\n")
    let context = try streaming(document)
    _ = try document.replace(context: context, range: 0..<1, with: "A")
    _ = try document.replace(context: context, range: 2..<3, with: "B")
    _ = try document.replace(context: context, range: 4..<5, with: "C")
    try document.setWritingToolsState(.interactiveResting)
    document.endSession()
    #expect(try text(document) == "A B C\n")
    try document.undo()
    #expect(try text(document) == "a b c\n")
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
  }

  /// A session ending mid-stream closes its phase's group first.
  @Test func aSessionEndingMidStreamKeepsItsGroup() throws {
    let document = try document("a b\n")
    let context = try streaming(document)
    _ = try document.replace(context: context, range: 0..<1, with: "A")
    document.endSession()
    try document.undo()
    #expect(try text(document) == "a b\n")
  }

  /// With the history not recording, a session's groups go when it ends,
  /// as before.
  @Test func withoutRecordingTheGroupsGoWithTheSession() throws {
    let document = try document("One teh two.\n")
    var options = document.historyOptions
    options.isEnabled = false
    document.historyOptions = options
    try rewrite(document, 4..<7, "the")
    try document.undo()
    #expect(try text(document) == "One teh two.\n")
    try document.redo()
    document.endSession()
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
    #expect(try text(document) == "One the two.\n")
  }

  /// Turning the recording off (or on) in a streaming phase closes the
  /// phase's group first: what streamed in before is the history's action,
  /// what streams in after is the session's group, and undo takes back
  /// both (FuzzDocument: the replacements after the switch were in
  /// neither).
  @Test(arguments: [true, false])
  func switchingTheRecordingClosesTheStreamingPhase(startsOn: Bool) throws {
    let document = try document("a b c\n")
    var options = document.historyOptions
    options.isEnabled = startsOn
    document.historyOptions = options
    let context = try streaming(document)
    _ = try document.replace(context: context, range: 0..<1, with: "A")
    options.isEnabled = !startsOn
    document.historyOptions = options
    _ = try document.replace(context: context, range: 2..<3, with: "B")
    try document.setWritingToolsState(.interactiveResting)
    #expect(try text(document) == "A B c\n")
    try document.undo()
    #expect(try text(document) == "A b c\n")
    try document.undo()
    #expect(try text(document) == "a b c\n")
  }

  /// A streaming phase whose replacements take back their own text whole
  /// has nothing to undo: it is no group, and undo takes back the group
  /// before it (FuzzDocument: it was a group whose undo did nothing, one
  /// step the person had to take for no change).
  @Test func aPhaseThatTookBackItsOwnTextIsNoGroup() throws {
    let document = try document("a b\n")
    try document.edit("b", range: 3..<3, with: "!")
    let context = try streaming(document)
    _ = try document.replace(context: context, range: 1..<1, with: "X")
    _ = try document.replace(context: context, range: 1..<2, with: "YY")
    _ = try document.replace(context: context, range: 1..<3, with: "")
    try document.setWritingToolsState(.interactiveResting)
    #expect(try text(document) == "a b!\n")
    try document.undo()
    #expect(try text(document) == "a b\n")
  }

  /// The history's limit counts the tools' groups: the oldest goes.
  @Test func theLimitDropsTheOldestToolGroup() throws {
    let document = try document("a b c\n")
    var options = document.historyOptions
    options.maxGroups = 2
    document.historyOptions = options
    try rewrite(document, 0..<1, "A")
    try rewrite(document, 2..<3, "B")
    try rewrite(document, 4..<5, "C")
    document.endSession()
    try document.undo()
    try document.undo()
    #expect(try text(document) == "A b c\n")
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
  }
}

extension ToolHistoryTests {
  /// Someone types right before a live replacement: its undo follows the
  /// history's rule (the text it replaced comes back where it was, before
  /// what they typed), not the swap (which would put it after).
  @Test func typingRightBeforeALiveReplacementKeepsTheRulesOrder() throws {
    let document = try document("One teh two.\n")
    let session = try document.startSession(scope: .fullDocument)
    _ = try document.replace(context: session.contexts[0].id, range: 4..<7, with: "the")
    try document.edit("b", range: 4..<4, with: "X", origin: "peer")
    #expect(try text(document) == "One Xthe two.\n")
    try document.undo()
    #expect(try text(document) == "One tehX two.\n")
    try document.redo()
    #expect(try text(document) == "One Xthe two.\n")
  }
}

extension ToolHistoryTests {
  /// Revert after an undo of the live session's group leaves the undone
  /// replacement as it is (FuzzDocument's finding: it was swapped forth
  /// through the undo's link).
  @Test func revertAfterUndoLeavesTheUndoneReplacement() throws {
    let document = try document("b")
    let session = try document.startSession(scope: .fullDocument)
    _ = try document.replace(context: session.contexts[0].id, range: 0..<1, with: "")
    try document.undo()
    #expect(try text(document) == "b")
    #expect(try document.revert().replacementCount == 0)
    #expect(try text(document) == "b")
  }

  /// A peer types at a live replacement's place: its undo puts the text
  /// back where the history's rule says, live as after the session
  /// (FuzzDocument's finding: the swap put it after the peer's text).
  @Test func aLiveUndoAfterAPeerTypedAtTheReplacementFollowsTheRule() throws {
    for ends in [false, true] {
      let document = try document("ab")
      let session = try document.startSession(scope: .fullDocument)
      _ = try document.replace(context: session.contexts[0].id, range: 0..<1, with: "")
      try document.edit("b", range: 0..<0, with: "X", origin: "peer")
      if ends { document.endSession() }
      try document.undo()
      #expect(try text(document) == "aXb", "ends: \(ends)")
    }
  }
}

extension ToolHistoryTests {
  /// A streaming phase whose later replacement changed text an earlier one
  /// put in, with the person's edit between them, is undone whole by the
  /// history's rule: nothing doubled (FuzzDocument's finding: the later one
  /// swapped its text back, the earlier one could not, and "D" came back
  /// twice).
  @Test func aPhaseThatChangedItsOwnTextAfterAnEditIsUndoneWhole() throws {
    let document = try document("Draft\r\n")
    let context = try streaming(document)
    _ = try document.replace(context: context, range: 0..<2, with: "DR")
    try document.edit("b", range: 4..<6, with: "")
    _ = try document.replace(context: context, range: 0..<1, with: "")
    #expect(try text(document) == "Raf\n")
    try document.undo()
    #expect(try text(document) == "Draf\n")
  }
}

extension ToolHistoryTests {
  /// A live group taken back by the history's rule (someone edited since)
  /// leaves its replacements to the history: revert does not put their
  /// text back a second time (FuzzDocument's finding: "a" came back twice).
  @Test func revertAfterAnUndoByTheRuleDoesNotDouble() throws {
    let document = try document("xay\nz\n")
    let session = try document.startSession(scope: .fullDocument)
    _ = try document.replace(context: session.contexts[0].id, range: 1..<2, with: "")
    try document.edit("b", range: 4..<4, with: "!")  // "xy\nz!\n"
    document.closeGroup()
    try document.undo()  // the person's "!"
    try document.undo()  // the tool's deletion, by the rule
    #expect(try text(document) == "xay\nz\n")
    _ = try document.revert()
    #expect(try text(document) == "xay\nz\n")
  }
}

extension ToolHistoryTests {
  /// The rule takes back the later of two live deletions (someone edited
  /// since): revert leaves it alone and swaps back the earlier one, which
  /// is intact, once; the earlier group's undo then puts nothing back again
  /// (FuzzDocument's finding: the model took that swap for the later
  /// deletion's and reported its text twice; the engine was right).
  @Test func revertAfterTheRuleTookBackALaterDeletionSwapsTheEarlierOne() throws {
    let document = try document("\"/(ouba")
    let session = try document.startSession(scope: .fullDocument)
    _ = try document.replace(context: session.contexts[0].id, range: 1..<5, with: "")
    _ = try document.replace(context: session.contexts[0].id, range: 2..<3, with: "")
    #expect(try text(document) == "\"b")
    try document.edit("b", range: 0..<1, with: "")
    document.closeGroup()
    try document.undo()  // the person's deletion
    try document.undo()  // the tool's "a", by the rule
    #expect(try text(document) == "\"ba")
    #expect(try document.revert().replacementCount == 1)
    #expect(try text(document) == "\"/(ouba")
    #expect(try document.undo().replacementCount == 0)
    #expect(try text(document) == "\"/(ouba")
  }
}

extension ToolHistoryTests {
  /// A revert made while the history does not record lets the recorded
  /// group go of its replacement: the group's undo then does not swap it
  /// forth again (FuzzDocument's finding: undo gave the tool's "X" back).
  @Test func revertWithTheRecordingOffLetsTheGroupGo() throws {
    let document = try document("d")
    let session = try document.startSession(scope: .fullDocument)
    _ = try document.replace(context: session.contexts[0].id, range: 0..<1, with: "X")
    var options = document.historyOptions
    options.isEnabled = false
    document.historyOptions = options
    _ = try document.revert()
    #expect(try text(document) == "d")
    _ = try? document.undo()
    #expect(try text(document) == "d")
  }

  /// The same after the person's deletion, whose hunk the tool's
  /// replacement waits beside (in the journal, its link without a piece
  /// yet): revert lets the piece go, and the undo does not put the
  /// replaced text back a second time (found by FuzzDocument).
  @Test func revertWithTheRecordingOffLetsAJournaledReplacementGo() throws {
    let document = try document("ab\u{301}\u{302}cd")
    let session = try document.startSession(scope: .fullDocument)
    try document.edit("b", range: 0..<2, with: "")
    _ = try document.replace(context: session.contexts[0].id, range: 2..<3, with: "🏽")
    #expect(try text(document) == "\u{301}\u{302}🏽d")
    var options = document.historyOptions
    options.isEnabled = false
    document.historyOptions = options
    _ = try document.revert()
    #expect(try text(document) == "\u{301}\u{302}cd")
    _ = try? document.undo()
    #expect(try text(document) == "\u{301}\u{302}cd")
  }
}

extension ToolHistoryTests {
  /// The rule takes back a replacement over an earlier one's text (a peer
  /// edited another storage since): the earlier text is back whole, and
  /// revert still puts the original back under it (FuzzDocument's finding:
  /// the earlier replacement waited on the later one's swap, which never
  /// came, and revert left the tool's "4" in a storage only it edited).
  @Test func revertAfterTheRuleTookBackAReplacementOverAnEarlierOne() throws {
    let document = try document("x\n")
    try document.add("c", text: Rope("abcd"))
    let session = try document.startSession(scope: .fullDocument)
    _ = try document.replace(context: session.contexts[0].id, range: 1..<2, with: "")
    _ = try document.replace(context: session.contexts[1].id, range: 0..<0, with: "4")
    _ = try document.replace(context: session.contexts[1].id, range: 0..<3, with: "XY")
    #expect(try text(document, "c") == "XYcd")
    try document.edit("b", range: 0..<1, with: "", origin: "a")
    try document.undo()  // the tool's "XY", by the rule
    #expect(try text(document, "c") == "4abcd")
    _ = try document.revert()
    #expect(try text(document, "c") == "abcd")
  }
}
