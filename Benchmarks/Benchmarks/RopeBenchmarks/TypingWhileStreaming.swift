import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// 11. A person types while a writing tool streams (issue 11): the
//     scenario, its model and its replays are in BenchmarkSupport
//     (StreamingScenario.swift); here, its metrics.

let keystrokeLatency = BenchmarkMetric.custom(
  "Keystroke (ns)", polarity: .prefersSmaller, useScalingFactor: false)
let replacementLatency = BenchmarkMetric.custom(
  "Tool replacement (ns)", polarity: .prefersSmaller, useScalingFactor: false)
let keystrokesPerSecond = BenchmarkMetric.custom(
  "Keystrokes a second", polarity: .prefersLarger, useScalingFactor: false)
let refusedReplacements = BenchmarkMetric.custom(
  "Replacements refused (conflict)", polarity: .prefersSmaller, useScalingFactor: false)
let transformedReplacements = BenchmarkMetric.custom(
  "Replacements transformed", polarity: .prefersLarger, useScalingFactor: false)

/// Records one replay's samples: every keystroke, and every replacement
/// made (the rope makes only the accepted ones).
func record(
  _ times: StreamingTimes, _ scenario: StreamingScenario, acceptedOnly: Bool,
  in benchmark: Benchmark
) {
  for t in times.keystrokes { benchmark.measurement(keystrokeLatency, t) }
  for (t, replacement) in zip(times.replacements, scenario.replacements)
  where !acceptedOnly || replacement.landing != nil {
    benchmark.measurement(replacementLatency, t)
  }
  let rate = Double(times.keystrokes.count) * 1e9 / Double(max(1, times.total))
  benchmark.measurement(keystrokesPerSecond, Int(rate.rounded()))
}

func registerStreamingBenchmarks() {
  let name = "seph-blog1"
  let group = "Typing while a tool streams/\(name) in 1 MB, a replacement every 50 keystrokes"

  Benchmark(
    "\(group)/Document",
    configuration: configuration(
      metrics: [
        .wallClock, keystrokeLatency, replacementLatency, keystrokesPerSecond,
        refusedReplacements, transformedReplacements,
      ],
      timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 10)
  ) { benchmark, state in
    let (scenario, times) = state
    let document: Document
    let context: UUID
    do { (document, context) = try scenario.prepare() } catch { fatalError("\(error)") }
    benchmark.startMeasurement()
    replay(scenario, into: document, context: context, times: times)
    benchmark.stopMeasurement()
    do {
      let storage = try document.content.storage("body")
      checkResult(String(storage.text), equals: scenario.end, "the storage after the replay")
      let live = try document.liveContext(context)
      precondition(
        live.storageRange == scenario.endContext,
        "the context ends at \(live.storageRange), the model's at \(scenario.endContext)")
    } catch { fatalError("\(error)") }
    record(times, scenario, acceptedOnly: false, in: benchmark)
    benchmark.measurement(refusedReplacements, scenario.conflicts)
    benchmark.measurement(transformedReplacements, scenario.transformed)
    blackHole(document)
  } setup: { () -> (StreamingScenario, StreamingTimes) in
    let scenario = try StreamingScenario(trace: name, seed: 11)
    return (scenario, StreamingTimes(scenario))
  }

  Benchmark(
    "\(group)/Rope",
    configuration: configuration(
      metrics: [.wallClock, keystrokeLatency, replacementLatency, keystrokesPerSecond],
      timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 10)
  ) { benchmark, state in
    let (scenario, times) = state
    var rope = scenario.text
    benchmark.startMeasurement()
    replay(scenario, into: &rope, times: times)
    benchmark.stopMeasurement()
    checkResult(String(rope), equals: scenario.end, "the rope after the replay")
    record(times, scenario, acceptedOnly: true, in: benchmark)
    blackHole(rope)
  } setup: { () -> (StreamingScenario, StreamingTimes) in
    let scenario = try StreamingScenario(trace: name, seed: 11)
    return (scenario, StreamingTimes(scenario))
  }
}
