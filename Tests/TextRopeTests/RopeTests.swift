import Testing
import TextRope
import _EngineTestSupport

@Suite struct RopeTests {
  @Test func emptyRope() throws {
    let rope = Rope()
    #expect(rope.isEmpty)
    #expect(String(rope) == "")
    #expect(rope.paragraphCount == 1)
    #expect(try rope.utf8Offset(of: 0, in: .utf16) == 0)
    #expect(try rope.paragraphNumber(at: 0) == 0)
    #expect(try rope.paragraphStart(0) == 0)
    #expect(try rope.slice(0..<0).isEmpty)
    #expect(rope == Rope(""))
    #expect(Array(rope.chunks).isEmpty)
    var edited = rope
    try edited.delete(0..<0)
    try edited.insert("", at: 0)
    #expect(edited.isEmpty)
    try edited.insert("x", at: 0)
    #expect(String(edited) == "x")
  }

  @Test(arguments: interestingPieces)
  func everyPieceRoundTrips(piece: String) {
    for repeatCount in [1, 2, 3, 7, 20] {
      let text = String(repeating: piece, count: repeatCount)
      expectRope(Rope(text), matches: TextModel(text))
    }
  }

  @Test func summaryCountsUnits() {
    let rope = Rope("a\r\nb\rc\nd\u{2029}e\u{2028}f\u{85}😀")
    #expect(rope.paragraphSeparatorCount == 4)
    #expect(rope.paragraphCount == 5)
    #expect(rope.utf16Count == "a\r\nb\rc\nd\u{2029}e\u{2028}f\u{85}😀".utf16.count)
    #expect(rope.scalarCount == 14)
  }

  @Test func rangesConvertBetweenUnits() throws {
    let rope = Rope("a😀b\r\né")
    #expect(try rope.convert(1..<2, from: .unicodeScalars, to: .utf16) == 1..<3)
    #expect(try rope.convert(1..<2, from: .unicodeScalars, to: .utf8) == 1..<5)
    #expect(try rope.convert(1..<5, from: .utf8, to: .unicodeScalars) == 1..<2)
    #expect(try rope.convert(3..<3, from: .utf16, to: .utf8) == 5..<5)
    #expect(try rope.convert(0..<7, from: .utf16, to: .unicodeScalars) == 0..<6)
    #expect(throws: RopeError.splitsSurrogatePair(utf16Offset: 2)) {
      try rope.convert(2..<3, from: .utf16, to: .utf8)
    }
    #expect(throws: RopeError.splitsScalar(utf8Offset: 3)) {
      try rope.convert(0..<3, from: .utf8, to: .utf16)
    }
    #expect(throws: RopeError.self) { try rope.convert(0..<9, from: .unicodeScalars, to: .utf16) }
  }

  @Test func outOfBoundsOffsetsAreErrors() {
    let rope = Rope("héllo😀")
    #expect(throws: RopeError.offsetOutOfBounds(offset: 8, unit: .utf16, count: 7)) {
      try rope.utf8Offset(of: 8, in: .utf16)
    }
    #expect(throws: RopeError.offsetOutOfBounds(offset: -1, unit: .utf16, count: 7)) {
      try rope.utf8Offset(of: -1, in: .utf16)
    }
    #expect(throws: RopeError.offsetOutOfBounds(offset: 11, unit: .utf8, count: 10)) {
      try rope.offset(ofUTF8: 11, in: .utf16)
    }
    #expect(throws: RopeError.splitsSurrogatePair(utf16Offset: 6)) {
      try rope.utf8Offset(of: 6, in: .utf16)
    }
    #expect(throws: RopeError.splitsScalar(utf8Offset: 2)) {
      try rope.utf8Offset(of: 2, in: .utf8)
    }
    #expect(throws: RopeError.paragraphOutOfBounds(number: 1, count: 1)) {
      try rope.paragraphStart(1)
    }
  }

  @Test func refusedEditsLeaveTheRopeUnchanged() {
    var rope = Rope("ab😀cd")
    let before = rope
    #expect(throws: RopeError.splitsSurrogatePair(utf16Offset: 3)) {
      try rope.replace(3..<4, with: "x")
    }
    #expect(throws: RopeError.offsetOutOfBounds(offset: 9, unit: .utf16, count: 6)) {
      try rope.delete(2..<9)
    }
    #expect(throws: RopeError.splitsScalar(utf8Offset: 3)) {
      try rope.insert("x", at: 3, in: .utf8)
    }
    #expect(throws: RopeError.invalidUTF8(byteOffset: 1)) {
      try rope.replace(0..<0, withUTF8: [0x61, 0xC0, 0x80])
    }
    #expect(rope == before)
    #expect(String(rope) == "ab😀cd")
  }

  /// An edit that hands its removed bytes to the caller's room and is
  /// refused leaves the rope as it was and the room empty; one that is
  /// done puts them in the room, emptied first, growing it only if it must.
  @Test func removedBytesGoInTheCallersRoom() throws {
    var rope = Rope("ab😀cd")
    let before = rope
    var room = UTF8Room("kept".utf8)
    func text(_ room: UTF8Room) -> String {
      room.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }
    #expect(throws: RopeError.splitsSurrogatePair(utf16Offset: 3)) {
      try rope.replace(3..<4, with: "x", removedUTF8: &room)
    }
    #expect(room.count == 0)
    room = UTF8Room("kept".utf8)
    #expect(throws: RopeError.offsetOutOfBounds(offset: 9, unit: .utf16, count: 6)) {
      try rope.replace(2..<9, with: "", removedUTF8: &room)
    }
    #expect(room.count == 0)
    #expect(rope == before)
    try rope.replace(1..<4, with: "", removedUTF8: &room)
    #expect(text(room) == "b😀" && room.capacity >= 5)
    try rope.replace(0..<1, with: "z", removedUTF8: &room)
    #expect(text(room) == "a" && room.capacity >= 5)
    try rope.replace(0..<0, with: "y", removedUTF8: &room)
    #expect(room.count == 0)
    #expect(String(rope) == "yzcd")
  }

  /// The room's bytes: put in front, at the end and in the middle (from a
  /// buffer or another room), they move as an array's would, and copy out
  /// as they are; emptied, the room stays up to the limit given.
  @Test func aRoomInsertsAsAnArrayWould() {
    var room = UTF8Room()
    var model: [UInt8] = []
    var rng = SeededRandom(seed: TestSettings.seed("Rope room inserts"))
    for round in 0..<500 {
      let piece = (0..<Int.random(in: 0...40, using: &rng)).map {
        UInt8(truncatingIfNeeded: $0 &+ round)
      }
      let at = Int.random(in: 0...model.count, using: &rng)
      if round % 2 == 0 {
        piece.withUnsafeBufferPointer { room.insert($0, at: at) }
      } else {
        room.insert(contentsOf: UTF8Room(piece), at: at)
      }
      model.insert(contentsOf: piece, at: at)
      #expect(room.withUTF8 { Array($0) } == model)
      if model.count > 2000 {
        let capacity = room.capacity
        room.removeAll()
        model.removeAll()
        #expect(room.count == 0 && room.capacity == capacity)
      }
    }
    var copy = [UInt8](repeating: 0, count: room.count)
    copy.withUnsafeMutableBufferPointer { if let to = $0.baseAddress { room.copyBytes(to: to) } }
    #expect(copy == model)
    room.removeAll(keepingRoomUpTo: room.capacity)
    #expect(room.capacity > 0)
    room.removeAll(keepingRoomUpTo: 0)
    #expect(room.capacity == 0)
  }

  @Test(arguments: [
    ([0x61, 0x62, 0xFF], 2),
    ([0xC3], 0),
    ([0x61, 0xE2, 0x82], 1),
    ([0xED, 0xA0, 0x80], 0),  // a UTF-16 surrogate, encoded
    ([0xF4, 0x90, 0x80, 0x80], 0),  // above U+10FFFF
    ([0xE0, 0x80, 0x80], 0),  // overlong
    ([0x61, 0x80], 1),  // lone continuation byte
    (Array("0123456789abcdef".utf8) + [0xF0, 0x9F, 0x98], 16),
  ])
  func invalidUTF8IsAnError(bytes: [UInt8], offset: Int) {
    #expect(throws: RopeError.invalidUTF8(byteOffset: offset)) {
      try Rope(validating: bytes)
    }
  }

  @Test func validUTF8Builds() throws {
    let text = "Grüße, 世界! 👋🏽\r\n\u{2029}"
    let rope = try Rope(validating: Array(text.utf8))
    #expect(String(rope) == text)
    var edited = rope
    try edited.replace(0..<5, withUTF8: Array("Hallo".utf8))
    #expect(String(edited) == "Hallo, 世界! 👋🏽\r\n\u{2029}")
  }

  @Test func copiesAreSnapshots() throws {
    var rope = Rope(String(repeating: "abc\n", count: 100))
    let snapshot = rope
    let slice = try rope.slice(4..<12)
    try rope.insert("X", at: 5)
    try rope.delete(0..<200)
    try rope.replace(10..<20, with: "😀😀")
    #expect(String(snapshot) == String(repeating: "abc\n", count: 100))
    #expect(String(slice) == "abc\nabc\n")
  }

  @Test func equalityAndHashIgnoreChunking() throws {
    let text = String(repeating: "héllo wörld ", count: 50)
    var built = Rope("")
    for character in text { built.append(String(character)) }
    let whole = Rope(text)
    #expect(built == whole)
    #expect(built.hashValue == whole.hashValue)
    var other = whole
    try other.replace(3..<4, with: "L")
    #expect(other != whole)
    #expect(Rope("ab") != Rope("ba"))
  }

  /// CR LF must stay in one chunk wherever chunk boundaries fall, and edits
  /// that create, split or join a pair at a boundary must count it right.
  @Test func crlfAtEveryChunkBoundary() throws {
    for k in 0..<24 {
      let text =
        String(repeating: "a", count: k) + "\r\n" + String(repeating: "é", count: k) + "\r\n"
      var rope = Rope(text)
      var model = TextModel(text)
      expectRope(rope, matches: model)
      // Insert between CR and LF, then delete it again.
      try rope.insert("x", at: k + 1)
      model.replace(k + 1..<k + 1, with: "x")
      expectRope(rope, matches: model)
      try rope.delete(k + 1..<k + 2)
      model.replace(k + 1..<k + 2, with: "")
      expectRope(rope, matches: model)
      // Build a pair from halves typed separately, at every position.
      for i in 0...model.scalars.count {
        var r = rope
        var m = model
        let u16 = m.offsets(ofScalar: i).utf16
        try r.insert("\r", at: u16)
        m.replace(i..<i, with: "\r")
        try r.insert("\n", at: u16 + 1)
        m.replace(i + 1..<i + 1, with: "\n")
        expectRope(r, matches: m, checkAllOffsets: i % 5 == 0)
        try r.delete(u16..<u16 + 1)  // leaves a lone LF
        m.replace(i..<i + 1, with: "")
        expectRope(r, matches: m, checkAllOffsets: i % 5 == 0)
      }
    }
  }

  @Test func longRunsAcrossManyChunks() throws {
    let pieces = ["🇫🇷", "👨‍👩‍👧‍👦", "e\u{301}", "\r\n", "\u{2029}"]
    for piece in pieces {
      let text = String(repeating: piece, count: 300)
      let rope = Rope(text)
      expectRope(rope, matches: TextModel(text), checkAllOffsets: false)
      #expect(Array(rope.chunks).count > 10)
      #expect(rope.chunks.allSatisfy { $0.summary.utf8 == $0.utf8.count })
      let scalars = Array(text.unicodeScalars)
      let cut = try rope.slice(3..<(scalars.count - 3), in: .unicodeScalars)
      var expected = String.UnicodeScalarView()
      expected.append(contentsOf: scalars[3..<(scalars.count - 3)])
      #expect(String(cut) == String(expected))
    }
  }

  @Test func paragraphsOfAppleSeparators() throws {
    // Paragraphs: "a\r\n", "b\r", "\n", "c\u{2029}", "d\u{2028}e\u{85}f\u{0C}g"
    let rope = Rope("a\r\nb\r\nc\u{2029}d\u{2028}e\u{85}f\u{0C}g")
    #expect(rope.paragraphCount == 4)
    #expect(try rope.paragraphNumber(at: 2) == 0)  // between CR and LF
    #expect(try rope.paragraphNumber(at: 3) == 1)
    #expect(try rope.paragraphStart(1) == 3)
    #expect(try rope.paragraphStart(2) == 6)
    #expect(try rope.paragraphStart(3) == 8)
    #expect(try rope.paragraphStart(3, in: .utf8) == 10)
    #expect(try rope.paragraphNumber(at: rope.utf16Count) == 3)
  }

  @Test func appendingRopesJoinsCRLF() throws {
    var rope = Rope("abc\r")
    rope.append(Rope("\ndef"))
    expectRope(rope, matches: TextModel("abc\r\ndef"))
    var big = Rope(String(repeating: "x", count: 100) + "\r")
    big.append(Rope("\n" + String(repeating: "y", count: 100)))
    #expect(big.paragraphSeparatorCount == 1)
    big._invariantCheck()
    let joined = Rope("a\r") + Rope("") + Rope("\n")
    #expect(joined.paragraphSeparatorCount == 1)
  }

  @Test func replaceWithRopeSharesText() throws {
    var rope = Rope("Hello, world!")
    try rope.replace(7..<12, with: Rope("wörld 🌍"))
    #expect(String(rope) == "Hello, wörld 🌍!")
    try rope.replace(0..<5, in: .unicodeScalars, with: Rope(""))
    #expect(String(rope) == ", wörld 🌍!")
  }
}
