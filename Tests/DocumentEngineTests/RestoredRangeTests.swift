import Testing
import TextRope

@testable import DocumentEngine

/// Undo puts back the positions too: a host's tracked range that the undone
/// edit collapsed or removed comes back where it was when its text comes
/// back, under the same id and rules, and the undo's result names it.
@Suite struct RestoredRangeTests {
  func document(_ text: String) throws -> Document {
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: nil)
    try document.add("body", text: Rope(text))
    return document
  }

  func text(_ document: Document) throws -> String {
    String(try document.content.storage("body").text)
  }

  /// The case: a comment over "comment", "this comment" deleted,
  /// undone: the comment is back over "comment".
  @Test func aCommentComesBackWithItsText() throws {
    let document = try document("Keep this comment here.\n")
    let comment = try document.track([10..<17], in: "body", kind: "comment")[0]
    try document.edit("body", range: 5..<17, with: "")
    #expect(try document.trackedRange(comment).range == 5..<5)
    let undone = try document.undo()
    #expect(try text(document) == "Keep this comment here.\n")
    #expect(try document.trackedRange(comment).range == 10..<17)
    #expect(undone.restored == [comment])
    // Redo collapses it again; undo brings it back again.
    let redone = try document.redo()
    #expect(try document.trackedRange(comment).range == 5..<5)
    #expect(redone.restored.isEmpty)
    #expect(try document.undo().restored == [comment])
    #expect(try document.trackedRange(comment).range == 10..<17)
  }

  /// A range a tool's replacement removed, brought back by revert, then
  /// untracked by the host: the undo of the tool's group (which revert left
  /// with nothing to do) does not track it again (FuzzDocument finding,
  /// regression `revert-restored-range-untracked`: the group still kept
  /// the range, and its undo restored it a second time).
  @Test func aRangeRevertBroughtBackAndTheHostUntrackedStaysGone() throws {
    let document = try document("Keep this comment here.\n")
    let point = try document.track(
      [12..<12], in: "body", kind: "mark", rules: TrackingRules(onTouch: .remove))[0]
    let session = try document.startSession(scope: .fullDocument)
    let replaced = try document.replace(
      context: session.contexts[0].id, range: 10..<17, with: "note")
    #expect(replaced.tracked.removed == [point])
    let reverted = try document.revert()
    #expect(reverted.restored == [point])
    #expect(try document.trackedRange(point).range == 12..<12)
    try document.untrack([point])
    let undone = try document.undo()
    #expect(undone.restored.isEmpty)
    #expect(throws: DocumentError.self) { try document.trackedRange(point) }
    #expect(try text(document) == "Keep this comment here.\n")
  }

  /// A range that the deletion removed (its rule says so) is tracked again
  /// under its id, with its rules and kind.
  @Test func aRemovedRangeIsTrackedAgain() throws {
    let document = try document("One teh two.\n")
    let typo = try document.track(
      [4..<7], in: "body", kind: "spelling", rules: TrackingRules(onTouch: .remove))[0]
    let deleted = try document.edit("body", range: 3..<8, with: "")
    #expect(deleted.tracked.removed == [typo])
    #expect(throws: DocumentError.unknownTrackedRange(typo)) { try document.trackedRange(typo) }
    let undone = try document.undo()
    #expect(undone.restored == [typo])
    let back = try document.trackedRange(typo)
    #expect(back.range == 4..<7)
    #expect(back.kind == "spelling")
    #expect(back.rules.onTouch == .remove)
  }

  /// Backspacing over a bookmark (an empty range) one keystroke at a time:
  /// one group, and its undo puts the bookmark back.
  @Test func aBookmarkInsideBackspacedTextComesBack() throws {
    let document = try document("abcdef\n")
    let mark = try document.track([3..<3], in: "body", kind: "bookmark")[0]
    for end in stride(from: 5, to: 1, by: -1) {
      try document.edit("body", range: (end - 1)..<end, with: "")
    }
    #expect(try text(document) == "af\n")
    #expect(try document.undo().restored == [mark])
    #expect(try text(document) == "abcdef\n")
    #expect(try document.trackedRange(mark).range == 3..<3)
  }

  /// A peer's deletion, undone in its own history, brings the person's
  /// selection-like range back; a range the host untracked meanwhile stays
  /// untracked.
  @Test func aPeersDeletionAndAnUntrackedRange() throws {
    let document = try document("Hello wide world.\n")
    let word = try document.track([6..<10], in: "body", kind: "peer-selection")[0]
    let gone = try document.track([7..<9], in: "body", kind: "note")[0]
    try document.edit("body", range: 5..<10, with: "", origin: "peer")
    try document.untrack([gone])
    let undone = try document.undo(origin: "peer")
    #expect(try text(document) == "Hello wide world.\n")
    #expect(undone.restored == [word])
    #expect(try document.trackedRange(word).range == 6..<10)
    #expect(throws: DocumentError.unknownTrackedRange(gone)) { try document.trackedRange(gone) }
  }

  /// An end the deletion did not reach stays where the edits took it.
  @Test func onlyTheRemovedEndComesBack() throws {
    let document = try document("0123456789\n")
    let range = try document.track([2..<6], in: "body")[0]
    try document.edit("body", range: 4..<8, with: "")
    #expect(try document.trackedRange(range).range == 2..<4)
    try document.edit("body", range: 0..<0, with: "ab", origin: "peer")
    try document.undo()
    #expect(try text(document) == "ab0123456789\n")
    #expect(try document.trackedRange(range).range == 4..<8)
  }
}
