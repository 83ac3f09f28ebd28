import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import TextRope

// 14. Tracked ranges (issue 28): every position that follows edits in one
//     structure per storage. Each ratio is paired: one iteration makes the
//     same keystrokes into the document with the ranges and into the same
//     document without them, back to back, and records the ratio (×100),
//     so that load that comes and goes hits both sides alike.
//     - a keystroke (1000 single-character edits at random places, insert
//       and delete in turn) in a 1 MB storage with 100,000 ranges, against
//       the same keystrokes with none: the ranges a session's underline
//       marks (a `fullDocument` session live on both sides), or the host's
//       own (no session on either side);
//     - a keystroke in one storage of 10,000 (a notebook) with a
//       `fullDocument` session live, against the same keystrokes in a
//       document of that one storage with its session;
//     - the ranges overlapping a 2,000-unit window among 100,000 in 1 MB
//       (time per query, and how many it returns);
//     - adding 100,000 ranges in random order, against sorting them;
//     - the heap that 1,000,000 tracked ranges keep, per range.

let trackedOverNone = BenchmarkMetric.custom(
  "with ÷ without (×100)", polarity: .prefersSmaller, useScalingFactor: false)
let trackedReturned = BenchmarkMetric.custom(
  "ranges returned", polarity: .prefersSmaller, useScalingFactor: false)
let trackOverSort = BenchmarkMetric.custom(
  "track ÷ sort (×100)", polarity: .prefersSmaller, useScalingFactor: false)
let heapPerRange = BenchmarkMetric.custom(
  "heap bytes per range", polarity: .prefersSmaller, useScalingFactor: false)

/// 1 MB of ASCII prose, so that any offset is a valid one.
private let proseMegabyte: String = {
  let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
  var text = ""
  var i = 0
  while text.utf8.count < megabyte {
    text += words[i % words.count]
    text += i % 17 == 16 ? ".\n" : " "
    i += 1
  }
  return text
}()

/// 100,000 ranges of 5 units, one every 10 units of 1 MB.
private let underlines = (0..<100_000).map { ($0 * 10)..<($0 * 10 + 5) }

/// A document of one 1 MB storage; with `session`, a `fullDocument` session
/// is live (its context is the whole storage).
private func megabyteDocument(session: Bool) throws -> Document {
  let document = Document()
  try document.add("body", text: Rope(proseMegabyte))
  if session { _ = try document.startSession(scope: .fullDocument) }
  return document
}

/// 1000 keystrokes into each document, the one with the ranges first, and
/// the ratio of their times.
private func pairedKeystrokes(
  _ benchmark: Benchmark, _ documents: (SingleEdits<Document>, SingleEdits<Document>),
  storage id: StorageID
) {
  let clock = ContinuousClock()
  let withTime = timed(clock) { documents.0.make(1000, storage: id) }
  let withoutTime = timed(clock) { documents.1.make(1000, storage: id) }
  benchmark.measurement(trackedOverNone, percent(withTime, of: withoutTime))
}

func registerTrackedRangeBenchmarks() {
  let id = StorageID("body")
  let perThousand = configuration(
    metrics: [.wallClock, trackedOverNone], timeUnits: .microseconds,
    maxDuration: .seconds(5), maxIterations: 1000)

  Benchmark("Tracked ranges ratio/keystroke, 100,000 marks in 1 MB", configuration: perThousand) {
    benchmark, state in
    pairedKeystrokes(benchmark, state, storage: id)
  } setup: { () -> (SingleEdits<Document>, SingleEdits<Document>) in
    let marked = try megabyteDocument(session: true)
    guard let context = marked.session?.contexts.first?.id else { fatalError("no context") }
    try marked.mark(context: context, ranges: underlines, as: .underline("spelling"))
    let plain = try megabyteDocument(session: true)
    let offsets = randomOffsets(count: editOffsetCount, below: megabyte - 10_000, seed: 5)
    return (SingleEdits(marked, offsets: offsets), SingleEdits(plain, offsets: offsets))
  }

  Benchmark(
    "Tracked ranges ratio/keystroke, 100,000 host ranges in 1 MB", configuration: perThousand
  ) { benchmark, state in
    pairedKeystrokes(benchmark, state, storage: id)
  } setup: { () -> (SingleEdits<Document>, SingleEdits<Document>) in
    let tracked = try megabyteDocument(session: false)
    try tracked.track(underlines, in: id, kind: "spelling", rules: TrackingRules())
    let plain = try megabyteDocument(session: false)
    let offsets = randomOffsets(count: editOffsetCount, below: megabyte - 10_000, seed: 5)
    return (SingleEdits(tracked, offsets: offsets), SingleEdits(plain, offsets: offsets))
  }

  Benchmark(
    "Tracked ranges ratio/keystroke in one storage of 10,000, fullDocument session",
    configuration: perThousand
  ) { benchmark, state in
    pairedKeystrokes(benchmark, state, storage: "cell 5000")
  } setup: { () -> (SingleEdits<Document>, SingleEdits<Document>) in
    let cell = String(proseMegabyte.prefix(2_000))
    let notebook = Document()
    for i in 0..<10_000 { try notebook.add(StorageID("cell \(i)"), text: Rope(cell)) }
    _ = try notebook.startSession(scope: .fullDocument)
    let alone = Document()
    try alone.add("cell 5000", text: Rope(cell))
    _ = try alone.startSession(scope: .fullDocument)
    let offsets = randomOffsets(count: editOffsetCount, below: 1_500, seed: 6)
    return (SingleEdits(notebook, offsets: offsets), SingleEdits(alone, offsets: offsets))
  }

  // 1000 queries an iteration, at random windows.
  let perQuery = configuration(
    metrics: [.wallClock, trackedReturned], timeUnits: .nanoseconds, scalingFactor: .kilo,
    maxDuration: .seconds(3), maxIterations: 1000)
  Benchmark("Tracked ranges/overlapping 2,000 units among 100,000 in 1 MB", configuration: perQuery)
  { benchmark, state in
    let (document, starts) = state
    var returned = 0
    let content = document.content
    for i in benchmark.scaledIterations {
      let start = starts[i % starts.count]
      let found = (try? content.trackedRanges(in: id, overlapping: start..<(start + 2_000))) ?? []
      returned += found.count
      blackHole(found)
    }
    benchmark.measurement(trackedReturned, returned / benchmark.scaledIterations.count)
  } setup: { () -> (Document, [Int]) in
    let document = try megabyteDocument(session: false)
    try document.track(underlines, in: id, kind: "spelling")
    return (document, randomOffsets(count: 1000, below: megabyte - 2_000, seed: 7))
  }

  let perAdd = configuration(
    metrics: [.wallClock, trackOverSort], timeUnits: .milliseconds,
    maxDuration: .seconds(5), maxIterations: 30)
  Benchmark("Tracked ranges ratio/adding 100,000 against sorting them", configuration: perAdd) {
    benchmark, shuffled in
    let clock = ContinuousClock()
    let document: Document
    do { document = try megabyteDocument(session: false) } catch { fatalError("\(error)") }
    let trackTime = timed(clock) {
      (try? document.track(shuffled, in: id, kind: "spelling")) ?? []
    }
    let sortTime = timed(clock) {
      shuffled.sorted { ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound) }
    }
    benchmark.measurement(trackOverSort, percent(trackTime, of: sortTime))
  } setup: {
    var random = SplitMix64(seed: 8)
    return underlines.shuffled(using: &random)
  }

  let memory = configuration(
    metrics: [.wallClock, heapPerRange], timeUnits: .milliseconds, warmupIterations: 0,
    maxDuration: .seconds(10), maxIterations: 3)
  Benchmark("Tracked ranges/memory of 1,000,000 in 1 MB", configuration: memory) {
    benchmark, keep in
    keep.value = nil
    let ranges = (0..<1_000_000).map { $0..<($0 + 3) }
    let document: Document
    do { document = try megabyteDocument(session: false) } catch { fatalError("\(error)") }
    let before = heapBytesInUse()
    benchmark.startMeasurement()
    _ = try? document.track(ranges, in: id, kind: "spelling")
    benchmark.stopMeasurement()
    let after = heapBytesInUse()
    keep.value = document
    benchmark.measurement(heapPerRange, (after - before) / ranges.count)
  } setup: {
    Box<Document?>(nil)
  }
}
