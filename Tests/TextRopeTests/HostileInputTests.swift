import Testing
import TextRope
import _EngineTestSupport

/// Untrusted offsets and bytes get typed errors and leave the rope unchanged;
/// nothing traps.
@Suite struct HostileInputTests {
  static let offsets = [
    Int.min, -1_000_000, -2, -1, 0, 1, 2, 3, 5, 7, 1_000_000, Int.max - 1, Int.max,
  ]

  /// Every range of a short text of multi-unit scalars (in tiny chunks, so
  /// most ranges span two or more chunks): a range with a bound inside a
  /// scalar or a surrogate pair is refused and changes nothing; any other is
  /// replaced exactly as `String` would.
  @Test(arguments: TextUnit.allCases)
  func everyRangeAcrossChunks(unit: TextUnit) throws {
    let text = "a😀b\r\n🇫🇷é\u{2029}👨‍👩‍👧x\u{10FFFF}y"
    let original = Rope(text)
    let count = original.count(in: unit)
    // The text as units, to build the expected result of a valid edit.
    let units: [Int] =
      switch unit {
      case .utf8: text.utf8.map(Int.init)
      case .utf16: text.utf16.map(Int.init)
      case .unicodeScalars: text.unicodeScalars.map { Int($0.value) }
      }
    func string(_ part: ArraySlice<Int>) -> String? {
      switch unit {
      case .utf8: String(validating: part.map(UInt8.init), as: UTF8.self)
      case .utf16: String(validating: part.map(UInt16.init), as: UTF16.self)
      case .unicodeScalars: String(String.UnicodeScalarView(part.compactMap(Unicode.Scalar.init)))
      }
    }
    for lower in 0...count {
      for upper in lower...count {
        var rope = original
        let head = string(units[..<lower])
        let tail = string(units[upper...])
        // Reading the range: its text, or the same refusal.
        let middle = string(units[lower..<upper])
        if let read = try? original.string(lower..<upper, in: unit) {
          #expect(head != nil && tail != nil && read == middle, "\(lower)..<\(upper) in \(unit)")
        } else {
          #expect(head == nil || tail == nil, "\(lower)..<\(upper) in \(unit)")
        }
        do {
          try rope.replace(lower..<upper, in: unit, with: "ü")
          let expected = try #require(head.flatMap { h in tail.map { h + "ü" + $0 } })
          #expect(String(rope) == expected, "\(lower)..<\(upper) in \(unit)")
          rope._invariantCheck()
        } catch {
          #expect(head == nil || tail == nil, "\(lower)..<\(upper) in \(unit): \(error)")
          #expect(rope == original)
        }
      }
    }
  }

  @Test func randomOffsetsNeverTrap() throws {
    let text = "a😀\r\nb\u{2029}é👨‍👩‍👧"
    var rope = Rope(text)
    let original = rope
    for unit in TextUnit.allCases {
      for a in Self.offsets {
        _ = try? rope.utf8Offset(of: a, in: unit)
        _ = try? rope.offset(ofUTF8: a, in: unit)
        _ = try? rope.convert(a, from: unit, to: .utf16)
        _ = try? rope.paragraphNumber(at: a, in: unit)
        _ = try? rope.paragraphStart(a, in: unit)
        _ = try? rope.paragraph(containing: a, in: unit)
        _ = rope.chunkCursor(at: a, in: unit).chunk
        _ = rope.chunk(at: a, in: unit)
        for b in Self.offsets where a <= b {
          _ = try? rope.slice(a..<b, in: unit)
          let valid = (try? rope.utf8Range(of: a..<b, in: unit)) != nil
          do {
            try rope.replace(a..<b, in: unit, with: "x")
            #expect(valid)
          } catch {
            #expect(!valid)
            #expect(rope == original)
          }
          rope = original
        }
      }
    }
  }

  @Test func refusedReplacementsChangeNothing() {
    var rope = Rope("a😀b")
    let before = rope
    for (range, unit) in [
      (2..<2, TextUnit.utf16), (0..<9, .utf16), (-1..<1, .utf8), (2..<3, .utf8),
    ] {
      #expect(throws: RopeError.self) { try rope.replace(range, in: unit, with: "zz") }
      #expect(rope == before)
      rope._invariantCheck()
    }
  }

  /// An empty edit changes nothing, but its offset must still be valid:
  /// inside a surrogate pair or a scalar, or out of bounds, it throws.
  @Test func emptyEditsStillCheckTheirOffset() throws {
    var rope = Rope("👋é")
    let before = rope
    for (offset, unit) in [(1, TextUnit.utf16), (1, .utf8), (5, .utf8), (4, .utf16), (-1, .utf16)] {
      #expect(throws: RopeError.self) { try rope.replace(offset..<offset, in: unit, with: "") }
      #expect(throws: RopeError.self) { try rope.replace(offset..<offset, in: unit, with: Rope()) }
      #expect(throws: RopeError.self) {
        try rope.replace(offset..<offset, in: unit, withUTF8: [UInt8]())
      }
      #expect(rope == before)
    }
    for (offset, unit) in [
      (0, TextUnit.utf16), (2, .utf16), (3, .utf16), (4, .utf8), (1, .unicodeScalars),
    ] {
      try rope.replace(offset..<offset, in: unit, with: "")
      #expect(rope == before)
    }
  }

  @Test func randomBytesAreValidatedNotTrusted() {
    var rng = SeededRandom(seed: TestSettings.seed("random bytes"))
    var valid = 0
    for _ in 0..<TestSettings.iterations(2000) {
      let bytes = (0..<Int.random(in: 0...24, using: &rng)).map { _ in
        UInt8.random(in: 0...255, using: &rng)
      }
      let expected = String(validating: bytes, as: UTF8.self)
      do {
        let rope = try Rope(validating: bytes)
        #expect(String(rope) == expected)
        valid += 1
      } catch {
        #expect(expected == nil)
        if case .invalidUTF8(let offset) = error {
          #expect(offset >= 0 && offset < bytes.count)
          // Everything before the reported offset is valid.
          #expect(String(validating: bytes[..<offset], as: UTF8.self) != nil)
        } else {
          Issue.record("unexpected error \(error)")
        }
      }
    }
    #expect(valid > 0)
  }
}
