import Testing
import TextBoundaries
import TextRope
import _EngineTestSupport

/// A text and the words ICU finds in it.
struct WordCase: CustomTestStringConvertible, Sendable {
  var name: String
  var text: String
  var words: [String]

  var testDescription: String { name }

  static let all: [WordCase] = [
    WordCase(
      name: "English with apostrophes and numbers",
      text: "Don't panic, it's 3.14 or 1,000!",
      words: ["Don't", "panic", "it's", "3.14", "or", "1,000"]),
    WordCase(
      name: "punctuation inside and between words",
      text: "foo.bar foo_bar $5 e-mail 2024-01-01",
      words: ["foo.bar", "foo_bar", "5", "e", "mail", "2024", "01", "01"]),
    WordCase(
      name: "Chinese and Japanese (dictionary)",
      text: "我喜欢中文。日本語のテキストです。",
      words: ["我", "喜欢", "中文", "日本語", "の", "テキスト", "です"]),
    WordCase(name: "an ideograph run", text: "中文字符", words: ["中文", "字符"]),
    WordCase(
      name: "Thai (dictionary)", text: "สวัสดีครับ ภาษาไทย",
      words: ["สวัสดี", "ครับ", "ภาษา", "ไทย"]),
    WordCase(name: "Hangul", text: "한국어 텍스트", words: ["한국어", "텍스트"]),
    WordCase(name: "emoji are not words", text: "I ❤️ 👨‍👩‍👧 🇫🇷!", words: ["I"]),
    WordCase(
      name: "combining marks", text: "e\u{301}te\u{301} cafe\u{301}",
      words: ["e\u{301}te\u{301}", "cafe\u{301}"]),
    WordCase(
      name: "CRLF and paragraph separator", text: "one\r\ntwo\u{2029}three",
      words: ["one", "two", "three"]),
    WordCase(name: "non-BMP letters", text: "𝒜𝒷𝒸 𐌰𐌱𐌲", words: ["𝒜𝒷𝒸", "𐌰𐌱𐌲"]),
    WordCase(name: "spaces only", text: " \t ,;\n", words: []),
  ]
}

/// What every word query should answer, derived from the boundaries and
/// words ICU finds reading the whole text from one contiguous buffer.
struct WordOracle {
  var count: Int
  var boundaries: [Int]
  var words: [Range<Int>]

  init(_ text: String) throws {
    count = text.utf16.count
    (boundaries, words) = try WordBoundaries._boundariesAndWords(ofContiguous: text)
  }

  func word(containing offset: Int) -> Range<Int>? {
    words.first { $0.contains(offset) } ?? words.first { $0.upperBound == offset }
  }

  func wordStart(before offset: Int) -> Int {
    words.last { $0.lowerBound < offset }?.lowerBound ?? 0
  }

  func wordEnd(after offset: Int) -> Int {
    words.first { $0.upperBound > offset }?.upperBound ?? count
  }
}

/// Checks every word query of `rope` at every valid offset (and `words(in:)`
/// over `ranges`) against ICU over `text` in one buffer.
func expectWords(
  of rope: Rope, matching text: String, ranges: [Range<Int>] = [],
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let oracle = try WordOracle(text)
  let words = WordBoundaries(rope)
  let length = rope.utf16Count
  #expect(length == oracle.count, sourceLocation: sourceLocation)
  #expect(try words.words(in: 0..<length) == oracle.words, sourceLocation: sourceLocation)
  for range in ranges {
    #expect(
      try words.words(in: range) == oracle.words.filter { $0.overlaps(range) },
      "words in \(range)", sourceLocation: sourceLocation)
  }
  for offset in 0...length where (try? rope.utf8Offset(of: offset, in: .utf16)) != nil {
    let at = "at \(offset)"
    #expect(
      try words.isBoundary(offset) == oracle.boundaries.contains(offset), "\(at)",
      sourceLocation: sourceLocation)
    #expect(
      try words.boundary(after: offset) == oracle.boundaries.first { $0 > offset }, "\(at)",
      sourceLocation: sourceLocation)
    #expect(
      try words.boundary(before: offset) == oracle.boundaries.last { $0 < offset }, "\(at)",
      sourceLocation: sourceLocation)
    #expect(
      try words.word(containing: offset) == oracle.word(containing: offset), "\(at)",
      sourceLocation: sourceLocation)
    #expect(
      try words.wordStart(before: offset) == oracle.wordStart(before: offset), "\(at)",
      sourceLocation: sourceLocation)
    #expect(
      try words.wordEnd(after: offset) == oracle.wordEnd(after: offset), "\(at)",
      sourceLocation: sourceLocation)
  }
}

extension Rope {
  /// Whether both bounds of `range` are in bounds and outside surrogate
  /// pairs.
  func isValidUTF16Range(_ range: Range<Int>) -> Bool {
    (try? utf8Offset(of: range.lowerBound, in: .utf16)) != nil
      && (try? utf8Offset(of: range.upperBound, in: .utf16)) != nil
  }
}

/// The substrings of `text` at UTF-16 `ranges`.
func substrings(of text: String, at ranges: [Range<Int>]) -> [String] {
  let units = Array(text.utf16)
  return ranges.map { String(decoding: units[$0], as: UTF16.self) }
}

/// A caret motion: Ctrl-Left and Ctrl-Right from `offset`.
struct MotionCase: CustomTestStringConvertible, Sendable {
  var offset: Int
  var start: Int
  var end: Int

  var testDescription: String { "caret at \(offset)" }
}

/// One of the queries, to run on a bad offset.
enum WordQuery: String, CaseIterable, Sendable {
  case isBoundary, boundaryAfter, boundaryBefore, words, wordContaining, wordStart, wordEnd

  func run(_ words: WordBoundaries, at offset: Int) throws(BoundaryError) {
    switch self {
    case .isBoundary: _ = try words.isBoundary(offset)
    case .boundaryAfter: _ = try words.boundary(after: offset)
    case .boundaryBefore: _ = try words.boundary(before: offset)
    case .words: _ = try words.words(in: min(offset, 0)..<max(offset, 0))
    case .wordContaining: _ = try words.word(containing: offset)
    case .wordStart: _ = try words.wordStart(before: offset)
    case .wordEnd: _ = try words.wordEnd(after: offset)
    }
  }
}

@Suite struct WordBoundariesTests {
  @Test(arguments: WordCase.all)
  func wordsOfARealText(_ test: WordCase) throws {
    let rope = Rope(test.text)
    let words = try rope.wordBoundaries.words(in: 0..<rope.utf16Count)
    #expect(substrings(of: test.text, at: words) == test.words)
    try expectWords(of: rope, matching: test.text)
  }

  /// The same texts, repeated into ropes of many chunks (test builds cut
  /// chunks at 8 bytes), and cut at every scalar boundary in turn.
  @Test(arguments: WordCase.all)
  func wordsAcrossChunkBoundaries(_ test: WordCase) throws {
    let text = Array(repeating: test.text, count: 12).joined(separator: " ")
    let rope = Rope(text)
    #expect(rope.chunks.reduce(0) { n, _ in n + 1 } > 10)
    let length = rope.utf16Count
    let ranges = [0..<length, 3..<length - 3, length / 3..<length / 2, 7..<8, 8..<9]
    try expectWords(
      of: rope, matching: text,
      ranges: ranges.filter { rope.isValidUTF16Range($0) })
    var utf8 = 0
    let bytes = Array(test.text.utf8)
    for scalar in test.text.unicodeScalars.dropLast() {
      utf8 += UTF8.width(scalar)
      let cut = Rope._keepingChunkBoundary(
        try Rope(validating: bytes[..<utf8]), try Rope(validating: bytes[utf8...]))
      try expectWords(of: cut, matching: test.text)
    }
  }

  static let motionText = "Hello, don't  panic!"

  /// Ctrl-Left and Ctrl-Right over "Hello, don't  panic!": words at 0..<5,
  /// 7..<12 and 14..<19.
  @Test(arguments: [
    MotionCase(offset: 0, start: 0, end: 5),
    MotionCase(offset: 3, start: 0, end: 5),
    MotionCase(offset: 5, start: 0, end: 12),
    MotionCase(offset: 6, start: 0, end: 12),
    MotionCase(offset: 7, start: 0, end: 12),
    MotionCase(offset: 9, start: 7, end: 12),
    MotionCase(offset: 12, start: 7, end: 19),
    MotionCase(offset: 14, start: 7, end: 19),
    MotionCase(offset: 19, start: 14, end: 20),
    MotionCase(offset: 20, start: 14, end: 20),
  ])
  func moveByWord(_ test: MotionCase) throws {
    let words = WordBoundaries(Rope(Self.motionText))
    #expect(try words.wordStart(before: test.offset) == test.start)
    #expect(try words.wordEnd(after: test.offset) == test.end)
  }

  @Test func wordContainingACaret() throws {
    let words = WordBoundaries(Rope(Self.motionText))
    #expect(try words.word(containing: 0) == 0..<5)
    #expect(try words.word(containing: 4) == 0..<5)
    #expect(try words.word(containing: 5) == 0..<5)  // just after "Hello"
    #expect(try words.word(containing: 6) == nil)  // after ", "
    #expect(try words.word(containing: 9) == 7..<12)
    #expect(try words.word(containing: 20) == nil)
    #expect(try words.word(containing: 19) == 14..<19)
    // Between two words that touch, the one after the caret.
    let touching = WordBoundaries(Rope("中文字符"))
    #expect(try touching.word(containing: 2) == 2..<4)
    #expect(try touching.word(containing: 4) == 2..<4)
  }

  @Test func wordsInARange() throws {
    let words = WordBoundaries(Rope(Self.motionText))
    #expect(try words.words(in: 2..<3) == [0..<5])
    #expect(try words.words(in: 4..<8) == [0..<5, 7..<12])
    #expect(try words.words(in: 5..<7) == [])
    #expect(try words.words(in: 5..<5) == [])
    #expect(try words.words(in: 3..<3) == [])  // an empty range intersects nothing
    #expect(try words.words(in: 12..<20) == [14..<19])
  }

  @Test func emptyText() throws {
    let words = WordBoundaries(Rope())
    #expect(try words.isBoundary(0))
    #expect(try words.boundary(after: 0) == nil)
    #expect(try words.boundary(before: 0) == nil)
    #expect(try words.words(in: 0..<0) == [])
    #expect(try words.word(containing: 0) == nil)
    #expect(try words.wordStart(before: 0) == 0)
    #expect(try words.wordEnd(after: 0) == 0)
    #expect(try WordBoundaries._boundariesAndWords(ofContiguous: "") == ([0], []))
  }

  @Test func locales() throws {
    let text = "สวัสดีครับ don't"
    for locale in ["", "en_US", "th", "ja", "not a locale"] {
      let rope = Rope(text)
      let words = WordBoundaries(rope, locale: locale)
      #expect(words.locale == locale)
      #expect(
        substrings(of: text, at: try words.words(in: 0..<rope.utf16Count)) == [
          "สวัสดี", "ครับ", "don't",
        ])
    }
  }

  @Test(
    arguments: WordQuery.allCases,
    [
      (offset: -1, error: RopeError.offsetOutOfBounds(offset: -1, unit: .utf16, count: 4)),
      (offset: 5, error: .offsetOutOfBounds(offset: 5, unit: .utf16, count: 4)),
      (offset: Int.max, error: .offsetOutOfBounds(offset: Int.max, unit: .utf16, count: 4)),
      (offset: 2, error: .splitsSurrogatePair(utf16Offset: 2)),
    ])
  func invalidOffsetsAreErrors(_ query: WordQuery, _ bad: (offset: Int, error: RopeError)) {
    let words = WordBoundaries(Rope("a😀b"))
    #expect(throws: BoundaryError.invalidOffset(bad.error)) {
      try query.run(words, at: bad.offset)
    }
  }

  /// A rope of 256 MB (the same sentence, doubled into a tree that shares
  /// its halves): every query reads only the chunks near its offsets.
  @Test func hugeRope() throws {
    let sentence = "The quick brown fox doesn't jump over 1,000 lazy dogs. "  // 55 units
    var rope = Rope(sentence)
    for _ in 0..<22 { rope = rope + rope }
    let length = rope.utf16Count
    #expect(length == 55 << 22)
    let words = WordBoundaries(rope)
    let base = 55 * 3_000_000  // the start of a sentence, far in
    #expect(try words.word(containing: base + 22) == base + 20..<base + 27)  // "doesn't"
    #expect(
      try words.words(in: base + 36..<base + 44) == [base + 33..<base + 37, base + 38..<base + 43])
    #expect(try words.wordStart(before: base) == base - 6)  // "dogs"
    #expect(try words.wordEnd(after: base - 2) == base + 3)  // "The"
    #expect(try words.wordStart(before: length) == length - 6)
    #expect(try words.wordEnd(after: length - 2) == length)
    #expect(try words.isBoundary(base + 4))
    #expect(try words.boundary(after: length - 1) == length)
    #expect(try words.boundary(before: 1) == 0)

    // Past ICU's 32-bit offsets: a typed error, not a trap.
    let tooLong = rope + rope + rope + rope + rope + rope + rope + rope + rope + rope
    #expect(throws: BoundaryError.textTooLong(utf16Count: tooLong.utf16Count)) {
      try WordBoundaries(tooLong).wordEnd(after: 0)
    }
  }

  @Test func wordsFromManyTasks() async throws {
    let text = String(repeating: "Don't panic, สวัสดีครับ 中文字符 3.14! ", count: 20)
    let expected = try WordOracle(text).words
    try await withThrowingTaskGroup(of: [Range<Int>].self) { group in
      for _ in 0..<8 {
        group.addTask {
          let rope = Rope(text)
          return try WordBoundaries(rope).words(in: 0..<rope.utf16Count)
        }
      }
      for try await words in group {
        #expect(words == expected)
      }
    }
  }

  /// Random texts cut into random chunks, against ICU over the whole text
  /// in one buffer.
  @Test func randomizedAgainstContiguousText() throws {
    var rng = SeededRandom(seed: TestSettings.seed("words vs contiguous ICU"))
    let alphabet: [String] = [
      "a", "Z", "don", "'", "t", " ", "  ", ".", ",", "3", "14", "1,000", "-", "_", "!", "\r",
      "\n", "\r\n", "\u{2029}", "\t", "é", "e", "\u{301}", "\u{200D}", "\u{FE0F}", "👨", "👩",
      "👋", "\u{1F3FD}", "🇫", "🇷", "中", "文", "字", "符", "我", "日本", "の", "テキスト", "カ",
      "สวัสดี", "ครับ", "ภาษา", "ไทย", "한국어", "𝒜", "𝒷", "𐌰", "𐌱", "Ω", "ж", "ש", "ب",
      "\u{AD}", "\u{200B}", "@", "\u{3000}", "。", "😀",
    ]
    for _ in 0..<TestSettings.iterations(150) {
      var text = ""
      for _ in 0..<Int.random(in: 0...24, using: &rng) {
        text += alphabet.randomElement(using: &rng) ?? "a"
      }
      let scalars = Array(text.unicodeScalars)
      var cuts = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
        Int.random(in: 0...scalars.count, using: &rng)
      }
      cuts.sort()
      let rope = chunkedRope(text, cutAtScalars: cuts)
      #expect(String(rope) == text)
      let length = rope.utf16Count
      var ranges: [Range<Int>] = []
      for _ in 0..<4 where length > 0 {
        let a = Int.random(in: 0...length, using: &rng)
        let b = Int.random(in: 0...length, using: &rng)
        let range = min(a, b)..<max(a, b)
        if rope.isValidUTF16Range(range) { ranges.append(range) }
      }
      try expectWords(of: rope, matching: text, ranges: ranges)
    }
  }
}
