/// How a span of text looks on the terminal: the attributes of SGR (Select
/// Graphic Rendition, `ESC [ … m`).
///
/// ```swift
/// let misspelled = TextStyle(underline: .curly, underlineColor: .red)
/// let selection = TextStyle(reverse: true)
/// ```
public struct TextStyle: Hashable, Sendable {
  /// How text is underlined.
  public enum Underline: Hashable, Sendable {
    /// Not underlined.
    case none
    /// A straight line (`ESC [ 4 m`).
    case single
    /// A wavy line (`ESC [ 4:3 m`), as under a misspelled word. Terminals
    /// that are not known to draw it get a straight line (see
    /// ``FrameRenderer/supportsStyledUnderlines``).
    case curly
  }

  /// Bold (or bright) text.
  public var bold: Bool
  /// Italic text.
  public var italic: Bool
  /// Dim (faint) text.
  public var dim: Bool
  /// The underline.
  public var underline: Underline
  /// Struck-through text.
  public var strikethrough: Bool
  /// Foreground and background swapped (the usual look of a selection).
  public var reverse: Bool
  /// The color of the text; nil for the terminal's default.
  public var foreground: TerminalColor?
  /// The color behind the text; nil for the terminal's default.
  public var background: TerminalColor?
  /// The color of the underline; nil for the text's color. Shown only by
  /// terminals that support styled underlines (see
  /// ``FrameRenderer/supportsStyledUnderlines``).
  public var underlineColor: TerminalColor?

  /// A style; every attribute is off unless given.
  public init(
    bold: Bool = false, italic: Bool = false, dim: Bool = false, underline: Underline = .none,
    strikethrough: Bool = false, reverse: Bool = false, foreground: TerminalColor? = nil,
    background: TerminalColor? = nil, underlineColor: TerminalColor? = nil
  ) {
    self.bold = bold
    self.italic = italic
    self.dim = dim
    self.underline = underline
    self.strikethrough = strikethrough
    self.reverse = reverse
    self.foreground = foreground
    self.background = background
    self.underlineColor = underlineColor
  }

  /// The terminal's default look: no attribute, default colors.
  public static let plain = TextStyle()
}
