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
  registerUnseenEditBenchmarks()
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
  for source in editSources {
    registerMapBenchmarks(
      source.make,
      engine: configuration(
        timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3),
        maxIterations: 2000),
      loop: configuration(timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 2000)
    ) { "OffsetIndex/map, \(source.name)/\($0)" }
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

private func registerUnseenEditBenchmarks() {
  // One replacement (or origin edit) an iteration, each on a fresh document.
  let perReplacement = configuration(
    timeUnits: .nanoseconds, maxDuration: .seconds(30), maxIterations: 300)
  let perTransform = configuration(
    timeUnits: .nanoseconds, maxDuration: .seconds(3), maxIterations: 2000)

  registerReplacementBenchmarks(unseenEdits: 10_000, engine: perReplacement, loop: perTransform) {
    "OffsetIndex/replace on basis 0, 10,000 unseen edits/\($0)"
  }
  registerOriginEditBenchmarks(unseenEdits: 1000, engine: perReplacement, loop: perTransform) {
    "OffsetIndex/origin edit on basis 0, 1,000 unseen edits/\($0)"
  }
}
