import DocumentEngine
import DocumentMarkdown
import Testing
import TextRope

/// Candidates written in Markdown (a language model as reviewer).
@Suite struct SuggestionCandidateTests {
  @Test func anInlineCandidateLandsInsideItsParagraph() throws {
    let candidate = SuggestionCandidate(markdown: "**the** [cat](https://cat.example)")
    #expect(candidate.text == "the cat")
    let strong: [AttributeKey: AttributeValue] = [
      .inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)
    ]
    #expect(
      candidate.attributes == [
        AttributeRun(0..<3, strong), AttributeRun(4..<7, [.link: .link("https://cat.example")]),
      ])
    let document = Document()
    try document.add("body", text: "Teh kat sat.\n")
    let id = try document.suggest(
      [ProposedSuggestion(0..<7, kind: .style, candidates: [candidate])], in: "body")[0]
    try document.accept(id)
    let storage = try document.content.storage("body")
    #expect(String(storage.text) == "the cat sat.\n")
    #expect(storage.attributeRuns(in: 0..<storage.length).first == AttributeRun(0..<3, strong))
  }

  /// A candidate is an attributed text, or plain text (none): the one
  /// shape goes in and comes out whole.
  @Test func aCandidateIsAnAttributedText() throws {
    let rich = try AttributedText(
      "🇫🇷 e\u{301}",
      runs: [AttributeRun(0..<4, [.link: .link("https://fr.example")])])
    let candidate = SuggestionCandidate(rich)
    #expect(candidate.text == rich.text)
    #expect(candidate.attributes == rich.runs)
    #expect(candidate.attributedText == rich)
    #expect(SuggestionCandidate("plain").attributedText == nil)
    #expect(SuggestionCandidate(try AttributedText("none")).attributedText?.runs == [])
    #expect(
      SuggestionCandidate(markdown: "**the** cat").attributedText
        == (try AttributedText(
          "the cat",
          runs: [
            AttributeRun(
              0..<3, [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)])
          ])))
  }

  @Test func aCandidateOfBlocksKeepsThem() {
    let candidate = SuggestionCandidate(markdown: "# Title\n\nBody")
    #expect(candidate.text.contains("\n"))
    #expect(candidate.attributes?.contains { $0.attributes[.presentationIntent] != nil } == true)
  }
}
