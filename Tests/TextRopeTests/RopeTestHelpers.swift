import Testing
import TextRope
import _EngineTestSupport

/// Compares the rope with the model: text, counts, and (for short texts)
/// every coordinate conversion and paragraph number at every boundary.
func expectRope(
  _ rope: Rope, matches model: TextModel, checkAllOffsets: Bool = true,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  rope._invariantCheck()
  let text = model.string
  #expect(String(rope) == text, sourceLocation: sourceLocation)
  #expect(rope.utf8Count == model.utf8Count, sourceLocation: sourceLocation)
  #expect(rope.utf16Count == model.utf16Count, sourceLocation: sourceLocation)
  #expect(rope.scalarCount == model.scalars.count, sourceLocation: sourceLocation)
  #expect(rope.paragraphSeparatorCount == model.separatorCount, sourceLocation: sourceLocation)
  guard checkAllOffsets else { return }
  var paragraphStarts = [0]
  for b in model.boundaries {
    #expect(
      (try? rope.utf8Offset(of: b.utf16, in: .utf16)) == b.utf8, sourceLocation: sourceLocation)
    #expect(
      (try? rope.utf8Offset(of: b.scalar, in: .unicodeScalars)) == b.utf8,
      sourceLocation: sourceLocation)
    #expect(
      (try? rope.offset(ofUTF8: b.utf8, in: .utf16)) == b.utf16, sourceLocation: sourceLocation)
    #expect(
      (try? rope.offset(ofUTF8: b.utf8, in: .unicodeScalars)) == b.scalar,
      sourceLocation: sourceLocation)
    #expect(
      (try? rope.convert(b.utf16, from: .utf16, to: .unicodeScalars)) == b.scalar,
      sourceLocation: sourceLocation)
    let number = model.paragraphNumber(atScalar: b.scalar)
    #expect(
      (try? rope.paragraphNumber(at: b.utf16)) == number, sourceLocation: sourceLocation)
    if b.scalar > 0 && model.endsSeparator(b.scalar - 1) { paragraphStarts.append(b.utf16) }
  }
  for (n, start) in paragraphStarts.enumerated() {
    #expect((try? rope.paragraphStart(n)) == start, sourceLocation: sourceLocation)
  }
  // Offsets inside a scalar are refused in the units that can express them.
  var u8 = 0
  var u16 = 0
  for s in model.scalars {
    for inner in 1..<UTF8.width(s) {
      #expect(
        throws: RopeError.splitsScalar(utf8Offset: u8 + inner), sourceLocation: sourceLocation
      ) { try rope.offset(ofUTF8: u8 + inner, in: .utf16) }
    }
    if UTF16.width(s) == 2 {
      #expect(
        throws: RopeError.splitsSurrogatePair(utf16Offset: u16 + 1),
        sourceLocation: sourceLocation
      ) { try rope.utf8Offset(of: u16 + 1, in: .utf16) }
    }
    u8 += UTF8.width(s)
    u16 += UTF16.width(s)
  }
}
