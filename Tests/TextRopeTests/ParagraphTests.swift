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
}
