import DocumentEngine
import DocumentMarkdown
import Testing
import _EngineTestSupport

func compact(_ text: AttributedText) -> String {
  var lines = [text.text.debugDescription]
  for run in text.runs {
    var parts: [String] = []
    for (key, value) in run.attributes.sorted(by: { $0.key < $1.key }) {
      switch value {
      case .presentationIntent(let intent):
        parts.append(intent.components.map { "\($0.kind)#\($0.identity)" }.joined(separator: ">"))
      case .inlinePresentationIntent(let i): parts.append(i.names.joined(separator: "+"))
      case .link(let u): parts.append("link(\(u))")
      default: parts.append("\(key)=\(value)")
      }
    }
    let utf16 = Array(text.text.utf16)
    let piece = String(decoding: utf16[run.range], as: UTF16.self)
    lines.append("  \(run.range) \(piece.debugDescription) \(parts.joined(separator: " | "))")
  }
  return lines.joined(separator: "\n")
}

@Test func probe() {
  let seed = TestSettings.seed("MarkdownRoundTripTests.randomDocumentsReadBackTheSame")
  var rng = SeededRandom(seed: seed)
  var shown = 0
  for _ in 0..<20000 {
    let document = MarkdownRoundTripTests.document(&rng)
    let written = document.markdown
    let read = AttributedText(markdown: written)
    if read != document {
      let a = compact(document).split(separator: "\n")
      let b = compact(read).split(separator: "\n")
      let first = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
      print("MARKDOWN:\n\(written)\nWANTED: \(a[0])\n \(first < a.count ? a[first] : "-")\nGOT:\(b[0])\n \(first < b.count ? b[first] : "-")\n=====")
      shown += 1
      if shown == 6 { break }
    }
  }
}
