import TextRope

/// Why a boundary query failed. A failed query changes nothing.
public enum BoundaryError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offset or range is not valid in the text.
  case invalidOffset(RopeError)
  /// The system ICU could not be loaded or used.
  case icuUnavailable(String)
  /// ICU's break iterators take 32-bit offsets: the text is longer than that.
  case textTooLong(utf16Count: Int)

  public var description: String {
    switch self {
    case .invalidOffset(let error): error.description
    case .icuUnavailable(let message): "ICU is unavailable: \(message)"
    case .textTooLong(let count): "text of \(count) UTF-16 units is too long for ICU"
    }
  }
}
