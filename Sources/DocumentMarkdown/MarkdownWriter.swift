import DocumentEngine
import TextRope

extension AttributedText {
  /// The text as GitHub-flavoured Markdown that `init(markdown:)` reads
  /// back to exactly this text and these attributes, when they follow the
  /// rules of *Markdown* in `docs/DESIGN.md` (as every text the reader makes
  /// does; identities are numbered anew, in document order).
  ///
  /// Blocks are written from their presentation intents: paragraphs,
  /// headers (`#`, or underlined when they hold line breaks), fenced code
  /// blocks (a fence longer than any run of backticks inside), thematic
  /// breaks, quotes, lists (bullets `-`, or `*` for a list right after
  /// another; a task list item's box after its marker), and pipe tables.
  /// Inline intents become `**strong**`, `_emphasis_`, `~~strikethrough~~`
  /// and code spans, links `[text](<url>)` (`[text](<url> "title")` with a
  /// title), images `![description](<url> "title")`; marks that end
  /// together nest as people write them (a link around its text's emphasis,
  /// emphasis around strong emphasis). Whatever Markdown would read as markup is escaped:
  /// `\ * _ ~ ` [ ] < & |` always, `# > - + =` and a number's `.` or `)` at
  /// the start of a line, `!` before a link, the `.` of `www.` and the `:`
  /// of `://` (bare URLs), an `@` between an address's two halves (an empty
  /// link `[]()` goes before it); spaces at the edges of a line, and
  /// characters a delimiter needs to be punctuation, are written as
  /// character references (`&#32;`). An empty paragraph is written as
  /// `[]()`, and so is what goes first on a paragraph's line that would
  /// otherwise start a block or end the paragraph (HTML, nothing), and
  /// what stands between an emphasis delimiter and a soft line end (`_h`,
  /// line end, `[]()_`: emphasis that ends with the break); an HTML
  /// tag's later lines are indented by four spaces, or, if they start with
  /// spaces of their own and a letter, written as lazy lines (without the
  /// containers' prefixes), which keep them.
  ///
  /// A text that does not follow the rules is written as well as Markdown
  /// can say it: text without a presentation intent is paragraphs, one per
  /// line; a line break (LF, CR, CR LF, U+2029) inside a paragraph or
  /// header starts a new one; host keys are not written.
  ///
  /// - Complexity: O(n) for a text of n UTF-16 units.
  public var markdown: String {
    var writer = _MarkdownWriter()
    writer.write(self)
    return String(decoding: writer.output, as: UTF8.self)
  }
}

/// The writer: the text cut into leaf blocks by presentation intent, then
/// one walk over them that keeps the stack of open containers (`levels`,
/// over one shared `prefix` buffer) and writes each block's lines through
/// one sink (`beginLine`/`endLine`), the only code that writes prefixes and
/// line ends. See docs/architecture.md, *The Markdown writer*.
struct _MarkdownWriter {
  var output: [UInt8] = []
  /// The markers the writer picks among (a file's own, when it keeps its
  /// source).
  var style = _MarkdownStyle()

  /// One leaf block: its containers and kind, and its text as scalars with
  /// the index of each scalar's inline attributes.
  struct Leaf {
    var containers: [PresentationIntent.Component]
    var kind: PresentationIntent.Kind?
    var table: PresentationIntent.Component?
    var row: PresentationIntent.Component?
    var scalars: ArraySlice<Unicode.Scalar>
    var styles: ArraySlice<Int32>
    /// What the leaf is written as (decided when the text is cut).
    var block: Block = .paragraph
    /// Whether the leaf's first line starts with a space, which Markdown
    /// keeps (an HTML block's indentation).
    var keepsIndentation = false
  }

  /// What a leaf block is written as. Each kind says only what it writes
  /// (`writeBlock`) and whether it takes blank lines in; the containers'
  /// prefixes and the blank lines between blocks are the walk's.
  enum Block: Equatable {
    /// An empty quote, list or item: one line of its markers.
    case emptyContainer
    /// Inline text over lines (a thematic break's text too).
    case paragraph
    /// A paragraph without text: `[]()`.
    case emptyParagraph
    /// A header of level 1 to 6, underlined (setext) if it needs more than
    /// one line.
    case header(level: Int, underlined: Bool)
    case codeBlock(language: String?)
    /// `___`.
    case thematicBreak
    /// Raw lines; the first keeps up to three spaces of indentation.
    case htmlBlock
    /// A cell of a pipe table, written with its table's other cells;
    /// whether its text is all block HTML (in a text not from the reader).
    case tableCell(wholeHTML: Bool)

    /// Whether a task list item's box goes before the block when it is
    /// the item's first: a paragraph, after the box on its line, or a
    /// header, on the line after (`breakLine(afterBoxFrom:)`).
    var followsBox: Bool {
      switch self {
      case .paragraph, .header: true
      default: false
      }
    }

    /// Whether a blank line after the block is taken into it (an HTML
    /// block may be: `writeBlocks` asks `htmlBlockKind` for its kind). A
    /// table whose last cell is all block HTML counts as one.
    var takesBlankLines: Bool {
      switch self {
      case .htmlBlock, .tableCell(wholeHTML: true): true
      default: false
      }
    }
  }

  /// The inline attributes that Markdown writes, by index.
  struct Style: Hashable {
    var inline = 0
    var link: String?
    var linkTitle: String?
    /// An image's URL, and its title.
    var image: String?
    var imageTitle: String?
    /// A footnote reference's label.
    var footnote: String?

    /// Whether the style has no mark at all.
    var isEmpty: Bool {
      inline == 0 && link == nil && linkTitle == nil && image == nil && imageTitle == nil
        && footnote == nil
    }

    /// What Markdown writes of a run's attributes: its style, and its block.
    static func of(
      _ attributes: [AttributeKey: AttributeValue]
    ) -> (style: Style, intent: PresentationIntent?) {
      var style = Style()
      var intent: PresentationIntent?
      // The well-known keys take values of their own kind: the value says
      // the key, but for a URL (a link's or an image's) and a title.
      for (key, value) in attributes {
        switch value {
        case .inlinePresentationIntent(let inline): style.inline = inline.rawValue
        case .link(let url):
          if key == .link {
            style.link = url
          } else if key == .imageURL {
            style.image = url
          }
        case .string(let title):
          if key == .linkTitle {
            style.linkTitle = title
          } else if key == .imageTitle {
            style.imageTitle = title
          } else if key == .footnoteReference {
            style.footnote = title
          }
        case .presentationIntent(let value): intent = value
        default: break
        }
      }
      return (style, intent)
    }
  }
  var styles: [Style] = []
  /// Each style's inline intents, read per scalar without copying a style.
  var styleInlines: [Int] = []

  /// Scratch space reused from one leaf to the next: the bytes of raw
  /// tokens, the tokens.
  var rawBytes: [UInt8] = []
  var scratchTokens: [Token] = []
  /// How each scalar of the leaf being written is forced to be written
  /// (an `Encoding`'s raw value; 0 for `render`'s own rules).
  var overrides: [UInt8] = []
  /// Whether the zero-width inline goes before each token of the leaf
  /// being written, and after the last.
  var zeroWidth: [Bool] = []
  /// Whether the point before each token, and after the last, is inside a
  /// link (the zero-width inline is spelled by it: `writeZeroWidth`).
  var insideLink: [Bool] = []

  /// The containers the line being written is in, outermost first.
  var levels: [Level] = []
  /// The continuations of all open containers, outermost first.
  var prefix: [UInt8] = []
  /// The first-line markers of `levels[firstPending...]`, the containers
  /// whose first line is not written yet.
  var markers: [UInt8] = []
  var firstPending = 0
  /// The least marker width of list items that need more than their
  /// marker's (see `noteItemWidth`).
  var itemWidths: [PresentationIntent.Component: Int] = [:]
  /// Where the current line starts in `output`, and its content after the
  /// prefixes; whether it is a lazy line.
  var lineStart = 0
  var contentStart = 0
  var lineIsLazy = false
  /// Where in `output` the markers written last end.
  var markersEnd = 0

  /// How a line starts: with its containers' prefixes, or (a paragraph's
  /// lazy line) without.
  enum LineStart {
    case normal
    case lazy
  }

  mutating func write(_ text: AttributedText) {
    let leaves = leaves(of: text)
    writeBlocks(leaves)
  }

  // MARK: - Cutting the text into leaves

  /// The leaf blocks of `text`, in order.
  mutating func leaves(of text: AttributedText) -> [Leaf] {
    var scalars: [Unicode.Scalar] = []
    var styleOfScalar: [Int32] = []
    scalars.reserveCapacity(text.text.utf8.count)
    styleOfScalar.reserveCapacity(text.text.utf8.count)
    var styleIndex: [Style: Int32] = [:]
    // Groups of equal intent; each but the last ends with its separator.
    var groups: [(intent: PresentationIntent?, range: Range<Int>)] = []
    var groupStart = 0
    var groupIntent: PresentationIntent?

    var runIndex = 0
    var offset = 0
    var currentStyle: Int32 = -1
    var currentRunEnd = -1
    for scalar in text.text.unicodeScalars {
      if offset >= currentRunEnd {
        while runIndex < text.runs.count, text.runs[runIndex].range.upperBound <= offset {
          runIndex += 1
        }
        var style = Style()
        var intent: PresentationIntent?
        if runIndex < text.runs.count, text.runs[runIndex].range.lowerBound <= offset {
          currentRunEnd = text.runs[runIndex].range.upperBound
          (style, intent) = Style.of(text.runs[runIndex].attributes)
        } else {
          currentRunEnd =
            runIndex < text.runs.count ? text.runs[runIndex].range.lowerBound : Int.max
        }
        if currentStyle >= 0, styles[Int(currentStyle)] == style {
          // the same as the run before
        } else if let known = styleIndex[style] {
          currentStyle = known
        } else {
          styles.append(style)
          styleInlines.append(style.inline)
          currentStyle = Int32(styles.count - 1)
          styleIndex[style] = currentStyle
        }
        if scalars.isEmpty {
          groupIntent = intent
        } else if groupIntent != intent {
          groups.append((groupIntent, groupStart..<scalars.count))
          groupStart = scalars.count
          groupIntent = intent
        }
      }
      scalars.append(scalar)
      styleOfScalar.append(currentStyle)
      offset &+= scalar.value > 0xFFFF ? 2 : 1
    }
    if !scalars.isEmpty { groups.append((groupIntent, groupStart..<scalars.count)) }

    var result: [Leaf] = []
    for (number, group) in groups.enumerated() {
      var range = group.range
      let last = scalars[range.upperBound - 1]
      let isLast = number == groups.count - 1
      let shape = Self.shape(of: group.intent)
      if isLast {
        if range.count == 1, last == "\n" { range = range.lowerBound..<range.lowerBound }
      } else if last == "\n" || (last == "\t" && shape.kind.isCell) {
        range = range.lowerBound..<(range.upperBound - 1)
      }
      // Text in an empty container's leaf (typed into an empty list item
      // or quote) is a paragraph inside it: never dropped.
      let kind = shape.kind == nil && !range.isEmpty ? .paragraph : shape.kind
      let leaf = Leaf(
        containers: shape.containers, kind: kind, table: shape.table, row: shape.row,
        scalars: scalars[range], styles: styleOfScalar[range])
      if case .codeBlock = shape.kind {
        append(leaf, to: &result)
      } else if shape.kind.isCell || isWholeHTMLBlock(leaf) {
        append(leaf, to: &result)
      } else {
        for piece in split(leaf) { append(piece, to: &result) }
      }
    }
    return result
  }

  /// Appends `leaf` to `leaves` with its block kind.
  mutating func append(_ leaf: Leaf, to leaves: inout [Leaf]) {
    var leaf = leaf
    let wholeHTML = isWholeHTMLBlock(leaf)
    if wholeHTML { noteItemWidth(before: leaf, after: leaves.last) }
    if leaf.table != nil {
      // A leaf in a table (`shape` gives it one with its row) is one of
      // its cells, whatever its kind.
      leaf.block = .tableCell(wholeHTML: wholeHTML)
      leaves.append(leaf)
      return
    }
    switch leaf.kind {
    case nil:
      leaf.block = .emptyContainer
    case .codeBlock(let language)?:
      leaf.block = .codeBlock(language: language)
    case .thematicBreak? where leaf.scalars.isEmpty:
      leaf.block = .thematicBreak
    case .header(let level)?:
      // A line end inside inline HTML (`<!E\n>`) needs more than one line
      // too.
      let level = min(max(level, 1), 6)
      let hasBreaks = leaf.scalars.indices.contains {
        isBreak(at: $0, in: leaf) || leaf.scalars[$0] == "\n" || leaf.scalars[$0] == "\r"
      }
      leaf.block = .header(level: level, underlined: hasBreaks && level <= 2)
      leaf.keepsIndentation = hasBreaks && level <= 2 && startsWithIndentedHTML(leaf)
    default:
      // (Text marked as an HTML block that would not start one — an edit
      // took the mark off part of it, or cut it — is a paragraph: written
      // raw, its lines would read as other blocks, a fence that takes in
      // the rest of the file.)
      if wholeHTML, Self.htmlBlockKind(leaf.scalars).starts {
        // (An HTML block's text that Markdown would end early — a blank
        // line in one of kind 6 or 7, a line with the end of one of kinds
        // 1 to 5 before its last — is written as the blocks it reads as:
        // written whole, what follows the end reads as other blocks, a
        // fence that takes in the rest of the file. The blank lines go.)
        if let (end, rest) = Self.htmlBlockEnd(in: leaf.scalars) {
          var first = leaf
          first.scalars = leaf.scalars[..<end]
          first.styles = leaf.styles[..<end]
          append(first, to: &leaves)
          guard rest < leaf.scalars.endIndex else { return }
          var second = leaf
          second.scalars = leaf.scalars[rest...]
          second.styles = leaf.styles[rest...]
          // (What follows the end and would start a block of kinds 1 to 5
          // that nothing in it ends — `<pre` after a kind 6's blank line —
          // is text: as an HTML block it would take in every block written
          // after it, which the storage holds apart.)
          if Self.htmlBlockStaysOpen(second.scalars) {
            second.block = .paragraph
            second.keepsIndentation = startsWithIndentedHTML(second)
            leaves.append(second)
            return
          }
          append(second, to: &leaves)
          return
        }
        leaf.block = .htmlBlock
        leaf.keepsIndentation = leaf.scalars.first == " "
      } else {
        leaf.block = leaf.scalars.isEmpty ? .emptyParagraph : .paragraph
        leaf.keepsIndentation = startsWithIndentedHTML(leaf)
      }
    }
    leaves.append(leaf)
  }

  /// Whether inline text written as lines (a paragraph's, an underlined
  /// header's) starts with a space: only HTML is written as it is at a
  /// line's start, and only if nothing opens before it (a mark's delimiter,
  /// a link's bracket); a code span starts with a backtick, and text's
  /// spaces at a line's edge become references.
  func startsWithIndentedHTML(_ leaf: Leaf) -> Bool {
    guard leaf.scalars.first == " ", let first = leaf.styles.first else { return false }
    let style = styles[Int(first)]
    return style.inline & Self.codeBit == 0 && style.inline & Self.htmlBits != 0
      && style.link == nil && style.image == nil
      && markSet(inline: style.inline, link: -1) == .none
  }

  /// Notes the least marker width of the list item that an indented HTML
  /// block right after its list would fall into (in `itemWidths`).
  ///
  /// An HTML block's first line keeps up to three spaces of indentation.
  /// Written after a list, a line indented as far as the last item's
  /// content continues that item (`- i` then `  <d>`), so that item's
  /// marker takes more spaces (`-   i`): one more than the block's. The
  /// item opens before the block is reached: the width is known ahead.
  mutating func noteItemWidth(before html: Leaf, after previous: Leaf?) {
    guard html.scalars.first == " ", let previous else { return }
    let depth = html.containers.count
    guard previous.containers.count > depth + 1,
      previous.containers[..<depth].elementsEqual(html.containers),
      previous.containers[depth].kind.isListContainer,
      previous.containers[depth + 1].kind.isListItem
    else { return }
    let item = previous.containers[depth + 1]
    if itemWidths[item] == nil { itemWidths[item] = html.scalars.prefix { $0 == " " }.count + 1 }
  }

  /// A paragraph-like leaf cut at each line break inside it (LF, CR, CR LF,
  /// U+2029), a trailing one dropped; a line break inside HTML is the
  /// HTML's.
  func split(_ leaf: Leaf) -> [Leaf] {
    let html =
      InlinePresentationIntent.inlineHTML.rawValue | InlinePresentationIntent.blockHTML.rawValue
    var pieces: [Leaf] = []
    var start = leaf.scalars.startIndex
    var index = start
    let end = leaf.scalars.endIndex
    while index < end {
      let scalar = leaf.scalars[index]
      if Rope.isParagraphSeparator(scalar), styleInlines[Int(leaf.styles[index])] & html == 0 {
        var piece = leaf
        piece.scalars = leaf.scalars[start..<index]
        piece.styles = leaf.styles[start..<index]
        pieces.append(piece)
        if scalar == "\r", index + 1 < end, leaf.scalars[index + 1] == "\n" { index += 1 }
        start = index + 1
      }
      index += 1
    }
    if start < end || pieces.isEmpty {
      var piece = leaf
      piece.scalars = leaf.scalars[start..<end]
      piece.styles = leaf.styles[start..<end]
      pieces.append(piece)
    }
    return pieces
  }

  func isWholeHTMLBlock(_ leaf: Leaf) -> Bool {
    guard leaf.kind == .paragraph, !leaf.styles.isEmpty else { return false }
    let bit = InlinePresentationIntent.blockHTML.rawValue
    return leaf.styles.allSatisfy { styleInlines[Int($0)] & bit != 0 }
  }

  /// What a presentation intent says of its block: the containers it is in
  /// (a footnote's definition, quotes, lists and items, each list item
  /// inside a list), its own kind
  /// (nil for an empty container), and its table and row if it is a cell.
  static func shape(
    of intent: PresentationIntent?
  ) -> (
    containers: [PresentationIntent.Component], kind: PresentationIntent.Kind?,
    table: PresentationIntent.Component?, row: PresentationIntent.Component?
  ) {
    guard let components = intent?.components, !components.isEmpty else {
      return ([], .paragraph, nil, nil)
    }
    var containers: [PresentationIntent.Component] = []
    var kind: PresentationIntent.Kind?
    var table: PresentationIntent.Component?
    var row: PresentationIntent.Component?
    for (index, component) in components.enumerated() {
      switch component.kind {
      case .blockQuote, .orderedList, .unorderedList:
        guard table == nil else { continue }
        containers.append(component)
      case .listItem:
        guard table == nil else { continue }
        if let last = containers.last, last.kind == .orderedList || last.kind == .unorderedList {
          containers.append(component)
        } else {
          containers.append(.init(.unorderedList, identity: -component.identity))
          containers.append(component)
        }
      case .footnoteDefinition:
        // (Only outermost: the engine refuses it elsewhere.)
        guard table == nil, containers.isEmpty else { continue }
        containers.append(component)
      case .table:
        table = component
      case .tableHeaderRow, .tableRow:
        if table != nil { row = component }
      case .tableCell:
        if table != nil, row != nil { kind = component.kind }
      case .paragraph, .header, .codeBlock, .thematicBreak:
        if index == components.count - 1 || kind == nil { kind = component.kind }
      }
    }
    if table != nil, kind == nil || row == nil {
      // A table part without a row and a cell: its text as a paragraph.
      table = nil
      row = nil
      kind = .paragraph
    }
    let innermost = components[components.count - 1].kind
    switch innermost {
    case .blockQuote, .orderedList, .unorderedList, .listItem, .footnoteDefinition:
      kind = nil
    default:
      if kind == nil { kind = .paragraph }
    }
    return (containers, kind, table, row)
  }
}

extension PresentationIntent.Kind? {
  var isCell: Bool {
    if case .tableCell = self { return true }
    return false
  }
}

/// The markers a writer picks: bullets (the first for a list, the second
/// for one inside it, alternating with depth; the third for a list right
/// after one with the same bullet), and ordered lists' delimiters (the
/// second for a list right after one with the first).
struct _MarkdownStyle: Hashable, Sendable {
  var bullets: (UInt8, UInt8, UInt8) = (UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"))
  var delimiters: (UInt8, UInt8) = (UInt8(ascii: "."), UInt8(ascii: ")"))
  /// Whether emphasis that ends with a link goes around it (`*[a](u)*`,
  /// as the file writes it) rather than inside (`[*a*](u)`, the default).
  var linksInsideEmphasis = false

  /// The style whose first bullet is `bullet` and whose first delimiter
  /// is `delimiter`; the others follow.
  init(bullet: UInt8 = UInt8(ascii: "-"), delimiter: UInt8 = UInt8(ascii: ".")) {
    let all: [UInt8] = [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")]
    let first = all.contains(bullet) ? bullet : all[0]
    let rest = all.filter { $0 != first }
    // `-` and `*` alternate with depth when the file's bullet is one of
    // them; `+` keeps `-` inside.
    bullets = (first, rest[0], rest[1])
    let second = delimiter == UInt8(ascii: ")") ? UInt8(ascii: ".") : UInt8(ascii: ")")
    delimiters = (second == UInt8(ascii: ".") ? UInt8(ascii: ")") : UInt8(ascii: "."), second)
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.bullets == rhs.bullets && lhs.delimiters == rhs.delimiters
      && lhs.linksInsideEmphasis == rhs.linksInsideEmphasis
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(bullets.0)
    hasher.combine(bullets.1)
    hasher.combine(delimiters.0)
    hasher.combine(linksInsideEmphasis)
  }
}
