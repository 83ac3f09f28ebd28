/// What ``StorageVersion`` and ``ContextVersion`` share: a count of changes,
/// ordered, written as an integer literal or printed as its number. Two types
/// so that one cannot be passed where the other is meant.
public protocol VersionNumber: RawRepresentable<Int>, Hashable, Comparable, Sendable,
  ExpressibleByIntegerLiteral, CustomStringConvertible
{
  /// The version after `rawValue` changes.
  init(rawValue: Int)
}

extension VersionNumber {
  /// The version after `rawValue` changes.
  public init(_ rawValue: Int) { self.init(rawValue: rawValue) }

  /// The version after `value` changes.
  public init(integerLiteral value: Int) { self.init(rawValue: value) }

  /// The version right after this one.
  public var next: Self { Self(rawValue: rawValue &+ 1) }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The number, e.g. `3`.
  public var description: String { String(rawValue) }
}

/// A version of one storage: 0 when the storage was added, one more after
/// each edit of its text.
///
/// A storage version names a state of a storage's text, and is what an edit
/// made elsewhere gives as its `basis` and what ``Document/map(_:in:from:bias:)``
/// maps from. It is a type of its own so that it cannot be passed where a
/// ``ContextVersion`` is meant; an integer literal reads as one.
public struct StorageVersion: VersionNumber {
  /// The number of edits since the storage was added.
  public var rawValue: Int

  /// The version after `rawValue` edits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// How many edits lead from `rhs` to `lhs`.
  static func - (lhs: Self, rhs: Self) -> Int { lhs.rawValue &- rhs.rawValue }

  /// The version `count` edits after `lhs`.
  static func + (lhs: Self, count: Int) -> Self { StorageVersion(lhs.rawValue &+ count) }
}

/// A version of one context of a Writing Tools session: 0 when the context
/// was made, one more for each change of its text (a replacement of the
/// tool's, or an edit inside it that the tool heard about).
///
/// A context version is what a tool gives as a replacement's `basis`. It is
/// a type of its own so that it cannot be passed where a ``StorageVersion``
/// is meant; an integer literal reads as one.
public struct ContextVersion: VersionNumber {
  /// The number of changes of the context's text since it was made.
  public var rawValue: Int

  /// The version after `rawValue` changes.
  public init(rawValue: Int) { self.rawValue = rawValue }
}
