import SummaryTrees

/// Runs of attribute values over a text, kept in step with its edits: the
/// Writing Tools exclusion, or a storage's rich text (runs of attribute
/// sets, see ``TextStorage/attributeRuns(in:)``).
///
/// Every UTF-16 unit of the text has one value (`nil` for "none"); runs of
/// equal values are stored once, in a `SummaryTree`, so that finding the
/// value at an offset, setting a range and following an edit cost O(log r)
/// for r runs (plus the runs a range covers).
///
/// An edit follows the text: an insertion strictly inside a run extends it;
/// an insertion at a run's edge does not (the new text has no value).
///
/// ```swift
/// var excluded = AttributeRuns<Bool>(length: 20)
/// try excluded.set(true, in: 5..<10)
/// try excluded.replace(7..<7, withLength: 3)   // inside: the run grows to 5..<13
/// try excluded.replace(5..<5, withLength: 2)   // at its edge: not excluded
/// excluded.runs(in: 0..<25)
/// ```
public struct AttributeRuns<Value: Hashable & Sendable>: Sendable {
  @usableFromInline var tree: SummaryTree<_AttributeRun<Value>>
  /// True while no unit has ever had a value: then there are no runs to
  /// look for (the usual case for the exclusion), without a seek.
  @usableFromInline var neverSet = true

  /// A text of `length` units with no value anywhere.
  public init(length: Int = 0) {
    tree = SummaryTree()
    if length > 0 { tree.append(_AttributeRun(length: length, value: nil)) }
  }

  /// The length of the text the runs cover.
  public var length: Int { tree.summary.length }

  /// The number of stored runs (runs of `nil` included).
  public var runCount: Int { tree.summary.count }

  /// The value at `offset` (of the unit starting there).
  ///
  /// - Throws: ``AttributeRunsError/outOfBounds(_:length:)`` unless
  ///   `0 <= offset < length`.
  /// - Complexity: O(log r)
  public func value(at offset: Int) throws(AttributeRunsError) -> Value? {
    guard offset >= 0 && offset < length else {
      throw .outOfBounds(offset..<offset, length: length)
    }
    return tree.find(_LengthMetric.self, offset, bias: .right)?.item.value
  }

  /// The runs with a value that overlap `range`, clipped to it, in order.
  ///
  /// - Complexity: O(log r + k) for k runs in the range.
  public func runs(in range: Range<Int>) -> [(range: Range<Int>, value: Value)] {
    var result: [(range: Range<Int>, value: Value)] = []
    forEachRun(in: range) { result.append(($0, $1)) }
    return result
  }

  /// Calls `body` with each run with a value that overlaps `range`, clipped
  /// to it, in order (what ``runs(in:)`` lists, without the list).
  func forEachRun(in range: Range<Int>, _ body: (Range<Int>, Value) -> Void) {
    if neverSet { return }
    guard !range.isEmpty, range.lowerBound < length else { return }
    if tree.summary.count == 1 {
      // One run over everything (the usual case: nothing excluded).
      guard let value = Self.first(of: tree)?.value else { return }
      body(max(range.lowerBound, 0)..<min(range.upperBound, length), value)
      return
    }
    var cursor = tree.cursor(_LengthMetric.self, at: max(range.lowerBound, 0), bias: .right)
    while let run = cursor.item {
      let start = cursor.prefix.length
      if start >= range.upperBound { break }
      let clipped = max(start, range.lowerBound)..<min(start + run.length, range.upperBound)
      if let value = run.value, !clipped.isEmpty { body(clipped, value) }
      cursor.moveNext()
    }
  }

  /// Gives every unit in `range` the value `value` (`nil` to clear it).
  ///
  /// - Throws: ``AttributeRunsError/outOfBounds(_:length:)``; nothing changes.
  /// - Complexity: O(log r + k)
  public mutating func set(_ value: Value?, in range: Range<Int>) throws(AttributeRunsError) {
    try check(range)
    if range.isEmpty { return }
    if value != nil { neverSet = false }
    splice(range, with: _AttributeRun(length: range.count, value: value))
  }

  /// Follows an edit of the text: the units in `range` were replaced by
  /// `newLength` new ones. Inside one run (not at its edge) the new units
  /// take that run's value; elsewhere they have none.
  ///
  /// - Throws: ``AttributeRunsError/outOfBounds(_:length:)``; nothing changes.
  /// - Complexity: O(log r + k)
  public mutating func replace(
    _ range: Range<Int>, withLength newLength: Int
  ) throws(AttributeRunsError) {
    try check(range)
    guard newLength >= 0 else { throw .outOfBounds(range, length: length) }
    if resizeInPlace(range, to: newLength) { return }
    var value: Value? = nil
    // The run that holds the unit before the edit, and whether it goes on
    // after the edit: then the edit is strictly inside it.
    if range.lowerBound > 0 && range.upperBound < length,
      let before = tree.find(_LengthMetric.self, range.lowerBound - 1, bias: .right),
      before.prefix.length + before.item.length > range.upperBound
    {
      value = before.item.value
    }
    splice(range, with: _AttributeRun(length: newLength, value: value))
  }

  /// Follows an edit of the text by the rule of
  /// `NSMutableAttributedString.replaceCharacters(in:with:)`: the units in
  /// `range` were replaced by `newLength` new ones, which take the value of
  /// the first replaced unit; for an insertion, that of the unit before it;
  /// at the start of the text, that of the unit after it; in an empty text,
  /// none. (The exclusion keeps ``replace(_:withLength:)``'s rule.)
  ///
  /// - Throws: ``AttributeRunsError/outOfBounds(_:length:)``; nothing changes.
  /// - Complexity: O(log r) when the edit lies in one run that the rule
  ///   extends (typing: one descent, nothing allocated); O(log r + k)
  ///   otherwise.
  public mutating func replaceInheriting(
    _ range: Range<Int>, withLength newLength: Int
  ) throws(AttributeRunsError) {
    try check(range)
    guard newLength >= 0 else { throw .outOfBounds(range, length: length) }
    if range.isEmpty && newLength == 0 { return }
    // The unit whose value the new units take, and the run that holds it:
    // the first replaced unit, or for an insertion the unit before it (the
    // run that ends at the insertion point), or at the start the unit
    // after it.
    let p = range.lowerBound
    let bias: Bias = range.isEmpty && p > 0 ? .left : .right
    var inherited: Value? = nil
    let done = tree.updateItem(_LengthMetric.self, at: p, bias: bias) {
      (run: inout _AttributeRun<Value>, prefix: _CountAndLength) -> (Bool, TreeItemChange) in
      let start = prefix.length
      let resized = run.length - range.count + newLength
      // In place when the edit lies in this run and leaves it non-empty.
      guard start <= range.lowerBound, range.upperBound <= start + run.length, resized > 0 else {
        inherited = run.value
        return (false, .keep)
      }
      run.length = resized
      return (true, .keep)
    }
    if done == true { return }
    splice(range, with: _AttributeRun(length: newLength, value: inherited))
  }

  /// Changes the value of every unit in `range` by `transform` (given the
  /// unit's value, `nil` for none; returning `nil` clears it), run by run:
  /// a run that straddles a bound is cut there, equal neighbours merge.
  ///
  /// - Throws: ``AttributeRunsError/outOfBounds(_:length:)``; nothing changes.
  /// - Complexity: O(log r + k) for k runs in the range.
  public mutating func modify(
    _ range: Range<Int>, _ transform: (Value?) -> Value?
  ) throws(AttributeRunsError) {
    try check(range)
    if range.isEmpty { return }
    let (head, rest) = Self.cut(tree, at: range.lowerBound)
    let (middle, tail) = Self.cut(rest, at: range.count)
    let changed = middle.map { run in
      let value = transform(run.value)
      if value != nil { neverSet = false }
      return _AttributeRun(length: run.length, value: value)
    }
    tree = Self.joined(head, changed, tail)
  }

  /// Follows an edit of the text whose new units take `value` (`nil`:
  /// none), whatever their neighbours have.
  ///
  /// - Throws: ``AttributeRunsError/outOfBounds(_:length:)``; nothing changes.
  /// - Complexity: O(log r + k)
  public mutating func replace(
    _ range: Range<Int>, withLength newLength: Int, value: Value?
  ) throws(AttributeRunsError) {
    try check(range)
    guard newLength >= 0 else { throw .outOfBounds(range, length: length) }
    if value != nil && newLength > 0 { neverSet = false }
    splice(range, with: _AttributeRun(length: newLength, value: value))
  }

  /// Replaces the units in `range` with `runs`, in order (the new units are
  /// as many as their lengths add up to; a run of `nil` has no value), in
  /// one pass: the runs are cut at the bounds once, equal neighbours merge
  /// (among `runs` and at the seams), and the new runs become a subtree
  /// built bottom-up. Setting m runs one by one instead costs a cut and a
  /// join each (docs/benchmarks.md, *Rich text in bulk*). `maximal`: the
  /// caller knows that no run is empty and no two neighbours are alike
  /// (only the seams are compared).
  ///
  /// - Throws: ``AttributeRunsError/outOfBounds(_:length:)``, also for a
  ///   run of negative length; nothing changes.
  /// - Complexity: O(log r + m) for m runs.
  mutating func replace(
    _ range: Range<Int>, withRuns runs: [_AttributeRun<Value>], maximal: Bool = false
  ) throws(AttributeRunsError) {
    try check(range)
    var given = false
    for run in runs {
      guard run.length >= 0 else { throw .outOfBounds(range, length: length) }
      if run.length > 0 && run.value != nil { given = true }
    }
    if given { neverSet = false }
    let (head, rest) = Self.cut(tree, at: range.lowerBound)
    let (_, tail) = Self.cut(rest, at: range.count)
    tree = Self.joined(head, runs, tail, maximal: maximal)
  }

  /// The fast path of ``replace(_:withLength:)``: when `range` lies in one
  /// run that keeps its value for the new units (the edit is strictly
  /// inside it, or the run has no value, which is what new units at its
  /// edge get) and stays non-empty, that run changes length in place: no
  /// cut, no merge, no allocation. Returns `false`, changing nothing,
  /// otherwise.
  mutating func resizeInPlace(_ range: Range<Int>, to newLength: Int) -> Bool {
    let total = length
    let done = tree.updateItem(_LengthMetric.self, at: range.lowerBound, bias: .right) {
      (run: inout _AttributeRun<Value>, prefix: _CountAndLength) -> (Bool, TreeItemChange) in
      let start = prefix.length
      let end = start + run.length
      guard start <= range.lowerBound, range.upperBound <= end else { return (false, .keep) }
      let strictlyInside = range.lowerBound > start && range.upperBound < end
      guard run.value == nil || strictlyInside else { return (false, .keep) }
      let resized = run.length - range.count + newLength
      // A run that would vanish, or an edit at the very end of the text
      // that the rule gives no value, takes the general path.
      guard resized > 0, run.value == nil || range.upperBound < total else {
        return (false, .keep)
      }
      run.length = resized
      return (true, .keep)
    }
    return done ?? false
  }

  /// Checks the runs: the tree's shape and summaries, no empty run, no two
  /// neighbours with the same value, and no value while ``neverSet``. Traps
  /// on a violation. Compiled in only with `-DENGINE_INTERNAL_CHECKS`; a
  /// no-op otherwise.
  public func _invariantCheck() {
    #if ENGINE_INTERNAL_CHECKS
    tree._invariantCheck()
    var previous: Value?? = .none
    for run in tree {
      precondition(run.length > 0, "empty attribute run")
      if let previous { precondition(previous != run.value, "neighbouring runs not merged") }
      precondition(!neverSet || run.value == nil, "a value while neverSet")
      previous = .some(run.value)
    }
    #endif
  }

  func check(_ range: Range<Int>) throws(AttributeRunsError) {
    guard range.lowerBound >= 0 && range.upperBound <= length else {
      throw .outOfBounds(range, length: length)
    }
  }

  /// Replaces the units in `range` with `run` (which may be empty), cutting
  /// the runs at the bounds and merging equal neighbours.
  mutating func splice(_ range: Range<Int>, with run: _AttributeRun<Value>) {
    let (head, rest) = Self.cut(tree, at: range.lowerBound)
    let (_, tail) = Self.cut(rest, at: range.count)
    tree = Self.joined(head, run.length > 0 ? [run] : [], tail)
  }

  /// `head`, then the runs `middle`, then `tail`, with empty runs left out
  /// and equal neighbours at the seams (and inside `middle`) merged.
  /// `maximal`: `middle` is known to have no empty run and no two
  /// neighbours alike.
  static func joined(
    _ head: SummaryTree<_AttributeRun<Value>>, _ middle: [_AttributeRun<Value>],
    _ tail: SummaryTree<_AttributeRun<Value>>, maximal: Bool = false
  ) -> SummaryTree<_AttributeRun<Value>> {
    let headLast = last(of: head)
    let tailFirst = first(of: tail)
    // Runs that need no merge (none empty, no two neighbours equal, at the
    // seams neither) become their subtree as they are: no copy of them.
    if let first = middle.first, let last = middle.last,
      headLast.map({ !isSame($0.value, first.value) }) ?? true,
      tailFirst.map({ !isSame($0.value, last.value) }) ?? true,
      maximal || isMaximal(middle)
    {
      var result = head
      result.append(contentsOf: SummaryTree(middle))
      result.append(contentsOf: tail)
      return result
    }
    var merged: [_AttributeRun<Value>] = []
    merged.reserveCapacity(middle.count + 2)
    func take(_ piece: _AttributeRun<Value>) {
      guard piece.length > 0 else { return }
      if let previous = merged.last, isSame(previous.value, piece.value) {
        merged[merged.count - 1].length += piece.length
      } else {
        merged.append(piece)
      }
    }
    if let headLast { take(headLast) }
    for piece in middle { take(piece) }
    if let tailFirst { take(tailFirst) }
    var result = dropLast(head)
    result.append(contentsOf: SummaryTree(merged))
    result.append(contentsOf: dropFirst(tail))
    return result
  }

  /// Whether no run of `runs` is empty and no two neighbours have the same
  /// value.
  static func isMaximal(_ runs: [_AttributeRun<Value>]) -> Bool {
    guard var previous = runs.first, previous.length > 0 else { return runs.isEmpty }
    for run in runs.dropFirst() {
      if run.length <= 0 || isSame(previous.value, run.value) { return false }
      previous = run
    }
    return true
  }

  /// Whether two runs' values are equal: for attribute sets,
  /// ``_sameAttributes(_:_:)`` (what it is worth: docs/benchmarks.md,
  /// issue 32's landing rows).
  @inline(__always)
  static func isSame(_ a: Value?, _ b: Value?) -> Bool {
    typealias Attributes = [AttributeKey: AttributeValue]
    if Value.self == Attributes.self {
      return _sameAttributes(
        unsafeBitCast(a, to: Attributes?.self), unsafeBitCast(b, to: Attributes?.self))
    }
    return a == b
  }

  /// Cuts `tree` at unit `offset`, splitting a run that straddles it.
  static func cut(
    _ tree: SummaryTree<_AttributeRun<Value>>, at offset: Int
  ) -> (SummaryTree<_AttributeRun<Value>>, SummaryTree<_AttributeRun<Value>>) {
    tree.split(_LengthMetric.self, at: offset) { run, inside in
      (
        _AttributeRun(length: inside, value: run.value),
        _AttributeRun(length: run.length - inside, value: run.value)
      )
    }
  }

  static func last(of tree: SummaryTree<_AttributeRun<Value>>) -> _AttributeRun<Value>? {
    tree.isEmpty ? nil : tree.find(_CountMetric.self, tree.summary.count - 1, bias: .right)?.item
  }

  static func first(of tree: SummaryTree<_AttributeRun<Value>>) -> _AttributeRun<Value>? {
    tree.isEmpty ? nil : tree.find(_CountMetric.self, 0, bias: .right)?.item
  }

  static func dropLast(_ tree: SummaryTree<_AttributeRun<Value>>) -> SummaryTree<
    _AttributeRun<Value>
  > {
    tree.isEmpty ? tree : tree.split(_CountMetric.self, at: tree.summary.count - 1).0
  }

  static func dropFirst(_ tree: SummaryTree<_AttributeRun<Value>>) -> SummaryTree<
    _AttributeRun<Value>
  > {
    tree.isEmpty ? tree : tree.split(_CountMetric.self, at: 1).1
  }
}

/// Why attribute runs refused a request; nothing changed.
public enum AttributeRunsError: Error, Hashable, Sendable {
  /// The range (or offset) is outside the text.
  case outOfBounds(Range<Int>, length: Int)
}

/// A run: `length` units with one value.
@usableFromInline
struct _AttributeRun<Value: Hashable & Sendable>: TreeItem {
  @usableFromInline var length: Int
  @usableFromInline var value: Value?

  @usableFromInline
  var summary: _CountAndLength { _CountAndLength(count: 1, length: length) }
}

/// Whether two attribute sets are equal (as `==` says), compared key by
/// key when they have a few.
func _sameAttributes(
  _ a: [AttributeKey: AttributeValue]?, _ b: [AttributeKey: AttributeValue]?
) -> Bool {
  guard let a, let b else { return a == nil && b == nil }
  guard a.count == b.count else { return false }
  guard a.count <= 4 else { return a == b }
  next: for (key, value) in a {
    for (other, otherValue) in b where other == key {
      if otherValue != value { return false }
      continue next
    }
    return false
  }
  return true
}
