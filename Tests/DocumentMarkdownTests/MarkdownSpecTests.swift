import DocumentEngine
import DocumentMarkdown
import Foundation
import Testing
import _EngineTestSupport

/// The examples of the GitHub Flavored Markdown spec (`Tests/Data/markdown`).
enum GFMSpec {
  struct Example: Sendable, CustomStringConvertible {
    var number: Int
    var section: String
    var markdown: String
    var description: String { "example \(number) (\(section))" }
  }

  static let examples: [Example] = {
    let path = "\(TestData.directory)/markdown/gfm-spec-0.29.txt"
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    let text = String(decoding: data, as: UTF8.self)
    let fence = String(repeating: "`", count: 32)
    var examples: [Example] = []
    var section = ""
    var lines: [Substring] = []
    var inExample = false
    var inMarkdown = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if !inExample, line.hasPrefix("#") {
        section = String(line.drop { $0 == "#" || $0 == " " })
      }
      if line.hasPrefix(fence + " example") {
        inExample = true
        inMarkdown = true
        lines = []
      } else if inExample, line == fence {
        inExample = false
      } else if inExample, inMarkdown, line == "." {
        inMarkdown = false
        var markdown = lines.joined(separator: "\n")
        if !lines.isEmpty { markdown += "\n" }
        examples.append(
          Example(
            number: examples.count + 1, section: section,
            markdown: markdown.replacingOccurrences(of: "→", with: "\t")))
      } else if inExample, inMarkdown {
        lines.append(line)
      }
    }
    return examples
  }()
}

@Suite struct MarkdownSpecTests {
  @Test func theSpecHasItsExamples() {
    #expect(GFMSpec.examples.count == 673)
  }

  /// The examples whose reading the writer does not give back, each with
  /// its reason.
  static let exceptions: [Int: String] = [
    335: """
    `foo&#10;&#10;bar` reads as one paragraph with two LFs in its text; the writer starts \
    a new paragraph at a line break inside one (as a person pressing return means), so it \
    reads back as three paragraphs (the middle one empty).
    """
  ]

  /// Every example reads without error; written and read again, each gives
  /// exactly the same text and attributes, but for the exceptions above.
  @Test func everyExampleWrittenReadsBackTheSame() {
    var failures: [Int] = []
    for example in GFMSpec.examples {
      let read = AttributedText(markdown: example.markdown)
      let written = read.markdown
      let again = AttributedText(markdown: written)
      if again != read {
        failures.append(example.number)
        if Self.exceptions[example.number] == nil {
          Issue.record(
            "\(example): \(example.markdown.debugDescription) was written as \(written.debugDescription)"
          )
        }
      }
    }
    print(
      "GFM spec round trips: \(GFMSpec.examples.count - failures.count) of \(GFMSpec.examples.count)"
        + " examples; exceptions: \(failures)")
    #expect(failures == Self.exceptions.keys.sorted())
  }
}
