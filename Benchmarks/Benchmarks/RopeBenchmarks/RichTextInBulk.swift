import Benchmark
import BenchmarkHarness
import DocumentEngine
import DocumentMarkdown
import TextRope

// 17. Rich text in bulk (issue 32): a storage added with the 80,000
//     attribute runs of 80,000 short paragraphs (`Document.add(_:text:
//     attributes:)`, the runs checked and built into their tree), against
//     reading the same 480 KB of Markdown into that attributed text
//     (`AttributedText(markdown:)`). Paired: one iteration does both back to
//     back and records add ÷ read (×100). Target: ≤ 1× (100).

let addOverRead = BenchmarkMetric.custom(
  "add ÷ read Markdown (×100)", polarity: .prefersSmaller, useScalingFactor: false)
let addMicroseconds = BenchmarkMetric.custom(
  "add, µs", polarity: .prefersSmaller, useScalingFactor: false)
let readMarkdownMicroseconds = BenchmarkMetric.custom(
  "read Markdown, µs", polarity: .prefersSmaller, useScalingFactor: false)

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
}
