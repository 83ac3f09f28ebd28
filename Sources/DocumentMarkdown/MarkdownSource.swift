import CCMarkGFM
import DocumentEngine
import TextRope

/// A Markdown file's source, kept with the storage read from it
/// (`TextStorage.source`), so that writing the storage as
/// Markdown gives back the file's own bytes for every block whose text and
/// attributes did not change, and writes only the changed blocks anew
/// (docs/DESIGN.md, *A Markdown file keeps its form*).
///
/// It keeps the file's bytes and, for each block of the file (a child of
/// the document: a paragraph, a heading, a list, a quote, a table…), the
/// lines it spans and the blank lines and reference definitions before it;
/// for each leaf block inside (what the reader makes one paragraph of the
/// text), its presentation intent, its lines, and a hash of its text and
/// the attributes Markdown writes. The writer cuts the storage's text into
/// leaves again and compares: so it sees every change — a typed character,
/// an insertion at a block's start or end, a block split, merged, moved or
/// deleted, an attribute set (which makes no version) — without following
/// edits. A leaf whose text changed inside a list or a quote is written
/// anew on its own lines, with its containers' markers as the file had
/// them; a block whose leaves changed their shape is written anew whole,
/// with the file's bullets and line endings.
///
/// Built by `AttributedText.read(markdown:)`; `Document`'s
/// `add(_:markdown:after:)` keeps it with the storage, and
/// `markdown(of:)` writes through it.
public struct MarkdownSource: StorageSource {
  /// The file's bytes.
  let bytes: [UInt8]
  /// Where each line starts: line n (from 1, as cmark-gfm counts: after
  /// LF, CR LF or CR) at `lineStarts[n - 1]`.
  let lineStarts: [Int]
  /// The file's line ending (CR LF when most of its line endings are).
  let lineEnding: [UInt8]
  /// Its markers, for what is written anew.
  let style: _MarkdownStyle
  /// The blocks of the document, in order.
  private(set) var blocks: [Block]
  /// The leaf blocks, in order.
  private(set) var leaves: [Leaf]
  /// Each leaf's index, by the identity of its innermost component.
  private(set) var leafOfIdentity: [Int: Int32]
  /// What follows the last block (blank lines, definitions, nothing).
  private(set) var tail: Range<Int>

  /// A block of the document itself.
  struct Block {
    /// The identity of the outermost component of its leaves.
    var outer: Int
    /// Its lines, with their line endings, without blank lines at the end.
    var span: Range<Int>
    /// What comes between the block before and this one: blank lines,
    /// reference definitions, blocks that make no text.
    var gap: Range<Int>
    /// Its leaves, in `leaves`.
    var leaves: Range<Int>
  }

  /// A leaf block: what the reader makes one paragraph of the text.
  struct Leaf {
    var intent: PresentationIntent
    var hash: Int
    /// Its lines (without blank lines at the end) and its content's column.
    var lines: _SourceLines
    /// The block it is in.
    var block: Int32
  }

  /// The file's size in bytes.
  public var byteCount: Int { bytes.count }
}

extension AttributedText {
  /// The attributed text Markdown stands for (``init(markdown:)``), and
  /// the Markdown's source kept for writing it back
  /// (``MarkdownSource``): give both to `Document.add(_:text:after:attributes:source:)`,
  /// or use `Document.add(_:markdown:after:)`.
  ///
  /// The source is nil when cmark-gfm's positions do not describe the text
  /// (never for a text read here: a safeguard); the text is then written
  /// as ``markdown`` writes it.
  ///
  /// - Complexity: O(n) for n bytes of Markdown.
  public static func read(markdown: String) -> (text: AttributedText, source: MarkdownSource?) {
    var reader = _MarkdownReader(capacity: markdown.utf8.count)
    reader.notesSource = true
    reader.read(markdown)
    let runs = reader.runs()
    let text = AttributedText(maximal: String(decoding: reader.utf8, as: UTF8.self), runs: runs)
    let source = reader.utf8.withUnsafeBufferPointer { utf8 in
      MarkdownSource(
        markdown: Array(markdown.utf8), reader: reader, text: utf8, runs: runs,
        utf16Count: reader.utf16Count)
    }
    return (text, source)
  }
}

extension MarkdownSource {
  /// The source of `markdown`, read into `text` and `runs` by `reader`
  /// (which noted where its leaves and blocks are); nil if the positions
  /// do not match the leaves.
  init?(
    markdown: [UInt8], reader: _MarkdownReader, text: UnsafeBufferPointer<UInt8>,
    runs: [AttributeRun], utf16Count: Int
  ) {
    bytes = markdown
    lineStarts = Self.lineStarts(of: markdown)
    lineEnding = Self.mostCommonLineEnding(of: markdown, lineStarts: lineStarts)
    style = Self.style(of: markdown, lineStarts: lineStarts, reader: reader)
    blocks = []
    leaves = []
    leafOfIdentity = [:]
    tail = markdown.count..<markdown.count
    let segments = _MarkdownSegments.cut(text, runs: runs, utf16Count: utf16Count)
    guard segments.count == reader.leaves.count, reader.leafLines.count == segments.count
    else { return nil }
    var leaves: [Leaf] = []
    leaves.reserveCapacity(segments.count)
    var leafOfIdentity: [Int: Int32] = [:]
    leafOfIdentity.reserveCapacity(segments.count)
    var blocks: [Block] = []
    for (index, segment) in segments.enumerated() {
      guard let intent = segment.intent, intent == reader.leaves[index],
        let innermost = intent.components.last
      else { return nil }
      var lines = reader.leafLines[index]
      // (cmark-gfm ends a fenced code block that its container's end cuts
      // short on the line that ends the container, not the block's:
      // `> ```\n> a\n[^b]: c` — a line past its code that is no fence.)
      if lines.lastCodeLine > 0, lines.last == lines.lastCodeLine + 1,
        !Self.isFenceLine(Int(lines.last), in: markdown, lineStarts: lineStarts)
      {
        lines.last = lines.lastCodeLine
      }
      leaves.append(Leaf(intent: intent, hash: segment.hash, lines: lines, block: -1))
      leafOfIdentity[innermost.identity] = Int32(index)
    }
    // The blocks: those with leaves, in order, each over lines after the
    // last one's. A block without leaves (one the reader makes no text of)
    // is part of the gap before the next.
    var end = 0
    for (number, top) in reader.topBlocks.enumerated() {
      let next =
        number + 1 < reader.topBlocks.count ? reader.topBlocks[number + 1].firstLeaf : leaves.count
      guard top.firstLeaf < next else { continue }
      guard let outer = leaves[top.firstLeaf].intent.components.first?.identity else { return nil }
      let first = Int(top.lines.first)
      // (cmark-gfm gives some nodes no position: no source then.)
      guard first >= 1, first <= lineStarts.count else { return nil }
      // (cmark-gfm can give a setext heading followed by a paragraph the
      // paragraph's first line as its last: a block ends before the next.)
      var through = Int(top.lines.last)
      // (A leaf can end after its container, as cmark-gfm gives them: an
      // HTML block's lines are those of its literal.)
      for leaf in top.firstLeaf..<next { through = max(through, Int(leaves[leaf].lines.last)) }
      let nextFirst =
        number + 1 < reader.topBlocks.count
        ? Int(reader.topBlocks[number + 1].lines.first) : lineStarts.count + 1
      through = max(first, min(through, nextFirst - 1))
      // (And it can end an HTML block that closes on the file's last line,
      // without a line ending, a line early: the lines before the next
      // block that are not blank and not only definitions are the block's.)
      let after = lastNonBlankLine(from: through, through: nextFirst - 1)
      if after > through,
        !_KeptSourceWriter.holdsNoLeaf(
          String(decoding: bytes[lineStart(through + 1)..<lineStart(after + 1)], as: UTF8.self))
      {
        through = after
      }
      let last = lastNonBlankLine(from: first, through: through)
      let lower = lineStart(first)
      let upper = lineStart(last + 1)
      guard lower >= end, upper >= lower else { return nil }
      let span = lower..<upper
      for leaf in top.firstLeaf..<next {
        leaves[leaf].block = Int32(blocks.count)
        // A leaf's lines lie in its block's, before the next leaf's.
        let lines = leaves[leaf].lines
        var through = min(Int(lines.last), last)
        if leaf + 1 < next {
          // (The next leaf that has a position: cmark-gfm gives none to
          // the paragraph a table's header row splits off.)
          if let following = (leaf + 1..<next).first(where: { leaves[$0].lines.first >= 1 }) {
            through = min(through, Int(leaves[following].lines.first) - 1)
          }
        } else if Int(lines.last) == Int(top.lines.last) {
          through = last  // (the block's last leaf ends where it does)
        }
        leaves[leaf].lines.last = Int32(lastNonBlankLine(from: Int(lines.first), through: through))
      }
      blocks.append(
        Block(outer: outer, span: span, gap: end..<span.lowerBound, leaves: top.firstLeaf..<next))
      end = span.upperBound
    }
    guard blocks.last?.leaves.upperBound ?? 0 == leaves.count || leaves.isEmpty,
      blocks.first?.leaves.lowerBound ?? 0 == 0
    else { return nil }
    self.leaves = leaves
    self.leafOfIdentity = leafOfIdentity
    self.blocks = blocks
    tail = end..<markdown.count
  }

  /// Whether line `line` (from 1), past its containers' `>` and
  /// indentation, is a run of three or more backticks or tildes and then
  /// only spaces or tabs: what could close a fenced code block.
  static func isFenceLine(_ line: Int, in bytes: [UInt8], lineStarts: [Int]) -> Bool {
    guard line >= 1, line <= lineStarts.count else { return false }
    var index = lineStarts[line - 1]
    let end = line < lineStarts.count ? lineStarts[line] : bytes.count
    while index < end, [0x20, 0x09, UInt8(ascii: ">")].contains(bytes[index]) { index += 1 }
    guard index < end, bytes[index] == UInt8(ascii: "`") || bytes[index] == UInt8(ascii: "~")
    else { return false }
    let fence = bytes[index]
    var run = 0
    while index < end, bytes[index] == fence {
      run += 1
      index += 1
    }
    guard run >= 3 else { return false }
    while index < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    return index == end
  }

  /// Where each line starts, as cmark-gfm counts lines.
  static func lineStarts(of bytes: [UInt8]) -> [Int] {
    var starts = [0]
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte == 0x0A {
        starts.append(index + 1)
      } else if byte == 0x0D {
        if index + 1 < count, bytes[index + 1] == 0x0A { index += 1 }
        starts.append(index + 1)
      }
      index += 1
    }
    return starts
  }

  /// CR LF if most line endings are, else LF.
  static func mostCommonLineEnding(of bytes: [UInt8], lineStarts: [Int]) -> [UInt8] {
    var crlf = 0
    for start in lineStarts.dropFirst() where start >= 2 && bytes[start - 2] == 0x0D {
      crlf += 1
    }
    return crlf * 2 > lineStarts.count - 1 ? [0x0D, 0x0A] : [0x0A]
  }

  /// The file's bullet (that of its first bulleted list) and ordered
  /// lists' delimiter (that of its first ordered list).
  static func style(of bytes: [UInt8], lineStarts: [Int], reader: _MarkdownReader) -> _MarkdownStyle
  {
    var bullet: UInt8?
    var delimiter: UInt8?
    for (index, lines) in reader.leafLines.enumerated() where bullet == nil || delimiter == nil {
      // (Only an item's markers: a footnote's label may have a `-`.)
      guard index < reader.leaves.count,
        reader.leaves[index].components.contains(where: { $0.kind.isListItem })
      else { continue }
      let line = Int(lines.first)
      guard line >= 1, line <= lineStarts.count else { continue }
      let start = lineStarts[line - 1]
      let end = min(start + max(0, Int(lines.column) - 1), bytes.count)
      guard let mark = listMark(in: bytes[start..<end]) else { continue }
      if mark == UInt8(ascii: ".") || mark == UInt8(ascii: ")") {
        if delimiter == nil { delimiter = mark }
      } else if bullet == nil {
        bullet = mark
      }
    }
    var style = _MarkdownStyle(
      bullet: bullet ?? UInt8(ascii: "-"), delimiter: delimiter ?? UInt8(ascii: "."))
    style.linksInsideEmphasis = linksInsideEmphasis(bytes[...]) ?? false
    return style
  }

  /// Whether `bytes` write emphasis around links (`*[`, `_[`, `**[`)
  /// more often than inside them (`[*`, `[_`); nil if they do neither.
  static func linksInsideEmphasis(_ bytes: ArraySlice<UInt8>) -> Bool? {
    var around = 0
    var inside = 0
    let bracket = UInt8(ascii: "[")
    let star = UInt8(ascii: "*")
    let underscore = UInt8(ascii: "_")
    var index = bytes.startIndex + 1
    while index < bytes.endIndex {
      let byte = bytes[index]
      let previous = bytes[index - 1]
      if byte == bracket, previous == star || previous == underscore {
        around += 1
      } else if previous == bracket, byte == star || byte == underscore {
        inside += 1
      }
      index += 1
    }
    return around == inside ? nil : around > inside
  }

  /// The file's style for the block or leaf whose source is `range`: its
  /// own nesting of emphasis and links where it shows one, else the
  /// file's.
  func style(forSource range: Range<Int>) -> _MarkdownStyle {
    var style = self.style
    let lower = max(0, min(range.lowerBound, bytes.count))
    let upper = max(lower, min(range.upperBound, bytes.count))
    if let nesting = Self.linksInsideEmphasis(bytes[lower..<upper]) {
      style.linksInsideEmphasis = nesting
    }
    return style
  }

  /// The last list marker in a line's prefix: a bullet, or an ordered
  /// item's delimiter; nil if it has none.
  static func listMark(in prefix: ArraySlice<UInt8>) -> UInt8? {
    var mark: UInt8?
    var index = prefix.startIndex
    while index < prefix.endIndex {
      let byte = prefix[index]
      switch byte {
      case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"):
        mark = byte
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        var after = index
        while after < prefix.endIndex,
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(prefix[after])
        {
          after += 1
        }
        if after < prefix.endIndex,
          prefix[after] == UInt8(ascii: ".") || prefix[after] == UInt8(ascii: ")")
        {
          mark = prefix[after]
          index = after
        }
      default:
        break
      }
      index += 1
    }
    return mark
  }

  // MARK: - Lines

  var lineCount: Int { lineStarts.count }

  /// Where line `line` (from 1) starts; the end of the file past the last.
  /// The number (from 1) of the line that holds byte `offset`.
  func line(at offset: Int) -> Int {
    var low = 0
    var high = lineStarts.count
    // The last line start at or before `offset`.
    while high - low > 1 {
      let middle = (low + high) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle }
    }
    return low + 1
  }

  func lineStart(_ line: Int) -> Int {
    line >= 1 && line <= lineStarts.count ? lineStarts[line - 1] : bytes.count
  }

  /// Whether line `line` has only spaces and tabs (a line past the last
  /// counts as blank).
  func isBlank(_ line: Int) -> Bool {
    let start = lineStart(line)
    let end = lineStart(line + 1)
    guard start < end else { return true }
    for byte in bytes[start..<end] where byte != 0x20 && byte != 0x09 {
      if byte == 0x0A || byte == 0x0D { return true }
      return false
    }
    return true
  }

  /// The last line from `first` through `last` that is not blank (`first`
  /// if all are).
  func lastNonBlankLine(from first: Int, through last: Int) -> Int {
    var line = min(last, lineStarts.count)
    while line > first, isBlank(line) { line -= 1 }
    return max(first, line)
  }
}

// MARK: - Cutting a text into leaves

/// A text cut into its leaf blocks: stretches of one presentation intent
/// (a leaf's text with the separator after it), each with a hash of its
/// bytes and of the attributes Markdown writes (not the presentation
/// intent, which the cut compares itself; not the host's keys, which
/// Markdown does not write).
enum _MarkdownSegments {
  struct Segment {
    var utf16: Range<Int>
    var utf8: Range<Int>
    var intent: PresentationIntent?
    var hash: Int
  }

  /// The inline attributes Markdown writes, of one run: the writer's.
  typealias Inline = _MarkdownWriter.Style

  /// The segments of the text `bytes` (UTF-8; `utf16Count` units) whose
  /// attributes are `runs` (maximal, in order, UTF-16).
  ///
  /// - Complexity: O(n + r) for n bytes and r runs.
  static func cut(
    _ bytes: UnsafeBufferPointer<UInt8>, runs: [AttributeRun], utf16Count: Int
  ) -> [Segment] {
    // The pieces of equal attributes, runs and the gaps between them.
    var segments: [Segment] = []
    var position16 = 0
    var position8 = 0
    /// Moves the UTF-8 position to the UTF-16 offset `target`.
    func advance(to target: Int) {
      while position16 < target, position8 < bytes.count {
        let byte = bytes[position8]
        if byte < 0x80 {
          position8 &+= 1
          position16 &+= 1
        } else if byte < 0xE0 {
          position8 &+= 2
          position16 &+= 1
        } else if byte < 0xF0 {
          position8 &+= 3
          position16 &+= 1
        } else {
          position8 &+= 4
          position16 &+= 2
        }
      }
    }

    var start16 = 0
    var start8 = 0
    var intent: PresentationIntent?
    var started = false
    // The inline pieces of the segment being cut, relative to its start,
    // merged when equal.
    var inlines: [(range: Range<Int>, inline: Inline)] = []

    func finish(at end16: Int, _ end8: Int) {
      var hasher = Hasher()
      hasher.combine(end8 - start8)
      hasher.combine(
        bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start8..<end8])))
      for piece in inlines where !piece.inline.isEmpty {
        hasher.combine(piece.range.lowerBound)
        hasher.combine(piece.range.upperBound)
        hasher.combine(piece.inline)
      }
      segments.append(
        Segment(
          utf16: start16..<end16, utf8: start8..<end8, intent: intent, hash: hasher.finalize()))
      inlines.removeAll(keepingCapacity: true)
    }

    func add(_ range: Range<Int>, intent pieceIntent: PresentationIntent?, inline: Inline) {
      guard !range.isEmpty else { return }
      if !started || pieceIntent != intent {
        if started {
          advance(to: range.lowerBound)
          finish(at: range.lowerBound, position8)
        }
        started = true
        start16 = range.lowerBound
        advance(to: range.lowerBound)
        start8 = position8
        intent = pieceIntent
      }
      let relative = (range.lowerBound - start16)..<(range.upperBound - start16)
      if let last = inlines.last, last.inline == inline,
        last.range.upperBound == relative.lowerBound
      {
        inlines[inlines.count - 1].range = last.range.lowerBound..<relative.upperBound
      } else {
        inlines.append((relative, inline))
      }
    }

    var offset = 0
    for run in runs {
      let lower = max(run.range.lowerBound, offset)
      let upper = min(run.range.upperBound, utf16Count)
      guard lower < upper else { continue }
      add(offset..<lower, intent: nil, inline: Inline())
      let (inline, runIntent) = Inline.of(run.attributes)
      add(lower..<upper, intent: runIntent, inline: inline)
      offset = upper
    }
    add(offset..<utf16Count, intent: nil, inline: Inline())
    if started {
      advance(to: utf16Count)
      finish(at: utf16Count, bytes.count)
    }
    return segments
  }
}
