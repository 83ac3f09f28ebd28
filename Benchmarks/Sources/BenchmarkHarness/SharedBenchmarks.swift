import Benchmark
import BenchmarkSupport
import DocumentEngine
import TextRope

// Benchmarks that both the suite (at one size) and the scaling sweeps (at
// every size) register: each engine operation beside its naive baseline.
// `name` turns a structure ("DocumentEngine", "linear walk", …) into the
// benchmark's full name.

/// The text of cell `k` of a notebook-like document: two short lines.
public func cellText(_ k: Int) -> String { "Cell \(k): some text.\nMore text.\n" }

/// A document of `count` cells, in order.
public func notebookDocument(cells count: Int) throws -> DocumentContent {
  var document = DocumentContent()
  for k in 0..<count {
    try document.add(StorageID("cell\(k)"), text: Rope(cellText(k)))
  }
  return document
}

/// The contexts of `.fullDocument` in a document of `count` cells, against
/// contexts made of each storage's `String` (the plain way: every
/// storage's text kept as a `String`, in order, and a context of each that
/// is not empty).
public func registerFullDocumentBenchmarks(
  cells count: Int, configuration: Benchmark.Configuration, name: (String) -> String
) {
  Benchmark(name("DocumentEngine"), configuration: configuration) { benchmark, document in
    for _ in benchmark.scaledIterations {
      do {
        blackHole(try document.contexts(for: .fullDocument, selection: []).count)
      } catch { fatalError("\(error)") }
    }
  } setup: {
    try notebookDocument(cells: count)
  }

  Benchmark(name("Strings"), configuration: configuration) { benchmark, storages in
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
}

/// Runs `lookup` on the next of `arguments` (a power of two of them, from
/// `next` on), once for each of `benchmark`'s iterations, and keeps the sum
/// of its results alive. Inlinable, so that each caller gets it specialized
/// for its lookup, as if written in place.
@inlinable @inline(__always)
public func runLookups<Subject, Argument>(
  _ benchmark: Benchmark, _ subject: Subject, _ arguments: [Argument], _ next: Box<Int>,
  _ lookup: (Subject, Argument, _ k: Int) -> Int
) {
  precondition(
    arguments.count > 0 && arguments.count & (arguments.count - 1) == 0,
    "runLookups needs a power of two of arguments, not \(arguments.count)")
  let mask = arguments.count - 1
  var i = next.value
  var sum = 0
  for _ in benchmark.scaledIterations {
    sum &+= lookup(subject, arguments[i], i)
    i = (i + 1) & mask
  }
  next.value = i
  blackHole(sum)
}

/// A document offset → (storage, offset) in a document of `count` cells,
/// against a linear walk over the storages' lengths.
public func registerLocateBenchmarks(
  cells count: Int, configuration: Benchmark.Configuration, name: (String) -> String
) {
  let offsetCount = 1 << 12

  Benchmark(name("DocumentEngine"), configuration: configuration) { benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { document, offset, _ in
      do { return try document.locate(offset).offset } catch { fatalError("\(error)") }
    }
  } setup: { () -> (DocumentContent, [Int], Box<Int>) in
    let document = try notebookDocument(cells: count)
    let offsets = randomOffsets(count: offsetCount, below: document.index.length + 1, seed: 8)
    return (document, offsets, Box(0))
  }

  Benchmark(name("linear walk"), configuration: configuration) { benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { lengths, offset, _ in
      var rest = offset
      var k = 0
      while k < lengths.count - 1 && rest >= lengths[k] {
        rest -= lengths[k]
        k += 1
      }
      return k &+ rest
    }
  } setup: { () -> ([Int], [Int], Box<Int>) in
    let lengths = (0..<count).map { cellText($0).utf16.count }
    let offsets = randomOffsets(count: offsetCount, below: lengths.reduce(0, +) + 1, seed: 8)
    return (lengths, offsets, Box(0))
  }
}

/// An offset of a text's old version mapped through the edits of `source`
/// (`ChangeMap.map`), alternately with bias .right and .left (the loop's
/// assoc +1 and −1), against the loop over the edits (`sequential`). The
/// setup checks that both agree.
public func registerMapBenchmarks(
  _ source: @escaping @Sendable () -> EditSequence,
  engine: Benchmark.Configuration, loop: Benchmark.Configuration, name: (String) -> String
) {
  let offsetCount = 1 << 16

  Benchmark(name("ChangeMap"), configuration: engine) { benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { map, offset, i in
      let mapped = map.map(offset, bias: i & 1 == 0 ? .right : .left)
      return mapped.offset &+ (mapped.deleted ? 1 : 0)
    }
  } setup: { () -> (ChangeMap, [Int], Box<Int>) in
    let (length, edits) = source()
    var map = ChangeMap(length: length)
    for edit in edits { map.record(edit.range, insertedLength: edit.inserted) }
    let offsets = randomOffsets(count: offsetCount, below: length + 1, seed: 55)
    for (i, offset) in offsets.prefix(200).enumerated() {
      let assoc = i & 1 == 0 ? 1 : -1
      let engine = map.map(offset, bias: assoc < 0 ? .left : .right)
      let naive = sequentialMap(offset, assoc: assoc, through: edits)
      precondition(engine == naive, "\(offset), \(assoc): ChangeMap \(engine), sequential \(naive)")
    }
    return (map, offsets, Box(0))
  }

  Benchmark(name("sequential"), configuration: loop) { benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { edits, offset, i in
      let mapped = sequentialMap(offset, assoc: i & 1 == 0 ? 1 : -1, through: edits)
      return mapped.offset &+ (mapped.deleted ? 1 : 0)
    }
  } setup: { () -> ([IndexEdit], [Int], Box<Int>) in
    let (length, edits) = source()
    return (edits, randomOffsets(count: offsetCount, below: length + 1, seed: 55), Box(0))
  }
}

/// Times one call of `operation` on a fresh `prepared` value made before
/// `startMeasurement()`, and checks its result with `check` after it.
@inline(__always)
private func measureOnce<Prepared, Result>(
  _ benchmark: Benchmark, _ prepare: () throws -> Prepared,
  _ operation: (Prepared) throws -> Result, check: (Result) -> Bool
) {
  let prepared: Prepared
  do { prepared = try prepare() } catch { fatalError("\(error)") }
  benchmark.startMeasurement()
  let result: Result
  do { result = try operation(prepared) } catch { fatalError("\(error)") }
  benchmark.stopMeasurement()
  precondition(check(result), "unexpected result \(result)")
  blackHole(prepared)
}

/// A tool's replacement on context version 0 after `count` person edits it
/// has not seen (`ReplacementScenario`), against the loop over the edits
/// (`sequential`). One replacement an iteration, each on a fresh document
/// made before the measurement: after its first replacement on basis 0 a
/// tool's next one takes another path.
public func registerReplacementBenchmarks(
  unseenEdits count: Int, engine: Benchmark.Configuration, loop: Benchmark.Configuration,
  name: (String) -> String
) {
  Benchmark(name("Document"), configuration: engine) { benchmark, scenario in
    measureOnce(benchmark, scenario.prepare) { document, context in
      try document.replace(context: context.id, range: scenario.toolRange, with: "word", basis: 0)
    } check: {
      $0.storageRange.lowerBound == scenario.landing
    }
  } setup: {
    try ReplacementScenario(editCount: count, seed: 3)
  }

  // The same replacement with the engine's code and its own data warm in
  // the caches: made on a second document right after one on the first
  // (unmeasured). Building a fresh document of 10,000 edits leaves the
  // caches cold, and the row above pays for that; a host that has just
  // handled a replacement pays what this row does.
  Benchmark(name("Document, code warm"), configuration: engine) { benchmark, scenario in
    measureOnce(
      benchmark,
      { () throws -> (Document, WritingContext) in
        let (first, firstContext) = try scenario.prepare()
        let second = try scenario.prepare()
        _ = try first.replace(
          context: firstContext.id, range: scenario.toolRange, with: "word", basis: 0)
        return second
      }
    ) { document, context in
      try document.replace(context: context.id, range: scenario.toolRange, with: "word", basis: 0)
    } check: {
      $0.storageRange.lowerBound == scenario.landing
    }
  } setup: {
    try ReplacementScenario(editCount: count, seed: 3)
  }

  Benchmark(name("sequential"), configuration: loop) { benchmark, scenario in
    for _ in benchmark.scaledIterations {
      let (range, touched) = sequentialTransform(scenario.storageRange, through: scenario.edits)
      blackHole(range.lowerBound &+ range.upperBound &+ (touched ? 1 : 0))
    }
  } setup: {
    try ReplacementScenario(editCount: count, seed: 3)
  }
}

/// An origin's edit on version 0 after `count` edits it has not seen
/// (`OriginEditScenario`): transformed through every edit since
/// (`Document`), or mapped through the composed map the log keeps from a
/// pinned version that has been mapped from (`Document, map kept`); against
/// the loop over the edits (`sequential`). One edit an iteration, each on a
/// fresh document made before the measurement: after its first edit the
/// origin has an edit in flight.
public func registerOriginEditBenchmarks(
  unseenEdits count: Int, engine: Benchmark.Configuration, loop: Benchmark.Configuration,
  name: (String) -> String
) {
  for (structure, keepingMap) in [("Document", false), ("Document, map kept", true)] {
    Benchmark(name(structure), configuration: engine) { benchmark, scenario in
      measureOnce(benchmark, { try scenario.prepare(keepingMap: keepingMap) }) { document in
        try document.edit("body", range: scenario.range, with: "y", origin: "peer", basis: 0)
      } check: {
        $0.range.lowerBound == scenario.landing
      }
    } setup: {
      try OriginEditScenario(editCount: count, seed: 4)
    }
  }

  // As for replacements: the same edit right after one on another document.
  Benchmark(name("Document, code warm"), configuration: engine) { benchmark, scenario in
    measureOnce(
      benchmark,
      { () throws -> Document in
        let first = try scenario.prepare()
        let second = try scenario.prepare()
        _ = try first.edit("body", range: scenario.range, with: "y", origin: "peer", basis: 0)
        return second
      }
    ) { document in
      try document.edit("body", range: scenario.range, with: "y", origin: "peer", basis: 0)
    } check: {
      $0.range.lowerBound == scenario.landing
    }
  } setup: {
    try OriginEditScenario(editCount: count, seed: 4)
  }

  Benchmark(name("sequential"), configuration: loop) { benchmark, scenario in
    for _ in benchmark.scaledIterations {
      let range = sequentialOriginTransform(scenario.range, through: scenario.edits)
      blackHole(range.lowerBound &+ range.upperBound)
    }
  } setup: {
    try OriginEditScenario(editCount: count, seed: 4)
  }
}
