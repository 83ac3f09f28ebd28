import Benchmark
import BenchmarkSupport
import TextRope
import struct _RopeModule.BigString

// 1. Replaying josephg's editing traces (positions in Unicode scalars) into
//    the rope, swift-collections' BigString and a flat [UInt8].

let replayedTraces = ["seph-blog1", "rustcode", "sveltecomponent"]

func replay(_ trace: PreparedTrace, into start: Rope) -> Rope {
  var rope = start
  let positions = trace.positions, deletes = trace.deleteCounts, inserts = trace.inserts
  for i in 0..<positions.count {
    let position = positions[i]
    do {
      try rope.replace(position..<position + deletes[i], in: .unicodeScalars, with: inserts[i])
    } catch {
      fatalError("\(trace.name): patch \(i) failed on the rope: \(error)")
    }
  }
  return rope
}

func replay(_ trace: PreparedTrace, into start: BigString) -> BigString {
  var big = start
  let positions = trace.positions, deletes = trace.deleteCounts, inserts = trace.inserts
  for i in 0..<positions.count {
    let scalars = big.unicodeScalars
    let lower = scalars.index(big.startIndex, offsetBy: positions[i])
    let insert = inserts[i]
    if deletes[i] == 0 {
      big.unicodeScalars.insert(contentsOf: insert.unicodeScalars, at: lower)
    } else {
      let upper = scalars.index(lower, offsetBy: deletes[i])
      if insert.isEmpty {
        big.unicodeScalars.removeSubrange(lower..<upper)
      } else {
        big.unicodeScalars.replaceSubrange(lower..<upper, with: insert.unicodeScalars)
      }
    }
  }
  return big
}

func replay(_ trace: PreparedTrace, into start: FlatText) -> FlatText {
  var flat = start
  let positions = trace.positions, deletes = trace.deleteCounts, inserts = trace.insertsUTF8
  for i in 0..<positions.count {
    flat.replace(scalarPosition: positions[i], deleteCount: deletes[i], with: inserts[i])
  }
  return flat
}

func registerTraceReplayBenchmarks() {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal],
    warmupIterations: 1,
    maxDuration: .seconds(3),
    maxIterations: 100
  )
  for name in replayedTraces {
    Benchmark("Trace replay/\(name)/Rope", configuration: configuration) { benchmark, state in
      let (trace, start) = state
      let result = replay(trace, into: start)
      benchmark.stopMeasurement()
      blackHole(result)
    } setup: { () -> (PreparedTrace, Rope) in
      let trace = PreparedTrace(name: name)
      let start = Rope(trace.startContent)
      checkResult(String(replay(trace, into: start)), equals: trace.endContent, "Rope replay of \(name)")
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
      checkResult(String(replay(trace, into: start)), equals: trace.endContent, "BigString replay of \(name)")
      return (trace, start)
    }

    Benchmark("Trace replay/\(name)/Flat [UInt8]", configuration: configuration) { benchmark, state in
      let (trace, start) = state
      let result = replay(trace, into: start)
      benchmark.stopMeasurement()
      blackHole(result.bytes)
    } setup: { () -> (PreparedTrace, FlatText) in
      let trace = PreparedTrace(name: name)
      let start = FlatText(Array(trace.startContent.utf8))
      let result = replay(trace, into: start)
      checkResult(String(decoding: result.bytes, as: UTF8.self), equals: trace.endContent, "flat replay of \(name)")
      return (trace, start)
    }
  }
}
