import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import TextRope

import struct _RopeModule.BigString

// 3. Single-character edits at random UTF-16 offsets in 100 MB of text,
//    alternating insert and delete so that the size stays about the same.
//    One iteration is 1000 edits (scaling factor .kilo), so the reported
//    time is per edit.

let editTextBytes = 100 * megabyte
let editOffsetCount = 1 << 20

func registerRandomEditBenchmarks() {
  let configuration = configuration(
    timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(4), maxIterations: 1000)

  Benchmark("Random edit/100 MB/Rope", configuration: configuration) { benchmark, edits in
    edits.make(benchmark.scaledIterations.count)
  } setup: { () -> SingleEdits<Rope> in
    let rope = Rope(TextGenerator.string(byteCount: editTextBytes))
    let offsets = randomOffsets(count: editOffsetCount, below: rope.utf16Count - 10_000, seed: 3)
    return SingleEdits(rope, offsets: offsets)
  }

  Benchmark("Random edit/100 MB/BigString", configuration: configuration) { benchmark, edits in
    edits.make(benchmark.scaledIterations.count)
  } setup: { () -> SingleEdits<BigString> in
    let big = BigString(TextGenerator.string(byteCount: editTextBytes))
    let offsets = randomOffsets(count: editOffsetCount, below: big.utf16.count - 10_000, seed: 3)
    return SingleEdits(big, offsets: offsets)
  }
}
