import SummaryTrees

/// What a stretch of text measures in each coordinate space the rope keeps an
/// index for.
///
/// Paragraph separators are Apple's: LF, CR, CR LF (one separator) and U+2029.
/// U+2028, U+0085, VT and FF are not paragraph separators.
public struct TextSummary: TreeSummary, Hashable, CustomStringConvertible {
  /// UTF-8 code units (bytes).
  public var utf8: Int
  /// UTF-16 code units (the unit of `NSRange`).
  public var utf16: Int
  /// Unicode scalars (code points).
  public var scalars: Int
  /// Paragraph separators; a CR LF pair counts once.
  public var paragraphSeparators: Int

  /// A summary with the given counts.
  @inlinable
  public init(utf8: Int, utf16: Int, scalars: Int, paragraphSeparators: Int) {
    self.utf8 = utf8
    self.utf16 = utf16
    self.scalars = scalars
    self.paragraphSeparators = paragraphSeparators
  }

  /// The summary of no text.
  public static let zero = TextSummary(utf8: 0, utf16: 0, scalars: 0, paragraphSeparators: 0)

  /// Counts of real text never come near `Int.max`, so the sums wrap
  /// instead of checking for overflow (which lets the compiler add all four
  /// counts at once).
  @inlinable @inline(__always)
  public static func + (lhs: Self, rhs: Self) -> Self {
    TextSummary(
      utf8: lhs.utf8 &+ rhs.utf8, utf16: lhs.utf16 &+ rhs.utf16,
      scalars: lhs.scalars &+ rhs.scalars,
      paragraphSeparators: lhs.paragraphSeparators &+ rhs.paragraphSeparators)
  }

  /// Counts form a commutative group: a part can be taken out of a total.
  @inlinable @inline(__always)
  public static func removing(_ part: Self, from total: Self) -> Self? { total - part }

  /// The summary of `lhs` without its part `rhs`.
  @inlinable @inline(__always)
  public static func - (lhs: Self, rhs: Self) -> Self {
    TextSummary(
      utf8: lhs.utf8 &- rhs.utf8, utf16: lhs.utf16 &- rhs.utf16,
      scalars: lhs.scalars &- rhs.scalars,
      paragraphSeparators: lhs.paragraphSeparators &- rhs.paragraphSeparators)
  }

  /// The count in one unit.
  @inlinable
  public subscript(unit: TextUnit) -> Int {
    switch unit {
    case .utf8: utf8
    case .utf16: utf16
    case .unicodeScalars: scalars
    }
  }

  public var description: String {
    "(utf8: \(utf8), utf16: \(utf16), scalars: \(scalars), separators: \(paragraphSeparators))"
  }
}

/// A coordinate space for offsets into text.
public enum TextUnit: String, Sendable, Hashable, CaseIterable {
  /// Bytes of the UTF-8 encoding.
  case utf8
  /// UTF-16 code units: the unit of `NSRange`, and the engine's default.
  case utf16
  /// Unicode scalars (code points), the unit of most editing traces.
  case unicodeScalars
}

/// Measures text in UTF-8 bytes.
public enum UTF8Metric: TreeMetric {
  @inlinable @inline(__always)
  public static func measure(_ summary: TextSummary) -> Int { summary.utf8 }
}

/// Measures text in UTF-16 code units.
public enum UTF16Metric: TreeMetric {
  @inlinable @inline(__always)
  public static func measure(_ summary: TextSummary) -> Int { summary.utf16 }
}

/// Measures text in Unicode scalars.
public enum ScalarMetric: TreeMetric {
  @inlinable @inline(__always)
  public static func measure(_ summary: TextSummary) -> Int { summary.scalars }
}

/// Measures text in paragraph separators.
public enum ParagraphSeparatorMetric: TreeMetric {
  @inlinable @inline(__always)
  public static func measure(_ summary: TextSummary) -> Int { summary.paragraphSeparators }
}
