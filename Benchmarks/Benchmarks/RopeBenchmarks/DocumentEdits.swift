import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import TextRope

// 10. A person's edits through the document engine (issue 11), each beside
//     the same UTF-16 edits straight into a `Rope` in the same run:
//     - a trace (seph-blog1, rustcode) replayed into one storage with
//       `DocumentContent.edit` (each edit versioned and recorded in the
//       storage's change log), with `Document.edit` (the class: the lock,
//       the state, the events), and with `Document.edit` while one
//       `userSelection` session is live and its context holds all the
//       typing, so that every keystroke also moves the context and makes
//       its event (the heaviest case: a keystroke outside every context
//       only moves them);
//     - single-character edits at random places of 100 MB through
//       `Document.edit` (as `Random edit/100 MB`).
//     The trace is typed between two short paragraphs of its own (the same
//     text for every structure), so that a selection from the first to the
//     last gives a context around everything the trace types.
//     The same replays paired (`Document edit ratio/…`): each iteration
//     replays into the rope and the three document variants back to back and
//     records each one's time divided by the rope's (×100), so that load that
//     comes and goes on a shared machine hits both sides of a ratio alike.

func registerDocumentEditBenchmarks() {
  let configuration = configuration(
    timeUnits: .milliseconds, maxDuration: .seconds(3), maxIterations: 100)
  let id = StorageID("body")

  for name in ["seph-blog1", "rustcode"] {
    func prepare() -> UTF16Trace {
      UTF16Trace(
        PreparedTrace(name: name), before: paragraphBeforeTrace, after: paragraphAfterTrace)
    }

    Benchmark("Document edit/\(name)/DocumentContent", configuration: configuration) {
      benchmark, trace in
      var document = DocumentContent()
      do { try document.add(id, text: Rope(trace.start)) } catch { fatalError("\(error)") }
      benchmark.startMeasurement()
      applyEdits(trace, to: &document, storage: id)
      benchmark.stopMeasurement()
      blackHole(document)
    } setup: {
      prepare()
    }

    Benchmark("Document edit/\(name)/Document", configuration: configuration) {
      benchmark, trace in
      let document = Document()
      do { try document.add(id, text: Rope(trace.start)) } catch { fatalError("\(error)") }
      benchmark.startMeasurement()
      applyEdits(trace, to: document, storage: id)
      benchmark.stopMeasurement()
      blackHole(document)
    } setup: { () -> UTF16Trace in
      let trace = prepare()
      let document = Document()
      try document.add(id, text: Rope(trace.start))
      applyEdits(trace, to: document, storage: id)
      checkResult(
        String(try document.content.storage(id).text), equals: trace.end, "Document replay")
      return trace
    }

    Benchmark("Document edit/\(name)/Document, live session", configuration: configuration) {
      benchmark, trace in
      let document: Document
      do { document = try documentWithLiveContext(trace, id) } catch { fatalError("\(error)") }
      benchmark.startMeasurement()
      applyEdits(trace, to: document, storage: id)
      benchmark.stopMeasurement()
      blackHole(document)
    } setup: { () -> UTF16Trace in
      let trace = prepare()
      let document = try documentWithLiveContext(trace, id)
      guard let context = document.session?.contexts.first?.id else { fatalError("no context") }
      applyEdits(trace, to: document, storage: id)
      checkResult(
        String(try document.content.storage(id).text), equals: trace.end,
        "Document replay with a live session")
      let live = try document.liveContext(context)
      precondition(
        live.storageRange == 0..<trace.end.utf16.count,
        "the context \(live.storageRange) does not hold all the typing")
      return trace
    }

    Benchmark("Document edit/\(name)/Rope", configuration: configuration) { benchmark, trace in
      var rope = Rope(trace.start)
      benchmark.startMeasurement()
      applyEdits(trace, to: &rope)
      benchmark.stopMeasurement()
      blackHole(rope)
    } setup: {
      prepare()
    }
  }

  registerRandomDocumentEditBenchmarks()
  registerPairedDocumentEditBenchmarks()
}

/// Single-character edits at random UTF-16 offsets in 100 MB, alternating
/// insert and delete, through `Document.edit` and into a `Rope` (the same
/// offsets and loop as `Random edit/100 MB/Rope`, here beside the document
/// in one run). One iteration is 1000 edits (scaling factor .kilo), so the
/// reported time is per edit.
private func registerRandomDocumentEditBenchmarks() {
  let configuration = configuration(
    timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(4), maxIterations: 1000)
  let id = StorageID("body")

  Benchmark("Document edit/random in 100 MB/Document", configuration: configuration) {
    benchmark, edits in
    edits.make(benchmark.scaledIterations.count, storage: id)
  } setup: { () -> SingleEdits<Document> in
    let document = Document()
    try document.add(id, text: Rope(TextGenerator.string(byteCount: editTextBytes)))
    let length = try document.content.storage(id).length
    let offsets = randomOffsets(count: editOffsetCount, below: length - 10_000, seed: 3)
    return SingleEdits(document, offsets: offsets)
  }

  Benchmark("Document edit/random in 100 MB/Rope", configuration: configuration) {
    benchmark, edits in
    edits.make(benchmark.scaledIterations.count)
  } setup: { () -> SingleEdits<Rope> in
    let rope = Rope(TextGenerator.string(byteCount: editTextBytes))
    let offsets = randomOffsets(count: editOffsetCount, below: rope.utf16Count - 10_000, seed: 3)
    return SingleEdits(rope, offsets: offsets)
  }
}

let documentContentOverRope = BenchmarkMetric.custom(
  "DocumentContent ÷ Rope (×100)", polarity: .prefersSmaller, useScalingFactor: false)
let documentOverRope = BenchmarkMetric.custom(
  "Document ÷ Rope (×100)", polarity: .prefersSmaller, useScalingFactor: false)
let liveSessionOverRope = BenchmarkMetric.custom(
  "Document, live session ÷ Rope (×100)", polarity: .prefersSmaller, useScalingFactor: false)

/// The time of `body`, whose result is kept alive until after the clock is
/// read (and so freed outside the time).
func timed<T>(_ clock: ContinuousClock, _ body: () -> T) -> Duration {
  let start = clock.now
  let result = body()
  let elapsed = clock.now - start
  blackHole(result)
  return elapsed
}

/// `a` ÷ `b` × 100, rounded.
func percent(_ a: Duration, of b: Duration) -> Int { Int((a / b * 100).rounded()) }

private func registerPairedDocumentEditBenchmarks() {
  let id = StorageID("body")
  let perReplay = configuration(
    metrics: [.wallClock, documentContentOverRope, documentOverRope, liveSessionOverRope],
    timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 30)
  for name in ["seph-blog1", "rustcode"] {
    Benchmark("Document edit ratio/\(name)", configuration: perReplay) { benchmark, trace in
      let clock = ContinuousClock()
      // Every structure is built before its clock starts.
      var rope = Rope(trace.start)
      let ropeTime = timed(clock) {
        applyEdits(trace, to: &rope)
        return rope
      }
      var content = DocumentContent()
      let document = Document()
      let live: Document
      do {
        try content.add(id, text: Rope(trace.start))
        try document.add(id, text: Rope(trace.start))
        live = try documentWithLiveContext(trace, id)
      } catch { fatalError("\(error)") }
      let contentTime = timed(clock) {
        applyEdits(trace, to: &content, storage: id)
        return content
      }
      let documentTime = timed(clock) { applyEdits(trace, to: document, storage: id) }
      let liveTime = timed(clock) { applyEdits(trace, to: live, storage: id) }
      benchmark.measurement(documentContentOverRope, percent(contentTime, of: ropeTime))
      benchmark.measurement(documentOverRope, percent(documentTime, of: ropeTime))
      benchmark.measurement(liveSessionOverRope, percent(liveTime, of: ropeTime))
      blackHole(document)
      blackHole(live)
    } setup: {
      UTF16Trace(
        PreparedTrace(name: name), before: paragraphBeforeTrace, after: paragraphAfterTrace)
    }
  }

  // 1000 edits into each an iteration, the same offsets for both.
  let perThousand = configuration(
    metrics: [.wallClock, documentOverRope], timeUnits: .microseconds,
    maxDuration: .seconds(5), maxIterations: 1000)
  Benchmark("Document edit ratio/random in 100 MB", configuration: perThousand) {
    benchmark, state in
    let (document, rope) = state
    let clock = ContinuousClock()
    let documentTime = timed(clock) { document.make(1000, storage: id) }
    let ropeTime = timed(clock) { rope.make(1000) }
    precondition(document.next == rope.next)
    benchmark.measurement(documentOverRope, percent(documentTime, of: ropeTime))
  } setup: { () -> (SingleEdits<Document>, SingleEdits<Rope>) in
    let text = TextGenerator.string(byteCount: editTextBytes)
    let document = Document()
    try document.add(id, text: Rope(text))
    let rope = Rope(text)
    let offsets = randomOffsets(count: editOffsetCount, below: rope.utf16Count - 10_000, seed: 3)
    return (SingleEdits(document, offsets: offsets), SingleEdits(rope, offsets: offsets))
  }
}
