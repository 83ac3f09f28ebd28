import DocumentEngine
import DocumentMarkdown
import TextRope

extension Notebook {
  /// The notebook the editor opens without files: a title, a body in
  /// Markdown (a header, a list, strong words, two misspellings), and a
  /// code cell that writing tools do not touch (excluded). Saved nowhere.
  public static func sample() -> Notebook {
    let document = Document()
    let title = "A notebook for the engine\n"
    let body = """
      # Getting started

      This editor keeps each cell in a **rope**, so typing stays fast in \
      files of hundreds of megabytes. Try the keys below, and watch the \
      underlines follow your typing.

      - Ctrl-Z undoes what you typed, even after a tool rewrote the next \
      paragraph.
      - F7 goes to the next misspeled word; Enter accepts the \
      sugestion.
      - Ctrl-R hands the paragraph to the writing tool (`--tool`).

      > Nothing you type is lost while a tool's answer streams in.

      """
    let code = """
      let document = Document()
      try document.add("body", text: "Hello")

      """
    var cells: [Cell] = []
    let parts: [(String, String, Format)] = [
      ("title", title, .plain), ("body", body, .markdown), ("code", code, .plain),
    ]
    for (name, text, format) in parts {
      let id = StorageID(name)
      do {
        switch format {
        case .plain:
          try document.add(id, text: Rope(text))
        case .markdown:
          let read = AttributedText(markdown: text)
          try document.add(id, text: Rope(read.text), attributes: read.runs)
        }
        if name == "code" {
          try document.setExcluded(true, in: id, range: 0..<Rope(text).utf16Count)
        }
      } catch {
        continue
      }
      let version = (try? document.content.storage(id).version) ?? StorageVersion(0)
      cells.append(
        Cell(id: id, path: nil, format: format, title: name, savedVersion: version))
    }
    return Notebook(document: document, cells: cells)
  }
}
