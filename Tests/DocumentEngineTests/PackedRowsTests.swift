import Testing
import _EngineTestSupport

@testable import DocumentEngine

/// `_PackedRows` against an array of rows: appends across block and chunk
/// edges, values of every size (differences that wrap around), removals at
/// the front (inside a block, of whole blocks and chunks, of everything),
/// copies that share chunks and then diverge.
@Suite struct PackedRowsTests {
  typealias Row = _PackedRows.Row

  /// A row of the kind `kind` picks: small steps (typing), random places
  /// in a large text, or any value at all.
  static func row(after last: Row, kind: Int, using random: inout SeededRandom) -> Row {
    switch kind {
    case 0:
      return Row(
        last.a + Int.random(in: -2...2, using: &random), Int.random(in: 0...1, using: &random),
        Int.random(in: 0...3, using: &random), last.d + Int.random(in: -1...1, using: &random))
    case 1:
      return Row(
        Int.random(in: 0..<100_000_000, using: &random), Int.random(in: 0...10, using: &random),
        Int.random(in: 0..<1000, using: &random), Int.random(in: 0..<1 << 40, using: &random))
    default:
      return Row(
        Int(bitPattern: UInt(random.next())), Int(bitPattern: UInt(random.next())),
        [Int.min, Int.max, 0, -1][Int.random(in: 0..<4, using: &random)],
        Int(bitPattern: UInt(random.next())))
    }
  }

  @Test func randomizedAgainstArray() {
    let seed = TestSettings.seed("PackedRowsTests.randomizedAgainstArray")
    var random = SeededRandom(seed: seed)
    let block = _PackedRows.blockSize
    for round in 0..<TestSettings.iterations(30) {
      var packed = _PackedRows()
      var model: [Row] = []
      var copies: [(_PackedRows, [Row])] = []
      let kind = Int.random(in: 0...2, using: &random)
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6:
          // Appends: a few, past block edges, or past chunk edges.
          let count =
            [
              Int.random(in: 0...5, using: &random),
              Int.random(in: block - 3...3 * block + 3, using: &random),
              Int.random(in: 5000...20_000, using: &random),
            ][Int.random(in: 0...2, using: &random)]
          for _ in 0..<count {
            let row = Self.row(
              after: model.last ?? Row(0, 0, 0, 0), kind: kind, using: &random)
            packed.append(row)
            model.append(row)
          }
        case 6..<8:
          let k = Int.random(in: 0...model.count, using: &random)
          packed.removeFirst(k)
          model.removeFirst(k)
        case 8:
          packed.removeAll(keepingCapacity: Bool.random(using: &random))
          model.removeAll()
        default:
          copies.append((packed, model))
        }
        #expect(packed.count == model.count, "round \(round), SEED=\(seed)")
        #expect(packed.lastRow == model.last, "round \(round), SEED=\(seed)")
        if !model.isEmpty {
          let i = Int.random(in: 0..<model.count, using: &random)
          #expect(packed[i] == model[i], "round \(round), SEED=\(seed)")
          // Rows from i: in order, each at its index, up to a stop.
          let stop = Int.random(in: i...model.count, using: &random)
          var seen: [Row] = []
          packed.forEach(from: i) { row, position in
            #expect(position == i + seen.count, "round \(round), SEED=\(seed)")
            seen.append(row)
            return i + seen.count < stop
          }
          #expect(
            seen.count == max(1, stop - i) && Array(model[i..<i + seen.count]) == seen,
            "round \(round), SEED=\(seed)")
        }
      }
      // Every copy kept its rows while the original went on.
      for (copy, rows) in copies {
        var all: [Row] = []
        copy.forEach(from: 0) { row, _ in
          all.append(row)
          return true
        }
        #expect(all == rows, "round \(round), SEED=\(seed)")
      }
    }
  }

  /// A person's keystroke takes a few bytes: 100,000 rows of typing take
  /// under 6 bytes each, anchors and chunk slack included.
  @Test func typingTakesAFewBytesARow() {
    var packed = _PackedRows()
    var start = 5000
    var length = 1_000_000
    for k in 0..<100_000 {
      let deletes = k % 7 == 6
      packed.append(Row(start, deletes ? 1 : 0, deletes ? 0 : 2, length))
      start += deletes ? -1 : 1
      length += deletes ? -1 : 1
    }
    #expect(packed.capacity < 6 * 100_000, "\(packed.capacity) bytes")
    #expect(packed[99_999] == Row(start - 1, 0, 2, length - 1))
  }
}
