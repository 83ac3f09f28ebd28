import Benchmark
import BenchmarkSupport
import DocumentEngine
import TextRope

// 10. A person's keystrokes through the document engine (issue 11): a trace
//     replayed into one storage with `DocumentContent.edit` (UTF-16 ranges,
//     each edit versioned and recorded in the storage's change index),
//     beside the same UTF-16 edits straight into a `Rope`.

/// A trace's patches as UTF-16 ranges and texts, converted once (outside
/// any measurement) by replaying it into a rope.
struct UTF16Trace: @unchecked Sendable {
  let start: String
  let ranges: [Range<Int>]
  let inserts: [String]

  init(_ trace: PreparedTrace) {
    var rope = Rope(trace.startContent)
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(trace.patchCount)
    do {
      for i in 0..<trace.patchCount {
        let scalars = trace.positions[i]..<trace.positions[i] + trace.deleteCounts[i]
        let lower = try rope.convert(scalars.lowerBound, from: .unicodeScalars, to: .utf16)
        let upper = try rope.convert(scalars.upperBound, from: .unicodeScalars, to: .utf16)
        ranges.append(lower..<upper)
        try rope.replace(scalars, in: .unicodeScalars, with: trace.inserts[i])
      }
    } catch {
      fatalError("\(trace.name): \(error)")
    }
    self.start = trace.startContent
    self.ranges = ranges
    self.inserts = trace.inserts
  }
}

func registerDocumentEditBenchmarks() {
  let configuration = configuration(
    timeUnits: .milliseconds, maxDuration: .seconds(3), maxIterations: 100)
  let name = "seph-blog1"
  let id = StorageID("body")

  Benchmark("Document edit/\(name)/DocumentContent", configuration: configuration) {
    benchmark, trace in
    var document = DocumentContent()
    do {
      try document.add(id, text: Rope(trace.start))
      benchmark.startMeasurement()
      for i in 0..<trace.ranges.count {
        try document.edit(id, range: trace.ranges[i], with: trace.inserts[i])
      }
      benchmark.stopMeasurement()
    } catch {
      fatalError("\(error)")
    }
    blackHole(document)
  } setup: {
    UTF16Trace(PreparedTrace(name: name))
  }

  Benchmark("Document edit/\(name)/Rope", configuration: configuration) { benchmark, trace in
    var rope = Rope(trace.start)
    benchmark.startMeasurement()
    do {
      for i in 0..<trace.ranges.count {
        try rope.replace(trace.ranges[i], with: trace.inserts[i])
      }
    } catch {
      fatalError("\(error)")
    }
    benchmark.stopMeasurement()
    blackHole(rope)
  } setup: {
    UTF16Trace(PreparedTrace(name: name))
  }
}
