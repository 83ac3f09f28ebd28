import Foundation
import Testing
import TextRope

@testable import DocumentEngine

/// The host's tracked ranges through the document's API: the rules of the
/// contract on real text, results that name what an edit touched, queries,
/// snapshots, and bad input.
@Suite struct TrackedRangeTests {
  /// "Teh 👨‍👩‍👧 cat 🇫🇷 sat." — a misspelling, a ZWJ family (8 units), a flag
  /// (4 units).
  static let text = "Teh 👨‍👩‍👧 cat 🇫🇷 sat."

  func document() throws -> Document {
    let document = Document()
    try document.add("body", text: Rope(Self.text))
    return document
  }

  @Test func aSpellingUnderlineGoesWhenItsWordChanges() throws {
    let document = try document()
    let teh = try document.track(
      [0..<3], in: "body", kind: "spelling", rules: TrackingRules(onTouch: .remove))[0]
    // Typing right after the word does not touch it.
    let after = try document.edit("body", range: 3..<3, with: "!")
    #expect(after.tracked.isEmpty)
    #expect(try document.trackedRange(teh).range == 0..<3)
    // Fixing a letter inside it removes it, and the result says so.
    let fix = try document.edit("body", range: 1..<3, with: "he")
    #expect(fix.tracked == TrackedChanges(removed: [teh]))
    #expect(throws: DocumentError.unknownTrackedRange(teh)) { try document.trackedRange(teh) }
    #expect(try document.trackedRanges(in: "body").isEmpty)
  }

  @Test func aCommentThatExpandsAfterTakesTextTypedAtItsEnd() throws {
    let document = try document()
    let utf16 = Array(Self.text.utf16)
    #expect(String(decoding: utf16[13..<16], as: UTF16.self) == "cat")
    let comment = try document.track(
      [13..<16], in: "body", kind: "comment", rules: TrackingRules(expand: .after))[0]
    let plain = try document.track([13..<16], in: "body", kind: "comment")[0]
    // At its end: the comment takes it, the plain range does not.
    try document.edit("body", range: 16..<16, with: "s")
    #expect(try document.trackedRange(comment).range == 13..<17)
    #expect(try document.trackedRange(plain).range == 13..<16)
    // At its start: neither takes it (the start does not expand).
    try document.edit("body", range: 13..<13, with: "a ")
    #expect(try document.trackedRange(comment).range == 15..<19)
    #expect(try document.trackedRange(plain).range == 15..<18)
    // Typing inside touches both, and both stay (their rule is keep).
    let inside = try document.edit("body", range: 16..<16, with: "h")
    #expect(inside.tracked == TrackedChanges(touched: [comment, plain].sorted()))
    #expect(try document.trackedRange(comment).range == 15..<20)
  }

  @Test func bookmarksKeepTheirBias() throws {
    let document = try document()
    // After the family emoji (4 + 8 = 12).
    let ids = try document.track([12..<12], in: "body", rules: TrackingRules(bias: .left))
    let right = try document.track([12..<12], in: "body", rules: TrackingRules(bias: .right))
    try document.edit("body", range: 12..<12, with: "🇫🇷")
    #expect(try document.trackedRange(ids[0]).range == 12..<12)
    #expect(try document.trackedRange(right[0]).range == 16..<16)
    // A deletion across a bookmark touches it and collapses it.
    let cut = try document.edit("body", range: 10..<14, with: "")
    #expect(cut.tracked.touched == [ids[0]])
    #expect(try document.trackedRange(ids[0]).range == 10..<10)
  }

  @Test func aRangeWhoseTextIsReplacedWholeIsEmptyWhereTheTextWas() throws {
    let document = try document()
    let id = try document.track([4..<12], in: "body")[0]
    try document.edit("body", range: 2..<14, with: "xyz")
    // Its start would go after the new text, its end before: empty at the
    // end's place.
    #expect(try document.trackedRange(id).range == 2..<2)
  }

  @Test func queriesAreInPositionOrderAndFilterByKind() throws {
    let document = try document()
    let a = try document.track([17..<21], in: "body", kind: "flag")[0]
    let b = try document.track([0..<3, 4..<12], in: "body", kind: "word")
    let c = try document.track([4..<12], in: "body", kind: "emoji")[0]
    let all = try document.trackedRanges(in: "body")
    #expect(all.map(\.id) == [b[0], b[1], c, a])
    #expect(all.map(\.kind) == ["word", "word", "emoji", "flag"])
    #expect(try document.trackedRanges(in: "body", overlapping: 10..<19).map(\.id) == [b[1], c, a])
    #expect(try document.trackedRanges(in: "body", overlapping: 12..<12).map(\.id) == [b[1], c])
    #expect(try document.trackedRanges(in: "body", kind: "word").map(\.id) == b)
    #expect(try document.trackedRanges(in: "body", kind: "none").isEmpty)
  }

  /// An observer hears which of the host's ranges an edit touched or
  /// removed, after the contexts' events; the result's events do not hold
  /// it (its `tracked` does).
  @Test func observersHearTheRangesAnEditTouched() async throws {
    let document = try document()
    let word = try document.track([13..<16], in: "body", kind: "word")[0]
    let underline = try document.track(
      [0..<3], in: "body", kind: "spelling", rules: TrackingRules(onTouch: .remove))[0]
    let events = document.events()
    let first = try document.edit("body", range: 14..<14, with: "h")
    #expect(first.events.isEmpty && first.tracked == TrackedChanges(touched: [word]))
    try document.edit("body", range: 3..<3, with: "!")  // touches nothing: no event
    try document.edit("body", range: 0..<3, with: "The")
    var heard: [DocumentEvent] = []
    for await event in events {
      heard.append(event)
      if heard.count == 2 { break }
    }
    #expect(
      heard == [
        .tracked(TrackedChanges(touched: [word])), .tracked(TrackedChanges(removed: [underline])),
      ])
    #expect(heard.allSatisfy { $0.context == nil })
  }

  @Test func allOfThemIncludesAnEmptyRangeAtTheEnd() throws {
    let document = try document()
    let length = Self.text.utf16.count
    let end = try document.track([length..<length], in: "body")[0]
    let start = try document.track([0..<0], in: "body")[0]
    #expect(try document.trackedRanges(in: "body").map(\.id) == [start, end])
    #expect(try document.trackedRanges(in: "body", overlapping: length..<length).map(\.id) == [end])
  }

  @Test func aSnapshotKeepsTheRangesAsTheyWere() throws {
    let document = try document()
    let id = try document.track([17..<21], in: "body")[0]
    let before = document.content
    try document.edit("body", range: 0..<0, with: "Oh, ")
    #expect(try before.trackedRange(id).range == 17..<21)
    #expect(try document.content.trackedRange(id).range == 21..<25)
  }

  @Test func everyPartyMovesThem() throws {
    let document = Document()
    try document.add("body", text: "One two.\nThree fuor.\nFive.\n")
    let fuor = try document.track(
      [15..<19], in: "body", kind: "spelling", rules: TrackingRules(onTouch: .remove))[0]
    let five = try document.track([21..<25], in: "body")[0]
    // A peer's edit on an older version.
    try document.edit("body", range: 0..<0, with: "Zero. ", origin: "peer", basis: 0)
    #expect(try document.trackedRange(fuor).range == 21..<25)
    // A tool's replacement of the misspelling removes it.
    try document.select([SelectionRange("body", 21..<25)])
    let context = try document.startSession(scope: .userSelection).contexts[0]
    let result = try document.replace(context: context.id, range: 6..<10, with: "four")
    #expect(result.tracked == TrackedChanges(removed: [fuor]))
    #expect(try document.trackedRange(five).range == 27..<31)
    // Undo is an edit like any other, and brings the misspelling's range
    // back with its text, under its id.
    let undo = try document.undo()
    #expect(undo.tracked.isEmpty)
    #expect(undo.restored == [fuor])
    #expect(try document.trackedRange(fuor).range == 21..<25)
    #expect(try document.trackedRange(five).range == 27..<31)
  }

  @Test func aRemovedStorageTakesItsRangesWithIt() throws {
    let document = try document()
    let id = try document.track([0..<3], in: "body")[0]
    try document.remove("body")
    #expect(throws: DocumentError.unknownTrackedRange(id)) { try document.trackedRange(id) }
    try document.add("body", text: Rope(Self.text))
    let again = try document.track([0..<3], in: "body")[0]
    #expect(again != id)
    #expect(throws: DocumentError.unknownTrackedRange(id)) { try document.untrack([id]) }
  }

  @Test func badRequestsChangeNothing() throws {
    let document = try document()
    let kept = try document.track([0..<3], in: "body")[0]
    let length = Self.text.utf16.count
    // Out of bounds, inside the family's first surrogate pair, a storage
    // that is not there: typed errors, and nothing tracked.
    #expect(throws: DocumentError.self) {
      try document.track([0..<3, 0..<(length + 1)], in: "body")
    }
    #expect(throws: DocumentError.self) { try document.track([-1..<2], in: "body") }
    #expect {
      try document.track([0..<3, 5..<7], in: "body")
    } throws: { error in
      guard case .invalidRange(_, .splitsSurrogatePair) = error as? DocumentError else {
        return false
      }
      return true
    }
    #expect(throws: DocumentError.unknownStorage("nope")) {
      try document.track([0..<0], in: "nope")
    }
    #expect(throws: DocumentError.self) {
      try document.trackedRanges(in: "body", overlapping: 5..<6)
    }
    #expect(try document.trackedRanges(in: "body").map(\.id) == [kept])
    // An unknown id among known ones: none is removed.
    let unknown = TrackedRangeID(rawValue: kept.rawValue + 1)
    #expect(throws: DocumentError.unknownTrackedRange(unknown)) {
      try document.untrack([kept, unknown])
    }
    #expect(try document.trackedRanges(in: "body").map(\.id) == [kept])
    #expect(throws: DocumentError.unknownTrackedRange(TrackedRangeID(rawValue: -5))) {
      try document.trackedRange(TrackedRangeID(rawValue: -5))
    }
    try document.untrack([kept])
    #expect(try document.trackedRanges(in: "body").isEmpty)
  }

  /// Many at once take the rebuilding path; every id still finds its range,
  /// and the ranges move as one through an edit before them.
  @Test func manyRangesAtOnce() throws {
    let document = Document()
    let text = String(repeating: "abcd ", count: 2_000)
    try document.add("body", text: Rope(text))
    let ranges = (0..<2_000).reversed().map { ($0 * 5)..<($0 * 5 + 4) }
    let ids = try document.track(ranges, in: "body", kind: "word")
    try document.edit("body", range: 0..<0, with: "xx")
    for (id, range) in zip(ids, ranges).shuffled().prefix(200) {
      #expect(
        try document.trackedRange(id).range == (range.lowerBound + 2)..<(range.upperBound + 2))
    }
    #expect(try document.trackedRanges(in: "body", overlapping: 102..<112).count == 2)
  }
}
