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
  /// under 7 bytes each (a size byte and a byte a column), anchors and
  /// chunk slack included.
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
    #expect(packed.capacity < 7 * 100_000, "\(packed.capacity) bytes")
    #expect(packed[99_999] == Row(start - 1, 0, 2, length - 1))
  }
}

/// `_EditRows` (a change log's rows, a word each) against an array of
/// rows: the same appends, removals and copies, with rows as a log makes
/// them (each row's text length before it is the last one's after), of
/// every size — rows that fit a word and rows kept whole beside them.
@Suite struct EditRowsTests {
  typealias Row = _PackedRows.Row

  static func row(after last: Row?, kind: Int, using random: inout SeededRandom) -> Row {
    let before =
      last.map { $0.d + ($0.c >> 1) - $0.b } ?? Int.random(in: 0..<1 << 40, using: &random)
    let lower: Int
    let count: Int
    let length: Int
    switch kind {
    case 0:
      lower = max(0, (last?.a ?? 0) + Int.random(in: -2...2, using: &random))
      count = Int.random(in: 0...1, using: &random)
      length = Int.random(in: 0...3, using: &random)
    case 1:
      lower = Int.random(in: 0..<100_000_000, using: &random)
      count = Int.random(in: 0...5000, using: &random)
      length = Int.random(in: 0..<2_000_000, using: &random)
    default:
      lower = Int.random(in: 0..<1 << 40, using: &random)
      count = [0, 4094, 4095, 4096, 1 << 30][Int.random(in: 0..<5, using: &random)]
      length = [0, (1 << 20) - 1, 1 << 20, 1 << 35][Int.random(in: 0..<4, using: &random)]
    }
    return Row(lower, count, length << 1 | Int.random(in: 0...1, using: &random), before)
  }

  @Test func randomizedAgainstArray() {
    let seed = TestSettings.seed("EditRowsTests.randomizedAgainstArray")
    var random = SeededRandom(seed: seed)
    for round in 0..<TestSettings.iterations(30) {
      var rows = _EditRows()
      var model: [Row] = []
      var copies: [(_EditRows, [Row])] = []
      var last: Row? = nil
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6:
          let count =
            [
              Int.random(in: 0...5, using: &random),
              Int.random(in: 61...200, using: &random),
              Int.random(in: 5000...10_000, using: &random),
            ][Int.random(in: 0...2, using: &random)]
          for _ in 0..<count {
            let row = Self.row(
              after: last, kind: Int.random(in: 0...2, using: &random), using: &random)
            rows.append(row)
            model.append(row)
            last = row
          }
        case 6..<8:
          let k = Int.random(in: 0...model.count, using: &random)
          rows.removeFirst(k)
          model.removeFirst(k)
        case 8:
          rows.removeAll(keepingCapacity: Bool.random(using: &random))
          model.removeAll()
        default:
          copies.append((rows, model))
        }
        #expect(rows.count == model.count, "round \(round), SEED=\(seed)")
        if !model.isEmpty {
          let i = Int.random(in: 0..<model.count, using: &random)
          #expect(rows[i] == model[i], "round \(round), SEED=\(seed)")
          let stop = Int.random(in: i...model.count, using: &random)
          var seen: [Row] = []
          rows.forEach(from: i) { row, position in
            #expect(position == i + seen.count, "round \(round), SEED=\(seed)")
            seen.append(row)
            return i + seen.count < stop
          }
          #expect(
            seen.count == max(1, stop - i) && Array(model[i..<i + seen.count]) == seen,
            "round \(round), SEED=\(seed)")
        }
      }
      for (copy, expected) in copies {
        var all: [Row] = []
        copy.forEach(from: 0) { row, _ in
          all.append(row)
          return true
        }
        #expect(all == expected, "round \(round), SEED=\(seed)")
      }
    }
  }
}
