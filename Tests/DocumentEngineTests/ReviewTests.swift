import Foundation
import Testing
import TextRope

@testable import DocumentEngine

/// Suggestions and review as a host's checker and Writing Tools use them
/// (docs/DESIGN.md, *Suggestions and review*; *Sessions*, Reasons and
/// Observers).
@Suite struct ReviewTests {
  static let text = "Teh cat sat.\nA 👩‍👩‍👧 and 🇫🇷 wrote teh note.\n"

  func document() throws -> Document {
    let document = Document()
    try document.add("body", text: Rope(Self.text))
    return document
  }

  func text(_ document: Document) throws -> String {
    String(try document.content.storage("body").text)
  }

  func runs(_ document: Document) throws -> [AttributeRun] {
    let storage = try document.content.storage("body")
    return storage.attributeRuns(in: 0..<storage.length)
  }

  func utf16(_ s: String, _ word: String, from: Int = 0) -> Range<Int> {
    let units = Array(s.utf16)
    let w = Array(word.utf16)
    for i in from...(units.count - w.count) where Array(units[i..<(i + w.count)]) == w {
      return i..<(i + w.count)
    }
    return 0..<0
  }

  /// A spelling checker's suggestion from underline to accept, and undo.
  @Test func aSpellingSuggestionFromUnderlineToAccept() throws {
    let document = try document()
    let teh = utf16(Self.text, "teh", from: 20)
    let id = try document.suggest(
      [
        ProposedSuggestion(
          teh, kind: .spelling, explanation: "Possible spelling mistake",
          candidates: [SuggestionCandidate("the"), SuggestionCandidate("ten")])
      ], in: "body")[0]
    // What a view underlines.
    let shown = try document.suggestions(in: "body", overlapping: 0..<teh.upperBound)
    #expect(shown.map(\.id) == [id] && shown[0].range == teh && shown[0].kind == .spelling)
    #expect(try document.suggestions(in: "body", overlapping: 0..<5).isEmpty)
    // Typing before it moves it.
    try document.edit("body", range: 0..<0, with: "¡")
    let moved = (teh.lowerBound + 1)..<(teh.upperBound + 1)
    #expect(try document.suggestion(id).range == moved)
    // Preview: the candidate is in the text, the suggestion stays.
    let preview = try document.preview(id, candidate: 1)
    #expect(preview.reason == .temporary && preview.storageRange == moved)
    #expect(try text(document).contains("wrote ten note"))
    #expect(try document.suggestion(id).previewed == 1)
    // Accept the one named: one undo group.
    let accepted = try document.accept(id, candidate: 0)
    #expect(accepted.reason == .accepted)
    #expect(
      try text(document) == "¡" + Self.text.replacingOccurrences(of: "teh note", with: "the note"))
    #expect(throws: DocumentError.unknownSuggestion(id)) { try document.suggestion(id) }
    // Undone by the history's rule: the text it replaced goes back before
    // the candidate, and the candidate's units go (two edits).
    let undone = try document.undo()
    #expect(undone.replacementCount == 2)
    #expect(try text(document) == "¡" + Self.text)
    _ = try document.redo()
    #expect(
      try text(document) == "¡" + Self.text.replacingOccurrences(of: "teh note", with: "the note"))
  }

  @Test func rejectGivesBackTextAndAttributesAndIgnoresTheSame() throws {
    let document = try document()
    let bold: [AttributeKey: AttributeValue] = [
      .inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)
    ]
    try document.setAttributes(bold.mapValues { $0 }, in: "body", range: 0..<3)
    let before = try runs(document)
    let id = try document.suggest(
      [
        ProposedSuggestion(
          0..<3, kind: .spelling,
          candidates: [
            SuggestionCandidate("The 🙂", attributes: [AttributeRun(0..<3, [.link: .link("x")])])
          ])
      ], in: "body")[0]
    let preview = try document.preview(id, candidate: 0)
    #expect(preview.storageRange == 0..<6)
    #expect(try text(document).hasPrefix("The 🙂 cat"))
    let rejected = try document.reject(id)
    #expect(rejected.reason == .rejected && rejected.storageRange == 0..<3)
    #expect(try text(document) == Self.text)
    #expect(try runs(document) == before)
    // Ignored for the document: the same kind over the same text.
    #expect(throws: DocumentError.ignoredSuggestion(kind: .spelling, text: "Teh")) {
      try document.suggest([ProposedSuggestion(0..<3, kind: .spelling)], in: "body")
    }
    // Another kind, or other text, is not.
    try document.suggest([ProposedSuggestion(0..<3, kind: .grammar)], in: "body")
    try document.suggest([ProposedSuggestion(4..<7, kind: .spelling)], in: "body")
  }

  @Test func typingInsideAPreviewKeepsWhatThePersonSees() throws {
    let document = try document()
    let id = try document.suggest(
      [ProposedSuggestion(0..<3, kind: .spelling, candidates: [SuggestionCandidate("The")])],
      in: "body")[0]
    try document.preview(id, candidate: 0)
    // At the preview's end: not inside it.
    let edit = try document.edit("body", range: 3..<3, with: "se")
    #expect(edit.tracked.removed.isEmpty)
    let inside = try document.edit("body", range: 1..<2, with: "H")
    #expect(inside.tracked.removed == [id])
    #expect(try text(document).hasPrefix("THese cat"))
    #expect(throws: DocumentError.unknownSuggestion(id)) { try document.reject(id) }
    // Undo takes back the person's typing, each edit a group of its own
    // (the second is elsewhere); the preview made no entry.
    try document.undo()
    #expect(try text(document).hasPrefix("These cat"))
    try document.undo()
    #expect(try text(document).hasPrefix("The cat"))
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
  }

  @Test func onePreviewAtATime() throws {
    let document = try document()
    let ids = try document.suggest(
      [
        ProposedSuggestion(0..<3, kind: .spelling, candidates: [SuggestionCandidate("The")]),
        ProposedSuggestion(4..<7, kind: .style, candidates: [SuggestionCandidate("dog")]),
      ], in: "body")
    try document.preview(ids[0], candidate: 0)
    let second = try document.preview(ids[1], candidate: 0)
    #expect(second.tracked.isEmpty)
    #expect(try text(document).hasPrefix("Teh dog sat"))
    #expect(try document.suggestion(ids[0]).previewed == nil)
    try document.accept(ids[0])
    #expect(try text(document).hasPrefix("The cat sat"))  // the other preview went back first
    _ = try document.undo()
    #expect(try text(document) == Self.text)
  }

  /// A preview in another storage is taken back, whatever its offsets
  /// (found by FuzzDocument: it was compared as if in the same storage).
  @Test func aPreviewInAnotherStorageIsTakenBack() throws {
    let document = Document()
    try document.add("body", text: "one two")
    try document.add("cell", text: "one two")
    let b = try document.suggest(
      [ProposedSuggestion(0..<3, kind: .spelling, candidates: [SuggestionCandidate("uno")])],
      in: "cell")[0]
    let a = try document.suggest(
      [ProposedSuggestion(1..<2, kind: .spelling, candidates: [SuggestionCandidate("N")])],
      in: "body")[0]
    try document.preview(b, candidate: 0)
    let result = try document.preview(a, candidate: 0)
    #expect(result.tracked.isEmpty)
    #expect(String(try document.content.storage("cell").text) == "one two")
    #expect(String(try document.content.storage("body").text) == "oNe two")
    #expect(try document.suggestion(b).previewed == nil)
  }

  @Test func hostileRequestsChangeNothing() throws {
    let document = try document()
    let id = try document.suggest(
      [ProposedSuggestion(0..<3, kind: .spelling, candidates: [SuggestionCandidate("The")])],
      in: "body")[0]
    let before = try text(document)
    let listed = try document.suggestions(in: "body")
    let unknown = TrackedRangeID(rawValue: 123_456_789_000)
    #expect(throws: DocumentError.unknownSuggestion(unknown)) {
      try document.preview(unknown, candidate: 0)
    }
    #expect(throws: DocumentError.unknownSuggestion(unknown)) { try document.accept(unknown) }
    #expect(throws: DocumentError.unknownSuggestion(unknown)) { try document.reject(unknown) }
    #expect(throws: DocumentError.invalidCandidate(1, count: 1)) {
      try document.preview(id, candidate: 1)
    }
    #expect(throws: DocumentError.invalidCandidate(-1, count: 1)) {
      try document.accept(id, candidate: -1)
    }
    // A candidate whose runs leave its text, or split a surrogate pair.
    #expect(throws: DocumentError.self) {
      try document.suggest(
        [
          ProposedSuggestion(
            0..<3, kind: .grammar,
            candidates: [
              SuggestionCandidate("ab", attributes: [AttributeRun(0..<3, [.link: .link("x")])])
            ])
        ],
        in: "body")
    }
    #expect(throws: DocumentError.self) {
      try document.suggest(
        [
          ProposedSuggestion(
            0..<3, kind: .grammar,
            candidates: [
              SuggestionCandidate("🙂", attributes: [AttributeRun(0..<1, [.link: .link("x")])])
            ])
        ],
        in: "body")
    }
    // A range out of bounds or inside a surrogate pair; all or none.
    let flag = utf16(Self.text, "🇫🇷")
    #expect(throws: DocumentError.self) {
      try document.suggest(
        [
          ProposedSuggestion(4..<7, kind: .grammar),
          ProposedSuggestion((flag.lowerBound + 1)..<flag.upperBound, kind: .grammar),
        ],
        in: "body")
    }
    #expect(throws: DocumentError.unknownStorage("nope")) {
      try document.suggest([ProposedSuggestion(0..<0, kind: .grammar)], in: "nope")
    }
    // A suggestion that is gone.
    try document.edit("body", range: 1..<2, with: "x")
    #expect(throws: DocumentError.unknownSuggestion(id)) { try document.preview(id, candidate: 0) }
    #expect(try text(document) == "Txh" + before.dropFirst(3))
    #expect(try document.suggestions(in: "body").count == listed.count - 1)
  }

  /// Writing Tools' grammar results for a context: the suggestions inside
  /// it, in context coordinates; a tool's proofreading adds them in
  /// context coordinates too, and they outlive the session.
  @Test func grammarResultsForAContext() throws {
    let document = try document()
    try document.select([SelectionRange("body", 20..<21)])
    let session = try document.startSession(scope: .userSelection)
    let context = try #require(session.contexts.first)
    #expect(context.storageRange.lowerBound == 13)
    let inContext = try document.suggest(
      [
        ProposedSuggestion(
          0..<1, kind: .grammar, explanation: "Article", candidates: [SuggestionCandidate("An")])
      ],
      inContext: context.id)[0]
    let outside = try document.suggest([ProposedSuggestion(0..<3, kind: .spelling)], in: "body")[0]
    let results = try document.suggestions(inContext: context.id)
    #expect(results.map(\.id) == [inContext])
    #expect(results[0].contextRange == 0..<1 && results[0].range == 13..<14)
    #expect(try document.suggestions(in: "body").map(\.id) == [outside, inContext])
    #expect(throws: DocumentError.outsideContext(0..<999, length: context.storageRange.count)) {
      try document.suggest([ProposedSuggestion(0..<999, kind: .grammar)], inContext: context.id)
    }
    document.endSession()
    #expect(try document.suggestion(inContext).range == 13..<14)
    #expect(throws: DocumentError.noSession) { try document.suggestions(inContext: context.id) }
  }

  /// Reasons: the person's edits are `typing`, the tool's replacements
  /// `interactive` or `noninteractive`, undo `undoRedo`, and a suggestion's
  /// changes its own.
  @Test func everyChangeCarriesItsReason() throws {
    let document = try document()
    try document.select([SelectionRange("body", 0..<3)])
    let session = try document.startSession(scope: .userSelection)
    let context = try #require(session.contexts.first?.id)
    func reasons(_ events: [DocumentEvent]) -> [ChangeReason] {
      events.compactMap {
        if case .textUpdated(_, _, _, _, let reason) = $0 { return reason }
        return nil
      }
    }
    #expect(reasons(try document.edit("body", range: 4..<4, with: "big ").events) == [.typing])
    #expect(
      try document.replace(context: context, range: 0..<3, with: "The").reason == .noninteractive)
    try document.setWritingToolsState(.interactiveResting)
    #expect(
      try document.replace(context: context, range: 0..<3, with: "THE").reason == .interactive)
    #expect(reasons(try document.undo().events) == [.undoRedo])
    let id = try document.suggest(
      [ProposedSuggestion(4..<7, kind: .style, candidates: [SuggestionCandidate("large")])],
      in: "body")[0]
    #expect(reasons(try document.preview(id, candidate: 0).events) == [.replacement(.temporary)])
    #expect(reasons(try document.reject(id).events) == [.replacement(.rejected)])
    let again = try document.suggest(
      [ProposedSuggestion(4..<7, kind: .grammar, candidates: [SuggestionCandidate("large")])],
      in: "body")[0]
    #expect(reasons(try document.accept(again).events) == [.replacement(.accepted)])
    // (The text it replaced goes back, then its units go: two edits.)
    #expect(reasons(try document.undo().events) == [.undoRedo, .undoRedo])
  }

  @Test func aRemovedStorageTakesItsSuggestionsAlong() throws {
    let document = try document()
    let id = try document.suggest(
      [ProposedSuggestion(0..<3, kind: .spelling, candidates: [SuggestionCandidate("The")])],
      in: "body")[0]
    try document.accept(id)
    let other = try document.suggest([ProposedSuggestion(4..<7, kind: .style)], in: "body")[0]
    try document.remove("body")
    try document.add("body", text: Rope(Self.text))
    #expect(try document.suggestions(in: "body").isEmpty)
    #expect(throws: DocumentError.unknownSuggestion(other)) { try document.suggestion(other) }
    // The accepted suggestion's storage is gone: undo leaves the new one alone.
    #expect(try document.undo().replacementCount == 0)
    #expect(try text(document) == Self.text)
  }

  /// An accepted suggestion is a group of the history (docs/DESIGN.md,
  /// *History*): undone after a peer edited inside it, its units still
  /// there go and the text it replaced comes back before them; the peer's
  /// unit stays. Redo gives the accept back around it.
  @Test func anAcceptSomeoneEditedSinceIsUndoneAroundTheirEdit() throws {
    let document = try document()
    let id = try document.suggest(
      [ProposedSuggestion(0..<3, kind: .spelling, candidates: [SuggestionCandidate("The")])],
      in: "body")[0]
    try document.accept(id)
    try document.edit("body", range: 1..<2, with: "H", origin: "peer")
    try document.edit("body", range: 7..<7, with: "!")
    // The person's "!" first, then the accept.
    #expect(try document.undo().replacementCount == 1)
    #expect(try text(document).hasPrefix("THe cat"))
    #expect(try document.undo().replacementCount > 0)
    #expect(try text(document) == "TehH" + Self.text.dropFirst(3))
    _ = try document.redo()
    #expect(try text(document).hasPrefix("THe cat"))
  }

  /// With the recording off, an accepted suggestion goes by the intact
  /// rule: someone edited it since, undo leaves it.
  @Test func withoutTheRecordingAnAcceptSomeoneEditedIsNotUndone() throws {
    let document = try document()
    document.historyOptions = HistoryOptions(isEnabled: false)
    let id = try document.suggest(
      [ProposedSuggestion(0..<3, kind: .spelling, candidates: [SuggestionCandidate("The")])],
      in: "body")[0]
    try document.accept(id)
    try document.edit("body", range: 1..<2, with: "H", origin: "peer")
    #expect(try document.undo().replacementCount == 0)
    #expect(try text(document).hasPrefix("THe cat"))
  }

  /// An observer that stops reading keeps at most its limit of events,
  /// and is told how many it missed, after what it got.
  @Test func anObserverThatFallsBehindIsToldHowManyItMissed() async throws {
    let document = try document()
    try document.select([SelectionRange("body", 0..<3)])
    let session = try document.startSession(scope: .userSelection)
    let context = try #require(session.contexts.first?.id)
    let events = document.events(limit: 3)
    #expect(events.limit == 3)
    for i in 0..<10 {
      try document.edit("body", range: 1..<1, with: "\(i)")
    }
    var iterator = events.makeAsyncIterator()
    var got: [DocumentEvent] = []
    for _ in 0..<4 {
      if let event = await iterator.next() { got.append(event) }
    }
    #expect(got.count == 4)
    #expect(got.prefix(3).allSatisfy { $0.context == context })
    #expect(got[3] == .missed(7))
    // After the gap, events come again.
    try document.edit("body", range: 1..<1, with: "!")
    let next = await iterator.next()
    #expect(next?.context == context)
  }

  @Test func anObserverThatNeverReadsCostsAtMostItsLimit() throws {
    let document = try document()
    try document.select([SelectionRange("body", 0..<3)])
    _ = try document.startSession(scope: .userSelection)
    let events = document.events(limit: 16)
    for _ in 0..<1_000 {
      try document.edit("body", range: 1..<1, with: "x")
      try document.edit("body", range: 1..<2, with: "")
    }
    #expect(events.token.buffer.buffered == 16)
  }
}
