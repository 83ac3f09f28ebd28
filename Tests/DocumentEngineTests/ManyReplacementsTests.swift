import DocumentEngine
import Testing
import TextRope
import _EngineTestSupport

/// Sessions with hundreds of replacements (many blocks of the session's
/// replacement tracking) while the person types and deletes everywhere:
/// revert takes back exactly the replacements the person did not touch,
/// against a model that follows every replacement through every edit.
@Suite struct ManyReplacementsTests {
  /// A replacement as the model follows it (UTF-16 offsets).
  struct Tracked {
    var range: Range<Int>
    let old: [UInt16]
    var intact = true
  }

  /// Follows the tracked replacements through the person's edit of
  /// `s..<e` by `n` units: touched (a unit of it replaced, or text inserted
  /// strictly inside) it is the person's; otherwise its start goes after
  /// text inserted at it and its end stays before.
  static func follow(_ tracked: inout [Tracked], _ s: Int, _ e: Int, _ n: Int) {
    for k in tracked.indices where tracked[k].intact {
      let r = tracked[k].range
      let overlaps = s < e && s < r.upperBound && r.lowerBound < e
      let inside = n > 0 && r.lowerBound < s && s < r.upperBound
      if overlaps || inside {
        tracked[k].intact = false
        continue
      }
      let delta = n - (e - s)
      if r.lowerBound >= e && (r.lowerBound > s || s == e) {
        tracked[k].range = (r.lowerBound + delta)..<(r.upperBound + delta)
      }
    }
  }

  @Test(arguments: [0, 1, 2])
  func revertTakesBackExactlyTheUntouchedOnes(variant: Int) throws {
    var random = SeededRandom(seed: TestSettings.seed("ManyReplacementsTests \(variant)"))
    let lines = (0..<150).map { "line \($0) holds some words\n" }
    let original = lines.joined()
    var model = Array(original.utf16)
    let document = Document()
    try document.add("a", text: Rope(original))
    try document.select([SelectionRange("a", 0..<model.count)])
    let context = try document.startSession(scope: .userSelection).contexts[0]
    #expect(context.storageRange == 0..<model.count)
    var tracked: [Tracked] = []
    var letter: UInt16 = 0x4E00
    var replaced = 0
    for step in 0..<TestSettings.iterations(900) {
      let place = "variant \(variant) step \(step)"
      switch Int.random(in: 0..<4, using: &random) {
      case 0:
        // The tool replaces 1–6 units that no tracked replacement is near.
        let live = try document.liveContext(context.id).storageRange
        let a = live.lowerBound + Int.random(in: 0..<(live.count - 8), using: &random)
        let b = a + 1 + Int.random(in: 0..<6, using: &random)
        let near = tracked.contains {
          $0.intact && $0.range.lowerBound <= b + 1 && a <= $0.range.upperBound + 1
        }
        if near { continue }
        let new = Array("T\(replaced)".utf16)
        replaced += 1
        let relative = (a - live.lowerBound)..<(b - live.lowerBound)
        let result = try document.replace(
          context: context.id, range: relative, with: String(decoding: new, as: UTF16.self))
        #expect(result.storageRange == a..<(a + new.count), "\(place)")
        for k in tracked.indices where tracked[k].intact && tracked[k].range.lowerBound > b {
          let r = tracked[k].range
          let delta = new.count - (b - a)
          tracked[k].range = (r.lowerBound + delta)..<(r.upperBound + delta)
        }
        tracked.append(Tracked(range: a..<(a + new.count), old: Array(model[a..<b])))
        model.replaceSubrange(a..<b, with: new)
      case 1:
        // The person deletes a unit anywhere.
        let p = Int.random(in: 0..<model.count, using: &random)
        try document.edit("a", range: p..<(p + 1), with: "")
        Self.follow(&tracked, p, p + 1, 0)
        model.remove(at: p)
      default:
        // The person types a letter no tool text holds, anywhere.
        let p = Int.random(in: 0...model.count, using: &random)
        try document.edit("a", range: p..<p, with: String(decoding: [letter], as: UTF16.self))
        Self.follow(&tracked, p, p, 1)
        model.insert(letter, at: p)
        letter += 1
      }
      if step % 100 == 0 {
        #expect(Array(String(try document.content.storage("a").text).utf16) == model, "\(place)")
      }
    }
    #expect(tracked.count > 64, "too few replacements to fill several blocks")
    let reverted = try document.revert()
    // The model's revert: the untouched replacements, the last first.
    var expected = model
    var count = 0
    for k in tracked.indices.reversed() where tracked[k].intact {
      let item = tracked[k]
      expected.replaceSubrange(item.range, with: item.old)
      count += 1
      // The others after it move with the text that went back.
      let delta = item.old.count - item.range.count
      for j in tracked.indices where j != k && tracked[j].range.lowerBound >= item.range.upperBound
      {
        let r = tracked[j].range
        tracked[j].range = (r.lowerBound + delta)..<(r.upperBound + delta)
      }
    }
    #expect(reverted.replacementCount == count)
    #expect(
      Array(String(try document.content.storage("a").text).utf16) == expected,
      "variant \(variant): revert differs from the model")
  }
}
