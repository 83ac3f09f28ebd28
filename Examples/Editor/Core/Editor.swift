import DocumentEngine
import TextBoundaries
import TextRope

/// The editor: a notebook, the person's selection in it, what the screen
/// shows of it, and the commands keys stand for.
///
/// The selection lives in the document (``Document/select(_:)``), so that
/// it follows every edit — the person's, a tool's, a peer's — and undo puts
/// it back. The editor keeps which end moves (the head) and the column
/// vertical motion aims for.
///
/// Not thread-safe: one loop drives it. The document it edits may be
/// edited from other threads (a tool's answer landing); the editor reads
/// the selection back before each command.
public final class Editor {
  /// The notebook being edited.
  public let notebook: Notebook
  /// The document that holds the notebook's cells.
  public var document: Document { notebook.document }

  /// Where the selection started (stays put while Shift extends it).
  public internal(set) var anchor: Position
  /// Where the caret is: the end of the selection that moves.
  public internal(set) var head: Position
  /// The column vertical motion aims for, kept while moving up and down.
  var goalColumn: Int? = nil

  /// The screen's size, the status line included.
  public internal(set) var rows: Int
  /// The screen's width in columns.
  public internal(set) var columns: Int
  /// The first line of the text area.
  public internal(set) var top: DisplayLine = .header(cell: 0)

  /// What the status line says after the next frame (an error, "Saved").
  public var message: String? = nil
  /// What the writing tool is doing, for the status line.
  public var toolStatus: String? = nil
  /// What the agents connected over MCP did last, for the status line.
  public var agentStatus: String? = nil
  /// Whether the person asked to quit once with unsaved changes.
  var quitAsked = false

  /// The writing tool: a shell command that reads Markdown and writes
  /// Markdown, or nil.
  public var toolCommand: String? = nil
  /// How long the tool may run, in seconds.
  public var toolTimeout: Double = 60
  /// How many bytes the tool may write.
  public var toolOutputLimit = 1 << 20
  /// The tool's run, while it runs.
  var toolRun: ToolRun? = nil

  /// The prose checker: a shell command that reads text and writes
  /// proselint's JSON (``ProseCheck``), or nil.
  public var checkerCommand: String? = nil
  /// How long the checker may run, in seconds.
  public var checkerTimeout: Double = 30
  /// How many bytes the checker may write.
  public var checkerOutputLimit = 4 << 20
  /// The checker's run, while it runs.
  var checkerRun: CheckerRun? = nil
  /// The paragraphs the checker saw (by cell, start and text).
  var proseChecked: Set<CheckedParagraph> = []
  /// What the checker did last, for the status line.
  public var checkerStatus: String? = nil

  /// The spell checker's service, or nil when spelling is off.
  public var spelling: SpellingService? = nil
  /// The paragraphs checked (by cell, start and text), so that a pause
  /// checks only what changed.
  var checkedParagraphs: Set<CheckedParagraph> = []
  /// The suggestion F7 went to, while the person reviews it.
  public internal(set) var currentSuggestion: SuggestionID? = nil
  /// The candidate of ``currentSuggestion`` previewed in place.
  var previewIndex: Int? = nil

  struct CheckedParagraph: Hashable {
    var storage: StorageID
    var start: Int
    var text: String
  }

  /// Counts the cells' words in the background.
  let wordCounter = WordCounter()
  /// The counter's generation the status line shows.
  var wordCountsSeen = 0

  /// Laid-out paragraphs, by cell, for one version of its text and one
  /// width.
  var layouts: [StorageID: LayoutCache] = [:]

  /// Laid-out lines by paragraph text, margin and width, across versions.
  var linesByText: [LineKey: [ParagraphLayout.Line]] = Dictionary(
    minimumCapacity: Editor.linesKept)
  /// How many paragraphs' lines are kept: a few screens' worth, and the
  /// versions of the paragraph being typed in.
  static let linesKept = 2_048
  /// The document's content while a frame is built (read once, not once a
  /// line).
  var frozen: DocumentContent? = nil

  struct LayoutCache {
    var version: StorageVersion
    var width: Int
    var paragraphs: [Int: ParagraphLayout] = [:]
  }

  /// An editor of `notebook` on a screen of `rows` × `columns`, the caret at
  /// the start of the first cell.
  public init(notebook: Notebook, rows: Int, columns: Int) {
    self.notebook = notebook
    self.rows = max(2, rows)
    self.columns = max(4, columns)
    anchor = Position(cell: 0, offset: 0)
    head = anchor
    syncSelection()
  }

  /// The screen changed size.
  public func resize(rows: Int, columns: Int) {
    self.rows = max(2, rows)
    self.columns = max(4, columns)
    goalColumn = nil
    top = clampTop(top)
    scrollToCaret()
  }

  /// The rows of the text area (the status line is the last row).
  public var textRows: Int { rows - 1 }

  // MARK: - Cells and their text

  /// The storage of cell `i`.
  func id(_ cell: Int) -> StorageID { notebook.cells[cell].id }

  /// Cell `i`'s storage as it is now.
  func storage(_ cell: Int) -> TextStorage? {
    guard notebook.cells.indices.contains(cell) else { return nil }
    return try? (frozen ?? document.content).storage(id(cell))
  }

  /// Cell `i`'s text as it is now.
  func text(_ cell: Int) -> Rope { storage(cell)?.text ?? Rope() }

  /// The length of cell `i`'s text in UTF-16 units.
  func length(_ cell: Int) -> Int { storage(cell)?.length ?? 0 }

  /// The selection in document order.
  public var selection: (start: Position, end: Position) {
    anchor <= head ? (anchor, head) : (head, anchor)
  }

  /// Whether the selection is a caret.
  public var isCaret: Bool { anchor == head }

  // MARK: - The selection, kept in the document

  /// Tells the document where the selection is.
  func syncSelection() {
    let (start, end) = selection
    guard notebook.cells.indices.contains(start.cell), notebook.cells.indices.contains(end.cell)
    else { return }
    try? document.select([
      SelectionRange(
        from: TextPosition(id(start.cell), start.offset), to: TextPosition(id(end.cell), end.offset)
      )
    ])
  }

  /// Reads the selection back from the document, where edits by others
  /// moved it.
  func adoptSelection(_ ranges: [SelectionRange]) {
    guard let range = ranges.first,
      let startCell = notebook.cells.firstIndex(where: { $0.id == range.start.storage }),
      let endCell = notebook.cells.firstIndex(where: { $0.id == range.end.storage })
    else { return }
    let start = Position(cell: startCell, offset: range.start.offset)
    let end = Position(cell: endCell, offset: range.end.offset)
    if anchor <= head {
      anchor = start
      head = end
    } else {
      anchor = end
      head = start
    }
  }

  /// Before a command: the selection as the document has it now.
  func refreshSelection() {
    adoptSelection(document.selection)
  }

  // MARK: - Layout

  /// The laid-out paragraph of cell `cell` that holds `offset`.
  func paragraph(_ cell: Int, containing offset: Int) -> ParagraphLayout {
    let cellID = id(cell)
    let storage = self.storage(cell)
    let version = storage?.version ?? StorageVersion(0)
    if layouts[cellID]?.version != version || layouts[cellID]?.width != columns {
      layouts[cellID] = LayoutCache(version: version, width: columns)
    }
    let text = storage?.text ?? Rope()
    let clamped = min(max(0, offset), text.utf16Count)
    guard let (range, contentsEnd) = try? text.paragraph(containing: clamped) else {
      return ParagraphLayout(text: "", start: 0, separatorLength: 0, margin: .none, width: columns)
    }
    if let cached = layouts[cellID]?.paragraphs[range.lowerBound] { return cached }
    let contents = (try? text.string(range.lowerBound..<contentsEnd)) ?? ""
    let margin =
      notebook.cells[cell].format == .markdown
      ? Self.margin(of: storage, paragraph: range.lowerBound) : .none
    // An edit changes one paragraph: the others' lines are found by their
    // text, wherever they moved.
    let key = LineKey(text: contents, margin: margin, width: columns)
    let layout: ParagraphLayout
    if let lines = linesByText[key] {
      layout = ParagraphLayout(
        text: contents, start: range.lowerBound, separatorLength: range.upperBound - contentsEnd,
        margin: margin, lines: lines)
    } else {
      layout = ParagraphLayout(
        text: contents, start: range.lowerBound, separatorLength: range.upperBound - contentsEnd,
        margin: margin, width: columns)
      // Bounded, and never grown: a dictionary that doubles rehashes every
      // key, which a keystroke would wait for.
      if linesByText.count >= Self.linesKept { linesByText.removeAll(keepingCapacity: true) }
      linesByText[key] = layout.lines
    }
    layouts[cellID]?.paragraphs[range.lowerBound] = layout
    return layout
  }

  /// What a paragraph's screen lines depend on.
  struct LineKey: Hashable {
    var text: String
    var margin: Margin
    var width: Int
  }

  /// The margin of the paragraph that starts at `start`: its block, and
  /// whether it goes on with the list item before it.
  static func margin(of storage: TextStorage?, paragraph start: Int) -> Margin {
    guard let storage, start < storage.length else { return .none }
    func intent(at offset: Int) -> PresentationIntent? {
      guard let run = storage.attributeRuns(in: offset..<(offset + 1)).first,
        case .presentationIntent(let intent)? = run.attributes[.presentationIntent]
      else { return nil }
      return intent
    }
    let mine = intent(at: start)
    var continues = false
    if start > 0, let before = intent(at: start - 1), let mine {
      let item = { (i: PresentationIntent) in
        i.components.last(where: {
          if case .listItem = $0.kind { return true }
          return false
        })?.identity
      }
      continues = item(before) != nil && item(before) == item(mine)
    }
    return Margin(mine, continuesItem: continues)
  }

  /// The screen line that shows `position`.
  func displayLine(of position: Position) -> DisplayLine {
    let layout = paragraph(position.cell, containing: position.offset)
    return .text(
      cell: position.cell, paragraph: layout.start,
      line: layout.line(containing: position.offset - layout.start))
  }

  /// The screen line after `line`, or nil at the end of the notebook.
  /// `known` is `line`'s paragraph, if the caller has it.
  func next(after line: DisplayLine, in known: ParagraphLayout? = nil) -> DisplayLine? {
    switch line {
    case .header(let cell):
      return .text(cell: cell, paragraph: 0, line: 0)
    case .text(let cell, let start, let i):
      let layout =
        known.flatMap { $0.start == start ? $0 : nil } ?? paragraph(cell, containing: start)
      if i + 1 < layout.lines.count { return .text(cell: cell, paragraph: start, line: i + 1) }
      if layout.separatorLength > 0 {
        return .text(cell: cell, paragraph: start + layout.length, line: 0)
      }
      return cell + 1 < notebook.cells.count ? .header(cell: cell + 1) : nil
    }
  }

  /// The screen line before `line`, or nil at the top of the notebook.
  func previous(before line: DisplayLine) -> DisplayLine? {
    switch line {
    case .header(let cell):
      guard cell > 0 else { return nil }
      let layout = paragraph(cell - 1, containing: length(cell - 1))
      return .text(cell: cell - 1, paragraph: layout.start, line: layout.lines.count - 1)
    case .text(let cell, let start, let i):
      if i > 0 { return .text(cell: cell, paragraph: start, line: i - 1) }
      if start == 0 { return .header(cell: cell) }
      let layout = paragraph(cell, containing: start - 1)
      return .text(cell: cell, paragraph: layout.start, line: layout.lines.count - 1)
    }
  }

  /// `line` if it still exists (the text changed under it), else the
  /// nearest one that does.
  func clampTop(_ line: DisplayLine) -> DisplayLine {
    guard case .text(let cell, let start, let i) = line else {
      if case .header(let cell) = line, cell >= notebook.cells.count {
        return .header(cell: max(0, notebook.cells.count - 1))
      }
      return line
    }
    guard notebook.cells.indices.contains(cell) else { return .header(cell: 0) }
    let layout = paragraph(cell, containing: start)
    return .text(cell: cell, paragraph: layout.start, line: min(i, layout.lines.count - 1))
  }

  /// Scrolls so that the caret's line is on the screen.
  func scrollToCaret() {
    top = clampTop(top)
    let caret = displayLine(of: head)
    if caret < top {
      // Show the cell's title bar above its first line.
      if case .text(let cell, 0, 0) = caret {
        top = .header(cell: cell)
      } else {
        top = caret
      }
      return
    }
    var line = top
    for _ in 0..<textRows {
      if line == caret { return }
      guard let following = next(after: line) else { break }
      line = following
    }
    // Below the screen: the caret's line becomes the last one.
    var first = caret
    for _ in 0..<(textRows - 1) {
      guard let before = previous(before: first) else { break }
      first = before
    }
    top = first
  }

  /// The text-area lines shown from `top`, up to `textRows`.
  func shownLines() -> [DisplayLine] {
    var lines: [DisplayLine] = []
    var line: DisplayLine? = clampTop(top)
    while let current = line, lines.count < textRows {
      lines.append(current)
      line = next(after: current)
    }
    return lines
  }
}
