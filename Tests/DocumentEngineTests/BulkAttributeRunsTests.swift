import Foundation
import Testing
import TextRope
import _EngineTestSupport

@testable import DocumentEngine

/// Attribute runs built in bulk (issue 32): a storage added with its runs,
/// and a replacement's runs laid over its new text, become a tree in one
/// pass. Each is checked against the run-by-run path it replaced (kept
/// here as the reference: `setAttributes(_:in:)` per run, and the old
/// `followEdit` loop of `modify` per run) and, for `add`, against the
/// plain per-unit model; bad runs get the same typed errors as before and
/// change nothing.
@Suite struct BulkAttributeRunsTests {
  typealias Attributes = [AttributeKey: AttributeValue]
  typealias Model = AttributeModel<AttributeKey, AttributeValue>

  static let font: AttributeKey = "font"
  static let link = AttributeValue.link("https://example.com/a")

  /// Values of four keys, block intents with several identities (so that
  /// neighbouring paragraphs differ), and the host's own key.
  static let pool: [(AttributeKey, AttributeValue)] = [
    (.inlinePresentationIntent, .inlinePresentationIntent(.stronglyEmphasized)),
    (.inlinePresentationIntent, .inlinePresentationIntent(.emphasized)),
    (
      .presentationIntent, .presentationIntent(PresentationIntent([.init(.paragraph, identity: 1)]))
    ),
    (
      .presentationIntent, .presentationIntent(PresentationIntent([.init(.paragraph, identity: 2)]))
    ),
    (
      .presentationIntent,
      .presentationIntent(
        PresentationIntent([
          .init(.unorderedList, identity: 3), .init(.listItem(ordinal: 1), identity: 4),
          .init(.paragraph, identity: 5),
        ]))
    ),
    (
      .presentationIntent,
      .presentationIntent(
        PresentationIntent([
          .init(.table(columns: [.left]), identity: 6), .init(.tableRow(rowIndex: 0), identity: 7),
          .init(.tableCell(columnIndex: 0), identity: 8),
        ]))
    ),
    (.link, link), (font, .string("Menlo")), (font, .integer(12)),
  ]

  /// Pieces of text: emoji ZWJ sequences, flags, skin tones, combining
  /// marks, non-BMP scalars, CR LF, lone CR, LF and U+2029, so that runs
  /// meet surrogate pairs and paragraph separators.
  static let alphabet: [String] = [
    "a", "b", " ", "é", "e\u{301}", "a\u{300}\u{316}", "中", "😀", "𝄞", "🇫🇷", "🇯🇵",
    "👨‍👩‍👧", "👋🏽", "\r\n", "\r", "\n", "\u{2029}",
  ]

  static func randomText(_ rng: inout SeededRandom, pieces: ClosedRange<Int>) -> String {
    (0..<Int.random(in: pieces, using: &rng)).map { _ in
      alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]
    }.joined()
  }

  static func randomAttributes(_ rng: inout SeededRandom) -> Attributes {
    var set: Attributes = [:]
    for _ in 0..<Int.random(in: 0...3, using: &rng) {
      let (key, value) = pool[Int.random(in: 0..<pool.count, using: &rng)]
      set[key] = value
    }
    return set
  }

  /// The UTF-16 offsets of every scalar boundary of `text`.
  static func boundaries(_ text: String) -> [Int] {
    var result = [0]
    var offset = 0
    for scalar in text.unicodeScalars {
      offset += UTF16.width(scalar)
      result.append(offset)
    }
    return result
  }

  /// Runs over `text` as `check` takes them: in order, not overlapping, on
  /// scalar boundaries; with gaps, empty runs, runs with no attribute, and
  /// neighbours with equal attributes (which must merge).
  static func randomRuns(_ rng: inout SeededRandom, over text: String) -> [AttributeRun] {
    let bounds = boundaries(text)
    var runs: [AttributeRun] = []
    var i = 0
    while i < bounds.count {
      i += Int.random(in: 0...5, using: &rng) < 3 ? 0 : Int.random(in: 1...3, using: &rng)
      guard i < bounds.count else { break }
      let j = min(bounds.count - 1, i + Int.random(in: 0...4, using: &rng))
      let attributes: Attributes
      switch Int.random(in: 0..<10, using: &rng) {
      case 0..<3: attributes = runs.last?.attributes ?? randomAttributes(&rng)
      case 3: attributes = [:]
      default: attributes = randomAttributes(&rng)
      }
      runs.append(AttributeRun(bounds[i]..<bounds[j], attributes))
      if j == bounds.count - 1 { break }
      i = j
    }
    return runs
  }

  /// A storage's runs as ``TextStorage/attributeRuns(in:)`` gives them,
  /// from an `AttributeRuns` (or none).
  static func read(
    _ runs: AttributeRuns<Attributes>?, length: Int
  ) -> [AttributeRun] {
    (runs?.runs(in: 0..<length) ?? []).map { AttributeRun($0.range, $0.value) }
  }

  /// The reference for `add`: the runs set one by one on a new storage.
  static func runByRun(_ runs: [AttributeRun], over text: Rope) -> TextStorage {
    var storage = TextStorage(id: "s", text: text)
    for run in runs { storage.setAttributes(run.attributes, in: run.range) }
    return storage
  }

  /// The reference for an edit: `followEdit` as it was, each run laid
  /// over the new text with a cut and a join of its own.
  static func followRunByRun(
    _ before: AttributeRuns<Attributes>?, length: Int, range: Range<Int>, newLength: Int,
    given: _NewTextAttributes?
  ) throws -> AttributeRuns<Attributes>? {
    var runs = before
    if runs == nil {
      guard let given, given.runs.contains(where: { !$0.attributes.isEmpty }) else { return nil }
      runs = AttributeRuns(length: length)
    }
    try runs?.replaceInheriting(range, withLength: newLength)
    guard let given else { return runs }
    let new = range.lowerBound..<(range.lowerBound + newLength)
    try runs?.modify(new) { set in
      guard var set else { return nil }
      if let decided = given.decided {
        for key in decided { set[key] = nil }
      } else {
        set = [:]
      }
      return set.isEmpty ? nil : set
    }
    for run in given.runs {
      let shifted =
        (new.lowerBound + run.range.lowerBound)..<(new.lowerBound + run.range.upperBound)
      try runs?.modify(shifted) { set in
        var set = set ?? [:]
        for (key, value) in run.attributes where given.gives(key) { set[key] = value }
        return set.isEmpty ? nil : set
      }
    }
    return runs
  }

  /// Checks that two storages hold the same runs, stored the same way.
  static func expectSame(
    _ bulk: TextStorage, _ reference: AttributeRuns<Attributes>?, _ note: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      bulk.attributeRuns(in: 0..<bulk.length) == read(reference, length: bulk.length), "\(note)",
      sourceLocation: sourceLocation)
    #expect(
      (bulk.attributes == nil) == (reference == nil), "\(note)", sourceLocation: sourceLocation)
    #expect(
      bulk.attributes?.runCount == reference?.runCount, "\(note)", sourceLocation: sourceLocation)
    #expect(
      bulk.attributes?.neverSet == reference?.neverSet, "\(note)", sourceLocation: sourceLocation)
    bulk._invariantCheck()
  }

  /// Runs known to be maximal (an attributed text's) are laid with only
  /// their seams compared: random trees, ranges and maximal runs, whose
  /// ends are often alike their neighbours outside the range, give what
  /// the full check gives, maximal, and what the per-unit model says.
  @Test func maximalRunsLaidWithTheirSeamsOnlyGiveWhatTheCheckGives() throws {
    let seed = TestSettings.seed(
      "BulkAttributeRunsTests.maximalRunsLaidWithTheirSeamsOnlyGiveWhatTheCheckGives")
    var rng = SeededRandom(seed: seed)
    func randomRuns(count: Int, maximal: Bool) -> [_AttributeRun<Int>] {
      var runs: [_AttributeRun<Int>] = []
      for _ in 0..<count {
        var value: Int? = Int.random(in: 0..<4, using: &rng)
        if value == 0 { value = nil }
        if maximal, let last = runs.last, last.value == value { value = (value ?? 0) + 4 }
        runs.append(
          _AttributeRun(length: Int.random(in: maximal ? 1...5 : 0...5, using: &rng), value: value))
      }
      return runs
    }
    func units(_ runs: AttributeRuns<Int>) -> [Int?] {
      var result = [Int?](repeating: nil, count: runs.length)
      for (range, value) in runs.runs(in: 0..<runs.length) {
        for unit in range { result[unit] = value }
      }
      return result
    }
    for round in 0..<TestSettings.iterations(400) {
      var start = AttributeRuns<Int>()
      let first = randomRuns(
        count: Int.random(in: 0...(round % 10 == 0 ? 200 : 12), using: &rng), maximal: false)
      try start.replace(0..<0, withRuns: first)
      let length = start.length
      let lower = Int.random(in: 0...length, using: &rng)
      let upper = Int.random(in: lower...length, using: &rng)
      var middle = randomRuns(
        count: Int.random(in: 1...(round % 10 == 0 ? 150 : 8), using: &rng), maximal: true)
      // The ends alike what is outside the range, now and then.
      let before = lower > 0 ? units(start)[lower - 1] : nil
      let after = upper < length ? units(start)[upper] : nil
      if Bool.random(using: &rng), middle.count == 1 || middle[1].value != before {
        middle[0].value = before
      }
      if Bool.random(using: &rng), middle.count == 1 || middle[middle.count - 2].value != after,
        middle.count > 1 || middle[0].value == after
      {
        middle[middle.count - 1].value = after
      }
      var seams = start
      var checked = start
      try seams.replace(lower..<upper, withRuns: middle, maximal: true)
      try checked.replace(lower..<upper, withRuns: middle)
      seams._invariantCheck()
      var model = units(start)
      var laid: [Int?] = []
      for run in middle { laid += [Int?](repeating: run.value, count: run.length) }
      model.replaceSubrange(lower..<upper, with: laid)
      #expect(units(seams) == model, "seed \(seed), round \(round)")
      let got = seams.runs(in: 0..<seams.length)
      #expect(
        got.map(\.range) == checked.runs(in: 0..<checked.length).map(\.range)
          && got.map(\.value) == checked.runs(in: 0..<checked.length).map(\.value),
        "seed \(seed), round \(round)")
      for (a, b) in zip(got, got.dropFirst()) where a.range.upperBound == b.range.lowerBound {
        #expect(a.value != b.value, "neighbours alike: seed \(seed), round \(round)")
      }
    }
  }

  /// Random texts and runs: `add` builds what setting the runs one by one
  /// builds, and what the per-unit model says.
  @Test func addBuildsWhatRunByRunBuilds() throws {
    let seed = TestSettings.seed("BulkAttributeRunsTests.addBuildsWhatRunByRunBuilds")
    var rng = SeededRandom(seed: seed)
    for round in 0..<TestSettings.iterations(300) {
      // Mostly short texts; now and then one with hundreds of runs, so
      // that the trees (of tiny nodes in test builds) are several levels
      // deep.
      let pieces = round % 25 == 0 ? 200...600 : 0...30
      let text = Self.randomText(&rng, pieces: pieces)
      let runs = Self.randomRuns(&rng, over: text)
      let note = "round \(round), SEED=\(seed)"
      let document = Document()
      try document.add("s", text: Rope(text), attributes: runs)
      let bulk = try document.content.storage("s")
      let reference = Self.runByRun(runs, over: Rope(text))
      Self.expectSame(bulk, reference.attributes, note)
      var model = Model(length: text.utf16.count)
      for run in runs { model.set(run.attributes.mapValues { Optional($0) }, in: run.range) }
      #expect(
        bulk.attributeRuns(in: 0..<bulk.length)
          == model.runs(in: 0..<text.utf16.count).map { AttributeRun($0.range, $0.attributes) },
        "\(note)")
      document.content._invariantCheck("s")
    }
  }

  /// Random replacements under every result option (decided keys,
  /// overlaid block intents, the edit rule for the rest), then undo and
  /// redo (which land `.exactly` the runs they keep): each lands what the
  /// run-by-run `followEdit` gives.
  @Test func replacementsLayWhatRunByRunLays() throws {
    let seed = TestSettings.seed("BulkAttributeRunsTests.replacementsLayWhatRunByRunLays")
    var rng = SeededRandom(seed: seed)
    let choices: [ResultOptions] =
      ResultOptions.named.map(\.option) + [
        [.richText, .presentationIntent], [.presentationIntent, .list, .table], [],
      ]
    for round in 0..<TestSettings.iterations(150) {
      let text = Self.randomText(&rng, pieces: 1...30)
      let document = Document()
      try document.add("s", text: Rope(text), attributes: Self.randomRuns(&rng, over: text))
      let options = choices[Int.random(in: 0..<choices.count, using: &rng)]
      let context = try #require(
        try document.startSession(scope: .fullDocument, resultOptions: options).contexts.first)
      var states: [(String, [AttributeRun])] = []
      func now() throws -> (String, [AttributeRun]) {
        let storage = try document.content.storage("s")
        return (String(storage.text), storage.attributeRuns(in: 0..<storage.length))
      }
      states.append(try now())
      for step in 0..<Int.random(in: 1...5, using: &rng) {
        let note = "round \(round), step \(step), options \(options.names), SEED=\(seed)"
        let live = try document.liveContext(context.id)
        let bounds = Self.boundaries(String(live.text))
        let a = bounds[Int.random(in: 0..<bounds.count, using: &rng)]
        let b = bounds[Int.random(in: 0..<bounds.count, using: &rng)]
        let range = min(a, b)..<max(a, b)
        let new = Self.randomText(&rng, pieces: 1...12)
        let runs = Int.random(in: 0..<6, using: &rng) == 0 ? nil : Self.randomRuns(&rng, over: new)
        let before = try document.content.storage("s")
        let result = try document.replace(
          context: context.id, range: range, with: new, attributes: runs)
        let start = result.storageRange.lowerBound
        let expected = try Self.followRunByRun(
          before.attributes, length: before.length, range: start..<(start + range.count),
          newLength: new.utf16.count,
          given: runs.flatMap { _NewTextAttributes.forReplacement($0, options: options) })
        Self.expectSame(try document.content.storage("s"), expected, note)
        states.append(try now())
      }
      for expected in states.dropLast().reversed() {
        try document.undo()
        #expect(try now() == expected, "round \(round), undo, SEED=\(seed)")
      }
      for expected in states.dropFirst() {
        try document.redo()
        #expect(try now() == expected, "round \(round), redo, SEED=\(seed)")
      }
      document.content._invariantCheck("s")
    }
  }

  /// Runs that the checks refuse never reach the bulk path; given to it
  /// directly (out of order, overlapping), it takes the run-by-run one and
  /// gives what that gives.
  @Test func runsOutOfOrderTakeTheRunByRunPath() throws {
    let text = Rope("ab😀cd\r\nef")
    let bold: Attributes = [
      .inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)
    ]
    let italic: Attributes = [.inlinePresentationIntent: .inlinePresentationIntent(.emphasized)]
    let lists: [[AttributeRun]] = [
      [AttributeRun(5..<7, bold), AttributeRun(0..<2, italic)],
      [AttributeRun(0..<6, bold), AttributeRun(2..<8, italic), AttributeRun(1..<3, [:])],
      [AttributeRun(4..<4, bold), AttributeRun(0..<9, [Self.font: .integer(1)])],
    ]
    for runs in lists {
      var bulk = TextStorage(id: "s", text: text)
      bulk.setAttributes(runs)
      Self.expectSame(bulk, Self.runByRun(runs, over: text).attributes, "add \(runs)")

      var storage = Self.runByRun([AttributeRun(0..<10, bold)], over: text)
      let before = storage.attributes
      storage.text = Rope("xyab😀cd\r\nef")
      let given = _NewTextAttributes.exactly(
        runs.map { AttributeRun($0.range.clamped(to: 0..<2), $0.attributes) })
      storage.followEdit(0..<0, newLength: 2, attributes: given)
      let expected = try Self.followRunByRun(
        before, length: 10, range: 0..<0, newLength: 2, given: given)
      #expect(
        storage.attributeRuns(in: 0..<12) == Self.read(expected, length: 12), "edit \(runs)")
    }
  }

  /// Bad runs given to `add`: out of bounds, negative, splitting a
  /// surrogate pair, overlapping, out of order, with a bad value; alone or
  /// after thousands of good ones. Each gets the typed error that the
  /// first bad run gets, and the document does not change.
  @Test func hostileRunsAreRefusedAndChangeNothing() throws {
    let document = Document()
    let good: Attributes = [.link: Self.link]
    try document.add("s", text: "a😀b", attributes: [AttributeRun(0..<1, good)])
    let before = try document.content.storage("s")
    let order = document.content.order
    let text = "a😀b\r\n👨‍👩‍👧"  // 😀 is 1..<3; the family 6..<14
    let length = text.utf16.count
    let long = String(repeating: "ab", count: 3_000) + text
    let many = (0..<3_000).map { AttributeRun((2 * $0)..<(2 * $0 + 1), good) }
    let cases: [(String, [AttributeRun], DocumentError)] = [
      (
        text, [AttributeRun(0..<1, good), AttributeRun(3..<99, good)],
        .invalidRange("t", .offsetOutOfBounds(offset: 99, unit: .utf16, count: length))
      ),
      // A negative start is before the end of the (empty) run before it.
      (text, [AttributeRun(-1..<1, good)], .overlappingRuns(-1..<1)),
      (text, [AttributeRun(2..<3, good)], .invalidRange("t", .splitsSurrogatePair(utf16Offset: 2))),
      (text, [AttributeRun(0..<7, good)], .invalidRange("t", .splitsSurrogatePair(utf16Offset: 7))),
      (text, [AttributeRun(0..<3, good), AttributeRun(1..<4, good)], .overlappingRuns(1..<4)),
      (text, [AttributeRun(3..<4, good), AttributeRun(0..<1, good)], .overlappingRuns(0..<1)),
      (
        text, [AttributeRun(0..<1, [.link: .integer(3)])],
        .invalidAttribute(.link, reason: "the key 'link' takes a value of its own kind")
      ),
      (
        long, many + [AttributeRun(6_002..<6_003, good)],
        .invalidRange("t", .splitsSurrogatePair(utf16Offset: 6_002))
      ),
      (long, many + [AttributeRun(5_000..<5_001, good)], .overlappingRuns(5_000..<5_001)),
      (
        long, many + [AttributeRun(6_000..<(long.utf16.count + 1), good)],
        .invalidRange(
          "t",
          .offsetOutOfBounds(offset: long.utf16.count + 1, unit: .utf16, count: long.utf16.count))
      ),
    ]
    for (text, runs, error) in cases {
      #expect(throws: error, "\(runs.suffix(2))") {
        try document.add("t", text: Rope(text), after: "s", attributes: runs)
      }
      #expect(document.content.order == order)
      #expect(throws: DocumentError.unknownStorage("t")) { try document.content.storage("t") }
      let after = try document.content.storage("s")
      #expect(String(after.text) == String(before.text))
      #expect(after.version == before.version)
      #expect(after.attributeRuns(in: 0..<after.length) == before.attributeRuns(in: 0..<4))
    }
    // The same runs, good, are taken.
    try document.add("t", text: Rope(long), attributes: many)
    #expect(try document.content.storage("t").attributeRuns(in: 0..<6_000) == many)
  }

  /// Bad runs in a tool's replacement: the same typed errors, and neither
  /// the text, its version nor its runs change.
  @Test func hostileReplacementRunsAreRefusedAndChangeNothing() throws {
    let document = Document()
    let good: Attributes = [.link: Self.link]
    try document.add("s", text: "One 😀 two.\n", attributes: [AttributeRun(0..<3, good)])
    let before = try document.content.storage("s")
    let context = try #require(
      try document.startSession(scope: .fullDocument, resultOptions: .richText).contexts.first)
    let new = "x😀y"  // 😀 is 1..<3
    let cases: [([AttributeRun], DocumentError)] = [
      (
        [AttributeRun(0..<5, good)],
        .invalidRange("s", .offsetOutOfBounds(offset: 5, unit: .utf16, count: 4))
      ),
      ([AttributeRun(0..<2, good)], .invalidRange("s", .splitsSurrogatePair(utf16Offset: 2))),
      ([AttributeRun(0..<3, good), AttributeRun(2..<4, good)], .overlappingRuns(2..<4)),
      ([AttributeRun(3..<4, good), AttributeRun(0..<1, good)], .overlappingRuns(0..<1)),
    ]
    for (runs, error) in cases {
      #expect(throws: error, "\(runs)") {
        try document.replace(context: context.id, range: 4..<6, with: new, attributes: runs)
      }
      let after = try document.content.storage("s")
      #expect(String(after.text) == String(before.text))
      #expect(after.version == before.version)
      #expect(
        after.attributeRuns(in: 0..<after.length) == before.attributeRuns(in: 0..<before.length))
    }
  }
}
