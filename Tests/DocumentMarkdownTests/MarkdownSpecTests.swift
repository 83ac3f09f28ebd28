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

  @Test func everyExampleWrittenReadsBackTheSame() {
    var failures: [Int] = []
    for example in GFMSpec.examples {
      let read = AttributedText(markdown: example.markdown)
      let written = read.markdown
      let again = AttributedText(markdown: written)
      if again != read {
        failures.append(example.number)
        print("FAIL \(example): \(example.markdown.debugDescription)\n  wrote \(written.debugDescription)\n  read  \(read.text.debugDescription)\n  again \(again.text.debugDescription)")
      }
    }
    print("round trips: \(GFMSpec.examples.count - failures.count) of \(GFMSpec.examples.count); failed \(failures)")
    #expect(failures.isEmpty)
  }
}
