import Foundation
import Testing
import TextBoundaries
import TextRope
import _EngineTestSupport

/// The boundaries Swift's `Character` finds, in UTF-16 offsets.
func characterBoundaries(_ text: String) -> [Int] {
  var result = [0]
  var offset = 0
  for character in text {
    offset += character.utf16.count
    result.append(offset)
  }
  return text.isEmpty ? [0] : result
}

@Suite struct GraphemeClusterTests {
  @Test func icuIsLoadedFromTheSystem() throws {
    try SystemICU.load()
    #expect(SystemICU.version == "72")
    #expect(SystemICU.libraryPath.contains("libicuuc"))
  }

  @Test func twentyThousandRegionalIndicators() throws {
    let flags = String(repeating: "🇫🇷", count: 10_000)  // 20,000 indicators
    let rope = Rope("x" + flags + "y")
    let clusters = GraphemeClusters(rope)
    let boundaries = try clusters.boundaries(in: 0..<rope.utf16Count)
    #expect(boundaries.count == 10_000 + 3)
    #expect(boundaries == [0] + (0...10_000).map { 1 + 4 * $0 } + [rope.utf16Count])
    // Deep inside the run, the parity is counted from its real start.
    #expect(try clusters.isBoundary(1 + 4 * 9_000))
    #expect(try !clusters.isBoundary(1 + 4 * 9_000 + 2))
    #expect(try clusters.boundary(before: 1 + 4 * 9_000 + 2) == 1 + 4 * 9_000)
    #expect(try clusters.boundary(after: 1 + 4 * 7_777 + 2) == 1 + 4 * 7_778)
    #expect(try clusters.snappedOutward(3..<7) == 1..<9)
    #expect(try clusters.snappedInward(3..<7) == 5..<5)
  }

  @Test func emojiAndCombiningMarksAcrossChunks() throws {
    let pieces = [
      "👨‍👩‍👧‍👦", "🏳️‍🌈", "👋🏽", "e\u{301}\u{302}", "क्षि", "\r\n", "🇯🇵", "각", "ᄀ\u{1161}\u{11A8}",
      "\u{600}1",
    ]
    for piece in pieces {
      let text = String(repeating: "a" + piece, count: 40)
      let rope = Rope(text)
      try expectBoundaries(of: rope, equal: characterBoundaries(text))
    }
  }

  @Test func snapping() throws {
    // The family is UTF-16 2..<10; scalar boundaries inside it: 4, 5, 7, 8.
    let rope = Rope("ab👨‍👩‍👧cd")
    let clusters = rope.graphemeClusters
    #expect(try clusters.snappedOutward(4..<7) == 2..<10)
    #expect(try clusters.snappedOutward(2..<10) == 2..<10)
    #expect(try clusters.snappedOutward(1..<5) == 1..<10)
    #expect(try clusters.snappedInward(1..<5) == 1..<2)
    #expect(try clusters.snappedInward(4..<11) == 10..<11)
    #expect(try clusters.snappedInward(4..<8) == 10..<10)
  }

  @Test func invalidOffsetsAreErrors() {
    let clusters = GraphemeClusters(Rope("a😀b"))
    #expect(throws: BoundaryError.invalidOffset(.splitsSurrogatePair(utf16Offset: 2))) {
      try clusters.isBoundary(2)
    }
    #expect(
      throws: BoundaryError.invalidOffset(.offsetOutOfBounds(offset: 5, unit: .utf16, count: 4))
    ) {
      try clusters.boundary(after: 5)
    }
    #expect(
      throws: BoundaryError.invalidOffset(.offsetOutOfBounds(offset: -1, unit: .utf16, count: 4))
    ) {
      try clusters.boundaries(in: -1..<2)
    }
  }

  @Test func emptyText() throws {
    let clusters = GraphemeClusters(Rope())
    #expect(try clusters.boundaries(in: 0..<0) == [0])
    #expect(try clusters.isBoundary(0))
    #expect(try clusters.boundary(after: 0) == nil)
    #expect(try clusters.boundary(before: 0) == nil)
  }

  /// Random text from an alphabet of scalars whose properties did not change
  /// after Unicode 15 (ICU 72), against Swift's `Character`. The virama is
  /// left out: Unicode 15.1's rule GB9c (which Swift follows) joins a virama
  /// to the next consonant across any Extend, such as a skin tone; ICU 72
  /// only across marks. Conjuncts are tested in
  /// `emojiAndCombiningMarksAcrossChunks`.
  @Test func randomizedAgainstCharacter() throws {
    var rng = SeededRandom(seed: TestSettings.seed("graphemes vs Character"))
    let alphabet: [String] = [
      "a", "Z", " ", ".", "\r", "\n", "\r\n", "\u{2029}", "\t", "é", "e", "\u{301}", "\u{308}",
      "\u{200D}", "\u{FE0F}", "👨", "👩", "👧", "👋", "\u{1F3FD}", "🇫", "🇷", "🇯", "🇵", "क",
      "ि", "ष", "ᄀ", "\u{1161}", "\u{11A8}", "각", "\u{600}", "中", "ä", "Ω", "ж", "あ", "\u{AD}",
      "©", "😀", "🏳", "🌈", "\u{E0067}", "\u{1F1E6}", "\u{1F3FB}", "🦰", "♀", "\u{2640}",
      "\u{FE0F}", "\u{85}", "\u{7F}", "\u{0B}", "\u{1160}", "\u{AC01}", "🚀", "☃", "ꙮ",
      "\u{E01}", "\u{E33}", "ᅡ", "ש", "\u{5B8}", "ب", "\u{64E}", "\u{600}", "न", "म", "स",
      "\u{93E}", "\u{902}", "ก", "\u{E31}", "\u{E40}", "—", "…", "‼", "、", "\u{302A}",
      "Ａ", "\u{FF9E}", "\u{200B}", "\u{200C}",
    ]
    for _ in 0..<TestSettings.iterations(300) {
      var text = ""
      for _ in 0..<Int.random(in: 0...40, using: &rng) {
        text += alphabet.randomElement(using: &rng) ?? "a"
      }
      let pieces = Int.random(in: 1...4, using: &rng)
      let scalars = Array(text.unicodeScalars)
      var cuts = (0..<pieces - 1).map { _ in Int.random(in: 0...scalars.count, using: &rng) }
      cuts.sort()
      let rope = chunkedRope(text, cutAtScalars: cuts)
      #expect(String(rope) == text)
      try expectBoundaries(of: rope, equal: characterBoundaries(text))
    }
  }
}
