import DocumentEngine
import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WritingContext {
  /// The context's text written as Markdown, for a tool that reads
  /// Markdown (a language model): ``DocumentEngine/AttributedText/markdown`` of
  /// `attributedText` without the line break that ends its last
  /// paragraph, if it ends with one (Markdown's blocks have none;
  /// `Document.replace(context:range:markdown:basis:policy:)` keeps it).
  /// A code block's last line break, and one that is an empty block of its
  /// own, are written.
  ///
  /// Markdown has no offsets of its own: a tool that answers in Markdown
  /// replaces a range of the context's *text* (`WritingContext.range` or
  /// the whole text), and `Document.replace(context:range:markdown:basis:policy:)`
  /// reads its answer.
  public var markdown: String {
    var text = attributedText
    let length = text.text.utf16.count
    let last = self.text.separatorLength(before: length)
    if last > 0, length > last, Self.endsAParagraph(text, lineBreakAt: length - last) {
      let kept = length - last
      text = AttributedText(
        unchecked: String(text.text.utf16.prefix(kept)) ?? text.text,
        runs: text.runs.compactMap { run in
          let end = min(run.range.upperBound, kept)
          return run.range.lowerBound < end
            ? AttributeRun(run.range.lowerBound..<end, run.attributes) : nil
        })
    }
    return text.markdown
  }

  /// Whether the line break at `offset` ends the paragraph before it (one
  /// with text, not a code block's, and not a block of its own: a line
  /// break with a presentation intent other than its paragraph's is an
  /// empty block).
  static func endsAParagraph(_ text: AttributedText, lineBreakAt offset: Int) -> Bool {
    let before = text.attributes(at: offset - 1)
    let lineBreak = text.attributes(at: offset)
    let unit = text.text.utf16[
      text.text.utf16.index(text.text.utf16.startIndex, offsetBy: offset - 1)]
    // (A line break or a tab right before it: an empty paragraph, or a
    // table cell's end.)
    guard unit != 0x09, !(Unicode.Scalar(unit).map(Rope.isParagraphSeparator) ?? false)
    else { return false }
    if case .presentationIntent(let intent)? = before[.presentationIntent],
      case .codeBlock? = intent.components.last?.kind
    {
      return false
    }
    return lineBreak[.presentationIntent] == nil
      || lineBreak[.presentationIntent] == before[.presentationIntent]
  }
}

extension Document {
  /// Replaces `range` of a context's text with the attributed text that
  /// `markdown` stands for (``DocumentEngine/AttributedText/init(markdown:)``): a tool that
  /// speaks Markdown answers in it, and its answer lands as an attributed
  /// replacement, through the same conflict checks, result options and undo
  /// as `replace(context:range:with:attributes:basis:policy:)`.
  ///
  /// `range` is in the context's coordinates (UTF-16 units of its text), as
  /// for every replacement. Under the `plainText` result option only the
  /// text lands (the edit rule gives it its attributes); with `richText`
  /// its inline intents and links land too; with `presentationIntent` its
  /// blocks (list and table components only with `list` and `table`).
  ///
  /// Markdown is blocks, and blocks have no line break after the last one
  /// (a context's Markdown leaves out its last paragraph's line break). So
  /// that the answer's last block stays apart from the paragraph after it,
  /// when the answer does not end with a line break: a `range` that ends
  /// with a paragraph's line break (LF, CR, CR LF or U+2029) stops before
  /// it, which stays; an empty `range` at the start of a paragraph gets an
  /// LF after the answer, with its last block's presentation intent. This is
  /// decided on the context's current text, when `basis` is nil or its
  /// current version; with an older basis the range is taken as it is.
  ///
  /// A footnote reference in the answer (`[^1]`) to a note the context's
  /// storage defines lands as a reference, though the answer does not
  /// define it.
  ///
  /// - Returns: what the replacement did, and the attributed text that
  ///   landed: the storage's text and attributes where it is now (under
  ///   plain text, the text with the edit rule's attributes, not the
  ///   Markdown's).
  /// - Throws: what `replace(context:range:with:attributes:basis:policy:)`
  ///   throws; nothing changes.
  @discardableResult
  public func replace(
    context: UUID, range: Range<Int>, markdown: String, basis: ContextVersion? = nil,
    policy: ReplacementPolicy = .refuse
  ) throws(DocumentError) -> (result: ReplacementResult, text: AttributedText) {
    let read = readAnswer(markdown, context: context)
    // The range is trimmed (or the answer completed) against the context as
    // it is when the replacement lands: under the document's one lock.
    let landed = try replace(context: context, basis: basis, policy: policy) { live in
      var answer = read
      var range = range
      if basis == nil || basis == live.contextVersion, !answer.text.endsWithLineBreak {
        let before = live.text.separatorLength(before: range.upperBound)
        if !range.isEmpty, before > 0, range.count >= before {
          range = range.lowerBound..<(range.upperBound - before)
        } else if range.isEmpty, !answer.text.isEmpty,
          range.lowerBound == 0 ? live.text.utf16Count > 0 : before > 0
        {
          answer.appendSeparator()
        }
      }
      return (range, answer)
    }
    return landed
  }
}

extension Document {
  /// A tool's Markdown answer read as an attributed text, its footnote
  /// references to the notes of the context's storage known: those
  /// definitions go before the answer (as stand-ins, then an HTML comment
  /// that ends them, so that nothing of the answer goes into them), and
  /// what they read as is cut off.
  func readAnswer(_ markdown: String, context: UUID) -> AttributedText {
    guard markdown.utf8.contains(UInt8(ascii: "^")), markdown.contains("[^"),
      let live = try? liveContext(context),
      let storage = try? self.content.storage(live.storage)
    else { return AttributedText(markdown: markdown) }
    var labels: [String] = []
    var seen: Set<String> = []
    for run in storage.attributeRuns(in: 0..<storage.length) {
      guard case .presentationIntent(let intent)? = run.attributes[.presentationIntent],
        case .footnoteDefinition(let label)? = intent.components.first?.kind,
        seen.insert(label).inserted
      else { continue }
      labels.append(label)
    }
    // (Not those the answer defines itself: the first definition of a
    // label is the one that counts.)
    let lowered = markdown.lowercased()
    labels.removeAll { lowered.contains("[^\($0.lowercased())]:") }
    guard !labels.isEmpty else { return AttributedText(markdown: markdown) }
    let stand = labels.map { "[^\($0)]: \u{FFFC}\n" }.joined() + "\n<!-- -->\n\n"
    let read = AttributedText(markdown: stand + markdown)
    // The answer starts after the comment's line break: the first block
    // whose outermost component is no definition, and the comment itself.
    var cut = 0
    for run in read.runs {
      guard case .presentationIntent(let intent)? = run.attributes[.presentationIntent],
        let outer = intent.components.first
      else { break }
      if case .footnoteDefinition = outer.kind {
        cut = run.range.upperBound
        continue
      }
      // The comment: an HTML block, one paragraph with its line break.
      cut = run.range.upperBound
      if read.text.utf16.count > cut,
        read.attributes(at: cut)[.presentationIntent] == run.attributes[.presentationIntent]
      {
        continue
      }
      break
    }
    let units = Array(read.text.utf16)
    guard cut <= units.count else { return AttributedText(markdown: markdown) }
    let text = String(decoding: units[cut...], as: UTF16.self)
    let runs = read.runs.compactMap { run -> AttributeRun? in
      let lower = max(run.range.lowerBound, cut)
      guard lower < run.range.upperBound else { return nil }
      return AttributeRun((lower - cut)..<(run.range.upperBound - cut), run.attributes)
    }
    return AttributedText(unchecked: text, runs: runs)
  }
}

extension String {
  /// Whether the last scalar is a paragraph separator (LF, CR, U+2029).
  var endsWithLineBreak: Bool {
    guard let last = unicodeScalars.last else { return false }
    return Rope.isParagraphSeparator(last)
  }
}

extension AttributedText {
  /// Appends an LF with the presentation intent of the text's last unit.
  mutating func appendSeparator() {
    let length = text.utf16.count
    var attributes: [AttributeKey: AttributeValue] = [:]
    if let intent = self.attributes(at: length - 1)[.presentationIntent] {
      attributes[.presentationIntent] = intent
    }
    text += "\n"
    self = AttributedText(
      unchecked: text, runs: runs + [AttributeRun(length..<(length + 1), attributes)])
  }
}
