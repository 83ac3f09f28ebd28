import DocumentEngine

extension SuggestionCandidate {
  /// A candidate written in Markdown (a language model acting as
  /// reviewer): the attributed text it stands for
  /// (``DocumentEngine/AttributedText/init(markdown:)``). A candidate of
  /// one paragraph is inline text (no paragraph of its own): the
  /// paragraph's presentation intent is left out, so that it lands inside
  /// the paragraph it corrects.
  public init(markdown: String) {
    let read = AttributedText(markdown: markdown)
    let inline = !read.text.contains(where: \.isNewline)
    let runs = read.runs.compactMap { run -> AttributeRun? in
      guard inline else { return run }
      var attributes = run.attributes
      attributes[.presentationIntent] = nil
      return attributes.isEmpty ? nil : AttributeRun(run.range, attributes)
    }
    self.init(AttributedText(maximal: read.text, runs: runs))
  }
}
