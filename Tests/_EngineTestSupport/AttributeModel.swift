/// A plain model of rich-text attributes for differential tests: one
/// dictionary per UTF-16 unit, every rule applied the slow, obvious way.
public struct AttributeModel<Key: Hashable & Sendable, Value: Hashable & Sendable>: Sendable,
  Equatable
{
  /// The attributes of each unit.
  public var units: [[Key: Value]]

  /// A text of `length` units without attributes.
  public init(length: Int) {
    units = Array(repeating: [:], count: length)
  }

  /// Replaces the units in `range` with `newLength` new ones that have
  /// `given`, or without it `NSMutableAttributedString`'s rule: the first
  /// replaced unit's attributes; for an insertion the unit's before; at the
  /// start the unit's after; in an empty text none.
  public mutating func replace(_ range: Range<Int>, newLength: Int, given: [Key: Value]? = nil) {
    let new: [Key: Value]
    if let given {
      new = given
    } else if !range.isEmpty {
      new = units[range.lowerBound]
    } else if range.lowerBound > 0 {
      new = units[range.lowerBound - 1]
    } else {
      new = units.first ?? [:]
    }
    units.replaceSubrange(range, with: Array(repeating: new, count: newLength))
  }

  /// Replaces the units in `range` with new ones whose attributes are given
  /// one by one.
  public mutating func replace(_ range: Range<Int>, with new: [[Key: Value]]) {
    units.replaceSubrange(range, with: new)
  }

  /// Sets (a value) or removes (`nil`) keys over `range`.
  public mutating func set(_ values: [Key: Value?], in range: Range<Int>) {
    for i in range {
      for (key, value) in values { units[i][key] = value }
    }
  }

  /// The maximal runs of `range` with at least one attribute, relative to
  /// its start.
  public func runs(in range: Range<Int>) -> [(range: Range<Int>, attributes: [Key: Value])] {
    var result: [(range: Range<Int>, attributes: [Key: Value])] = []
    for i in range where !units[i].isEmpty {
      let local = i - range.lowerBound
      if let last = result.last, last.range.upperBound == local, last.attributes == units[i] {
        result[result.count - 1].range = last.range.lowerBound..<(local + 1)
      } else {
        result.append((local..<(local + 1), units[i]))
      }
    }
    return result
  }

  /// The attributes of each unit of `range`, for a replacement's text.
  public func units(in range: Range<Int>) -> [[Key: Value]] { Array(units[range]) }
}
