import DocumentEngine

extension _MarkdownWriter {
  /// A container the lines being written are in, with what each of its lines
  /// starts with.
  struct OpenContainer {
    var component: PresentationIntent.Component
    /// The first line's prefix (a list item's marker, a quote's `> `).
    var marker: [UInt8]
    /// Every later line's prefix.
    var continuation: [UInt8]
    var wroteFirstLine = false
    /// A list's bullet or delimiter, to pick another for a list right after.
    var listMark: UInt8 = 0

    /// Pads a list item's marker with spaces to `width` (its content's
    /// indentation), and its later lines with it.
    mutating func pad(to width: Int) {
      while marker.count < width {
        marker.append(UInt8(ascii: " "))
        continuation.append(UInt8(ascii: " "))
      }
    }
  }

  mutating func writeBlocks(_ leaves: [Leaf]) {
    var open: [OpenContainer] = []
    let widths = Self.itemWidthsBeforeIndentedHTML(leaves, isHTML: isWholeHTMLBlock)
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
      while common < open.count, common < containers.count,
        open[common].component == containers[common]
      {
        common += 1
      }
      let closedListMark = open.count > common ? open[common].listMark : 0
      // The blank line between two blocks is written with the prefixes
      // of the containers that stay open, and ends every closed one that
      // needs its own prefix on each line (a quote) with all inside it.
      // An HTML block ends only there (most go on over blank lines), and a
      // closed list item goes on over a blank line: so after an HTML block
      // whose closed containers are all lists and items, the blank line
      // would go into the HTML block, and is left out (the next line,
      // outside the item, ends it). If a quote is among them, the blank
      // line ends the quote and the HTML block in it, and is needed: the
      // next line would otherwise go on in that quote.
      let leavesHTMLBlock =
        index > 0 && common < open.count && isWholeHTMLBlock(leaves[index - 1])
        && !open[common...].contains { $0.component.kind == .blockQuote }
      open.removeSubrange(common...)
      if index > 0 {
        let nextItemOfOpenList =
          common < containers.count && common > 0
          && containers[common].kind.isListItem && open[common - 1].component.kind.isListContainer
        if !nextItemOfOpenList && !leavesHTMLBlock { writeLine([], in: &open) }
      }
      // How many bulleted lists are open, counted once and kept as more
      // open (not counted again at each depth: nesting stays linear).
      var bulletedLists = open.count { $0.component.kind == .unorderedList }
      for depth in common..<containers.count {
        let parent = depth > 0 ? open[depth - 1] : nil
        open.append(
          Self.container(
            containers[depth], in: parent, after: depth == common ? closedListMark : 0,
            depthOfBulletedLists: bulletedLists))
        if containers[depth].kind == .unorderedList { bulletedLists += 1 }
        if !widths.isEmpty, let width = widths[containers[depth]] {
          open[depth].pad(to: width)
        }
      }
      if leaf.table != nil {
        for line in tableLines(leaves[index..<end]) { writeLine(line, in: &open) }
      } else {
        for line in lines(of: leaf) { writeLine(line, in: &open) }
      }
      index = end
    }
  }

  /// The list items that an indented HTML block right after their list
  /// would fall into, with the marker width that keeps it out, by item.
  ///
  /// An HTML block's first line keeps up to three spaces of indentation.
  /// Written after a list, a line indented as far as the last item's
  /// content continues that item (`- i` then `  <d>`), so that item's
  /// marker takes more spaces (`-   i`): one more than the block's.
  static func itemWidthsBeforeIndentedHTML(
    _ leaves: [Leaf], isHTML: (Leaf) -> Bool
  ) -> [PresentationIntent.Component: Int] {
    var widths: [PresentationIntent.Component: Int] = [:]
    for index in leaves.indices.dropFirst() where leaves[index].scalars.first == " " {
      let leaf = leaves[index]
      let previous = leaves[index - 1]
      let depth = leaf.containers.count
      guard isHTML(leaf), previous.containers.count > depth + 1,
        previous.containers[..<depth].elementsEqual(leaf.containers),
        previous.containers[depth].kind.isListContainer,
        previous.containers[depth + 1].kind.isListItem
      else { continue }
      let spaces = leaf.scalars.prefix { $0 == " " }.count
      let item = previous.containers[depth + 1]
      if widths[item] == nil { widths[item] = spaces + 1 }
    }
    return widths
  }

  /// The container a component opens, inside `parent`; `previousMark` is
  /// the bullet or delimiter of a list of the same kind that just closed
  /// at this depth (0 if none).
  static func container(
    _ component: PresentationIntent.Component, in parent: OpenContainer?, after previousMark: UInt8,
    depthOfBulletedLists: Int
  ) -> OpenContainer {
    switch component.kind {
    case .blockQuote:
      return OpenContainer(
        component: component, marker: Array("> ".utf8), continuation: Array("> ".utf8))
    case .unorderedList:
      // Bullets alternate with depth, so that a line of bullets alone
      // (`- * -`) is never a thematic break; a list right after one of its
      // kind takes `+`.
      var list = OpenContainer(component: component, marker: [], continuation: [])
      let bullet = depthOfBulletedLists % 2 == 0 ? UInt8(ascii: "-") : UInt8(ascii: "*")
      list.listMark = previousMark == bullet ? UInt8(ascii: "+") : bullet
      return list
    case .orderedList:
      var list = OpenContainer(component: component, marker: [], continuation: [])
      list.listMark = previousMark == UInt8(ascii: ".") ? UInt8(ascii: ")") : UInt8(ascii: ".")
      return list
    case .listItem(let ordinal):
      var marker: [UInt8]
      if let parent, parent.component.kind == .orderedList {
        marker = Array(String(min(max(ordinal, 0), 999_999_999)).utf8)
        marker.append(parent.listMark)
      } else {
        marker = [parent?.listMark ?? UInt8(ascii: "-")]
      }
      marker.append(UInt8(ascii: " "))
      return OpenContainer(
        component: component, marker: marker,
        continuation: [UInt8](repeating: UInt8(ascii: " "), count: marker.count))
    default:
      return OpenContainer(component: component, marker: [], continuation: [])
    }
  }

  /// Writes one line with the prefixes of the containers it is in (a list
  /// item's marker on its first line, spaces after); an empty line without
  /// trailing spaces.
  ///
  /// A list item's content starts where its first line's text does, so a
  /// first line that keeps its indentation (an HTML block's) is written
  /// on the line after the item's marker instead.
  mutating func writeLine(_ line: [UInt8], in open: inout [OpenContainer]) {
    if line.first == Self.lazyLine {
      // A paragraph's lazy line: no prefix (see `keepsItsIndentation`).
      output.append(contentsOf: line.dropFirst())
      output.append(UInt8(ascii: "\n"))
      return
    }
    if line.first == UInt8(ascii: " "), let last = open.indices.last,
      !open[last].wroteFirstLine, open[last].component.kind.isListItem
    {
      // An item that starts with an empty line has its content one
      // column after its marker, whatever the spaces after it.
      let width = open[last].marker.count { $0 != UInt8(ascii: " ") } + 1
      open[last].continuation = [UInt8](repeating: UInt8(ascii: " "), count: width)
      writeLine([], in: &open)
    }
    let start = output.count
    for index in open.indices {
      if open[index].wroteFirstLine {
        output.append(contentsOf: open[index].continuation)
      } else {
        output.append(contentsOf: open[index].marker)
        open[index].wroteFirstLine = true
      }
    }
    if line.isEmpty {
      while output.count > start, output[output.count - 1] == UInt8(ascii: " ") {
        output.removeLast()
      }
    } else {
      output.append(contentsOf: line)
    }
    output.append(UInt8(ascii: "\n"))
  }

  // MARK: - Leaves

  /// The lines of a leaf block (not a table cell).
  mutating func lines(of leaf: Leaf) -> [[UInt8]] {
    switch leaf.kind {
    case nil:
      return [[]]
    case .codeBlock(let language)?:
      return codeBlockLines(leaf, language: language)
    case .thematicBreak? where leaf.scalars.isEmpty:
      return [Array("___".utf8)]
    case .header(let level)?:
      let level = min(max(level, 1), 6)
      // A line end inside inline HTML (`<!E\n>`) needs more than one line
      // too.
      let hasBreaks = leaf.scalars.indices.contains {
        isBreak(at: $0, in: leaf) || leaf.scalars[$0] == "\n" || leaf.scalars[$0] == "\r"
      }
      if hasBreaks, level <= 2 {
        var lines = inlineLines(leaf, mode: .paragraph)
        lines.append(Array((level == 1 ? "===" : "---").utf8))
        return lines
      }
      var line = [UInt8](repeating: UInt8(ascii: "#"), count: level)
      let content = inlineLines(leaf, mode: .heading).first ?? []
      if !content.isEmpty {
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: content)
      }
      return [line]
    default:
      if isWholeHTMLBlock(leaf) {
        var lines: [[UInt8]] = [[]]
        for scalar in leaf.scalars {
          if scalar == "\n" {
            lines.append([])
          } else {
            lines[lines.count - 1].appendUTF8(scalar)
          }
        }
        return lines
      }
      if leaf.scalars.isEmpty { return [Array("[]()".utf8)] }
      return inlineLines(leaf, mode: .paragraph)
    }
  }

  /// A fenced code block: backticks (tildes if the language has a
  /// backtick), one more than the longest run of them inside, at least
  /// three. cmark-gfm keeps a fence's length in 8 bits, so a fence is never
  /// longer than 255: past that the other character is used if its runs are
  /// shorter, and then only the runs that could close the fence count (a
  /// line of only the run, after up to three spaces).
  func codeBlockLines(_ leaf: Leaf, language: String?) -> [[UInt8]] {
    var lines: [[UInt8]] = [[]]
    var line: [UInt8] = []
    var runs: (backticks: Int, tildes: Int) = (0, 0)
    var longest: (backticks: Int, tildes: Int) = (0, 0)
    for scalar in leaf.scalars {
      runs.backticks = scalar == "`" ? runs.backticks + 1 : 0
      runs.tildes = scalar == "~" ? runs.tildes + 1 : 0
      longest = (max(longest.backticks, runs.backticks), max(longest.tildes, runs.tildes))
      // CR and CR LF end lines in Markdown too: the text's own are lost
      // (a code block's text never has them).
      if scalar == "\n" {
        lines.append(line)
        line.removeAll(keepingCapacity: true)
      } else if scalar.isASCII {
        line.append(UInt8(scalar.value))
      } else {
        line.appendUTF8(scalar)
      }
    }
    if !leaf.scalars.isEmpty { lines.append(line) }
    let useTildes =
      (language?.unicodeScalars.contains("`") ?? false)
      || (longest.backticks >= 255 && longest.tildes < longest.backticks)
    let fenceScalar: Unicode.Scalar = useTildes ? "~" : "`"
    var run = useTildes ? longest.tildes : longest.backticks
    if run >= 255 {
      run = Self.longestClosingRun(of: UInt8(fenceScalar.value), in: lines.dropFirst())
    }
    let fenceCharacter = UInt8(fenceScalar.value)
    let fence = [UInt8](repeating: fenceCharacter, count: min(255, max(3, run + 1)))
    var opening = fence
    if let language, !language.isEmpty {
      // A space first if the info starts with the fence's character, so
      // that it does not lengthen the fence.
      if language.utf8.first == fenceCharacter { opening.append(UInt8(ascii: " ")) }
      for scalar in language.unicodeScalars {
        switch scalar {
        case "\\", "`":
          opening.append(UInt8(ascii: "\\"))
          opening.appendUTF8(scalar)
        case "\n", "\r", "&":
          opening.append(contentsOf: "&#\(scalar.value);".utf8)
        default:
          opening.appendUTF8(scalar)
        }
      }
    }
    lines[0] = opening
    lines.append(fence)
    return lines
  }

  /// The longest run of `character` that could close a fence of it: a
  /// line of only that run, after up to three spaces, before spaces or
  /// tabs.
  static func longestClosingRun(of character: UInt8, in lines: ArraySlice<[UInt8]>) -> Int {
    var longest = 0
    for line in lines {
      var i = 0
      while i < line.count && i < 3 && line[i] == UInt8(ascii: " ") { i += 1 }
      let start = i
      while i < line.count && line[i] == character { i += 1 }
      let run = i - start
      guard run > longest else { continue }
      while i < line.count && (line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t")) {
        i += 1
      }
      if i == line.count { longest = run }
    }
    return longest
  }

  /// A pipe table: its header row, the delimiter row with the columns'
  /// alignments, and its body rows.
  mutating func tableLines(_ cells: ArraySlice<Leaf>) -> [[UInt8]] {
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
    var lines: [[UInt8]] = []
    for (number, row) in rows.enumerated() {
      var line: [UInt8] = [UInt8(ascii: "|")]
      for column in 0..<max(row.cells.count, number == 0 ? alignments.count : 0) {
        line.append(UInt8(ascii: " "))
        if column < row.cells.count {
          line.append(contentsOf: inlineLines(row.cells[column], mode: .cell).first ?? [])
        }
        line.append(contentsOf: " |".utf8)
      }
      lines.append(line)
      if number == 0 {
        var delimiter: [UInt8] = [UInt8(ascii: "|")]
        for alignment in alignments {
          switch alignment {
          case .left: delimiter.append(contentsOf: " --- |".utf8)
          case .center: delimiter.append(contentsOf: " :-: |".utf8)
          case .right: delimiter.append(contentsOf: " --: |".utf8)
          }
        }
        lines.append(delimiter)
      }
    }
    return lines
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
  var isListItem: Bool {
    if case .listItem = self { return true }
    return false
  }
}
