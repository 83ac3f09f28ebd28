/// Why a rope refused an offset, a range or its input. A refused operation
/// leaves the rope unchanged.
public enum RopeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offset is negative or past the end of the text.
  case offsetOutOfBounds(offset: Int, unit: TextUnit, count: Int)
  /// The UTF-16 offset falls between the two halves of a surrogate pair.
  case splitsSurrogatePair(utf16Offset: Int)
  /// The UTF-8 offset falls inside the encoding of one scalar.
  case splitsScalar(utf8Offset: Int)
  /// The bytes are not valid UTF-8; `byteOffset` is where the first invalid
  /// sequence starts.
  case invalidUTF8(byteOffset: Int)
  /// There is no paragraph with this number (they are numbered from 0).
  case paragraphOutOfBounds(number: Int, count: Int)

  public var description: String {
    switch self {
    case .offsetOutOfBounds(let offset, let unit, let count):
      "offset \(offset) is out of bounds 0...\(count) (\(unit.rawValue))"
    case .splitsSurrogatePair(let offset):
      "UTF-16 offset \(offset) falls inside a surrogate pair"
    case .splitsScalar(let offset):
      "UTF-8 offset \(offset) falls inside a scalar"
    case .invalidUTF8(let offset):
      "invalid UTF-8 at byte \(offset)"
    case .paragraphOutOfBounds(let number, let count):
      "paragraph \(number) is out of bounds 0..<\(count)"
    }
  }
}
