import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import TextRope

import struct _RopeModule.BigString

// 2. Building the structure from a native String of 1, 10 and 100 MB.
//
// Before each iteration the heap gives its free pages back to the system,
// so every build writes to fresh pages (page faults included), as when a
// process loads a file; `Array(utf8)`, a single large allocation, gets fresh
// pages from mmap every time anyway. Without this the rope's time is
// bimodal (about 90 or 160 ms at 100 MB) depending on whether glibc happened
// to trim the previous iteration's memory. "Rope, warm heap" measures the
// other case: freed pages stay resident and are reused.

func registerBuildBenchmarks() {
  for megabytes in [1, 10, 100] {
    let byteCount = megabytes * megabyte
    let configuration = configuration(
      metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond],
      timeUnits: .microseconds,
      maxDuration: .seconds(megabytes == 100 ? 5 : 2),
      maxIterations: megabytes == 100 ? 10 : 200
    )
    // BigString ingests text far more slowly: fewer runs at 100 MB.
    var bigStringConfiguration = configuration
    if megabytes == 100 {
      bigStringConfiguration.warmupIterations = 0
      bigStringConfiguration.maxIterations = 3
    }

    Benchmark("Build/\(megabytes) MB/Rope", configuration: configuration) { benchmark, text in
      measureBuild(benchmark, byteCount: byteCount) { Rope(text) }
    } setup: {
      TextGenerator.string(byteCount: byteCount)
    }

    Benchmark("Build/\(megabytes) MB/BigString", configuration: bigStringConfiguration) {
      benchmark, text in
      measureBuild(benchmark, byteCount: byteCount) { BigString(text) }
    } setup: {
      TextGenerator.string(byteCount: byteCount)
    }

    Benchmark("Build/\(megabytes) MB/Array(utf8)", configuration: configuration) {
      benchmark, text in
      measureBuild(benchmark, byteCount: byteCount) { Array(text.utf8) }
    } setup: {
      TextGenerator.string(byteCount: byteCount)
    }
  }

  let byteCount = 100 * megabyte
  Benchmark(
    "Build/100 MB/Rope, warm heap",
    configuration: configuration(
      metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond],
      timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 10)
  ) { benchmark, text in
    measureBuild(benchmark, byteCount: byteCount, warmHeap: true) { Rope(text) }
  } setup: {
    keepFreeHeapMemory()
    return TextGenerator.string(byteCount: byteCount)
  }
}
