/// A monoid that a ``SummaryTree`` keeps for every node: the summary of a node
/// is the sum of the summaries of its items, in order.
///
/// `zero` must be the identity of `+`, and `+` must be associative. It need
/// not be commutative (a summary may, for example, record what comes first).
///
/// A summary is plain data (`BitwiseCopyable`): counts and lengths. Tree
/// nodes copy summaries as bytes and never destroy them.
public protocol TreeSummary: Sendable, Equatable, BitwiseCopyable {
  /// The summary of nothing: `zero + s == s + zero == s`.
  static var zero: Self { get }

  /// The summary of `lhs`'s items followed by `rhs`'s items.
  static func + (lhs: Self, rhs: Self) -> Self

  /// `total` with its part `part` taken out, for summaries that are
  /// commutative groups (counts and lengths are); `nil`, the default, when
  /// there is no such inverse. A small edit then updates each node on its
  /// path in O(1) instead of adding up the node's slots again.
  static func removing(_ part: Self, from total: Self) -> Self?

  /// `whole` (the summary of a node's slots) after its slot `old` became
  /// `new` in place, `isLast` if that slot is the node's last; `nil`, the
  /// default, when that cannot be told without adding up the slots again.
  /// ``SummaryTree/updateEach(admitting:_:)`` keeps each node on its path
  /// up to date by it.
  static func replacing(_ old: Self, with new: Self, in whole: Self, isLast: Bool) -> Self?
}

extension TreeSummary {
  /// No inverse: the tree adds up a node's slots again after a change.
  @inlinable @inline(__always)
  public static func removing(_ part: Self, from total: Self) -> Self? { nil }

  /// Unknown: the node adds up its slots again.
  @inlinable @inline(__always)
  public static func replacing(_ old: Self, with new: Self, in whole: Self, isLast: Bool) -> Self? {
    nil
  }
}

extension TreeSummary {
  /// Adds `rhs` to the end of `lhs`.
  @inlinable @inline(__always)
  public static func += (lhs: inout Self, rhs: Self) {
    lhs = lhs + rhs
  }
}

/// An element of a ``SummaryTree``: anything that can say what it adds to its
/// tree's summary.
public protocol TreeItem: Sendable {
  /// The monoid the tree accumulates.
  associatedtype Summary: TreeSummary

  /// What this item contributes to its tree's summary.
  var summary: Summary { get }
}

/// A dimension of a summary that a ``SummaryTree`` can seek and split by: a
/// non-negative integer that grows monotonically as items are added.
///
/// For a text rope, the UTF-8, UTF-16 and scalar counts are metrics; for an
/// offset index, the old and the new length are.
public protocol TreeMetric {
  /// The summary this metric measures.
  associatedtype Summary: TreeSummary

  /// The size of `summary` in this dimension. It must be additive:
  /// `measure(a + b) == measure(a) + measure(b)`, and never negative.
  static func measure(_ summary: Summary) -> Int
}

/// Which side to take when a position falls exactly on the boundary between
/// two items.
public enum Bias: Sendable, Hashable {
  /// Prefer the item that ends at the position.
  case left
  /// Prefer the item that starts at the position.
  case right
}
