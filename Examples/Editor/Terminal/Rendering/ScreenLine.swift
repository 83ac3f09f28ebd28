/// One row of the screen, as spans of styled text from its first column.
///
/// The model guarantees that a line fits the width of the ``Frame``; the
/// terminal layer does not measure text. What is right of the last span is
/// blank.
public struct ScreenLine: Hashable, Sendable {
  /// The spans, left to right.
  public var spans: [StyledSpan]

  /// A line of `spans`.
  public init(spans: [StyledSpan]) {
    self.spans = spans
  }

  /// A line of one span: `text` in `style`.
  public init(_ text: String, style: TextStyle = .plain) {
    self.spans = [StyledSpan(text: text, style: style)]
  }

  /// A blank line.
  public static let blank = ScreenLine(spans: [])
}
