import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentMarkdown
import EditorCore
import EditorSpelling
import EditorTerminal
import Foundation

// 18. The example editor (issue 31, Examples/Editor) on a 100 MB Markdown
//     file (`MarkdownText`), spelling on (Enchant, en_US):
//     - opening it — the file read into a notebook (`Notebook.open`: read,
//       Markdown to rich text, one storage) and its first screen drawn
//       (`Editor.frame()` and the terminal's bytes) — beside reading the
//       same Markdown with `AttributedText(markdown:)` alone, paired in each
//       iteration. Target: ≤ 2× (200).
//     - a keystroke to its screen: each iteration is one key through the
//       editor's own loop, as `editor` runs it (the key's command, the
//       spelling findings landed, the frame built and rendered to bytes);
//       10,000 keys of typing with spaces, Enter, Backspace and arrows, with
//       a pause (the visible paragraphs sent to the spell checker) every 100
//       keys. The harness's percentiles are the keystrokes' latencies.
//       Target: p99 ≤ 2 ms, max ≤ 20 ms.

let openOverRead = BenchmarkMetric.custom(
  "open ÷ AttributedText(markdown:) (×100)", polarity: .prefersSmaller, useScalingFactor: false)

/// The Markdown file the editor benchmarks open: about 100 MB.
let editorMarkdownBytes = 100 * megabyte

/// Writes the benchmarks' Markdown file once per process; its path.
func editorMarkdownFile() -> String {
  let path = NSTemporaryDirectory() + "editor-benchmark-\(getpid()).md"
  if !FileManager.default.fileExists(atPath: path) {
    let markdown = MarkdownText.document(byteCount: editorMarkdownBytes)
    _ = FileManager.default.createFile(atPath: path, contents: Data(markdown.utf8))
  }
  return path
}

/// The editor on `path`, as `editor` makes it: 50 × 120, spelling on.
func openEditor(_ path: String) -> Editor? {
  guard let notebook = try? Notebook.open(paths: [path]) else { return nil }
  let editor = Editor(notebook: notebook, rows: 50, columns: 120)
  editor.spelling = (try? SpellChecker(language: "en_US")).map(SpellingService.init)
  return editor
}

func registerEditorBenchmarks() {
  let paired = configuration(
    metrics: [.wallClock, openOverRead], timeUnits: .milliseconds, warmupIterations: 0,
    maxDuration: .seconds(120), maxIterations: 3)
  Benchmark("Editor ratio/open 100 MB Markdown", configuration: paired) { benchmark, path in
    let clock = ContinuousClock()
    guard let markdown = try? String(contentsOfFile: path, encoding: .utf8) else { return }
    let readTime = timed(clock) { AttributedText(markdown: markdown) }
    let openTime = timed(clock) { () -> [UInt8] in
      guard let editor = openEditor(path) else { return [] }
      var renderer = FrameRenderer()
      return renderer.render(editor.frame())
    }
    benchmark.measurement(openOverRead, percent(openTime, of: readTime))
  } setup: {
    editorMarkdownFile()
  }

  let keystrokes = configuration(
    metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 50,
    maxDuration: .seconds(120), maxIterations: 10_000)
  Benchmark("Editor/keystroke to frame, 100 MB Markdown", configuration: keystrokes) {
    benchmark, state in
    let (editor, renderer, keys, count) = state
    for _ in benchmark.scaledIterations {
      let key = keys[count.value % keys.count]
      count.value += 1
      if count.value % 100 == 0 { editor.checkVisibleSpelling() }
      editor.perform(key)
      editor.landSpelling()
      blackHole(renderer.value.render(editor.frame()))
    }
  } setup: { () -> (Editor, Box<FrameRenderer>, [EditorCommand], Box<Int>) in
    guard let editor = openEditor(editorMarkdownFile()) else {
      fatalError("the benchmark's Markdown file could not be opened")
    }
    let renderer = Box(FrameRenderer())
    _ = renderer.value.render(editor.frame())
    // In the middle of the file.
    for _ in 0..<2_000 { editor.perform(.move(.pageDown, extend: false)) }
    var keys: [EditorCommand] = []
    for (i, character) in "The quick brown fox jumps over the lazy dog. ".enumerated() {
      keys.append(.insert(String(character)))
      if i % 11 == 10 { keys.append(.deleteBackward) }
    }
    keys += [.insert("\n"), .move(.up, extend: false), .move(.down, extend: false)]
    keys += [.move(.wordLeft, extend: false), .move(.wordRight, extend: false)]
    return (editor, renderer, keys, Box(0))
  }
}
