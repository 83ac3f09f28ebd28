// A short tour of the rope: build a document, edit it, keep a snapshot,
// convert offsets between UTF-16, UTF-8 and scalars, and find paragraphs.
//
//     swift run rope-tour                  # the built-in sample
//     swift run rope-tour FILE             # a UTF-8 file of yours
//     swift run rope-tour --replay TRACE   # replay an editing trace (.json[.gz])

import EditingTraces
import Foundation
import TextBoundaries
import TextRope

let sample = """
  Draft\r
  One two. Ελληνικά και 中文.\u{2029}Emoji: 👨‍👩‍👧‍👦 🇫🇷 e\u{301}.
  Three fuor.
  """

func printError(_ message: String) {
  FileHandle.standardError.write(Data("rope-tour: \(message)\n".utf8))
}

/// `text` quoted, with line and paragraph separators made visible.
func visible(_ text: String) -> String {
  text.debugDescription
    .replacingOccurrences(of: "\u{2029}", with: "\\u{2029}")
    .replacingOccurrences(of: "\u{2028}", with: "\\u{2028}")
}

func tour(_ rope: Rope, name: String) throws {
  let s = rope.summary
  var clusters = 0
  try rope.graphemeClusters.forEachBoundary(in: 0..<rope.utf16Count) { _ in clusters += 1 }
  print("\(name): \(s.utf8) UTF-8 bytes, \(s.utf16) UTF-16 units, \(s.scalars) scalars,")
  print("  \(max(clusters - 1, 0)) grapheme clusters, \(rope.paragraphCount) paragraphs,")
  print("  \(Array(rope.chunks).count) chunks")
  let shown = min(rope.paragraphCount, 5)
  for n in 0..<shown {
    let start = try rope.paragraphStart(n)
    let end = n + 1 < rope.paragraphCount ? try rope.paragraphStart(n + 1) : rope.utf16Count
    let text = String(try rope.slice(start..<end))
    print("  ¶\(n) UTF-16 \(start)..<\(end): \(visible(text))")
  }
  if rope.paragraphCount > shown { print("  …") }
}

func demoEdits() throws {
  var rope = Rope(sample)
  try tour(rope, name: "sample")
  let snapshot = rope  // O(1); never changes
  let typo = String(rope).utf16.count - "fuor.".utf16.count
  try rope.replace(typo..<typo + 4, with: "four")
  try rope.insert("👋 ", at: 0)
  print("\nafter two edits: \(visible(String(rope)))")
  print("the snapshot is unchanged: \(visible(String(snapshot)))")
  let offset = 2  // after "👋", which is two UTF-16 units
  print(
    "UTF-16 offset \(offset) is UTF-8 offset \(try rope.convert(offset, from: .utf16, to: .utf8))"
      + " and scalar offset \(try rope.convert(offset, from: .utf16, to: .unicodeScalars))")
  do {
    _ = try rope.utf8Offset(of: 1, in: .utf16)
  } catch {
    print("UTF-16 offset 1 is refused: \(error)")
  }
}

var arguments = CommandLine.arguments.dropFirst()
do {
  switch arguments.first {
  case nil:
    try demoEdits()
  case "--replay":
    arguments.removeFirst()
    guard let path = arguments.first else {
      printError("--replay needs the path of a trace")
      exit(2)
    }
    let trace = try EditingTrace(contentsOf: path)
    var rope = Rope(trace.startContent)
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
      for p in trace.patches {
        try rope.replace(
          p.position..<p.position + p.deleteCount, in: .unicodeScalars, with: p.insert)
      }
    }
    print(
      "\(trace.patches.count) edits in \(elapsed); matches: \(String(rope) == trace.endContent)")
  case let path?:
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      printError("cannot read \(path): \(error.localizedDescription)")
      exit(1)
    }
    try tour(try Rope(validating: data), name: path)
  }
} catch {
  printError("\(error)")
  exit(1)
}
