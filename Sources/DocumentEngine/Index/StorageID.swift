/// The name a client gives a text storage (a title, a body, a cell).
public struct StorageID: Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The client's name.
  public var rawValue: String

  /// A storage id.
  public init(_ rawValue: String) {
    self.rawValue = rawValue
  }

  public init(stringLiteral value: String) {
    self.rawValue = value
  }

  public var description: String { rawValue }

  /// Ids order by the bytes of their UTF-8 names (the tie-break order of
  /// concurrent insertions from different origins).
  public static func < (lhs: StorageID, rhs: StorageID) -> Bool {
    lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
  }
}
