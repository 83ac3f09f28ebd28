import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import TextRope

// 9. The offset index (issue 5). Each engine benchmark runs beside a naive
//    baseline that answers the same question from a plain array of the edits,
//    walked one edit at a time (ProseMirror's `Mapping`, two-party OT without
//    an index):
//    - map an offset through 100,000 composed edits (`ChangeMap.map`);
//    - record 100,000 edits into a `ChangeLog`, with one composed pin and
//      with none (appending to an array is the baseline);
//    - a tool replacement on context version 0 after 10,000 edits it has not
//      seen (`Document.replace(context:range:with:basis:)`);
//    - an origin's edit on a version 1,000 edits old
//      (`Document.edit(_:range:with:origin:basis:)`).
//    Every setup checks that the engine and the baseline give the same answer.

func registerOffsetIndexBenchmarks() {
  registerMappingBenchmarks()
  registerRecordingBenchmarks()
  registerReplacementBenchmarks()
}

/// The edit sequences of the mapping and recording benchmarks: 100,000
/// random typing-like edits of 1 MB, and the last 100,000 of the 137,993
/// patches of seph-blog1 (real typing: mostly runs of adjacent one-scalar
/// edits), from the text of its first 37,993.
private let editSources: [(name: String, make: @Sendable () -> EditSequence)] = [
  ("100,000 random edits", { (megabyte, typingEdits(count: 100_000, length: megabyte, seed: 5)) }),
  ("seph-blog1 last 100,000 patches", { traceEdits("seph-blog1", last: 100_000) }),
]

private func registerMappingBenchmarks() {
  let perMap = configuration(
    timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 2000)
  let perSequentialMap = configuration(
    timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 2000)
  let offsetCount = 1 << 16

  for source in editSources {
    // Mapping alternates bias .right and .left (the baseline's assoc +1
    // and −1) over pre-generated random offsets of the base version.
    Benchmark("OffsetIndex/map, \(source.name)/ChangeMap", configuration: perMap) {
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
      let (length, edits) = source.make()
      var map = ChangeMap(length: length)
      for edit in edits { map.record(edit.range, insertedLength: edit.inserted) }
      let offsets = randomOffsets(count: offsetCount, below: length + 1, seed: 55)
      for (i, offset) in offsets.prefix(200).enumerated() {
        let assoc = i & 1 == 0 ? 1 : -1
        let engine = map.map(offset, bias: assoc < 0 ? .left : .right)
        let naive = sequentialMap(offset, assoc: assoc, through: edits)
        precondition(
          engine == naive, "\(offset), \(assoc): ChangeMap \(engine), sequential \(naive)")
      }
      return (map, offsets, Box(0))
    }

    Benchmark("OffsetIndex/map, \(source.name)/sequential", configuration: perSequentialMap) {
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
      let (length, edits) = source.make()
      return (edits, randomOffsets(count: offsetCount, below: length + 1, seed: 55), Box(0))
    }
  }
}

private func registerRecordingBenchmarks() {
  // One iteration records the whole sequence into a fresh log or map (made
  // before the measurement, freed after it); divide by 100,000 for the time
  // an edit. With a composed map an iteration takes seconds, so there is no
  // warm-up iteration and only a few samples.
  let perSlowSequence = configuration(
    timeUnits: .microseconds, warmupIterations: 0, maxDuration: .seconds(40), maxIterations: 20)
  let perSequence = configuration(
    timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 200)

  for source in editSources {
    for composing in [true, false] {
      let kind = composing ? "ChangeLog, composed pin" : "ChangeLog, no pin"
      Benchmark(
        "OffsetIndex/record, \(source.name)/\(kind)",
        configuration: composing ? perSlowSequence : perSequence
      ) { benchmark, state in
        let (length, edits) = state
        var log = ChangeLog(version: 0, length: length)
        if composing {
          do { try log.pin(0, composing: true) } catch { fatalError("\(error)") }
        }
        benchmark.startMeasurement()
        for edit in edits {
          log.record(edit.range, insertedLength: edit.inserted, party: .person)
        }
        benchmark.stopMeasurement()
        precondition(log.currentVersion.rawValue == edits.count)
        blackHole(log)
      } setup: {
        source.make()
      }
    }

    // The composed map alone, to tell its cost from the log's.
    Benchmark(
      "OffsetIndex/record, \(source.name)/ChangeMap alone", configuration: perSlowSequence
    ) { benchmark, state in
      let (length, edits) = state
      var map = ChangeMap(length: length)
      benchmark.startMeasurement()
      for edit in edits {
        map.record(edit.range, insertedLength: edit.inserted)
      }
      benchmark.stopMeasurement()
      blackHole(map)
    } setup: {
      source.make()
    }

    Benchmark("OffsetIndex/record, \(source.name)/array", configuration: perSequence) {
      benchmark, state in
      let (_, edits) = state
      var log: [(Range<Int>, Int)] = []
      benchmark.startMeasurement()
      for edit in edits {
        log.append((edit.range, edit.inserted))
      }
      benchmark.stopMeasurement()
      precondition(log.count == edits.count)
      blackHole(log)
    } setup: {
      source.make()
    }
  }
}

private func registerReplacementBenchmarks() {
  // One replacement (or origin edit) an iteration, each on a fresh document:
  // after its first replacement on basis 0, a tool's next one takes the
  // slower path, and after an origin's first edit it has an edit in flight.
  // Building the document and making the edits happens before
  // `startMeasurement()`.
  let perReplacement = configuration(
    timeUnits: .nanoseconds, maxDuration: .seconds(30), maxIterations: 300)
  let perTransform = configuration(
    timeUnits: .nanoseconds, maxDuration: .seconds(3), maxIterations: 2000)

  Benchmark(
    "OffsetIndex/replace on basis 0, 10,000 unseen edits/Document", configuration: perReplacement
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
    try ReplacementScenario(editCount: 10_000, seed: 3)
  }

  Benchmark(
    "OffsetIndex/replace on basis 0, 10,000 unseen edits/sequential", configuration: perTransform
  ) { benchmark, scenario in
    for _ in benchmark.scaledIterations {
      let (range, touched) = sequentialTransform(scenario.storageRange, through: scenario.edits)
      blackHole(range.lowerBound &+ range.upperBound &+ (touched ? 1 : 0))
    }
  } setup: {
    try ReplacementScenario(editCount: 10_000, seed: 3)
  }

  Benchmark(
    "OffsetIndex/origin edit on basis 0, 1,000 unseen edits/Document", configuration: perReplacement
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
    try OriginEditScenario(editCount: 1000, seed: 4)
  }

  Benchmark(
    "OffsetIndex/origin edit on basis 0, 1,000 unseen edits/sequential", configuration: perTransform
  ) { benchmark, scenario in
    for _ in benchmark.scaledIterations {
      let range = sequentialOriginTransform(scenario.range, through: scenario.edits)
      blackHole(range.lowerBound &+ range.upperBound)
    }
  } setup: {
    try OriginEditScenario(editCount: 1000, seed: 4)
  }
}
