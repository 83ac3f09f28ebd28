import Benchmark
import BenchmarkHarness

// How each operation's cost grows: with the size of the text (1 KB … 1 GB),
// the number of storages (1 … 100,000) and the number of edits a tool has
// not seen (1 … 100,000), each structure beside its baselines in the same
// run. `Scripts/charts.py` draws the results (docs/charts/) and
// docs/benchmarks.md reads them. Each benchmark runs in its own process, so
// every input is built in its `setup` closure.
//
//   swift package --disable-sandbox benchmark --target ScalingSweeps \
//     --no-progress --format markdown --path stdout > sweeps.md
let benchmarks: @Sendable () -> Void = {
  registerTextSweep()
  registerStorageSweep()
  registerUnseenEditSweep()
}

/// A size of text, in decimal units (1 KB = 1,000 bytes).
struct TextSize: Sendable {
  let label: String
  let bytes: Int
}

let textSizes: [TextSize] = [
  TextSize(label: "1 KB", bytes: 1_000),
  TextSize(label: "10 KB", bytes: 10_000),
  TextSize(label: "100 KB", bytes: 100_000),
  TextSize(label: "1 MB", bytes: 1_000_000),
  TextSize(label: "10 MB", bytes: 10_000_000),
  TextSize(label: "100 MB", bytes: 100_000_000),
  TextSize(label: "1 GB", bytes: 1_000_000_000),
]

/// 1, 10, … 100,000, with their labels ("1,000").
let countDecades: [(label: String, count: Int)] = [1, 10, 100, 1000, 10_000, 100_000].map {
  (grouped($0), $0)
}

/// `n` with commas between groups of three digits.
func grouped(_ n: Int) -> String {
  var digits = String(n)
  var groups: [Substring] = []
  while digits.count > 3 {
    groups.insert(digits.suffix(3), at: 0)
    digits.removeLast(3)
  }
  groups.insert(Substring(digits), at: 0)
  return groups.joined(separator: ",")
}

/// The configuration of one point of a sweep. `cheap` operations (a tree's
/// O(log n) edit or lookup, or anything on a small text) are timed 1,000 to
/// an iteration (scaling factor .kilo); the others one an iteration. Larger
/// points get more time and fewer samples, so that a 1 GB point takes
/// seconds, not minutes.
func sweepConfiguration(
  cheap: Bool, bytes: Int, metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
) -> Benchmark.Configuration {
  let large = bytes >= 100_000_000
  return configuration(
    metrics: metrics,
    timeUnits: .nanoseconds,
    scalingFactor: cheap ? .kilo : .one,
    warmupIterations: large && !cheap ? 0 : 1,
    maxDuration: .seconds(bytes >= 1_000_000_000 ? 12 : large ? 4 : 1),
    maxIterations: cheap ? 200 : (large ? 8 : 100)
  )
}
