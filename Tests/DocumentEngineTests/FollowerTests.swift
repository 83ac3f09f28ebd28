import Testing
import TextRope
import _EngineTestSupport

@testable import DocumentEngine

/// The engine's own followers — the selection, the visible ranges and a
/// session's marks — are tracked ranges now; their rule is the one they
/// always had (`_EditStep`'s: a start goes after text inserted at it, an
/// end stays before, a range whose start passes its end is empty at the
/// start). The oracle applies that rule to each position on its own.
@Suite struct FollowerTests {
  /// The selection, the visible ranges and the marks through random edits
  /// of three storages, against the rule applied to each on its own.
  @Test func followersAgreeWithTheirRule() throws {
    let seed = TestSettings.seed("FollowerTests.followersAgreeWithTheirRule")
    var random = SeededRandom(seed: seed)
    let ids: [StorageID] = ["a", "b", "c"]
    for round in 0..<TestSettings.iterations(40) {
      let document = Document()
      var lengths: [StorageID: Int] = [:]
      for id in ids {
        let n = Int.random(in: 0...30, using: &random)
        try document.add(id, text: Rope(String(repeating: "x", count: n)))
        lengths[id] = n
      }
      func point(_ id: StorageID) -> Int { Int.random(in: 0...(lengths[id] ?? 0), using: &random) }
      func range(_ id: StorageID) -> Range<Int> {
        let a = point(id)
        let b = point(id)
        return min(a, b)..<max(a, b)
      }
      // A caret, a range in one storage, a range across two.
      var selection = [
        SelectionRange(caret: TextPosition("a", point("a"))),
        SelectionRange("b", range("b")),
        SelectionRange(from: TextPosition("a", point("a")), to: TextPosition("c", point("c"))),
      ]
      try document.select(selection)
      selection = document.selection
      var visible = ["a": range("a"), "c": range("c")] as [StorageID: Range<Int>]
      try document.setVisible(visible)
      let session = try document.startSession(scope: .fullDocument)
      var marks: [Int: Range<Int>] = [:]
      if let context = session.contexts.first(where: { $0.storage == "b" }) {
        for mark in try document.mark(
          context: context.id, ranges: [range("b"), range("b")], as: .hidden)
        {
          marks[mark.id] = mark.range
        }
      }
      for step in 0..<40 {
        let id = ids[Int.random(in: 0..<3, using: &random)]
        let edited = range(id)
        let n = Int.random(in: 0...3, using: &random)
        if edited.isEmpty && n == 0 { continue }
        try document.edit(id, range: edited, with: String(repeating: "y", count: n))
        lengths[id, default: 0] += n - edited.count
        let edit = _EditStep(edited, insertedLength: n)
        for i in selection.indices {
          var s = selection[i]
          if s.isCaret {
            if s.start.storage == id {
              s = SelectionRange(caret: TextPosition(id, edit.start(s.start.offset)))
            }
          } else {
            if s.start.storage == id { s.start.offset = edit.start(s.start.offset) }
            if s.end.storage == id { s.end.offset = edit.end(s.end.offset) }
            if s.start.storage == s.end.storage && s.end.offset < s.start.offset {
              s.end.offset = s.start.offset
            }
          }
          selection[i] = s
        }
        if let shown = visible[id] { visible[id] = edit.range(shown) }
        if id == "b" { marks = marks.mapValues { edit.range($0) } }
        let place = "seed \(seed), round \(round), step \(step)"
        #expect(document.selection == selection, "\(place)")
        #expect(document.visible == visible, "\(place)")
        #expect(
          Dictionary(uniqueKeysWithValues: document.marks.map { ($0.id, $0.range) }) == marks,
          "\(place)")
      }
      // A storage removed takes the selection's ranges that end in it.
      try document.remove("c")
      #expect(document.selection == selection.filter { $0.end.storage != "c" })
      #expect(document.visible.keys.sorted() == ["a"])
    }
  }
}
