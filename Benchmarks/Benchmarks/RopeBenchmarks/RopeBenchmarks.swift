import Benchmark
import Foundation

// Every group runs the rope beside one or more baselines in the same run;
// `Scripts/ratios.py` and docs/benchmarks.md turn the numbers into ratios.
// Each benchmark runs in its own process, so all inputs are built lazily in
// `setup` closures (never while the benchmarks are merely being listed),
// outside the measured region.
let benchmarks: @Sendable () -> Void = {
  registerTraceReplayBenchmarks()
  registerPairedTraceBenchmarks()
  registerBuildBenchmarks()
  registerRandomEditBenchmarks()
  registerOffsetBenchmarks()
  registerMemoryBenchmarks()
  registerBoundaryBenchmarks()
  registerContextBenchmarks()
  registerOffsetIndexBenchmarks()
  registerDocumentEditBenchmarks()
  registerStreamingBenchmarks()
}

/// A configuration that prints every metric in fixed units (time in
/// `timeUnits`, counts unscaled), so that the output can be compared and
/// parsed without rounding to K/M.
func configuration(
  metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal],
  timeUnits: BenchmarkTimeUnits,
  scalingFactor: BenchmarkScalingFactor = .one,
  warmupIterations: Int = 1,
  maxDuration: Duration,
  maxIterations: Int
) -> Benchmark.Configuration {
  var units: [BenchmarkMetric: BenchmarkUnits] = [:]
  for metric in metrics where metric != .wallClock {
    units[metric] = .count
  }
  // The quick run (Scripts/quick.sh) caps every benchmark at a few samples.
  let quick = ProcessInfo.processInfo.environment["BENCHMARK_QUICK"] != nil
  return Benchmark.Configuration(
    metrics: metrics,
    timeUnits: timeUnits,
    units: units,
    warmupIterations: quick ? min(warmupIterations, 1) : warmupIterations,
    scalingFactor: scalingFactor,
    maxDuration: quick ? min(maxDuration, .seconds(2)) : maxDuration,
    maxIterations: quick ? min(maxIterations, 15) : maxIterations
  )
}

/// A reference box for state that the measured closure mutates across
/// iterations (the closure itself gets its setup state by value).
final class Box<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
