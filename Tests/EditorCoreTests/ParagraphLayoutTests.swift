import DocumentEngine
import EditorCore
import Testing

/// The screen model's soft wrap: by display width, at spaces where it can.
struct ParagraphLayoutTests {
  /// The text of each screen line.
  func lines(_ text: String, width: Int, margin: Margin = .none) -> [String] {
    let layout = ParagraphLayout(
      text: text, start: 0, separatorLength: 0, margin: margin, width: width)
    return layout.lines.map { line in
      let utf16 = text.utf16
      let lower = utf16.index(utf16.startIndex, offsetBy: line.range.lowerBound)
      let upper = utf16.index(utf16.startIndex, offsetBy: line.range.upperBound)
      return String(text[lower..<upper])
    }
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var width: Int
    var expected: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "fits", text: "one two", width: 10, expected: ["one two"]),
    Case(name: "empty", text: "", width: 10, expected: [""]),
    Case(
      name: "wraps at spaces", text: "aaa bbb ccc", width: 6, expected: ["aaa ", "bbb ", "ccc"]),
    Case(
      name: "a word longer than the line", text: "abcdefghij", width: 4,
      expected: ["abcd", "efgh", "ij"]),
    Case(
      name: "wide characters take two columns", text: "日本語テキスト", width: 6,
      expected: ["日本語", "テキス", "ト"]),
    Case(
      name: "a wide character never splits across lines", text: "ab日本", width: 3,
      expected: ["ab", "日", "本"]),
    Case(
      name: "emoji ZWJ sequences are one two-column cluster", text: "👨‍👩‍👧👨‍👩‍👧x", width: 4,
      expected: ["👨‍👩‍👧👨‍👩‍👧", "x"]),
    Case(name: "flags", text: "🇫🇷🇩🇪🇯🇵", width: 5, expected: ["🇫🇷🇩🇪", "🇯🇵"]),
    Case(
      name: "combining marks take no column", text: "e\u{301}e\u{301}e\u{301}e\u{301}", width: 2,
      expected: ["e\u{301}e\u{301}", "e\u{301}e\u{301}"]),
    Case(name: "tabs go to the next stop", text: "a\tb\tc", width: 6, expected: ["a\t", "b\tc"]),
    Case(name: "non-BMP letters", text: "𝒜𝒷𝒸 𝒹ℯ𝒻", width: 4, expected: ["𝒜𝒷𝒸 ", "𝒹ℯ𝒻"]),
  ]

  @Test(arguments: cases)
  func wraps(_ c: Case) {
    #expect(lines(c.text, width: c.width) == c.expected)
  }

  @Test func everyLineFitsAndTheLinesCoverTheText() {
    let text = "Der Flüsse 🇩🇪 日本語の文章 e\u{301}t\u{e9} 👩🏽‍💻 and a verylongwordthatneverends."
    for width in 1...30 {
      let layout = ParagraphLayout(
        text: text, start: 0, separatorLength: 0, margin: .none, width: width)
      var next = 0
      for line in layout.lines {
        #expect(line.range.lowerBound == next)
        next = line.range.upperBound
        // A line wider than the screen is only a lone cluster wider than it.
        let utf16 = text.utf16
        let lower = utf16.index(utf16.startIndex, offsetBy: line.range.lowerBound)
        let upper = utf16.index(utf16.startIndex, offsetBy: line.range.upperBound)
        #expect(line.columns <= width || text[lower..<upper].count == 1, "width \(width)")
      }
      #expect(next == text.utf16.count)
    }
  }

  @Test func theMarginTakesItsColumns() {
    let quote = Margin(
      PresentationIntent([.init(.blockQuote, identity: 1), .init(.paragraph, identity: 2)]),
      continuesItem: false)
    #expect(quote.first == "│ ")
    #expect(lines("aaa bbb", width: 6, margin: quote) == ["aaa ", "bbb"])
  }

  @Test func listMarkersAreInTheMarginOnTheItemsFirstLine() {
    let item = PresentationIntent([
      .init(.orderedList, identity: 1), .init(.listItem(ordinal: 3), identity: 2),
      .init(.paragraph, identity: 3),
    ])
    let first = Margin(item, continuesItem: false)
    #expect(first.first == "3. ")
    #expect(first.rest == "   ")
    let continued = Margin(item, continuesItem: true)
    #expect(continued.first == "   ")
    let bullet = Margin(
      PresentationIntent([
        .init(.unorderedList, identity: 1), .init(.listItem(ordinal: 1), identity: 2),
      ]),
      continuesItem: false)
    #expect(bullet.first == "• ")
    let header = Margin(
      PresentationIntent([.init(.header(level: 2), identity: 1)]), continuesItem: false)
    #expect(header.first == "## ")
  }

  @Test func columnsAndOffsetsRoundTrip() {
    let text = "ab日本 👩🏽‍💻 e\u{301}x"
    let layout = ParagraphLayout(text: text, start: 0, separatorLength: 0, margin: .none, width: 80)
    var offset = 0
    for character in text {
      let column = layout.column(of: offset, inLine: 0)
      #expect(layout.offset(atColumn: column, inLine: 0) == offset)
      offset += character.utf16.count
    }
    // A column inside a wide character is the character's start.
    #expect(layout.offset(atColumn: 3, inLine: 0) == 2)
    #expect(layout.offset(atColumn: 1000, inLine: 0) == text.utf16.count)
  }
}
