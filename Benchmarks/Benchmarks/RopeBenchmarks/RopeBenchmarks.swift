import Benchmark

// Every group runs the rope beside one or more baselines in the same run;
// docs/benchmarks.md turns the numbers into ratios. Each benchmark runs in
// its own process, so all inputs are built lazily in `setup` closures (never
// while the benchmarks are merely being listed), outside the measured region.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    warmupIterations: 1,
    maxDuration: .seconds(3),
    maxIterations: 100
  )
  registerTraceReplayBenchmarks()
  registerBuildBenchmarks()
  registerRandomEditBenchmarks()
  registerOffsetBenchmarks()
  registerMemoryBenchmarks()
}

/// A reference box for state that the measured closure mutates across
/// iterations (the closure itself gets its setup state by value).
final class Box<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
