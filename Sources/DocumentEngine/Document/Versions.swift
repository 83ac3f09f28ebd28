/// A version of one storage: 0 when the storage was added, one more after
/// each edit of its text.
///
/// A storage version names a state of a storage's text, and is what an edit
/// made elsewhere gives as its `basis` and what ``Document/map(_:_:from:bias:)``
/// maps from. It is a type of its own so that it cannot be passed where a
/// ``ContextVersion`` is meant; an integer literal reads as one.
public struct StorageVersion: RawRepresentable, Hashable, Comparable, Sendable,
  ExpressibleByIntegerLiteral, CustomStringConvertible
{
  /// The number of edits since the storage was added.
  public var rawValue: Int

  /// The version after `rawValue` edits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The version after `rawValue` edits.
  public init(_ rawValue: Int) { self.rawValue = rawValue }

  /// The version after `value` edits.
  public init(integerLiteral value: Int) { rawValue = value }

  /// The version right after this one.
  public var next: StorageVersion { StorageVersion(rawValue &+ 1) }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// How many edits lead from `rhs` to `lhs`.
  static func - (lhs: Self, rhs: Self) -> Int { lhs.rawValue &- rhs.rawValue }

  /// The version `count` edits after `lhs`.
  static func + (lhs: Self, count: Int) -> Self { StorageVersion(lhs.rawValue &+ count) }

  /// The number, e.g. `3`.
  public var description: String { String(rawValue) }
}

/// A version of one context of a Writing Tools session: 0 when the context
/// was made, one more for each change of its text (a replacement of the
/// tool's, or an edit inside it that the tool heard about).
///
/// A context version is what a tool gives as a replacement's `basis`. It is
/// a type of its own so that it cannot be passed where a ``StorageVersion``
/// is meant; an integer literal reads as one.
public struct ContextVersion: RawRepresentable, Hashable, Comparable, Sendable,
  ExpressibleByIntegerLiteral, CustomStringConvertible
{
  /// The number of changes of the context's text since it was made.
  public var rawValue: Int

  /// The version after `rawValue` changes.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The version after `rawValue` changes.
  public init(_ rawValue: Int) { self.rawValue = rawValue }

  /// The version after `value` changes.
  public init(integerLiteral value: Int) { rawValue = value }

  /// The version right after this one.
  public var next: ContextVersion { ContextVersion(rawValue &+ 1) }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The number, e.g. `3`.
  public var description: String { String(rawValue) }
}
