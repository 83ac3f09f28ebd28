import DocumentEngine
import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WritingContext {
  /// The context's text with its attribute runs: what the host puts into
  /// the context's attributed string.
  public var attributedText: AttributedText {
    AttributedText(unchecked: String(text), runs: attributes)
  }

  /// The context's text written as Markdown, for a tool that reads
  /// Markdown (a language model): ``AttributedText/markdown`` of
  /// ``attributedText``.
  ///
  /// Markdown has no offsets of its own: a tool that answers in Markdown
  /// replaces a range of the context's *text* (``WritingContext/range`` or
  /// the whole text), and ``Document/replace(context:range:markdown:basis:policy:)``
  /// reads its answer.
  public var markdown: String { attributedText.markdown }
}

extension Document {
  /// Replaces `range` of a context's text with the attributed text that
  /// `markdown` stands for (``AttributedText/init(markdown:)``): a tool that
  /// speaks Markdown answers in it, and its answer lands as an attributed
  /// replacement, through the same conflict checks, result options and undo
  /// as ``replace(context:range:with:attributes:basis:policy:)``.
  ///
  /// `range` is in the context's coordinates (UTF-16 units of its text), as
  /// for every replacement. Under the `plainText` result option only the
  /// text lands (the edit rule gives it its attributes); with `richText`
  /// its inline intents and links land too; with `presentationIntent` its
  /// blocks (list and table components only with `list` and `table`).
  ///
  /// - Returns: what the replacement did, and the attributed text that
  ///   landed.
  /// - Throws: what ``replace(context:range:with:attributes:basis:policy:)``
  ///   throws; nothing changes.
  @discardableResult
  public func replace(
    context: UUID, range: Range<Int>, markdown: String, basis: ContextVersion? = nil,
    policy: ReplacementPolicy = .refuse
  ) throws(DocumentError) -> (result: ReplacementResult, text: AttributedText) {
    let text = AttributedText(markdown: markdown)
    let result = try replace(
      context: context, range: range, with: text.text, attributes: text.runs, basis: basis,
      policy: policy)
    return (result, text)
  }
}
