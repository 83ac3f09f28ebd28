import DocumentEngine
import DocumentMarkdown
import EditorCore
import Foundation
import Testing
import TextRope

#if canImport(Glibc)
import Glibc
#endif

/// The writing tool run from the editor: its answer lands block by block.
struct ToolTests {
  func editor(markdown: String) throws -> Editor {
    let document = Document()
    let read = AttributedText(markdown: markdown)
    try document.add("a", text: Rope(read.text), attributes: read.runs)
    let cell = Notebook.Cell(
      id: "a", path: nil, format: .markdown, title: "a",
      savedVersion: try document.content.storage("a").version)
    return Editor(notebook: Notebook(document: document, cells: [cell]), rows: 20, columns: 60)
  }

  func run(_ e: Editor, timeout: Double = 20) {
    e.perform(.runTool)
    waitForTheTool(e, timeout: timeout)
  }

  /// Lands the tool's answer until it is done (or failed).
  func waitForTheTool(_ e: Editor, timeout: Double = 20) {
    let start = ToolProcess.now()
    while e.toolStatus?.hasPrefix("tool: running") == true && ToolProcess.now() - start < timeout {
      e.pollTool()
      usleep(10_000)
    }
  }

  func text(_ e: Editor) throws -> String {
    String(try e.document.content.storage("a").text)
  }

  @Test func anAnswerOfMoreParagraphsLandsAfterTheFirst() throws {
    let e = try editor(markdown: "The quick brown fox.\n\nSecond paragraph here.\n")
    e.toolCommand =
      "cat >/dev/null; printf 'First *new* paragraph.\\n\\n- a list item\\n- another\\n'"
    run(e)
    #expect(e.toolStatus == "tool: done")
    let landed = try text(e)
    #expect(landed == "First new paragraph.\na list item\nanother\nSecond paragraph here.")
    e.perform(.undo)
    let undone = try text(e)
    #expect(undone == "The quick brown fox.\nSecond paragraph here.")
  }

  @Test(arguments: [
    "Alpha one.\n\nBeta two.\n\nGamma three.\n", "Alpha one.\n\nBeta two.\n",
    "Beta two.\n\nGamma three.\n",
  ])
  func theAnswerIsWrittenBackAsTheSameBlocks(_ markdown: String) throws {
    let e = try editor(markdown: markdown)
    // The caret in "Beta two.".
    while try text(e).utf16.dropFirst(e.head.offset).starts(with: "Beta".utf16) == false {
      e.perform(.move(.right, extend: false))
    }
    e.toolCommand = "tr a-z A-Z"
    run(e)
    #expect(e.toolStatus == "tool: done")
    let saved = try e.notebook.savedText(of: 0)
    #expect(saved == markdown.replacingOccurrences(of: "Beta two.", with: "BETA TWO."))
  }

  @Test func anAnswerOfMoreParagraphsIsWrittenBackAsItsBlocks() throws {
    let e = try editor(markdown: "Alpha.\n\nBeta.\n\nGamma.\n")
    e.perform(.move(.down, extend: false))
    e.toolCommand = "cat >/dev/null; printf 'One.\\n\\nTwo.\\n\\n- three\\n- four\\n'"
    run(e)
    let saved = try e.notebook.savedText(of: 0)
    #expect(saved == "Alpha.\n\nOne.\n\nTwo.\n\n- three\n- four\n\nGamma.\n")
    let e2 = try editor(markdown: "Alpha.\n\nBeta.")
    e2.perform(.move(.notebookEnd, extend: false))
    e2.toolCommand = "cat >/dev/null; printf 'One.\\n\\nTwo.\\n'"
    run(e2)
    let saved2 = try e2.notebook.savedText(of: 0)
    #expect(saved2 == "Alpha.\n\nOne.\n\nTwo.\n")
  }

  @Test func aSelectionOfTwoParagraphsAnsweredWithOneLosesTheSecond() throws {
    let e = try editor(markdown: "One.\n\nTwo.\n\nThree.\n")
    // "One.\nT" selected: two paragraphs.
    e.perform(.move(.down, extend: true))
    e.perform(.move(.right, extend: true))
    e.toolCommand = "cat >/dev/null; echo 'Both, **joined**.'"
    run(e)
    #expect(e.toolStatus == "tool: done")
    #expect(e.message == nil)
    let landed = try text(e)
    #expect(landed == "Both, joined.\nThree.")
    let storage = try e.document.content.storage("a")
    #expect(
      storage.attributeRuns(in: 6..<12).contains {
        $0.attributes[.inlinePresentationIntent] == .inlinePresentationIntent(.stronglyEmphasized)
      })
  }

  @Test func thePersonTypesElsewhereWhileTheAnswerStreams() throws {
    let e = try editor(markdown: "Rewrite me.\n\nKeep typing here.\n")
    e.toolCommand = "cat >/dev/null; sleep 0.3; echo 'Rewritten.'"
    e.perform(.runTool)
    // While the tool sleeps: the person types at the end of the second
    // paragraph.
    e.perform(.move(.notebookEnd, extend: false))
    e.perform(.insert(" And more."))
    waitForTheTool(e)
    let landed = try text(e)
    #expect(landed == "Rewritten.\nKeep typing here. And more.")
    // One undo takes the person's typing back first, then the answer.
    e.perform(.undo)
    e.perform(.undo)
    let undone = try text(e)
    #expect(undone == "Rewrite me.\nKeep typing here.")
  }

  @Test func anEditOfTheParagraphTheToolRewritesRefusesThatParagraph() throws {
    let e = try editor(markdown: "Rewrite me.\n\nOther.\n")
    e.toolCommand = "cat >/dev/null; sleep 0.3; echo 'Rewritten.'"
    e.perform(.runTool)
    e.perform(.move(.right, extend: false))
    e.perform(.insert("X"))
    waitForTheTool(e)
    #expect(e.toolStatus?.contains("1 refused") == true)
    let kept = try text(e)
    #expect(kept == "RXewrite me.\nOther.")
  }

  @Test(arguments: [
    ("echo partial; echo; echo 'went wrong' >&2; exit 3", "it exited with status 3: went wrong"),
    ("cat >/dev/null; echo 'never finished'; echo; sleep 30", "timed out"),
    ("yes 'a very long line of output'", "wrote more than 4096 bytes"),
    ("cat >/dev/null", "it wrote nothing"),
  ])
  func aToolThatFailsChangesNothing(_ command: String, _ why: String) throws {
    let e = try editor(markdown: "Keep me.\n\nAnd me.\n")
    e.toolCommand = command
    // Long enough for a loaded machine, but for the tool that hangs.
    e.toolTimeout = why == "timed out" ? 1 : 15
    e.toolOutputLimit = 4096
    run(e)
    #expect(e.toolStatus == "tool failed: \(why); nothing changed")
    let kept = try text(e)
    #expect(kept == "Keep me.\nAnd me.")

  }
}

/// Markdown cut into blocks as it streams in.
struct MarkdownBlockStreamTests {
  static let answer = """
    First paragraph,
    two lines.

    ```swift
    let a = 1

    let b = 2
    ```

    - one
    - two
    \u{1F469}\u{1F3FD}\u{200D}\u{1F4BB} é

    ~~~~
    ~~~ not a close
    ~~~~

    last
    """

  static let blocks = [
    "First paragraph,\ntwo lines.", "```swift\nlet a = 1\n\nlet b = 2\n```",
    "- one\n- two\n\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB} é", "~~~~\n~~~ not a close\n~~~~", "last",
  ]

  @Test func blocksEndAtBlankLinesOutsideFences() {
    var stream = MarkdownBlockStream()
    let found = stream.feed(Array(Self.answer.utf8)) + stream.finish()
    #expect(found == Self.blocks)
  }

  @Test func theBlocksDoNotDependOnHowTheBytesArrive() {
    let bytes = Array(Self.answer.utf8)
    for split in 0...bytes.count {
      var stream = MarkdownBlockStream()
      let found =
        stream.feed(bytes[..<split]) + stream.feed(bytes[split...]) + stream.finish()
      #expect(found == Self.blocks, "split at \(split)")
    }
    var stream = MarkdownBlockStream()
    var found: [String] = []
    for byte in bytes { found += stream.feed([byte]) }
    #expect(found + stream.finish() == Self.blocks)
  }

  @Test func aBlockIsHandedOverOnlyOnceFinished() {
    var stream = MarkdownBlockStream()
    #expect(stream.feed(Array("Hello\nworld".utf8)).isEmpty)
    #expect(stream.feed(Array("\n\n".utf8)) == ["Hello\nworld"])
    #expect(stream.finish().isEmpty)
  }
}
