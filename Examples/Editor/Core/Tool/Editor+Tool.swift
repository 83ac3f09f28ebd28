import DocumentEngine
import DocumentMarkdown
import TextRope

/// A writing tool's run over the contexts of one session.
struct ToolRun {
  var process: ToolProcess
  /// The context the tool is answering for.
  var context: WritingContext
  /// The context's paragraphs, with their line breaks, in its text as it
  /// was handed out; the last may have none (the end of the cell).
  var paragraphs: [Range<Int>]
  /// Whether the context's last paragraph ends with a line break.
  var endsWithBreak: Bool
  /// The block of the paragraph that landed last (the line break after it
  /// is its).
  var lastBlock: AttributeValue? = nil
  /// How many of them the answer replaced.
  var consumed = 0
  /// How much longer the answer that landed is than what it replaced: the
  /// tool's view of the context (the text it was given, with its own
  /// replacements) is that much longer before the next paragraph.
  var delta = 0
  /// Once the answer reached the last paragraph: where its next block goes
  /// (after the last one landed), in the tool's view.
  var appendAt: Int? = nil
  var stream = MarkdownBlockStream()
  var landed = 0
  var refused = 0
  /// The session's contexts still to run the tool on.
  var later: [WritingContext]
}

extension Editor {
  /// Runs the writing tool on the contexts of the selection (the caret's
  /// paragraph for a caret): a session with rich text and lists allowed,
  /// streaming. Its answer lands block by block as it arrives
  /// (``pollTool()``), while the person keeps typing.
  func runTool() {
    guard let command = toolCommand else {
      message = "No writing tool: start the editor with --tool 'COMMAND'"
      return
    }
    guard toolRun == nil else {
      message = "The tool is still running"
      return
    }
    let session: WritingSession
    do {
      // A caret hands out its paragraph (the document's scope would hand
      // out the whole cell): selected for the session's start, then the
      // caret is put back.
      if isCaret {
        let layout = paragraph(head.cell, containing: head.offset)
        guard layout.contentsLength > 0 else {
          message = "Nothing to hand the tool: the paragraph is empty"
          return
        }
        try document.select([
          SelectionRange(id(head.cell), layout.start..<(layout.start + layout.contentsLength))
        ])
      }
      defer { syncSelection() }
      session = try document.startSession(
        scope: .userSelection, resultOptions: [.richText, .presentationIntent, .list])
      try document.setWritingToolsState(.interactiveResting)
      try document.setWritingToolsState(.interactiveStreaming)
    } catch {
      message = "\(error)"
      return
    }
    guard let first = session.contexts.first else {
      document.endSession()
      message = "Nothing to hand the tool"
      return
    }
    start(command, on: first, later: Array(session.contexts.dropFirst()))
  }

  /// Starts the tool on one context.
  func start(_ command: String, on context: WritingContext, later: [WritingContext]) {
    var paragraphs: [Range<Int>] = []
    var endsWithBreak = false
    let text = context.text
    let length = text.utf16Count
    var at = 0
    while at < length, let (range, contentsEnd) = try? text.paragraph(containing: at) {
      paragraphs.append(range)
      endsWithBreak = range.upperBound > contentsEnd
      guard range.upperBound > at else { break }
      at = range.upperBound
    }
    if paragraphs.isEmpty { paragraphs = [0..<0] }
    do {
      let process = try ToolProcess(
        command: command, input: Array((context.markdown + "\n").utf8),
        timeoutSeconds: toolTimeout, outputLimit: toolOutputLimit)
      toolRun = ToolRun(
        process: process, context: context, paragraphs: paragraphs,
        endsWithBreak: endsWithBreak, later: later)
      toolStatus = "tool: running"
    } catch {
      failTool(error.description)
    }
  }

  /// Lands what the tool wrote since the last call, and ends the run when
  /// the tool exited or was ended.
  ///
  /// - Returns: whether anything changed (the screen must be drawn again).
  @discardableResult
  public func pollTool() -> Bool {
    guard var run = toolRun else { return false }
    let events = run.process.takeEvents()
    guard !events.isEmpty else { return false }
    var failure: String? = nil
    var finished = false
    for event in events where failure == nil && !finished {
      switch event {
      case .output(let bytes):
        for block in run.stream.feed(bytes) { land(block, in: &run) }
      case .exited(0, _):
        for block in run.stream.finish() { land(block, in: &run) }
        finished = true
      case .exited(let status, let errors):
        let last = errors.split(separator: "\n").last.map(String.init)
        failure = "it exited with status \(status)" + (last.map { ": " + $0 } ?? "")
      case .ended(let why):
        failure = why
      }
    }
    toolRun = run
    if let failure {
      failTool(failure)
    } else if finished {
      finishContext()
    } else {
      toolStatus = "tool: running, \(run.landed) landed"
    }
    // Text that landed above the screen's first line may have changed
    // its paragraph.
    top = clampTop(top)
    return true
  }

  /// Lands one finished block of the answer: over the next paragraphs of
  /// the context (as many as the block has), or, from the last one on,
  /// after what landed last.
  ///
  /// Every paragraph lands with its line break, which carries its block
  /// (a line break of another block would be an empty block of its own).
  /// Every range is in the tool's view (the context as handed out, with
  /// the answer that landed), on the version handed out: the document maps
  /// it through the person's edits since, and refuses it if they touched
  /// that text.
  func land(_ block: String, in run: inout ToolRun) {
    let read = AttributedText(markdown: block)
    var text = read.text
    var runs = read.runs
    while text.last?.isNewline == true {
      text.removeLast()
      let length = text.utf16.count
      runs = runs.compactMap { run in
        let end = min(run.range.upperBound, length)
        return run.range.lowerBound < end
          ? AttributeRun(run.range.lowerBound..<end, run.attributes) : nil
      }
    }
    let blockIntent = runs.last?.attributes[.presentationIntent]
    let count = text.reduce(0) { $1.isNewline ? $0 + 1 : $0 } + 1
    let n = run.paragraphs.count
    let last = run.consumed + count < n ? run.consumed + count - 1 : n - 1
    let basis = run.context.contextVersion
    do {
      if let at = run.appendAt {
        // After what landed: with a line break after it, or, at the end of
        // a cell that has none, before it (the break then ends the block
        // before, and carries it).
        let (piece, pieceRuns) =
          run.endsWithBreak
          ? Self.withBreak(text, runs, after: true, block: blockIntent)
          : Self.withBreak(text, runs, after: false, block: run.lastBlock)
        _ = try document.replace(
          context: run.context.id, range: at..<at, with: piece, attributes: pieceRuns,
          basis: basis)
        run.appendAt = at + piece.utf16.count
        run.delta += piece.utf16.count
      } else {
        let lower = run.paragraphs[run.consumed].lowerBound + run.delta
        let range = lower..<(run.paragraphs[last].upperBound + run.delta)
        let hasBreak = last < n - 1 || run.endsWithBreak
        let (piece, pieceRuns) =
          hasBreak ? Self.withBreak(text, runs, after: true, block: blockIntent) : (text, runs)
        _ = try document.replace(
          context: run.context.id, range: range, with: piece, attributes: pieceRuns,
          basis: basis)
        run.delta += piece.utf16.count - range.count
        run.consumed = last + 1
        if last == n - 1 { run.appendAt = range.lowerBound + piece.utf16.count }
      }
      run.landed += 1
      run.lastBlock = blockIntent
    } catch {
      // The paragraphs it was for stay as the person left them; the next
      // block goes on after them.
      if run.appendAt == nil {
        run.consumed = last + 1
        if last == n - 1 { run.appendAt = run.paragraphs[last].upperBound + run.delta }
      }
      run.refused += 1
      message = "A paragraph of the tool's answer was refused: \(error)"
    }
  }

  /// `text` with a line break after it (or before it) that carries
  /// `block`, its runs moved to match.
  static func withBreak(
    _ text: String, _ runs: [AttributeRun], after: Bool, block: AttributeValue?
  ) -> (String, [AttributeRun]) {
    let length = text.utf16.count
    let breakRun = block.map { intent in
      AttributeRun(after ? length..<(length + 1) : 0..<1, [.presentationIntent: intent])
    }
    if after { return (text + "\n", runs + (breakRun.map { [$0] } ?? [])) }
    let moved = runs.map {
      AttributeRun(($0.range.lowerBound + 1)..<($0.range.upperBound + 1), $0.attributes)
    }
    return ("\n" + text, (breakRun.map { [$0] } ?? []) + moved)
  }

  /// The tool answered for one context: an answer of fewer paragraphs
  /// takes the rest away; then the next context, or the run is done (the
  /// session stays, resting, so that one undo takes the whole answer
  /// back).
  func finishContext() {
    guard let run = toolRun else { return }
    if run.landed == 0 && run.refused == 0 {
      failTool("it wrote nothing")
      return
    }
    let n = run.paragraphs.count
    if run.appendAt == nil && run.consumed > 0 && run.consumed < n {
      // The paragraphs the answer did not reach go with their line breaks;
      // at the end of a cell without one, with the break before them.
      var lower = run.paragraphs[run.consumed].lowerBound + run.delta
      if !run.endsWithBreak { lower -= 1 }
      let range = lower..<(run.paragraphs[n - 1].upperBound + run.delta)
      do {
        _ = try document.replace(
          context: run.context.id, range: range, with: "", basis: run.context.contextVersion)
      } catch {
        message = "The rest of the context could not go: \(error)"
      }
    }
    if let next = run.later.first, let command = toolCommand {
      start(command, on: next, later: Array(run.later.dropFirst()))
      return
    }
    try? document.setWritingToolsState(.interactiveResting)
    toolRun = nil
    toolStatus =
      run.refused == 0
      ? "tool: done" : "tool: done, \(run.refused) refused (you edited that text)"
  }

  /// The tool failed: it changed nothing (what landed goes back), and the
  /// status line says why.
  func failTool(_ why: String) {
    toolRun?.process.cancel()
    toolRun = nil
    _ = try? document.revert()
    document.endSession()
    toolStatus = "tool failed: \(why); nothing changed"
  }

  /// Ends a running tool (the editor quits).
  public func cancelTool() {
    guard toolRun != nil else { return }
    failTool("cancelled")
  }
}
