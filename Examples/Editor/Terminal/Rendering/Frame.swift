/// What the screen should show: its lines and the cursor, as the editor's
/// model hands them to ``FrameRenderer``.
///
/// Rows and columns count from 0 at the top left.
public struct Frame: Sendable {
  /// The height of the screen, in rows.
  public var rows: Int
  /// The width of the screen, in columns.
  public var columns: Int
  /// The lines from the top, `rows` of them; if there are fewer, the rows
  /// below them are blank, and lines past `rows` are not drawn.
  public var lines: [ScreenLine]
  /// Where the cursor shows, or nil to hide it. A position off the screen is
  /// moved to its nearest edge.
  public var cursor: (row: Int, column: Int)?

  /// A frame.
  ///
  /// - Parameters:
  ///   - rows: the height of the screen (negative counts as 0).
  ///   - columns: the width of the screen (negative counts as 0).
  ///   - lines: the lines from the top.
  ///   - cursor: where the cursor shows, or nil to hide it.
  public init(
    rows: Int, columns: Int, lines: [ScreenLine], cursor: (row: Int, column: Int)? = nil
  ) {
    self.rows = max(0, rows)
    self.columns = max(0, columns)
    self.lines = lines
    self.cursor = cursor
  }

  /// The line at `row`: the given one, or a blank one below them.
  func line(at row: Int) -> ScreenLine {
    row < lines.count ? lines[row] : .blank
  }
}
