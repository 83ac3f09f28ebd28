import Benchmark
import BenchmarkSupport
import Foundation
import TextRope

// What every benchmark target of this package shares: one way to configure a
// benchmark, the custom metrics, and measurement helpers.

/// A configuration that prints every metric in fixed units (time in
/// `timeUnits`, counts unscaled), so that the output can be compared and
/// parsed without rounding to K/M.
public func configuration(
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
public final class Box<Value>: @unchecked Sendable {
  public var value: Value
  public init(_ value: Value) { self.value = value }
}

public let megabytesPerSecond = BenchmarkMetric.custom(
  "MB/s", polarity: .prefersLarger, useScalingFactor: false)

/// Runs `build` on fresh pages, reports its throughput over `byteCount`
/// bytes as a custom metric, and frees the result outside the measured
/// region.
@inlinable @inline(__always)
public func measureBuild<T>(
  _ benchmark: Benchmark, byteCount: Int, warmHeap: Bool = false, _ build: () -> T
) {
  if !warmHeap { releaseFreeHeapMemory() }
  let clock = ContinuousClock()
  benchmark.startMeasurement()
  let start = clock.now
  let result = build()
  let elapsed = clock.now - start
  benchmark.stopMeasurement()
  blackHole(result)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  benchmark.measurement(
    megabytesPerSecond, Int((Double(byteCount) / Double(megabyte) / seconds).rounded()))
}

public let heapPerMilleOfUTF8 = BenchmarkMetric.custom(
  "heap bytes per 1000 UTF-8 bytes", polarity: .prefersSmaller, useScalingFactor: false)

/// Builds a value in the measured region and reports the heap it retains
/// per 1000 bytes of its `utf8Count` bytes of text; the value is kept in
/// `keep` until the next iteration, so that it is freed outside the
/// measurement.
@inlinable
public func measureRetained<T>(
  _ benchmark: Benchmark, _ keep: Box<T?>, utf8Count: Int, _ build: () -> T
) {
  keep.value = nil
  let before = heapBytesInUse()
  benchmark.startMeasurement()
  let value = build()
  benchmark.stopMeasurement()
  let after = heapBytesInUse()
  keep.value = value  // freed only before the next iteration's measurement
  benchmark.measurement(heapPerMilleOfUTF8, (after - before) * 1000 / utf8Count)
}

/// Random UTF-16 offsets that do not split a surrogate pair (moved back by
/// one when they would), so that no conversion throws.
public func validUTF16Offsets(in rope: Rope, count: Int) -> [Int] {
  randomOffsets(count: count, below: rope.utf16Count + 1, seed: 4).map { offset in
    (try? rope.utf8Offset(of: offset, in: .utf16)) == nil ? offset - 1 : offset
  }
}
