import DocumentEngine
import DocumentMarkdown
import Testing
import _EngineTestSupport

/// Random documents built as blocks and inlines, turned into attributed text
/// by the rules of *Markdown* in docs/DESIGN.md (written out here, apart from
/// the reader), full of the characters Markdown reads as markup: written as
/// Markdown and read back, each must give exactly the same text and
/// attributes.
@Suite struct MarkdownRoundTripTests {
  /// One piece of inline text with its inline intents and link.
  struct Inline {
    var text: String
    var bits: Int
    var link: String?
    /// A footnote reference's label (the text is the label).
    var footnote: String? = nil
  }

  indirect enum Block {
    case paragraph([Inline])
    case header(Int, [Inline])
    case code(String?, String)
    case rule
    case quote([Block])
    case list(ordered: Bool, start: Int, loose: Bool, items: [[Block]])
    case table([PresentationIntent.ColumnAlignment], header: [[Inline]], rows: [[[Inline]]])
    /// A footnote's definition (only at the top).
    case footnote(String, [Block])
  }

  static let alphabet: [String] = [
    "a", "b", "Z", "1", "9", " ", " ", "\t", "*", "_", "~", "`", "[", "]", "<", ">", "&", "|",
    "#", "-", "+", "=", ".", ")", "(", "!", ":", "/", "@", "\\", "www.", "http://", "a@b.co",
    "é", "e\u{301}", "😀", "🇫🇷", "👩‍👩‍👧", "\u{00A0}", "\u{2028}", "&amp;", "\"", "'", "1.", "$",
    "x_y", "**", "```", "~~~", "![", "<b>", "&#10;",
  ]
  static let urls = [
    "https://example.com/a", "a b", "<x>", "\\", "&amp;", " lead", "trail ", "é😀", "", "(p)",
    "mailto:a@b.co",
  ]
  static let languages: [String?] = [nil, "swift", "c++", "a b", "x`y", "&amp", "é"]

  static let emphasis = InlinePresentationIntent.emphasized.rawValue
  static let strong = InlinePresentationIntent.stronglyEmphasized.rawValue
  static let strike = InlinePresentationIntent.strikethrough.rawValue
  static let code = InlinePresentationIntent.code.rawValue
  static let softBreak = InlinePresentationIntent.softBreak.rawValue
  static let lineBreak = InlinePresentationIntent.lineBreak.rawValue

  // MARK: - The generator

  static func text(_ rng: inout SeededRandom, upTo count: Int) -> String {
    (0..<Int.random(in: 1...count, using: &rng)).map { _ in
      alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]
    }.joined()
  }

  /// Inline pieces; with breaks, soft and hard line breaks between them
  /// (never first, last or two in a row), each with some of the marks its
  /// neighbours share.
  static func inlines(_ rng: inout SeededRandom, breaks: Bool) -> [Inline] {
    var pieces: [Inline] = []
    for index in 0..<Int.random(in: 1...5, using: &rng) {
      var bits = 0
      if Int.random(in: 0..<3, using: &rng) == 0 { bits |= emphasis }
      if Int.random(in: 0..<3, using: &rng) == 0 { bits |= strong }
      if Int.random(in: 0..<5, using: &rng) == 0 { bits |= strike }
      var link: String?
      if Int.random(in: 0..<5, using: &rng) == 0 {
        link = urls[Int.random(in: 0..<urls.count, using: &rng)]
      }
      var text = Self.text(&rng, upTo: 4)
      if Int.random(in: 0..<5, using: &rng) == 0 {
        bits |= code
        text = text.replacingAll(of: "&#10;", with: "x")
      }
      if breaks, index > 0, Int.random(in: 0..<4, using: &rng) == 0 {
        // A break inside marks only where the pieces on both sides have
        // the same: a mark that ended at a break while another that began
        // on a one-character line went on could not be written at all.
        let previous = pieces[pieces.count - 1]
        let spans = emphasis | strong | strike
        let same = previous.bits & spans == bits & spans && previous.link == link
        let inside = same && Bool.random(using: &rng)
        let hard = Bool.random(using: &rng)
        pieces.append(
          Inline(
            text: hard ? "\u{2028}" : " ",
            bits: (inside ? bits & spans : 0) | (hard ? lineBreak : softBreak),
            link: inside ? link : nil))
      }
      pieces.append(Inline(text: text, bits: bits, link: link))
    }
    return pieces
  }

  static func block(_ rng: inout SeededRandom, depth: Int) -> Block {
    switch Int.random(in: 0..<(depth < 3 ? 10 : 6), using: &rng) {
    case 0, 1:
      if Int.random(in: 0..<12, using: &rng) == 0 { return .paragraph([]) }
      return .paragraph(inlines(&rng, breaks: true))
    case 2:
      let level = Int.random(in: 1...6, using: &rng)
      if Int.random(in: 0..<10, using: &rng) == 0 { return .header(level, []) }
      return .header(level, inlines(&rng, breaks: level <= 2))
    case 3:
      var lines: [String] = []
      for _ in 0..<Int.random(in: 0...3, using: &rng) {
        lines.append(Bool.random(using: &rng) ? "" : text(&rng, upTo: 5))
      }
      var body = lines.joined(separator: "\n")
      // Exactly one LF is what an empty code block at the end reads as.
      if body == "\n" { body = "\n\n" }
      return .code(languages[Int.random(in: 0..<languages.count, using: &rng)], body)
    case 4:
      return .rule
    case 5:
      let columns = Int.random(in: 1...3, using: &rng)
      let alignments = (0..<columns).map { _ in
        PresentationIntent.ColumnAlignment.allCases[Int.random(in: 0..<3, using: &rng)]
      }
      func row() -> [[Inline]] {
        (0..<columns).map { _ in
          Int.random(in: 0..<4, using: &rng) == 0
            ? [] : inlines(&rng, breaks: false)
        }
      }
      let header = row()
      let rows = (0..<Int.random(in: 0...3, using: &rng)).map { _ in row() }
      return .table(alignments, header: header, rows: rows)
    case 6, 7:
      return .quote(
        (0..<Int.random(in: 0...2, using: &rng)).map { _ in block(&rng, depth: depth + 1) })
    default:
      let items = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
        (0..<Int.random(in: 0...2, using: &rng)).map { _ in block(&rng, depth: depth + 1) }
      }
      return .list(
        ordered: Bool.random(using: &rng),
        start: Int.random(in: 0...2, using: &rng) == 0 ? 1 : Int.random(in: 0...12, using: &rng),
        loose: Bool.random(using: &rng), items: items)
    }
  }

  // MARK: - Tight and loose lists

  /// Whether a list asked to be `loose` reads as loose once written.
  ///
  /// A loose list needs a blank line that counts: between two items, or
  /// two blocks of an item, one not right after a thematic break (cmark-gfm
  /// counts no blank line after one, unless a quote holds it). A tight list
  /// reads as loose where Markdown has no tight form: an item with two
  /// blocks of which the second cannot start right under the first, or a
  /// table ending an item that has another after it (cmark-gfm counts a
  /// table as followed by a blank line, unless a quote holds it).
  static func readsLoose(asked loose: Bool, items: [[Block]]) -> Bool {
    if loose {
      for (index, item) in items.enumerated() {
        if index < items.count - 1 {
          guard let last = item.last else { return true }
          if lastLeaf(of: last) != .rule { return true }
        }
        for block in item.dropLast() where lastLeaf(of: block) != .rule { return true }
      }
      return false
    }
    for (index, item) in items.enumerated() {
      if index < items.count - 1, let last = item.last, lastLeaf(of: last) == .table {
        return true
      }
      for (first, second) in zip(item, item.dropFirst()) where !canFollow(first, by: second) {
        return true
      }
    }
    return false
  }

  enum LastLeaf: Equatable {
    /// A leaf that ends on its own line (or an empty container).
    case closed
    /// A thematic break, not in a quote.
    case rule
    /// A paragraph, directly the block itself or inside its containers.
    case paragraph(direct: Bool)
    /// A table, not in a quote.
    case table
  }

  /// What the last leaf of `block` is, as far as what follows it cares.
  static func lastLeaf(of block: Block, inQuote: Bool = false, direct: Bool = true) -> LastLeaf {
    switch block {
    case .paragraph: return .paragraph(direct: direct)
    case .header, .code: return .closed
    case .rule: return inQuote ? .closed : .rule
    case .table: return inQuote ? .closed : .table
    case .quote(let blocks):
      guard let last = blocks.last else { return .closed }
      return lastLeaf(of: last, inQuote: true, direct: false)
    case .footnote(_, let blocks):
      guard let last = blocks.last else { return .closed }
      return lastLeaf(of: last, inQuote: inQuote, direct: false)
    case .list(_, _, _, let items):
      guard let last = items.last?.last else { return .closed }
      return lastLeaf(of: last, inQuote: inQuote, direct: false)
    }
  }

  /// Whether `second` can be written right under `first` in a tight list's
  /// item (the writer's rule: after a leaf that ends on its own line
  /// anything can follow; after a paragraph only what interrupts one, a
  /// table only if the paragraph has no backslash before a pipe and the
  /// table's header is not all dashes and colons; a quote never right after
  /// a quote).
  static func canFollow(_ first: Block, by second: Block) -> Bool {
    if case .quote = first, case .quote = second { return false }
    switch lastLeaf(of: first) {
    case .closed, .rule: return true
    case .table: return false
    case .paragraph(let direct):
      switch second {
      case .paragraph: return false
      case .header(let level, let pieces):
        let underlined =
          level <= 2 && pieces.contains { $0.bits & (softBreak | lineBreak) != 0 }
        return !underlined
      case .code, .rule, .quote, .footnote: return true
      case .table(_, let header, _):
        guard case .paragraph(let pieces) = first else { return false }
        let delimiterLike = header.allSatisfy { cell in
          cell.allSatisfy {
            $0.text.unicodeScalars.allSatisfy { "-: \t".unicodeScalars.contains($0) }
          }
        }
        let text = pieces.map(\.text).joined()
        return direct && !text.contains("\\|") && !delimiterLike
      case .list(let ordered, let start, _, let items):
        // (A line the paragraph's containers do not take starts any list.)
        guard direct else { return true }
        guard let firstItem = items.first, !firstItem.isEmpty else { return false }
        return !ordered || start == 1
      }
    }
  }

  // MARK: - The rules, as DESIGN states them

  struct Builder {
    var text = ""
    var runs: [AttributeRun] = []
    var offset = 0
    var identity = 1
    var components: [PresentationIntent.Component] = []
    /// The last leaf's intent, whether it was empty, and its row if a cell.
    var pending: (intent: PresentationIntent, empty: Bool, row: Int?)?

    mutating func component(
      _ kind: PresentationIntent.Kind, isLoose: Bool = false
    ) -> PresentationIntent.Component {
      defer { identity += 1 }
      return .init(kind, identity: identity, isLoose: isLoose)
    }

    mutating func append(_ string: String, _ attributes: [AttributeKey: AttributeValue]) {
      let length = string.utf16.count
      text += string
      runs.append(AttributeRun(offset..<(offset + length), attributes))
      offset += length
    }

    mutating func leaf(
      _ intent: PresentationIntent, row: Int? = nil, _ body: (inout Builder) -> Void
    ) {
      if let pending {
        let tab = row != nil && pending.row == row
        append(tab ? "\t" : "\n", [.presentationIntent: .presentationIntent(pending.intent)])
      }
      let start = offset
      body(&self)
      pending = (intent, offset == start, row)
    }

    mutating func inlines(_ pieces: [Inline], _ intent: PresentationIntent) {
      for piece in pieces {
        var attributes: [AttributeKey: AttributeValue] = [
          .presentationIntent: .presentationIntent(intent)
        ]
        if piece.bits != 0 {
          attributes[.inlinePresentationIntent] = .inlinePresentationIntent(
            InlinePresentationIntent(rawValue: piece.bits))
        }
        if let link = piece.link { attributes[.link] = .link(link) }
        if let label = piece.footnote { attributes[.footnoteReference] = .string(label) }
        append(piece.text, attributes)
      }
    }

    mutating func leafBlock(_ kind: PresentationIntent.Kind, _ pieces: [Inline]) {
      let intent = PresentationIntent(components + [component(kind)])
      leaf(intent) { $0.inlines(pieces, intent) }
    }

    mutating func add(_ block: Block) {
      switch block {
      case .paragraph(let pieces):
        leafBlock(.paragraph, pieces)
      case .header(let level, let pieces):
        leafBlock(.header(level: level), pieces)
      case .code(let language, let body):
        let intent = PresentationIntent(
          components + [component(.codeBlock(languageHint: language))])
        leaf(intent) { $0.append(body, [.presentationIntent: .presentationIntent(intent)]) }
      case .rule:
        leafBlock(.thematicBreak, [])
      case .quote(let blocks):
        container(.blockQuote) { builder in
          for block in blocks { builder.add(block) }
        }
      case .list(let ordered, let start, let loose, let items):
        let isLoose = MarkdownRoundTripTests.readsLoose(asked: loose, items: items)
        container(ordered ? .orderedList : .unorderedList, isLoose: isLoose) { builder in
          for (index, item) in items.enumerated() {
            builder.container(.listItem(ordinal: ordered ? start + index : index + 1)) { builder in
              for block in item { builder.add(block) }
            }
          }
        }
      case .table(let alignments, let header, let rows):
        container(.table(columns: alignments)) { builder in
          builder.row(.tableHeaderRow, header)
          for (index, row) in rows.enumerated() { builder.row(.tableRow(rowIndex: index), row) }
        }
      case .footnote(let label, let blocks):
        container(.footnoteDefinition(label: label)) { builder in
          for block in blocks { builder.add(block) }
        }
      }
    }

    mutating func row(_ kind: PresentationIntent.Kind, _ cells: [[Inline]]) {
      let row = component(kind)
      components.append(row)
      for (column, pieces) in cells.enumerated() {
        let intent = PresentationIntent(components + [component(.tableCell(columnIndex: column))])
        leaf(intent, row: row.identity) { $0.inlines(pieces, intent) }
      }
      components.removeLast()
    }

    /// A container; one with no leaf inside is a leaf itself.
    mutating func container(
      _ kind: PresentationIntent.Kind, isLoose: Bool = false, _ body: (inout Builder) -> Void
    ) {
      components.append(component(kind, isLoose: isLoose))
      let before = identity
      body(&self)
      if identity == before {
        let intent = PresentationIntent(components)
        leaf(intent) { _ in }
      }
      components.removeLast()
    }

    mutating func finish() -> AttributedText {
      if let pending, pending.empty {
        append("\n", [.presentationIntent: .presentationIntent(pending.intent)])
      }
      // The rules never give runs that overlap.
      return (try? AttributedText(text, runs: runs)) ?? AttributedText.empty
    }
  }

  /// Footnote labels: case, a hyphen, non-ASCII and non-BMP.
  static let labels = ["1", "Note", "a-b", "é2", "x😀"]

  /// A document of 1 to 5 blocks; with some footnotes, a paragraph that
  /// refers to each first (cmark-gfm drops a definition nothing refers
  /// to), their definitions among the blocks, and references in the
  /// paragraphs.
  static func document(_ rng: inout SeededRandom) -> AttributedText {
    var blocks = (0..<Int.random(in: 1...5, using: &rng)).map { _ in block(&rng, depth: 0) }
    let labels = labels.shuffled(using: &rng).prefix(max(0, Int.random(in: -2...2, using: &rng)))
    if !labels.isEmpty {
      var refers: [Inline] = []
      for label in labels {
        refers.append(Inline(text: text(&rng, upTo: 2), bits: 0))
        refers.append(Inline(text: label, bits: 0, footnote: label))
      }
      blocks.insert(.paragraph(refers), at: 0)
      for label in labels {
        let inside = (0..<Int.random(in: 0...2, using: &rng)).map { _ in block(&rng, depth: 1) }
        blocks.insert(
          .footnote(label, inside), at: Int.random(in: 1...blocks.count, using: &rng))
      }
      blocks = blocks.map { addReferences($0, labels: Array(labels), &rng) }
    }
    var builder = Builder()
    for block in blocks { builder.add(block) }
    return builder.finish()
  }

  /// `block` with some of its paragraphs' pieces followed by a reference
  /// to one of `labels`, with the piece's emphasis.
  static func addReferences(
    _ block: Block, labels: [String], _ rng: inout SeededRandom
  ) -> Block {
    func pieces(_ inlines: [Inline]) -> [Inline] {
      var result: [Inline] = []
      for piece in inlines {
        result.append(piece)
        if piece.footnote == nil, piece.bits & (code | softBreak | lineBreak) == 0,
          Int.random(in: 0..<6, using: &rng) == 0, let label = labels.randomElement(using: &rng)
        {
          result.append(Inline(text: label, bits: piece.bits, footnote: label))
        }
      }
      return result
    }
    switch block {
    case .paragraph(let inlines): return .paragraph(pieces(inlines))
    case .quote(let blocks):
      return .quote(blocks.map { addReferences($0, labels: labels, &rng) })
    case .list(let ordered, let start, let loose, let items):
      return .list(
        ordered: ordered, start: start, loose: loose,
        items: items.map { $0.map { addReferences($0, labels: labels, &rng) } })
    case .footnote(let label, let blocks):
      return .footnote(label, blocks.map { addReferences($0, labels: labels, &rng) })
    case .header, .code, .rule, .table: return block
    }
  }

  // MARK: - Tests

  @Test func randomDocumentsReadBackTheSame() {
    let seed = TestSettings.seed("MarkdownRoundTripTests.randomDocumentsReadBackTheSame")
    var rng = SeededRandom(seed: seed)
    for step in 0..<TestSettings.iterations(3000) {
      let document = Self.document(&rng)
      let written = document.markdown
      let read = AttributedText(markdown: written)
      #expect(
        read == document,
        "step \(step), SEED=\(seed)\nmarkdown: \(written.debugDescription)\nwanted \(document)\ngot    \(read)"
      )
      if read != document { return }
    }
  }

  /// The written Markdown is stable: writing what was read gives the same
  /// Markdown.
  @Test func writingIsStable() {
    let seed = TestSettings.seed("MarkdownRoundTripTests.writingIsStable")
    var rng = SeededRandom(seed: seed)
    for step in 0..<TestSettings.iterations(500) {
      let written = Self.document(&rng).markdown
      #expect(AttributedText(markdown: written).markdown == written, "step \(step), SEED=\(seed)")
    }
  }
}

extension AttributedText {
  static let empty = AttributedText(markdown: "")
}

extension String {
  func replacingAll(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
