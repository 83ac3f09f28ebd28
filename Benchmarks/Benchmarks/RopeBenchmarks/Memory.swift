import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import TextRope

import struct _RopeModule.BigString

// 5. Memory of 100 MB of text: what building it leaves allocated.
//    `memoryLeakedBytes` is the bytes requested from malloc and not freed in
//    the measured region (the structure itself, exactly); the custom metric
//    is the C heap's in-use growth (glibc mallinfo2, allocator headers and
//    the benchmark interposer's 16-byte header per allocation included) per
//    1000 UTF-8 bytes of text. `swift run -c release RopeMemory` measures
//    the same without the interposer, also after edits.

func registerMemoryBenchmarks() {
  let configuration = configuration(
    metrics: [.memoryLeakedBytes, .mallocCountTotal, heapPerMilleOfUTF8],
    timeUnits: .milliseconds, warmupIterations: 0, maxDuration: .seconds(10), maxIterations: 3)
  let byteCount = 100 * megabyte

  Benchmark("Memory/100 MB/Rope", configuration: configuration) { benchmark, state in
    let (text, keep) = state
    measureRetained(benchmark, keep, utf8Count: text.utf8.count) { Rope(text) }
  } setup: {
    (TextGenerator.string(byteCount: byteCount), Box<Rope?>(nil))
  }

  Benchmark("Memory/100 MB/BigString", configuration: configuration) { benchmark, state in
    let (text, keep) = state
    measureRetained(benchmark, keep, utf8Count: text.utf8.count) { BigString(text) }
  } setup: {
    (TextGenerator.string(byteCount: byteCount), Box<BigString?>(nil))
  }

  Benchmark("Memory/100 MB/Array(utf8)", configuration: configuration) { benchmark, state in
    let (text, keep) = state
    measureRetained(benchmark, keep, utf8Count: text.utf8.count) { Array(text.utf8) }
  } setup: {
    (TextGenerator.string(byteCount: byteCount), Box<[UInt8]?>(nil))
  }
}
