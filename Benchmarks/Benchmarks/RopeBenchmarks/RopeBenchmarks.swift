import Benchmark
import BenchmarkHarness
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
  registerAttributeEditBenchmarks()
  registerMarkdownBenchmarks()
  registerTrackedRangeBenchmarks()
  registerSuggestionBenchmarks()
  registerHistoryBenchmarks()
  registerRichTextInBulkBenchmarks()
  registerEditorBenchmarks()
}
