import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import TextRope

import struct _RopeModule.BigString

// 1. Replaying josephg's editing traces (positions in Unicode scalars) into
//    the rope, swift-collections' BigString and a flat [UInt8].

let replayedTraces = ["seph-blog1", "rustcode", "sveltecomponent"]

func replay(_ trace: PreparedTrace, into start: Rope) -> Rope {
  var rope = start
  applyPatches(trace.positions, trace.deleteCounts, trace.inserts, to: &rope, trace: trace.name)
  return rope
}

func replay(_ trace: PreparedTrace, into start: BigString) -> BigString {
  var big = start
  applyPatches(trace.positions, trace.deleteCounts, trace.inserts, to: &big)
  return big
}

func replay(_ trace: PreparedTrace, into start: FlatText) -> FlatText {
  var flat = start
  applyPatches(trace.positions, trace.deleteCounts, trace.insertsUTF8, to: &flat)
  return flat
}

func registerTraceReplayBenchmarks() {
  let configuration = configuration(
    timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 100)
  for name in replayedTraces {
    Benchmark("Trace replay/\(name)/Rope", configuration: configuration) { benchmark, state in
      let (trace, start) = state
      let result = replay(trace, into: start)
      benchmark.stopMeasurement()
      blackHole(result)
    } setup: { () -> (PreparedTrace, Rope) in
      let trace = PreparedTrace(name: name)
      let start = Rope(trace.startContent)
      checkResult(
        String(replay(trace, into: start)), equals: trace.endContent, "Rope replay of \(name)")
      return (trace, start)
    }

    Benchmark("Trace replay/\(name)/BigString", configuration: configuration) { benchmark, state in
      let (trace, start) = state
      let result = replay(trace, into: start)
      benchmark.stopMeasurement()
      blackHole(result)
    } setup: { () -> (PreparedTrace, BigString) in
      let trace = PreparedTrace(name: name)
      let start = BigString(trace.startContent)
      checkResult(
        String(replay(trace, into: start)), equals: trace.endContent, "BigString replay of \(name)")
      return (trace, start)
    }

    Benchmark("Trace replay/\(name)/Flat [UInt8]", configuration: configuration) {
      benchmark, state in
      let (trace, start) = state
      let result = replay(trace, into: start)
      benchmark.stopMeasurement()
      blackHole(result.bytes)
    } setup: { () -> (PreparedTrace, FlatText) in
      let trace = PreparedTrace(name: name)
      let start = FlatText(Array(trace.startContent.utf8))
      let result = replay(trace, into: start)
      checkResult(
        String(decoding: result.bytes, as: UTF8.self), equals: trace.endContent,
        "flat replay of \(name)")
      return (trace, start)
    }
  }
}

// The same replays paired: each iteration replays the trace into all three
// structures back to back and records the baselines' times divided by the
// rope's (×100). On a shared machine, load that comes and goes then hits
// both sides of a ratio alike, which separate benchmarks cannot promise.

let bigStringOverRope = BenchmarkMetric.custom(
  "BigString ÷ Rope (×100)", polarity: .prefersLarger, useScalingFactor: false)
let flatOverRope = BenchmarkMetric.custom(
  "Flat ÷ Rope (×100)", polarity: .prefersLarger, useScalingFactor: false)

func registerPairedTraceBenchmarks() {
  let configuration = configuration(
    metrics: [.wallClock, bigStringOverRope, flatOverRope],
    timeUnits: .milliseconds, warmupIterations: 0, maxDuration: .seconds(8), maxIterations: 15)
  for name in replayedTraces {
    Benchmark("Trace ratio/\(name)", configuration: configuration) { benchmark, state in
      let (trace, rope, big, flat) = state
      let clock = ContinuousClock()
      func time<T>(_ body: () -> T) -> Duration {
        let start = clock.now
        let result = body()
        let elapsed = clock.now - start
        blackHole(result)
        return elapsed
      }
      let ropeTime = time { replay(trace, into: rope) }
      let bigTime = time { replay(trace, into: big) }
      let flatTime = time { replay(trace, into: flat).bytes }
      benchmark.measurement(bigStringOverRope, Int((bigTime / ropeTime * 100).rounded()))
      benchmark.measurement(flatOverRope, Int((flatTime / ropeTime * 100).rounded()))
    } setup: { () -> (PreparedTrace, Rope, BigString, FlatText) in
      let trace = PreparedTrace(name: name)
      return (
        trace, Rope(trace.startContent), BigString(trace.startContent),
        FlatText(Array(trace.startContent.utf8))
      )
    }
  }
}
