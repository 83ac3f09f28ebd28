import DocumentEngine
import DocumentMarkdown
import Foundation
import Testing

/// Real Markdown files (`Corpus/`, with their licences, and the project's
/// own docs), read into a storage and written back (issue 49): without an
/// edit byte for byte; after one character changed in one block, only that
/// block's lines differ, and the file renders as the original with the
/// same character changed.
@Suite struct MarkdownCorpusTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The files: the corpus and the project's own Markdown.
  static let files: [String] = {
    let manager = FileManager.default
    var paths: [String] = []
    let corpus = root.appendingPathComponent("Tests/DocumentMarkdownTests/Corpus")
    for name in (try? manager.contentsOfDirectory(atPath: corpus.path)) ?? []
    where name.hasSuffix(".md") && name != "LICENSES.md" {
      paths.append("Tests/DocumentMarkdownTests/Corpus/" + name)
    }
    for folder in ["docs", "Examples/Editor", "Examples/ScopeREPL", "Examples/RopeTour", "Fuzz"] {
      for name
        in (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path))
        ?? [] where name.hasSuffix(".md")
      {
        paths.append(folder + "/" + name)
      }
    }
    paths.append("README.md")
    for module in ["DocumentEngine", "DocumentMarkdown", "TextRope"] {
      let folder = "Sources/\(module)/Documentation.docc"
      for name
        in (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path))
        ?? [] where name.hasSuffix(".md")
      {
        paths.append(folder + "/" + name)
      }
    }
    return paths.sorted()
  }()

  static func contents(_ path: String) throws -> String {
    let data = try Data(contentsOf: root.appendingPathComponent(path))
    return try #require(String(data: data, encoding: .utf8))
  }

  @Test func theCorpusIsThere() {
    #expect(Self.files.count >= 30, "\(Self.files)")
  }

  @Test(arguments: files)
  func readAndWrittenBackByteForByte(path: String) throws {
    let markdown = try Self.contents(path)
    let document = Document()
    try document.add("file", markdown: markdown)
    let written = try document.markdown(of: "file")
    #expect(Array(written.utf8) == Array(markdown.utf8))
  }

  /// A word of the text that is in the file once, in plain text (no
  /// markup on it): the first of six or more lowercase ASCII letters, by
  /// position.
  static func uniqueWord(in text: String, source: String, storage: TextStorage) -> (String, Int)? {
    var counts: [Substring: Int] = [:]
    let words = text.split(whereSeparator: { !($0.isASCII && $0.isLetter) })
    for word in words where word.count >= 6 && word.allSatisfy(\.isLowercase) {
      counts[word, default: 0] += 1
    }
    for word in words where counts[word] == 1 {
      guard source.components(separatedBy: String(word)).count == 2,
        let range = text.range(of: String(word))
      else { continue }
      let offset = text.utf16.distance(from: text.startIndex, to: range.lowerBound)
      let attributes = storage.attributedText(in: offset..<offset + word.utf16.count).runs
      // Plain text: one run, no inline intent, link or image.
      guard attributes.count == 1, attributes[0].range == 0..<word.utf16.count,
        Set(attributes[0].attributes.keys) == [.presentationIntent]
      else { continue }
      return (String(word), offset)
    }
    return nil
  }

  @Test(arguments: files)
  func oneCharacterChangedChangesOnlyItsBlocksLines(path: String) throws {
    let markdown = try Self.contents(path)
    let document = Document()
    try document.add("file", markdown: markdown)
    let storage = try document.content.storage("file")
    guard
      let (word, offset) = Self.uniqueWord(
        in: String(storage.text), source: markdown, storage: storage)
    else { return }
    try document.edit("file", range: offset..<offset + 1, with: "Q")
    let written = try document.markdown(of: "file")
    let expected = markdown.replacingOccurrences(of: word, with: "Q" + word.dropFirst())
    #expect(_CMarkBaseline.html(written) == _CMarkBaseline.html(expected), "\(word)")
    // The lines that differ are those of the block with the word: between
    // the blank lines around it.
    let old = markdown.split(separator: "\n", omittingEmptySubsequences: false)
    let new = written.split(separator: "\n", omittingEmptySubsequences: false)
    guard let line = old.firstIndex(where: { $0.contains(word) }) else { return }
    var first = line
    while first > 0, !old[first - 1].allSatisfy(\.isWhitespace) { first -= 1 }
    var last = line
    while last + 1 < old.count, !old[last + 1].allSatisfy(\.isWhitespace) { last += 1 }
    #expect(old[..<first] == new[..<min(first, new.count)], "\(word)")
    let after = old.count - last - 1
    #expect(new.count >= after && old.suffix(after) == new.suffix(after), "\(word)")
  }
}
