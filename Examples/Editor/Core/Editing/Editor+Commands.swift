import DocumentEngine
import TextBoundaries
import TextRope

extension Editor {
  /// Carries out `command`.
  @discardableResult
  public func perform(_ command: EditorCommand) -> EditorOutcome {
    refreshSelection()
    if command != .quit { quitAsked = false }
    switch command {
    case .nextSuggestion, .previewNextCandidate, .acceptSuggestion, .ignoreSuggestion: break
    default:
      currentSuggestion = nil
      previewIndex = nil
    }
    switch command {
    case .insert(let text):
      replaceSelection(with: text)
    case .deleteBackward:
      if isCaret { anchor = moved(head, .left) }
      replaceSelection(with: "")
    case .deleteForward:
      if isCaret { anchor = moved(head, .right) }
      replaceSelection(with: "")
    case .move(let motion, let extend):
      move(motion, extend: extend)
    case .undo:
      undoOrRedo(redo: false)
    case .redo:
      undoOrRedo(redo: true)
    case .strong:
      toggleStrong()
    case .save:
      save()
    case .quit:
      if notebook.isModified && !quitAsked {
        quitAsked = true
        message = "Unsaved changes: Ctrl-Q again quits without saving, Ctrl-S saves"
        return .handled
      }
      cancelTool()
      return .quit
    case .nextSuggestion:
      nextSuggestion()
      return .handled
    case .previewNextCandidate:
      previewNextCandidate()
      return .handled
    case .acceptSuggestion:
      acceptSuggestion()
    case .ignoreSuggestion:
      ignoreSuggestion()
    case .runTool:
      runTool()
    }
    scrollToCaret()
    return .handled
  }

  // MARK: - Editing

  /// Replaces the selection with `text` (the person's edit: one group of
  /// the document's history when it spans cells), and puts the caret after
  /// it.
  func replaceSelection(with text: String) {
    let (start, end) = selection
    goalColumn = nil
    if start == end && text.isEmpty { return }
    do {
      if start.cell == end.cell {
        try document.edit(id(start.cell), range: start.offset..<end.offset, with: text)
      } else {
        var edits = [
          DocumentEdit(id(start.cell), range: start.offset..<length(start.cell), with: text)
        ]
        for cell in (start.cell + 1)..<end.cell {
          edits.append(DocumentEdit(id(cell), range: 0..<length(cell), with: ""))
        }
        edits.append(DocumentEdit(id(end.cell), range: 0..<end.offset, with: ""))
        try document.apply(edits)
      }
    } catch {
      message = "\(error)"
      return
    }
    head = Position(cell: start.cell, offset: start.offset + text.utf16.count)
    anchor = head
    syncSelection()
  }

  func undoOrRedo(redo: Bool) {
    goalColumn = nil
    do {
      let result = redo ? try document.redo() : try document.undo()
      if !result.selection.isEmpty {
        adoptSelection(result.selection)
      } else {
        refreshSelection()
      }
    } catch .nothingToUndo {
      message = redo ? "Nothing to redo" : "Nothing to undo"
    } catch {
      message = "\(error)"
    }
  }

  /// Makes the selection strong, or takes strong away if every unit of it
  /// is strong already. Each run keeps its other inline intents.
  func toggleStrong() {
    let (start, end) = selection
    guard start != end else {
      message = "Select text to make it strong"
      return
    }
    // The selection's parts, cell by cell.
    var parts: [(cell: Int, range: Range<Int>)] = []
    for cell in start.cell...end.cell {
      let lower = cell == start.cell ? start.offset : 0
      let upper = cell == end.cell ? end.offset : length(cell)
      if lower < upper { parts.append((cell, lower..<upper)) }
    }
    // Every piece of each part with its inline intent now.
    var pieces: [(cell: Int, range: Range<Int>, intent: InlinePresentationIntent)] = []
    for (cell, range) in parts {
      guard let storage = storage(cell) else { continue }
      var at = range.lowerBound
      // (The storage gives runs relative to the range asked for.)
      for run in storage.attributeRuns(in: range) {
        let lower = max(run.range.lowerBound + range.lowerBound, range.lowerBound)
        let upper = min(run.range.upperBound + range.lowerBound, range.upperBound)
        guard lower < upper else { continue }
        if at < lower { pieces.append((cell, at..<lower, [])) }
        var intent: InlinePresentationIntent = []
        if case .inlinePresentationIntent(let value)? = run.attributes[.inlinePresentationIntent] {
          intent = value
        }
        pieces.append((cell, lower..<upper, intent))
        at = upper
      }
      if at < range.upperBound { pieces.append((cell, at..<range.upperBound, [])) }
    }
    let allStrong = pieces.allSatisfy { $0.intent.contains(.stronglyEmphasized) }
    do {
      for piece in pieces {
        var intent = piece.intent
        if allStrong {
          intent.remove(.stronglyEmphasized)
        } else {
          intent.insert(.stronglyEmphasized)
        }
        try document.setAttributes(
          [.inlinePresentationIntent: intent.isEmpty ? nil : .inlinePresentationIntent(intent)],
          in: id(piece.cell), range: piece.range)
        notebook.noteRestyled(piece.cell)
      }
    } catch {
      message = "\(error)"
    }
  }

  func save() {
    do {
      let written = try notebook.save()
      message =
        written == 0
        ? (notebook.cells.contains { $0.path != nil } ? "Nothing to save" : "No file to save to")
        : "Saved \(written) file\(written == 1 ? "" : "s")"
    } catch {
      message = error.description
    }
  }

  // MARK: - Motion

  func move(_ motion: Motion, extend: Bool) {
    let (start, end) = selection
    var target: Position
    switch motion {
    case .left where !extend && !isCaret:
      target = start
    case .right where !extend && !isCaret:
      target = end
    case .up, .down:
      target = vertical(motion == .up ? -1 : 1)
    case .pageUp, .pageDown:
      let lines = max(1, textRows - 1)
      let down = motion == .pageDown
      target = vertical(down ? lines : -lines)
      // The screen moves with the caret.
      for _ in 0..<lines {
        guard let line = down ? next(after: top) : previous(before: top) else { break }
        top = line
      }
    default:
      target = moved(head, motion)
    }
    if motion != .up && motion != .down && motion != .pageUp && motion != .pageDown {
      goalColumn = nil
    }
    head = target
    if !extend { anchor = target }
    syncSelection()
  }

  /// Where `motion` takes the caret from `position` (the motions that do
  /// not depend on the goal column).
  func moved(_ position: Position, _ motion: Motion) -> Position {
    let cell = position.cell
    let text = self.text(cell)
    let offset = position.offset
    switch motion {
    case .left:
      if offset == 0 {
        return cell > 0 ? Position(cell: cell - 1, offset: length(cell - 1)) : position
      }
      let before = (try? GraphemeClusters(text).boundary(before: offset)) ?? nil
      return Position(cell: cell, offset: before ?? 0)
    case .right:
      if offset >= text.utf16Count {
        return cell + 1 < notebook.cells.count ? Position(cell: cell + 1, offset: 0) : position
      }
      let after = (try? GraphemeClusters(text).boundary(after: offset)) ?? nil
      return Position(cell: cell, offset: after ?? text.utf16Count)
    case .wordLeft:
      if offset == 0 {
        return cell > 0 ? Position(cell: cell - 1, offset: length(cell - 1)) : position
      }
      let start = (try? WordBoundaries(text).wordStart(before: offset)) ?? 0
      return Position(cell: cell, offset: start)
    case .wordRight:
      if offset >= text.utf16Count {
        return cell + 1 < notebook.cells.count ? Position(cell: cell + 1, offset: 0) : position
      }
      let end = (try? WordBoundaries(text).wordEnd(after: offset)) ?? text.utf16Count
      return Position(cell: cell, offset: end)
    case .lineStart, .lineEnd:
      let layout = paragraph(cell, containing: offset)
      let i = layout.line(containing: offset - layout.start)
      let range = layout.lines[i].range
      if motion == .lineStart {
        return Position(cell: cell, offset: layout.start + range.lowerBound)
      }
      // The end of a wrapped line is the start of the next: stop before
      // the space it broke at.
      var end = range.upperBound
      if i < layout.lines.count - 1, end > range.lowerBound {
        end = layout.offset(atColumn: Int.max, inLine: i)
      }
      return Position(cell: cell, offset: layout.start + end)
    case .paragraphStart:
      return Position(cell: cell, offset: paragraph(cell, containing: offset).start)
    case .paragraphEnd:
      let layout = paragraph(cell, containing: offset)
      return Position(cell: cell, offset: layout.start + layout.contentsLength)
    case .notebookStart:
      return Position(cell: 0, offset: 0)
    case .notebookEnd:
      let last = notebook.cells.count - 1
      return Position(cell: last, offset: length(last))
    case .up, .down, .pageUp, .pageDown:
      return position
    }
  }

  /// The caret `count` screen lines down (up if negative), at the goal
  /// column; title bars are passed over.
  func vertical(_ count: Int) -> Position {
    let layout = paragraph(head.cell, containing: head.offset)
    let i = layout.line(containing: head.offset - layout.start)
    let column = goalColumn ?? layout.column(of: head.offset - layout.start, inLine: i)
    goalColumn = column
    var line = DisplayLine.text(cell: head.cell, paragraph: layout.start, line: i)
    var moved = 0
    while moved < abs(count) {
      guard let following = count > 0 ? next(after: line) : previous(before: line) else {
        // Past the first or last line: to the notebook's start or end.
        return count > 0 ? self.moved(head, .notebookEnd) : Position(cell: 0, offset: 0)
      }
      line = following
      if case .text = line { moved += 1 }
    }
    guard case .text(let cell, let start, let index) = line else { return head }
    let target = paragraph(cell, containing: start)
    return Position(cell: cell, offset: start + target.offset(atColumn: column, inLine: index))
  }
}
