import Benchmark
import BenchmarkHarness
import BenchmarkSupport

// The unseen-edits sweep: 1 … 100,000 edits between the version a party
// knows and the current one:
// - map: an offset of the old version mapped through the edits
//   (`ChangeMap.map`), for random typing-like edits of 1 MB;
// - replace on basis 0: a tool's replacement on its context's first version
//   after the person's edits around it (`Document.replace(…basis: 0)`);
// - origin edit on basis 0: a peer's edit on version 0 after the person's
//   edits before and after it (`Document.edit(…origin:basis: 0)`);
// each against the naive loop over the edits (`sequential`). The benchmarks
// themselves are BenchmarkHarness's (SharedBenchmarks.swift), which the
// suite runs at one count each; the scenarios are BenchmarkSupport's
// (IndexScenarios.swift), and every setup checks that the engine and the
// loop agree.

func registerUnseenEditSweep() {
  for (label, count) in countDecades {
    // The loop is timed 1,000 calls to an iteration while it is short.
    let loop = configuration(
      timeUnits: .nanoseconds, scalingFactor: count <= 1000 ? .kilo : .one,
      maxDuration: .seconds(1), maxIterations: 1000)

    let edits: @Sendable () -> EditSequence = {
      (megabyte, typingEdits(count: count, length: megabyte, seed: 5))
    }
    registerMapBenchmarks(
      edits,
      engine: configuration(
        timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(1),
        maxIterations: 200),
      loop: loop
    ) { "Sweep unseen edits/map/\(label)/\($0)" }

    // One replacement or origin edit an iteration, on a fresh document each.
    let once = configuration(
      timeUnits: .nanoseconds, maxDuration: .seconds(count >= 10_000 ? 20 : 5),
      maxIterations: count >= 10_000 ? 40 : 200)
    registerReplacementBenchmarks(unseenEdits: count, engine: once, loop: loop) {
      "Sweep unseen edits/replace on basis 0/\(label)/\($0)"
    }
    registerOriginEditBenchmarks(unseenEdits: count, engine: once, loop: loop) {
      "Sweep unseen edits/origin edit on basis 0/\(label)/\($0)"
    }
  }
}
