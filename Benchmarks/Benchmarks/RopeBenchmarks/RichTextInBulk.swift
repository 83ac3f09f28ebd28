import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import DocumentMarkdown
import TextRope

// 17. Rich text in bulk (issue 32): a storage added with the 80,000
//     attribute runs of 80,000 short paragraphs (`Document.add(_:text:
//     attributes:)`, the runs checked and built into their tree), against
//     reading the same 480 KB of Markdown into that attributed text
//     (`AttributedText(markdown:)`). Paired: one iteration does both back to
//     back and records add ÷ read (×100). Target: ≤ 1× (100).
//     Landing Markdown: a tool's Markdown answer replacing a context
//     (`Document.replace(context:range:markdown:)`: read, filtered by the
//     result options — rich text, blocks, lists, tables —, applied and
//     recorded for undo), for the 80,000 short paragraphs and for the 1 MB
//     document the Markdown group reads, against cmark-gfm's parse and HTML
//     of the same bytes (`_CMarkBaseline.renderHTML`). Paired in each
//     iteration (a fresh document and session each time, not timed).
//     Target: ≤ 2× (200).

let addOverRead = BenchmarkMetric.custom(
  "add ÷ read Markdown (×100)", polarity: .prefersSmaller, useScalingFactor: false)
let addMicroseconds = BenchmarkMetric.custom(
  "add, µs", polarity: .prefersSmaller, useScalingFactor: false)
let readMarkdownMicroseconds = BenchmarkMetric.custom(
  "read Markdown, µs", polarity: .prefersSmaller, useScalingFactor: false)
let landOverFloor = BenchmarkMetric.custom(
  "land ÷ cmark-gfm HTML (×100)", polarity: .prefersSmaller, useScalingFactor: false)

/// A document whose one storage is `placeholder`, with a session over all
/// of it that takes rich text, blocks, lists and tables.
func landingSession(_ placeholder: String) -> (Document, WritingContext)? {
  let document = Document()
  guard (try? document.add("body", text: Rope(placeholder))) != nil,
    (try? document.select([SelectionRange("body", 0..<placeholder.utf16.count)])) != nil,
    let session = try? document.startSession(
      scope: .userSelection, resultOptions: [.richText, .presentationIntent, .list, .table]),
    let context = session.contexts.first
  else { return nil }
  return (document, context)
}

/// The paragraphs the benchmark adds: each one run (its own block intent).
private let bulkParagraphCount = 80_000

func registerRichTextInBulkBenchmarks() {
  let paired = configuration(
    metrics: [.wallClock, addOverRead, addMicroseconds, readMarkdownMicroseconds],
    timeUnits: .milliseconds, maxDuration: .seconds(5), maxIterations: 30)
  Benchmark("Rich text ratio/add with 80,000 runs", configuration: paired) { benchmark, state in
    let (markdown, text, rope) = state
    let clock = ContinuousClock()
    let readTime = timed(clock) { AttributedText(markdown: markdown) }
    let document = Document()
    let addTime = timed(clock) {
      (try? document.add("body", text: rope, attributes: text.runs)) != nil
    }
    benchmark.measurement(addOverRead, percent(addTime, of: readTime))
    benchmark.measurement(addMicroseconds, nanoseconds(addTime) / 1000)
    benchmark.measurement(readMarkdownMicroseconds, nanoseconds(readTime) / 1000)
    blackHole(document)
  } setup: { () -> (String, AttributedText, Rope) in
    let markdown = String(repeating: "abcd\n\n", count: bulkParagraphCount)
    let text = AttributedText(markdown: markdown)
    precondition(text.runs.count == bulkParagraphCount, "\(text.runs.count) runs")
    // What the benchmark adds is what it read.
    let document = Document()
    try document.add("body", text: Rope(text.text), attributes: text.runs)
    let added = try document.content.storage("body")
    precondition(added.attributeRuns(in: 0..<added.length) == text.runs, "the runs differ")
    return (markdown, text, Rope(text.text))
  }

  let landing = configuration(
    metrics: [.wallClock, landOverFloor], timeUnits: .milliseconds, maxDuration: .seconds(10),
    maxIterations: 20)
  for (name, isDocument) in [("80,000 paragraphs", false), ("1 MB", true)] {
    Benchmark("Rich text ratio/land Markdown, \(name)", configuration: landing) {
      (benchmark: Benchmark, markdown: String) in
      let clock = ContinuousClock()
      let floorTime = timed(clock) { _CMarkBaseline.renderHTML(markdown) }
      guard let (document, context) = landingSession("Placeholder paragraph.\n") else { return }
      let length = context.text.utf16Count
      let landTime = timed(clock) {
        (try? document.replace(context: context.id, range: 0..<length, markdown: markdown)) != nil
      }
      benchmark.measurement(landOverFloor, percent(landTime, of: floorTime))
      blackHole(document)
    } setup: { () -> String in
      let markdown =
        isDocument
        ? MarkdownText.document(byteCount: markdownByteCount)
        : String(repeating: "abcd\n\n", count: bulkParagraphCount)
      // What the benchmark lands, lands.
      guard let (document, context) = landingSession("Placeholder paragraph.\n"),
        (try? document.replace(
          context: context.id, range: 0..<context.text.utf16Count, markdown: markdown)) != nil
      else { fatalError("the Markdown did not land") }
      return markdown
    }
  }
}
