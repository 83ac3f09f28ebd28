/// A place in the notebook: a cell and a UTF-16 offset in its text.
public struct Position: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The cell's index.
  public var cell: Int
  /// The UTF-16 offset in the cell's text.
  public var offset: Int

  /// A position.
  public init(cell: Int, offset: Int) {
    self.cell = cell
    self.offset = offset
  }

  public static func < (a: Position, b: Position) -> Bool {
    (a.cell, a.offset) < (b.cell, b.offset)
  }

  public var description: String { "\(cell):\(offset)" }
}

/// One line of the screen's text area: a cell's title bar, or one screen
/// line of a paragraph (the paragraph by its start in the cell's text).
public enum DisplayLine: Hashable, Sendable, Comparable {
  /// The bar above a cell that names it.
  case header(cell: Int)
  /// Line `line` of the paragraph that starts at `paragraph` in `cell`.
  case text(cell: Int, paragraph: Int, line: Int)

  /// The cell the line belongs to.
  public var cell: Int {
    switch self {
    case .header(let cell), .text(let cell, _, _): cell
    }
  }

  var key: (Int, Int, Int) {
    switch self {
    case .header(let cell): (cell, -1, 0)
    case .text(let cell, let paragraph, let line): (cell, paragraph, line)
    }
  }

  public static func < (a: DisplayLine, b: DisplayLine) -> Bool { a.key < b.key }
}
