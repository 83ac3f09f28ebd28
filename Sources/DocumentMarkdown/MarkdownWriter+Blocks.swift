import DocumentEngine

extension _MarkdownWriter {
  /// Writes the leaves in one walk, keeping the stack of open containers
  /// (`levels`): for each block (a leaf, or a table's cells), the
  /// containers it is not in close, the blank line owed before it is
  /// written, the containers it is in open, and its kind writes its lines
  /// (the sink, `beginLine`, gives them their prefixes).
  mutating func writeBlocks(_ leaves: [Leaf]) {
    /// Whether the block written last takes blank lines in.
    var lastTakesBlankLines = false
    var index = 0
    while index < leaves.count {
      let leaf = leaves[index]
      var end = index + 1
      if let table = leaf.table {
        while end < leaves.count, leaves[end].table == table,
          leaves[end].containers == leaf.containers
        {
          end += 1
        }
      }
      let containers = leaf.containers
      var common = 0
      while common < levels.count, common < containers.count,
        levels[common].component == containers[common]
      {
        common += 1
      }
      let closedListMark = levels.count > common ? levels[common].listMark : 0
      // A blank line ends one block before the next, written with the
      // prefixes of the containers that stay open. None is owed before a
      // list's next item (its marker ends the item before, and the list
      // stays tight). Nor after a block that takes blank lines in (an HTML
      // block: most kinds go on over them) when what closes with it goes
      // on over a blank line too (lists and items, not a quote): the blank
      // line would go into the block, while the next line, outside the
      // closed containers, ends them and the block.
      let closesOnlyOpenEnded =
        common < levels.count && !levels[common...].contains { $0.endsAtBlankLine }
      pop(to: common)
      let opensSiblingItem =
        common > 0 && common < containers.count && containers[common].kind.isListItem
        && levels[common - 1].component.kind.isListContainer
      if index > 0, !opensSiblingItem, !(lastTakesBlankLines && closesOnlyOpenEnded) {
        writeBlankLine()
      }
      for depth in common..<containers.count {
        let innermost = depth == containers.count - 1
        var boxFollows = false
        if innermost, case .paragraph = leaf.block { boxFollows = true }
        push(
          containers[depth], after: depth == common ? closedListMark : 0,
          width: itemWidths.isEmpty ? 0 : itemWidths[containers[depth]] ?? 0,
          markerAlone: leaf.keepsIndentation && innermost, boxFollows: boxFollows)
      }
      writeBlock(leaves[index..<end])
      lastTakesBlankLines = leaves[end - 1].block.takesBlankLines
      index = end
    }
  }

  // MARK: - Leaves

  /// Writes a block as its kind says: one leaf, or a table's cells.
  mutating func writeBlock(_ leaves: ArraySlice<Leaf>) {
    guard let leaf = leaves.first else { return }
    switch leaf.block {
    case .emptyContainer:
      writeLine(EmptyCollection())
    case .paragraph:
      writeInline(leaf, mode: .paragraph)
    case .emptyParagraph:
      beginLine()
      writeZeroWidth(insideLink: false)
      endLine()
    case .header(let level, let underlined):
      writeHeader(leaf, level: level, underlined: underlined)
    case .codeBlock(let language):
      writeCodeBlock(leaf, language: language)
    case .thematicBreak:
      writeLine("___".utf8)
    case .htmlBlock:
      writeHTMLBlock(leaf)
    case .tableCell:
      writeTable(leaves)
    }
  }

  /// A header: `#` to `######` and its one line, or, when it needs more
  /// than one line, its lines underlined.
  mutating func writeHeader(_ leaf: Leaf, level: Int, underlined: Bool) {
    if underlined {
      writeInline(leaf, mode: .paragraph)
      writeLine((level == 1 ? "===" : "---").utf8)
      return
    }
    beginLine()
    output.append(contentsOf: repeatElement(UInt8(ascii: "#"), count: level))
    output.append(UInt8(ascii: " "))
    let textStart = output.count
    writeInline(leaf, mode: .heading)
    // No space after the `#`s of a header without text.
    if output.count == textStart { output.removeLast() }
    endLine()
  }

  /// An HTML block: its lines as they are, the first with its own
  /// indentation.
  mutating func writeHTMLBlock(_ leaf: Leaf) {
    writeRawLines(leaf.scalars)
  }

  /// Scalars as they are, a line at a time (at each LF), each line with
  /// its prefixes.
  mutating func writeRawLines(_ scalars: ArraySlice<Unicode.Scalar>) {
    beginLine()
    for scalar in scalars {
      if scalar == "\n" {
        endLine()
        beginLine()
      } else {
        output.appendUTF8(scalar)
      }
    }
    endLine()
  }

  /// A fenced code block: backticks (tildes if the language has a
  /// backtick), one more than the longest run of them inside, at least
  /// three. cmark-gfm keeps a fence's length in 8 bits, so a fence is never
  /// longer than 255: past that the other character is used if its runs are
  /// shorter, and then only the runs that could close the fence count (a
  /// line of only the run, after up to three spaces).
  mutating func writeCodeBlock(_ leaf: Leaf, language: String?) {
    var runs: (backticks: Int, tildes: Int) = (0, 0)
    var longest: (backticks: Int, tildes: Int) = (0, 0)
    for scalar in leaf.scalars {
      runs.backticks = scalar == "`" ? runs.backticks + 1 : 0
      runs.tildes = scalar == "~" ? runs.tildes + 1 : 0
      longest = (max(longest.backticks, runs.backticks), max(longest.tildes, runs.tildes))
    }
    let useTildes =
      (language?.unicodeScalars.contains("`") ?? false)
      || (longest.backticks >= 255 && longest.tildes < longest.backticks)
    let fenceScalar: Unicode.Scalar = useTildes ? "~" : "`"
    var run = useTildes ? longest.tildes : longest.backticks
    if run >= 255 {
      run = Self.longestClosingRun(of: fenceScalar, in: leaf.scalars)
    }
    let fenceCharacter = UInt8(fenceScalar.value)
    let fence = repeatElement(fenceCharacter, count: min(255, max(3, run + 1)))
    beginLine()
    output.append(contentsOf: fence)
    if let language, !language.isEmpty {
      // A space first if the info starts with the fence's character, so
      // that it does not lengthen the fence.
      if language.utf8.first == fenceCharacter { output.append(UInt8(ascii: " ")) }
      for scalar in language.unicodeScalars {
        switch scalar {
        case "\\", "`":
          output.append(UInt8(ascii: "\\"))
          output.appendUTF8(scalar)
        case "\n", "\r", "&":
          output.append(contentsOf: "&#\(scalar.value);".utf8)
        default:
          output.appendUTF8(scalar)
        }
      }
    }
    endLine()
    // CR and CR LF end lines in Markdown too: the text's own are lost
    // (a code block's text never has them).
    if !leaf.scalars.isEmpty { writeRawLines(leaf.scalars) }
    writeLine(fence)
  }

  /// The longest run of `character` that could close a fence of it: a
  /// line of only that run, after up to three spaces, before spaces or
  /// tabs.
  static func longestClosingRun(
    of character: Unicode.Scalar, in scalars: ArraySlice<Unicode.Scalar>
  ) -> Int {
    var longest = 0
    var i = scalars.startIndex
    while i < scalars.endIndex {
      let lineStart = i
      while i < scalars.endIndex && i - lineStart < 3 && scalars[i] == " " { i += 1 }
      let start = i
      while i < scalars.endIndex && scalars[i] == character { i += 1 }
      let run = i - start
      if run > longest {
        while i < scalars.endIndex && (scalars[i] == " " || scalars[i] == "\t") { i += 1 }
        if i == scalars.endIndex || scalars[i] == "\n" { longest = run }
      }
      while i < scalars.endIndex && scalars[i] != "\n" { i += 1 }
      i += 1
    }
    return longest
  }

  /// A pipe table: its header row, the delimiter row with the columns'
  /// alignments, and its body rows.
  mutating func writeTable(_ cells: ArraySlice<Leaf>) {
    var rows: [(component: PresentationIntent.Component?, cells: [Leaf])] = []
    for cell in cells {
      if let last = rows.last, last.component == cell.row {
        rows[rows.count - 1].cells.append(cell)
      } else {
        rows.append((cell.row, [cell]))
      }
    }
    var alignments: [PresentationIntent.ColumnAlignment] = []
    if case .table(let columns)? = cells.first?.table?.kind { alignments = columns }
    let widest = rows.map(\.cells.count).max() ?? 0
    while alignments.count < widest { alignments.append(.left) }
    if rows.first?.component?.kind != .tableHeaderRow {
      rows.insert((nil, []), at: 0)
    }
    for (number, row) in rows.enumerated() {
      beginLine()
      output.append(UInt8(ascii: "|"))
      for column in 0..<max(row.cells.count, number == 0 ? alignments.count : 0) {
        output.append(UInt8(ascii: " "))
        if column < row.cells.count {
          writeInline(row.cells[column], mode: .cell)
        }
        output.append(contentsOf: " |".utf8)
      }
      endLine()
      if number == 0 {
        beginLine()
        output.append(UInt8(ascii: "|"))
        for alignment in alignments {
          switch alignment {
          case .left: output.append(contentsOf: " --- |".utf8)
          case .center: output.append(contentsOf: " :-: |".utf8)
          case .right: output.append(contentsOf: " --: |".utf8)
          }
        }
        endLine()
      }
    }
  }

  func isBreak(at index: Int, in leaf: Leaf) -> Bool {
    let inline = styleInlines[Int(leaf.styles[index])]
    let scalar = leaf.scalars[index]
    return (scalar == " " && inline & InlinePresentationIntent.softBreak.rawValue != 0)
      || (scalar == "\u{2028}" && inline & InlinePresentationIntent.lineBreak.rawValue != 0)
  }
}

extension PresentationIntent.Kind {
  /// A list itself, ordered or not (``PresentationIntent/Kind/isList`` is
  /// anything that belongs to lists: their items too).
  var isListContainer: Bool { self == .orderedList || self == .unorderedList }
}
