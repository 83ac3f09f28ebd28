import CCMarkGFM
import DocumentEngine
import Synchronization
import TextRope

extension AttributedText {
  /// The attributed text GitHub-flavoured Markdown stands for, read by the
  /// system's cmark-gfm with its table, strikethrough, autolink, task list
  /// and tag filter extensions and its footnotes, by the rules of
  /// *Markdown* in
  /// `docs/DESIGN.md`:
  ///
  /// - each block is a paragraph of the text, blocks separated by one LF
  ///   that carries the block's presentation intent, table cells by a tab and
  ///   rows by an LF; a block with no text is its separator alone (at the
  ///   end too, so that it keeps its intent);
  /// - markers (list bullets and numbers, `>`, `#`, fences, table pipes)
  ///   live in the `AttributeKey.presentationIntent`, as Foundation's
  ///   `AttributedString(markdown:)` gives them, identities numbered from 1
  ///   in document order; a list item's ordinal is its number in an ordered
  ///   list (the list's start, then one more for each item) and its place
  ///   from 1 in a bulleted one;
  /// - a code block's text is its lines without the last line break; a hard
  ///   line break is U+2028 and a soft one a space, with the `lineBreak` or
  ///   `softBreak` inline intent; emphasis, strong emphasis, code spans and
  ///   strikethrough are inline intents; links (autolinks and bare URLs
  ///   too) are `AttributeKey.link`s of their text, with
  ///   `AttributeKey.linkTitle` when they have a title;
  /// - an image is its description (the text between its brackets; U+FFFC
  ///   when it has none) with `AttributeKey.imageURL` and
  ///   `AttributeKey.imageTitle`; a task list item's box is its
  ///   component's `isChecked` (an item whose first block is neither a
  ///   paragraph nor a header has none: the writer writes a box only before
  ///   those); a loose list (its items parted by blank lines) is its
  ///   component's `isLoose` (not a list of one item of one block, which
  ///   Markdown cannot write loose);
  /// - a footnote reference (`[^label]`) is its label with
  ///   `AttributeKey.footnoteReference`; a footnote's definition is a
  ///   `footnoteDefinition` component around its blocks, where the file
  ///   has it among the document's blocks (cmark-gfm drops a definition
  ///   nothing refers to, and takes one out of a list or a quote: that one
  ///   comes last).
  ///
  /// What has no key of its own: HTML is kept as text with the
  /// `inlineHTML` or `blockHTML` inline intent (an HTML block is a
  /// paragraph), never interpreted. A U+0000 becomes U+FFFD, as
  /// CommonMark asks, and so does a reference to U+FFFE or U+FFFF
  /// (cmark-gfm writes it as a byte that is not UTF-8).
  ///
  /// - Complexity: O(n) for n bytes of Markdown, cmark-gfm's own bound.
  public init(markdown: String) {
    var reader = _MarkdownReader(capacity: markdown.utf8.count)
    reader.read(markdown)
    self.init(maximal: String(decoding: reader.utf8, as: UTF8.self), runs: reader.runs())
  }
}

/// cmark-gfm with the extensions the reader attaches.
///
/// cmark-gfm is not safe to use from two threads at once with extensions:
/// attaching one adds its characters (`~`, `|`, …) to a table of special
/// characters shared by every parser, and finishing a parse takes them out
/// again, under any other parse running then. So every parse takes one lock.
/// The reader also walks the tree under it, since its nodes live in
/// cmark-gfm's arena (one for the process): readings on several threads
/// take turns.
enum _CMarkExtensions {
  /// The extensions, registered once per process (registration is not safe
  /// to race either).
  nonisolated(unsafe) static let attached: [OpaquePointer] = {
    cmark_gfm_core_extensions_ensure_registered()
    return ["table", "strikethrough", "autolink", "tasklist", "tagfilter"].compactMap {
      (name: String) in
      cmark_find_syntax_extension(name)
    }
  }()

  static let lock = Mutex(())

  /// Parses `markdown` with the extensions; the caller frees the result with
  /// `cmark_node_free`. Nil only if cmark-gfm could not allocate.
  static func parse(_ markdown: String, options: Int32 = CMARK_OPT_DEFAULT) -> OpaquePointer? {
    let extensions = attached
    var markdown = markdown
    return markdown.withUTF8 { bytes in
      lock.withLock { _ -> Tree in
        guard let parser = cmark_parser_new(options) else { return Tree(root: nil) }
        defer { cmark_parser_free(parser) }
        for syntax in extensions {
          cmark_parser_attach_syntax_extension(parser, syntax)
        }
        bytes.withMemoryRebound(to: CChar.self) { chars in
          if let base = chars.baseAddress {
            cmark_parser_feed(parser, base, chars.count)
          }
        }
        return Tree(root: cmark_parser_finish(parser))
      }
    }.root
  }

  /// Parses `markdown` with the extensions and footnotes in cmark-gfm's
  /// arena and hands the tree (and the Markdown's bytes) to `body`, all
  /// under the lock (the arena is one for the
  /// process), then drops the whole arena at once: no node is allocated or
  /// freed on its own. `body` is not called if cmark-gfm could not
  /// allocate.
  static func withParsed(
    _ markdown: String, _ body: (OpaquePointer, UnsafeBufferPointer<UInt8>) -> Void
  ) {
    let extensions = attached
    var markdown = markdown
    markdown.withUTF8 { bytes in
      // (cmark-gfm's footnotes cost a walk over the whole tree: asked for
      // only where there can be one, a `[^`.)
      let options = CMARK_OPT_DEFAULT | (Self.mayHaveFootnotes(bytes) ? CMARK_OPT_FOOTNOTES : 0)
      lock.withLock { _ in
        guard let arena = cmark_get_arena_mem_allocator(),
          let parser = cmark_parser_new_with_mem(options, arena)
        else { return }
        defer { cmark_arena_reset() }
        for syntax in extensions {
          cmark_parser_attach_syntax_extension(parser, syntax)
        }
        bytes.withMemoryRebound(to: CChar.self) { chars in
          if let base = chars.baseAddress {
            cmark_parser_feed(parser, base, chars.count)
          }
        }
        let document = cmark_parser_finish(parser)
        cmark_parser_free(parser)
        if let document { body(document, bytes) }
      }
    }
  }

  /// Whether `bytes` have a `[^` (a footnote's reference or definition
  /// starts so).
  static func mayHaveFootnotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 1
    let count = bytes.count
    while index < count {
      if bytes[index] == UInt8(ascii: "^"), bytes[index &- 1] == UInt8(ascii: "[") { return true }
      index &+= 1
    }
    return false
  }

  /// A parsed tree, handed out of the lock: no other thread has it.
  struct Tree: @unchecked Sendable {
    var root: OpaquePointer?
  }
}

/// One walk over cmark-gfm's tree: the text as UTF-8 and its attributes as
/// segments of equal attributes, converted to runs at the end.
struct _MarkdownReader {
  /// The text so far.
  var utf8: [UInt8] = []
  /// Its length in UTF-16 units.
  var utf16Count = 0

  /// A stretch of the text with one set of attributes, ending at `end`.
  struct Segment {
    var end: Int
    var inline: Int
    /// Index into `links`, or -1.
    var link: Int32
    /// Index into `images`, or -1.
    var image: Int32
    /// Index into `footnotes`, or -1.
    var footnote: Int32
    /// Index into `leaves`, or -1 (for text outside any block: none).
    var leaf: Int32
  }
  var segments: [Segment] = []
  /// The links and images: each a URL and a title (empty for none).
  var links: [Target] = []
  var images: [Target] = []
  /// The labels of footnote references.
  var footnotes: [String] = []
  /// The footnotes' labels, by number from 1 (at index 0).
  var footnoteLabels: [String] = []
  /// The footnote reference being appended, or -1.
  var currentFootnote: Int32 = -1
  var leaves: [PresentationIntent] = []
  /// The Markdown's bytes while it is read (for footnotes' labels, which
  /// cmark-gfm does not give), and where its lines start (made when a
  /// footnote needs them).
  var markdownBytes: UnsafeBufferPointer<UInt8>?
  var markdownLineStarts: [Int] = []

  /// A link's or an image's destination.
  struct Target: Hashable {
    var url: String
    var title: String
  }

  /// An open block: its component, and how many leaves the text had when
  /// it opened (a container that ends with as many has none inside and is
  /// a leaf itself).
  struct Open {
    var component: PresentationIntent.Component
    var leavesAtStart: Int
    /// The next item's ordinal, for a list; the next row's index, for a
    /// table; the next cell's column, for a row.
    var nextChild: Int
  }
  var open: [Open] = []
  var nextIdentity = 1

  /// The inline state: how deep in emphasis, strong emphasis and
  /// strikethrough, and the links open.
  var emphasis = 0
  var strong = 0
  var strikethrough = 0
  var linkStack: [Int32] = []
  /// The images open: each one's index and where its text started.
  var imageStack: [(image: Int32, start: Int)] = []

  /// The leaf whose text is being read, and the last one's separator not yet
  /// written: the leaf, whether it had no text, and its row's identity if
  /// it is a table cell.
  var currentLeaf: Int32 = -1
  var leafTextStart = 0
  var pending: (leaf: Int32, empty: Bool, row: Int?)?

  /// Whether the walk notes where each block's source is (for
  /// `MarkdownSource`): `leafLines` and `topBlocks`.
  var notesSource = false
  /// The document node of the tree being walked.
  var documentNode: OpaquePointer?
  /// Each leaf's source, as cmark-gfm gives it: its first and last lines
  /// (from 1) and the byte column (from 1) its first line's content starts
  /// at.
  var leafLines: [_SourceLines] = []
  /// Each block of the document itself (a child of the document node), in
  /// the walk's order: its lines and the number of the first leaf inside.
  var topBlocks: [(lines: _SourceLines, firstLeaf: Int)] = []

  init(capacity: Int) {
    utf8.reserveCapacity(capacity)
  }

  mutating func read(_ markdown: String) {
    _CMarkExtensions.withParsed(markdown) { document, bytes in
      documentNode = document
      markdownBytes = bytes
      noteFootnoteLabels(document)
      Self.placeFootnoteDefinitions(document)
      walk(document)
      markdownBytes = nil
      documentNode = nil
    }
  }

  /// Puts each footnote definition (which cmark-gfm moves to the
  /// document's end, in the order of their first references, and drops if
  /// nothing refers to it) back where its source is among the document's
  /// blocks, so that the text has the file's order. A definition inside
  /// another block (a list, a quote) stays at the end, after the others.
  static func placeFootnoteDefinitions(_ document: OpaquePointer) {
    let definitions = footnoteDefinitions(of: document).map {
      (node: $0, line: cmark_node_get_start_line($0))
    }
    guard let firstDefinition = definitions.first?.node else { return }
    var blocks: [(node: OpaquePointer, first: Int32, last: Int32)] = []
    var child = cmark_node_first_child(document)
    while let node = child, node != firstDefinition {
      child = cmark_node_next(node)
      blocks.append((node, cmark_node_get_start_line(node), cmark_node_get_end_line(node)))
    }
    var nested: [OpaquePointer] = []
    // The other blocks are in the file's order: one walk over both.
    var next = 0
    for definition in definitions.sorted(by: { $0.line < $1.line }) {
      while next < blocks.count, blocks[next].first <= definition.line { next += 1 }
      if next > 0, blocks[next - 1].last >= definition.line {
        nested.append(definition.node)
      } else if next < blocks.count {
        cmark_node_insert_before(blocks[next].node, definition.node)
      } else {
        cmark_node_append_child(document, definition.node)
      }
    }
    for node in nested { cmark_node_append_child(document, node) }
  }

  /// Each footnote's label, by its number (what cmark-gfm gives a
  /// reference): the definitions come at the document's end in the order
  /// of their numbers, before `placeFootnoteDefinitions` moves them.
  mutating func noteFootnoteLabels(_ document: OpaquePointer) {
    for node in Self.footnoteDefinitions(of: document) {
      let label = footnoteLabel(node, definition: true) ?? "\(footnoteLabels.count + 1)"
      footnoteLabels.append(label)
    }
  }

  /// The footnote definitions cmark-gfm put at the document's end, in
  /// order: the last children (none costs nothing to find).
  static func footnoteDefinitions(of document: OpaquePointer) -> [OpaquePointer] {
    var definitions: [OpaquePointer] = []
    var child = cmark_node_last_child(document)
    while let node = child, cmark_node_get_type(node) == CMARK_NODE_FOOTNOTE_DEFINITION {
      definitions.append(node)
      child = cmark_node_previous(node)
    }
    return definitions.reversed()
  }

  /// The label of the footnote reference `node`: as the reference spells
  /// it, where the source has it at the reference's position (cmark-gfm's
  /// columns can be off on a paragraph's later lines inside a container)
  /// and it is the definition's label but for case; else the definition's.
  mutating func referenceLabel(_ node: OpaquePointer) -> String {
    let number = Int(string(cmark_node_get_literal(node))) ?? 0
    let definition =
      number >= 1 && number <= footnoteLabels.count
      ? footnoteLabels[number - 1] : string(cmark_node_get_literal(node))
    if let spelled = footnoteLabel(node, definition: false),
      spelled.lowercased() == definition.lowercased()
    {
      return spelled
    }
    return definition
  }

  /// The label of the footnote reference or definition `node`, from the
  /// source (cmark-gfm gives a reference's number, a definition nothing):
  /// for a reference, between its `[^` and `]`; for a definition, between
  /// the last `[^` before its content's column on its first line and the
  /// `]` after. Nil if the source does not have one there.
  mutating func footnoteLabel(_ node: OpaquePointer, definition: Bool) -> String? {
    guard let bytes = markdownBytes else { return nil }
    if markdownLineStarts.isEmpty {
      markdownLineStarts = MarkdownSource.lineStarts(of: Array(bytes))
    }
    let line = Int(cmark_node_get_start_line(node))
    guard line >= 1, line <= markdownLineStarts.count else { return nil }
    let lineStart = markdownLineStarts[line - 1]
    let lineEnd = line < markdownLineStarts.count ? markdownLineStarts[line] : bytes.count
    let column = Int(cmark_node_get_start_column(node))
    let bracket = UInt8(ascii: "[")
    let caret = UInt8(ascii: "^")
    let close = UInt8(ascii: "]")
    var open: Int?
    if definition {
      var index = min(lineStart + column - 1, lineEnd) - 2
      while index >= lineStart {
        if bytes[index] == bracket, bytes[index + 1] == caret {
          open = index
          break
        }
        index -= 1
      }
    } else if lineStart + column < lineEnd, bytes[lineStart + column - 1] == bracket,
      bytes[lineStart + column] == caret
    {
      open = lineStart + column - 1
    }
    guard let open else { return nil }
    var end = open + 2
    while end < lineEnd, bytes[end] != close { end += 1 }
    guard end < lineEnd else { return nil }
    let label = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[(open + 2)..<end]), as: UTF8.self)
    return PresentationIntent.Kind.isFootnoteLabel(label) ? label : nil
  }

  mutating func walk(_ document: OpaquePointer) {
    guard let iterator = cmark_iter_new(document) else { return }
    defer { cmark_iter_free(iterator) }
    while true {
      let event = cmark_iter_next(iterator)
      if event == CMARK_EVENT_DONE { break }
      guard let node = cmark_iter_get_node(iterator) else { break }
      if event == CMARK_EVENT_ENTER {
        enter(node)
      } else if event == CMARK_EVENT_EXIT {
        exit(node)
      }
    }
    if let pending, pending.empty {
      appendSeparator(UInt8(ascii: "\n"), of: pending.leaf)
    }
  }

  // MARK: - Blocks and inlines

  /// Whether Markdown can write the list `node` loose: it needs a blank
  /// line between two of its blocks, so two items, or one item of two
  /// blocks. (cmark-gfm also calls loose a list of one item of one block
  /// with a blank line before a reference definition in it, which makes no
  /// block: written again, that list reads tight, so the reader calls it
  /// tight.)
  static func canShowLooseness(_ node: OpaquePointer) -> Bool {
    guard let item = cmark_node_first_child(node) else { return false }
    if cmark_node_next(item) != nil { return true }
    guard let block = cmark_node_first_child(item) else { return false }
    return cmark_node_next(block) != nil
  }

  mutating func enter(_ node: OpaquePointer) {
    let type = cmark_node_get_type(node)
    if notesSource, let documentNode, cmark_node_parent(node) == documentNode {
      topBlocks.append((_SourceLines(node), leaves.count))
    }
    switch type {
    case CMARK_NODE_DOCUMENT:
      break
    case CMARK_NODE_BLOCK_QUOTE:
      openContainer(.blockQuote)
    case CMARK_NODE_LIST:
      let ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
      openContainer(ordered ? .orderedList : .unorderedList)
      open[open.count - 1].nextChild = ordered ? Int(cmark_node_get_list_start(node)) : 1
      open[open.count - 1].component.isLoose =
        cmark_node_get_list_tight(node) == 0 && Self.canShowLooseness(node)
    case CMARK_NODE_ITEM:
      let ordinal = nextChildOfInnermost()
      openContainer(.listItem(ordinal: ordinal))
      if extensionType(node) == "tasklist", let child = cmark_node_first_child(node),
        case let first = cmark_node_get_type(child),
        first == CMARK_NODE_PARAGRAPH || first == CMARK_NODE_HEADING
      {
        // (A GitHub task list's item: its box is not its text. An item with
        // a box and nothing after it has no box that Markdown could write
        // back: `- [x]` alone is a paragraph. A header can come first: an
        // underline makes one of the text after the box, or it starts the
        // line after a box alone, where the writer puts it.)
        open[open.count - 1].component.isChecked =
          cmark_gfm_extensions_get_tasklist_item_checked(node)
      }
    case CMARK_NODE_PARAGRAPH:
      openLeaf(.paragraph, node)
    case CMARK_NODE_HEADING:
      openLeaf(.header(level: Int(cmark_node_get_heading_level(node))), node)
    case CMARK_NODE_THEMATIC_BREAK:
      openLeaf(.thematicBreak, node)
      closeLeaf()
    case CMARK_NODE_CODE_BLOCK:
      let info = string(cmark_node_get_fence_info(node)).trimmingASCIIWhitespace
      openLeaf(.codeBlock(languageHint: info.isEmpty ? nil : info), node)
      appendLiteral(node, inline: 0, droppingFinalLineFeed: true)
      closeLeaf()
    case CMARK_NODE_HTML_BLOCK:
      openLeaf(.paragraph, node)
      appendLiteral(
        node, inline: InlinePresentationIntent.blockHTML.rawValue, droppingFinalLineFeed: true)
      closeLeaf()
    case CMARK_NODE_TEXT:
      appendLiteral(node, inline: inlineBits)
    case CMARK_NODE_CODE:
      appendLiteral(node, inline: inlineBits | InlinePresentationIntent.code.rawValue)
    case CMARK_NODE_HTML_INLINE:
      appendLiteral(node, inline: inlineBits | InlinePresentationIntent.inlineHTML.rawValue)
    case CMARK_NODE_SOFTBREAK:
      append(
        [UInt8(ascii: " ")], utf16: 1,
        inline: inlineBits | InlinePresentationIntent.softBreak.rawValue)
    case CMARK_NODE_LINEBREAK:
      append(
        [0xE2, 0x80, 0xA8], utf16: 1,
        inline: inlineBits | InlinePresentationIntent.lineBreak.rawValue)
    case CMARK_NODE_EMPH:
      emphasis += 1
    case CMARK_NODE_STRONG:
      strong += 1
    case CMARK_NODE_LINK:
      links.append(
        Target(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node))))
      linkStack.append(Int32(links.count - 1))
    case CMARK_NODE_IMAGE:
      images.append(
        Target(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node))))
      imageStack.append((Int32(images.count - 1), utf16Count))
    case CMARK_NODE_FOOTNOTE_DEFINITION:
      // (A label the source does not show: the definition's number, as
      // cmark-gfm would show it.)
      let label = footnoteLabel(node, definition: true) ?? "\(footnoteLabels.count + 1)"
      openContainer(.footnoteDefinition(label: label))
    case CMARK_NODE_FOOTNOTE_REFERENCE:
      let label = referenceLabel(node)
      footnotes.append(label)
      currentFootnote = Int32(footnotes.count - 1)
      append(Array(label.utf8), utf16: label.utf16.count, inline: inlineBits)
      currentFootnote = -1
    case CMARK_NODE_CUSTOM_BLOCK, CMARK_NODE_CUSTOM_INLINE:
      break
    default:
      enterExtension(node)
    }
  }

  mutating func exit(_ node: OpaquePointer) {
    let type = cmark_node_get_type(node)
    switch type {
    case CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_ITEM,
      CMARK_NODE_FOOTNOTE_DEFINITION:
      closeContainer(node)
    case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING:
      closeLeaf()
    case CMARK_NODE_EMPH:
      emphasis -= 1
    case CMARK_NODE_STRONG:
      strong -= 1
    case CMARK_NODE_LINK:
      linkStack.removeLast()
    case CMARK_NODE_IMAGE:
      // An image without a description is the attachment character; one
      // without a destination or a title either (`![]()`) is nothing (the
      // writer's zero-width inline in a link, where a link can not be).
      if let last = imageStack.last, last.start == utf16Count,
        images[Int(last.image)] != Target(url: "", title: "")
      {
        append([0xEF, 0xBF, 0xBC], utf16: 1, inline: inlineBits)
      }
      imageStack.removeLast()
    default:
      switch extensionType(node) {
      case "strikethrough": strikethrough -= 1
      case "table", "table_row", "table_header": closeContainer(node)
      case "table_cell": closeLeaf()
      default: break
      }
    }
  }

  mutating func enterExtension(_ node: OpaquePointer) {
    switch extensionType(node) {
    case "strikethrough":
      strikethrough += 1
    case "table":
      let count = Int(cmark_gfm_extensions_get_table_columns(node))
      var columns: [PresentationIntent.ColumnAlignment] = []
      if let alignments = cmark_gfm_extensions_get_table_alignments(node) {
        for column in 0..<count {
          switch alignments[column] {
          case UInt8(ascii: "c"): columns.append(.center)
          case UInt8(ascii: "r"): columns.append(.right)
          default: columns.append(.left)
          }
        }
      }
      openContainer(.table(columns: columns))
      open[open.count - 1].nextChild = 0
    case "table_row", "table_header":
      if cmark_gfm_extensions_get_table_row_is_header(node) != 0 {
        openContainer(.tableHeaderRow)
      } else {
        let index = nextChildOfInnermost()
        openContainer(.tableRow(rowIndex: index))
      }
      open[open.count - 1].nextChild = 0
    case "table_cell":
      let column = nextChildOfInnermost()
      openLeaf(.tableCell(columnIndex: column), node)
    default:
      break
    }
  }

  func extensionType(_ node: OpaquePointer) -> String {
    guard cmark_node_get_syntax_extension(node) != nil else { return "" }
    return string(cmark_node_get_type_string(node))
  }

  var inlineBits: Int {
    var bits = 0
    if emphasis > 0 { bits |= InlinePresentationIntent.emphasized.rawValue }
    if strong > 0 { bits |= InlinePresentationIntent.stronglyEmphasized.rawValue }
    if strikethrough > 0 { bits |= InlinePresentationIntent.strikethrough.rawValue }
    return bits
  }

  /// The innermost open block's next child number, advanced.
  mutating func nextChildOfInnermost() -> Int {
    guard !open.isEmpty else { return 0 }
    let next = open[open.count - 1].nextChild
    open[open.count - 1].nextChild = next + 1
    return next
  }

  mutating func newComponent(_ kind: PresentationIntent.Kind) -> PresentationIntent.Component {
    defer { nextIdentity += 1 }
    return PresentationIntent.Component(kind, identity: nextIdentity)
  }

  mutating func openContainer(_ kind: PresentationIntent.Kind) {
    open.append(Open(component: newComponent(kind), leavesAtStart: leaves.count, nextChild: 1))
  }

  /// Closes the innermost container; if no leaf opened inside it, it is a
  /// leaf itself (an empty list item, an empty quote).
  mutating func closeContainer(_ node: OpaquePointer) {
    guard let last = open.last else { return }
    if leaves.count == last.leavesAtStart {
      startLeaf(PresentationIntent(open.map(\.component)), node)
      closeLeaf()
    }
    open.removeLast()
  }

  mutating func openLeaf(_ kind: PresentationIntent.Kind, _ node: OpaquePointer) {
    var components: [PresentationIntent.Component] = []
    components.reserveCapacity(open.count + 1)
    for entry in open { components.append(entry.component) }
    components.append(newComponent(kind))
    startLeaf(PresentationIntent(components), node)
  }

  /// Writes the separator the last leaf owes, then makes `intent` the
  /// current leaf.
  mutating func startLeaf(_ intent: PresentationIntent, _ node: OpaquePointer) {
    if notesSource { leafLines.append(_SourceLines(node)) }
    let row = intent.components.last.flatMap { component -> Int? in
      guard case .tableCell = component.kind, intent.components.count >= 2 else { return nil }
      return intent.components[intent.components.count - 2].identity
    }
    if let pending {
      let sameRow = row != nil && pending.row == row
      appendSeparator(UInt8(ascii: sameRow ? "\t" : "\n"), of: pending.leaf)
    }
    pending = nil
    leaves.append(intent)
    currentLeaf = Int32(leaves.count - 1)
    leafTextStart = utf16Count
  }

  mutating func closeLeaf() {
    guard currentLeaf >= 0 else { return }
    let intent = leaves[Int(currentLeaf)]
    var row: Int?
    if case .tableCell = intent.components.last?.kind, intent.components.count >= 2 {
      row = intent.components[intent.components.count - 2].identity
    }
    pending = (currentLeaf, utf16Count == leafTextStart, row)
    currentLeaf = -1
  }

  // MARK: - Text

  mutating func appendSeparator(_ byte: UInt8, of leaf: Int32) {
    let saved = currentLeaf
    currentLeaf = leaf
    let savedLinks = linkStack
    let savedImages = imageStack
    linkStack = []
    imageStack = []
    append([byte], utf16: 1, inline: 0)
    linkStack = savedLinks
    imageStack = savedImages
    currentLeaf = saved
  }

  mutating func appendLiteral(
    _ node: OpaquePointer, inline: Int, droppingFinalLineFeed: Bool = false
  ) {
    guard let literal = cmark_node_get_literal(node) else { return }
    var count = 0
    while literal[count] != 0 { count += 1 }
    if droppingFinalLineFeed, count > 0, UInt8(bitPattern: literal[count - 1]) == 0x0A {
      count -= 1
    }
    guard count > 0 else { return }
    literal.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
      let buffer = UnsafeBufferPointer(start: bytes, count: count)
      if let units = _UTF8Validation.utf16Count(ofValidUTF8: buffer) {
        append(buffer, utf16: units, inline: inline)
      } else {
        // cmark-gfm can write a reference to a code point that is not one
        // (`&#65535;`) as bytes that are not UTF-8: repaired as Swift
        // repairs them, each bad sequence a U+FFFD.
        let repaired = Array(String(decoding: buffer, as: UTF8.self).utf8)
        let units =
          repaired.withUnsafeBufferPointer { _UTF8Validation.utf16Count(ofValidUTF8: $0) } ?? 0
        append(repaired, utf16: units, inline: inline)
      }
    }
  }

  mutating func append<Bytes: Collection<UInt8>>(_ bytes: Bytes, utf16: Int, inline: Int) {
    utf8.append(contentsOf: bytes)
    utf16Count += utf16
    let link = linkStack.last ?? -1
    let image = imageStack.last?.image ?? -1
    let footnote = currentFootnote
    if let last = segments.last, last.inline == inline, last.leaf == currentLeaf,
      last.link == link
        || (last.link >= 0 && link >= 0 && links[Int(last.link)] == links[Int(link)]),
      last.image == image
        || (last.image >= 0 && image >= 0 && images[Int(last.image)] == images[Int(image)]),
      last.footnote == footnote
        || (last.footnote >= 0 && footnote >= 0
          && footnotes[Int(last.footnote)] == footnotes[Int(footnote)])
    {
      segments[segments.count - 1].end = utf16Count
    } else {
      segments.append(
        Segment(
          end: utf16Count, inline: inline, link: link, image: image, footnote: footnote,
          leaf: currentLeaf))
    }
  }

  /// The segments as attribute runs: maximal already (touching segments
  /// differ), each leaf's block value made once.
  func runs() -> [AttributeRun] {
    var result: [AttributeRun] = []
    result.reserveCapacity(segments.count)
    var start = 0
    var leaf: Int32 = -2
    var blockOnly: [AttributeKey: AttributeValue] = [:]
    for segment in segments {
      if segment.leaf != leaf {
        leaf = segment.leaf
        blockOnly =
          leaf >= 0 ? [.presentationIntent: .presentationIntent(leaves[Int(leaf)])] : [:]
      }
      var attributes = blockOnly
      if segment.inline != 0 {
        attributes[.inlinePresentationIntent] = .inlinePresentationIntent(
          InlinePresentationIntent(rawValue: segment.inline))
      }
      if segment.link >= 0 {
        let target = links[Int(segment.link)]
        attributes[.link] = .link(target.url)
        if !target.title.isEmpty { attributes[.linkTitle] = .string(target.title) }
      }
      if segment.image >= 0 {
        let target = images[Int(segment.image)]
        attributes[.imageURL] = .link(target.url)
        if !target.title.isEmpty { attributes[.imageTitle] = .string(target.title) }
      }
      if segment.footnote >= 0 {
        attributes[.footnoteReference] = .string(footnotes[Int(segment.footnote)])
      }
      if !attributes.isEmpty { result.append(AttributeRun(start..<segment.end, attributes)) }
      start = segment.end
    }
    return result
  }

  func string(_ pointer: UnsafePointer<CChar>?) -> String {
    guard let pointer else { return "" }
    return String(cString: pointer)
  }
}

extension String {
  /// The string without ASCII spaces, tabs and line ends at either end.
  var trimmingASCIIWhitespace: String {
    let scalars = unicodeScalars
    let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[first...last])
  }
}

/// Where a block's source is, as cmark-gfm gives it: its first and last
/// lines (from 1) and the byte column (from 1) where its first line's
/// content starts.
struct _SourceLines: Hashable {
  var first: Int32
  var last: Int32
  var column: Int32
  /// Whether the block is an indented code block (whose column is past
  /// its indentation, not only its containers' markers).
  var isIndentedCode: Bool
  /// For a fenced code block, the line of its last line of code (its
  /// opening fence's if it has none); 0 otherwise.
  var lastCodeLine: Int32 = 0

  init(_ node: OpaquePointer) {
    first = cmark_node_get_start_line(node)
    last = cmark_node_get_end_line(node)
    column = cmark_node_get_start_column(node)
    var length: Int32 = 0
    var offset: Int32 = 0
    var character: CChar = 0
    // (cmark-gfm writes through the three pointers: none may be nil.)
    isIndentedCode =
      cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK
      && cmark_node_get_fenced(node, &length, &offset, &character) == 0
    if cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK, !isIndentedCode, first >= 1 {
      lastCodeLine = first + (cmark_node_get_literal(node).map { Self.lineCount($0) } ?? 0)
    }
    // (cmark-gfm ends an HTML block that its end condition closes — a
    // comment's `-->` on a later line — a line early. Its literal has
    // every line of it: those are its lines.)
    if cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK, first >= 1,
      let literal = cmark_node_get_literal(node)
    {
      last = max(last, first + Self.lineCount(literal) - 1)
    }
  }

  /// How many lines `literal` has (a last one without a line ending
  /// counts).
  static func lineCount(_ literal: UnsafePointer<CChar>) -> Int32 {
    var count: Int32 = 0
    var index = 0
    var open = false
    while literal[index] != 0 {
      let byte = UInt8(bitPattern: literal[index])
      if byte == 0x0A || byte == 0x0D {
        if byte == 0x0D, literal[index + 1] == 0x0A { index += 1 }
        count += 1
        open = false
      } else {
        open = true
      }
      index += 1
    }
    return count + (open ? 1 : 0)
  }
}
