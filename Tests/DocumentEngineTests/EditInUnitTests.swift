import DocumentEngine
import Testing
import TextRope
import _EngineTestSupport

/// `Document.edit(_:range:in:with:)`: the person's edit with the range in
/// UTF-8, UTF-16 or scalars, converted under the document's lock.
@Suite struct EditInUnitTests {
  static let alphabet: [String] = [
    "a", "é", "😀", "\r\n", "\u{2029}", "👨‍👩‍👧", "🇫🇷", "\u{10FFFF}", "e\u{301}",
  ]

  /// Random edits in scalars and in UTF-8 against an array of scalars.
  @Test(arguments: [TextUnit.unicodeScalars, .utf8, .utf16])
  func randomEditsMatchAModel(unit: TextUnit) throws {
    var rng = SeededRandom(seed: TestSettings.seed("edit in \(unit)"))
    let start = (0..<40).map { _ in Self.alphabet.randomElement(using: &rng) ?? "" }.joined()
    let document = Document()
    try document.add("body", text: Rope(start))
    var model = Array(start.unicodeScalars)
    // The offset of scalar `k` of the model in `unit`.
    func offset(_ k: Int) -> Int {
      let prefix = String(String.UnicodeScalarView(model[..<k]))
      switch unit {
      case .utf8: return prefix.utf8.count
      case .utf16: return prefix.utf16.count
      case .unicodeScalars: return k
      }
    }
    for step in 0..<TestSettings.iterations(300) {
      let a = Int.random(in: 0...model.count, using: &rng)
      let b = Int.random(in: a...min(model.count, a + 5), using: &rng)
      let text = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
        Self.alphabet.randomElement(using: &rng) ?? ""
      }.joined()
      let before = try document.content.storage("body").version
      let result = try document.edit("body", range: offset(a)..<offset(b), in: unit, with: text)
      let utf16Start = String(String.UnicodeScalarView(model[..<a])).utf16.count
      model.replaceSubrange(a..<b, with: Array(text.unicodeScalars))
      let expected = String(String.UnicodeScalarView(model))
      #expect(String(try document.content.storage("body").text) == expected, "step \(step)")
      #expect(result.range == utf16Start..<(utf16Start + text.utf16.count), "step \(step)")
      let changed = a != b || !text.isEmpty
      #expect(result.version == (changed ? before.next : before), "step \(step)")
    }
  }

  /// A bound out of bounds, inside a scalar (UTF-8) or inside a surrogate
  /// pair (UTF-16) is a typed error, and nothing changes.
  @Test func badRangesChangeNothing() throws {
    let document = Document()
    try document.add("body", text: "a😀b")
    let before = try document.content.storage("body")
    let bad: [(Range<Int>, TextUnit)] = [
      (2..<3, .utf16),  // lower bound between the halves of 😀
      (0..<2, .utf16),  // upper bound between them
      (2..<3, .utf8),  // inside 😀's four bytes
      (0..<9, .utf8),  // past the end
      (0..<4, .unicodeScalars),  // past the end (3 scalars)
    ]
    for (range, unit) in bad {
      #expect(throws: DocumentError.self, "\(range) in \(unit)") {
        try document.edit("body", range: range, in: unit, with: "x")
      }
      let after = try document.content.storage("body")
      #expect(String(after.text) == "a😀b")
      #expect(after.version == before.version)
    }
    #expect(throws: DocumentError.unknownStorage("nope")) {
      try document.edit("nope", range: 0..<0, in: .utf8, with: "x")
    }
    // A good one, for contrast: the emoji as one scalar.
    let result = try document.edit("body", range: 1..<2, in: .unicodeScalars, with: "é")
    #expect(String(try document.content.storage("body").text) == "aéb")
    #expect(result.range == 1..<2)
  }
}
