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

  registerFullDocumentBenchmarks(
    cells: 10_000,
    configuration: configuration(
      timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 1000)
  ) { "Contexts/full document of 10,000 storages/\($0)" }

  registerLocateBenchmarks(cells: 10_000, configuration: perOperation) {
    "Contexts/locate with 10,000 storages/\($0)"
  }
}
