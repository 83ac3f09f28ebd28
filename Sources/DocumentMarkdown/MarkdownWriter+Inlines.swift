import DocumentEngine

extension _MarkdownWriter {
  /// Where inline text is written: a paragraph (or an underlined header),
  /// whose lines may start blocks; an ATX header's one line; a table cell.
  enum InlineMode {
    case paragraph
    case heading
    case cell
  }

  /// What a character next to a delimiter counts as, by CommonMark's
  /// flanking rules; `unknown` for a character whose Unicode class the writer
  /// does not rely on (it writes it as a character reference when it
  /// matters).
  enum CharacterClass {
    case whitespace
    case punctuation
    case other
    case unknown
  }

  /// How a character is written, when something forces it (in
  /// `overrides`; 0 leaves it to `render`'s rules).
  enum Encoding: UInt8 {
    case automatic = 0
    case escaped = 1
    case reference = 2
  }

  /// A mark that spans inline text.
  enum Mark: Hashable {
    case strong
    case emphasis
    case strikethrough
    case link(Int32)
    /// An image: its text is the description.
    case image(Int32)

    /// The mark's bit in a `MarkSet` (none for a link or an image).
    var bit: UInt8 {
      switch self {
      case .strong: 1
      case .emphasis: 2
      case .strikethrough: 4
      case .link, .image: 0
      }
    }

    /// Whether the mark is written with emphasis-like delimiters (flanking
    /// rules apply), not as a link or an image.
    var isEmphasisLike: Bool {
      switch self {
      case .link, .image: false
      default: true
      }
    }

    /// Writes the mark's opening or closing delimiter (a link's `[`).
    func appendDelimiter(to bytes: inout [UInt8]) {
      switch self {
      case .strong:
        bytes.append(UInt8(ascii: "*"))
        bytes.append(UInt8(ascii: "*"))
      case .emphasis: bytes.append(UInt8(ascii: "_"))
      case .strikethrough:
        bytes.append(UInt8(ascii: "~"))
        bytes.append(UInt8(ascii: "~"))
      case .link: bytes.append(UInt8(ascii: "["))
      case .image:
        bytes.append(UInt8(ascii: "!"))
        bytes.append(UInt8(ascii: "["))
      }
    }
  }

  /// One piece of a written line. Tokens are plain values (no reference
  /// counting): text is a range of the leaf's scalars, raw bytes a range of
  /// `rawBytes`.
  enum Token {
    /// Scalars `start..<end` of the leaf, escaped as `render` says; inside
    /// a link or not (an address is not broken inside one).
    case text(Int32, Int32, inLink: Bool)
    /// Code spans, HTML, a link's end, an empty link: bytes of
    /// `rawBytes` written as they are; they start and end with punctuation.
    case raw(Int32, Int32)
    case opener(Mark)
    case closer(Mark)
    case lineEnd(hard: Bool)
    /// A line end inside HTML (a tag over two lines): not a break of the
    /// paragraph's.
    case htmlLineEnd
  }

  /// The marks on a piece of text: strong, emphasis and strikethrough as
  /// bits (by `Mark.bit`), and the link's and the image's indices or -1.
  struct MarkSet: Equatable {
    var bits: UInt8
    var link: Int32
    var image: Int32 = -1

    static let none = MarkSet(bits: 0, link: -1)

    func contains(_ mark: Mark) -> Bool {
      switch mark {
      case .link(let index): index >= 0 && link == index
      case .image(let index): index >= 0 && image == index
      default: bits & mark.bit != 0
      }
    }

    func intersection(_ other: MarkSet) -> MarkSet {
      MarkSet(
        bits: bits & other.bits, link: link == other.link ? link : -1,
        image: image == other.image ? image : -1)
    }

    /// The marks, in no particular order.
    var marks: [Mark] {
      var result: [Mark] = []
      if bits & Mark.strong.bit != 0 { result.append(.strong) }
      if bits & Mark.emphasis.bit != 0 { result.append(.emphasis) }
      if bits & Mark.strikethrough.bit != 0 { result.append(.strikethrough) }
      if link >= 0 { result.append(.link(link)) }
      if image >= 0 { result.append(.image(image)) }
      return result
    }
  }

  /// A stretch of a leaf's inline text with one set of marks: text, a code
  /// span, HTML, or a line break.
  struct Piece {
    enum Kind: Equatable {
      case text
      case code
      case html
      case lineBreak(hard: Bool)
      /// Footnote references to one label, as many as the text has the
      /// label.
      case footnotes(label: String, count: Int)
    }
    var kind: Kind
    var start: Int
    var end: Int
    var marks: MarkSet
  }

  static let softBreakBit = InlinePresentationIntent.softBreak.rawValue
  static let lineBreakBit = InlinePresentationIntent.lineBreak.rawValue
  static let codeBit = InlinePresentationIntent.code.rawValue
  static let htmlBits =
    InlinePresentationIntent.inlineHTML.rawValue | InlinePresentationIntent.blockHTML.rawValue
  static let inlineHTMLBit = InlinePresentationIntent.inlineHTML.rawValue

  /// Whether `scalars` are inline HTML as CommonMark reads it, one piece
  /// after another (white space around them allowed): open and closing
  /// tags, comments, processing instructions, declarations and CDATA
  /// sections (the last four up to their first end, a little more lenient
  /// than cmark-gfm). Tags are `tagEnd(in:from:)`'s, as an HTML block's.
  static func isInlineHTML(_ scalars: Slice<UnsafeBufferPointer<Unicode.Scalar>>) -> Bool {
    var at = scalars.startIndex
    let end = scalars.endIndex
    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
      at + offset < end ? scalars[at + offset] : nil
    }
    func isSpace(_ s: Unicode.Scalar?) -> Bool {
      guard let s else { return false }
      return s == " " || s == "\t" || s == "\n" || s == "\r" || s == "\u{0B}" || s == "\u{0C}"
    }
    func skipSpaces() -> Bool {
      let start = at
      while isSpace(peek()) { at += 1 }
      return at > start
    }
    /// Moves past the first `terminator` from here; false if there is none.
    func skip(past terminator: [Unicode.Scalar]) -> Bool {
      while at + terminator.count <= end {
        if scalars[at..<(at + terminator.count)].elementsEqual(terminator) {
          at += terminator.count
          return true
        }
        at += 1
      }
      return false
    }
    var constructs = 0
    while at < end {
      // (White space between them is written as it is either way.)
      if skipSpaces(), at == end { break }
      guard peek() == "<" else { return false }
      constructs += 1
      if peek(1) == "!", peek(2) == "-", peek(3) == "-" {
        at += 4
        guard skip(past: ["-", "-", ">"]) else { return false }
      } else if peek(1) == "?" {
        at += 2
        guard skip(past: ["?", ">"]) else { return false }
      } else if peek(1) == "!", peek(2) == "[" {
        // (`CDATA` in any case, as cmark-gfm reads it.)
        let cdata: [Unicode.Scalar] = ["<", "!", "[", "c", "d", "a", "t", "a", "["]
        guard at + cdata.count <= end,
          scalars[at..<(at + cdata.count)].elementsEqual(
            cdata, by: { $0.properties.lowercaseMapping == String($1) })
        else { return false }
        at += cdata.count
        guard skip(past: ["]", "]", ">"]) else { return false }
      } else if peek(1) == "!" {
        guard let letter = peek(2), ("A"..."Z").contains(letter) else { return false }
        at += 2
        guard skip(past: [">"]) else { return false }
      } else {
        guard let (tagEnd, _) = Self.tagEnd(in: scalars, from: at) else { return false }
        at = tagEnd
      }
    }
    return constructs > 0
  }

  /// Writes the leaf's inline text: in a paragraph, as lines of their own;
  /// in a heading or a cell, its first line into the line being written.
  mutating func writeInline(_ leaf: Leaf, mode: InlineMode) {
    rawBytes.removeAll(keepingCapacity: true)
    overrides.removeAll(keepingCapacity: true)
    overrides.append(contentsOf: repeatElement(0, count: leaf.scalars.count))
    var tokens = scratchTokens
    scratchTokens = []
    tokens.removeAll(keepingCapacity: true)
    leaf.scalars.withUnsafeBufferPointer { scalars in
      leaf.styles.withUnsafeBufferPointer { styles in
        inlineTokens(scalars, styles, mode: mode, into: &tokens)
        fixFlanking(&tokens, scalars)
        fixLineEdges(tokens, scalars, mode: mode)
        render(tokens, scalars, wholeLines: mode == .paragraph)
      }
    }
    scratchTokens = tokens
  }

  /// `bytes` kept in `rawBytes`, as a raw token.
  mutating func raw<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Token {
    let start = Int32(rawBytes.count)
    rawBytes.append(contentsOf: bytes)
    return .raw(start, Int32(rawBytes.count))
  }

  // MARK: - Pieces and tokens

  func markSet(inline: Int, link: Int32, image: Int32 = -1) -> MarkSet {
    var bits: UInt8 = 0
    if inline & InlinePresentationIntent.stronglyEmphasized.rawValue != 0 {
      bits |= Mark.strong.bit
    }
    if inline & InlinePresentationIntent.emphasized.rawValue != 0 { bits |= Mark.emphasis.bit }
    if inline & InlinePresentationIntent.strikethrough.rawValue != 0 {
      bits |= Mark.strikethrough.bit
    }
    return MarkSet(bits: bits, link: link, image: image)
  }

  /// The leaf's pieces: one per run of a style, a run of code or HTML
  /// whole, a run with line breaks cut at each. A line break, soft or hard,
  /// keeps its own marks (a delimiter that would stand beside its line end
  /// gets the zero-width inline between them: see `inlineTokens`).
  func pieces(
    _ scalars: UnsafeBufferPointer<Unicode.Scalar>, _ styleIndices: UnsafeBufferPointer<Int32>,
    mode: InlineMode, links: inout [Target], images: inout [Target]
  ) -> [Piece] {
    var pieces: [Piece] = []
    var start = 0
    let count = scalars.count
    while start < count {
      let styleIndex = styleIndices[start]
      var end = start + 1
      while end < count, styleIndices[end] == styleIndex { end += 1 }
      let style = styles[Int(styleIndex)]
      var link: Int32 = -1
      if let url = style.link {
        let target = Target(url: url, title: style.linkTitle)
        if links.last != target { links.append(target) }
        link = Int32(links.count - 1)
      }
      var image: Int32 = -1
      if let url = style.image {
        let target = Target(url: url, title: style.imageTitle)
        if images.last != target { images.append(target) }
        image = Int32(images.count - 1)
      }
      let marks = markSet(inline: style.inline, link: link, image: image)
      if let label = style.footnote,
        let count = Self.footnoteCount(label, in: scalars[start..<end], inCell: mode == .cell)
      {
        pieces.append(
          Piece(kind: .footnotes(label: label, count: count), start: start, end: end, marks: marks))
      } else if style.inline & Self.codeBit != 0 {
        pieces.append(Piece(kind: .code, start: start, end: end, marks: marks))
      } else if style.inline & Self.htmlBits != 0,
        (mode != .paragraph && style.inline & Self.inlineHTMLBit == 0)
          || Self.isInlineHTML(scalars[start..<end])
      {
        // (HTML in a paragraph that is not whole tags — an edit set
        // emphasis on part of one, or block HTML that starts no block — is
        // text: written raw, its brackets and lines would read as
        // Markdown.)
        pieces.append(Piece(kind: .html, start: start, end: end, marks: marks))
      } else if mode == .paragraph,
        style.inline & (Self.softBreakBit | Self.lineBreakBit) != 0
      {
        var textStart = start
        for index in start..<end {
          let scalar = scalars[index]
          let hard: Bool
          if scalar == " ", style.inline & Self.softBreakBit != 0 {
            hard = false
          } else if scalar == "\u{2028}", style.inline & Self.lineBreakBit != 0 {
            hard = true
          } else {
            continue
          }
          if textStart < index {
            pieces.append(Piece(kind: .text, start: textStart, end: index, marks: marks))
          }
          pieces.append(
            Piece(kind: .lineBreak(hard: hard), start: index, end: index + 1, marks: marks))
          textStart = index + 1
        }
        if textStart < end {
          pieces.append(Piece(kind: .text, start: textStart, end: end, marks: marks))
        }
      } else {
        pieces.append(Piece(kind: .text, start: start, end: end, marks: marks))
      }
      start = end
    }
    return pieces
  }

  mutating func inlineTokens(
    _ scalars: UnsafeBufferPointer<Unicode.Scalar>, _ styleIndices: UnsafeBufferPointer<Int32>,
    mode: InlineMode, into tokens: inout [Token]
  ) {
    var links: [Target] = []
    var images: [Target] = []
    let pieces = pieces(scalars, styleIndices, mode: mode, links: &links, images: &images)
    // Where each kind of mark that holds on a piece stops holding (the
    // piece it ends before): five entries a piece, by `order(_:)`.
    let kinds = 5
    var ends = [Int32](repeating: 0, count: kinds * pieces.count)
    for index in stride(from: pieces.count - 1, through: 0, by: -1) {
      let marks = pieces[index].marks
      guard marks != .none else { continue }
      let next = index + 1 < pieces.count ? pieces[index + 1].marks : .none
      for (kind, mark) in [
        Mark.link(marks.link), .emphasis, .strong, .strikethrough, .image(marks.image),
      ].enumerated()
      where marks.contains(mark) {
        ends[kinds * index + kind] =
          next.contains(mark) ? ends[kinds * (index + 1) + kind] : Int32(index + 1)
      }
    }

    var stack: [Mark] = []
    var previousMarks = MarkSet.none
    var needsOrder = false
    for (number, piece) in pieces.enumerated() {
      let target = piece.marks
      if number == 0 || target != previousMarks || needsOrder {
        // The marks open from the outside in by where they stop, the
        // longest first: keep what already stands so, close the rest inside
        // out, open what is missing. Right after a line start nothing
        // closes (a closer there closes nothing): what starts there goes on
        // top, and the order is mended at the next piece.
        // Of two that stop together, one already open stays outside (so
        // that it is not closed and opened again); of two that open here,
        // `precedence` says.
        let wanted = target.marks.sorted { lhs, rhs in
          let left = ends[kinds * number + Self.order(lhs)]
          let right = ends[kinds * number + Self.order(rhs)]
          if left != right { return left > right }
          let lhsOpen = stack.contains(lhs)
          if lhsOpen != stack.contains(rhs) { return lhsOpen }
          return precedence(lhs) < precedence(rhs)
        }
        var kept = 0
        if case .lineEnd? = tokens.last {
          while kept < stack.count, target.contains(stack[kept]) { kept += 1 }
        } else {
          while kept < stack.count, kept < wanted.count, stack[kept] == wanted[kept] { kept += 1 }
        }
        for mark in stack[kept...].reversed() { tokens.append(.closer(mark)) }
        stack.removeSubrange(kept...)
        for mark in wanted where !stack.contains(mark) {
          tokens.append(.opener(mark))
          stack.append(mark)
        }
        needsOrder = stack != wanted
        previousMarks = target
      }
      switch piece.kind {
      case .lineBreak(let hard):
        tokens.append(.lineEnd(hard: hard))
      case .code:
        tokens.append(codeSpan(scalars[piece.start..<piece.end], inCell: mode == .cell))
      case .footnotes(let label, let count):
        // A colon right after a reference that starts a line would make
        // it a definition.
        let startsLine: Bool
        if let last = tokens.last, case .lineEnd = last {
          startsLine = true
        } else {
          startsLine = tokens.isEmpty
        }
        // And a parenthesis right after one, a link.
        if piece.end < scalars.count,
          scalars[piece.end] == "("
            || (startsLine && mode == .paragraph && scalars[piece.end] == ":")
        {
          overrides[piece.end] = Encoding.escaped.rawValue
        }
        let reference = Array("[^\(label)]".utf8)
        tokens.append(raw((0..<count).flatMap { _ in reference }))
      case .html:
        var lineStart = piece.start
        for index in piece.start..<piece.end where scalars[index] == "\n" {
          if lineStart < index { tokens.append(raw(utf8: scalars[lineStart..<index])) }
          tokens.append(.htmlLineEnd)
          lineStart = index + 1
        }
        if lineStart < piece.end { tokens.append(raw(utf8: scalars[lineStart..<piece.end])) }
      case .text:
        // An image without a description: the attachment character is
        // the image's, not text (unless the image has neither a
        // destination nor a title: `![]()` reads as nothing).
        if target.image >= 0, images[Int(target.image)] != Target(url: "", title: nil),
          scalars[piece.start..<piece.end].allSatisfy({ $0 == "\u{FFFC}" })
        {
          continue
        }
        tokens.append(.text(Int32(piece.start), Int32(piece.end), inLink: target.link >= 0))
      }
    }
    for mark in stack.reversed() { tokens.append(.closer(mark)) }
    zeroWidth.removeAll(keepingCapacity: true)
    zeroWidth.append(contentsOf: repeatElement(false, count: tokens.count + 1))
    insideLink.removeAll(keepingCapacity: true)
    insideLink.reserveCapacity(tokens.count + 1)
    // A delimiter next to a line end would neighbour whitespace, and
    // neither open (before a soft one) nor close (after either): the
    // zero-width inline between them is punctuation, and reads as nothing
    // (`_h` line end `[]()_`, `_h\` line end `[]()_`). Before a hard line
    // end's backslash, an opener needs nothing.
    for index in tokens.indices {
      guard case .lineEnd(let hard) = tokens[index] else { continue }
      if !hard, index > 0, case .opener(let mark) = tokens[index - 1], mark.isEmphasisLike {
        zeroWidth[index] = true
      }
      if index + 1 < tokens.count, case .closer(let mark) = tokens[index + 1],
        mark.isEmphasisLike
      {
        zeroWidth[index + 1] = true
      }
    }
    // Where the links are, before their closers become raw text.
    var openLinks = 0
    for index in tokens.indices {
      insideLink.append(openLinks > 0)
      if case .opener(.link) = tokens[index] { openLinks += 1 }
      if case .closer(.link(let link)) = tokens[index] {
        openLinks -= 1
        tokens[index] = raw(Self.linkEnd(links[Int(link)], inCell: mode == .cell))
      }
      if case .closer(.image(let image)) = tokens[index] {
        tokens[index] = raw(Self.linkEnd(images[Int(image)], inCell: mode == .cell))
      }
    }
    insideLink.append(openLinks > 0)
  }

  /// How many references to the footnote `label` the text `scalars` of a
  /// reference is: the label that many times (two references side by side
  /// make one run); nil if it is anything else (text typed into a
  /// reference, written as text), or the label is not one Markdown can
  /// write (a `|` in a table's cell would end it).
  static func footnoteCount(
    _ label: String, in scalars: Slice<UnsafeBufferPointer<Unicode.Scalar>>, inCell: Bool
  ) -> Int? {
    guard PresentationIntent.Kind.isFootnoteLabel(label), !(inCell && label.contains("|"))
    else { return nil }
    let labelScalars = Array(label.unicodeScalars)
    guard !scalars.isEmpty, scalars.count % labelScalars.count == 0 else { return nil }
    var index = scalars.startIndex
    while index < scalars.endIndex {
      guard scalars[index..<(index + labelScalars.count)].elementsEqual(labelScalars) else {
        return nil
      }
      index += labelScalars.count
    }
    return scalars.count / labelScalars.count
  }

  /// The scalars' UTF-8, kept in `rawBytes`, as a raw token.
  mutating func raw(utf8 scalars: Slice<UnsafeBufferPointer<Unicode.Scalar>>) -> Token {
    let start = Int32(rawBytes.count)
    for scalar in scalars { rawBytes.appendUTF8(scalar) }
    return .raw(start, Int32(rawBytes.count))
  }

  /// The marks' order when they stop at the same place: the first
  /// outermost. A link goes around the emphasis of its whole text
  /// (`[**a**](u)`, as people write it), emphasis around strong emphasis
  /// (`_**a**_`, as cmark-gfm reads `***a***`), an image inside them all.
  static func order(_ mark: Mark) -> Int {
    switch mark {
    case .link: 0
    case .emphasis: 1
    case .strong: 2
    case .strikethrough: 3
    case .image: 4
    }
  }

  /// Which of two marks that stop at the same place goes outside:
  /// `order(_:)`'s, or, in a file that writes emphasis around links
  /// (`*[a](u)*`: `_MarkdownStyle.linksInsideEmphasis`), emphasis, strong
  /// emphasis and strikethrough outside a link.
  func precedence(_ mark: Mark) -> Int {
    guard style.linksInsideEmphasis else { return Self.order(mark) }
    switch mark {
    case .emphasis: return 0
    case .strong: return 1
    case .strikethrough: return 2
    case .link: return 3
    case .image: return 4
    }
  }

  /// A link's or an image's destination and title.
  struct Target: Equatable {
    var url: String
    var title: String?
  }

  /// `](<url>)`, or `](<url> "title")`: the URL escaped for an
  /// angle-bracketed destination, the title for a quoted one (and both for
  /// a table cell).
  static func linkEnd(_ target: Target, inCell: Bool) -> [UInt8] {
    var bytes = Array("](<".utf8)
    let scalars = Array(target.url.unicodeScalars)
    for (index, scalar) in scalars.enumerated() {
      let atEdge = index == 0 || index == scalars.count - 1
      switch scalar {
      case _ where atEdge && [9, 11, 12, 32].contains(scalar.value):
        // A destination's edges are trimmed; a reference is not.
        bytes.append(contentsOf: "&#\(scalar.value);".utf8)
      case "\\", "<", ">":
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(scalar.value))
      case "|" where inCell:
        // A table splits its cells at every unescaped pipe, in a link too.
        bytes.append(contentsOf: "\\|".utf8)
      case "\n", "\r", "&":
        // A destination's backslash escapes and references are undone in
        // one pass: `\&amp;` would read as `&`.
        bytes.append(contentsOf: "&#\(scalar.value);".utf8)
      default:
        bytes.appendUTF8(scalar)
      }
    }
    bytes.append(UInt8(ascii: ">"))
    if let title = target.title {
      bytes.append(contentsOf: " \"".utf8)
      let titleScalars = Array(title.unicodeScalars)
      for (index, scalar) in titleScalars.enumerated() {
        switch scalar {
        case "\\":
          // (cmark-gfm's title scanner takes the longest match and a
          // backslash is a title character to it: `"a\\"` reads as `a\`
          // and an escaped quote that goes on to a later `"`, and the link
          // fails. So a backslash is written as a reference; but a title's
          // references are decoded before its backslash escapes are undone,
          // so before ASCII punctuation (another backslash, `&`, a quote)
          // `&#92;` would escape what follows and vanish: there it is
          // `&#92;&#92;`, which decodes to an escaped backslash.)
          let next = index + 1 < titleScalars.count ? titleScalars[index + 1] : nil
          if let next, Self.isASCIIPunctuation(next) {
            bytes.append(contentsOf: "&#92;&#92;".utf8)
          } else {
            bytes.append(contentsOf: "&#92;".utf8)
          }
        case "\"":
          bytes.append(UInt8(ascii: "\\"))
          bytes.append(UInt8(scalar.value))
        case "|" where inCell:
          bytes.append(contentsOf: "\\|".utf8)
        case "\n", "\r", "&":
          // (A title's line end would break the line's prefixes.)
          bytes.append(contentsOf: "&#\(scalar.value);".utf8)
        default:
          bytes.appendUTF8(scalar)
        }
      }
      bytes.append(UInt8(ascii: "\""))
    }
    bytes.append(UInt8(ascii: ")"))
    return bytes
  }

  /// A code span: backticks one run longer than none inside, spaces inside
  /// them where the content would lose its own (a line end can not be in
  /// one: it is written as a space).
  mutating func codeSpan(
    _ scalars: Slice<UnsafeBufferPointer<Unicode.Scalar>>, inCell: Bool
  ) -> Token {
    var content: [UInt8] = []
    var runs: Set<Int> = []
    var run = 0
    for scalar in scalars {
      if scalar == "`" {
        run += 1
      } else {
        if run > 0 { runs.insert(run) }
        run = 0
      }
      switch scalar {
      case "\n", "\r": content.append(UInt8(ascii: " "))
      case "|" where inCell: content.append(contentsOf: "\\|".utf8)
      default: content.appendUTF8(scalar)
      }
    }
    if run > 0 { runs.insert(run) }
    var length = 1
    while runs.contains(length) { length += 1 }
    let first = content.first
    let last = content.last
    let allSpaces = content.allSatisfy { $0 == UInt8(ascii: " ") }
    let pad =
      first == UInt8(ascii: "`") || last == UInt8(ascii: "`")
      || (first == UInt8(ascii: " ") && last == UInt8(ascii: " ") && !allSpaces)
    let fence = [UInt8](repeating: UInt8(ascii: "`"), count: length)
    var bytes = fence
    if pad { bytes.append(UInt8(ascii: " ")) }
    bytes.append(contentsOf: content)
    if pad { bytes.append(UInt8(ascii: " ")) }
    bytes.append(contentsOf: fence)
    return raw(bytes)
  }

  /// What a backslash escapes (cmark-gfm's `cmark_ispunct`).
  static func isASCIIPunctuation(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "!"..."/", ":"..."@", "["..."`", "{"..."~": true
    default: false
    }
  }

  static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9": true
    default: false
    }
  }

  static func isEmailLocal(_ scalar: Unicode.Scalar) -> Bool {
    isASCIIAlphanumeric(scalar) || scalar == "." || scalar == "+" || scalar == "-" || scalar == "_"
  }

  // MARK: - Flanking and line edges

  /// How a scalar of text is written when nothing forces it: escaped
  /// (`\*`) where Markdown would read it as markup anywhere in a line,
  /// as a reference where it can not be written as itself, else plain (the
  /// starts and ends of lines are fixed in `fixLine`). The `@` of an
  /// address gets an empty link before it (in `render`).
  static func automaticEncoding(
    at index: Int, of scalars: UnsafeBufferPointer<Unicode.Scalar>
  ) -> Encoding? {
    let scalar = scalars[index]
    switch scalar {
    case "\\", "`", "*", "_", "~", "[", "]", "<", "&", "|":
      return .escaped
    case "\n", "\r", "\0", "\u{FEFF}":
      // A U+FEFF first in a file is dropped as a byte order mark.
      return .reference
    case ":":
      // `://` would make a bare URL a link (cmark-gfm's autolinks).
      let slashes =
        index + 2 < scalars.count && scalars[index + 1] == "/" && scalars[index + 2] == "/"
      return slashes ? .escaped : nil
    case ".":
      let www = index >= 3 && scalars[(index - 3)..<index].allSatisfy { $0 == "w" || $0 == "W" }
      return www ? .escaped : nil
    default:
      return nil
    }
  }

  /// What the scalar of text at `index` is written as, by the flanking
  /// rules' classes.
  func characterClass(
    ofText index: Int, _ scalars: UnsafeBufferPointer<Unicode.Scalar>
  ) -> CharacterClass {
    if overrides[index] != 0 || Self.automaticEncoding(at: index, of: scalars) != nil {
      return .punctuation
    }
    let scalar = scalars[index]
    if scalar == " " || scalar == "\t" { return .whitespace }
    if scalar.isASCII {
      if Self.isASCIIAlphanumeric(scalar) { return .other }
      if scalar.value < 0x20 || scalar.value == 0x7F { return .unknown }
      return .punctuation
    }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      return .other
    default:
      return .unknown
    }
  }

  /// Makes every delimiter open or close as meant: an opener follows
  /// whitespace or punctuation and comes before something not whitespace;
  /// a closer the other way round. A character in the way is written as a
  /// character reference (punctuation at both ends).
  ///
  /// cmark-gfm's strikethrough makes `~` transparent to these rules (a
  /// delimiter's neighbour is the first character past any `~`), so the
  /// neighbours looked at are past any strikethrough delimiter.
  mutating func fixFlanking(_ tokens: inout [Token], _ scalars: UnsafeBufferPointer<Unicode.Scalar>)
  {
    func isTilde(_ token: Token) -> Bool {
      switch token {
      case .opener(.strikethrough), .closer(.strikethrough): true
      default: false
      }
    }
    /// The scalar next to a delimiter, past any `~~`: the class of what is
    /// written there, and the scalar's index if it is text (nil for a
    /// raw token, another delimiter or a line's edge).
    func neighbour(of index: Int, step: Int) -> (CharacterClass, Int?) {
      var next = index + step
      while next >= 0, next < tokens.count, isTilde(tokens[next]) { next += step }
      guard next >= 0, next < tokens.count else { return (.whitespace, nil) }
      switch tokens[next] {
      case .text(let start, let end, _):
        let scalar = Int(step > 0 ? start : end - 1)
        return (characterClass(ofText: scalar, scalars), scalar)
      case .lineEnd(let hard):
        // A hard break's backslash comes first; a line starts after it.
        return (hard && step > 0 ? .punctuation : .whitespace, nil)
      case .htmlLineEnd: return (.whitespace, nil)
      default: return (.punctuation, nil)
      }
    }
    for index in tokens.indices {
      switch tokens[index] {
      case .opener(let mark) where mark.isEmphasisLike:
        let (nextClass, next) = neighbour(of: index, step: 1)
        if let next, nextClass == .whitespace || nextClass == .unknown {
          overrides[next] = Encoding.reference.rawValue
        }
        let (previousClass, previous) = neighbour(of: index, step: -1)
        if let previous, previousClass == .other || previousClass == .unknown {
          overrides[previous] = Encoding.reference.rawValue
        }
      case .closer(let mark) where mark.isEmphasisLike:
        let (previousClass, previous) = neighbour(of: index, step: -1)
        if let previous, previousClass == .whitespace || previousClass == .unknown {
          overrides[previous] = Encoding.reference.rawValue
        }
        let (nextClass, next) = neighbour(of: index, step: 1)
        if let next, nextClass == .other || nextClass == .unknown {
          overrides[next] = Encoding.reference.rawValue
        }
      default:
        continue
      }
    }
  }

  /// Spaces and tabs at either end of a line become references (Markdown
  /// strips them), and in a paragraph what would start a block at the start
  /// of a line is escaped, or gets the zero-width inline before it; an ATX
  /// header's closing `#` is escaped.
  mutating func fixLineEdges(
    _ tokens: [Token], _ scalars: UnsafeBufferPointer<Unicode.Scalar>, mode: InlineMode
  ) {
    if mode == .paragraph {
      markLineStarts(tokens, scalars)
    }
    var lineStart = 0
    for index in 0...tokens.count {
      if index < tokens.count, tokens[index].isLineEnd {
      } else if index < tokens.count {
        continue
      }
      fixLine(tokens, lineStart..<index, scalars, mode: mode)
      lineStart = index + 1
    }
  }

  /// Where a paragraph's line would start a block or end the paragraph,
  /// the zero-width inline goes first (in `zeroWidth`):
  /// - before a paragraph that starts with a link whose text has a `]` in
  ///   code, HTML or a zero-width inline, which could read as a link
  ///   reference definition (`[a`]: b`](c)`);
  /// - before a line with nothing on it (it would end the paragraph), the
  ///   first line and the last included;
  /// - before HTML first on a line (it could start an HTML block: a
  ///   paragraph cut from another at a line break, or a tag that was
  ///   indented, or on a lazy line, where it was read).
  mutating func markLineStarts(
    _ tokens: [Token], _ scalars: UnsafeBufferPointer<Unicode.Scalar>
  ) {
    guard !tokens.isEmpty else { return }
    if case .opener(.link) = tokens[0] {
      for index in tokens.indices.dropFirst() {
        if zeroWidth[index] {
          zeroWidth[0] = true
          break
        }
        guard case .raw(let start, let end) = tokens[index] else { continue }
        let bytes = rawBytes[Int(start)..<Int(end)]
        if bytes.first == UInt8(ascii: "]") { break }
        if bytes.contains(UInt8(ascii: "]")) {
          zeroWidth[0] = true
          break
        }
      }
    }
    for index in tokens.indices.dropFirst() {
      if case .lineEnd = tokens[index - 1], startsBlock(tokens, at: index, scalars) {
        zeroWidth[index] = true
      }
    }
    if case .lineEnd = tokens[tokens.count - 1] {
      zeroWidth[tokens.count] = true
    }
    if !zeroWidth[0], startsBlock(tokens, at: 0, scalars) {
      zeroWidth[0] = true
    }
  }

  /// Whether the token at `index`, first on a paragraph's line, would end
  /// the paragraph (a line end: the line is empty) or could start an HTML
  /// block: HTML that starts one of CommonMark's kinds 1 to 6, or a whole
  /// tag with nothing after it on the line (kind 7). HTML that starts no
  /// block needs nothing before it (`<b>bold</b> text`).
  func startsBlock(
    _ tokens: [Token], at index: Int, _ scalars: UnsafeBufferPointer<Unicode.Scalar>
  ) -> Bool {
    switch tokens[index] {
    case .lineEnd: return true
    case .raw(let start, let end):
      guard start < end, rawBytes[Int(start)] == UInt8(ascii: "<") else { return false }
      let html = Array(
        String(decoding: rawBytes[Int(start)..<Int(end)], as: UTF8.self).unicodeScalars)
      let kind = Self.htmlBlockKind(html[...])
      if kind.interrupts { return true }
      guard kind.starts else { return false }
      // Kind 7: only if nothing but spaces and tabs follows on the line.
      var next = index + 1
      while next < tokens.count {
        switch tokens[next] {
        case .lineEnd, .htmlLineEnd: return true
        case .text(let from, let to, _)
        where scalars[Int(from)..<Int(to)].allSatisfy({ $0 == " " || $0 == "\t" }):
          next += 1
        default: return false
        }
      }
      return true
    default: return false
    }
  }

  mutating func fixLine(
    _ tokens: [Token], _ line: Range<Int>, _ scalars: UnsafeBufferPointer<Unicode.Scalar>,
    mode: InlineMode
  ) {
    guard !line.isEmpty else { return }
    if case .text(let start, let end, _) = tokens[line.lowerBound],
      overrides[Int(start)] == 0
    {
      let first = Int(start)
      switch scalars[first] {
      case " ", "\t", "\u{0B}", "\u{0C}":
        overrides[first] = Encoding.reference.rawValue
      case "#" where mode == .paragraph, ">" where mode == .paragraph,
        "-" where mode == .paragraph, "+" where mode == .paragraph, "=" where mode == .paragraph,
        ":" where mode == .paragraph:
        overrides[first] = Encoding.escaped.rawValue
      case "0"..."9" where mode == .paragraph:
        var next = first + 1
        while next < Int(end), case "0"..."9" = scalars[next], overrides[next] == 0 { next += 1 }
        if next < Int(end), scalars[next] == "." || scalars[next] == ")", overrides[next] == 0 {
          overrides[next] = Encoding.escaped.rawValue
        }
      default:
        break
      }
    }
    if case .text(_, let end, _) = tokens[line.upperBound - 1], overrides[Int(end) - 1] == 0 {
      let last = Int(end) - 1
      switch scalars[last] {
      case " ", "\t", "\u{0B}", "\u{0C}":
        overrides[last] = Encoding.reference.rawValue
      case "#" where mode == .heading:
        overrides[last] = Encoding.escaped.rawValue
      default:
        break
      }
    }
  }

  // MARK: - Rendering

  /// Writes the tokens: as lines of their own (`wholeLines`), or their
  /// first line into the line being written; the zero-width inline where
  /// `zeroWidth` says.
  mutating func render(
    _ tokens: [Token], _ scalars: UnsafeBufferPointer<Unicode.Scalar>, wholeLines: Bool
  ) {
    if wholeLines { beginLine() }
    for (number, token) in tokens.enumerated() {
      if zeroWidth[number] { writeZeroWidth(insideLink: insideLink[number]) }
      switch token {
      case .text(let start, let end, let inLink):
        for index in Int(start)..<Int(end) {
          let scalar = scalars[index]
          var encoding = Encoding(rawValue: overrides[index]) ?? .automatic
          if encoding == .automatic {
            encoding = Self.automaticEncoding(at: index, of: scalars) ?? .automatic
          }
          if encoding == .automatic, scalar == "!", index == Int(end) - 1,
            number + 1 < tokens.count, !zeroWidth[number + 1],
            case .opener(.link) = tokens[number + 1]
          {
            // A link right after it would be an image.
            encoding = .escaped
          }
          switch encoding {
          case .automatic:
            if scalar == "@", !inLink, index > 0, index + 1 < scalars.count,
              Self.isEmailLocal(scalars[index - 1]),
              Self.isEmailLocal(scalars[index + 1]) || scalars[index + 1] == "@"
            {
              // cmark-gfm links an address in a text (`a@b.co`) after
              // reading it, escapes undone: only a node between its halves
              // stops it.
              writeZeroWidth(insideLink: false)
            }
            if scalar.isASCII {
              output.append(UInt8(truncatingIfNeeded: scalar.value))
            } else {
              output.appendUTF8(scalar)
            }
          case .escaped:
            output.append(UInt8(ascii: "\\"))
            output.appendUTF8(scalar)
          case .reference:
            output.append(contentsOf: "&#\(scalar.value);".utf8)
          }
        }
      case .raw(let start, let end):
        output.append(contentsOf: rawBytes[Int(start)..<Int(end)])
      case .opener(let mark), .closer(let mark):
        mark.appendDelimiter(to: &output)
      case .htmlLineEnd:
        guard wholeLines else { return }
        // The next line of a tag over two lines, indented by four spaces:
        // so it starts no block (a list item, a quote), and a paragraph's
        // line loses its indentation before the tag is read. A next line
        // that has spaces of its own before a letter kept them because it
        // was a lazy line (without its containers' prefixes: the only line
        // of a paragraph whose indentation cmark-gfm keeps), and is written
        // so again.
        endLine()
        if number + 1 < tokens.count, !zeroWidth[number + 1],
          case .raw(let start, let end) = tokens[number + 1],
          Self.keepsItsIndentation(rawBytes[Int(start)..<Int(end)])
        {
          beginLine(.lazy)
        } else {
          beginLine()
          output.append(contentsOf: "    ".utf8)
        }
      case .lineEnd(let hard):
        if hard { output.append(UInt8(ascii: "\\")) }
        guard wholeLines else { return }
        endLine()
        beginLine()
      }
    }
    if zeroWidth[tokens.count] { writeZeroWidth(insideLink: insideLink[tokens.count]) }
    if wholeLines { endLine() }
  }

  /// Writes the zero-width inline: an empty link `[]()`, or inside a link
  /// (where no link can be) an empty image `![]()`; each reads as nothing,
  /// and is punctuation to the delimiters beside it. It stands where the
  /// reader must find something that is not text: the writer's one way to
  /// say "nothing here", spelled by this one rule.
  mutating func writeZeroWidth(insideLink: Bool) {
    output.append(contentsOf: (insideLink ? "![]()" : "[]()").utf8)
  }
}

extension _MarkdownWriter {
  /// Whether a tag's next line starts with spaces or tabs and then
  /// something no block starts with (a letter, any scalar not ASCII, a
  /// digit that is not a list item's number, or punctuation no block
  /// marker uses): written as a lazy line, it starts no block and keeps
  /// them.
  static func keepsItsIndentation(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"),
      let at = bytes.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") })
    else { return false }
    let text = bytes[at]
    // No block starts with a letter, nor with anything not ASCII.
    if text >= 0x80 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(text | 0x20) {
      return true
    }
    if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text) {
      // A number then `.` or `)` starts a list item.
      let after = bytes[at...].first { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
      return after != UInt8(ascii: ".") && after != UInt8(ascii: ")")
    }
    return Self.startsNoBlock.contains(text)
  }

  /// Punctuation no block marker (quote, list item, heading, fence,
  /// thematic break, setext underline, table row, HTML) starts with.
  static let startsNoBlock: Set<UInt8> = Set("\"'/(){},;?!@$%^&.".utf8)
}

extension _MarkdownWriter.Token {
  /// Whether the token ends a written line.
  var isLineEnd: Bool {
    switch self {
    case .lineEnd, .htmlLineEnd: true
    default: false
    }
  }
}

extension [UInt8] {
  /// Appends the scalar's UTF-8 bytes.
  mutating func appendUTF8(_ scalar: Unicode.Scalar) {
    UTF8.encode(scalar) { append($0) }
  }

  /// The scalar's UTF-8 bytes.
  init(utf8Of scalar: Unicode.Scalar) {
    self.init()
    appendUTF8(scalar)
  }
}
