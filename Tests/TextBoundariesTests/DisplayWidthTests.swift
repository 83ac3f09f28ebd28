import Testing
import TextBoundaries
import _EngineTestSupport

/// A text and the columns a terminal gives it.
struct WidthCase: CustomTestStringConvertible, Sendable {
  var name: String
  var text: String
  var columns: Int

  init(_ name: String, _ text: String, _ columns: Int) {
    self.name = name
    self.text = text
    self.columns = columns
  }

  var testDescription: String { "\(name) \(text.debugDescription)" }

  static let scalars: [WidthCase] = [
    WidthCase("ASCII letter", "a", 1),
    WidthCase("ASCII tilde", "~", 1),
    WidthCase("space", " ", 1),
    WidthCase("NUL", "\u{0}", 0),
    WidthCase("tab", "\t", 0),
    WidthCase("line feed", "\n", 0),
    WidthCase("escape", "\u{1B}", 0),
    WidthCase("DEL", "\u{7F}", 0),
    WidthCase("C1 NEL", "\u{85}", 0),
    WidthCase("C1 CSI", "\u{9B}", 0),
    WidthCase("Latin-1", "é", 1),
    WidthCase("Greek", "Ω", 1),
    WidthCase("ambiguous ellipsis", "…", 1),
    WidthCase("euro", "€", 1),
    WidthCase("soft hyphen", "\u{AD}", 1),
    WidthCase("CJK ideograph", "中", 2),
    WidthCase("CJK extension B", "\u{20000}", 2),
    WidthCase("hiragana", "あ", 2),
    WidthCase("katakana", "ア", 2),
    WidthCase("halfwidth katakana", "ｱ", 1),
    WidthCase("ideographic space", "\u{3000}", 2),
    WidthCase("fullwidth A", "Ａ", 2),
    WidthCase("fullwidth yen", "￥", 2),
    WidthCase("Hangul syllable", "한", 2),
    WidthCase("Hangul leading consonant", "\u{1100}", 2),
    WidthCase("Hangul filler", "\u{1160}", 0),
    WidthCase("Hangul medial vowel", "\u{1161}", 0),
    WidthCase("Hangul final consonant", "\u{11A8}", 0),
    WidthCase("Hangul Jamo Extended-B vowel", "\u{D7B0}", 0),
    WidthCase("combining acute", "\u{301}", 0),
    WidthCase("Devanagari virama (Mn)", "\u{94D}", 0),
    WidthCase("Devanagari vowel sign (Mc)", "\u{93F}", 1),
    WidthCase("enclosing circle (Me)", "\u{20DD}", 0),
    WidthCase("keycap mark (Me)", "\u{20E3}", 0),
    WidthCase("zero width joiner", "\u{200D}", 0),
    WidthCase("zero width space", "\u{200B}", 0),
    WidthCase("byte order mark", "\u{FEFF}", 0),
    WidthCase("variation selector 16", "\u{FE0F}", 0),
    WidthCase("variation selector 15", "\u{FE0E}", 0),
    WidthCase("variation selector 17", "\u{E0100}", 0),
    WidthCase("tag", "\u{E0067}", 0),
    WidthCase("emoji", "😀", 2),
    WidthCase("emoji in plane 0", "⌚", 2),
    WidthCase("emoji with text presentation", "❤", 1),
    WidthCase("copyright", "©", 1),
    WidthCase("skin tone", "\u{1F3FD}", 2),
    WidthCase("regional indicator", "🇫", 2),
    WidthCase("mathematical script", "𝒜", 1),
    WidthCase("Gothic", "𐌰", 1),
    WidthCase("private use", "\u{E000}", 1),
    WidthCase("plane 15 private use", "\u{F0000}", 1),
  ]

  static let clusters: [WidthCase] = [
    WidthCase("empty", "", 0),
    WidthCase("letter and acute", "e\u{301}", 1),
    WidthCase("letter and two marks", "a\u{301}\u{302}", 1),
    WidthCase("lone combining mark", "\u{301}", 0),
    WidthCase("CR LF", "\r\n", 0),
    WidthCase("CJK and a mark", "中\u{301}", 2),
    WidthCase("Hangul jamo syllable", "\u{1100}\u{1161}\u{11A8}", 2),
    WidthCase("Hangul vowel and final", "\u{1161}\u{11A8}", 0),
    WidthCase("Devanagari conjunct", "क्षि", 1),
    WidthCase("prepended mark", "\u{600}1", 1),
    WidthCase("emoji", "👍", 2),
    WidthCase("emoji and skin tone", "👍🏽", 2),
    WidthCase("text emoji", "❤", 1),
    WidthCase("text emoji and FE0F", "❤\u{FE0F}", 2),
    WidthCase("smiley and FE0F", "☺\u{FE0F}", 2),
    WidthCase("emoji and FE0E", "☺\u{FE0E}", 1),
    WidthCase("letter and FE0F", "a\u{FE0F}", 1),
    WidthCase("text emoji and skin tone", "☝🏽", 2),
    WidthCase("family", "👨‍👩‍👧‍👦", 2),
    WidthCase("rainbow flag", "🏳️‍🌈", 2),
    WidthCase("ZWJ without FE0F", "🏳‍🌈", 2),
    WidthCase("heart on fire", "❤\u{FE0F}\u{200D}🔥", 2),
    WidthCase("woman bouncing ball", "⛹🏽‍♀️", 2),
    WidthCase("flag", "🇫🇷", 2),
    WidthCase("subdivision flag", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", 2),
    WidthCase("keycap", "1\u{FE0F}\u{20E3}", 2),
    WidthCase("keycap hash", "#\u{FE0F}\u{20E3}", 2),
    WidthCase("keycap without FE0F", "1\u{20E3}", 2),
    WidthCase("letter in a circle", "a\u{20DD}", 1),
  ]

  static let texts: [WidthCase] = [
    WidthCase("empty", "", 0),
    WidthCase("ASCII", "hello, world", 12),
    WidthCase("Japanese", "日本語のテキスト", 16),
    WidthCase("Korean", "한국어 텍스트", 13),
    WidthCase("fullwidth", "Ｈｅｌｌｏ", 10),
    WidthCase("decomposed accents", "e\u{301}te\u{301}", 3),
    WidthCase("emoji", "I ❤️ 👨‍👩‍👧 🇫🇷!", 11),
    WidthCase("keycaps", "1️⃣2️⃣", 4),
    WidthCase("controls take none", "a\tb\r\nc\u{1B}", 3),
    WidthCase("mixed", "naïve 中文 café 😀", 18),
    WidthCase("Thai", "สวัสดี", 4),
  ]
}

@Suite struct DisplayWidthTests {
  @Test(arguments: WidthCase.scalars)
  func scalar(_ test: WidthCase) {
    let scalars = Array(test.text.unicodeScalars)
    #expect(scalars.count == 1)
    for scalar in scalars {
      #expect(DisplayWidth.columns(of: scalar) == test.columns)
    }
    #expect(DisplayWidth.columns(ofCluster: test.text) == test.columns)
  }

  @Test(arguments: WidthCase.clusters)
  func cluster(_ test: WidthCase) {
    #expect(test.text.count <= 1, "one grapheme cluster")
    #expect(DisplayWidth.columns(ofCluster: test.text) == test.columns)
    #expect(DisplayWidth.columns(ofCluster: test.text[...]) == test.columns)
    if let character = test.text.first {
      #expect(DisplayWidth.columns(ofCluster: character) == test.columns)
    }
    #expect(DisplayWidth.columns(of: test.text) == test.columns)
  }

  @Test(arguments: WidthCase.texts)
  func text(_ test: WidthCase) {
    #expect(DisplayWidth.columns(of: test.text) == test.columns)
    #expect(DisplayWidth.columns(of: "<" + test.text + ">") == test.columns + 2)
    let padded = "xx" + test.text + "yy"
    #expect(DisplayWidth.columns(of: padded.dropFirst(2).dropLast(2)) == test.columns)
    #expect(test.text.reduce(0) { $0 + DisplayWidth.columns(ofCluster: $1) } == test.columns)
  }

  /// Every scalar of planes 0, 1, 2 and 14 assigned by Unicode 15 (ICU 72's
  /// version), against Swift's own general categories and emoji
  /// properties: the zero-width ones take none, emoji presentation takes 2,
  /// everything else at least 1.
  @Test func everyScalarAgreesWithSwiftsProperties() {
    // Properties that a later Unicode changed (Swift's is newer than ICU
    // 72's): U+1171E AHOM CONSONANT SIGN MEDIAL RA, Mn in 15.0, Mc in 16.0.
    let changedSince15: Set<UInt32> = [0x1171E]
    var disagreements: [String] = []
    let planes: [ClosedRange<UInt32>] = [
      0...0xFFFF, 0x1_0000...0x1_FFFF, 0x2_0000...0x2_FFFF, 0xE_0000...0xE_FFFF,
    ]
    for value in planes.joined() {
      guard !changedSince15.contains(value), let scalar = Unicode.Scalar(value),
        let age = scalar.properties.age,
        age.major < 15 || (age.major == 15 && age.minor == 0)
      else { continue }
      let properties = scalar.properties
      var zero =
        value < 0x20 || (0x7F...0x9F).contains(value) || properties.isVariationSelector
        || (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value)
      switch properties.generalCategory {
      case .nonspacingMark, .enclosingMark: zero = true
      case .format: zero = zero || value != 0xAD
      default: break
      }
      let columns = DisplayWidth.columns(of: scalar)
      let expected = zero ? 0...0 : properties.isEmojiPresentation ? 2...2 : 1...2
      if !expected.contains(columns) {
        disagreements.append("U+\(String(value, radix: 16, uppercase: true)): \(columns)")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(20))")
  }

  /// Random strings of the scalars above: the columns of a text are the sum
  /// of its clusters' columns, however the text is cut.
  @Test func randomTextsAreSumsOfClusters() {
    var rng = SeededRandom(seed: TestSettings.seed("display width sums"))
    let alphabet = (WidthCase.scalars + WidthCase.clusters).map(\.text)
    for _ in 0..<TestSettings.iterations(300) {
      var text = ""
      for _ in 0..<Int.random(in: 0...20, using: &rng) {
        text += alphabet.randomElement(using: &rng) ?? "a"
      }
      let sum = text.reduce(0) { $0 + DisplayWidth.columns(ofCluster: $1) }
      #expect(DisplayWidth.columns(of: text) == sum, "\(text.debugDescription)")
      #expect(text.allSatisfy { (0...2).contains(DisplayWidth.columns(ofCluster: $0)) })
    }
  }
}
