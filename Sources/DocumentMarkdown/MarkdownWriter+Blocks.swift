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
      // prefixes of the containers that stay open. None is owed after a
      // block that takes blank lines in (an HTML block of kinds 1 to 5
      // that has not ended: `HTMLBlockStart`) when what closes with it
      // goes on over a blank line too (lists and items, not a quote): the
      // blank line would go into the block, while the next line, outside
      // the closed containers, ends them and the block. In a tight list
      // none is written where the list would read as loose: before its
      // next item (whose marker ends the item before), nor between two
      // blocks of an item where the second can start right under the
      // first (`canFollowWithoutBlankLine`).
      // What closes, in three answers (no array a block).
      let closing = Closing(
        isEmpty: common >= levels.count,
        startsWithQuote: common < levels.count && levels[common].endsAtBlankLine,
        hasQuote: common < levels.count && levels[common...].contains { $0.endsAtBlankLine })
      let closesOnlyOpenEnded = !closing.isEmpty && !closing.hasQuote
      pop(to: common)
      let opensSiblingItem =
        common > 0 && common < containers.count && containers[common].kind.isListItem
        && levels[common - 1].component.kind.isListContainer
      var blank = index > 0 && !(lastTakesBlankLines && closesOnlyOpenEnded)
      // An empty item that must interrupt a paragraph in a tight list is
      // written with a box, `- [ ] ` (see `canFollowWithoutBlankLine`).
      var boxesEmptyItem = false
      if blank, opensSiblingItem {
        blank = levels[common - 1].component.isLoose
      } else if blank, let list = governingList(), !list.isLoose {
        let previous = leaves[index - 1]
        if canFollowWithoutBlankLine(
          previous, closing: closing, by: leaves[index..<end], from: common)
        {
          blank = false
        } else if leaf.block == .emptyContainer,
          canFollowWithoutBlankLine(
            previous, closing: closing, by: leaves[index..<end], from: common,
            boxingEmptyItem: true)
        {
          blank = false
          boxesEmptyItem = true
        }
      }
      if blank { writeBlankLine() }
      let aloneForBox = Self.itemAloneForBox(leaf)
      for depth in common..<containers.count {
        let innermost = depth == containers.count - 1
        let boxFollows = innermost && leaf.block.followsBox
        push(
          containers[depth], after: depth == common ? closedListMark : 0,
          width: itemWidths.isEmpty ? 0 : itemWidths[containers[depth]] ?? 0,
          markerAlone: (leaf.keepsIndentation && innermost) || depth == aloneForBox,
          boxFollows: boxFollows)
      }
      let blockStart = output.count
      writeBlock(leaves[index..<end], boxingEmptyItem: boxesEmptyItem)
      if common < containers.count, case .paragraph = leaf.block,
        containers[containers.count - 1].isChecked == false, !leaf.keepsIndentation
      {
        keepBoxUnchecked(afterMarkersFrom: blockStart)
      } else if common < containers.count, case .header = leaf.block {
        // (cmark-gfm reads the rest of a box's line as a paragraph's text,
        // `- [x] ## a` as "## a": a header goes on the next line.)
        breakLine(afterBoxFrom: blockStart)
      }
      let last = leaves[end - 1]
      lastTakesBlankLines =
        last.block == .htmlBlock
        ? Self.htmlBlockKind(last.scalars).goesOnOverBlankLines : last.block.takesBlankLines
      index = end
    }
  }

  /// cmark-gfm (0.29) checks a task item's box if `[x]` or `[X]` is
  /// anywhere on the item's first line, after its box too (it looks for
  /// them over the whole line): in a code span, an autolink, inline HTML,
  /// where no backslash can break them. So when the line of an unchecked
  /// box written from `start` on holds one after the box, what follows the
  /// box goes to the next line (`- [ ] ` with its space, then the item's
  /// indentation), where cmark-gfm still reads the item's paragraph.
  mutating func keepBoxUnchecked(afterMarkersFrom start: Int) {
    guard writtenBox(from: start) == false else { return }
    let lineEnd = output[markersEnd...].firstIndex(of: UInt8(ascii: "\n")) ?? output.endIndex
    let line = output[markersEnd..<lineEnd]
    let checks = line.indices.contains { at in
      at + 2 < lineEnd && line[at] == UInt8(ascii: "[")
        && (line[at + 1] == UInt8(ascii: "x") || line[at + 1] == UInt8(ascii: "X"))
        && line[at + 2] == UInt8(ascii: "]")
    }
    guard checks else { return }
    breakLine(afterBoxFrom: start)
  }

  /// Moves what follows the box that the markers written from `start` on
  /// end with to the next line, past the item's indentation; the box
  /// keeps its space, without which cmark-gfm reads none. Nothing when
  /// they end with no box.
  mutating func breakLine(afterBoxFrom start: Int) {
    guard writtenBox(from: start) != nil else { return }
    output.insert(contentsOf: [UInt8(ascii: "\n")] + prefix, at: markersEnd)
  }

  /// Whether the box that the markers written from `start` on end with is
  /// checked; nil when they end with none.
  func writtenBox(from start: Int) -> Bool? {
    guard markersEnd > start, markersEnd - start >= 4 else { return nil }
    let box = output[(markersEnd - 4)..<markersEnd]
    if box.elementsEqual("[ ] ".utf8) { return false }
    if box.elementsEqual("[x] ".utf8) { return true }
    return nil
  }

  /// The depth of the item whose marker goes alone on its line so that a
  /// box of `leaf`'s item can be read: cmark-gfm reads a box only on a
  /// line that starts (past spaces) with the box's item's marker, so an
  /// item of a nested list whose first line is also its outer item's
  /// (`- * [ ] a`) would lose it; the outer item's marker goes alone
  /// (`-`, then `  * [ ] a`). Nil where no box follows such an item.
  static func itemAloneForBox(_ leaf: Leaf) -> Int? {
    let containers = leaf.containers
    guard containers.count >= 3, leaf.block.followsBox, !leaf.keepsIndentation,
      containers[containers.count - 1].isChecked != nil,
      containers[containers.count - 3].kind.isListItem
    else { return nil }
    return containers.count - 3
  }

  // MARK: - Tight and loose lists

  /// The list whose looseness a blank line written now (between two blocks
  /// in the open containers) decides: the list of the innermost open item,
  /// unless a quote inside that item is open (the blank line is then the
  /// quote's `>`, no blank line to the list). Nil when no item is open.
  func governingList() -> PresentationIntent.Component? {
    for depth in levels.indices.reversed() {
      switch levels[depth].component.kind {
      case .blockQuote: return nil
      case .listItem: return depth > 0 ? levels[depth - 1].component : nil
      default: continue
      }
    }
    return nil
  }

  /// The containers that close between two blocks, as the blank-line
  /// rule asks about them.
  struct Closing {
    var isEmpty: Bool
    /// Whether the outermost of them is a quote.
    var startsWithQuote: Bool
    /// Whether one of them is a quote.
    var hasQuote: Bool
  }

  /// Whether `next` can be written on the line right after `previous`, the
  /// containers `closing` closed and those of `next` past `common` opened,
  /// and be read as the block it is, with `previous` ended as it was.
  ///
  /// A quote never can right after another (it would go on with it).
  /// After a block that ends on its own line (a header, a fenced code
  /// block, a thematic break, an empty container's markers, an HTML block
  /// of CommonMark's kinds 1 to 5 whose last line holds its end, or any
  /// HTML block whose container closes) anything can. A table goes on over any line but a blank one, and cmark-gfm
  /// counts it as followed by a blank line anyway, unless a quote around
  /// it closes. After a paragraph only what can interrupt one can: a quote,
  /// an item of a bulleted list or of an ordered list that starts at 1 (not
  /// empty, its marker not alone on its line), an ATX header, a fence, a
  /// thematic break, an HTML block of kinds 1 to 6, or a table right
  /// after it in the same containers (cmark-gfm takes the paragraph's last
  /// line as its header row only if it is one, and the table's own first
  /// line is) if the paragraph has no backslash before a pipe and the
  /// header row is not all dashes and colons.
  ///
  /// An empty item cannot interrupt a paragraph, but one written with a
  /// task list's box and a space after it (`- [ ] `, `boxingEmptyItem`)
  /// can: its first line is not blank, and cmark-gfm takes the box out of
  /// it, leaving the item empty (the reader keeps no box on an item with
  /// nothing after it). Without it a tight list's paragraph followed by a
  /// list whose first item is empty could only be written with a blank
  /// line between, and would read as loose.
  func canFollowWithoutBlankLine(
    _ previous: Leaf, closing: Closing, by block: ArraySlice<Leaf>,
    from common: Int, boxingEmptyItem: Bool = false
  ) -> Bool {
    guard let next = block.first else { return true }
    // A quote right after a quote would go on with it.
    if closing.startsWithQuote, common < next.containers.count,
      next.containers[common].kind == .blockQuote
    {
      return false
    }
    switch previous.block {
    case .header, .codeBlock, .thematicBreak, .emptyContainer:
      return true
    case .htmlBlock:
      // (A container that closes ends it: only a paragraph goes on lazily.)
      return !closing.isEmpty || Self.htmlBlockKind(previous.scalars).closed
    case .tableCell:
      return closing.hasQuote
    case .paragraph, .emptyParagraph:
      break
    }
    // A line that the paragraph's containers do not take (it lacks a
    // quote's `>` or an item's indentation) starts any block it can in the
    // container it reaches; one in the paragraph's own containers must
    // interrupt the paragraph. Either way a line that starts no block goes
    // on with the paragraph (a lazy line).
    let mustInterrupt = closing.isEmpty
    let containers = next.containers
    if common < containers.count {
      switch containers[common].kind {
      case .blockQuote:
        return true
      case .unorderedList, .orderedList:
        guard common + 1 < containers.count,
          case .listItem(let ordinal) = containers[common + 1].kind
        else { return false }
        guard mustInterrupt else { return true }
        if containers[common].kind == .orderedList, ordinal != 1 { return false }
        let itemIsInnermost = common + 2 == containers.count
        // (An item whose marker goes alone on its line cannot either.)
        if Self.itemAloneForBox(next) == common + 1 { return false }
        if itemIsInnermost,
          next.keepsIndentation || (next.block == .emptyContainer && !boxingEmptyItem)
        {
          return false
        }
        return true
      default:
        return false
      }
    }
    switch next.block {
    case .header(_, let underlined): return !underlined
    case .codeBlock, .thematicBreak: return true
    case .htmlBlock:
      let kind = Self.htmlBlockKind(next.scalars)
      return mustInterrupt ? kind.interrupts : kind.starts
    case .tableCell:
      // cmark-gfm reads what stays of the paragraph with every `\|` made
      // `|`, in code spans and destinations too: harmless where the
      // backslash escapes the pipe, not where it is text. And a header
      // row that reads as a delimiter row (`| - |`) would make the
      // paragraph's last line the header.
      let delimiterLike: Set<Unicode.Scalar> = ["-", ":", " ", "\t"]
      let headerIsDelimiterLike = block.prefix { $0.row == next.row }.allSatisfy {
        $0.scalars.allSatisfy { delimiterLike.contains($0) }
      }
      return mustInterrupt && !hasBackslashBeforePipe(previous) && !headerIsDelimiterLike
    case .paragraph, .emptyParagraph, .emptyContainer: return false
    }
  }

  /// Whether a leaf's text, or a URL or title of its links and images,
  /// has a backslash right before a pipe.
  func hasBackslashBeforePipe(_ leaf: Leaf) -> Bool {
    func has(_ scalars: some Collection<Unicode.Scalar>) -> Bool {
      zip(scalars, scalars.dropFirst()).contains { $0 == "\\" && $1 == "|" }
    }
    if has(leaf.scalars) { return true }
    for index in Set(leaf.styles) {
      let style = styles[Int(index)]
      for string in [style.link, style.linkTitle, style.image, style.imageTitle] {
        if let string, has(string.unicodeScalars) { return true }
      }
    }
    return false
  }

  /// The block tags of CommonMark's HTML block kind 6, as cmark-gfm
  /// 0.29 knows them.
  static let htmlBlockTags: Set<String> = [
    "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption",
    "center", "col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
    "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link", "main",
    "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "section",
    "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
  ]

  /// What an HTML block's text is to CommonMark: the kind of HTML block
  /// its first line starts (1 to 7, nil for none), and whether its last
  /// line holds the end condition of kinds 1 to 5.
  struct HTMLBlockStart {
    var kind: Int?
    var endsOnLastLine: Bool

    /// Whether it starts an HTML block.
    var starts: Bool { kind != nil }
    /// Whether it can interrupt a paragraph (kinds 1 to 6).
    var interrupts: Bool { (kind ?? 7) <= 6 }
    /// Whether the block ends on its last line (kinds 1 to 5 with their
    /// end there; kinds 6 and 7 end only at a blank line).
    var closed: Bool { (kind ?? 6) <= 5 && endsOnLastLine }
    /// Whether a blank line after it would go into it: kinds 1 to 5 not
    /// ended go on over blank lines, and text that starts no block is taken
    /// to (the writer does not know what it is).
    var goesOnOverBlankLines: Bool { kind == nil || ((kind ?? 6) <= 5 && !endsOnLastLine) }
  }

  /// The HTML block `scalars` (an HTML block's text) starts.
  static func htmlBlockKind(_ scalars: ArraySlice<Unicode.Scalar>) -> HTMLBlockStart {
    let firstEnd = scalars.firstIndex(of: "\n") ?? scalars.endIndex
    var first = scalars[scalars.startIndex..<firstEnd]
    let spaces = first.prefix { $0 == " " }.count
    guard spaces <= 3 else { return HTMLBlockStart(kind: nil, endsOnLastLine: false) }
    first = first.dropFirst(spaces)
    let lastLineStart = (scalars.lastIndex(of: "\n") ?? scalars.startIndex - 1) + 1
    let lastLine = String(String.UnicodeScalarView(scalars[lastLineStart...])).lowercased()
    let line = String(String.UnicodeScalarView(first))
    let lower = line.lowercased()
    func tagEnds(at index: String.Index) -> Bool {
      guard index < lower.endIndex else { return true }
      // (cmark-gfm's white space: space, tab, line tabulation, form feed,
      // CR, LF.)
      return " \t\u{0B}\u{0C}\r\n>".contains(lower[index])
    }
    for tag in ["script", "pre", "style"] where lower.hasPrefix("<" + tag) {
      if tagEnds(at: lower.index(lower.startIndex, offsetBy: tag.count + 1)) {
        return HTMLBlockStart(kind: 1, endsOnLastLine: lastLine.contains("</\(tag)>"))
      }
    }
    if lower.hasPrefix("<!--") {
      return HTMLBlockStart(kind: 2, endsOnLastLine: lastLine.contains("-->"))
    }
    if lower.hasPrefix("<?") {
      return HTMLBlockStart(kind: 3, endsOnLastLine: lastLine.contains("?>"))
    }
    if lower.hasPrefix("<![cdata[") {
      return HTMLBlockStart(kind: 5, endsOnLastLine: lastLine.contains("]]>"))
    }
    if line.hasPrefix("<!"), let letter = line.unicodeScalars.dropFirst(2).first,
      ("A"..."Z").contains(letter)
    {
      return HTMLBlockStart(kind: 4, endsOnLastLine: lastLine.contains(">"))
    }
    guard lower.hasPrefix("<") else { return HTMLBlockStart(kind: nil, endsOnLastLine: false) }
    let name = lower.dropFirst(lower.hasPrefix("</") ? 2 : 1).prefix {
      $0.isASCII && ($0.isLetter || $0.isNumber)
    }
    if Self.htmlBlockTags.contains(String(name)),
      tagEnds(at: name.endIndex) || lower[name.endIndex...].hasPrefix("/>")
    {
      return HTMLBlockStart(kind: 6, endsOnLastLine: false)
    }
    return HTMLBlockStart(
      kind: Self.isCompleteTagLine(Array(first)) ? 7 : nil, endsOnLastLine: false)
  }

  /// Where Markdown would end the HTML block `scalars` (an HTML block's
  /// text, which starts one) before its end: the end of its text there
  /// (before a line end) and where the text after it starts, past blank
  /// lines; nil if the block takes in all of it. Kinds 6 and 7 end at a
  /// blank line, kinds 1 to 5 on the first line with their end.
  static func htmlBlockEnd(
    in scalars: ArraySlice<Unicode.Scalar>
  ) -> (end: Int, rest: Int)? {
    guard let kind = htmlBlockKind(scalars).kind else { return nil }
    let ends = htmlBlockEnds(kind: kind)
    func isBlank(_ line: ArraySlice<Unicode.Scalar>) -> Bool {
      line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }
    var lineStart = scalars.startIndex
    var blockEnd: Int?
    while lineStart < scalars.endIndex {
      let lineEnd = scalars[lineStart...].firstIndex(of: "\n") ?? scalars.endIndex
      let line = scalars[lineStart..<lineEnd]
      if kind >= 6 {
        if isBlank(line), lineStart > scalars.startIndex {
          blockEnd = lineStart - 1
          break
        }
      } else {
        let lower = String(String.UnicodeScalarView(line)).lowercased()
        if ends.contains(where: { lower.contains($0) }) {
          guard lineEnd < scalars.endIndex else { return nil }
          blockEnd = lineEnd
          break
        }
      }
      lineStart = lineEnd + 1
    }
    guard let end = blockEnd else { return nil }
    // Past the blank lines after it.
    var rest = end + 1
    while rest < scalars.endIndex {
      let lineEnd = scalars[rest...].firstIndex(of: "\n") ?? scalars.endIndex
      guard isBlank(scalars[rest..<lineEnd]) else { break }
      rest = min(lineEnd + 1, scalars.endIndex)
    }
    return (end, rest)
  }

  /// What ends an HTML block of CommonMark's `kind` on the line that holds
  /// it, lowercased (kind 1 ends at any of its three end tags, whatever
  /// tag started it); none for kinds 6 and 7, which a blank line ends.
  static func htmlBlockEnds(kind: Int) -> [String] {
    switch kind {
    case 1: ["</script>", "</pre>", "</style>"]
    case 2: ["-->"]
    case 3: ["?>"]
    case 4: [">"]
    case 5: ["]]>"]
    default: []
    }
  }

  /// Whether `scalars` start an HTML block of kinds 1 to 5 that no line of
  /// theirs ends: written as one, it would go on to the end of its
  /// container, over blank lines, and take in the blocks after it.
  static func htmlBlockStaysOpen(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
    guard let kind = htmlBlockKind(scalars).kind, kind <= 5 else { return false }
    // (No end spans lines: the whole text holds one only where a line does.)
    let lower = String(String.UnicodeScalarView(scalars)).lowercased()
    return !htmlBlockEnds(kind: kind).contains { lower.contains($0) }
  }

  /// Whether `line` is an open tag or a closing tag, complete, and then
  /// only spaces, tabs and form feeds: the start of CommonMark's HTML block
  /// kind 7 (not `script`, `style` or `pre`, which are kind 1).
  static func isCompleteTagLine(_ line: [Unicode.Scalar]) -> Bool {
    guard let (end, name) = tagEnd(in: line, from: 0) else { return false }
    if line.count > 1, line[1] != "/", ["script", "style", "pre"].contains(name) { return false }
    return line[end...].allSatisfy { $0 == " " || $0 == "\t" || $0 == "\u{0C}" }
  }

  /// Where the open or closing tag that starts at `start` (a `<`) ends
  /// (past its `>`), and its name in lower case; nil if no whole tag
  /// starts there. White space inside is cmark-gfm's: space, tab, line
  /// tabulation, form feed, CR, LF.
  static func tagEnd<Scalars: RandomAccessCollection<Unicode.Scalar>>(
    in scalars: Scalars, from start: Int
  ) -> (end: Int, name: String)? where Scalars.Index == Int {
    var at = start
    let end = scalars.endIndex
    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
      at + offset < end ? scalars[at + offset] : nil
    }
    func isLetter(_ s: Unicode.Scalar?) -> Bool {
      guard let s else { return false }
      return ("a"..."z").contains(s) || ("A"..."Z").contains(s)
    }
    func isDigit(_ s: Unicode.Scalar?) -> Bool { s.map { ("0"..."9").contains($0) } ?? false }
    func isSpace(_ s: Unicode.Scalar?) -> Bool {
      s == " " || s == "\t" || s == "\u{0B}" || s == "\u{0C}" || s == "\r" || s == "\n"
    }
    func skipSpaces() -> Bool {
      let from = at
      while isSpace(peek()) { at += 1 }
      return at > from
    }
    guard peek() == "<" else { return nil }
    at += 1
    let closing = peek() == "/"
    if closing { at += 1 }
    guard isLetter(peek()) else { return nil }
    let nameStart = at
    while isLetter(peek()) || isDigit(peek()) || peek() == "-" { at += 1 }
    let name = String(String.UnicodeScalarView(scalars[nameStart..<at])).lowercased()
    if closing {
      _ = skipSpaces()
      guard peek() == ">" else { return nil }
      return (at + 1, name)
    }
    // Attributes: a space, a name, and a value after `=`.
    while true {
      let spaced = skipSpaces()
      guard let next = peek() else { return nil }
      if next == ">" { return (at + 1, name) }
      if next == "/" {
        guard peek(1) == ">" else { return nil }
        return (at + 2, name)
      }
      guard spaced, isLetter(next) || next == "_" || next == ":" else { return nil }
      at += 1
      while let s = peek(), isLetter(s) || isDigit(s) || "_.:-".unicodeScalars.contains(s) {
        at += 1
      }
      let beforeValue = at
      _ = skipSpaces()
      guard peek() == "=" else {
        at = beforeValue
        continue
      }
      at += 1
      _ = skipSpaces()
      guard let quote = peek() else { return nil }
      if quote == "\"" || quote == "'" {
        at += 1
        while let s = peek(), s != quote { at += 1 }
        guard peek() == quote else { return nil }
        at += 1
      } else {
        let valueStart = at
        while let s = peek(), !isSpace(s), !"\"'=<>`".unicodeScalars.contains(s) { at += 1 }
        guard at > valueStart else { return nil }
      }
    }
  }

  // MARK: - Leaves

  /// Writes a block as its kind says: one leaf, or a table's cells; an
  /// empty item with a box (`[ ] `, its space kept) if `boxingEmptyItem`.
  mutating func writeBlock(_ leaves: ArraySlice<Leaf>, boxingEmptyItem: Bool = false) {
    guard let leaf = leaves.first else { return }
    switch leaf.block {
    case .emptyContainer:
      writeLine(boxingEmptyItem ? "[ ] ".utf8 : "".utf8)
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
