/// Text in one style, a part of a ``ScreenLine``.
public struct StyledSpan: Hashable, Sendable {
  /// The text, drawn as it is (the model has measured it); control
  /// characters in it are drawn as U+FFFD so that they cannot act on the
  /// terminal.
  public var text: String
  /// How the text looks.
  public var style: TextStyle

  /// A span of `text` in `style`.
  public init(text: String, style: TextStyle = .plain) {
    self.text = text
    self.style = style
  }
}
