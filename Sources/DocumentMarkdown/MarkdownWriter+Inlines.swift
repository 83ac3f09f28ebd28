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

  /// How a character is written.
  enum Encoding {
    case plain
    case escaped
    case reference
  }

  /// A mark that spans inline text.
  enum Mark: Hashable {
    case strong
    case emphasis
    case strikethrough
    case link(Int32)

    /// The mark's bit in a `MarkSet` (none for a link).
    var bit: UInt8 {
      switch self {
      case .strong: 1
      case .emphasis: 2
      case .strikethrough: 4
      case .link: 0
      }
    }

    var delimiter: [UInt8] {
      switch self {
      case .strong: Array("**".utf8)
      case .emphasis: Array("_".utf8)
      case .strikethrough: Array("~~".utf8)
      case .link: Array("[".utf8)
      }
    }
  }

  /// One piece of a written line.
  enum Token {
    case character(Unicode.Scalar, Encoding)
    /// Code spans, HTML, a link's end, an empty link: written as they are;
    /// they start and end with punctuation.
    case raw([UInt8])
    case opener(Mark)
    case closer(Mark)
    case lineEnd(hard: Bool)
  }

  /// The leaf's inline text as lines of Markdown.
  mutating func inlineLines(_ leaf: Leaf, mode: InlineMode) -> [[UInt8]] {
    var tokens = inlineTokens(leaf, mode: mode)
    fixFlanking(&tokens)
    fixLineEdges(&tokens, mode: mode)
    return render(tokens)
  }

  // MARK: - Tokens

  /// The marks on one scalar: strong, emphasis and strikethrough as bits
  /// (by `Mark.bit`), and the link's index or -1.
  struct MarkSet: Equatable {
    var bits: UInt8
    var link: Int32

    func contains(_ mark: Mark) -> Bool {
      if case .link(let index) = mark { return link == index }
      return bits & mark.bit != 0
    }

    func intersection(_ other: MarkSet) -> MarkSet {
      MarkSet(bits: bits & other.bits, link: link == other.link ? link : -1)
    }

    /// The marks, in no particular order.
    var marks: [Mark] {
      var result: [Mark] = []
      if bits & Mark.strong.bit != 0 { result.append(.strong) }
      if bits & Mark.emphasis.bit != 0 { result.append(.emphasis) }
      if bits & Mark.strikethrough.bit != 0 { result.append(.strikethrough) }
      if link >= 0 { result.append(.link(link)) }
      return result
    }
  }

  func markSet(of style: Style, link: Int32) -> MarkSet {
    var bits: UInt8 = 0
    if style.inline & InlinePresentationIntent.stronglyEmphasized.rawValue != 0 {
      bits |= Mark.strong.bit
    }
    if style.inline & InlinePresentationIntent.emphasized.rawValue != 0 {
      bits |= Mark.emphasis.bit
    }
    if style.inline & InlinePresentationIntent.strikethrough.rawValue != 0 {
      bits |= Mark.strikethrough.bit
    }
    return MarkSet(bits: bits, link: link)
  }

  mutating func inlineTokens(_ leaf: Leaf, mode: InlineMode) -> [Token] {
    let scalars = Array(leaf.scalars)
    let styleIndices = Array(leaf.styles)
    let count = scalars.count
    // Each scalar's marks; a line break takes those its neighbours share,
    // so that no delimiter stands next to a line end.
    var urls: [String] = []
    var marksOf: [MarkSet] = []
    marksOf.reserveCapacity(count)
    var isBreak: [Bool] = []
    isBreak.reserveCapacity(count)
    var anyBreak = false
    for index in 0..<count {
      let style = styles[Int(styleIndices[index])]
      var link: Int32 = -1
      if let url = style.link {
        if index > 0, styleIndices[index - 1] == styleIndices[index] {
          link = marksOf[index - 1].link
        } else if let known = urls.lastIndex(of: url), known == urls.count - 1 {
          link = Int32(known)
        } else {
          urls.append(url)
          link = Int32(urls.count - 1)
        }
      }
      marksOf.append(markSet(of: style, link: link))
      let breaking =
        mode == .paragraph
        && ((scalars[index] == " "
          && style.inline & InlinePresentationIntent.softBreak.rawValue != 0)
          || (scalars[index] == "\u{2028}"
            && style.inline & InlinePresentationIntent.lineBreak.rawValue != 0))
      isBreak.append(breaking)
      anyBreak = anyBreak || breaking
    }
    if anyBreak {
      var before = MarkSet(bits: 0, link: -1)
      var previousKept = -1
      for index in 0..<count {
        if !isBreak[index] {
          previousKept = index
          continue
        }
        before = previousKept >= 0 ? marksOf[previousKept] : MarkSet(bits: 0, link: -1)
        var next = index + 1
        while next < count, isBreak[next] { next += 1 }
        let after = next < count ? marksOf[next] : MarkSet(bits: 0, link: -1)
        marksOf[index] = marksOf[index].intersection(before).intersection(after)
      }
    }
    // Where each kind of mark that holds at a scalar stops holding.
    var ends = [[Int32]](repeating: [Int32](repeating: 0, count: count), count: 4)
    if count > 0 {
      for index in stride(from: count - 1, through: 0, by: -1) {
        for (kind, mark) in [Mark.strong, .emphasis, .strikethrough, .link(marksOf[index].link)]
          .enumerated()
        where marksOf[index].contains(mark) {
          let continues = index + 1 < count && marksOf[index + 1].contains(mark)
          ends[kind][index] = continues ? ends[kind][index + 1] : Int32(index + 1)
        }
      }
    }

    var tokens: [Token] = []
    tokens.reserveCapacity(count + 8)
    var stack: [Mark] = []
    var index = 0
    var previousMarks = MarkSet(bits: 0, link: -1)
    var needsOrder = false
    while index < count {
      let target = marksOf[index]
      if index == 0 || target != previousMarks || needsOrder {
        // The marks open from the outside in by where they stop, the
        // longest first: keep what already stands so, close the rest inside
        // out, open what is missing. Right after a line start nothing
        // closes (a closer there closes nothing): what starts there goes on
        // top, and the order is mended at the next scalar.
        let wanted = target.marks.sorted { lhs, rhs in
          let left = ends[Self.order(lhs)][index]
          let right = ends[Self.order(rhs)][index]
          if left != right { return left > right }
          return Self.order(lhs) < Self.order(rhs)
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
          if case .link = mark, case .character("!", .plain)? = tokens.last {
            tokens[tokens.count - 1] = .character("!", .escaped)
          }
          tokens.append(.opener(mark))
          stack.append(mark)
        }
        needsOrder = stack != wanted
        previousMarks = target
      }
      let inline = styles[Int(styleIndices[index])].inline
      if isBreak[index] {
        tokens.append(.lineEnd(hard: scalars[index] == "\u{2028}"))
        index += 1
      } else if inline & InlinePresentationIntent.code.rawValue != 0 {
        var end = index + 1
        while end < count, styleIndices[end] == styleIndices[index], !isBreak[end] { end += 1 }
        tokens.append(.raw(codeSpan(scalars[index..<end], inCell: mode == .cell)))
        index = end
      } else if inline
        & (InlinePresentationIntent.inlineHTML.rawValue
          | InlinePresentationIntent.blockHTML.rawValue)
        != 0
      {
        var end = index + 1
        while end < count, styleIndices[end] == styleIndices[index], !isBreak[end] { end += 1 }
        for scalar in scalars[index..<end] {
          if scalar == "\n" {
            tokens.append(.lineEnd(hard: false))
          } else {
            tokens.append(.raw([UInt8](utf8Of: scalar)))
          }
        }
        index = end
      } else {
        appendCharacter(at: index, of: scalars, inLink: target.link >= 0, to: &tokens)
        index += 1
      }
    }
    for mark in stack.reversed() { tokens.append(.closer(mark)) }
    return tokens.map { token in
      if case .closer(.link(let link)) = token {
        return .raw(Self.linkEnd(urls[Int(link)], inCell: mode == .cell))
      }
      return token
    }
  }

  static func order(_ mark: Mark) -> Int {
    switch mark {
    case .strong: 0
    case .emphasis: 1
    case .strikethrough: 2
    case .link: 3
    }
  }

  /// `](<url>)`, the URL escaped for an angle-bracketed destination (and
  /// for a table cell).
  static func linkEnd(_ url: String, inCell: Bool) -> [UInt8] {
    var bytes = Array("](<".utf8)
    let scalars = Array(url.unicodeScalars)
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
    bytes.append(contentsOf: ">)".utf8)
    return bytes
  }

  /// A code span: backticks one run longer than none inside, spaces inside
  /// them where the content would lose its own (a line end can not be in
  /// one: it is written as a space).
  func codeSpan(_ scalars: ArraySlice<Unicode.Scalar>, inCell: Bool) -> [UInt8] {
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
    return bytes
  }

  /// A character, escaped where Markdown would read it as markup anywhere
  /// in a line (the starts and ends of lines are fixed later).
  func appendCharacter(
    at index: Int, of scalars: [Unicode.Scalar], inLink: Bool, to tokens: inout [Token]
  ) {
    let scalar = scalars[index]
    switch scalar {
    case "\\", "`", "*", "_", "~", "[", "]", "<", "&", "|":
      tokens.append(.character(scalar, .escaped))
    case "\n", "\r", "\0", "\u{FEFF}":
      // A U+FEFF first in a file is dropped as a byte order mark.
      tokens.append(.character(scalar, .reference))
    case ":":
      let slashes =
        index + 2 < scalars.count && scalars[index + 1] == "/" && scalars[index + 2] == "/"
      tokens.append(.character(scalar, slashes ? .escaped : .plain))
    case ".":
      let www =
        index >= 3 && scalars[(index - 3)..<index].allSatisfy { $0 == "w" || $0 == "W" }
      tokens.append(.character(scalar, www ? .escaped : .plain))
    case "@":
      // cmark-gfm links an address in a text (`a@b.co`) after reading
      // it, escapes undone: only a node between its halves stops it.
      if !inLink, index > 0, index + 1 < scalars.count, Self.isEmailLocal(scalars[index - 1]),
        Self.isEmailLocal(scalars[index + 1]) || scalars[index + 1] == "@"
      {
        tokens.append(.raw(Array("[]()".utf8)))
      }
      tokens.append(.character(scalar, .plain))
    default:
      tokens.append(.character(scalar, .plain))
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

  static func characterClass(_ token: Token) -> CharacterClass {
    switch token {
    case .character(let scalar, .plain):
      if scalar == " " || scalar == "\t" { return .whitespace }
      if scalar.isASCII {
        if isASCIIAlphanumeric(scalar) { return .other }
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
    case .character: return .punctuation
    case .raw, .opener, .closer: return .punctuation
    case .lineEnd: return .whitespace
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
  func fixFlanking(_ tokens: inout [Token]) {
    func reference(_ index: Int?) {
      guard let index, case .character(let scalar, _) = tokens[index] else { return }
      tokens[index] = .character(scalar, .reference)
    }
    func isTilde(_ token: Token) -> Bool {
      switch token {
      case .opener(.strikethrough), .closer(.strikethrough): true
      default: false
      }
    }
    /// The neighbour past any `~~`, or nil at the paragraph's edge.
    func neighbour(of index: Int, step: Int) -> Int? {
      var next = index + step
      while next >= 0, next < tokens.count, isTilde(tokens[next]) { next += step }
      return next >= 0 && next < tokens.count ? next : nil
    }
    func characterClass(_ index: Int?) -> CharacterClass {
      guard let index else { return .whitespace }
      return Self.characterClass(tokens[index])
    }
    for index in tokens.indices {
      switch tokens[index] {
      case .opener(let mark) where mark.isEmphasisLike:
        let next = neighbour(of: index, step: 1)
        let nextClass = characterClass(next)
        if nextClass == .whitespace || nextClass == .unknown { reference(next) }
        let previous = neighbour(of: index, step: -1)
        let previousClass = characterClass(previous)
        if previousClass == .other || previousClass == .unknown { reference(previous) }
      case .closer(let mark) where mark.isEmphasisLike:
        let previous = neighbour(of: index, step: -1)
        let previousClass = characterClass(previous)
        if previousClass == .whitespace || previousClass == .unknown { reference(previous) }
        let next = neighbour(of: index, step: 1)
        let nextClass = characterClass(next)
        if nextClass == .other || nextClass == .unknown { reference(next) }
      default:
        continue
      }
    }
  }

  /// Spaces and tabs at either end of a line become references (Markdown
  /// strips them), and in a paragraph what would start a block at the start
  /// of a line is escaped; an ATX header's closing `#` too.
  func fixLineEdges(_ tokens: inout [Token], mode: InlineMode) {
    // A paragraph that starts with a link whose text has a `]` in code or
    // HTML could read as a link reference definition (`[a`]: b`](c)`): an
    // empty link first makes it a paragraph.
    if mode == .paragraph, case .opener(.link)? = tokens.first {
      for token in tokens.dropFirst() {
        guard case .raw(let bytes) = token else { continue }
        if bytes.first == UInt8(ascii: "]") { break }
        if bytes.contains(UInt8(ascii: "]")) {
          tokens.insert(.raw(Array("[]()".utf8)), at: 0)
          break
        }
      }
    }
    var lineStart = 0
    var index = 0
    while index <= tokens.count {
      let atEnd: Bool
      if index == tokens.count {
        atEnd = true
      } else if case .lineEnd = tokens[index] {
        atEnd = true
      } else {
        atEnd = false
      }
      if atEnd {
        fixLine(&tokens, lineStart..<index, mode: mode)
        lineStart = index + 1
      }
      index += 1
    }
  }

  func fixLine(_ tokens: inout [Token], _ line: Range<Int>, mode: InlineMode) {
    guard !line.isEmpty else { return }
    if case .character(let scalar, .plain) = tokens[line.lowerBound] {
      switch scalar {
      case " ", "\t", "\u{0B}", "\u{0C}":
        tokens[line.lowerBound] = .character(scalar, .reference)
      case "#" where mode == .paragraph, ">" where mode == .paragraph,
        "-" where mode == .paragraph, "+" where mode == .paragraph, "=" where mode == .paragraph,
        ":" where mode == .paragraph:
        tokens[line.lowerBound] = .character(scalar, .escaped)
      case "0"..."9" where mode == .paragraph:
        var next = line.lowerBound + 1
        while next < line.upperBound, case .character("0"..."9", .plain) = tokens[next] {
          next += 1
        }
        if next < line.upperBound, case .character(let mark, .plain) = tokens[next],
          mark == "." || mark == ")"
        {
          tokens[next] = .character(mark, .escaped)
        }
      default:
        break
      }
    }
    let last = line.upperBound - 1
    if case .character(let scalar, .plain) = tokens[last] {
      if scalar == " " || scalar == "\t" || scalar == "\u{0B}" || scalar == "\u{0C}" {
        tokens[last] = .character(scalar, .reference)
      } else if scalar == "#", mode == .heading {
        tokens[last] = .character(scalar, .escaped)
      }
    }
  }

  // MARK: - Rendering

  func render(_ tokens: [Token]) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var line: [UInt8] = []
    for token in tokens {
      switch token {
      case .character(let scalar, .plain):
        line.appendUTF8(scalar)
      case .character(let scalar, .escaped):
        line.append(UInt8(ascii: "\\"))
        line.appendUTF8(scalar)
      case .character(let scalar, .reference):
        line.append(contentsOf: "&#\(scalar.value);".utf8)
      case .raw(let bytes):
        line.append(contentsOf: bytes)
      case .opener(let mark), .closer(let mark):
        line.append(contentsOf: mark.delimiter)
      case .lineEnd(let hard):
        if hard { line.append(UInt8(ascii: "\\")) }
        lines.append(line)
        line = []
      }
    }
    lines.append(line)
    return lines
  }
}

extension _MarkdownWriter.Mark {
  /// Whether the mark is written with emphasis-like delimiters (flanking
  /// rules apply), not as a link.
  var isEmphasisLike: Bool {
    if case .link = self { return false }
    return true
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
