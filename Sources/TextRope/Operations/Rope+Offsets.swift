import SummaryTrees

extension Rope {
  /// Checks that `offset` is within `0...count(in: unit)`.
  @inlinable
  func checkBounds(_ offset: Int, _ unit: TextUnit) throws(RopeError) {
    let count = tree.summary[unit]
    guard offset >= 0 && offset <= count else {
      throw .offsetOutOfBounds(offset: offset, unit: unit, count: count)
    }
  }

  /// The UTF-8 offset of the position `offset` in `unit`.
  ///
  /// - Throws: ``RopeError/offsetOutOfBounds(offset:unit:count:)``,
  ///   ``RopeError/splitsSurrogatePair(utf16Offset:)`` (UTF-16) or
  ///   ``RopeError/splitsScalar(utf8Offset:)`` (UTF-8).
  /// - Complexity: O(log n)
  public func utf8Offset(of offset: Int, in unit: TextUnit) throws(RopeError) -> Int {
    try checkBounds(offset, unit)
    switch unit {
    case .utf8:
      let inside = tree.withItem(UTF8Metric.self, at: offset, bias: .right) { chunk, prefix in
        let local = offset - prefix.utf8
        return local < chunk.count && _UTF8Counts.isContinuation(chunk.bytes[local])
      }
      if inside == true { throw .splitsScalar(utf8Offset: offset) }
      return offset
    case .utf16:
      return try byteOffset(UTF16Metric.self, offset, utf16: true)
    case .unicodeScalars:
      return try byteOffset(ScalarMetric.self, offset, utf16: false)
    }
  }

  func byteOffset<M: TreeMetric>(
    _ metric: M.Type, _ offset: Int, utf16: Bool
  ) throws(RopeError) -> Int where M.Summary == TextSummary {
    let found = tree.withItem(metric, at: offset, bias: .right) { chunk, prefix -> Int? in
      let measure = M.measure(chunk.summary)
      let byte = chunk.bytes.withUnsafeBufferPointer {
        _UTF8Counts.byteOffset(
          of: offset - M.measure(prefix), utf16 ? .utf16 : .unicodeScalars, measure, in: $0)
      }
      return byte.map { prefix.utf8 + $0 }
    }
    // An empty rope: only offset 0 passed the bounds check.
    guard let found else { return 0 }
    guard let byte = found else { throw .splitsSurrogatePair(utf16Offset: offset) }
    return byte
  }

  /// The position at UTF-8 offset `utf8Offset`, in `unit`.
  ///
  /// - Throws: ``RopeError/offsetOutOfBounds(offset:unit:count:)`` or
  ///   ``RopeError/splitsScalar(utf8Offset:)``.
  /// - Complexity: O(log n)
  public func offset(ofUTF8 utf8Offset: Int, in unit: TextUnit) throws(RopeError) -> Int {
    try checkBounds(utf8Offset, .utf8)
    // The answer, or `nil` if the offset is inside a scalar.
    let found = tree.withItem(UTF8Metric.self, at: utf8Offset, bias: .right) {
      chunk, prefix -> Int? in
      let local = utf8Offset - prefix.utf8
      if local < chunk.count && _UTF8Counts.isContinuation(chunk.bytes[local]) { return nil }
      switch unit {
      case .utf8:
        return utf8Offset
      case .utf16, .unicodeScalars:
        let base = prefix[unit]
        let total = chunk.summary[unit]
        if local == 0 { return base }
        if local == chunk.count { return base + total }
        if total == chunk.count { return base + local }
        return base
          + chunk.bytes.withUnsafeBufferPointer {
            _UTF8Counts.units(upTo: local, utf16: unit == .utf16, total: total, in: $0)
          }
      }
    }
    // An empty rope: only offset 0 passed the bounds check.
    guard let found else { return 0 }
    guard let result = found else { throw .splitsScalar(utf8Offset: utf8Offset) }
    return result
  }

  /// Converts a position from one unit to another.
  ///
  /// - Throws: as ``utf8Offset(of:in:)`` for `offset` in `from`.
  /// - Complexity: O(log n)
  public func convert(_ offset: Int, from: TextUnit, to: TextUnit) throws(RopeError) -> Int {
    if from == to {
      _ = try utf8Offset(of: offset, in: from)
      return offset
    }
    return try self.offset(ofUTF8: utf8Offset(of: offset, in: from), in: to)
  }

  /// Converts a range from one unit to another.
  ///
  /// ```swift
  /// let rope = Rope("a😀b")
  /// try rope.convert(1..<2, from: .unicodeScalars, to: .utf16)   // 1..<3
  /// ```
  ///
  /// - Throws: as ``utf8Offset(of:in:)`` for either bound in `from`.
  /// - Complexity: O(log n)
  public func convert(_ range: Range<Int>, from: TextUnit, to: TextUnit) throws(RopeError)
    -> Range<Int>
  {
    let lower = try convert(range.lowerBound, from: from, to: to)
    if range.isEmpty { return lower..<lower }
    return lower..<(try convert(range.upperBound, from: from, to: to))
  }

  /// The UTF-8 range of `range` in `unit`.
  ///
  /// - Complexity: O(log n)
  public func utf8Range(of range: Range<Int>, in unit: TextUnit) throws(RopeError) -> Range<Int> {
    let lower = try utf8Offset(of: range.lowerBound, in: unit)
    if range.isEmpty { return lower..<lower }
    return lower..<(try utf8Offset(of: range.upperBound, in: unit))
  }
}
