import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import TextRope

// The unseen-edits sweep: 1 … 100,000 edits between the version a party
// knows and the current one (IndexScenarios.swift):
// - map: an offset of the old version mapped through the edits
//   (`ChangeMap.map`), for random typing-like edits of 1 MB;
// - replace on basis 0: a tool's replacement on its context's first version
//   after the person's edits around it (`Document.replace(…basis: 0)`);
// - origin edit on basis 0: a peer's edit on version 0 after the person's
//   edits before and after it (`Document.edit(…origin:basis: 0)`);
// each against the naive loop over the edits (`sequential`). Every setup
// checks that the engine and the loop agree.

private let offsetCount = 1 << 12

func registerUnseenEditSweep() {
  for (label, count) in countDecades {
    registerMapPoints(label, count)
    registerReplacementPoints(label, count)
  }
}

private func registerMapPoints(_ label: String, _ count: Int) {
  let perMap = configuration(
    timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(1), maxIterations: 200)
  let perSequentialMap = configuration(
    timeUnits: .nanoseconds, scalingFactor: count <= 1000 ? .kilo : .one,
    maxDuration: .seconds(1), maxIterations: 1000)
  let edits = { typingEdits(count: count, length: megabyte, seed: 5) }

  Benchmark("Sweep unseen edits/map/\(label)/ChangeMap", configuration: perMap) {
    benchmark, state in
    let (map, offsets, next) = state
    var i = next.value
    var sum = 0
    for _ in benchmark.scaledIterations {
      let mapped = map.map(offsets[i], bias: i & 1 == 0 ? .right : .left)
      sum &+= mapped.offset &+ (mapped.deleted ? 1 : 0)
      i = (i + 1) & (offsetCount - 1)
    }
    next.value = i
    blackHole(sum)
  } setup: { () -> (ChangeMap, [Int], Box<Int>) in
    let edits = edits()
    var map = ChangeMap(length: megabyte)
    for edit in edits { map.record(edit.range, insertedLength: edit.inserted) }
    let offsets = randomOffsets(count: offsetCount, below: megabyte + 1, seed: 55)
    for (i, offset) in offsets.prefix(200).enumerated() {
      let assoc = i & 1 == 0 ? 1 : -1
      let engine = map.map(offset, bias: assoc < 0 ? .left : .right)
      let naive = sequentialMap(offset, assoc: assoc, through: edits)
      precondition(engine == naive, "\(offset), \(assoc): ChangeMap \(engine), sequential \(naive)")
    }
    return (map, offsets, Box(0))
  }

  Benchmark("Sweep unseen edits/map/\(label)/sequential", configuration: perSequentialMap) {
    benchmark, state in
    let (edits, offsets, next) = state
    var i = next.value
    var sum = 0
    for _ in benchmark.scaledIterations {
      let mapped = sequentialMap(offsets[i], assoc: i & 1 == 0 ? 1 : -1, through: edits)
      sum &+= mapped.offset &+ (mapped.deleted ? 1 : 0)
      i = (i + 1) & (offsetCount - 1)
    }
    next.value = i
    blackHole(sum)
  } setup: { () -> ([IndexEdit], [Int], Box<Int>) in
    (edits(), randomOffsets(count: offsetCount, below: megabyte + 1, seed: 55), Box(0))
  }
}

private func registerReplacementPoints(_ label: String, _ count: Int) {
  // One replacement (or origin edit) an iteration, each on a fresh document
  // made before `startMeasurement()`: after a first replacement on basis 0
  // a tool's next one takes another path.
  let perReplacement = configuration(
    timeUnits: .nanoseconds, maxDuration: .seconds(count >= 10_000 ? 20 : 5),
    maxIterations: count >= 10_000 ? 40 : 200)
  let perTransform = configuration(
    timeUnits: .nanoseconds, scalingFactor: count <= 1000 ? .kilo : .one,
    maxDuration: .seconds(1), maxIterations: 1000)

  Benchmark(
    "Sweep unseen edits/replace on basis 0/\(label)/Document", configuration: perReplacement
  ) { benchmark, scenario in
    let document: Document
    let context: WritingContext
    do { (document, context) = try scenario.prepare() } catch { fatalError("\(error)") }
    benchmark.startMeasurement()
    let result: ReplacementResult
    do {
      result = try document.replace(
        context: context.id, range: scenario.toolRange, with: "word", basis: 0)
    } catch { fatalError("\(error)") }
    benchmark.stopMeasurement()
    precondition(result.storageRange.lowerBound == scenario.landing)
    blackHole(document)
  } setup: {
    try ReplacementScenario(editCount: count, seed: 3)
  }

  Benchmark(
    "Sweep unseen edits/replace on basis 0/\(label)/sequential", configuration: perTransform
  ) { benchmark, scenario in
    for _ in benchmark.scaledIterations {
      let (range, touched) = sequentialTransform(scenario.storageRange, through: scenario.edits)
      blackHole(range.lowerBound &+ range.upperBound &+ (touched ? 1 : 0))
    }
  } setup: {
    try ReplacementScenario(editCount: count, seed: 3)
  }

  Benchmark(
    "Sweep unseen edits/origin edit on basis 0/\(label)/Document", configuration: perReplacement
  ) { benchmark, scenario in
    let document: Document
    do { document = try scenario.prepare() } catch { fatalError("\(error)") }
    benchmark.startMeasurement()
    let result: EditResult
    do {
      result = try document.edit(
        "body", range: scenario.range, with: "y", origin: "peer", basis: 0)
    } catch { fatalError("\(error)") }
    benchmark.stopMeasurement()
    precondition(result.range.lowerBound == scenario.landing)
    blackHole(document)
  } setup: {
    try OriginEditScenario(editCount: count, seed: 4)
  }

  Benchmark(
    "Sweep unseen edits/origin edit on basis 0/\(label)/sequential", configuration: perTransform
  ) { benchmark, scenario in
    for _ in benchmark.scaledIterations {
      let range = sequentialOriginTransform(scenario.range, through: scenario.edits)
      blackHole(range.lowerBound &+ range.upperBound)
    }
  } setup: {
    try OriginEditScenario(editCount: count, seed: 4)
  }
}
