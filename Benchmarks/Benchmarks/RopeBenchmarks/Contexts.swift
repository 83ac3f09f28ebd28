import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import TextRope

// 8. Contexts: a selection context in a 100 MB storage, the full document of
//    10,000 storages, and document offset -> (storage, offset) with 10,000
//    storages. Baselines: the same answers computed the plain way beside it
//    (a String's paragraph search, contexts made of Strings, a linear walk
//    over the storages).

func registerContextBenchmarks() {
  let perOperation = configuration(
    timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 2000)
  let offsetCount = 1 << 12

  Benchmark("Contexts/selection in 100 MB/DocumentEngine", configuration: perOperation) {
    benchmark, state in
    let (document, selections, start) = state
    var i = start.value
    var sum = 0
    for _ in benchmark.scaledIterations {
      do {
        let contexts = try document.contexts(for: .userSelection, selection: [selections[i]])
        sum &+= contexts[0].storageRange.lowerBound
      } catch { fatalError("\(error)") }
      i = (i + 1) & (offsetCount - 1)
    }
    start.value = i
    blackHole(sum)
  } setup: { () -> (DocumentContent, [SelectionRange], Box<Int>) in
    var document = DocumentContent()
    let rope = Rope(TextGenerator.string(byteCount: 100 * megabyte))
    try document.add("body", text: rope)
    let selections = validUTF16Offsets(in: rope, count: offsetCount).map { offset in
      SelectionRange(caret: TextPosition("body", offset))
    }.map { caret -> SelectionRange in
      // A one-character selection (or a caret at the very end).
      let end =
        (try? rope.convert(
          (try? rope.convert(caret.start.offset, from: .utf16, to: .unicodeScalars)).map { $0 + 1 }
            ?? 0,
          from: .unicodeScalars, to: .utf16)) ?? caret.start.offset
      return SelectionRange("body", caret.start.offset..<end)
    }
    return (document, selections, Box(0))
  }

  let perCall = configuration(
    timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 1000)

  Benchmark("Contexts/full document of 10,000 storages/DocumentEngine", configuration: perCall) {
    benchmark, document in
    for _ in benchmark.scaledIterations {
      do {
        blackHole(try document.contexts(for: .fullDocument, selection: []).count)
      } catch { fatalError("\(error)") }
    }
  } setup: { () -> DocumentContent in
    var document = DocumentContent()
    for k in 0..<10_000 {
      try document.add(StorageID("cell\(k)"), text: Rope("Cell \(k): some text.\nMore text.\n"))
    }
    return document
  }

  // The plain way: every storage's text kept as a `String`, in order, and a
  // context (the text and its range) made of each that is not empty.
  Benchmark("Contexts/full document of 10,000 storages/Strings", configuration: perCall) {
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
    (0..<10_000).map { k in (StorageID("cell\(k)"), "Cell \(k): some text.\nMore text.\n") }
  }

  Benchmark("Contexts/locate with 10,000 storages/DocumentEngine", configuration: perOperation) {
    benchmark, state in
    let (document, offsets, start) = state
    var i = start.value
    var sum = 0
    for _ in benchmark.scaledIterations {
      do { sum &+= try document.locate(offsets[i]).offset } catch { fatalError("\(error)") }
      i = (i + 1) & (offsetCount - 1)
    }
    start.value = i
    blackHole(sum)
  } setup: { () -> (DocumentContent, [Int], Box<Int>) in
    var document = DocumentContent()
    for k in 0..<10_000 {
      try document.add(StorageID("cell\(k)"), text: Rope("Cell \(k): some text.\nMore text.\n"))
    }
    let offsets = randomOffsets(count: offsetCount, below: document.index.length + 1, seed: 8)
    return (document, offsets, Box(0))
  }

  Benchmark("Contexts/locate with 10,000 storages/linear walk", configuration: perOperation) {
    benchmark, state in
    let (lengths, offsets, start) = state
    var i = start.value
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
    start.value = i
    blackHole(sum)
  } setup: { () -> ([Int], [Int], Box<Int>) in
    let lengths = (0..<10_000).map { "Cell \($0): some text.\nMore text.\n".utf16.count }
    let offsets = randomOffsets(count: offsetCount, below: lengths.reduce(0, +) + 1, seed: 8)
    return (lengths, offsets, Box(0))
  }
}
