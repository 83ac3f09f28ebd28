import DocumentEngine
import Testing
import TextRope
import _EngineTestSupport

/// Random documents and selections, with the contexts computed by a plain
/// model of the contract (paragraph starts found by scanning scalars).
@Suite struct ContextModelTests {
  struct Storage {
    var id: StorageID
    var model: TextModel
    var length: Int { model.utf16Count }

    /// UTF-16 offsets where paragraphs start: 0 and after every separator.
    var paragraphStarts: [Int] {
      var starts = [0]
      var u16 = 0
      for (i, s) in model.scalars.enumerated() {
        u16 += UTF16.width(s)
        if model.endsSeparator(i) { starts.append(u16) }
      }
      return starts
    }

    /// The index of the paragraph holding the character that starts at
    /// UTF-16 offset `offset` (or the offset itself).
    func paragraph(at offset: Int) -> Int {
      paragraphStarts.lastIndex { $0 <= offset } ?? 0
    }

    /// The UTF-16 offset where the last character before `offset` starts.
    func lastCharacterStart(before offset: Int) -> Int {
      var u16 = 0
      var last = 0
      for s in model.scalars {
        if u16 >= offset { break }
        last = u16
        u16 += UTF16.width(s)
      }
      return last
    }

    func bounds(_ range: Range<Int>, extra: Int) -> Range<Int> {
      let starts = paragraphStarts
      let first = paragraph(at: range.lowerBound)
      let last = range.isEmpty ? first : paragraph(at: lastCharacterStart(before: range.upperBound))
      let start = starts[max(0, first - extra)]
      let endIndex = last + extra + 1
      return start..<(endIndex < starts.count ? starts[endIndex] : length)
    }
  }

  @Test func randomDocumentsAgainstTheModel() throws {
    var rng = SeededRandom(seed: TestSettings.seed("contexts vs model"))
    for _ in 0..<TestSettings.iterations(300) {
      var document = DocumentContent()
      var storages: [Storage] = []
      for k in 0..<Int.random(in: 1...4, using: &rng) {
        let text =
          Int.random(in: 0..<5, using: &rng) == 0
          ? "" : rng.randomText(pieces: Int.random(in: 1...25, using: &rng))
        try document.add(StorageID("s\(k)"), text: Rope(text))
        storages.append(Storage(id: StorageID("s\(k)"), model: TextModel(text)))
      }
      func randomPosition() -> (index: Int, offset: Int) {
        let index = Int.random(in: 0..<storages.count, using: &rng)
        let bounds = storages[index].model.boundaries
        return (index, (bounds.randomElement(using: &rng) ?? bounds[0]).utf16)
      }
      var ranges: [(start: (index: Int, offset: Int), end: (index: Int, offset: Int))] = []
      for _ in 0..<Int.random(in: 1...2, using: &rng) {
        let a = randomPosition()
        let b = Bool.random(using: &rng) ? a : randomPosition()
        ranges.append((a.index, a.offset) <= (b.index, b.offset) ? (a, b) : (b, a))
      }
      let selection = ranges.map {
        SelectionRange(
          from: TextPosition(storages[$0.start.index].id, $0.start.offset),
          to: TextPosition(storages[$0.end.index].id, $0.end.offset))
      }
      let extra = Int.random(in: 0...2, using: &rng)
      var visible: [StorageID: Range<Int>] = [:]
      for storage in storages where Bool.random(using: &rng) {
        let bounds = storage.model.boundaries
        let a = (bounds.randomElement(using: &rng) ?? bounds[0]).utf16
        let b = (bounds.randomElement(using: &rng) ?? bounds[0]).utf16
        visible[storage.id] = min(a, b)..<max(a, b)
      }

      // The model's selected hull and caret in storage k.
      func hull(_ k: Int) -> Range<Int>? {
        var result: Range<Int>? = nil
        for r in ranges where !(r.start == r.end) && r.start.index <= k && k <= r.end.index {
          let lower = r.start.index == k ? r.start.offset : 0
          let upper = r.end.index == k ? r.end.offset : storages[k].length
          guard lower < upper else { continue }
          result =
            result.map { min($0.lowerBound, lower)..<max($0.upperBound, upper) } ?? lower..<upper
        }
        return result
      }
      func caret(_ k: Int) -> Int? {
        ranges.first { $0.start == $0.end && $0.start.index == k }?.start.offset
      }
      let hasCharacters = ranges.contains { !($0.start == $0.end) }

      var expected: [ContextScope: [(StorageID, Range<Int>, Range<Int>)]] = [:]
      for scope in ContextScope.allCases {
        var list: [(StorageID, Range<Int>, Range<Int>)] = []
        for (k, storage) in storages.enumerated() {
          switch scope {
          case .userSelection:
            if hasCharacters {
              guard let h = hull(k) else { continue }
              let b = storage.bounds(h, extra: extra)
              list.append(
                (storage.id, b, (h.lowerBound - b.lowerBound)..<(h.upperBound - b.lowerBound)))
            } else if let c = caret(k) {
              list.append((storage.id, 0..<storage.length, c..<c))
            }
          case .fullDocument:
            guard storage.length > 0 else { continue }
            let selected = hull(k) ?? caret(k).map { $0..<$0 } ?? 0..<storage.length
            list.append((storage.id, 0..<storage.length, selected))
          case .visibleArea:
            guard let shown = visible[storage.id] else { continue }
            let b = storage.bounds(shown, extra: 0)
            var selected = shown
            if let h = hull(k), h.overlaps(b) {
              selected = h.clamped(to: b)
            } else if let c = caret(k) {
              // A caret belongs to the paragraph it stands in (after a
              // separator: the next one; at the end of the text: the last).
              let first = storage.paragraph(at: shown.lowerBound)
              let last =
                shown.isEmpty
                ? first
                : storage.paragraph(at: storage.lastCharacterStart(before: shown.upperBound))
              if (first...last).contains(storage.paragraph(at: c)) { selected = c..<c }
            }
            list.append(
              (
                storage.id, b,
                (selected.lowerBound - b.lowerBound)..<(selected.upperBound - b.lowerBound)
              ))
          }
        }
        expected[scope] = list
      }

      for scope in ContextScope.allCases {
        let contexts = try document.contexts(
          for: scope, selection: selection, visible: visible,
          surroundingParagraphs: scope == .userSelection ? extra : 0)
        let want = expected[scope] ?? []
        #expect(contexts.map(\.storage) == want.map(\.0), "\(scope)")
        #expect(contexts.map(\.storageRange) == want.map(\.1), "\(scope)")
        #expect(contexts.map(\.range) == want.map(\.2), "\(scope)")
        for context in contexts {
          let whole = String(try document.storage(context.storage).text)
          let utf16 = Array(whole.utf16)[context.storageRange]
          #expect(String(context.text) == String(decoding: Array(utf16), as: UTF16.self))
        }
      }
    }
  }
}
