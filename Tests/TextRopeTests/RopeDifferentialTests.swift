import Testing
import TextRope
import _EngineTestSupport

/// Seeded random edits applied to a rope and to a plain model of the text;
/// after every step the two must agree on the text and every coordinate.
@Suite struct RopeDifferentialTests {
  @Test(arguments: [TextUnit.utf16, .unicodeScalars, .utf8])
  func randomEdits(unit: TextUnit) throws {
    var rng = SeededRandom(seed: TestSettings.seed("Rope random edits (\(unit))"))
    let rounds = TestSettings.iterations(400)
    var model = TextModel(rng.randomText(pieces: Int.random(in: 0...30, using: &rng)))
    var rope = Rope(model.string)
    var history: [(Rope, TextModel)] = []
    // The room a history keeps for removed bytes: reused, stale past its
    // count.
    var room = UTF8Room("stale room".utf8)
    func removed(_ room: UTF8Room) -> String {
      room.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }
    for round in 0..<rounds {
      if round % 25 == 0 { history.append((rope, model)) }
      let bounds = model.boundaries
      let a = bounds.randomElement(using: &rng) ?? bounds[0]
      let b = bounds.randomElement(using: &rng) ?? bounds[0]
      let (lo, hi) = a.scalar <= b.scalar ? (a, b) : (b, a)
      func offset(_ x: (scalar: Int, utf8: Int, utf16: Int)) -> Int {
        switch unit {
        case .utf8: x.utf8
        case .utf16: x.utf16
        case .unicodeScalars: x.scalar
        }
      }
      let range = offset(lo)..<offset(hi)
      // The range's text, read straight from the chunks.
      var expected = String.UnicodeScalarView()
      expected.append(contentsOf: model.scalars[lo.scalar..<hi.scalar])
      #expect(try rope.string(range, in: unit) == String(expected))
      switch Int.random(in: 0..<10, using: &rng) {
      case 0, 1, 2:  // type a little
        let text = rng.randomText(pieces: Int.random(in: 1...3, using: &rng))
        try rope.insert(text, at: range.lowerBound, in: unit)
        model.replace(lo.scalar..<lo.scalar, with: text)
      case 3:  // delete a short stretch, handing back what it removed
        let end = min(lo.scalar + Int.random(in: 1...4, using: &rng), model.scalars.count)
        let endOffset = offset(bounds[end])
        try rope.replace(range.lowerBound..<endOffset, in: unit, with: "", removedUTF8: &room)
        var gone = String.UnicodeScalarView()
        gone.append(contentsOf: model.scalars[lo.scalar..<end])
        #expect(removed(room) == String(gone))
        model.replace(lo.scalar..<end, with: "")
      case 4, 5:  // replace a range, handing back what it removed
        let text = rng.randomText(pieces: Int.random(in: 0...12, using: &rng))
        try rope.replace(range, in: unit, with: text, removedUTF8: &room)
        #expect(removed(room) == String(expected))
        model.replace(lo.scalar..<hi.scalar, with: text)
      case 6:  // paste a large block (the general path), half of them handing back
        let text = rng.randomText(pieces: Int.random(in: 20...200, using: &rng))
        if Bool.random(using: &rng) {
          try rope.replace(range, in: unit, with: text, removedUTF8: &room)
          #expect(removed(room) == String(expected))
        } else {
          try rope.replace(range, in: unit, with: text)
        }
        model.replace(lo.scalar..<hi.scalar, with: text)
      case 7:  // keep only a slice
        if model.scalars.count > 400 || Bool.random(using: &rng) {
          rope = try rope.slice(range, in: unit)
          model.scalars = Array(model.scalars[lo.scalar..<hi.scalar])
        }
      case 8:  // splice another rope in
        let text = rng.randomText(pieces: Int.random(in: 0...40, using: &rng))
        try rope.replace(range, in: unit, with: Rope(text))
        model.replace(lo.scalar..<hi.scalar, with: text)
      default:  // edit through bytes
        let text = rng.randomText(pieces: Int.random(in: 0...5, using: &rng))
        try rope.replace(range, in: unit, withUTF8: Array(text.utf8))
        model.replace(lo.scalar..<hi.scalar, with: text)
      }
      expectRope(rope, matches: model, checkAllOffsets: round % 4 == 0)
    }
    for (snapshot, snapshotModel) in history {
      expectRope(snapshot, matches: snapshotModel, checkAllOffsets: false)
    }
  }

  /// Typing a document character by character (the common case the in-place
  /// path serves), with random cursor jumps and backspaces.
  @Test func typing() throws {
    var rng = SeededRandom(seed: TestSettings.seed("Rope typing"))
    var rope = Rope()
    var model = TextModel()
    var cursor = 0  // scalars
    for step in 0..<TestSettings.iterations(3000) {
      let roll = Int.random(in: 0..<20, using: &rng)
      if roll == 0 {
        cursor = Int.random(in: 0...model.scalars.count, using: &rng)
      } else if roll < 4 && cursor > 0 {
        try rope.delete(cursor - 1..<cursor, in: .unicodeScalars)
        model.replace(cursor - 1..<cursor, with: "")
        cursor -= 1
      } else {
        let piece = interestingPieces.randomElement(using: &rng) ?? "a"
        try rope.insert(piece, at: cursor, in: .unicodeScalars)
        model.replace(cursor..<cursor, with: piece)
        cursor += piece.unicodeScalars.count
      }
      if step % 25 == 0 {
        expectRope(rope, matches: model, checkAllOffsets: step % 500 == 0)
      } else {
        rope._invariantCheck()
        #expect(rope.scalarCount == model.scalars.count)
      }
    }
    expectRope(rope, matches: model)
  }
}
