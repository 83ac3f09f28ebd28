import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import TextRope

// 12. Rich text (issue 20): a keystroke in a storage with attributes beside
//     the same keystroke in the same storage without any, paired in one run
//     (load hits both sides alike): 1 MB of text, 10,000 attribute runs over
//     four keys (bold, a link, a block intent, a host's font), single-
//     character edits at random places, inserting and deleting in turn, each
//     through `Document.edit` (so every key's runs follow each edit by the
//     edit rule). Target: ≤ 1.5× (150).
//     And a selection's context in that storage (a paragraph with its runs)
//     beside the same context without attributes: building it is
//     O(log n + the runs inside).

let attributedOverPlain = BenchmarkMetric.custom(
  "with attributes ÷ without (×100)", polarity: .prefersSmaller, useScalingFactor: false)

/// 1 MB of text with `runCount` runs over four keys, each run 50 units long
/// and 100 apart, the keys in turn.
func attributedDocument(runCount: Int) throws -> (Document, Int) {
  let text = TextGenerator.string(byteCount: 1 << 20)
  let document = Document()
  let length = text.utf16.count
  let values: [(AttributeKey, AttributeValue)] = [
    (.inlinePresentationIntent, .inlinePresentationIntent(.stronglyEmphasized)),
    (.link, .link("https://example.com")),
    (
      .presentationIntent,
      .presentationIntent(PresentationIntent([.init(.header(level: 2), identity: 1)]))
    ),
    ("font", .string("Menlo")),
  ]
  let spacing = length / runCount
  var runs: [AttributeRun] = []
  runs.reserveCapacity(runCount)
  for r in 0..<runCount {
    let start = r * spacing
    let (key, value) = values[r % values.count]
    runs.append(AttributeRun(start..<(start + min(50, spacing)), [key: value]))
  }
  // Run bounds may fall inside a surrogate pair of the generated text: the
  // document refuses those, so such runs move to the next scalar.
  let rope = Rope(text)
  runs = runs.map { run in
    func snap(_ p: Int) -> Int { (try? rope.utf8Offset(of: p, in: .utf16)) != nil ? p : p + 1 }
    return AttributeRun(snap(run.range.lowerBound)..<snap(run.range.upperBound), run.attributes)
  }
  try document.add("body", text: rope, attributes: runs)
  return (document, length)
}

/// The attributed document of 10,000 runs, the same text without
/// attributes, and its length.
func attributedAndPlain() throws -> (Document, Document, Int) {
  let (attributed, length) = try attributedDocument(runCount: 10_000)
  let plain = Document()
  try plain.add("body", text: try attributed.content.storage("body").text)
  return (attributed, plain, length)
}

func registerAttributeEditBenchmarks() {
  let id = StorageID("body")
  let perThousand = configuration(
    metrics: [.wallClock, attributedOverPlain], timeUnits: .microseconds,
    maxDuration: .seconds(5), maxIterations: 1000)
  Benchmark("Attributes/keystroke ratio, 1 MB, 10,000 runs", configuration: perThousand) {
    benchmark, state in
    let (attributed, plain) = state
    let clock = ContinuousClock()
    let attributedTime = timed(clock) { attributed.make(1000, storage: id) }
    let plainTime = timed(clock) { plain.make(1000, storage: id) }
    precondition(attributed.next == plain.next)
    benchmark.measurement(attributedOverPlain, percent(attributedTime, of: plainTime))
  } setup: { () -> (SingleEdits<Document>, SingleEdits<Document>) in
    let (attributed, plain, length) = try attributedAndPlain()
    let offsets = randomOffsets(count: editOffsetCount, below: length - 10_000, seed: 5)
    return (SingleEdits(attributed, offsets: offsets), SingleEdits(plain, offsets: offsets))
  }

  let perContext = configuration(
    metrics: [.wallClock, attributedOverPlain], timeUnits: .microseconds,
    maxDuration: .seconds(3), maxIterations: 1000)
  Benchmark("Attributes/context ratio, 1 MB, 10,000 runs", configuration: perContext) {
    benchmark, state in
    let (attributed, plain) = state
    let clock = ContinuousClock()
    var contexts: [WritingContext] = []
    let attributedTime = timed(clock) {
      for _ in 0..<100 {
        contexts = (try? attributed.startSession(scope: .userSelection).contexts) ?? []
      }
      return contexts
    }
    precondition(!(contexts.first?.attributes.isEmpty ?? true), "no runs in the context")
    let plainTime = timed(clock) {
      for _ in 0..<100 {
        contexts = (try? plain.startSession(scope: .userSelection).contexts) ?? []
      }
      return contexts
    }
    benchmark.measurement(attributedOverPlain, percent(attributedTime, of: plainTime))
  } setup: { () -> (Document, Document) in
    let (attributed, plain, length) = try attributedAndPlain()
    let middle = length / 2
    for document in [attributed, plain] {
      try document.select([SelectionRange(id, middle..<(middle + 10))])
    }
    return (attributed, plain)
  }
}
