import DocumentEngine
import DocumentMarkdown
import Testing

@Test func probe() {
  for source in ["www.x.com a@b.com hi", "1. hi\\\nthere", "a\\\nb", "a\nb"] {
    let text = AttributedText(markdown: source)
    print(text.text.debugDescription, "=>", text.markdown.debugDescription)
  }
}
