import Benchmark
import BenchmarkHarness

// The storage sweep: a document of 1 … 100,000 storages (cells of two short
// lines each, as in a notebook):
// - full document: the contexts of `.fullDocument`, one a storage, against
//   contexts made of each storage's `String`;
// - locate: a document offset → (storage, offset), against a linear walk
//   over the storages' lengths.
// The benchmarks themselves are BenchmarkHarness's (SharedBenchmarks.swift),
// which the suite runs at 10,000 storages.

func registerStorageSweep() {
  for (label, count) in countDecades {
    registerFullDocumentBenchmarks(
      cells: count,
      configuration: configuration(
        timeUnits: .nanoseconds, maxDuration: .seconds(count >= 10_000 ? 3 : 1),
        maxIterations: 1000)
    ) { "Sweep storages/full document/\(label)/\($0)" }

    registerLocateBenchmarks(
      cells: count,
      configuration: configuration(
        timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(1),
        maxIterations: 200)
    ) { "Sweep storages/locate/\(label)/\($0)" }
  }
}
