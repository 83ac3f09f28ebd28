import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import TextRope

// The storage sweep: a document of 1 … 100,000 storages (cells of two short
// lines each, as in a notebook):
// - full document: the contexts of `.fullDocument`, one a storage, against
//   contexts made of each storage's `String`;
// - locate: a document offset → (storage, offset), against a linear walk
//   over the storages' lengths.

private let offsetCount = 1 << 12

private func cellText(_ k: Int) -> String { "Cell \(k): some text.\nMore text.\n" }

private func document(of count: Int) throws -> DocumentContent {
  var document = DocumentContent()
  for k in 0..<count {
    try document.add(StorageID("cell\(k)"), text: Rope(cellText(k)))
  }
  return document
}

func registerStorageSweep() {
  for (label, count) in countDecades {
    let perCall = configuration(
      timeUnits: .nanoseconds, maxDuration: .seconds(count >= 10_000 ? 3 : 1), maxIterations: 1000)
    let perLookup = configuration(
      timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(1), maxIterations: 200)

    Benchmark("Sweep storages/full document/\(label)/DocumentEngine", configuration: perCall) {
      benchmark, document in
      for _ in benchmark.scaledIterations {
        do {
          blackHole(try document.contexts(for: .fullDocument, selection: []).count)
        } catch { fatalError("\(error)") }
      }
    } setup: {
      try document(of: count)
    }

    Benchmark("Sweep storages/full document/\(label)/Strings", configuration: perCall) {
      benchmark, storages in
      for _ in benchmark.scaledIterations {
        var contexts: [(id: StorageID, text: String, range: Range<Int>)] = []
        contexts.reserveCapacity(storages.count)
        for (id, text) in storages where !text.isEmpty {
          contexts.append((id, text, 0..<text.utf16.count))
        }
        blackHole(contexts.count)
      }
    } setup: { () -> [(StorageID, String)] in
      (0..<count).map { k in (StorageID("cell\(k)"), cellText(k)) }
    }

    Benchmark("Sweep storages/locate/\(label)/DocumentEngine", configuration: perLookup) {
      benchmark, state in
      let (document, offsets, next) = state
      var i = next.value
      var sum = 0
      for _ in benchmark.scaledIterations {
        do { sum &+= try document.locate(offsets[i]).offset } catch { fatalError("\(error)") }
        i = (i + 1) & (offsetCount - 1)
      }
      next.value = i
      blackHole(sum)
    } setup: { () -> (DocumentContent, [Int], Box<Int>) in
      let document = try document(of: count)
      let offsets = randomOffsets(count: offsetCount, below: document.index.length + 1, seed: 8)
      return (document, offsets, Box(0))
    }

    Benchmark("Sweep storages/locate/\(label)/linear walk", configuration: perLookup) {
      benchmark, state in
      let (lengths, offsets, next) = state
      var i = next.value
      var sum = 0
      for _ in benchmark.scaledIterations {
        var rest = offsets[i]
        var k = 0
        while k < lengths.count - 1 && rest >= lengths[k] {
          rest -= lengths[k]
          k += 1
        }
        sum &+= k &+ rest
        i = (i + 1) & (offsetCount - 1)
      }
      next.value = i
      blackHole(sum)
    } setup: { () -> ([Int], [Int], Box<Int>) in
      let lengths = (0..<count).map { cellText($0).utf16.count }
      let offsets = randomOffsets(count: offsetCount, below: lengths.reduce(0, +) + 1, seed: 8)
      return (lengths, offsets, Box(0))
    }
  }
}
