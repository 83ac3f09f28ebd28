import DocumentEngine
import FuzzSupport

/// Writes Markdown from the fuzzer's bytes and says what the reader must
/// read from it: half (b) of `FuzzMarkdown`.
///
/// The generated attributed texts are the reader's readings of the
/// generated Markdown (so identities are numbered exactly as the reader
/// numbers them, and every text is one the reader can give); the generator
/// knows the text, the inline intents, the links and the kinds of every
/// unit's block, and the target checks the reading against them.
///
/// Blocks: paragraphs, ATX headers 1–6 (possibly empty), setext headers 1–2
/// (with line breaks), fenced code blocks (backticks or tildes, with a
/// language or not), thematic breaks, quotes, bulleted and ordered lists
/// (any start) with items, pipe tables with alignments; containers nest,
/// and may be empty. Inline: text, code spans, emphasis, strong emphasis,
/// strikethrough, links, soft and hard breaks, inline HTML. Text is written
/// as numeric character references (`&#42;`), so that any character lands
/// in the text as itself, whatever Markdown makes of it elsewhere; the
/// characters are those Markdown treats as markup (`* _ ~ \` [ ] < > & | #
/// - + = . ) ! : @ \\`, `www.`, `http://`), spaces and tabs (at the edges
/// too), non-BMP scalars, emoji and combining marks. Delimiters are chosen
/// so that they open and close as meant: emphasis `_`, strong `**`,
/// strikethrough `~~`, never one inside itself or right after itself.
/// Paragraphs and headers get no LF, CR or U+2029 (the writer's documented
/// exception); table cells and code blocks do.
struct MarkdownGenerator {
  private var input: FuzzInput
  /// The Markdown.
  private(set) var source = ""

  /// A stretch of a leaf's text with its inline intents and link.
  struct Piece {
    var text: String
    var inline: Int
    var link: String? = nil
  }

  /// A block of the reading: the kinds of its components, its text, and
  /// its row (a number per row) if it is a table cell.
  struct Leaf {
    var kinds: [PresentationIntent.Kind]
    var pieces: [Piece]
    var row: Int? = nil
    var isEmpty: Bool { pieces.allSatisfy { $0.text.isEmpty } }
  }
  private var leaves: [Leaf] = []

  /// A container open around the lines being written.
  struct Container {
    var kind: PresentationIntent.Kind
    var marker: String
    var continuation: String
    var wroteFirstLine = false
    var leavesAtOpen: Int
  }
  private var open: [Container] = []

  private var blockBudget = 40
  private var inlineBudget = 300
  private var rows = 0

  init(_ input: FuzzInput) {
    self.input = input
  }

  // MARK: - The reading meant

  /// The text the reading must have.
  var expectedText: String {
    String(decoding: expectedUnits().map(\.unit), as: UTF16.self)
  }

  /// The units the reading must have: each leaf's text, then its separator
  /// (a tab between cells of one row, else LF) unless it is the last leaf
  /// and has text.
  func expectedUnits() -> [Reading.Unit] {
    var units: [Reading.Unit] = []
    for (index, leaf) in leaves.enumerated() {
      for piece in leaf.pieces {
        for unit in piece.text.utf16 {
          units.append(
            Reading.Unit(unit: unit, inline: piece.inline, link: piece.link, kinds: leaf.kinds))
        }
      }
      if index < leaves.count - 1 {
        let sameRow = leaf.row != nil && leaf.row == leaves[index + 1].row
        units.append(
          Reading.Unit(unit: sameRow ? 0x09 : 0x0A, inline: 0, link: nil, kinds: leaf.kinds))
      } else if leaf.isEmpty {
        units.append(Reading.Unit(unit: 0x0A, inline: 0, link: nil, kinds: leaf.kinds))
      }
    }
    return units
  }

  // MARK: - Lines

  private var openKinds: [PresentationIntent.Kind] { open.map(\.kind) }

  /// Writes a line with the prefixes of the open containers (a list item's
  /// marker on its first line); an empty line without trailing spaces.
  private mutating func writeLine(_ content: String) {
    var line = ""
    for index in open.indices {
      if open[index].wroteFirstLine {
        line += open[index].continuation
      } else {
        line += open[index].marker
        open[index].wroteFirstLine = true
      }
    }
    if content.isEmpty {
      while line.last == " " { line.removeLast() }
    } else {
      line += content
    }
    source += line
    source += "\n"
  }

  /// Opens a container whose first line starts with `marker`, and every
  /// later line with as many spaces (a list item) or with the marker again
  /// (a quote).
  private mutating func openContainer(_ kind: PresentationIntent.Kind, marker: String) {
    let continuation =
      kind == .blockQuote ? marker : String(repeating: " ", count: marker.count)
    open.append(
      Container(
        kind: kind, marker: marker, continuation: continuation, leavesAtOpen: leaves.count))
  }

  /// Closes the innermost container; one with no leaf inside is a leaf
  /// itself, written as its marker alone.
  private mutating func closeContainer() {
    guard let last = open.last else { return }
    if leaves.count == last.leavesAtOpen {
      writeLine("")
      leaves.append(Leaf(kinds: openKinds, pieces: [], row: nil))
    }
    open.removeLast()
  }

  // MARK: - Blocks

  /// A document of up to 5 blocks.
  mutating func generateDocument() {
    blocks(count: input.int(below: 6), depth: 0)
  }

  /// `count` sibling blocks, a blank line between them.
  private mutating func blocks(count: Int, depth: Int) {
    var previousList: Character?
    for index in 0..<count {
      guard blockBudget > 0 else { return }
      blockBudget -= 1
      if index > 0 { writeLine("") }
      previousList = block(depth: depth, previousList: previousList)
    }
  }

  /// One block; returns its list mark if it is a list (a list right after
  /// needs another, or it would continue this one).
  private mutating func block(depth: Int, previousList: Character?) -> Character? {
    var choice = Int(input.byte() % 10)
    if depth >= 6, choice >= 6 { choice = 0 }
    switch choice {
    case 0, 1:
      var content = Inline(atLineStart: true)
      inlines(&content, context: InlineContext(breaks: true), depth: 0, allowEmpty: false)
      for line in content.lines { writeLine(line) }
      leaves.append(Leaf(kinds: openKinds + [.paragraph], pieces: content.pieces))
    case 2:
      let level = 1 + input.int(below: 6)
      var content = Inline(atLineStart: false)
      inlines(&content, context: InlineContext(breaks: false), depth: 0, allowEmpty: true)
      let text = content.lines.first ?? ""
      writeLine(String(repeating: "#", count: level) + (text.isEmpty ? "" : " " + text))
      leaves.append(Leaf(kinds: openKinds + [.header(level: level)], pieces: content.pieces))
    case 3:
      let level = 1 + input.int(below: 2)
      var content = Inline(atLineStart: true)
      inlines(&content, context: InlineContext(breaks: true), depth: 0, allowEmpty: false)
      for line in content.lines { writeLine(line) }
      writeLine(level == 1 ? "===" : "---")
      leaves.append(Leaf(kinds: openKinds + [.header(level: level)], pieces: content.pieces))
    case 4:
      codeBlock()
    case 5:
      writeLine("___")
      leaves.append(Leaf(kinds: openKinds + [.thematicBreak], pieces: []))
    case 6:
      openContainer(.blockQuote, marker: "> ")
      blocks(count: input.int(below: 4), depth: depth + 1)
      closeContainer()
    case 7, 8:
      return list(ordered: choice == 8, depth: depth, previousList: previousList)
    default:
      table()
    }
    return nil
  }

  private mutating func codeBlock() {
    var language: String?
    if input.bool() {
      var hint = ""
      for _ in 0..<(1 + input.int(below: 3)) { hint += piece(Self.textPieces, avoiding: []) }
      language = hint
    }
    var lines: [String] = []
    for _ in 0..<input.int(below: 5) {
      var line = ""
      for _ in 0..<input.int(below: 6) { line += piece(Self.codePieces, avoiding: ["\n", "\r"]) }
      lines.append(line)
    }
    let text = lines.joined(separator: "\n")
    let fenceCharacter: Character = input.bool() ? "~" : "`"
    var longest = 0
    var run = 0
    for scalar in text.unicodeScalars {
      run = Character(scalar) == fenceCharacter ? run + 1 : 0
      longest = max(longest, run)
    }
    let fence = String(repeating: fenceCharacter, count: max(3, longest + 1))
    writeLine(fence + (language.map(Self.escaped) ?? ""))
    for line in lines { writeLine(line) }
    writeLine(fence)
    let trimmed = language.map(Self.trimmed)
    let hint = (trimmed?.isEmpty ?? true) ? nil : trimmed
    leaves.append(
      Leaf(
        kinds: openKinds + [.codeBlock(languageHint: hint)], pieces: [Piece(text: text, inline: 0)])
    )
  }

  /// A list of 1 to 4 items, each with up to 2 blocks.
  private mutating func list(ordered: Bool, depth: Int, previousList: Character?) -> Character {
    var mark: Character
    var start = 1
    if ordered {
      mark = previousList == "." ? ")" : previousList == ")" ? "." : input.bool() ? "." : ")"
      switch input.byte() % 4 {
      case 0: start = 1
      case 1: start = 0
      case 2: start = Int(input.byte())
      default: start = input.int(below: 999_999_990)
      }
    } else {
      // Not the mark of a list right before (it would continue it), nor
      // that of an item whose first line this one shares ("- - -" is a
      // thematic break).
      let pending = open.last.flatMap {
        $0.wroteFirstLine || !$0.kind.isListItem ? nil : $0.marker.first
      }
      let bullets = (["-", "*", "+"] as [Character]).filter { $0 != previousList && $0 != pending }
      mark = bullets[input.int(below: bullets.count)]
    }
    openContainer(ordered ? .orderedList : .unorderedList, marker: "")
    for item in 0..<(1 + input.int(below: 4)) {
      let ordinal = ordered ? start + item : item + 1
      let marker = ordered ? "\(ordinal)\(mark) " : "\(mark) "
      openContainer(.listItem(ordinal: ordinal), marker: marker)
      blocks(count: input.int(below: 3), depth: depth + 1)
      closeContainer()
    }
    closeContainer()
    return mark
  }

  /// A pipe table: 1 to 4 columns, a header row and up to 3 body rows.
  private mutating func table() {
    let columns = 1 + input.int(below: 4)
    var alignments: [PresentationIntent.ColumnAlignment] = []
    var delimiter = "|"
    for _ in 0..<columns {
      switch input.byte() % 4 {
      case 0:
        delimiter += " --- |"
        alignments.append(.left)
      case 1:
        delimiter += " :-- |"
        alignments.append(.left)
      case 2:
        delimiter += " :-: |"
        alignments.append(.center)
      default:
        delimiter += " --: |"
        alignments.append(.right)
      }
    }
    let table = PresentationIntent.Kind.table(columns: alignments)
    let bodyRows = input.int(below: 4)
    for row in -1..<bodyRows {
      rows += 1
      let rowKind: PresentationIntent.Kind = row < 0 ? .tableHeaderRow : .tableRow(rowIndex: row)
      var line = "|"
      for column in 0..<columns {
        var content = Inline(atLineStart: false)
        inlines(
          &content, context: InlineContext(breaks: false, cell: true), depth: 0, allowEmpty: true)
        line += " " + (content.lines.first ?? "") + " |"
        leaves.append(
          Leaf(
            kinds: openKinds + [table, rowKind, .tableCell(columnIndex: column)],
            pieces: content.pieces, row: rows))
      }
      writeLine(line)
      if row < 0 { writeLine(delimiter) }
    }
  }

  // MARK: - Inlines

  /// Inline Markdown being written, and the pieces of text it stands for.
  struct Inline {
    var source = ""
    var pieces: [Piece] = []
    /// Whether the next thing written starts a line (where a code fence or
    /// HTML would start a block).
    var atLineStart: Bool
    var lines: [String] {
      source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
  }

  /// Where inline content goes: the marks around it, and what it may hold.
  struct InlineContext {
    var inline = 0
    var link: String?
    var breaks: Bool
    var cell = false
  }

  enum ChildKind: Equatable {
    case text, code
    case span(Int)
    case link, lineBreak, html
  }

  /// Up to 4 inline children (at least one unless `allowEmpty`): a line
  /// break never first or last, nor after another; a span never inside or
  /// right after one of its own kind; a code span never right after another.
  private mutating func inlines(
    _ output: inout Inline, context: InlineContext, depth: Int, allowEmpty: Bool
  ) {
    var count = allowEmpty ? input.int(below: 5) : 1 + input.int(below: 4)
    if inlineBudget <= 0 { count = min(count, allowEmpty ? 0 : 1) }
    var previous: ChildKind?
    for index in 0..<count {
      inlineBudget -= 1
      let inside = index > 0 && index < count - 1
      var kind: ChildKind
      switch input.byte() % 16 {
      case 6: kind = .code
      case 7: kind = .span(InlinePresentationIntent.emphasized.rawValue)
      case 8: kind = .span(InlinePresentationIntent.stronglyEmphasized.rawValue)
      case 9: kind = .span(InlinePresentationIntent.strikethrough.rawValue)
      case 10: kind = .link
      case 11, 12: kind = .lineBreak
      case 13: kind = .html
      default: kind = .text
      }
      switch kind {
      case .span(let bit):
        if depth >= 4 || context.inline & bit != 0 || previous == kind { kind = .text }
      case .link:
        if depth >= 4 || context.link != nil { kind = .text }
      case .lineBreak:
        if !context.breaks || !inside || previous == .lineBreak { kind = .text }
      case .html:
        if output.atLineStart { kind = .text }
      case .code:
        // Two code spans in a row would read as one.
        if previous == .code { kind = .text }
      case .text:
        break
      }
      previous = kind
      switch kind {
      case .text:
        var text = ""
        for _ in 0..<(1 + input.int(below: 3)) {
          text += piece(Self.textPieces, avoiding: context.cell ? [] : ["\n", "\r", "\u{2029}"])
        }
        output.source += Self.references(text)
        output.pieces.append(Piece(text: text, inline: context.inline, link: context.link))
      case .code:
        codeSpan(&output, context: context)
      case .span(let bit):
        let delimiter =
          bit == InlinePresentationIntent.emphasized.rawValue
          ? "_" : bit == InlinePresentationIntent.stronglyEmphasized.rawValue ? "**" : "~~"
        output.source += delimiter
        output.atLineStart = false
        var nested = context
        nested.inline |= bit
        inlines(&output, context: nested, depth: depth + 1, allowEmpty: false)
        output.source += delimiter
      case .link:
        var url = ""
        for _ in 0..<input.int(below: 4) { url += piece(Self.textPieces, avoiding: []) }
        output.source += "["
        output.atLineStart = false
        var nested = context
        nested.link = url
        inlines(&output, context: nested, depth: depth + 1, allowEmpty: false)
        output.source += "](<" + Self.escaped(url) + ">)"
      case .lineBreak:
        let hard = input.bool()
        output.source += hard ? "\\\n" : "\n"
        let bit =
          hard
          ? InlinePresentationIntent.lineBreak.rawValue
          : InlinePresentationIntent.softBreak.rawValue
        output.pieces.append(
          Piece(text: hard ? "\u{2028}" : " ", inline: context.inline | bit, link: context.link))
        output.atLineStart = true
        continue
      case .html:
        let html = input.pick(Self.htmlPieces)
        output.source += html
        output.pieces.append(
          Piece(
            text: html, inline: context.inline | InlinePresentationIntent.inlineHTML.rawValue,
            link: context.link))
      }
      output.atLineStart = false
    }
  }

  /// A code span: backticks one more than the longest run inside, a space
  /// inside each end where CommonMark would strip one; `|` escaped in a
  /// cell. At the start of a line it has no backticks (three would open a
  /// code block).
  private mutating func codeSpan(_ output: inout Inline, context: InlineContext) {
    var content = ""
    let avoided: Set<Unicode.Scalar> = context.cell ? ["\n", "\r"] : ["\n", "\r", "\u{2029}"]
    for _ in 0..<(1 + input.int(below: 3)) { content += piece(Self.codePieces, avoiding: avoided) }
    if output.atLineStart { content = content.replacingBackticks() }
    var run = 0
    var runs: Set<Int> = []
    for scalar in content.unicodeScalars {
      if scalar == "`" {
        run += 1
      } else {
        if run > 0 { runs.insert(run) }
        run = 0
      }
    }
    if run > 0 { runs.insert(run) }
    var length = 1
    while runs.contains(length) { length += 1 }
    let fence = String(repeating: "`", count: length)
    let scalars = content.unicodeScalars
    let allSpaces = scalars.allSatisfy { $0 == " " }
    let pad =
      scalars.first == "`" || scalars.last == "`"
      || (scalars.first == " " && scalars.last == " " && !allSpaces)
    var written = content
    if context.cell { written = written.replacingPipes() }
    output.source += fence + (pad ? " " : "") + written + (pad ? " " : "") + fence
    output.pieces.append(
      Piece(
        text: content, inline: context.inline | InlinePresentationIntent.code.rawValue,
        link: context.link))
  }

  // MARK: - Text

  /// One of `pieces`, an ASCII character or any scalar, without the
  /// `avoided` scalars, NUL, U+FFFE and U+FFFF (read as U+FFFD); "a" if
  /// nothing is left.
  private mutating func piece(_ pieces: [String], avoiding avoided: Set<Unicode.Scalar>) -> String {
    let byte = Int(input.byte())
    var result: String
    if byte < pieces.count {
      result = pieces[byte]
    } else if byte < 0xF0 {
      result = String(Unicode.Scalar(UInt8(0x20 + byte % 0x5F)))
    } else {
      result = String(input.scalar())
    }
    // A reference to U+FFFE or U+FFFF reads as U+FFFD, as NUL does
    // (cmark-gfm writes it as a byte that is not UTF-8; the reader repairs
    // it): the generator, which means what it writes, writes neither.
    result = String(
      String.UnicodeScalarView(
        result.unicodeScalars.filter {
          $0 != "\0" && !avoided.contains($0) && $0 != "\u{FFFE}" && $0 != "\u{FFFF}"
        }))
    return result.isEmpty ? "a" : result
  }

  /// Text: what Markdown reads as markup, breaks of every kind, spaces,
  /// tabs, non-BMP scalars, emoji, combining marks.
  static let textPieces: [String] = [
    "a", "b", "Z", "1", " ", "  ", "\t", "*", "_", "~", "`", "[", "]", "<", ">", "&", "|", "#",
    "-", "+", "=", ".", ")", "(", "!", ":", "@", "\\", "www.", "http://", "https://x.y/z", "1.",
    "2)", "&amp;", "&#10;", "x@y.z", "**", "~~", "![", "](", "\"", "'", "{", "}", "$", "^", "%",
    "é", "e\u{301}", "\u{301}", "😀", "👍🏽", "👨‍👩‍👧‍👦", "🇫🇷", "𝄞", "中", "\u{2028}", "\u{A0}",
    "\u{200B}", "\u{FFFD}", "\u{FEFF}", "\n", "\r", "\r\n", "\u{2029}", "\u{85}", "\u{0B}",
    "\u{0C}", "---", "***", "```", "~~~", "> ", "- ", "+ ", "# ", "1. ", "<b>", "<!--", "a_b",
    "*a*", "_a_", "mailto:", "\\*", "&#", ";",
  ]

  /// Code: the same, backticks and runs of them, pipes and backslashes.
  static let codePieces: [String] = [
    "a", " ", "`", "``", "```", "|", "\\", "\\|", "*", "_", "~", "<b>", "&amp;", "&#10;", "\t",
    "😀", "e\u{301}", "\u{2028}", "\u{2029}", "  ", "[x]", "~~~", "# ", "-", "1.", "\u{A0}", "\\`",
  ]

  static let htmlPieces: [String] = [
    "<b>", "</b>", "<br/>", "<!-- c -->", "<span class=\"a\">", "<?p ?>", "<![CDATA[x]]>",
    "<x-y z='1'>", "</x-y>", "<a href=\"u\">",
  ]

  /// Every scalar of `text` as a numeric character reference.
  static func references(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars { result += "&#\(scalar.value);" }
    return result
  }

  /// `text` for a link destination or an info string, where cmark-gfm
  /// decodes character references before it removes backslash escapes (so
  /// `&#92;&#42;` would be read as `*`): ASCII punctuation escaped with a
  /// backslash (a backtick as a reference: no fence's info may hold one),
  /// letters and digits as they are, the rest as references (spaces too:
  /// cmark-gfm trims them at the ends, before decoding).
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "`":
        result += "&#96;"
      case "!"..."/", ":"..."@", "["..."`", "{"..."~":
        result += "\\" + String(scalar)
      case "a"..."z", "A"..."Z", "0"..."9":
        result += String(scalar)
      default:
        result += "&#\(scalar.value);"
      }
    }
    return result
  }

  /// `text` without ASCII spaces, tabs and line ends at either end (as
  /// the reader trims a code block's language).
  static func trimmed(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(String.UnicodeScalarView(scalars[first...last]))
  }
}

extension PresentationIntent.Kind {
  var isListItem: Bool {
    if case .listItem = self { return true }
    return false
  }
}

extension String {
  /// The string with each backtick made an apostrophe.
  func replacingBackticks() -> String {
    String(String.UnicodeScalarView(unicodeScalars.map { $0 == "`" ? "'" : $0 }))
  }

  /// The string with each `|` escaped (as a table cell needs it).
  func replacingPipes() -> String {
    var result = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      if scalar == "|" { result.append("\\") }
      result.append(scalar)
    }
    return String(result)
  }
}
