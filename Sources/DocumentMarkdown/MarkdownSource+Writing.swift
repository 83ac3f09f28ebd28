import CCMarkGFM
import DocumentEngine
import TextRope

extension TextStorage {
  /// The storage's text as Markdown.
  ///
  /// A storage read from Markdown (`Document.add(_:markdown:after:)`, or
  /// a ``MarkdownSource`` given to `add`) is written with its source kept:
  /// the file's own bytes for every block whose text and attributes did not
  /// change (its blank lines, reference definitions, line endings and
  /// markers with them), and only the changed blocks anew — a leaf inside a
  /// list or a quote on its own lines, with the markers the file had; a
  /// block whose shape changed whole, with the file's bullets. Any other
  /// storage is written as ``DocumentEngine/AttributedText/markdown``
  /// writes its attributed text.
  ///
  /// - Complexity: O(n + r) for n bytes of text and r attribute runs, plus
  ///   the writing of what changed.
  public var markdown: String {
    // (Nothing changed since the file was read: its bytes, which the
    // writer below would give back block by block.)
    if isAsSourceRead, let source = source as? MarkdownSource {
      return String(decoding: source.bytes, as: UTF8.self)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8Count)
    text.withChunkBytes { bytes.append(contentsOf: $0) }
    let runs = attributeRuns(in: 0..<length)
    if let source = source as? MarkdownSource {
      let written = bytes.withUnsafeBufferPointer {
        source.write($0, runs: runs, utf16Count: length)
      }
      return String(decoding: written, as: UTF8.self)
    }
    return AttributedText(maximal: String(decoding: bytes, as: UTF8.self), runs: runs).markdown
  }
}

extension Document {
  /// Adds a storage read from Markdown, its source kept
  /// (``MarkdownSource``): its text and attributes are what
  /// ``DocumentEngine/AttributedText/init(markdown:)`` reads, and
  /// ``markdown(of:)`` gives the Markdown back, byte for byte where the
  /// storage did not change.
  ///
  /// - Throws: what `add(_:text:after:attributes:source:)` throws
  ///   (`DocumentError.duplicateStorage(_:)`, an unknown `after`);
  ///   nothing changes.
  public func add(_ id: StorageID, markdown: String, after: StorageID? = nil)
    throws(DocumentError)
  {
    let (text, source) = AttributedText.read(markdown: markdown)
    try add(id, text: Rope(text.text), after: after, attributes: text.runs, source: source)
  }

  /// Storage `id` as Markdown (``DocumentEngine/TextStorage/markdown``):
  /// with its source kept, if it was read from Markdown.
  ///
  /// - Throws: `DocumentError.unknownStorage(_:)`.
  public func markdown(of id: StorageID) throws(DocumentError) -> String {
    try content.storage(id).markdown
  }
}

extension MarkdownSource {
  /// The text `bytes` (UTF-8, `utf16Count` UTF-16 units) with attributes
  /// `runs`, written as Markdown with this source kept (see
  /// ``DocumentEngine/TextStorage/markdown``).
  func write(
    _ bytes: UnsafeBufferPointer<UInt8>, runs: [AttributeRun], utf16Count: Int
  ) -> [UInt8] {
    var writer = _KeptSourceWriter(source: self, text: bytes, runs: runs, utf16Count: utf16Count)
    writer.write()
    return writer.output
  }

  /// The list marker (bullet or delimiter) on the first line of block
  /// `block`, if it is a list.
  func listMark(ofBlock block: Int) -> UInt8? {
    let leaf = leaves[blocks[block].leaves.lowerBound]
    guard let kind = leaf.intent.components.first?.kind, kind.isListContainer else { return nil }
    let first = blocks[block].span.lowerBound
    var end = first
    while end < blocks[block].span.upperBound, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
    // The marker is before the first leaf's content when that leaf starts
    // on the block's first line (else the item's line holds it alone).
    let leafStart = lineStart(Int(leaf.lines.first))
    if leafStart == first { end = min(end, first + max(0, Int(leaf.lines.column) - 1)) }
    return Self.listMark(in: bytes[first..<end])
  }
}

/// Writes a text as Markdown with a ``MarkdownSource`` kept: the walk over
/// the text's leaves, grouped by the block of the document they are in,
/// each group matched with the source's block of the same identity.
struct _KeptSourceWriter {
  let source: MarkdownSource
  let text: UnsafeBufferPointer<UInt8>
  let runs: [AttributeRun]
  let utf16Count: Int
  let segments: [_MarkdownSegments.Segment]
  var output: [UInt8] = []
  /// The bullet or delimiter of the last block written, if a list: a list
  /// written anew right after it takes another, so that the two stay two.
  var lastListMark: UInt8?
  /// Whether the last block written ends on its own line (see
  /// `closesItself`); whether it was HTML written anew.
  var lastClosesItself = true
  var endsWithHTML = false
  /// Whether the last block was a list or a quote written anew.
  var wroteContainerAnew = false
  /// Whether the last block was a list or a quote, kept or written anew.
  var wroteContainer = false
  /// Whether the last block was written anew with text in a leaf that the
  /// file had as an empty item or quote: a paragraph now, which a line
  /// kept right after it (where nothing could go on the empty container)
  /// would go on as a lazy line.
  var wroteTextInEmptyContainer = false

  init(
    source: MarkdownSource, text: UnsafeBufferPointer<UInt8>, runs: [AttributeRun],
    utf16Count: Int
  ) {
    self.source = source
    self.text = text
    self.runs = runs
    self.utf16Count = utf16Count
    segments = _MarkdownSegments.cut(text, runs: runs, utf16Count: utf16Count)
    output.reserveCapacity(source.bytes.count + 64)
  }

  mutating func write() {
    /// The source's block written last, with its shape; -1 at the start,
    /// -2 after a block written anew in another shape or a new one.
    var previous = -1
    /// The source's first block not yet reached.
    var next = 0
    var index = 0
    while index < segments.count {
      let outer = segments[index].intent?.components.first?.identity
      var end = index + 1
      if let outer {
        while end < segments.count, segments[end].intent?.components.first?.identity == outer {
          end += 1
        }
      }
      let group = index..<end
      index = end
      // A block written anew after one that could take its first line in
      // (a paragraph's lazy line, an HTML block's next line) starts after
      // a blank line; so does any block after HTML written anew.
      let closes = lastClosesItself
      lastClosesItself = closesItself(segments[group.upperBound - 1].intent)
      let afterHTML = endsWithHTML
      endsWithHTML = false
      let afterTextInEmptyContainer = wroteTextInEmptyContainer
      wroteTextInEmptyContainer = false
      guard let block = match(group, from: next) else {
        separate()
        writeAnew(group, block: nil)
        endsWithHTML = isHTML(group.upperBound - 1)
        wroteContainerAnew = isContainer(group)
        wroteContainer = wroteContainerAnew
        previous = -2
        continue
      }
      for deleted in next..<block { keepDefinitions(ofDeleted: deleted) }
      let adjacent = previous == block - 1 && next == block
      let gap = source.blocks[block].gap
      // (The file's blank line after the HTML, if the block was its
      // neighbour there, is that blank line.)
      if afterHTML, !(adjacent && !gap.isEmpty && isBlank(gap)) { separate() }
      // (So is the block, or what the file has before it, after an empty
      // item or quote that now has text: its paragraph would take them in.)
      if afterTextInEmptyContainer, adjacent, gap.isEmpty || !isBlank(gap) { separate() }
      if adjacent || !isBlank(gap) || !endsWithBlankLine() {
        // (Definitions on the gap's first line, under a block that is not
        // their neighbour in the file, go a blank line apart: the file had
        // them under one that closes itself, and the block written last
        // may be a paragraph that would take them in as lazy lines.)
        if !adjacent, !isBlank(gap), !startsWithBlankLine(gap) { separate() }
        output.append(contentsOf: source.bytes[gap])
      }
      next = block + 1
      let sameShape = isSameShape(group, as: block)
      // A block whose first line is indented, after a list or a quote
      // written anew (whose items may now take less indentation), or kept
      // but not its neighbour in the file (what ended the container there
      // went), could go on in it: it is written anew too.
      let afterNewContainer =
        (wroteContainerAnew || (wroteContainer && !adjacent)) && startsIndented(block)
      wroteContainerAnew = false
      wroteContainer = isContainer(group)
      if sameShape, !afterNewContainer, unchanged(group, block: block) {
        if !adjacent { separate() }
        output.append(contentsOf: source.bytes[source.blocks[block].span])
        lastListMark = source.listMark(ofBlock: block)
      } else if sameShape, !afterNewContainer, let rewritten = rewriteLeaves(group, in: block) {
        if !adjacent || !closes { separate() }
        output.append(contentsOf: rewritten)
        lastListMark = source.listMark(ofBlock: block)
        endsWithHTML = isHTML(group.upperBound - 1)
      } else {
        if !(adjacent && sameShape && closes) { separate() }
        writeAnew(group, block: block)
        endsWithHTML = isHTML(group.upperBound - 1)
        wroteContainerAnew = isContainer(group)
        wroteTextInEmptyContainer = endsWithTextInEmptyContainer(group)
      }
      previous = sameShape ? block : -2
    }
    for deleted in next..<source.blocks.count { keepDefinitions(ofDeleted: deleted) }
    // (Definitions on the tail's first line go a blank line apart from a
    // block that was not their neighbour in the file, as a gap's do.)
    let tail = source.tail
    if previous != source.blocks.count - 1 || next != source.blocks.count,
      !isBlank(tail), !startsWithBlankLine(tail)
    {
      separate()
    }
    output.append(contentsOf: source.bytes[tail])
    // A file that did not end with a line ending still does not (unless
    // its last line is blank: a code block's or HTML's, which counts).
    if let last = source.bytes.last, last != 0x0A, last != 0x0D,
      output.count >= source.lineEnding.count,
      output[(output.count - source.lineEnding.count)...].elementsEqual(source.lineEnding),
      !endsWithBlankLine()
    {
      output.removeLast(source.lineEnding.count)
    }
  }

  /// Whether the group is a list or a quote (its outermost component).
  func isContainer(_ group: Range<Int>) -> Bool {
    switch segments[group.lowerBound].intent?.components.first?.kind {
    case .unorderedList?, .orderedList?, .blockQuote?: true
    default: false
    }
  }

  /// Whether the group's last leaf is an item or a quote with no block in
  /// it (empty in the file) that has text now: written as a paragraph.
  func endsWithTextInEmptyContainer(_ group: Range<Int>) -> Bool {
    let last = segments[group.upperBound - 1]
    switch last.intent?.components.last?.kind {
    case .listItem?, .blockQuote?: break
    default: return false
    }
    // (Beyond the separator, a lone line break.)
    return last.utf8.count > 1 || last.utf8.contains { text[$0] != 0x0A && text[$0] != 0x0D }
  }

  /// Whether the source's block `block` starts with a space or a tab.
  func startsIndented(_ block: Int) -> Bool {
    let start = source.blocks[block].span.lowerBound
    return start < source.bytes.count
      && (source.bytes[start] == 0x20 || source.bytes[start] == 0x09)
  }

  /// Whether a block whose last leaf has `intent` ends on its own line, so
  /// that no line after it goes on in it: a header, a thematic break, a
  /// fenced code block (a heading outside any container).
  func closesItself(_ intent: PresentationIntent?) -> Bool {
    guard let intent, intent.components.count == 1, let kind = intent.components.last?.kind
    else { return false }
    switch kind {
    case .header, .thematicBreak: return true
    default: return false
    }
  }

  /// Whether segment `segment` is HTML through and through (an HTML block,
  /// which goes on over the lines after it).
  func isHTML(_ segment: Int) -> Bool {
    let range = segments[segment].utf16
    guard !range.isEmpty, case .paragraph? = segments[segment].intent?.components.last?.kind
    else { return false }
    let html = InlinePresentationIntent.blockHTML.rawValue
    let low = runs.firstRun(endingAfter: range.lowerBound)
    guard low < runs.count, runs[low].range.lowerBound <= range.lowerBound,
      case .inlinePresentationIntent(let bits)? = runs[low].attributes[.inlinePresentationIntent]
    else { return false }
    return bits.rawValue & html != 0
  }

  // MARK: - Matching

  /// The source's block that the group of segments `group` is (from
  /// `next` on): the block of its first leaf, by identity, when the
  /// group's outermost component is the block's.
  func match(_ group: Range<Int>, from next: Int) -> Int? {
    guard let intent = segments[group.lowerBound].intent,
      let innermost = intent.components.last?.identity,
      let outer = intent.components.first?.identity,
      let leaf = source.leafOfIdentity[innermost],
      source.leaves[Int(leaf)].intent == intent
    else { return nil }
    let block = Int(source.leaves[Int(leaf)].block)
    guard block >= next, source.blocks[block].outer == outer else { return nil }
    return block
  }

  /// Whether the group has the block's leaves, with their intents.
  func isSameShape(_ group: Range<Int>, as block: Int) -> Bool {
    let leaves = source.blocks[block].leaves
    guard group.count == leaves.count else { return false }
    for (segment, leaf) in zip(group, leaves)
    where segments[segment].intent != source.leaves[leaf].intent {
      return false
    }
    return true
  }

  /// Whether every leaf of the group has its text and attributes as read
  /// (the group has the block's shape).
  func unchanged(_ group: Range<Int>, block: Int) -> Bool {
    for (segment, leaf) in zip(group, source.blocks[block].leaves)
    where segments[segment].hash != source.leaves[leaf].hash {
      return false
    }
    return true
  }

  // MARK: - Writing a changed leaf on its own lines

  /// The block's source with each changed leaf of the group written anew
  /// over its lines, with the containers' markers of its first line (and
  /// their continuation on the others); nil if a changed leaf cannot be
  /// (a table's cell, an empty container, an indented code block, a leaf
  /// that became more than one block, a prefix that is not only markers).
  func rewriteLeaves(_ group: Range<Int>, in blockIndex: Int) -> [UInt8]? {
    let block = source.blocks[blockIndex]
    var result: [UInt8] = []
    var cursor = block.span.lowerBound
    for (segmentIndex, leafIndex) in zip(group, block.leaves) {
      let leaf = source.leaves[leafIndex]
      let segment = segments[segmentIndex]
      guard segment.hash != leaf.hash else { continue }
      guard let kind = leaf.intent.components.last?.kind,
        !leaf.intent.components.contains(where: { $0.kind.isTable })
      else { return nil }
      switch kind {
      case .paragraph, .header, .codeBlock, .thematicBreak: break
      default: return nil
      }
      let first = Int(leaf.lines.first)
      let last = Int(leaf.lines.last)
      let start = source.lineStart(first)
      let column = Int(leaf.lines.column)
      guard first >= 1, last >= first, start >= cursor, column >= 1, !leaf.lines.isIndentedCode,
        source.lineStart(last + 1) <= block.span.upperBound,
        start + column - 1 <= source.lineStart(first + 1)
      else { return nil }
      let firstPrefix = Array(source.bytes[start..<(start + column - 1)])
      guard Self.isPrefix(firstPrefix) else { return nil }
      if case .codeBlock = kind, firstPrefix.contains(0x09) { return nil }
      // (A task box is the paragraph's or the header's, past the item's
      // content column: its later lines need not be indented past it.)
      var continuation = firstPrefix.map { byte in
        byte == UInt8(ascii: ">") || byte == 0x20 || byte == 0x09 ? byte : 0x20
      }
      let hasBox =
        firstPrefix.contains(UInt8(ascii: "[")) && firstPrefix.contains(UInt8(ascii: "]"))
      if hasBox, let open = firstPrefix.lastIndex(of: UInt8(ascii: "[")) {
        continuation.removeSubrange(open..<continuation.count)
      }
      let itemContinuation = continuation
      // A paragraph's later lines keep the indentation they had (a
      // continuation indented further, a lazy line: any goes on a
      // paragraph), line by line while it has as many; else that of its
      // last line.
      var indentations: [[UInt8]] = []
      if kind == .paragraph || kind.isHeader, last > first {
        let quotes = leaf.intent.components.count { $0.kind == .blockQuote }
        for line in (first + 1)...last {
          guard let indentation = indentation(ofLine: line, quotes: quotes) else {
            indentations = []
            break
          }
          indentations.append(indentation)
        }
        if let last = indentations.last { continuation = last }
      }
      // The leaf's text, without its separator.
      var range16 = segment.utf16
      var range8 = segment.utf8
      // (A leaf that lost its separator to an edit across two blocks
      // ends without one.)
      if segmentIndex < segments.count - 1, !range8.isEmpty, text[range8.upperBound - 1] == 0x0A {
        range8 = range8.lowerBound..<(range8.upperBound - 1)
        range16 = range16.lowerBound..<(range16.upperBound - 1)
      }
      if case .codeBlock = kind {
      } else if Self.containsParagraphSeparator(text[range8]) {
        return nil
      }
      var written = writeLeaf(
        range16, range8, as: leaf.intent.components[leaf.intent.components.count - 1],
        source: source.lineStart(first)..<source.lineStart(last + 1))
      let definitions =
        kind == .paragraph || kind.isHeader ? definitionLineCount(of: leaf) : 0
      if definitions > 0 { written = Self.escapingTitleStart(written) }
      // (Text written right under a title that closes on an escaped
      // delimiter could extend the title: the block is written anew.)
      if definitions > 0, Self.escapedTitleEnd(ofLine: first + definitions - 1, in: source) != nil {
        return nil
      }
      result.append(contentsOf: source.bytes[cursor..<start])
      if definitions > 0 {
        result.append(contentsOf: source.bytes[start..<source.lineStart(first + definitions)])
      }
      if definitions > 0 || written.count(where: { $0 == 0x0A }) != indentations.count + 1 {
        indentations = []
      }
      var firstLine = definitions > 0 ? continuation : firstPrefix
      // (A header after a task item's box goes on the next line, at the
      // item's indentation, as the writer puts it: cmark-gfm reads the rest
      // of the box's line as a paragraph's text, `- [x] ## a` as "## a".)
      if kind.isHeader, definitions == 0, hasBox {
        result.append(contentsOf: firstPrefix)
        result.append(contentsOf: source.lineEnding)
        firstLine = itemContinuation
        continuation = itemContinuation
        indentations = []
      }
      appendLines(
        written, firstPrefix: firstLine, continuation: continuation, lines: indentations,
        to: &result)
      cursor = source.lineStart(last + 1)
    }
    result.append(contentsOf: source.bytes[cursor..<block.span.upperBound])
    return result
  }

  /// The spaces, tabs and quote markers (at most `quotes` of them: the
  /// leaf's quotes; a `>` past them is the line's text) line `line`
  /// starts with; nil when a `>` comes after four columns of white space
  /// or more: whether it is a marker (past a list item's indentation) or
  /// text (on a lazy line, `> a` then `    > b`) depends on containers
  /// that the line does not show, so the caller writes the lines with the
  /// first line's markers instead.
  func indentation(ofLine line: Int, quotes: Int) -> [UInt8]? {
    let start = source.lineStart(line)
    var end = start
    var markers = 0
    var columns = 0
    while end < source.bytes.count {
      let byte = source.bytes[end]
      if byte == UInt8(ascii: ">"), markers < quotes {
        guard columns < 4 else { return nil }
        markers += 1
        columns = 0
      } else if byte == 0x20 {
        columns += 1
      } else if byte == 0x09 {
        columns += 4
      } else {
        break
      }
      end += 1
    }
    return Array(source.bytes[start..<end])
  }

  /// Whether `prefix` is only containers' markers: quote markers, list
  /// bullets and numbers, a task list item's box, spaces and tabs.
  static func isPrefix(_ prefix: [UInt8]) -> Bool {
    var index = 0
    while index < prefix.count {
      if prefix[index] == UInt8(ascii: "["), index + 2 < prefix.count,
        [0x20, UInt8(ascii: "x"), UInt8(ascii: "X")].contains(prefix[index + 1]),
        prefix[index + 2] == UInt8(ascii: "]")
      {
        index += 3
        continue
      }
      guard isPrefixByte(prefix[index]) else { return false }
      index += 1
    }
    return true
  }

  static func isPrefixByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, UInt8(ascii: ">"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: ")"):
      true
    default: false
    }
  }

  /// Whether the bytes hold a line break that would end a paragraph (LF,
  /// CR, U+2029).
  static func containsParagraphSeparator(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == 0x0A || byte == 0x0D { return true }
      if byte == 0xE2, index + 2 < bytes.endIndex, bytes[index + 1] == 0x80,
        bytes[index + 2] == 0xA9
      {
        return true
      }
      index += 1
    }
    return false
  }

  /// The leaf's text of `range16` (`range8` in bytes) written as Markdown
  /// alone: as a block of kind `component`, outside any container.
  func writeLeaf(
    _ range16: Range<Int>, _ range8: Range<Int>, as component: PresentationIntent.Component,
    source sourceRange: Range<Int>
  ) -> [UInt8] {
    let alone = PresentationIntent([component])
    // An empty leaf is its line break alone: the writer writes the kind's
    // empty block (`[]()`, `#`, an empty fence).
    let text =
      range16.isEmpty
      ? AttributedText(
        unchecked: "\n",
        runs: [AttributeRun(0..<1, [.presentationIntent: .presentationIntent(alone)])])
      : attributedText(range16, range8) { _ in alone }
    var writer = _MarkdownWriter()
    writer.style = source.style(forSource: sourceRange)
    writer.write(text)
    return writer.output
  }

  /// Appends the writer's lines (each ending with LF) with the prefixes
  /// (`firstPrefix`, then `lines` one a line while there are, then
  /// `continuation`), in the file's line ending; a blank line keeps only
  /// its quote markers.
  func appendLines(
    _ written: [UInt8], firstPrefix: [UInt8], continuation: [UInt8], lines: [[UInt8]] = [],
    to result: inout [UInt8]
  ) {
    var lineStart = 0
    var number = 0
    var index = 0
    while index < written.count {
      guard written[index] == 0x0A else {
        index += 1
        continue
      }
      var prefix =
        number == 0 ? firstPrefix : number - 1 < lines.count ? lines[number - 1] : continuation
      if index == lineStart {
        while let last = prefix.last, last == 0x20 || last == 0x09 { prefix.removeLast() }
      }
      result.append(contentsOf: prefix)
      result.append(contentsOf: written[lineStart..<index])
      result.append(contentsOf: source.lineEnding)
      number += 1
      index += 1
      lineStart = index
    }
  }

  /// How many of a paragraph's first lines are link reference
  /// definitions (cmark-gfm takes them out of the paragraph, but its
  /// lines still start with them): the most lines from its first that
  /// cmark-gfm reads as nothing but definitions. 0 unless the first starts
  /// with `[`.
  func definitionLineCount(of leaf: MarkdownSource.Leaf) -> Int {
    let first = Int(leaf.lines.first)
    let count = Int(leaf.lines.last) - first + 1
    guard count >= 2 else { return 0 }
    var content = source.lineStart(first) + max(0, Int(leaf.lines.column) - 1)
    var spaces = 0
    while content < source.bytes.count, source.bytes[content] == 0x20, spaces < 3 {
      content += 1
      spaces += 1
    }
    guard content < source.bytes.count, source.bytes[content] == UInt8(ascii: "[") else {
      return 0
    }
    for lines in stride(from: min(count - 1, 64), through: 1, by: -1) {
      let chunk = source.bytes[source.lineStart(first)..<source.lineStart(first + lines)]
      guard Self.holdsNoLeaf(String(decoding: chunk, as: UTF8.self)) else { continue }
      // (A title that closes on an escaped delimiter, `"\"`, read alone,
      // goes on over the next lines in the paragraph when one of them has
      // the delimiter: its definition is then no definition at all.)
      let lastLine = first + lines - 1
      if let delimiter = Self.escapedTitleEnd(ofLine: lastLine, in: source),
        source.bytes[source.lineStart(lastLine + 1)..<source.lineStart(first + count)]
          .contains(delimiter)
      {
        continue
      }
      return lines
    }
    return 0
  }

  /// The delimiter (`"`, `'` or `)`) that line `line` ends with, before
  /// white space, if an odd run of backslashes comes before it: a title
  /// that closes there read alone, and goes on past it after a later
  /// line's delimiter (cmark-gfm takes the longest title).
  static func escapedTitleEnd(ofLine line: Int, in source: MarkdownSource) -> UInt8? {
    var end = source.lineStart(line + 1)
    let start = source.lineStart(line)
    while end > start,
      [0x0A, 0x0D, 0x20, 0x09].contains(source.bytes[end - 1])
    {
      end -= 1
    }
    guard end > start else { return nil }
    let delimiter = source.bytes[end - 1]
    guard
      delimiter == UInt8(ascii: "\"") || delimiter == UInt8(ascii: "'")
        || delimiter == UInt8(ascii: ")")
    else { return nil }
    var backslashes = 0
    var index = end - 2
    while index >= start, source.bytes[index] == UInt8(ascii: "\\") {
      backslashes += 1
      index -= 1
    }
    return backslashes % 2 == 1 ? delimiter : nil
  }

  /// Whether cmark-gfm reads `markdown` as no leaf block at all (only
  /// definitions, blank lines and empty containers).
  static func holdsNoLeaf(_ markdown: String) -> Bool {
    var empty = true
    _CMarkExtensions.withParsed(markdown) { document, _ in
      guard let iterator = cmark_iter_new(document) else {
        empty = false
        return
      }
      defer { cmark_iter_free(iterator) }
      while empty {
        let event = cmark_iter_next(iterator)
        if event == CMARK_EVENT_DONE { break }
        guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else {
          continue
        }
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT, CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_ITEM: break
        default: empty = false
        }
      }
    }
    return empty
  }

  // MARK: - Writing a block anew

  /// Writes the group of segments anew with the writer, in the file's
  /// style (a list in the bullet or delimiter its block had, if it was
  /// one) and line ending.
  mutating func writeAnew(_ group: Range<Int>, block: Int?) {
    // The reference definitions in the block's source (other blocks' links
    // use them) stay, before it, out of its containers.
    var keptDefinitions: [UInt8] = []
    var separated = false
    if let block {
      let definitions = definitions(inBlock: block)
      if !definitions.isEmpty {
        output.append(contentsOf: definitions)
        keptDefinitions = definitions
        // (Under a title that closes on an escaped delimiter, a blank
        // line: the text written after could extend the title.)
        if Self.endsWithEscapedTitle(definitions) {
          separate()
          separated = true
        }
      }
    }
    let lower16 = segments[group.lowerBound].utf16.lowerBound
    var upper16 = segments[group.upperBound - 1].utf16.upperBound
    let lower8 = segments[group.lowerBound].utf8.lowerBound
    var upper8 = segments[group.upperBound - 1].utf8.upperBound
    // The last leaf's separator is not the group's (unless the leaf is
    // empty: the writer makes a lone line break a leaf of its own).
    if group.upperBound < segments.count,
      upper8 - segments[group.upperBound - 1].utf8.lowerBound > 1,
      text[upper8 - 1] == 0x0A
    {
      upper8 -= 1
      upper16 -= 1
    }
    let written = attributedText(lower16..<upper16, lower8..<upper8) { $0 }
    var style = block.map { source.style(forSource: source.blocks[$0].span) } ?? source.style
    if let block, let mark = source.listMark(ofBlock: block) {
      style = Self.style(style, withListMark: mark)
    }
    let outerKind = segments[group.lowerBound].intent?.components.first?.kind
    var mark: UInt8?
    if outerKind == .unorderedList {
      if style.bullets.0 == lastListMark {
        style = Self.style(style, withListMark: style.bullets.2)
      }
      mark = style.bullets.0
    } else if outerKind == .orderedList {
      if style.delimiters.0 == lastListMark {
        style = Self.style(style, withListMark: style.delimiters.1)
      }
      mark = style.delimiters.0
    }
    var writer = _MarkdownWriter()
    writer.style = style
    writer.write(written)
    let afterDefinitions = output.last.map { $0 == 0x0A || $0 == 0x0D } ?? false
    var lines = writer.output
    if !keptDefinitions.isEmpty, afterDefinitions {
      lines = Self.escapingTitleStart(lines)
      // A first line that cannot interrupt a paragraph (an empty list
      // item, indented code, ...) would continue the definitions' one:
      // then a blank line between.
      if !separated, !Self.readsAlike(keptDefinitions, lines, source.lineEnding) {
        separate()
      }
    }
    appendLines(lines, firstPrefix: [], continuation: [], to: &output)
    lastListMark = mark
  }

  /// Whether cmark-gfm reads `written` right under `definitions` as it
  /// does with a blank line between: whether its first block starts there
  /// rather than continuing the paragraph the definitions are read from.
  static func readsAlike(_ definitions: [UInt8], _ written: [UInt8], _ ending: [UInt8]) -> Bool {
    let under = String(decoding: definitions + written, as: UTF8.self)
    let apart = String(decoding: definitions + ending + written, as: UTF8.self)
    return _CMarkBaseline.html(under) == _CMarkBaseline.html(apart)
  }

  /// Whether the last line of `lines` ends with a title delimiter after
  /// an odd run of backslashes (see ``escapedTitleEnd(ofLine:in:)``).
  static func endsWithEscapedTitle(_ lines: [UInt8]) -> Bool {
    var end = lines.count
    while end > 0, [0x0A, 0x0D, 0x20, 0x09].contains(lines[end - 1]) { end -= 1 }
    guard end > 0,
      [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ")")].contains(lines[end - 1])
    else { return false }
    var backslashes = 0
    var index = end - 2
    while index >= 0, lines[index] == UInt8(ascii: "\\") {
      backslashes += 1
      index -= 1
    }
    return backslashes % 2 == 1
  }

  /// `written` with a backslash before its first line's `"`, `'` or `(`
  /// (after its quote markers), if it starts with one: right under a
  /// reference definition the file kept, it would read as the
  /// definition's title.
  static func escapingTitleStart(_ written: [UInt8]) -> [UInt8] {
    var index = 0
    while index < written.count, written[index] == 0x20 || written[index] == UInt8(ascii: ">") {
      index += 1
    }
    guard index < written.count,
      [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "(")].contains(written[index])
    else { return written }
    var result = written
    result.insert(UInt8(ascii: "\\"), at: index)
    return result
  }

  /// `style` with its first bullet (or delimiter) `mark`.
  static func style(_ style: _MarkdownStyle, withListMark mark: UInt8) -> _MarkdownStyle {
    var result =
      mark == UInt8(ascii: ".") || mark == UInt8(ascii: ")")
      ? _MarkdownStyle(bullet: style.bullets.0, delimiter: mark)
      : _MarkdownStyle(bullet: mark, delimiter: style.delimiters.0)
    result.linksInsideEmphasis = style.linksInsideEmphasis
    return result
  }

  /// The text of `range16` (`range8` in bytes) with its runs, relative to
  /// it, each run's presentation intent mapped by `intent`.
  func attributedText(
    _ range16: Range<Int>, _ range8: Range<Int>,
    intent: (PresentationIntent) -> PresentationIntent
  ) -> AttributedText {
    var clipped: [AttributeRun] = []
    var index = runs.firstRun(endingAfter: range16.lowerBound)
    while index < runs.count, runs[index].range.lowerBound < range16.upperBound {
      let run = runs[index]
      let lower = max(run.range.lowerBound, range16.lowerBound)
      let upper = min(run.range.upperBound, range16.upperBound)
      if lower < upper {
        var attributes = run.attributes
        if case .presentationIntent(let value)? = attributes[.presentationIntent] {
          attributes[.presentationIntent] = .presentationIntent(intent(value))
        }
        clipped.append(
          AttributeRun((lower - range16.lowerBound)..<(upper - range16.lowerBound), attributes))
      }
      index += 1
    }
    return AttributedText(
      unchecked: String(decoding: UnsafeBufferPointer(rebasing: text[range8]), as: UTF8.self),
      runs: clipped)
  }

  // MARK: - Between blocks

  /// Keeps the reference definitions of deleted block `block`: what its
  /// gap holds besides blank lines, and those in its source (after a
  /// blank line, so that they do not go on as lazy lines of a paragraph
  /// written before them, whose block the file had a blank line after;
  /// then followed by a blank line, so that no block after takes them in).
  mutating func keepDefinitions(ofDeleted block: Int) {
    keepDefinitions(in: source.blocks[block].gap)
    let inside = definitions(inBlock: block)
    guard !inside.isEmpty else { return }
    separate()
    output.append(contentsOf: inside)
    output.append(contentsOf: source.lineEnding)
  }

  /// The reference definitions in block `block`'s source — those its
  /// paragraphs and headers start with, and the lines between its leaves
  /// that hold nothing else — each line without its containers' markers
  /// and indentation: what the block written anew, or deleted, would lose.
  /// Lines that would not read as definitions alone (one after a list
  /// item's marker) are left out.
  func definitions(inBlock block: Int) -> [UInt8] {
    let span = source.blocks[block].span
    guard !span.isEmpty, source.bytes[span].contains(UInt8(ascii: "[")) else { return [] }
    var quotes = 0
    var covered: [ClosedRange<Int>] = []
    var found: [[UInt8]] = []
    for leafIndex in source.blocks[block].leaves {
      let leaf = source.leaves[leafIndex]
      quotes = max(quotes, leaf.intent.components.count { $0.kind == .blockQuote })
      let first = Int(leaf.lines.first)
      let last = Int(leaf.lines.last)
      guard first >= 1, last >= first else { continue }
      covered.append(first...last)
      guard let kind = leaf.intent.components.last?.kind, kind == .paragraph || kind.isHeader
      else { continue }
      let count = definitionLineCount(of: leaf)
      guard count > 0 else { continue }
      let column = max(0, Int(leaf.lines.column) - 1)
      var lines: [UInt8] = []
      for line in first..<(first + count) {
        let start = source.lineStart(line) + (line == first ? column : 0)
        lines += stripped(start..<source.lineStart(line + 1), quotes: line == first ? 0 : quotes)
      }
      found.append(lines)
    }
    // The lines between leaves.
    let firstLine = source.line(at: span.lowerBound)
    let lastLine = source.line(at: span.upperBound - 1)
    var line = firstLine
    while line <= lastLine {
      guard !covered.contains(where: { $0.contains(line) }) else {
        line += 1
        continue
      }
      var end = line
      while end + 1 <= lastLine, !covered.contains(where: { $0.contains(end + 1) }) { end += 1 }
      var lines: [UInt8] = []
      for gapLine in line...end {
        lines += stripped(
          source.lineStart(gapLine)..<source.lineStart(gapLine + 1), quotes: quotes)
      }
      let text = String(decoding: lines, as: UTF8.self)
      if text.drop(while: { $0 == " " || $0 == "\n" || $0 == "\r" }).first == "[",
        Self.holdsNoLeaf(text)
      {
        found.append(lines)
      }
      line = end + 1
    }
    var result: [UInt8] = []
    for lines in found where lines.contains(UInt8(ascii: "[")) {
      result += lines
      if let last = result.last, last != 0x0A, last != 0x0D {
        result += source.lineEnding
      }
    }
    return result
  }

  /// The bytes of `range` (a line) without their indentation and up to
  /// `quotes` quote markers.
  func stripped(_ range: Range<Int>, quotes: Int) -> [UInt8] {
    var index = range.lowerBound
    var markers = 0
    while index < range.upperBound {
      let byte = source.bytes[index]
      if byte == UInt8(ascii: ">"), markers < quotes {
        markers += 1
      } else if byte != 0x20 && byte != 0x09 {
        break
      }
      index += 1
    }
    return Array(source.bytes[index..<range.upperBound])
  }

  /// Keeps what a deleted block's gap holds besides blank lines (reference
  /// definitions: other blocks' links use them).
  /// (A blank line before them, unless the gap starts with one: the block
  /// written last may not be their neighbour in the file, and a paragraph
  /// would take them in as lazy lines.)
  mutating func keepDefinitions(in gap: Range<Int>) {
    guard !isBlank(gap) else { return }
    if startsWithBlankLine(gap) {
      if output.last != 0x0A, output.last != 0x0D, !output.isEmpty {
        output.append(contentsOf: source.lineEnding)
      }
    } else {
      separate()
    }
    output.append(contentsOf: source.bytes[gap])
  }

  /// Whether the source's first line in `range` is blank.
  func startsWithBlankLine(_ range: Range<Int>) -> Bool {
    var index = range.lowerBound
    while index < range.upperBound, source.bytes[index] == 0x20 || source.bytes[index] == 0x09 {
      index += 1
    }
    return index < range.upperBound && (source.bytes[index] == 0x0A || source.bytes[index] == 0x0D)
  }

  /// Whether the source's bytes in `range` are blank lines alone.
  func isBlank(_ range: Range<Int>) -> Bool {
    !source.bytes[range].contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
  }

  /// Whether what is written is empty or ends with a blank line.
  func endsWithBlankLine() -> Bool {
    var index = output.count - 1
    guard index >= 0 else { return true }
    guard output[index] == 0x0A || output[index] == 0x0D else { return false }
    if output[index] == 0x0A, index > 0, output[index - 1] == 0x0D { index -= 1 }
    index -= 1
    while index >= 0, output[index] == 0x20 || output[index] == 0x09 { index -= 1 }
    return index < 0 || output[index] == 0x0A || output[index] == 0x0D
  }

  /// Ends what is written with a blank line, unless it is empty or does
  /// already: two blocks that were not neighbours in the file stay apart.
  mutating func separate() {
    guard !output.isEmpty else { return }
    let ending = source.lineEnding
    if output.last != 0x0A, output.last != 0x0D { output.append(contentsOf: ending) }
    if !endsWithBlankLine() { output.append(contentsOf: ending) }
  }
}

extension PresentationIntent.Kind {
  var isHeader: Bool {
    if case .header = self { return true }
    return false
  }
}
