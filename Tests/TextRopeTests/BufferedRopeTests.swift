import Testing
import TextRope
import _EngineTestSupport

/// The buffered layer against the rope it wraps: the same edits (typing on,
/// backspaces, forward deletes, jumps elsewhere, bad offsets) made to both,
/// every count, conversion, error and removed text the same, snapshots
/// taken mid-typing unchanged by what follows.
@Suite struct BufferedRopeTests {
  @Test func typingStaysBufferedUntilARead() throws {
    var text = BufferedRope(Rope("Hello"))
    try text.insert(",", at: 5)
    try text.insert(" world", at: 6)
    #expect(text.isBuffering)
    #expect(text.utf16Count == 12)
    #expect(try text.utf8Offset(of: 12, in: .utf16) == 12)
    try text.delete(11..<12)
    try text.insert("d!", at: 11)
    #expect(text.isBuffering)
    let rope = text.flushed()
    #expect(!text.isBuffering)
    #expect(String(rope) == "Hello, world!")
  }

  @Test func offsetsInsideTheBufferFollowTheRopesRules() throws {
    var text = BufferedRope(Rope("ab\r\ncd"))
    try text.insert("😀é🇫🇷", at: 2)
    // "ab😀é🇫🇷\r\ncd": 😀 is UTF-16 2..<4, é 4..<5, the flags 5..<9.
    #expect(text.isBuffering)
    #expect(throws: RopeError.splitsSurrogatePair(utf16Offset: 3)) {
      try text.utf8Offset(of: 3, in: .utf16)
    }
    #expect(throws: RopeError.splitsSurrogatePair(utf16Offset: 6)) {
      try text.insert("x", at: 6)
    }
    #expect(throws: RopeError.splitsScalar(utf8Offset: 3)) {
      try text.offset(ofUTF8: 3, in: .utf16)
    }
    #expect(throws: RopeError.offsetOutOfBounds(offset: 14, unit: .utf16, count: 13)) {
      try text.delete(0..<14)
    }
    #expect(try text.utf8Offset(of: 4, in: .utf16) == 6)
    #expect(try text.offset(ofUTF8: 8, in: .unicodeScalars) == 4)
    #expect(try text.utf8Offset(of: 11, in: .utf16) == 18)
    #expect(String(text) == "ab😀é🇫🇷\r\ncd")
  }

  /// An edit in UTF-8 over text typed in UTF-16 leaves no stale place to
  /// walk from (FuzzRope's first finding).
  @Test func anEditInAnotherUnitForgetsWhereTypingLeftOff() throws {
    var text = BufferedRope()
    try text.insert(";", at: 0)
    try text.replace(0..<1, in: .utf8, with: "👨‍👩‍👧‍👦")
    #expect(text.isBuffering)
    #expect(try text.utf8Offset(of: 2, in: .utf16) == 4)
    #expect(throws: RopeError.splitsSurrogatePair(utf16Offset: 1)) {
      try text.utf8Offset(of: 1, in: .utf16)
    }
  }

  /// A CR typed right before the rope's LF, and the LF deleted after.
  @Test func crLFAcrossTheBuffersEdge() throws {
    var text = BufferedRope(Rope("one\ntwo"))
    try text.insert("\r", at: 3)
    #expect(text.isBuffering)
    var snapshot = text
    #expect(snapshot.flushed().paragraphCount == 2)
    try text.delete(4..<5)
    try text.insert("x", at: 4)
    #expect(String(text) == "one\rxtwo")
    #expect(text.flushed().paragraphCount == 2)
    #expect(String(snapshot) == "one\r\ntwo")
  }

  @Test(arguments: [TextUnit.utf16, .unicodeScalars, .utf8])
  func randomEditsAgreeWithTheRope(unit: TextUnit) throws {
    var rng = SeededRandom(seed: TestSettings.seed("BufferedRope random edits (\(unit))"))
    let rounds = TestSettings.iterations(600)
    var reference = Rope(rng.randomText(pieces: Int.random(in: 0...40, using: &rng)))
    var buffered = BufferedRope(reference)
    var snapshots: [(Rope, String)] = []
    var cursor = 0
    var room = UTF8Room()
    var expectedRoom = UTF8Room()
    func removed(_ room: UTF8Room) -> String {
      room.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }
    for round in 0..<rounds {
      let count = reference.count(in: unit)
      cursor = min(cursor, count)
      var range: Range<Int>
      var text = ""
      switch Int.random(in: 0..<12, using: &rng) {
      case 0, 1, 2, 3:  // type on at the cursor
        text = rng.randomText(pieces: Int.random(in: 1...2, using: &rng))
        range = cursor..<cursor
      case 4, 5:  // backspace
        range = max(0, cursor - Int.random(in: 1...3, using: &rng))..<cursor
      case 6:  // forward delete
        range = cursor..<min(count, cursor + Int.random(in: 1...3, using: &rng))
      case 7:  // select back over the typing and type over it
        range = max(0, cursor - Int.random(in: 0...8, using: &rng))..<cursor
        text = rng.randomText(pieces: Int.random(in: 0...3, using: &rng))
      case 8:  // jump elsewhere
        let a = Int.random(in: 0...count, using: &rng)
        let b = min(count, a + Int.random(in: 0...6, using: &rng))
        range = a..<b
        text = rng.randomText(pieces: Int.random(in: 0...4, using: &rng))
      case 9:  // a paste past the limit now and then
        range = cursor..<cursor
        text = rng.randomText(pieces: Int.random(in: 0...400, using: &rng))
      case 10:  // a bad range
        let a = Int.random(in: -2...(count + 2), using: &rng)
        range = max(-2, a)..<max(a, a + Int.random(in: 0...3, using: &rng))
        text = "z"
      default:  // a snapshot, or a flush
        if Bool.random(using: &rng) {
          let rope = buffered.flushed()
          snapshots.append((rope, String(reference)))
        } else {
          buffered.flush()
        }
        range = cursor..<cursor
      }
      let place = "seed \(TestSettings.seed("BufferedRope random edits (\(unit))")), round \(round)"
      var expectedError: RopeError? = nil
      do {
        try reference.replace(range, in: unit, with: text, removedUTF8: &expectedRoom)
      } catch {
        expectedError = error
      }
      var error: RopeError? = nil
      // Half the edits hand back what they removed (the general path), half
      // do not (typing on and backspaces take their own path).
      let handsBack = Bool.random(using: &rng)
      do {
        if handsBack {
          try buffered.replace(range, in: unit, with: text, removedUTF8: &room)
        } else {
          try buffered.replace(range, in: unit, with: text)
        }
      } catch let e {
        error = e
      }
      #expect(error == expectedError, "\(place): \(range) \(text.debugDescription)")
      if expectedError == nil && handsBack {
        #expect(removed(room) == removed(expectedRoom), "\(place)")
        cursor = range.lowerBound + text.count(in: unit)
      }
      // Counts, and conversions (values and errors) in every unit.
      for u in [TextUnit.utf8, .utf16, .unicodeScalars] {
        #expect(buffered.count(in: u) == reference.count(in: u), "\(place)")
        for _ in 0..<3 {
          let offset = Int.random(in: -1...(reference.count(in: u) + 1), using: &rng)
          #expect(
            Result { try buffered.utf8Offset(of: offset, in: u) }.mapError { $0 as! RopeError }
              == Result { try reference.utf8Offset(of: offset, in: u) }.mapError {
                $0 as! RopeError
              }, "\(place): utf8Offset(of: \(offset), in: \(u))")
        }
        let byte = Int.random(in: -1...(reference.utf8Count + 1), using: &rng)
        #expect(
          Result { try buffered.offset(ofUTF8: byte, in: u) }.mapError { $0 as! RopeError }
            == Result { try reference.offset(ofUTF8: byte, in: u) }.mapError { $0 as! RopeError },
          "\(place): offset(ofUTF8: \(byte), in: \(u))")
      }
      if round % 50 == 0 {
        #expect(String(buffered) == String(reference), "\(place)")
      }
      if String(buffered) != String(reference) { return }
    }
    var last = buffered
    last.flushed()._invariantCheck()
    #expect(String(last.flushed()) == String(reference))
    for (rope, string) in snapshots { #expect(String(rope) == string) }
  }
}

extension String {
  fileprivate func count(in unit: TextUnit) -> Int {
    switch unit {
    case .utf8: utf8.count
    case .utf16: utf16.count
    case .unicodeScalars: unicodeScalars.count
    }
  }
}
