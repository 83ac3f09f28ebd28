import SummaryTrees

/// The summary of the document engine's trees of spans (storages in the
/// document index, attribute runs): how many spans, and their total length in
/// UTF-16 code units.
@usableFromInline
struct _CountAndLength: TreeSummary {
  @usableFromInline var count: Int
  @usableFromInline var length: Int

  @inlinable
  init(count: Int, length: Int) {
    self.count = count
    self.length = length
  }

  @usableFromInline static let zero = _CountAndLength(count: 0, length: 0)

  // Counts and lengths of real documents never come near `Int.max`: the
  // sums wrap instead of checking for overflow.
  @inlinable @inline(__always)
  static func + (lhs: Self, rhs: Self) -> Self {
    _CountAndLength(count: lhs.count &+ rhs.count, length: lhs.length &+ rhs.length)
  }

  @inlinable @inline(__always)
  static func removing(_ part: Self, from total: Self) -> Self? {
    _CountAndLength(count: total.count &- part.count, length: total.length &- part.length)
  }
}

/// Measures spans by how many there are.
@usableFromInline
enum _CountMetric: TreeMetric {
  @usableFromInline
  static func measure(_ summary: _CountAndLength) -> Int { summary.count }
}

/// Measures spans by their length.
@usableFromInline
enum _LengthMetric: TreeMetric {
  @usableFromInline
  static func measure(_ summary: _CountAndLength) -> Int { summary.length }
}
