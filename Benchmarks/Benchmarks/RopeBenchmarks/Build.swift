import Benchmark
import BenchmarkSupport
import TextRope
import struct _RopeModule.BigString

// 2. Building the structure from a native String of 1, 10 and 100 MB.

let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)

/// Runs `build`, reports its throughput over `byteCount` bytes as a custom
/// metric, and frees the result outside the measured region.
@inline(__always)
func measureBuild<T>(_ benchmark: Benchmark, byteCount: Int, _ build: () -> T) {
  let clock = ContinuousClock()
  let start = clock.now
  let result = build()
  let elapsed = clock.now - start
  benchmark.stopMeasurement()
  blackHole(result)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  benchmark.measurement(megabytesPerSecond, Int((Double(byteCount) / Double(megabyte) / seconds).rounded()))
}

func registerBuildBenchmarks() {
  for megabytes in [1, 10, 100] {
    let byteCount = megabytes * megabyte
    let configuration = Benchmark.Configuration(
      metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond],
      warmupIterations: 1,
      maxDuration: .seconds(megabytes == 100 ? 5 : 2),
      maxIterations: megabytes == 100 ? 10 : 200
    )
    var bigStringConfiguration = configuration
    if megabytes == 100 {
      bigStringConfiguration.maxIterations = 3
    }

    Benchmark("Build/\(megabytes) MB/Rope", configuration: configuration) { benchmark, text in
      measureBuild(benchmark, byteCount: byteCount) { Rope(text) }
    } setup: {
      TextGenerator.string(byteCount: byteCount)
    }

    Benchmark("Build/\(megabytes) MB/BigString", configuration: bigStringConfiguration) { benchmark, text in
      measureBuild(benchmark, byteCount: byteCount) { BigString(text) }
    } setup: {
      TextGenerator.string(byteCount: byteCount)
    }

    Benchmark("Build/\(megabytes) MB/Array(utf8)", configuration: configuration) { benchmark, text in
      measureBuild(benchmark, byteCount: byteCount) { Array(text.utf8) }
    } setup: {
      TextGenerator.string(byteCount: byteCount)
    }
  }
}
