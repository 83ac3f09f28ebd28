import Foundation
import Testing
import TextRope
import _EngineTestSupport

@testable import DocumentEngine

/// Rich text (docs/DESIGN.md, "Attributes"): attributes in storages follow
/// edits by `NSMutableAttributedString`'s rule, contexts carry them, a
/// tool's replacement gives them as its result options allow, and undo,
/// redo and revert give them back exactly — each checked against a plain
/// per-unit model (`AttributeModel`).
@Suite struct AttributeTests {
  typealias Model = AttributeModel<AttributeKey, AttributeValue>

  static let bold = AttributeValue.inlinePresentationIntent(.stronglyEmphasized)
  static let italic = AttributeValue.inlinePresentationIntent(.emphasized)
  static let header = AttributeValue.presentationIntent(
    PresentationIntent([.init(.header(level: 1), identity: 1)]))
  static let item = AttributeValue.presentationIntent(
    PresentationIntent([
      .init(.unorderedList, identity: 2), .init(.listItem(ordinal: 1), identity: 3),
      .init(.paragraph, identity: 4),
    ]))
  static let cell = AttributeValue.presentationIntent(
    PresentationIntent([
      .init(.table(columns: [.left, .right]), identity: 5),
      .init(.tableRow(rowIndex: 0), identity: 6),
      .init(.tableCell(columnIndex: 1), identity: 7),
    ]))
  static let link = AttributeValue.link("https://example.com/a")
  static let font: AttributeKey = "font"

  /// A few values of four keys, one of them the host's own.
  static let pool: [(AttributeKey, AttributeValue)] = [
    (.inlinePresentationIntent, bold), (.inlinePresentationIntent, italic),
    (.presentationIntent, header), (.presentationIntent, item), (.link, link),
    (font, .string("Menlo")), (font, .integer(12)),
  ]

  /// Text with emoji, combining marks, CR LF and U+2029, so that ranges
  /// meet surrogate pairs and paragraph separators.
  static let alphabet: [String] = [
    "a", "b", " ", "é", "e\u{301}", "😀", "🇫🇷", "\r\n", "\u{2029}", "\n",
  ]

  static func randomAttributes(_ rng: inout SeededRandom) -> [AttributeKey: AttributeValue] {
    var set: [AttributeKey: AttributeValue] = [:]
    for _ in 0..<Int.random(in: 0...2, using: &rng) {
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

  static func runs(_ model: Model, _ range: Range<Int>) -> [AttributeRun] {
    model.runs(in: range).map { AttributeRun($0.range, $0.attributes) }
  }

  /// Random edits (with attributes or by the rule), attributes set over
  /// ranges, and reads of any range, against the model.
  @Test func editsAndSetsFollowTheModel() throws {
    let seed = TestSettings.seed("AttributeTests.editsAndSetsFollowTheModel")
    var rng = SeededRandom(seed: seed)
    let document = Document()
    var text = "One 😀 two.\nThree\u{2029}"
    var model = Model(length: text.utf16.count)
    try document.add("body", text: Rope(text))
    for step in 0..<TestSettings.iterations(400) {
      let bounds = Self.boundaries(text)
      let a = bounds[Int.random(in: 0..<bounds.count, using: &rng)]
      let b = bounds[Int.random(in: 0..<bounds.count, using: &rng)]
      let range = min(a, b)..<max(a, b)
      switch Int.random(in: 0..<10, using: &rng) {
      case 0..<3:
        let values = Self.randomAttributes(&rng).mapValues { Optional($0) }
          .merging(Bool.random(using: &rng) ? [Self.font: nil] : [:]) { x, _ in x }
        try document.setAttributes(values, in: "body", range: range)
        model.set(values, in: range)
      default:
        let new = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
          Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &rng)]
        }.joined()
        let given = Bool.random(using: &rng) ? Self.randomAttributes(&rng) : nil
        try document.edit("body", range: range, with: new, attributes: given)
        var utf16 = Array(text.utf16)
        utf16.replaceSubrange(range, with: Array(new.utf16))
        text = String(decoding: utf16, as: UTF16.self)
        if !(range.isEmpty && new.isEmpty) {
          model.replace(range, newLength: new.utf16.count, given: given)
        }
      }
      let storage = try document.content.storage("body")
      #expect(String(storage.text) == text, "step \(step), SEED=\(seed)")
      let whole = 0..<storage.length
      #expect(
        storage.attributeRuns(in: whole) == Self.runs(model, whole), "step \(step), SEED=\(seed)")
      let all = Self.boundaries(text)
      let c = all[Int.random(in: 0..<all.count, using: &rng)]
      let d = all[Int.random(in: 0..<all.count, using: &rng)]
      let part = min(c, d)..<max(c, d)
      #expect(
        storage.attributeRuns(in: part) == Self.runs(model, part), "step \(step), SEED=\(seed)")
      storage._invariantCheck()
    }
  }

  /// The rule, case by case: the first replaced unit, the unit before an
  /// insertion, the unit after an insertion at the start, none in an empty
  /// text; the exclusion keeps its own rule.
  /// Runs are joined by comparing their sets key by key, not by hashing
  /// (``_sameAttributes(_:_:)``): it says what `==` says, on sets of a few
  /// keys and of many, with equal and differing values.
  @Test func setsCompareKeyByKeyAsEqualityDoes() {
    let seed = TestSettings.seed("AttributeTests.setsCompareKeyByKeyAsEqualityDoes")
    var rng = SeededRandom(seed: seed)
    let keys: [AttributeKey] = [
      .inlinePresentationIntent, .link, .presentationIntent, "font", "color", "size", "lang",
    ]
    let values: [AttributeValue] = [
      .link("a"), .link("b"), .string("x"), .integer(1), .integer(2), .boolean(true),
    ]
    func randomSet() -> [AttributeKey: AttributeValue]? {
      if rng.next() % 8 == 0 { return nil }
      var set: [AttributeKey: AttributeValue] = [:]
      for _ in 0..<Int(rng.next() % 7) {
        set[keys[Int(rng.next() % UInt64(keys.count))]] = values[Int(rng.next() % 6)]
      }
      return set
    }
    var equalPairs = 0
    for _ in 0..<4_000 {
      let a = randomSet()
      // Half the time the same set, built again in another order, maybe
      // with one value changed.
      var b = randomSet()
      if rng.next() % 2 == 0, let a {
        var rebuilt: [AttributeKey: AttributeValue] = [:]
        for key in a.keys.reversed() { rebuilt[key] = a[key] }
        if rng.next() % 3 == 0, let key = a.keys.first { rebuilt[key] = .integer(99) }
        b = rebuilt
      }
      if a == b { equalPairs += 1 }
      #expect(
        _sameAttributes(a, b) == (a == b),
        "\(String(describing: a)) \(String(describing: b)), SEED=\(seed)")
    }
    #expect(equalPairs > 500)
  }

  /// A replacement's runs are checked against its text as a string (walked
  /// once, not made a rope): the same runs pass, and the same are refused
  /// with the same error, as against the rope of that text.
  @Test func runsCheckedOnAStringAsOnARope() {
    let seed = TestSettings.seed("AttributeTests.runsCheckedOnAStringAsOnARope")
    var rng = SeededRandom(seed: seed)
    var refused = 0
    for _ in 0..<2_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...12, using: &rng) {
        text += Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &rng)]
      }
      let length = text.utf16.count
      var runs: [AttributeRun] = []
      var at = Int.random(in: -1...1, using: &rng)
      for _ in 0..<Int.random(in: 0...4, using: &rng) {
        let end = at + Int.random(in: 0...4, using: &rng)
        if at <= end { runs.append(AttributeRun(at..<end, [.link: .link("u")])) }
        at = end + Int.random(in: -1...2, using: &rng)
        if at > length + 2 { break }
      }
      let onRope = Result { () throws(DocumentError) in
        try AttributeRun.check(runs, in: Rope(text), of: "s")
      }
      let onString = Result { () throws(DocumentError) in
        try AttributeRun.check(runs, in: text, of: "s")
      }
      if case .failure = onRope { refused += 1 }
      #expect(
        String(describing: onString) == String(describing: onRope),
        "\(text.debugDescription) \(runs.map(\.range)), SEED=\(seed)")
    }
    #expect(refused > 200)
  }

  @Test func theEditRuleCaseByCase() throws {
    let document = Document()
    try document.add(
      "t", text: "abcd",
      attributes: [AttributeRun(0..<2, [.inlinePresentationIntent: Self.bold])])
    func runs() throws -> [AttributeRun] {
      let storage = try document.content.storage("t")
      return storage.attributeRuns(in: 0..<storage.length)
    }
    try document.edit("t", range: 2..<2, with: "X")  // after "ab": bold
    #expect(try runs() == [AttributeRun(0..<3, [.inlinePresentationIntent: Self.bold])])
    try document.edit("t", range: 0..<0, with: "Y")  // at the start: the unit after
    #expect(try runs() == [AttributeRun(0..<4, [.inlinePresentationIntent: Self.bold])])
    try document.edit("t", range: 3..<5, with: "Z")  // first replaced unit "X": bold
    #expect(try runs() == [AttributeRun(0..<4, [.inlinePresentationIntent: Self.bold])])
    try document.edit("t", range: 5..<5, with: "W")  // after "d": none
    #expect(String(try document.content.storage("t").text) == "YabZdW")
    #expect(try runs() == [AttributeRun(0..<4, [.inlinePresentationIntent: Self.bold])])
    try document.edit("t", range: 1..<2, with: "q", attributes: [:])  // given: none
    #expect(
      try runs() == [
        AttributeRun(0..<1, [.inlinePresentationIntent: Self.bold]),
        AttributeRun(2..<4, [.inlinePresentationIntent: Self.bold]),
      ])
    try document.edit("t", range: 0..<6, with: "")
    try document.edit("t", range: 0..<0, with: "new")  // an empty text: none
    #expect(try runs() == [])
    // The exclusion: an insertion at the edge of an excluded run is not
    // excluded, even where a bold run goes on.
    try document.setAttributes([.inlinePresentationIntent: Self.bold], in: "t", range: 0..<3)
    try document.setExcluded(true, in: "t", range: 0..<3)
    try document.edit("t", range: 3..<3, with: "!")
    let storage = try document.content.storage("t")
    #expect(storage.excludedRanges == [0..<3])
    #expect(
      storage.attributeRuns(in: 0..<4) == [
        AttributeRun(0..<4, [.inlinePresentationIntent: Self.bold])
      ])
  }

  /// A notes app's document: a title (a header), a body with a header, a
  /// bulleted list and bold words. Every scope's contexts carry the runs of
  /// their text, relative to it.
  @Test func contextsCarryTheirRuns() throws {
    let document = Document()
    try document.add(
      "title", text: "Groceries\n",
      attributes: [AttributeRun(0..<10, [.presentationIntent: Self.header])])
    let body = "Today\nmilk and bread\neggs\n"
    try document.add(
      "body", text: Rope(body),
      attributes: [
        AttributeRun(0..<6, [.presentationIntent: Self.header]),
        AttributeRun(
          6..<10, [.presentationIntent: Self.item, .inlinePresentationIntent: Self.bold]),
        AttributeRun(10..<21, [.presentationIntent: Self.item]),
        AttributeRun(21..<26, [.presentationIntent: Self.item, Self.font: .boolean(true)]),
      ])
    try document.select([SelectionRange("body", 11..<14)])
    let selected = try document.startSession(scope: .userSelection).contexts
    #expect(selected.count == 1)
    #expect(selected[0].storageRange == 6..<21)
    #expect(
      selected[0].attributes == [
        AttributeRun(
          0..<4, [.presentationIntent: Self.item, .inlinePresentationIntent: Self.bold]),
        AttributeRun(4..<15, [.presentationIntent: Self.item]),
      ])
    let whole = try document.startSession(scope: .fullDocument).contexts
    #expect(
      whole.map(\.attributes) == [
        [AttributeRun(0..<10, [.presentationIntent: Self.header])],
        try document.content.storage("body").attributeRuns(in: 0..<26),
      ])
    try document.setVisible(["body": 22..<23])
    let visible = try document.startSession(scope: .visibleArea).contexts
    #expect(
      visible[0].attributes == [
        AttributeRun(0..<5, [.presentationIntent: Self.item, Self.font: .boolean(true)])
      ])
  }

  /// What a replacement's attributes do under each result option: ignored
  /// under plain text; inline intents and links decided under rich text;
  /// block intents given where given with presentation intents (lists and
  /// tables only with their options); a host's key never.
  @Test func replacementsUnderEachResultOption() throws {
    let given = [
      AttributeRun(
        0..<3,
        [
          .inlinePresentationIntent: Self.italic, .link: Self.link, .presentationIntent: Self.item,
          Self.font: .string("Comic"),
        ]),
      AttributeRun(3..<6, [.presentationIntent: Self.cell]),
    ]
    // Before: "xx" bold in a header, with the host's font.
    let before: [AttributeKey: AttributeValue] = [
      .inlinePresentationIntent: Self.bold, .presentationIntent: Self.header,
      Self.font: .integer(9),
    ]
    func replaced(_ options: ResultOptions) throws -> [AttributeRun] {
      let document = Document()
      try document.add("s", text: "axxb", attributes: [AttributeRun(0..<4, before)])
      try document.select([SelectionRange("s", 1..<3)])
      let context = try #require(
        try document.startSession(scope: .userSelection, resultOptions: options).contexts.first)
      _ = try document.replace(context: context.id, range: 1..<3, with: "abcdef", attributes: given)
      let storage = try document.content.storage("s")
      #expect(String(storage.text) == "aabcdefb")
      return storage.attributeRuns(in: 1..<7)
    }
    // The edit rule alone: the first replaced unit's attributes.
    #expect(try replaced(.plainText) == [AttributeRun(0..<6, before)])
    #expect(try replaced([]) == [AttributeRun(0..<6, before)])
    var rich = before
    rich[.inlinePresentationIntent] = Self.italic
    rich[.link] = Self.link
    var richRest = before
    richRest[.inlinePresentationIntent] = nil
    #expect(try replaced(.richText) == [AttributeRun(0..<3, rich), AttributeRun(3..<6, richRest)])
    // Blocks: the list's components only with `list`, the table's only with
    // `table`; a block left with no component is none given (the rule's).
    var blocks = rich
    blocks[.presentationIntent] = .presentationIntent(
      PresentationIntent([.init(.paragraph, identity: 4)]))
    #expect(
      try replaced(.presentationIntent) == [
        AttributeRun(0..<3, blocks), AttributeRun(3..<6, richRest),
      ])
    var listed = rich
    listed[.presentationIntent] = Self.item
    var tabled = richRest
    tabled[.presentationIntent] = Self.cell
    #expect(
      try replaced([.presentationIntent, .list, .table]) == [
        AttributeRun(0..<3, listed), AttributeRun(3..<6, tabled),
      ])
  }

  /// Undo, redo and revert give back the text and its attributes exactly,
  /// through replacements that overlap, under every option, with the
  /// person setting attributes elsewhere.
  @Test func undoRedoAndRevertGiveBackAttributes() throws {
    let seed = TestSettings.seed("AttributeTests.undoRedoAndRevertGiveBackAttributes")
    var rng = SeededRandom(seed: seed)
    for round in 0..<TestSettings.iterations(40) {
      let document = Document()
      var text = (0..<12).map { _ in
        Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &rng)]
      }
      .joined()
      var model = Model(length: text.utf16.count)
      for _ in 0..<3 {
        let bounds = Self.boundaries(text)
        let a = bounds[Int.random(in: 0..<bounds.count, using: &rng)]
        let b = bounds[Int.random(in: 0..<bounds.count, using: &rng)]
        model.set(Self.randomAttributes(&rng).mapValues { Optional($0) }, in: min(a, b)..<max(a, b))
      }
      let initial = Self.runs(model, 0..<model.units.count)
      try document.add("s", text: Rope(text), attributes: initial)
      let options = ResultOptions.named[Int.random(in: 0..<5, using: &rng)].option
      let context = try #require(
        try document.startSession(scope: .fullDocument, resultOptions: options).contexts.first)
      var states: [(String, [AttributeRun])] = [(text, initial)]
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        let live = try document.liveContext(context.id)
        let bounds = Self.boundaries(String(live.text))
        let a = bounds[Int.random(in: 0..<bounds.count, using: &rng)]
        let b = bounds[Int.random(in: 0..<bounds.count, using: &rng)]
        let new = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
          Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &rng)]
        }.joined()
        let runs = Self.randomAttributes(&rng)
        _ = try document.replace(
          context: context.id, range: min(a, b)..<max(a, b), with: new,
          attributes: runs.isEmpty ? [] : [AttributeRun(0..<new.utf16.count, runs)])
        let storage = try document.content.storage("s")
        text = String(storage.text)
        states.append((text, storage.attributeRuns(in: 0..<storage.length)))
      }
      func now() throws -> (String, [AttributeRun]) {
        let storage = try document.content.storage("s")
        return (String(storage.text), storage.attributeRuns(in: 0..<storage.length))
      }
      for expected in states.dropLast().reversed() {
        try document.undo()
        #expect(try now() == expected, "round \(round), SEED=\(seed)")
      }
      for expected in states.dropFirst() {
        try document.redo()
        #expect(try now() == expected, "round \(round), SEED=\(seed)")
      }
      #expect(try document.revert().replacementCount == states.count - 1)
      #expect(try now() == states[0], "round \(round), SEED=\(seed)")
    }
  }

  /// Values of the wrong kind, malformed intents, runs that overlap, run
  /// past their text or split a surrogate pair: typed errors, nothing
  /// changes.
  @Test func hostileAttributesAreRefused() throws {
    let document = Document()
    try document.add("s", text: "a😀b", attributes: [AttributeRun(0..<1, [.link: Self.link])])
    let before = try document.content.storage("s")
    let wrong: [[AttributeKey: AttributeValue]] = [
      [.link: .integer(3)],
      [.inlinePresentationIntent: .string("bold")],
      [.presentationIntent: .boolean(true)],
      [Self.font: Self.header],
      [Self.font: .link("x")],
      [.inlinePresentationIntent: .inlinePresentationIntent([])],
      [.inlinePresentationIntent: .inlinePresentationIntent(InlinePresentationIntent(rawValue: 8))],
      [.presentationIntent: .presentationIntent(PresentationIntent([]))],
      [
        .presentationIntent: .presentationIntent(
          PresentationIntent([.init(.header(level: 7), identity: 1)]))
      ],
      [
        .presentationIntent: .presentationIntent(
          PresentationIntent([.init(.listItem(ordinal: -1), identity: 1)]))
      ],
    ]
    for attributes in wrong {
      #expect(throws: DocumentError.self, "\(attributes)") {
        try document.edit("s", range: 0..<0, with: "x", attributes: attributes)
      }
      #expect(throws: DocumentError.self, "\(attributes)") {
        try document.setAttributes(attributes.mapValues { Optional($0) }, in: "s", range: 0..<1)
      }
      #expect(throws: DocumentError.self, "\(attributes)") {
        try document.add("t", text: "ab", attributes: [AttributeRun(0..<1, attributes)])
      }
    }
    let badRuns: [[AttributeRun]] = [
      [AttributeRun(0..<2, [.link: Self.link]), AttributeRun(1..<3, [.link: Self.link])],
      [AttributeRun(0..<9, [.link: Self.link])],
      [AttributeRun(2..<3, [.link: Self.link])],  // inside the pair of 😀 (1..<3)
      [AttributeRun(-1..<1, [.link: Self.link])],
    ]
    for runs in badRuns {
      #expect(throws: DocumentError.self, "\(runs)") {
        try document.add("t", text: "a😀b", attributes: runs)
      }
    }
    // A text without surrogate pairs has no bound to seek: a run past its
    // end is refused all the same.
    for runs in badRuns where runs.count == 1 && runs[0].range.upperBound > 3 {
      #expect(throws: DocumentError.self, "\(runs)") {
        try document.add("t", text: "abc", attributes: runs)
      }
    }
    #expect(throws: DocumentError.overlappingRuns(1..<3)) {
      try document.add(
        "t", text: "abc",
        attributes: [
          AttributeRun(0..<2, [.link: Self.link]), AttributeRun(1..<3, [.link: Self.link]),
        ])
    }
    #expect(
      throws: DocumentError.invalidAttribute(
        .link, reason: "the key 'link' takes a value of its own kind")
    ) {
      try document.setAttributes([.link: .integer(1)], in: "s", range: 0..<1)
    }
    #expect(throws: DocumentError.self) {
      try document.setAttributes([.link: Self.link], in: "s", range: 2..<3)
    }
    #expect(throws: DocumentError.unknownStorage("nope")) {
      try document.setAttributes([.link: Self.link], in: "nope", range: 0..<0)
    }
    let after = try document.content.storage("s")
    #expect(String(after.text) == String(before.text))
    #expect(after.version == before.version)
    #expect(after.attributeRuns(in: 0..<4) == before.attributeRuns(in: 0..<4))
    #expect(throws: DocumentError.unknownStorage("t")) { try document.content.storage("t") }
    // A tool's runs are checked against its text.
    let context = try #require(
      try document.startSession(scope: .fullDocument, resultOptions: .richText).contexts.first)
    #expect(throws: DocumentError.self) {
      try document.replace(
        context: context.id, range: 0..<1, with: "xy",
        attributes: [AttributeRun(0..<5, [.link: Self.link])])
    }
    #expect(String(try document.content.storage("s").text) == "a😀b")
  }
}

/// The example of the RichText DocC article, step by step, so that what
/// the article says is what the engine does.
@Suite struct RichTextArticleTests {
  // The article's attributes are those of the suite above.
  static let (header, item) = (AttributeTests.header, AttributeTests.item)
  static let (bold, italic) = (AttributeTests.bold, AttributeTests.italic)

  @Test func theArticlesSession() throws {
    let (header, item, bold, italic) = (Self.header, Self.item, Self.bold, Self.italic)
    let document = Document()
    try document.add(
      "body", text: "Groceries\nmilk and bread\n",
      attributes: [
        AttributeRun(0..<10, [.presentationIntent: header]),
        AttributeRun(10..<14, [.presentationIntent: item, .inlinePresentationIntent: bold]),
        AttributeRun(14..<25, [.presentationIntent: item]),
      ])
    try document.select([SelectionRange("body", 15..<18)])  // "and"
    let session = try document.startSession(
      scope: .userSelection, resultOptions: [.richText, .presentationIntent, .list])
    let context = try #require(session.contexts.first)
    #expect(String(context.text) == "milk and bread\n")
    #expect(context.range == 5..<8)
    #expect(
      context.attributes == [
        AttributeRun(0..<4, [.presentationIntent: item, .inlinePresentationIntent: bold]),
        AttributeRun(4..<15, [.presentationIntent: item]),
      ])

    // The person types while the tool works: the new text takes the
    // attributes of the unit before it (the header's).
    try document.edit("body", range: 9..<9, with: "!")
    // The tool answers on the context it was given: "bread" → "butter",
    // in italics. It decides the inline intent; the block stays the item's.
    let result = try document.replace(
      context: context.id, range: 9..<14, with: "butter",
      attributes: [AttributeRun(0..<6, [.inlinePresentationIntent: italic])], basis: 0)
    #expect(result.storageRange == 20..<26)
    let body = try document.content.storage("body")
    #expect(String(body.text) == "Groceries!\nmilk and butter\n")
    #expect(
      body.attributeRuns(in: 0..<body.length) == [
        AttributeRun(0..<11, [.presentationIntent: header]),
        AttributeRun(11..<15, [.presentationIntent: item, .inlinePresentationIntent: bold]),
        AttributeRun(15..<20, [.presentationIntent: item]),
        AttributeRun(20..<26, [.presentationIntent: item, .inlinePresentationIntent: italic]),
        AttributeRun(26..<27, [.presentationIntent: item]),
      ])

    // Undo gives back the text and its attributes exactly.
    try document.undo()
    let undone = try document.content.storage("body")
    #expect(String(undone.text) == "Groceries!\nmilk and bread\n")
    #expect(
      undone.attributeRuns(in: 0..<undone.length) == [
        AttributeRun(0..<11, [.presentationIntent: header]),
        AttributeRun(11..<15, [.presentationIntent: item, .inlinePresentationIntent: bold]),
        AttributeRun(15..<26, [.presentationIntent: item]),
      ])
  }

  /// The article's replacement as one value: an ``AttributedText`` in, the
  /// attributed text that landed out (the runs the result options kept,
  /// and the edit rule's for the rest), and undo puts back the same shape.
  @Test func theArticlesReplacementAsOneValue() throws {
    let (item, bold, italic) = (Self.item, Self.bold, Self.italic)
    let document = Document()
    try document.add(
      "body", text: "Groceries\nmilk and bread\n",
      attributes: [
        AttributeRun(0..<10, [.presentationIntent: Self.header]),
        AttributeRun(10..<14, [.presentationIntent: item, .inlinePresentationIntent: bold]),
        AttributeRun(14..<25, [.presentationIntent: item]),
      ])
    try document.select([SelectionRange("body", 15..<18)])
    // Without lists among the options, the tool's list item is dropped and
    // the edit rule's kept; its link is kept (rich text).
    let session = try document.startSession(scope: .userSelection, resultOptions: [.richText])
    let context = try #require(session.contexts.first)
    #expect(
      context.attributedText
        == (try AttributedText(
          "milk and bread\n",
          runs: [
            AttributeRun(0..<4, [.presentationIntent: item, .inlinePresentationIntent: bold]),
            AttributeRun(4..<15, [.presentationIntent: item]),
          ])))
    let link = AttributeValue.link("https://example.com/butter")
    let answer = try AttributedText(
      "butter 🧈",
      runs: [
        AttributeRun(0..<6, [.inlinePresentationIntent: italic]),
        AttributeRun(7..<9, [.link: link, .presentationIntent: Self.header]),
      ])
    let (result, landed) = try document.replace(
      context: context.id, range: 9..<14, with: answer)
    #expect(result.storageRange == 19..<28)
    #expect(
      landed
        == (try AttributedText(
          "butter 🧈",
          runs: [
            AttributeRun(0..<6, [.presentationIntent: item, .inlinePresentationIntent: italic]),
            AttributeRun(6..<7, [.presentationIntent: item]),
            AttributeRun(7..<9, [.presentationIntent: item, .link: link]),
          ])))
    let body = try document.content.storage("body")
    #expect(body.attributedText(in: 19..<28) == landed)
    // Out of range, the storage's text is clamped, not trapped on.
    #expect(body.attributedText(in: 26..<99).text == "🧈\n")
    #expect(body.attributedText(in: -5..<2).text == "Gr")

    try document.undo()
    let undone = try document.content.storage("body")
    #expect(
      undone.attributedText(in: 0..<undone.length)
        == (try AttributedText(
          "Groceries\nmilk and bread\n",
          runs: [
            AttributeRun(0..<10, [.presentationIntent: Self.header]),
            AttributeRun(10..<14, [.presentationIntent: item, .inlinePresentationIntent: bold]),
            AttributeRun(14..<25, [.presentationIntent: item]),
          ])))
  }
}
