// Memory of a 100 MB rope against its UTF-8 size, measured with glibc's
// mallinfo2 (bytes in use, allocator chunk headers included) in a process
// without package-benchmark's malloc interposer.
//
//   swift run -c release RopeMemory
import BenchmarkSupport
import TextRope

import struct _RopeModule.BigString

func megabytes(_ bytes: Int) -> String {
  if bytes < megabyte {
    let tenths = (bytes * 10 + 500) / 1000
    return "\(tenths / 10).\(tenths % 10) KB"
  }
  let tenths = (bytes * 10 + megabyte / 2) / megabyte
  return "\(tenths / 10).\(tenths % 10) MB"
}

func ratio(_ bytes: Int, _ base: Int) -> String {
  let thousandths = (bytes * 1000 + base / 2) / base
  return "\(thousandths / 1000).\(String(thousandths % 1000).leftPadded(3))×"
}

extension String {
  func leftPadded(_ width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}

func chunkStats(_ rope: Rope) -> String {
  var chunks = 0
  var bytes = 0
  var capacity = 0
  for chunk in rope.chunks {
    chunks += 1
    bytes += chunk.utf8.count
    capacity += chunk.utf8.capacity
  }
  return
    "\(chunks) chunks, \(bytes / max(chunks, 1)) B average, capacity/bytes \(ratio(capacity, bytes))"
}

/// Heap bytes that `make` leaves allocated (its result kept alive).
func retained<T>(_ make: () -> T) -> (T, Int) {
  let before = heapBytesInUse()
  let value = make()
  return (value, heapBytesInUse() - before)
}

func report(_ what: String, heap: Int, utf8: Int, extra: String = "") {
  print(
    "| \(what) | \(megabytes(utf8)) | \(megabytes(heap)) | \(ratio(heap, utf8)) |\(extra.isEmpty ? "" : " \(extra) |")"
  )
}

let byteCount = 100 * megabyte
let editCount = 200_000
let text = TextGenerator.string(byteCount: byteCount)
print("| Structure | UTF-8 size | heap in use | heap / UTF-8 | notes |")
print("|---|---:|---:|---:|---|")

do {
  let residentBefore = residentBytes()
  var (rope, heap) = retained { Rope(text) }
  let resident = residentBytes() - residentBefore
  report(
    "Rope, freshly built", heap: heap, utf8: rope.utf8Count,
    extra: "RSS +\(megabytes(resident)); \(chunkStats(rope))")

  let before = heapBytesInUse() - heap
  let offsets = randomOffsets(count: editCount, below: rope.utf16Count - 10_000, seed: 3)
  for (step, offset) in offsets.enumerated() {
    if step & 1 == 0 {
      insertCharacter(in: &rope, atUTF16: offset)
    } else {
      deleteScalar(in: &rope, atUTF16: offset)
    }
  }
  report(
    "Rope after \(editCount / 1000)K random 1-char edits", heap: heapBytesInUse() - before,
    utf8: rope.utf8Count,
    extra: chunkStats(rope))
}

do {
  var (big, heap) = retained { BigString(text) }
  report("BigString, freshly built", heap: heap, utf8: big.utf8.count)
  let before = heapBytesInUse() - heap
  let offsets = randomOffsets(count: editCount, below: big.utf16.count - 10_000, seed: 3)
  for (step, offset) in offsets.enumerated() {
    let index = big.unicodeScalars.index(
      roundingDown: big.utf16.index(big.startIndex, offsetBy: offset))
    if step & 1 == 0 {
      big.unicodeScalars.insert("x", at: index)
    } else {
      _ = big.unicodeScalars.remove(at: index)
    }
  }
  report(
    "BigString after \(editCount / 1000)K random 1-char edits", heap: heapBytesInUse() - before,
    utf8: big.utf8.count)
}

do {
  let (bytes, heap) = retained { Array(text.utf8) }
  report("[UInt8]", heap: heap, utf8: bytes.count)
}

// Small documents: allocator caches (glibc's tcache counts as in use) blur
// a single measurement by some KB, so keep 20 replayed copies and average.
for name in ["seph-blog1", "rustcode", "sveltecomponent"] {
  let trace = PreparedTrace(name: name)
  let copies = 20
  let before = heapBytesInUse()
  let ropes = (0..<copies).map { _ in
    var rope = Rope(trace.startContent)
    for i in 0..<trace.patchCount {
      let p = trace.positions[i]
      do {
        try rope.replace(
          p..<p + trace.deleteCounts[i], in: .unicodeScalars, with: trace.inserts[i])
      } catch {
        fatalError("\(name): patch \(i): \(error)")
      }
    }
    return rope
  }
  let heap = (heapBytesInUse() - before) / copies
  checkResult(String(ropes[0]), equals: trace.endContent, name)
  report(
    "Rope after replaying \(name)", heap: heap, utf8: ropes[0].utf8Count,
    extra: chunkStats(ropes[0]))
}
