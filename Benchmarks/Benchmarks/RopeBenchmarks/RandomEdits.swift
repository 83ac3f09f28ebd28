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

final class RopeEditState: @unchecked Sendable {
  var rope: Rope
  let offsets: [Int]
  var next = 0
  init(rope: Rope, offsets: [Int]) {
    self.rope = rope
    self.offsets = offsets
  }
}

final class BigStringEditState: @unchecked Sendable {
  var big: BigString
  let offsets: [Int]
  var next = 0
  init(big: BigString, offsets: [Int]) {
    self.big = big
    self.offsets = offsets
  }
}

func registerRandomEditBenchmarks() {
  let configuration = configuration(
    timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(4), maxIterations: 1000)

  Benchmark("Random edit/100 MB/Rope", configuration: configuration) { benchmark, state in
    let offsets = state.offsets
    var i = state.next
    for step in benchmark.scaledIterations {
      let offset = offsets[i]
      i = i + 1 == offsets.count ? 0 : i + 1
      if step & 1 == 0 {
        insertCharacter(in: &state.rope, atUTF16: offset)
      } else {
        deleteScalar(in: &state.rope, atUTF16: offset)
      }
    }
    state.next = i
  } setup: { () -> RopeEditState in
    let rope = Rope(TextGenerator.string(byteCount: editTextBytes))
    let offsets = randomOffsets(count: editOffsetCount, below: rope.utf16Count - 10_000, seed: 3)
    return RopeEditState(rope: rope, offsets: offsets)
  }

  Benchmark("Random edit/100 MB/BigString", configuration: configuration) { benchmark, state in
    let offsets = state.offsets
    var i = state.next
    for step in benchmark.scaledIterations {
      let offset = offsets[i]
      i = i + 1 == offsets.count ? 0 : i + 1
      // No copy of `state.big` may be alive during the mutation (it would
      // make the tree's nodes shared and the edit copy them).
      let index = state.big.unicodeScalars.index(
        roundingDown: state.big.utf16.index(state.big.startIndex, offsetBy: offset))
      if step & 1 == 0 {
        state.big.unicodeScalars.insert("x", at: index)
      } else {
        _ = state.big.unicodeScalars.remove(at: index)
      }
    }
    state.next = i
  } setup: { () -> BigStringEditState in
    let big = BigString(TextGenerator.string(byteCount: editTextBytes))
    let offsets = randomOffsets(count: editOffsetCount, below: big.utf16.count - 10_000, seed: 3)
    return BigStringEditState(big: big, offsets: offsets)
  }
}
