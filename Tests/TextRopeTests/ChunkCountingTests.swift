import Testing
import _EngineTestSupport

@testable import TextRope

/// The word-at-a-time counting and scanning inside one chunk, on buffers far
/// longer than a debug build's chunks (release chunks hold 1024 bytes),
/// against the plain model.
@Suite struct ChunkCountingTests {
  @Test func countsAndScansOfLongBuffers() {
    var rng = SeededRandom(seed: TestSettings.seed("chunk counting"))
    for _ in 0..<TestSettings.iterations(150) {
      let text = rng.randomText(pieces: Int.random(in: 0...400, using: &rng))
      let model = TextModel(text)
      var utf8 = Array(text.utf8)
      utf8.withUnsafeMutableBufferPointer { mutable in
        let bytes = UnsafeBufferPointer(mutable)
        let summary = _UTF8Counts.summary(of: bytes)
        #expect(summary.utf8 == model.utf8Count)
        #expect(summary.utf16 == model.utf16Count)
        #expect(summary.scalars == model.scalars.count)
        #expect(summary.paragraphSeparators == model.separatorCount)
        #expect(_UTF8Counts.summary(of: bytes, in: 0..<bytes.count) == summary)
        for b in model.boundaries {
          #expect(_UTF8Counts.byteOffset(of: b.utf16, .utf16, summary.utf16, in: bytes) == b.utf8)
          #expect(
            _UTF8Counts.byteOffset(of: b.scalar, .unicodeScalars, summary.scalars, in: bytes)
              == b.utf8)
          #expect(
            _UTF8Counts.units(upTo: b.utf8, utf16: true, total: summary.utf16, in: bytes)
              == b.utf16)
          #expect(
            _UTF8Counts.units(upTo: b.utf8, utf16: false, total: summary.scalars, in: bytes)
              == b.scalar)
          let separators = model.paragraphNumber(atScalar: b.scalar)
          #expect(_UTF8Counts.separators(upTo: b.utf8, in: bytes) == separators)
        }
        // Offsets inside surrogate pairs are refused from either end.
        var u16 = 0
        for s in model.scalars {
          if UTF16.width(s) == 2 {
            #expect(_UTF8Counts.byteOffset(of: u16 + 1, .utf16, summary.utf16, in: bytes) == nil)
          }
          u16 += UTF16.width(s)
        }
      }
      utf8.removeAll()
    }
  }

  @Test(arguments: 0..<17)
  func crlfAtEveryWordPosition(shift: Int) {
    let text = String(repeating: "a", count: shift) + "\r\n\r\rx\n\u{2029}\r"
    let bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { buffer in
      #expect(_UTF8Counts.summary(of: buffer).paragraphSeparators == TextModel(text).separatorCount)
    }
  }
}
