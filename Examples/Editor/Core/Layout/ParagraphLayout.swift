import DocumentEngine
import TextBoundaries

/// One paragraph of a cell as the screen shows it: its text cut into screen
/// lines that fit the width left after its margin (soft wrap, at a space
/// where there is one, else between two grapheme clusters).
///
/// Offsets are UTF-16, relative to the paragraph's start unless said
/// otherwise.
public struct ParagraphLayout: Sendable {
  /// One screen line: the paragraph's units it shows and the columns they
  /// take.
  public struct Line: Hashable, Sendable {
    /// The units of the paragraph on this line (the last line's ends at
    /// the contents' end, before the separator).
    public var range: Range<Int>
    /// The columns its text takes, margin not counted.
    public var columns: Int
  }

  /// Where the paragraph starts in its storage.
  public var start: Int
  /// The paragraph's contents (without its separator).
  public var text: String
  /// The separator's length (0 for the last paragraph without one, 1, or 2
  /// for CR LF).
  public var separatorLength: Int
  /// What the margin shows beside it.
  public var margin: Margin
  /// The screen lines, at least one.
  public var lines: [Line]

  /// The contents' length in UTF-16 units.
  public var contentsLength: Int { text.utf16.count }
  /// The paragraph's length with its separator.
  public var length: Int { contentsLength + separatorLength }

  /// Lays out `text` (the contents of a paragraph starting at `start`) in
  /// `width` columns, `margin` included.
  ///
  /// - Complexity: O(n) in the paragraph's length.
  public init(text: String, start: Int, separatorLength: Int, margin: Margin, width: Int) {
    self.start = start
    self.text = text
    self.separatorLength = separatorLength
    self.margin = margin
    let available = max(1, width - margin.columns)
    var lines: [Line] = []
    var lineStart = 0
    var column = 0
    var offset = 0
    // The last place the line may break (after a space), and the columns
    // up to it.
    var lastBreak: (offset: Int, columns: Int)? = nil
    for character in text {
      let units = character.utf16.count
      while column + Glyph.columns(of: character, atColumn: column) > available
        && offset > lineStart
      {
        if let lastBreak, lastBreak.offset > lineStart {
          lines.append(Line(range: lineStart..<lastBreak.offset, columns: lastBreak.columns))
          lineStart = lastBreak.offset
          column = Self.columns(of: text, from: lineStart, to: offset)
        } else {
          lines.append(Line(range: lineStart..<offset, columns: column))
          lineStart = offset
          column = 0
        }
        lastBreak = nil
      }
      column += Glyph.columns(of: character, atColumn: column)
      offset += units
      if character == " " || character == "\t" {
        lastBreak = (offset, column)
      }
    }
    lines.append(Line(range: lineStart..<offset, columns: column))
    self.lines = lines
  }

  /// A paragraph whose lines are known (laid out before, in the same
  /// width, with the same margin).
  init(text: String, start: Int, separatorLength: Int, margin: Margin, lines: [Line]) {
    self.start = start
    self.text = text
    self.separatorLength = separatorLength
    self.margin = margin
    self.lines = lines
  }

  /// The columns the paragraph's text from `from` to `to` takes on a line
  /// that starts at `from`.
  static func columns(of text: String, from: Int, to: Int) -> Int {
    guard from < to else { return 0 }
    let utf16 = text.utf16
    let start = utf16.index(utf16.startIndex, offsetBy: from)
    let end = utf16.index(utf16.startIndex, offsetBy: to)
    var column = 0
    for character in text[start..<end] {
      column += Glyph.columns(of: character, atColumn: column)
    }
    return column
  }

  /// The line that shows `offset` (a caret at the end of a wrapped line is
  /// shown at the start of the next one, as text views do).
  public func line(containing offset: Int) -> Int {
    for (i, line) in lines.enumerated() where offset < line.range.upperBound {
      return i
    }
    return lines.count - 1
  }

  /// The column of `offset` on line `line` (margin not counted).
  public func column(of offset: Int, inLine line: Int) -> Int {
    let range = lines[line].range
    return Self.columns(
      of: text, from: range.lowerBound, to: min(max(offset, range.lowerBound), range.upperBound))
  }

  /// The offset on line `line` nearest column `column` (the start of the
  /// cluster the column falls in, or the line's end).
  public func offset(atColumn column: Int, inLine line: Int) -> Int {
    let range = lines[line].range
    let utf16 = text.utf16
    var at = range.lowerBound
    var x = 0
    let start = utf16.index(utf16.startIndex, offsetBy: range.lowerBound)
    let end = utf16.index(utf16.startIndex, offsetBy: range.upperBound)
    for character in text[start..<end] {
      let width = Glyph.columns(of: character, atColumn: x)
      if x + width > column { return at }
      x += width
      at += character.utf16.count
    }
    // Past the end of a wrapped line that is not the last: before its last
    // cluster would put the caret on the next line, so the end it is, but
    // a line that ends with a break space keeps the caret before the space.
    if line < lines.count - 1, at == range.upperBound, at > range.lowerBound {
      let last = text[..<end].last
      if last == " " || last == "\t" { return at - 1 }
    }
    return at
  }
}

/// What the margin shows beside a paragraph: quote bars, a list item's
/// marker (on its first line only), a header's level.
public struct Margin: Hashable, Sendable {
  /// The margin of the paragraph's first line.
  public var first: String
  /// The margin of its other lines (as wide as `first`).
  public var rest: String
  /// The columns the margin takes.
  public var columns: Int

  /// No margin.
  public static let none = Margin(first: "", rest: "", columns: 0)

  /// A margin of the given first line and following lines.
  public init(first: String, rest: String, columns: Int) {
    self.first = first
    self.rest = rest
    self.columns = columns
  }

  /// The margin of a paragraph whose block is `intent` (outermost first);
  /// `continues` says whether it goes on with the list item of the
  /// paragraph before it (no marker then).
  public init(_ intent: PresentationIntent?, continuesItem: Bool) {
    var first = ""
    var rest = ""
    guard let intent else {
      self = .none
      return
    }
    var ordered = false
    let components = intent.components
    for (i, component) in components.enumerated() {
      switch component.kind {
      case .blockQuote:
        first += "│ "
        rest += "│ "
      case .orderedList:
        ordered = true
      case .unorderedList:
        ordered = false
      case .listItem(let ordinal):
        // Only the innermost item shows its marker.
        let isInnermost = !components[(i + 1)...].contains {
          if case .listItem = $0.kind { return true }
          return false
        }
        let marker = ordered ? "\(ordinal)." : "•"
        let pad = String(repeating: " ", count: max(2, marker.count + 1))
        if isInnermost && !continuesItem {
          first += marker + String(repeating: " ", count: pad.count - marker.count)
        } else {
          first += pad
        }
        rest += pad
      case .header(let level):
        let marks = String(repeating: "#", count: level) + " "
        first += marks
        rest += String(repeating: " ", count: marks.count)
      case .codeBlock:
        first += "▏ "
        rest += "▏ "
      default:
        break
      }
    }
    self.first = first
    self.rest = rest
    self.columns = first.count
  }
}
