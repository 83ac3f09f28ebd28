/// Turns ``Frame``s into the bytes that show them on a terminal, rewriting
/// only the lines that changed since the last frame.
///
/// The first frame, and the first after ``invalidate()`` (after a resize,
/// or anything else that may have changed the screen behind the renderer's
/// back), clears the screen and draws every line. A later frame of the same
/// size moves to each line that differs from the last frame's, erases it
/// and writes its spans. Then the cursor is placed and shown, or hidden when
/// the frame has none; a frame equal to the last writes only that.
///
/// The cursor is hidden while lines are drawn, so it does not flicker across
/// the screen. A line is written with as few SGR changes as the spans allow
/// (the style starts plain on each line and is reset at its end, so each
/// line stands alone). It is erased (`ESC [ K`) *before* its spans are
/// written, not after: after a character in the last column the cursor
/// waits there to wrap, and erasing to the end of the line then would erase
/// that character in xterm and others.
///
/// ```swift
/// var renderer = FrameRenderer()
/// let frame = Frame(rows: 2, columns: 10, lines: [ScreenLine("hello")], cursor: (0, 5))
/// try terminal.write(renderer.render(frame))
/// ```
public struct FrameRenderer: Sendable {
  /// Whether the terminal draws styled underlines (the extension of kitty
  /// and others: a curly underline, `ESC [ 4:3 m`, and the underline color,
  /// `ESC [ 58:5:n m`). When false (the default), a curly underline is drawn
  /// as a single one and the underline color is left out, since a terminal
  /// that does not know them may misread the colons. Changing it redraws
  /// everything with the next frame.
  public var supportsStyledUnderlines: Bool {
    didSet { invalidate() }
  }

  /// The last frame drawn: its size and its lines (one per row); nil when
  /// the next frame must draw everything.
  private var shown: (rows: Int, columns: Int, lines: [ScreenLine])?

  /// A renderer whose first frame draws everything.
  ///
  /// - Parameter supportsStyledUnderlines: whether the terminal draws curly
  ///   and colored underlines (see ``isKnownToSupportStyledUnderlines(term:termProgram:)``).
  public init(supportsStyledUnderlines: Bool = false) {
    self.supportsStyledUnderlines = supportsStyledUnderlines
  }

  /// Makes the next frame clear the screen and draw everything (after a
  /// resize, or output that did not go through the renderer).
  public mutating func invalidate() {
    shown = nil
  }

  /// The bytes that change the screen from the last frame to `frame`.
  ///
  /// - Parameter frame: what the screen should show.
  /// - Returns: the bytes to write to the terminal; it must be in the
  ///   state the last frame left it.
  /// - Complexity: O(*rows* + the length of the lines drawn), plus the
  ///   comparison of each line with the last frame's.
  public mutating func render(_ frame: Frame) -> [UInt8] {
    let lines = (0..<frame.rows).map(frame.line(at:))
    var bytes: [UInt8] = []
    var hidden = false
    if let shown, shown.rows == frame.rows, shown.columns == frame.columns {
      for row in lines.indices where lines[row] != shown.lines[row] {
        if !hidden {
          bytes += Self.hideCursor
          hidden = true
        }
        bytes += Self.moveCursor(row: row, column: 0) + Self.eraseToEndOfLine
        appendSpans(of: lines[row], to: &bytes)
      }
    } else {
      bytes += Self.hideCursor + Self.resetStyle + Self.home + Self.eraseScreen
      hidden = true
      for row in lines.indices where lines[row].spans.contains(where: { !$0.text.isEmpty }) {
        bytes += Self.moveCursor(row: row, column: 0)
        appendSpans(of: lines[row], to: &bytes)
      }
    }
    if let cursor = frame.cursor, frame.rows > 0, frame.columns > 0 {
      bytes += Self.moveCursor(
        row: min(max(0, cursor.row), frame.rows - 1),
        column: min(max(0, cursor.column), frame.columns - 1))
      bytes += Self.showCursor
    } else if !hidden {
      bytes += Self.hideCursor
    }
    shown = (frame.rows, frame.columns, lines)
    return bytes
  }

  /// Appends the spans of `line`, each after the SGR change to its style,
  /// then the reset of the style if it is not plain.
  private func appendSpans(of line: ScreenLine, to bytes: inout [UInt8]) {
    var current = TextStyle.plain
    for span in line.spans where !span.text.isEmpty {
      let style = span.style.drawn(styledUnderlines: supportsStyledUnderlines)
      bytes += current.transition(to: style)
      current = style
      Self.appendText(span.text, to: &bytes)
    }
    if current != .plain { bytes += Self.resetStyle }
  }

  /// Appends `text` as UTF-8, with its control characters (C0, DEL, C1)
  /// made U+FFFD, so that text cannot move the cursor or start a sequence.
  private static func appendText(_ text: String, to bytes: inout [UInt8]) {
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    var afterC2 = false  // C1 controls are C2 80 to C2 9F.
    for byte in text.utf8 {
      if afterC2 {
        afterC2 = false
        if (0x80...0x9F).contains(byte) {
          bytes += replacement
          continue
        }
        bytes.append(0xC2)
      }
      switch byte {
      case 0xC2: afterC2 = true
      case 0x00..<0x20, 0x7F: bytes += replacement
      default: bytes.append(byte)
      }
    }
    if afterC2 { bytes.append(0xC2) }  // Not reached: UTF-8 does not end with C2.
  }

  /// Whether a terminal, by its `TERM` and `TERM_PROGRAM` environment
  /// variables, is one known to draw styled underlines: kitty, WezTerm,
  /// foot, Ghostty, Contour. Others may too; this only says which surely
  /// do.
  ///
  /// - Parameters:
  ///   - term: the value of `TERM`, if set.
  ///   - termProgram: the value of `TERM_PROGRAM`, if set.
  /// - Returns: true for the terminals named above.
  public static func isKnownToSupportStyledUnderlines(term: String?, termProgram: String?)
    -> Bool
  {
    let terms = ["xterm-kitty", "wezterm", "foot", "xterm-ghostty", "contour"]
    if let term, terms.contains(where: { term.hasPrefix($0) }) { return true }
    return termProgram == "WezTerm" || termProgram == "ghostty"
  }

  private static let hideCursor: [UInt8] = Array("\u{1B}[?25l".utf8)
  private static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)
  private static let resetStyle: [UInt8] = Array("\u{1B}[0m".utf8)
  private static let home: [UInt8] = Array("\u{1B}[H".utf8)
  private static let eraseScreen: [UInt8] = Array("\u{1B}[2J".utf8)
  private static let eraseToEndOfLine: [UInt8] = Array("\u{1B}[K".utf8)

  /// `ESC [ row ; column H`, from 0-based coordinates.
  private static func moveCursor(row: Int, column: Int) -> [UInt8] {
    Array("\u{1B}[\(row + 1);\(column + 1)H".utf8)
  }
}
