import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import TextRope

import struct _RopeModule.BigString

// 4. UTF-16 offset -> UTF-8 offset at random offsets in 1 MB and 100 MB of
//    text.
//    One iteration is 1000 conversions (scaling factor .kilo).

func registerOffsetBenchmarks() {
  let configuration = configuration(
    timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 2000)
  let byteCount = 100 * megabyte
  let offsetCount = 1 << 16

  // 1 MB stays in the caches; 100 MB does not.
  for (label, bytes) in [("1 MB", megabyte), ("100 MB", byteCount)] {
    Benchmark("UTF-16 to UTF-8 offset/\(label)/Rope", configuration: configuration) {
      benchmark, state in
      let (rope, offsets, start) = state
      var i = start.value
      var sum = 0
      for _ in benchmark.scaledIterations {
        do { sum &+= try rope.utf8Offset(of: offsets[i], in: .utf16) } catch {
          fatalError("\(error)")
        }
        i = (i + 1) & (offsetCount - 1)
      }
      start.value = i
      blackHole(sum)
    } setup: { () -> (Rope, [Int], Box<Int>) in
      let rope = Rope(TextGenerator.string(byteCount: bytes))
      return (rope, validUTF16Offsets(in: rope, count: offsetCount), Box(0))
    }

    Benchmark("UTF-16 to UTF-8 offset/\(label)/String", configuration: configuration) {
      benchmark, state in
      let (string, offsets, start) = state
      var i = start.value
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum &+= string.utf8.distance(
          from: string.startIndex, to: String.Index(utf16Offset: offsets[i], in: string))
        i = (i + 1) & (offsetCount - 1)
      }
      start.value = i
      blackHole(sum)
    } setup: { () -> (String, [Int], Box<Int>) in
      let string = TextGenerator.string(byteCount: bytes)
      let offsets = validUTF16Offsets(in: Rope(string), count: offsetCount)
      // The first UTF-16 access builds the string's breadcrumbs; keep that
      // out of the measurement.
      blackHole(String.Index(utf16Offset: string.utf16.count / 2, in: string))
      return (string, offsets, Box(0))
    }
  }

  Benchmark("UTF-16 to UTF-8 offset/100 MB/BigString", configuration: configuration) {
    benchmark, state in
    let (big, offsets, start) = state
    var i = start.value
    var sum = 0
    let utf16 = big.utf16
    for _ in benchmark.scaledIterations {
      sum &+= utf16.index(big.startIndex, offsetBy: offsets[i]).utf8Offset
      i = (i + 1) & (offsetCount - 1)
    }
    start.value = i
    blackHole(sum)
  } setup: { () -> (BigString, [Int], Box<Int>) in
    let string = TextGenerator.string(byteCount: byteCount)
    let offsets = validUTF16Offsets(in: Rope(string), count: offsetCount)
    return (BigString(string), offsets, Box(0))
  }
}
