import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import Foundation
import TextRope

// 16. The person's undo history (issue 30).
//     - Typing with the history kept against typing without it: the
//       seph-blog1 trace replayed through `Document` as the person, once
//       with `HistoryOptions()` (the default: on) and once with
//       `HistoryOptions(isEnabled: false)`, paired in each iteration; and
//       the first undo after it (the tree takes the journal's groups).
//     - Undo of a group after 100,000 later edits by others: the person
//       types a word at the start of a 1 MB storage, then a peer makes
//       100,000 one-character edits (typing and deleting at random places
//       after it, each its own group of the peer's history); the time of
//       `undo()` (a `redo()` after it, unmeasured, puts the word back for
//       the next iteration), against mapping one position through the same
//       100,000 edits one by one (a loop over their steps).
//     - Memory: the history of the replayed seph-blog1 trace — the heap the
//       replay with the history keeps beyond the same replay without it,
//       and the engine's own count (`historyBytes`) — against the bytes the
//       trace inserted and deleted (UTF-8).

let withHistoryOverWithout = BenchmarkMetric.custom(
  "with history ÷ without (×100)", polarity: .prefersSmaller, useScalingFactor: false)
let withHistoryNanoseconds = BenchmarkMetric.custom(
  "with history, ns an edit", polarity: .prefersSmaller, useScalingFactor: false)
let withoutHistoryNanoseconds = BenchmarkMetric.custom(
  "without history, ns an edit", polarity: .prefersSmaller, useScalingFactor: false)
let firstUndoMicroseconds = BenchmarkMetric.custom(
  "first undo after the replay (the tree takes the journal), µs", polarity: .prefersSmaller,
  useScalingFactor: false)
let undoNanoseconds = BenchmarkMetric.custom(
  "undo, ns", polarity: .prefersSmaller, useScalingFactor: false)
let sequentialMapNanoseconds = BenchmarkMetric.custom(
  "one position through the edits one by one, ns", polarity: .prefersSmaller,
  useScalingFactor: false)
let historyHeapBytes = BenchmarkMetric.custom(
  "history heap bytes", polarity: .prefersSmaller, useScalingFactor: false)
let historyCountedBytes = BenchmarkMetric.custom(
  "historyBytes", polarity: .prefersSmaller, useScalingFactor: false)
let traceEditBytes = BenchmarkMetric.custom(
  "bytes inserted and deleted", polarity: .prefersSmaller, useScalingFactor: false)
let historyGroups = BenchmarkMetric.custom(
  "groups", polarity: .prefersSmaller, useScalingFactor: false)

private let body = StorageID("body")

/// A document of the trace's start with the history as `enabled` says,
/// and no limit (the whole trace's history is kept).
private func traceDocument(_ trace: UTF16Trace, history enabled: Bool) -> Document {
  let document = Document()
  document.historyOptions = HistoryOptions(isEnabled: enabled, maxGroups: nil, maxBytes: nil)
  do { try document.add(body, text: Rope(trace.start)) } catch { fatalError("\(error)") }
  return document
}

/// The bytes a trace inserted and deleted (UTF-8), by replaying it on a rope.
private func editedBytes(_ trace: UTF16Trace) -> Int {
  var rope = Rope(trace.start)
  var bytes = 0
  do {
    for i in 0..<trace.count {
      bytes += String(try rope.slice(trace.ranges[i])).utf8.count + trace.inserts[i].utf8.count
      try rope.replace(trace.ranges[i], with: trace.inserts[i])
    }
  } catch { fatalError("\(error)") }
  return bytes
}

/// Times the undo of `document`'s last group (redone after, unmeasured)
/// and the baseline beside it: one position mapped through `steps` one by
/// one.
private func measureUndo(
  _ benchmark: Benchmark, _ document: Document, against steps: [(range: Range<Int>, inserted: Int)]
) {
  let clock = ContinuousClock()
  let undoTime = timed(clock) { (try? document.undo()) != nil }
  _ = try? document.redo()
  let mapTime = timed(clock) { () -> Int in
    var p = 2
    for step in steps {
      if p >= step.range.upperBound {
        p += step.inserted - step.range.count
      } else if p > step.range.lowerBound {
        p = step.range.lowerBound
      }
    }
    return p
  }
  benchmark.measurement(undoNanoseconds, Int(undoTime / .nanoseconds(1)))
  benchmark.measurement(sequentialMapNanoseconds, Int(mapTime / .nanoseconds(1)))
}

/// 100,000 one-unit edits of a peer at random places from offset `from`
/// on (an "x" typed or a unit deleted): what undo is measured after.
private func peerEdits(
  _ document: Document, from: Int, seed: UInt64
) throws -> [(range: Range<Int>, inserted: Int)] {
  var generator = SplitMix64(seed: seed)
  var length = try document.content.storage(body).length
  var steps: [(range: Range<Int>, inserted: Int)] = []
  steps.reserveCapacity(100_000)
  for _ in 0..<100_000 {
    let p = Int.random(in: from..<(length - 1), using: &generator)
    if Bool.random(using: &generator) {
      try document.edit(body, range: p..<p, with: "x", origin: "peer")
      steps.append((p..<p, 1))
      length += 1
    } else {
      try document.edit(body, range: p..<(p + 1), with: "", origin: "peer")
      steps.append((p..<(p + 1), 0))
      length -= 1
    }
  }
  return steps
}

func registerHistoryBenchmarks() {
  let perReplay = configuration(
    metrics: [
      .wallClock, withHistoryOverWithout, withHistoryNanoseconds, withoutHistoryNanoseconds,
      firstUndoMicroseconds,
    ],
    timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 20)
  Benchmark("History ratio/typing with the history, seph-blog1", configuration: perReplay) {
    benchmark, trace in
    let clock = ContinuousClock()
    let with = traceDocument(trace, history: true)
    let without = traceDocument(trace, history: false)
    let withTime = timed(clock) { applyEdits(trace, to: with, storage: body) }
    let withoutTime = timed(clock) { applyEdits(trace, to: without, storage: body) }
    benchmark.measurement(withHistoryOverWithout, percent(withTime, of: withoutTime))
    benchmark.measurement(
      withHistoryNanoseconds, Int(withTime / .nanoseconds(1)) / trace.count)
    benchmark.measurement(
      withoutHistoryNanoseconds, Int(withoutTime / .nanoseconds(1)) / trace.count)
    // What the journal put off: the first undo after the whole replay, when
    // the tree takes every group the person typed alone.
    let undoTime = timed(clock) { (try? with.undo()) != nil }
    benchmark.measurement(firstUndoMicroseconds, Int(undoTime / .microseconds(1)))
    blackHole(with)
    blackHole(without)
  } setup: {
    UTF16Trace(PreparedTrace(name: "seph-blog1"))
  }

  let undoConfiguration = configuration(
    metrics: [.wallClock, undoNanoseconds, sequentialMapNanoseconds],
    timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 200)
  Benchmark(
    "History/undo of a group after 100,000 edits by others", configuration: undoConfiguration
  ) { benchmark, state in
    measureUndo(benchmark, state.0, against: state.1)
  } setup: { () -> (Document, [(range: Range<Int>, inserted: Int)]) in
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: nil)
    let text = String(repeating: "lorem ipsum dolor sit amet ", count: megabyte / 27)
    try document.add(body, text: Rope(text))
    try document.edit(body, range: 0..<0, with: "Hello ")
    document.closeGroup()
    let steps = try peerEdits(document, from: 10, seed: 30)
    return (document, steps)
  }

  Benchmark(
    "History/undo of a tool's group after its session ended and 100,000 edits by others",
    configuration: undoConfiguration
  ) { benchmark, state in
    measureUndo(benchmark, state.0, against: state.1)
  } setup: { () -> (Document, [(range: Range<Int>, inserted: Int)]) in
    let document = Document()
    document.historyOptions = HistoryOptions(maxGroups: nil, maxBytes: nil)
    let text =
      "One teh two. " + String(repeating: "lorem ipsum dolor sit amet ", count: megabyte / 27)
    try document.add(body, text: Rope(text))
    // A tool's rewrite of "teh", in a session that then ends.
    let session = try document.startSession(scope: .fullDocument)
    _ = try document.replace(context: session.contexts[0].id, range: 4..<7, with: "the")
    document.endSession()
    let steps = try peerEdits(document, from: 20, seed: 46)
    // The undo takes the rewrite back.
    try document.undo()
    let head = try String(document.content.storage(body).text.slice(0..<13))
    precondition(head == "One teh two. ", head)
    try document.redo()
    return (document, steps)
  }

  let memoryConfiguration = configuration(
    metrics: [historyHeapBytes, historyCountedBytes, traceEditBytes, historyGroups],
    timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 3)
  Benchmark("History/memory of a replayed trace, seph-blog1", configuration: memoryConfiguration) {
    benchmark, trace in
    keepFreeHeapMemory()
    releaseFreeHeapMemory()
    let before = heapBytesInUse()
    let without = traceDocument(trace, history: false)
    applyEdits(trace, to: without, storage: body)
    let withoutBytes = heapBytesInUse() - before
    let middle = heapBytesInUse()
    let with = traceDocument(trace, history: true)
    applyEdits(trace, to: with, storage: body)
    let withBytes = heapBytesInUse() - middle
    benchmark.measurement(historyHeapBytes, withBytes - withoutBytes)
    benchmark.measurement(historyCountedBytes, with.historyBytes)
    benchmark.measurement(traceEditBytes, editedBytes(trace))
    benchmark.measurement(historyGroups, with.historyGroupCount)
    blackHole(with)
    blackHole(without)
  } setup: {
    UTF16Trace(PreparedTrace(name: "seph-blog1"))
  }
}
