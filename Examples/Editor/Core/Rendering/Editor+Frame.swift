import DocumentEngine
import EditorTerminal
import TextRope

extension Editor {
  /// What the screen shows now: the text area from ``top``, the status
  /// line, and the caret. Tells the document which ranges are visible.
  public func frame() -> Frame {
    refreshSelection()
    top = clampTop(top)
    let shown = shownLines()
    var lines: [ScreenLine] = []
    var cursor: (row: Int, column: Int)? = nil
    var visible: [StorageID: Range<Int>] = [:]
    let caretLine = displayLine(of: head)
    let (selectionStart, selectionEnd) = selection
    for (row, line) in shown.enumerated() {
      switch line {
      case .header(let cell):
        lines.append(header(of: cell))
      case .text(let cell, let start, let i):
        let layout = paragraph(cell, containing: start)
        let range = layout.lines[i].range
        let absolute = (start + range.lowerBound)..<(start + range.upperBound)
        let cellID = id(cell)
        let seen = visible[cellID]
        visible[cellID] =
          seen.map {
            min($0.lowerBound, absolute.lowerBound)..<max($0.upperBound, absolute.upperBound)
          }
          ?? absolute
        var selected: Range<Int>? = nil
        if selectionStart != selectionEnd, selectionStart.cell <= cell, cell <= selectionEnd.cell {
          let lower = selectionStart.cell == cell ? selectionStart.offset : 0
          let upper = selectionEnd.cell == cell ? selectionEnd.offset : Int.max
          selected = lower..<upper
        }
        lines.append(
          textLine(layout, line: i, cell: cell, selected: selected))
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

  /// One screen line of a paragraph, styled by its attributes and the
  /// selection (`selected`, in the cell's offsets).
  func textLine(
    _ layout: ParagraphLayout, line i: Int, cell: Int, selected: Range<Int>?
  ) -> ScreenLine {
    var spans: [StyledSpan] = []
    var marginStyle = TextStyle.plain
    marginStyle.dim = true
    let margin = i == 0 ? layout.margin.first : layout.margin.rest
    if !margin.isEmpty { spans.append(StyledSpan(text: margin, style: marginStyle)) }
    let range = layout.lines[i].range
    let start = layout.start
    let runs =
      storage(cell)?.attributeRuns(in: (start + range.lowerBound)..<(start + range.upperBound))
      ?? []
    var runIndex = 0
    // The suggestions on the line: underlined, curly where the terminal
    // can.
    let lineRange = (start + range.lowerBound)..<(start + range.upperBound)
    let underlined =
      ((try? document.suggestions(in: id(cell), overlapping: lineRange)) ?? []).map(\.range)
    let utf16 = layout.text.utf16
    let lower = utf16.index(utf16.startIndex, offsetBy: range.lowerBound)
    let upper = utf16.index(utf16.startIndex, offsetBy: range.upperBound)
    var offset = start + range.lowerBound
    var column = 0
    var current = ""
    var currentStyle = TextStyle.plain
    for character in layout.text[lower..<upper] {
      while runIndex < runs.count && runs[runIndex].range.upperBound <= offset { runIndex += 1 }
      var attributes: [AttributeKey: AttributeValue] = [:]
      if runIndex < runs.count && runs[runIndex].range.contains(offset) {
        attributes = runs[runIndex].attributes
      }
      var style = Self.style(of: attributes)
      if underlined.contains(where: { $0.contains(offset) }) {
        style.underline = .curly
        style.underlineColor = .red
      }
      if let selected, selected.contains(offset) { style.reverse = true }
      let text = Glyph.text(of: character, atColumn: column)
      column += Glyph.columns(of: character, atColumn: column)
      if style != currentStyle && !current.isEmpty {
        spans.append(StyledSpan(text: current, style: currentStyle))
        current = ""
      }
      currentStyle = style
      current += text
      offset += character.utf16.count
    }
    if !current.isEmpty { spans.append(StyledSpan(text: current, style: currentStyle)) }
    return ScreenLine(spans: spans)
  }

  /// How text with `attributes` is drawn: strong bold, emphasis italic,
  /// code coloured, links underlined, headers bold, code blocks coloured.
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
    if spelling != nil {
      let count = allSuggestions().count
      parts.append(count == 1 ? "1 suggestion" : "\(count) suggestions")
    }
    if let toolStatus { parts.append(toolStatus) }
    var status = " " + parts.joined(separator: "  ")
    if let message { status += "  — " + message }
    status = Self.clip(status, to: columns)
    status += String(repeating: " ", count: max(0, columns - Self.width(of: status)))
    var style = TextStyle.plain
    style.reverse = true
    return ScreenLine(spans: [StyledSpan(text: status, style: style)])
  }

  /// The words of the notebook, as last counted (nil before a count).
  func wordCount() -> Int? {
    var total = 0
    for cell in notebook.cells {
      guard let count = wordCounts[cell.id]?.count else { return nil }
      total += count
    }
    return total
  }

  /// Counts the words of the cells whose text changed since their last
  /// count (when the person pauses: it reads the whole text).
  public func countWords() {
    for cell in notebook.cells.indices {
      guard let storage = storage(cell) else { continue }
      if wordCounts[storage.id]?.version == storage.version { continue }
      var count = 0
      var inWord = false
      for scalar in String(storage.text).unicodeScalars {
        let letter = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        if letter && !inWord { count += 1 }
        inWord = letter || (inWord && (scalar == "'" || scalar == "\u{2019}"))
      }
      wordCounts[storage.id] = (storage.version, count)
    }
  }

  /// The columns `text` takes.
  static func width(of text: String) -> Int {
    var column = 0
    for character in text { column += Glyph.columns(of: character, atColumn: column) }
    return column
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
