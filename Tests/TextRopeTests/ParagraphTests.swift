import Foundation
import Testing
import TextRope
import _EngineTestSupport

/// Paragraph ranges against Foundation's `NSString`, which defines them.
@Suite struct ParagraphTests {
  func expectMatchesNSString(
    _ rope: Rope, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let string = text as NSString
    for offset in 0...string.length {
      guard (try? rope.utf8Offset(of: offset, in: .utf16)) != nil else { continue }
      var start = 0
      var end = 0
      var contentsEnd = 0
      string.getParagraphStart(
        &start, end: &end, contentsEnd: &contentsEnd, for: NSRange(location: offset, length: 0))
      let paragraph = try rope.paragraph(containing: offset)
      #expect(
        paragraph.range == start..<end && paragraph.contentsEnd == contentsEnd,
        "offset \(offset) of \(text.debugDescription)", sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: [
    "", "a", "\n", "\r", "\r\n", "\u{2029}", "a\nb", "a\r\nb\r\n", "a\rb\n\nc", "\n\n\r\r\n",
    "x\u{2028}y\u{85}z\u{0B}w\u{0C}v", "😀\r\n😀\u{2029}", "end\u{2029}",
  ])
  func fixedTexts(text: String) throws {
    try expectMatchesNSString(Rope(text), text)
  }

  @Test func crlfParagraphs() throws {
    let rope = Rope("ab\r\ncd")
    #expect(try rope.paragraph(containing: 3) == (0..<4, 2))  // between CR and LF
    #expect(try rope.paragraph(containing: 4) == (4..<6, 6))
    #expect(try rope.paragraph(containing: 2, in: .utf8) == (0..<4, 2))
    let ps = Rope("a\u{2029}b")
    #expect(try ps.paragraph(containing: 0, in: .utf8) == (0..<4, 1))
    #expect(try ps.paragraph(containing: 0, in: .unicodeScalars) == (0..<2, 1))
  }

  @Test func randomizedAgainstNSString() throws {
    var rng = SeededRandom(seed: TestSettings.seed("paragraphs vs NSString"))
    for _ in 0..<TestSettings.iterations(200) {
      let text = rng.randomText(pieces: Int.random(in: 0...30, using: &rng))
      try expectMatchesNSString(Rope(text), text)
    }
  }

  /// The separator before each offset, against the UTF-16 units themselves
  /// (CR LF is one separator of 2 units; an offset inside a surrogate pair
  /// or out of the text has none), in ropes cut at random scalars.
  @Test func theSeparatorBeforeAnOffset() throws {
    var rng = SeededRandom(seed: TestSettings.seed("separator before an offset"))
    let pieces = ["a", "\n", "\r", "\r\n", "\u{2029}", "\u{2028}", "😀", "e\u{301}", "\u{85}"]
    for _ in 0..<TestSettings.iterations(200) {
      var text = ""
      for _ in 0..<Int.random(in: 0...12, using: &rng) {
        text += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
      }
      let scalars = text.unicodeScalars.count
      let cuts = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
        Int.random(in: 0...scalars, using: &rng)
      }
      let rope = chunkedRope(text, cutAtScalars: Array(Set(cuts)).sorted())
      let units = Array(text.utf16)
      for offset in -1...(units.count + 1) {
        var expected = 0
        if offset > 0 && offset <= units.count {
          switch units[offset - 1] {
          case 0x0A: expected = offset > 1 && units[offset - 2] == 0x0D ? 2 : 1
          case 0x0D, 0x2029: expected = 1
          default: expected = 0
          }
        }
        #expect(
          rope.separatorLength(before: offset) == expected,
          "offset \(offset) of \(text.debugDescription)")
      }
    }
    #expect(Rope.isParagraphSeparator("\u{2029}") && !Rope.isParagraphSeparator("\u{2028}"))
  }
}
