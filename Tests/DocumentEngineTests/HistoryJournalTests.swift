import Foundation
import Testing
import TextRope

@testable import DocumentEngine

/// The journal: the person's groups kept as their edits while only the
/// person edits a storage, and put in the tree of marks when anything needs
/// it (see docs/History.md, *The journal*).
@Suite struct HistoryJournalTests {
  /// A generator with a printed seed (SEED overrides it).
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func seed(_ fallback: UInt64) -> UInt64 {
    let seed = ProcessInfo.processInfo.environment["SEED"].flatMap { UInt64($0) } ?? fallback
    print("HistoryJournalTests seed \(seed) (SEED=… to replay)")
    return seed
  }

  func text(_ document: Document, _ id: StorageID = "body") throws -> String {
    String(try document.content.storage(id).text)
  }

  func length(_ document: Document, _ id: StorageID = "body") throws -> Int {
    try document.content.storage(id).text.utf16Count
  }

  /// One group of the person's at a random place: typing (with emoji,
  /// combining marks and CR LF), a backspace run or a replacement.
  /// Returns whether it edited (one group).
  @discardableResult
  func randomGroup(_ document: Document, _ g: inout Generator) throws -> Bool {
    let pieces = ["a", "é", "👩‍👩‍👧", "🇫🇷", "e\u{301}", "\r\n", "\u{2029}", "𝄞", " "]
    let n = try length(document)
    let text = try self.text(document)
    // Scalar boundaries only (the document refuses surrogate halves).
    var boundaries: [Int] = [0]
    var offset = 0
    for scalar in text.unicodeScalars {
      offset += scalar.utf16.count
      boundaries.append(offset)
    }
    let p = boundaries.randomElement(using: &g) ?? n
    switch Int.random(in: 0..<3, using: &g) {
    case 0:
      var at = p
      for _ in 0..<Int.random(in: 1...5, using: &g) {
        let piece = pieces.randomElement(using: &g) ?? "a"
        try document.edit("body", range: at..<at, with: piece)
        at += piece.utf16.count
      }
    case 1:
      guard let i = boundaries.firstIndex(of: p), i > 0 else { return false }
      var index = i
      for _ in 0..<Int.random(in: 1...4, using: &g) where index > 0 {
        try document.edit("body", range: boundaries[index - 1]..<boundaries[index], with: "")
        index -= 1
      }
    default:
      guard let i = boundaries.firstIndex(of: p) else { return false }
      let j = min(boundaries.count - 1, i + Int.random(in: 0...3, using: &g))
      try document.edit(
        "body", range: p..<boundaries[j], with: pieces.randomElement(using: &g) ?? "b")
    }
    document.closeGroup()
    return true
  }

  @Test func theJournalUndoesAndRedoesGroupByGroup() throws {
    var g = Generator(state: Self.seed(3001))
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: nil)
    try document.add("body", text: Rope("Hello, wörld.\r\nSecond line\u{2029}Third."))
    var snapshots = [try text(document)]
    var groups = 0
    while groups < 300 {
      if try randomGroup(document, &g) {
        groups += 1
        snapshots.append(try text(document))
      }
    }
    #expect(document.historyGroupCount == 300)
    for expected in snapshots.reversed().dropFirst() {
      _ = try document.undo()
      #expect(try text(document) == expected)
    }
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
    for expected in snapshots.dropFirst() {
      _ = try document.redo()
      #expect(try text(document) == expected)
    }
  }

  /// Whether storage `id`'s journal keeps any group (the tree has not
  /// taken it).
  func isJournaled(_ document: Document, _ id: StorageID = "body") -> Bool {
    document.withState { $0.history.journaled.contains(id) }
  }

  @Test func aPeersNewGroupWaitsInTheJournalAndTheOpenGroupGoesOn() throws {
    let document = Document()
    try document.add("body", text: Rope("Start. "))
    _ = try document.edit("body", range: 7..<7, with: "One")
    document.closeGroup()
    _ = try document.edit("body", range: 10..<10, with: " two")
    // The peer writes before the person's open group, then after it.
    _ = try document.edit("body", range: 0..<0, with: "«", origin: "peer")
    #expect(isJournaled(document))
    _ = try document.edit("body", range: 15..<15, with: "»", origin: "peer")
    #expect(try text(document) == "«Start. One two»")
    // The person's group goes on where it left off.
    _ = try document.edit("body", range: 15..<15, with: " 3")
    #expect(try text(document) == "«Start. One two 3»")
    _ = try document.undo()
    #expect(try text(document) == "«Start. One»")
    _ = try document.undo(origin: "peer")
    #expect(try text(document) == "«Start. One")
    _ = try document.undo(origin: "peer")
    #expect(try text(document) == "Start. One")
    _ = try document.redo()
    #expect(try text(document) == "Start. One two 3")
    _ = try document.redo(origin: "peer")
    #expect(try text(document) == "«Start. One two 3")
  }

  /// How many hunks storage `id`'s journal holds.
  func journalCount(_ document: Document, _ id: StorageID = "body") -> Int {
    document.withState { $0.history.journal(of: id)?.count ?? 0 }
  }

  /// While a tool streams, a tool's or a peer's edit that comes to wait in
  /// a long journal has the tree take it first, and leaves the person's
  /// pending hunk pending: the edit that later touches the pending hunk has
  /// a short journal to take, and the person types on in the same group,
  /// without the tree. Without a streaming tool, the edit waits beside the
  /// whole journal (taking it would cost every group typed since).
  @Test(arguments: [true, false])
  func anEditThatWaitsBesideALongJournalWhileAToolStreams(streaming: Bool) throws {
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: nil)
    try document.add("body", text: Rope("Tail.\n"))
    _ = try document.startSession(scope: .fullDocument)
    if streaming {
      try document.setWritingToolsState(.interactiveResting)
      try document.setWritingToolsState(.interactiveStreaming)
    }
    var expected = "Tail.\n"
    var snapshots = [expected]
    // Groups of the person's, each closed: they wait in the journal.
    for i in 0..<(DocumentState.journalBound + 8) {
      let piece = i % 3 == 0 ? "👩‍👩‍👧" : i % 3 == 1 ? "e\u{301}" : "a"
      _ = try document.edit("body", range: 0..<0, with: piece)
      expected = piece + expected
      document.closeGroup()
      snapshots.append(expected)
    }
    // The person's open group, typed at the end: its hunk is pending.
    let end = expected.utf16.count
    _ = try document.edit("body", range: end..<end, with: "x")
    #expect(journalCount(document) >= DocumentState.journalBound)
    // A peer's edit at the start waits beside it: while a tool streams, the
    // tree takes the journal first, and the pending hunk stays.
    _ = try document.edit("body", range: 0..<0, with: "«", origin: "peer")
    if streaming {
      #expect(journalCount(document) == 1)
    } else {
      #expect(journalCount(document) > DocumentState.journalBound)
    }
    #expect(document.withState { $0.history.pending != nil })
    // The person's group goes on, and is one group.
    _ = try document.edit("body", range: (end + 2)..<(end + 2), with: "y")
    #expect(try text(document) == "«" + expected + "xy")
    _ = try document.undo()
    #expect(try text(document) == "«" + expected)
    for snapshot in snapshots.reversed().dropFirst() {
      _ = try document.undo()
      #expect(try text(document) == "«" + snapshot)
    }
    _ = try document.undo(origin: "peer")
    #expect(try text(document) == "Tail.\n")
    for snapshot in snapshots.dropFirst() {
      _ = try document.redo()
      #expect(try text(document) == snapshot)
    }
    _ = try document.redo()
    #expect(try text(document) == expected + "xy")
  }

  @Test func anEditPutBeforeTheOpenGroupMovesTheSelectionItKept() throws {
    let document = Document()
    try document.add("body", text: Rope("0123456789 end"))
    try document.select([SelectionRange("body", 11..<14)])
    _ = try document.edit("body", range: 11..<14, with: "fin")
    // The peer's edit goes in the journal before the person's open group,
    // so the selection kept for that group moves with it.
    _ = try document.edit("body", range: 0..<0, with: "«»", origin: "peer")
    #expect(isJournaled(document))
    let undone = try document.undo()
    #expect(try text(document) == "«»0123456789 end")
    #expect(undone.selection == [SelectionRange("body", 13..<16)])
  }

  @Test func aPeersTypingInOnePlaceIsOneOfItsGroupsThroughTheJournal() throws {
    let document = Document()
    try document.add("body", text: Rope("abc"))
    _ = try document.edit("body", range: 3..<3, with: "d")
    _ = try document.edit("body", range: 0..<0, with: "X", origin: "peer")
    #expect(isJournaled(document))
    // Its next keystroke goes on with its group: the tree takes the
    // journal then.
    _ = try document.edit("body", range: 1..<1, with: "Y", origin: "peer")
    _ = try document.edit("body", range: 2..<2, with: "Z", origin: "peer")
    #expect(try text(document) == "XYZabcd")
    _ = try document.undo(origin: "peer")
    #expect(try text(document) == "abcd")
    #expect(throws: DocumentError.nothingToUndo) { try document.undo(origin: "peer") }
    _ = try document.undo()
    #expect(try text(document) == "abc")
  }

  @Test func aPeersDeletionInTheJournalComesBackWithItsAttributes() throws {
    let document = Document()
    let strong: [AttributeKey: AttributeValue] = [
      .inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)
    ]
    try document.add(
      "body", text: Rope("hello 🌍 world"), attributes: [AttributeRun(0..<5, strong)])
    _ = try document.edit("body", range: 14..<14, with: "!")
    // The peer deletes a bold word, an emoji and a space.
    _ = try document.edit("body", range: 0..<9, with: "", origin: "peer")
    #expect(isJournaled(document))
    #expect(try text(document) == "world!")
    _ = try document.undo(origin: "peer")
    #expect(try text(document) == "hello 🌍 world!")
    #expect(
      try document.content.storage("body").attributeRuns(in: 0..<15) == [
        AttributeRun(0..<5, strong)
      ])
    _ = try document.undo()
    #expect(try text(document) == "hello 🌍 world")
  }

  @Test func theLimitDropsAPeersGroupInTheJournalAsAnyOther() throws {
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: 3, maxBytes: nil)
    try document.add("body", text: Rope(""))
    for (i, word) in ["one", " two", " three"].enumerated() {
      let at = try length(document)
      _ = try document.edit("body", range: at..<at, with: word)
      if i == 0 { _ = try document.edit("body", range: 0..<0, with: "¶", origin: "peer") }
      document.closeGroup()
    }
    _ = try document.edit("body", range: 0..<0, with: ">")
    #expect(try text(document) == ">¶one two three")
    // The oldest two went: the person's "one", then the peer's "¶" (its
    // edit still moves the marks of the groups after it).
    #expect(document.historyGroupCount == 3)
    #expect(throws: DocumentError.nothingToUndo) { try document.undo(origin: "peer") }
    _ = try document.undo()
    _ = try document.undo()
    #expect(try text(document) == "¶one two")
    _ = try document.undo()
    #expect(try text(document) == "¶one")
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
    _ = try document.redo()
    #expect(try text(document) == "¶one two")
  }

  @Test func aPeersEditPutsTheJournalInTheTreeAndUndoStaysSelective() throws {
    let document = Document()
    try document.add("body", text: Rope(""))
    _ = try document.edit("body", range: 0..<0, with: "abc")
    document.closeGroup()
    _ = try document.edit("body", range: 3..<3, with: "déf")
    document.closeGroup()
    _ = try document.edit("body", range: 6..<6, with: "👍")
    // The peer types inside the person's first group.
    _ = try document.edit("body", range: 1..<1, with: "X", origin: "peer")
    #expect(try text(document) == "aXbcdéf👍")
    _ = try document.undo()
    #expect(try text(document) == "aXbcdéf")
    _ = try document.undo()
    #expect(try text(document) == "aXbc")
    _ = try document.undo()
    #expect(try text(document) == "X")
    _ = try document.redo()
    #expect(try text(document) == "aXbc")
    _ = try document.undo(origin: "peer")
    #expect(try text(document) == "abc")
  }

  @Test func theLimitDropsTheOldestJournaledGroups() throws {
    var g = Generator(state: Self.seed(3002))
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: 5, maxBytes: nil)
    try document.add("body", text: Rope("Some text to start from.\n"))
    var snapshots = [try text(document)]
    for _ in 0..<400 where try randomGroup(document, &g) {
      snapshots.append(try text(document))
    }
    #expect(document.historyGroupCount == 5)
    // The journal let the dropped groups go: what is kept is a few groups'
    // worth.
    #expect(document.historyBytes < 2_000)
    for expected in snapshots.reversed().dropFirst().prefix(5) {
      _ = try document.undo()
      #expect(try text(document) == expected)
    }
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
  }

  @Test func aByteLimitDropsJournaledGroupsButNotTheOpenOne() throws {
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: 64)
    try document.add("body", text: Rope(String(repeating: "0123456789", count: 40)))
    for i in 0..<50 {
      _ = try document.edit("body", range: (i * 2)..<(i * 2 + 5), with: "")
      document.closeGroup()
    }
    #expect(document.historyGroupCount >= 1)
    #expect(document.historyGroupCount < 50)
    let before = try text(document)
    _ = try document.undo()
    #expect(try text(document) != before)
    #expect(try length(document) == before.utf16.count + 5)
  }

  @Test func aRemovedStorageKeepsItsJournaledGroupsAsEmptyOnes() throws {
    let document = Document()
    try document.add("body", text: Rope("one"))
    try document.add("other", text: Rope("two"))
    _ = try document.edit("other", range: 3..<3, with: "!")
    document.closeGroup()
    _ = try document.edit("body", range: 3..<3, with: " more")
    document.closeGroup()
    _ = try document.edit("other", range: 0..<0, with: "¡")
    document.closeGroup()
    _ = try document.edit("body", range: 0..<0, with: "Just ")
    #expect(document.historyGroupCount == 4)
    try document.remove("body")
    #expect(document.historyGroupCount == 4)
    let undone = try document.undo()  // "Just ": its storage is gone
    #expect(undone.replacementCount == 0)
    _ = try document.undo()
    #expect(try text(document, "other") == "two!")
    _ = try document.undo()  // " more": gone too
    _ = try document.undo()
    #expect(try text(document, "other") == "two")
  }

  @Test func undoGivesBackTheSelectionTheJournalKept() throws {
    let document = Document()
    try document.add("body", text: Rope("One two three."))
    try document.select([SelectionRange(caret: TextPosition("body", 3))])
    _ = try document.edit("body", range: 3..<3, with: "!")
    try document.select([SelectionRange("body", 5..<8)])
    _ = try document.edit("body", range: 5..<8, with: "2")
    try document.select([SelectionRange(caret: TextPosition("body", 0))])
    _ = try document.edit("body", range: 0..<0, with: "🎉")
    #expect(try text(document) == "🎉One! 2 three.")
    var undone = try document.undo()
    #expect(undone.selection == [SelectionRange(caret: TextPosition("body", 0))])
    undone = try document.undo()
    #expect(undone.selection == [SelectionRange("body", 5..<8)])
    undone = try document.undo()
    #expect(undone.selection == [SelectionRange(caret: TextPosition("body", 3))])
    #expect(try text(document) == "One two three.")
  }

  /// A limit of no group drops each as it opens, also when a peer's edit
  /// sits in the journal before a dropped group of the person's (FuzzDocument
  /// found the person's next group kept by no stack, yet counted: the
  /// dropped hunk behind the peer's read as the oldest kept).
  @Test func aLimitOfNoGroupDropsEachGroupBehindAPeersEdit() throws {
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: nil, clock: { .zero })
    try document.add("cell", text: Rope(" foab"))
    document.historyOptions = HistoryOptions(
      isEnabled: true, maxGroups: 0, maxBytes: nil, clock: { .zero })
    document.closeGroup()
    _ = try document.edit("cell", range: 3..<4, with: "a")
    #expect(document.historyGroupCount == 0)
    document.closeGroup(origin: "peer")
    _ = try document.edit("cell", range: 0..<2, with: "", origin: "peer")
    #expect(document.historyGroupCount == 0)
    document.closeGroup()
    _ = try document.edit("cell", range: 2..<2, with: "a")
    #expect(document.historyGroupCount == 0)
    document.closeGroup()
    _ = try document.edit("cell", range: 3..<3, with: "a")
    #expect(document.historyGroupCount == 0)
    #expect(try text(document, "cell") == "oaaab")
    #expect(throws: DocumentError.nothingToUndo) { try document.undo() }
  }

  /// Every number the journal writes reads back the same, at every length
  /// of its encoding (one to eight bytes below 2^56, their length in the
  /// first byte's trailing zeros; nine above) and on both sides of each
  /// length, in hunks of
  /// every shape (removed text or none, a caret or a range selected) and
  /// in edits of no action between them.
  @Test func theJournalsNumbersReadBackAtEveryLength() {
    var values: [Int] = [0, 1, -1, Int.max, Int.min, Int.max - 1, Int.min + 1]
    for bits in stride(from: 7, through: 63, by: 7) {
      let edge = Int(bitPattern: UInt(1) << UInt(bits))
      values += [
        edge &- 1, edge, edge &+ 1, 0 &- edge, 0 &- edge &- 1, (edge &- 1) / 2, 0 &- edge / 2,
      ]
    }
    var journal = _Journal()
    var expected: [_JournalHunk] = []
    var action = 0
    for (index, value) in values.enumerated() {
      let other = values[(index * 7 + 3) % values.count]
      action &+= index % 3 == 0 ? 1 : (value == Int.min ? 1 : abs(value % 1000) + 1)
      let removed =
        index % 2 == 0 ? AttributedText.empty : (try? AttributedText("é👩‍👩‍👧\r\n")) ?? .empty
      let selection: _JournalSelection? =
        switch index % 3 {
        case 0: nil
        case 1: _JournalSelection(start: other, end: nil)
        default: _JournalSelection(start: value, end: other)
        }
      let hunk = _JournalHunk(
        action: action, start: value, inserted: other, removed: removed, selection: selection)
      journal.append(hunk, dropped: false)
      expected.append(hunk)
      if index % 5 == 4 {
        journal.appendPlain(start: other, removedLength: value, inserted: value)
        expected.append(
          _JournalHunk(
            action: -1, start: other, inserted: value, removed: .empty, selection: nil,
            removedLength: value))
      }
    }
    Self.expectHunks(of: journal, expected)
  }

  /// The pending hunk's removed bytes, grown by random backspaces (in
  /// front) and forward deletes (at the end) in room reused from one run
  /// to the next, hold what the attributed texts joined in that order
  /// hold: the text and its runs, with and without attributes.
  @Test func removedBytesJoinAsTheTextsTheyHold() throws {
    var rng = Generator(state: Self.seed(0x5EED_B17E))
    let pieces = ["a", "é", "e\u{301}", "👩‍👩‍👧", "🇫🇷", "\r\n", "\u{2029}", "𝄞", "", "xyz"]
    var bytes = _RemovedBytes()
    for round in 0..<200 {
      var expected = AttributedText.empty
      bytes.removeAll()
      for _ in 0..<Int.random(in: 1...12, using: &rng) {
        let text = pieces.randomElement(using: &rng) ?? "a"
        let length = text.utf16.count
        let runs =
          round % 3 == 0 && length > 0 && Bool.random(using: &rng)
          ? [AttributeRun(0..<length, [.link: .link("u\(round % 2)")])] : []
        let piece = try AttributedText(text, runs: runs)
        if Bool.random(using: &rng) {
          bytes.prepend(_RemovedBytes(piece))
          expected.prepend(piece)
        } else {
          bytes.append(_RemovedBytes(piece))
          expected.append(piece)
        }
        #expect(bytes.attributedText == expected, "round \(round)")
        #expect(bytes.utf8.count == expected.text.utf8.count, "round \(round)")
      }
      // A pending hunk in place takes them as its first edit's, and hands
      // back its own room.
      var pending = _PendingHunk(
        storage: "s", action: 1, _EditStep(0..<5, insertedLength: 0),
        removed: try AttributedText("stale"))
      var taken = bytes
      let edit = _EditStep(9..<(9 + expected.length), insertedLength: 0)
      pending.restart(2, edit, taking: &taken, selection: nil)
      #expect(pending.removed == expected, "round \(round)")
      #expect(pending.removedLength == expected.length, "round \(round)")
      if expected.length > 0 {
        // The room handed back holds nothing.
        #expect(taken.utf8.count == 0 && taken.runs.isEmpty, "round \(round)")
      }
    }
  }

  /// Room is kept when emptied, up to 64 KiB: a large deletion's goes,
  /// whether emptied directly or handed back by a pending hunk that starts
  /// over with a keystroke's bytes.
  @Test func aLargeDeletionsRoomIsLetGo() throws {
    let large = try AttributedText(String(repeating: "é", count: 40_000))
    var bytes = _RemovedBytes(large)
    bytes.removeAll()
    #expect(bytes.utf8.count == 0 && bytes.utf8.capacity == 0)
    var small = _RemovedBytes(try AttributedText("word"))
    small.removeAll()
    #expect(small.utf8.count == 0 && small.utf8.capacity == 4)

    var pending = _PendingHunk(
      storage: "s", action: 1, _EditStep(0..<40_000, insertedLength: 0), removed: large)
    var keystroke = _RemovedBytes(try AttributedText("x"))
    pending.restart(2, _EditStep(7..<8, insertedLength: 0), taking: &keystroke, selection: nil)
    #expect(pending.removed == (try AttributedText("x")))
    #expect(keystroke.utf8.count == 0 && keystroke.utf8.capacity == 0)
  }

  /// A pending hunk appended where it lies (the keystroke's path) reads
  /// back as the same hunk appended as a value: its numbers, its removed
  /// text and runs, its selection, and its cost, which the limit
  /// uncharges when it drops it.
  @Test func aPendingHunkAppendedInPlaceReadsBackAsItWas() throws {
    let linked = AttributeRun(0..<2, [.link: .link("u")])
    let removedTexts: [AttributedText] = [
      .empty, try AttributedText("é👩‍👩‍👧\r\n"), try AttributedText("🇫🇷x", runs: [linked]),
    ]
    var inPlace = _Journal()
    var asValue = _Journal()
    var expected: [_JournalHunk] = []
    var action = 7
    for (index, start) in [0, 5, 130, 17, 1 << 20, 3, 1 << 40].enumerated() {
      let removed = removedTexts[index % removedTexts.count]
      let selection: _JournalSelection? =
        switch index % 3 {
        case 0: nil
        case 1: _JournalSelection(start: start + 1, end: nil)
        default: _JournalSelection(start: start, end: start + 300)
        }
      let edit = _EditStep(start..<(start + removed.length), insertedLength: index * 37)
      var pending = _PendingHunk(
        storage: StorageID("s"), action: action, edit, removed: removed, isLazy: true,
        selection: selection)
      let cost = pending.append(to: &inPlace, dropped: false)
      let hunk = _JournalHunk(
        action: action, start: start, inserted: index * 37, removed: removed,
        selection: selection)
      #expect(cost == asValue.append(hunk, dropped: false))
      expected.append(hunk)
      action += index % 2 == 0 ? 1 : 1000
    }
    #expect(inPlace.charged == asValue.charged)
    Self.expectHunks(of: inPlace, expected)
  }

  /// `journal`'s hunks read back are `expected`: each one's numbers, removed
  /// text and runs, its removed length (a plain edit's as given, a group's
  /// its text's) and its selection.
  static func expectHunks(
    of journal: _Journal, _ expected: [_JournalHunk],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var read: [_JournalHunk] = []
    journal.forEachHunk { read.append($0) }
    #expect(read.count == expected.count, sourceLocation: sourceLocation)
    for (got, want) in zip(read, expected) {
      let length = want.action < 0 ? want.removedLength : want.removed.length
      #expect(got.action == want.action, sourceLocation: sourceLocation)
      #expect(got.start == want.start, sourceLocation: sourceLocation)
      #expect(got.inserted == want.inserted, sourceLocation: sourceLocation)
      #expect(got.removed == want.removed, sourceLocation: sourceLocation)
      #expect(got.removedLength == length, sourceLocation: sourceLocation)
      #expect(got.selection == want.selection, sourceLocation: sourceLocation)
    }
  }
}
