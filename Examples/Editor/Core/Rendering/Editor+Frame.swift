import DocumentEngine
import EditorTerminal
import TextBoundaries
import TextRope

extension Editor {
  /// What the screen shows now: the text area from ``top``, the status
  /// line, and the caret. Tells the document which ranges are visible.
  ///
  /// Each paragraph on the screen is laid out once, and each cell's
  /// suggestions are asked for once, over its visible range.
  public func frame() -> Frame {
    refreshSelection()
    frozen = document.content
    defer { frozen = nil }
    top = clampTop(top)
    // The lines, each with its paragraph's layout.
    var shown: [(line: DisplayLine, layout: ParagraphLayout?)] = []
    var line: DisplayLine? = top
    var current: ParagraphLayout? = nil
    while let at = line, shown.count < textRows {
      switch at {
      case .header:
        shown.append((at, nil))
        current = nil
      case .text(let cell, let start, _):
        if current?.start != start || shown.last?.line.cell != cell {
          current = paragraph(cell, containing: start)
        }
        shown.append((at, current))
      }
      line = next(after: at, in: current)
    }
    var visible: [StorageID: Range<Int>] = [:]
    for (line, layout) in shown {
      guard case .text(let cell, let start, let i) = line, let layout else { continue }
      let range = layout.lines[i].range
      let absolute = (start + range.lowerBound)..<(start + range.upperBound)
      let cellID = id(cell)
      visible[cellID] =
        visible[cellID].map {
          min($0.lowerBound, absolute.lowerBound)..<max($0.upperBound, absolute.upperBound)
        } ?? absolute
    }
    var underlined: [StorageID: [Range<Int>]] = [:]
    for (cellID, range) in visible {
      underlined[cellID] =
        ((try? document.suggestions(in: cellID, overlapping: range)) ?? []).map(\.range)
    }
    var lines: [ScreenLine] = []
    var cursor: (row: Int, column: Int)? = nil
    let caretLine = displayLine(of: head)
    let (selectionStart, selectionEnd) = selection
    for (row, (line, layout)) in shown.enumerated() {
      switch line {
      case .header(let cell):
        lines.append(header(of: cell))
      case .text(let cell, let start, let i):
        guard let layout else { continue }
        var selected: Range<Int>? = nil
        if selectionStart != selectionEnd, selectionStart.cell <= cell, cell <= selectionEnd.cell {
          let lower = selectionStart.cell == cell ? selectionStart.offset : 0
          let upper = selectionEnd.cell == cell ? selectionEnd.offset : Int.max
          selected = lower..<upper
        }
        lines.append(
          textLine(
            layout, line: i, cell: cell, selected: selected,
            underlined: underlined[id(cell)] ?? []))
        if line == caretLine {
          let column = layout.column(of: head.offset - start, inLine: i)
          cursor = (row, min(columns - 1, layout.margin.columns + column))
        }
      }
    }
    while lines.count < textRows { lines.append(ScreenLine(spans: [])) }
    lines.append(statusLine())
    try? document.setVisible(visible)
    message = nil
    return Frame(rows: rows, columns: columns, lines: lines, cursor: cursor)
  }

  /// The bar above a cell: its title, and whether it changed.
  func header(of cell: Int) -> ScreenLine {
    let modified = notebook.isModified(cell) ? " •" : ""
    let title = "── \(notebook.cells[cell].title)\(modified) "
    let fill = max(0, columns - Self.width(of: title))
    var style = TextStyle.plain
    style.dim = true
    return ScreenLine(spans: [
      StyledSpan(
        text: Self.clip(title, to: columns) + String(repeating: "─", count: fill), style: style)
    ])
  }

  /// One screen line of a paragraph, styled by its attributes, the
  /// suggestions (`underlined`) and the selection (`selected`), all in the
  /// cell's offsets.
  ///
  /// The line is cut where any of them starts or ends, and each piece is
  /// styled once; a piece is written as it is unless it holds a tab or a
  /// control character (see ``Glyph``).
  func textLine(
    _ layout: ParagraphLayout, line i: Int, cell: Int, selected: Range<Int>?,
    underlined: [Range<Int>]
  ) -> ScreenLine {
    var spans: [StyledSpan] = []
    var marginStyle = TextStyle.plain
    marginStyle.dim = true
    let margin = i == 0 ? layout.margin.first : layout.margin.rest
    if !margin.isEmpty { spans.append(StyledSpan(text: margin, style: marginStyle)) }
    let range = layout.lines[i].range
    let start = layout.start
    let lineStart = start + range.lowerBound
    let lineEnd = start + range.upperBound
    guard lineStart < lineEnd else { return ScreenLine(spans: spans) }
    // (The storage gives runs relative to the range asked for.)
    let runs = (storage(cell)?.attributeRuns(in: lineStart..<lineEnd) ?? []).map {
      AttributeRun(
        ($0.range.lowerBound + lineStart)..<($0.range.upperBound + lineStart), $0.attributes)
    }
    // Where the style may change.
    var cuts = [lineStart, lineEnd]
    for run in runs { cuts += [run.range.lowerBound, run.range.upperBound] }
    for r in underlined where r.overlaps(lineStart..<lineEnd) {
      cuts += [r.lowerBound, r.upperBound]
    }
    if let selected { cuts += [selected.lowerBound, selected.upperBound] }
    cuts = Array(Set(cuts.filter { $0 >= lineStart && $0 <= lineEnd })).sorted()
    let utf16 = layout.text.utf16
    var column = 0
    var runIndex = 0
    for (lower, upper) in zip(cuts, cuts.dropFirst()) {
      while runIndex < runs.count && runs[runIndex].range.upperBound <= lower { runIndex += 1 }
      var attributes: [AttributeKey: AttributeValue] = [:]
      if runIndex < runs.count && runs[runIndex].range.contains(lower) {
        attributes = runs[runIndex].attributes
      }
      var style = Self.style(of: attributes)
      if underlined.contains(where: { $0.contains(lower) }) {
        style.underline = .curly
        style.underlineColor = .red
      }
      if let selected, selected.contains(lower) { style.reverse = true }
      // A cut may fall inside a cluster (a suggestion's end, say): the
      // piece then runs to the cluster's end.
      guard
        let from = utf16.index(
          utf16.startIndex, offsetBy: lower - start, limitedBy: utf16.endIndex),
        let to = utf16.index(utf16.startIndex, offsetBy: upper - start, limitedBy: utf16.endIndex)
      else { continue }
      let piece = layout.text[from..<to]
      var text = ""
      if Self.isPlain(piece) && !(lower == lineStart && Self.startsWithMark(piece)) {
        text = String(piece)
        column += Self.width(of: text, from: column)
      } else {
        for character in piece {
          text += Glyph.text(of: character, atColumn: column)
          column += Glyph.columns(of: character, atColumn: column)
        }
      }
      if text.isEmpty { continue }
      if let last = spans.last, last.style == style, spans.count > (margin.isEmpty ? 0 : 1) {
        spans[spans.count - 1].text += text
      } else {
        spans.append(StyledSpan(text: text, style: style))
      }
    }
    return ScreenLine(spans: spans)
  }

  /// Whether `text` is written as it is: no tab, no control character.
  static func isPlain(_ text: Substring) -> Bool {
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte < 0xA0) { return false }
      previous = byte
    }
    return true
  }

  /// Whether `text` starts with a cluster that takes no column (a lone
  /// combining mark, drawn on a space).
  static func startsWithMark(_ text: Substring) -> Bool {
    guard let first = text.utf8.first, first >= 0x80, let character = text.first else {
      return false
    }
    return DisplayWidth.columns(ofCluster: character) == 0
  }

  /// How text with `attributes` is drawn: strong bold, emphasis italic,
  /// code coloured, links underlined, headers bold, code blocks coloured,
  /// an image's alt text (or its U+FFFC when it has none) magenta and
  /// underlined.
  static func style(of attributes: [AttributeKey: AttributeValue]) -> TextStyle {
    var style = TextStyle.plain
    if case .inlinePresentationIntent(let intent)? = attributes[.inlinePresentationIntent] {
      if intent.contains(.stronglyEmphasized) { style.bold = true }
      if intent.contains(.emphasized) { style.italic = true }
      if intent.contains(.strikethrough) { style.strikethrough = true }
      if intent.contains(.code) { style.foreground = .cyan }
    }
    if attributes[.link] != nil {
      style.underline = .single
      style.foreground = .blue
    }
    if attributes[.imageURL] != nil {
      style.underline = .single
      style.foreground = .magenta
    }
    if case .presentationIntent(let intent)? = attributes[.presentationIntent] {
      for component in intent.components {
        switch component.kind {
        case .header: style.bold = true
        case .codeBlock: style.foreground = .yellow
        default: break
        }
      }
    }
    return style
  }

  /// The last row: the cell and its file, line and column, words,
  /// suggestions left, the tool, and the last message.
  func statusLine() -> ScreenLine {
    let cell = notebook.cells[head.cell]
    let text = self.text(head.cell)
    let line = ((try? text.paragraphNumber(at: head.offset)) ?? 0) + 1
    let layout = paragraph(head.cell, containing: head.offset)
    let prefixEnd = layout.text.utf16.index(
      layout.text.utf16.startIndex, offsetBy: min(head.offset - layout.start, layout.contentsLength)
    )
    let column = layout.text[..<prefixEnd].count + 1
    var parts = [
      "\(cell.title)\(notebook.isModified(head.cell) ? " •" : "")",
      "cell \(head.cell + 1)/\(notebook.cells.count)",
      "Ln \(line), Col \(column)",
    ]
    if let words = wordCount() { parts.append("\(words) words") }
    if spelling != nil || agentStatus != nil || checkerCommand != nil {
      let count = allSuggestions().count
      parts.append(count == 1 ? "1 suggestion" : "\(count) suggestions")
    }
    if let toolStatus { parts.append(toolStatus) }
    if let agentStatus { parts.append(agentStatus) }
    if let checkerStatus { parts.append(checkerStatus) }
    // A message (a question, an error) comes first: on a narrow screen
    // it is what must be read.
    var status = " " + parts.joined(separator: "  ")
    if let message { status = " " + message + "  —" + status }
    status = Self.clip(status, to: columns)
    status += String(repeating: " ", count: max(0, columns - Self.width(of: status)))
    var style = TextStyle.plain
    style.reverse = true
    return ScreenLine(spans: [StyledSpan(text: status, style: style)])
  }

  /// The words of the notebook, as last counted (nil before every cell
  /// was counted once).
  func wordCount() -> Int? {
    let counts = wordCounter.last
    var total = 0
    for cell in notebook.cells {
      guard let count = counts[cell.id]?.count else { return nil }
      total += count
    }
    return total
  }

  /// Whether a word count finished since the last call (the status line
  /// must be drawn again).
  public func landWordCounts() -> Bool {
    let generation = wordCounter.generation
    defer { wordCountsSeen = generation }
    return generation != wordCountsSeen
  }

  /// Counts, in the background, the words of the cells whose text changed
  /// since their last count (when the person pauses).
  public func countWords() {
    let counts = wordCounter.last
    for cell in notebook.cells.indices {
      guard let storage = storage(cell) else { continue }
      if counts[storage.id]?.version == storage.version { continue }
      wordCounter.count(storage.text, storage: storage.id, version: storage.version)
    }
  }

  /// The columns `text` takes.
  static func width(of text: String) -> Int { width(of: text, from: 0) }

  /// The columns `text` takes from column `start` on (tabs depend on it).
  static func width(of text: String, from start: Int) -> Int {
    var column = start
    for character in text { column += Glyph.columns(of: character, atColumn: column) }
    return column - start
  }

  /// `text` cut to at most `columns` columns.
  static func clip(_ text: String, to columns: Int) -> String {
    var column = 0
    var result = ""
    for character in text {
      let width = Glyph.columns(of: character, atColumn: column)
      if column + width > columns { break }
      column += width
      result.append(character)
    }
    return result
  }
}
