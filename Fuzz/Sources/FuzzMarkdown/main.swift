// FuzzMarkdown: DocumentMarkdown's reader (`AttributedText(markdown:)`) and
// writer (`AttributedText.markdown`) against each other.
//
// The first byte chooses the half (its lowest bit); the rest is its input.
//
// (a) Even: the rest is Markdown (UTF-8; invalid bytes read as U+FFFD). The
//     reading must be well formed (`Reading.check`: runs sorted, inside the
//     text, not empty, on scalar boundaries, maximal; only well-known keys
//     with their own kind of value; every unit in a block; every block
//     followed by its separator; identities numbered from 1 in document
//     order, one kind and one place each). Writing it and reading the
//     Markdown again must give the same attributed text, and writing that
//     must give the same Markdown; except when a paragraph or header of the
//     reading holds a line break character (LF, CR, U+2029) that is not
//     HTML, which the writer documents as the start of a new paragraph: then
//     the second reading must be well formed and read back as itself.
// (b) Odd: the rest drives `MarkdownGenerator`, which writes Markdown whose
//     reading it knows: blocks of every kind, nested, and text full of what
//     Markdown treats as markup, spelled as character references. The
//     reading must be well formed and be what the generator meant (text,
//     inline intents, links, block kinds); written and read again it must
//     be the same.
//
// With the source kept (`Document.add(_:markdown:)`), half (a) also checks
// that the Markdown is written back byte for byte, and, after three edits
// the input chooses (text typed, deleted, set strong), that what is written
// reads as the storage, or as the writer without the source writes it, or
// (at the least) with no character lost or doubled; except after an edit
// that leaves an HTML block open (`<!--` without its `-->`), which takes in
// everything after it in any Markdown (`FUZZ_KEPT_EDITS=0` skips the
// edits). A paragraph that a table
// cuts short has no position in cmark-gfm: such a file keeps no source,
// and is written as the writer writes it.
//
// `FUZZ_TRACE=1` prints the Markdown, the readings and what was written.
// `FUZZ_AVOID=name,…` steps around known findings (the oracles stay; the
// inputs that reach the finding are skipped), for exploring past them
// until they are fixed, never for CI:
// - `noncharacter-reference`: cmark-gfm 0.29.0.gfm.6 writes a reference to
//   U+FFFE or U+FFFF (`&#65535;`) as the single byte 0xFE or 0xFF, which the
//   reader counts as two UTF-16 units (a lead byte) while the text decodes
//   it as one U+FFFD, so its runs end past the text. Half (a) skips
//   Markdown with such a reference; half (b) generates neither scalar.
// - `leading-bom`: the writer writes a text that starts with U+FEFF with
//   that character first, and cmark-gfm drops a byte order mark at the
//   start of its input. No round trip when the Markdown written starts
//   with U+FEFF.
// - `cell-leading-vt-ff`: cmark-gfm trims U+000B and U+000C at the start of
//   a table cell, which the writer writes as they are. No round trip when a
//   cell's text starts with one.
// - `link-edge-space`: cmark-gfm trims a link destination (spaces, tabs,
//   U+000B, U+000C) before it decodes references, so `<&#32;x>` is " x";
//   the writer writes the space as it is, and it is trimmed. No round trip
//   when a link's URL starts or ends with one of them.
// - `nested-bullets-rule`: the writer bullets nested lists alike, so three
//   of them whose first items share a line, the innermost empty, are
//   written `- - -`: a thematic break. No round trip when a line written,
//   past some container markers, is three or more equal bullets and spaces.
// - `entity-in-destination`: cmark-gfm decodes references in a link
//   destination or an info string before it removes backslash escapes, so
//   the writer's `\&amp;` for the text "&amp;" reads as "&". No round trip
//   when a link's URL or a code block's language has a `&` with a `;`
//   after it.
// - `delimiter-beside-tilde`: with the strikethrough extension, cmark-gfm
//   skips `~` when it looks for the characters around a delimiter run
//   (`SKIP_CHARS` in inlines.c), so in `~~I~~_a_` the `_` follows "I" and
//   cannot open (and `**` after `~~0~~` cannot open before a reference);
//   the writer counts `~~` as punctuation. No round trip when the Markdown
//   written has `_` or `*` right before or after `~~`.
// - `cell-link-pipe`: the writer escapes `|` in a cell's text and code but
//   not in a link's URL, where it ends the cell. No round trip when a link
//   in a table cell has a `|` in its URL.
// - `tilde-language`: for a language with a backtick the writer fences
//   the code block with tildes and writes the language right after, so a
//   language that starts with `~` lengthens the fence, which the closing
//   fence then does not close. No round trip for such a language.
// - `language-backtick-cluster`: the writer looks for a backtick in a
//   language by Character, so a backtick with a combining mark after it
//   (one grapheme) goes unseen and the language lands, backtick and all,
//   after a backtick fence, which then is no fence. No round trip when a
//   language has a backtick scalar inside a longer grapheme.
// - `delimiter-row-line`: the writer leaves a paragraph line that starts
//   with `:-` as it is, and under a line of one cell (`x`, `\|`) it is a
//   table's delimiter row. No round trip when a line written starts
//   (past container markers) with `:-`.
// - `break-at-paragraph-edge`: a link (or emphasis) around a line break can
//   make a paragraph that starts or ends with a soft or hard break
//   (`[\n]()`); the writer ends the line there, and Markdown drops a line
//   break at a paragraph's edge. No round trip when a paragraph or header
//   starts or ends with a break.
// - `html-block-in-item`: an HTML block that only its closing marker ends
//   (`<!A`, `<!--`, `<?`, `<script`, …) ends with its list item when the
//   item does; the writer puts a blank line after it, still inside the
//   item, and the HTML block takes it in. No round trip when a list item
//   holds an HTML block.
// - `link-break-edge`: a link's text can start or end with a line break
//   (`x[\ny](u)`); the writer gives a break only the marks of both its
//   neighbours, so the break loses the link. No round trip when a break has
//   a link that a neighbour lacks.
// - `html-after-break`: inline HTML can start a paragraph's line (`i\n\t<td>`,
//   indented in the source); the writer writes it at the start of the line,
//   where `<td>` (HTML block kinds 1–6) starts an HTML block. No round trip
//   when inline HTML follows a break.
// - `consecutive-breaks`: a line with no text (`o\n[]()\no`) gives a
//   paragraph two breaks in a row; the writer writes an empty line between
//   them, which ends the paragraph. No round trip when two breaks touch.
// - `reopen-before-break`: when a mark (strong) starts inside another
//   (emphasis, or a link) and outlasts it, and the inner one ends right
//   before a line break, the writer closes both and opens the outer one
//   again at the end of the line, where an opener cannot open
//   (`_a**b**_**\nc**`, `[a**b**](<u>)**\nc**`). No round trip when a
//   break has emphasis-like marks and the unit before it others, or
//   another link.

import DocumentEngine
import DocumentMarkdown
import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

/// The program's entry point (SwiftPM links `main` to `<Module>_main`):
/// libFuzzer's driver, testing `fuzz`.
@_cdecl("FuzzMarkdown_main")
public func entry(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  runFuzzer(argc, argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  if data[0] & 1 == 0 {
    let markdown = String(
      decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    if Avoid.contains("noncharacter-reference"), hasNoncharacterReference(markdown) { return 0 }
    checkRoundTrip(markdown: markdown)
    checkKeptSource(markdown: markdown)
  } else {
    var generator = MarkdownGenerator(FuzzInput(data + 1, size - 1))
    generator.generateDocument()
    checkGenerated(generator)
  }
  return 0
}

/// Whether half (a) also checks edits with the source kept (unless
/// `FUZZ_KEPT_EDITS=0`).
enum KeptEdits {
  static let enabled = getenv("FUZZ_KEPT_EDITS").map { String(cString: $0) != "0" } ?? true
}

/// Half (a), with the source kept (`Document.add(_:markdown:)`): written
/// back unchanged it is the input, byte for byte; after an edit that the
/// input's bytes choose (text typed, deleted, or set strong), it reads as
/// what the writer without the source writes of the storage.
func checkKeptSource(markdown: String) {
  let document = Document()
  do {
    try document.add("file", markdown: markdown)
    let unchanged = try document.markdown(of: "file")
    // (The source is not kept when cmark-gfm gives a block no position: a
    // paragraph that a table cuts short, `b\na|\n-|-`. None of 2,007 real
    // files has one; such a file is written as the writer writes it.)
    let kept = try document.content.storage("file").source != nil
    if kept, unchanged != markdown {
      oracleFailed("written back unchanged with its source: \(unchanged.debugDescription)")
    }
    // (A storage as it was read gives its source back without comparing
    // its blocks: `isAsSourceRead`. After an edit taken back, the writer
    // compares them all, and must give back the same bytes.)
    if kept, (try document.content.storage("file")).length > 0 {
      try document.edit("file", range: 0..<0, with: "x")
      _ = try document.undo()
      let compared = try document.markdown(of: "file")
      if compared != markdown {
        oracleFailed(
          "written back after an edit taken back, with its source: \(compared.debugDescription)")
      }
    }
    guard KeptEdits.enabled else { return }
    let storage = try document.content.storage("file")
    let length = storage.length
    guard length > 0 else { return }
    var hash: UInt64 = 14_695_981_039_346_656_037
    for byte in markdown.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
    for round in 0..<3 {
      let current = try document.content.storage("file")
      let count = current.length
      var start = Int((hash >> UInt64(8 * round)) % UInt64(count + 1))
      var end = min(count, start + Int((hash >> 40) % 4))
      // On scalar boundaries.
      while start > 0, (try? current.text.utf8Offset(of: start, in: .utf16)) == nil { start -= 1 }
      while end < count, (try? current.text.utf8Offset(of: end, in: .utf16)) == nil { end += 1 }
      end = max(start, end)
      switch (hash >> UInt64(48 + 2 * round)) % 3 {
      case 0: try document.edit("file", range: start..<end, with: round == 1 ? "\n" : "x*")
      case 1: try document.edit("file", range: start..<end, with: "")
      default:
        try document.setAttributes(
          [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)],
          in: "file", range: start..<end)
      }
      let edited = try document.content.storage("file")
      let kept = try document.markdown(of: "file")
      let plain = edited.attributedText(in: 0..<edited.length).markdown
      trace("kept source, edit \(round) at \(start)..<\(end): \(kept.debugDescription)")
      // (An HTML block that the edit left open — `<!--` without its
      // `-->` — takes in everything after it, in any Markdown: what the
      // kept source writes after it, the file's own bytes, and what the
      // writer writes, its own, are taken in as different text. From
      // then on the edits are not compared.)
      if hasOpenHTMLBlock(edited.attributedText(in: 0..<edited.length)) { return }
      let keptReading = Reading.renumbered(AttributedText(markdown: kept))
      let plainReading = Reading.renumbered(AttributedText(markdown: plain))
      // (Where the writer cannot say the storage, a block kept from the
      // source says it better: reading back as the storage is right too.)
      let storageText = Reading.renumbered(edited.attributedText(in: 0..<edited.length))
      // (And where both differ from the storage in what the writer cannot
      // say, a block kept and a block written anew differ in how: the two
      // readings written and read again agree.)
      func normalized(_ text: AttributedText) -> AttributedText {
        Reading.renumbered(AttributedText(markdown: text.markdown))
      }
      // (At the least, no character is lost or doubled: the kept reading
      // has the text of one of them, but for white space and line breaks,
      // which blocks written in two ways share out differently.)
      func squeezed(_ text: AttributedText) -> [Unicode.Scalar] {
        text.text.unicodeScalars.filter { !$0.properties.isWhitespace }
      }
      if keptReading != plainReading, keptReading != storageText,
        normalized(keptReading) != normalized(plainReading),
        squeezed(keptReading) != squeezed(plainReading),
        squeezed(keptReading) != squeezed(storageText)
      {
        oracleFailed(
          "with the source kept, edit \(round): \(kept.debugDescription) reads "
            + "\(Reading.describe(keptReading)), the writer without it \(plain.debugDescription) "
            + "\(Reading.describe(plainReading))")
      }
    }
  } catch {
    oracleFailed("a document edit failed: \(error)")
  }
}

/// Whether `text` has an HTML block of CommonMark's kinds 1 to 5 (a
/// comment, `<?`, `<!X`, CDATA, `<script`, `<pre`, `<style`) whose text
/// does not end it, before another block.
func hasOpenHTMLBlock(_ text: AttributedText) -> Bool {
  let units = Array(text.text.utf16)
  let blockHTML = InlinePresentationIntent.blockHTML.rawValue
  for (index, run) in text.runs.enumerated() where index < text.runs.count - 1 {
    guard case .inlinePresentationIntent(let intent)? = run.attributes[.inlinePresentationIntent],
      intent.rawValue & blockHTML != 0
    else { continue }
    let html = String(decoding: units[run.range], as: UTF16.self)
    let trimmed = html.drop { $0 == " " }.lowercased()
    let ends: [(start: String, end: String)] = [
      ("<!--", "-->"), ("<?", "?>"), ("<![cdata[", "]]>"), ("<script", "</script>"),
      ("<pre", "</pre>"), ("<style", "</style>"),
    ]
    for (start, end) in ends where trimmed.hasPrefix(start) && !trimmed.contains(end) {
      return true
    }
    if trimmed.hasPrefix("<!"), let letter = html.drop(while: { $0 == " " }).dropFirst(2).first,
      letter.isUppercase, letter.isASCII, !html.contains(">")
    {
      return true
    }
  }
  return false
}

/// Half (a): Markdown read, written and read again.
func checkRoundTrip(markdown: String) {
  trace("markdown: \(markdown.debugDescription)")
  let first = AttributedText(markdown: markdown)
  trace("read: \(Reading.describe(first))")
  Reading.check(first, "the reading of the input")
  let written = first.markdown
  trace("wrote: \(written.debugDescription)")
  if avoidsKnownFinding(first, written: written) { return }
  let second = AttributedText(markdown: written)
  Reading.check(second, "the reading of the written Markdown")
  if Reading.hasLineBreakInParagraph(first) {
    // The documented exception: the writer starts a new paragraph there.
    // What it wrote must still be a fixed point.
    trace("(a paragraph or header holds a line break: the exception)")
    checkFixedPoint(second, input: markdown)
    return
  }
  if second != first {
    oracleFailed(
      """
      written and read again, the Markdown does not give the same attributed text
        input:    \(markdown.debugDescription)
        read:     \(Reading.describe(first))
        written:  \(written.debugDescription)
        read again: \(Reading.describe(second))
        \(Reading.difference(first, second))
      """)
  }
  let rewritten = second.markdown
  expect(
    rewritten == written,
    """
    writing the second reading gives other Markdown
      input:    \(markdown.debugDescription)
      written:  \(written.debugDescription)
      rewritten: \(rewritten.debugDescription)
    """)
}

/// `text` (a reading of what the writer wrote) written and read again must
/// be itself, unless it too holds a line break in a paragraph.
func checkFixedPoint(_ text: AttributedText, input: String) {
  let written = text.markdown
  if avoidsKnownFinding(text, written: written) { return }
  let again = AttributedText(markdown: written)
  Reading.check(again, "the third reading")
  guard !Reading.hasLineBreakInParagraph(text) else { return }
  if again != text {
    oracleFailed(
      """
      the writer's own reading, written and read again, is not the same
        input:    \(input.debugDescription)
        read:     \(Reading.describe(text))
        written:  \(written.debugDescription)
        read again: \(Reading.describe(again))
        \(Reading.difference(text, again))
      """)
  }
}

/// Half (b): the generator's Markdown read as meant, written and read again.
func checkGenerated(_ generator: MarkdownGenerator) {
  let markdown = generator.source
  trace("generated: \(markdown.debugDescription)")
  let first = AttributedText(markdown: markdown)
  trace("read: \(Reading.describe(first))")
  Reading.check(first, "the reading of the generated Markdown")
  let expected = generator.expectedUnits()
  let got = Reading.units(of: first)
  if let problem = Reading.mismatch(expected: expected, got: got) {
    oracleFailed(
      """
      the generated Markdown does not read as meant: \(problem)
        markdown: \(markdown.debugDescription)
        meant:    \(generator.expectedText.debugDescription)
        read:     \(Reading.describe(first))
      """)
  }
  if Reading.hasLineBreakInParagraph(first) {
    checkFixedPoint(first, input: markdown)
    return
  }
  let written = first.markdown
  trace("wrote: \(written.debugDescription)")
  if avoidsKnownFinding(first, written: written) { return }
  let second = AttributedText(markdown: written)
  Reading.check(second, "the reading of the written Markdown")
  if second != first {
    oracleFailed(
      """
      a generated text, written and read again, is not the same
        markdown: \(markdown.debugDescription)
        read:     \(Reading.describe(first))
        written:  \(written.debugDescription)
        read again: \(Reading.describe(second))
        \(Reading.difference(first, second))
      """)
  }
}

/// Whether the round trip of `text`, written as `written`, runs into a
/// known finding that `FUZZ_AVOID` names (and so stops here).
func avoidsKnownFinding(_ text: AttributedText, written: String) -> Bool {
  if Avoid.contains("leading-bom"), written.unicodeScalars.first == "\u{FEFF}" {
    trace("(avoided: leading-bom)")
    return true
  }
  if Avoid.contains("cell-leading-vt-ff") {
    let utf16 = Array(text.text.utf16)
    for group in Reading.blockGroups(text) {
      guard case .tableCell? = group.intent?.components.last?.kind else { continue }
      if utf16[group.range.lowerBound] == 0x0B || utf16[group.range.lowerBound] == 0x0C {
        trace("(avoided: cell-leading-vt-ff)")
        return true
      }
    }
  }
  if Avoid.contains("nested-bullets-rule"),
    written.split(separator: "\n").contains(where: isBulletRule)
  {
    trace("(avoided: nested-bullets-rule)")
    return true
  }
  if Avoid.contains("delimiter-beside-tilde"),
    ["~~_", "_~~", "~~*", "*~~"].contains(where: written.contains)
  {
    trace("(avoided: delimiter-beside-tilde)")
    return true
  }
  if Avoid.contains("entity-in-destination") {
    func entityLike(_ string: String) -> Bool {
      guard let ampersand = string.firstIndex(of: "&") else { return false }
      return string[ampersand...].contains(";")
    }
    for run in text.runs {
      var strings: [String] = []
      if case .link(let url) = run.attributes[.link] { strings.append(url) }
      if case .presentationIntent(let intent) = run.attributes[.presentationIntent],
        case .codeBlock(let language?) = intent.components.last?.kind
      {
        strings.append(language)
      }
      if strings.contains(where: entityLike) {
        trace("(avoided: entity-in-destination)")
        return true
      }
    }
  }
  if Avoid.contains("cell-link-pipe") {
    for run in text.runs {
      guard case .link(let url) = run.attributes[.link], url.contains("|"),
        case .presentationIntent(let intent) = run.attributes[.presentationIntent],
        case .tableCell? = intent.components.last?.kind
      else { continue }
      trace("(avoided: cell-link-pipe)")
      return true
    }
  }
  if Avoid.contains("tilde-language") {
    for run in text.runs {
      guard case .presentationIntent(let intent) = run.attributes[.presentationIntent],
        case .codeBlock(let language?) = intent.components.last?.kind,
        language.hasPrefix("~"), language.contains("`")
      else { continue }
      trace("(avoided: tilde-language)")
      return true
    }
  }
  if Avoid.contains("reopen-before-break"), Reading.hasMarkChangeBeforeBreak(text) {
    trace("(avoided: reopen-before-break)")
    return true
  }
  if Avoid.contains("language-backtick-cluster") {
    for run in text.runs {
      guard case .presentationIntent(let intent) = run.attributes[.presentationIntent],
        case .codeBlock(let language?) = intent.components.last?.kind,
        language.unicodeScalars.contains("`"), !language.contains("`")
      else { continue }
      trace("(avoided: language-backtick-cluster)")
      return true
    }
  }
  if Avoid.contains("delimiter-row-line"),
    written.split(separator: "\n").contains(where: startsLikeDelimiterRow)
  {
    trace("(avoided: delimiter-row-line)")
    return true
  }
  if Avoid.contains("break-at-paragraph-edge"), Reading.hasBreakAtParagraphEdge(text) {
    trace("(avoided: break-at-paragraph-edge)")
    return true
  }
  if Avoid.contains("html-block-in-item") {
    for run in text.runs {
      guard case .inlinePresentationIntent(let inline) = run.attributes[.inlinePresentationIntent],
        inline.contains(.blockHTML),
        case .presentationIntent(let intent) = run.attributes[.presentationIntent],
        intent.components.contains(where: { $0.kind.isListItem })
      else { continue }
      trace("(avoided: html-block-in-item)")
      return true
    }
  }
  if let name = Reading.breakFinding(text), Avoid.contains(name) {
    trace("(avoided: \(name))")
    return true
  }
  if Avoid.contains("link-edge-space") {
    let edges: Set<Unicode.Scalar> = [" ", "\t", "\u{0B}", "\u{0C}"]
    for run in text.runs {
      guard case .link(let url) = run.attributes[.link] else { continue }
      if let first = url.unicodeScalars.first, let last = url.unicodeScalars.last,
        edges.contains(first) || edges.contains(last)
      {
        trace("(avoided: link-edge-space)")
        return true
      }
    }
  }
  return false
}

/// Whether `line`, past its container markers, starts with `:-` (as a
/// table's delimiter row can).
func startsLikeDelimiterRow(_ line: Substring) -> Bool {
  var rest = line.drop { $0 == " " || $0 == ">" }
  while let space = rest.firstIndex(of: " "),
    rest[..<space] == "-" || rest[..<space] == "*" || rest[..<space] == "+"
      || (rest[..<space].dropLast().allSatisfy(\.isASCIIDigit) && rest[..<space].count > 1
        && (rest[rest.index(before: space)] == "." || rest[rest.index(before: space)] == ")"))
  {
    rest = rest[space...].drop { $0 == " " || $0 == ">" }
  }
  return rest.hasPrefix(":-")
}

/// Whether `line`, past some container markers (quotes, bullets, numbers),
/// is three or more equal bullets (`-` or `*`) with spaces between: a
/// thematic break.
func isBulletRule(_ line: Substring) -> Bool {
  let tokens = line.split(separator: " ")
  func isMarker(_ token: Substring) -> Bool {
    token == ">" || token == "-" || token == "*" || token == "+"
      || (token.count > 1 && token.dropLast().allSatisfy(\.isASCIIDigit)
        && (token.last == "." || token.last == ")"))
  }
  for start in tokens.indices {
    let rest = tokens[start...]
    if rest.count >= 3, let first = rest.first, first == "-" || first == "*",
      rest.allSatisfy({ $0 == first })
    {
      return true
    }
    if !isMarker(tokens[start]) { return false }
  }
  return false
}

extension Character {
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Whether `markdown` has a numeric character reference (`&#65535;`,
/// `&#xFFFE;`, leading zeros or not) to U+FFFE or U+FFFF.
func hasNoncharacterReference(_ markdown: String) -> Bool {
  let bytes = Array(markdown.utf8)
  var index = 0
  while index + 2 < bytes.count {
    defer { index += 1 }
    guard bytes[index] == UInt8(ascii: "&"), bytes[index + 1] == UInt8(ascii: "#") else { continue }
    var next = index + 2
    var radix: UInt32 = 10
    if bytes[next] | 0x20 == UInt8(ascii: "x") {
      radix = 16
      next += 1
    }
    var value: UInt32 = 0
    while next < bytes.count, let digit = hexDigit(bytes[next]), digit < radix {
      value = min(value &* radix &+ digit, 0x11_0000)
      next += 1
    }
    if next < bytes.count, bytes[next] == UInt8(ascii: ";"), value == 0xFFFE || value == 0xFFFF {
      return true
    }
  }
  return false
}

func hexDigit(_ byte: UInt8) -> UInt32? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
  case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
  default: nil
  }
}
