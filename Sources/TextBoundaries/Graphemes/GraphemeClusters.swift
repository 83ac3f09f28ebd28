import CEngineICU
import TextRope

/// The grapheme cluster (user-perceived character) boundaries of a rope
/// snapshot, as ICU finds them (UAX #29, extended grapheme clusters).
///
/// ICU reads the rope's chunks in place through a `UText`, so it sees as much
/// context as a rule needs: a run of 20,000 regional indicators or a long
/// emoji ZWJ sequence is measured from its real start, not from a window.
/// Between two scalars that always break (ASCII, most Latin, Greek, Cyrillic,
/// kana, CJK, Hangul syllables, common emoji) the answer comes without asking
/// ICU.
///
/// ```swift
/// let clusters = GraphemeClusters(Rope("e\u{301}👨‍👩‍👧 🇫🇷"))
/// try clusters.boundaries(in: 0..<clusters.rope.utf16Count)  // [0, 2, 10, 11, 15]
/// try clusters.snappedOutward(1..<5)                          // 0..<10
/// ```
///
/// Offsets are UTF-16 code units. An offset out of bounds or inside a
/// surrogate pair is a thrown ``BoundaryError/invalidOffset(_:)``.
public struct GraphemeClusters: Sendable {
  /// The text.
  public let rope: Rope

  /// The grapheme clusters of `rope`.
  ///
  /// - Complexity: O(1)
  public init(_ rope: Rope) {
    self.rope = rope
  }

  /// The UTF-8 offset of a UTF-16 offset that is in bounds and not inside a
  /// surrogate pair.
  func utf8(_ offset: Int) throws(BoundaryError) -> Int {
    do {
      return try rope.utf8Offset(of: offset, in: .utf16)
    } catch {
      throw .invalidOffset(error)
    }
  }

  /// Whether a grapheme cluster boundary falls at `offset`. The start and
  /// the end of the text are boundaries.
  ///
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n), plus ICU's look at the context if the
  ///   neighbouring scalars are not simple.
  public func isBoundary(_ offset: Int) throws(BoundaryError) -> Bool {
    let byte = try utf8(offset)
    if offset == 0 || offset == rope.utf16Count { return true }
    if let before = rope._scalar(before: byte), let after = rope._scalar(at: byte),
      _breaksBetween(before, after)
    {
      return true
    }
    return try _BreakerPool.withBreaker(over: rope) { breaker in
      engine_breaker_is_boundary(breaker, Int64(offset))
    }
  }

  /// The first boundary after `offset`, or `nil` at the end of the text.
  ///
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n), plus ICU's look at the context.
  public func boundary(after offset: Int) throws(BoundaryError) -> Int? {
    let byte = try utf8(offset)
    if offset == rope.utf16Count { return nil }
    var scalars = _ScalarIterator(rope, utf8Offset: byte)
    if let current = scalars.next(), _breaksBetween(current, scalars.next()) {
      return offset + _UTF8Scalar.utf16Width(current)
    }
    return try _BreakerPool.withBreaker(over: rope) { breaker in
      let result = engine_breaker_following(breaker, Int64(offset))
      return result < 0 ? nil : Int(result)
    }
  }

  /// The last boundary before `offset`, or `nil` at the start of the text.
  ///
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n), plus ICU's look at the context.
  public func boundary(before offset: Int) throws(BoundaryError) -> Int? {
    let byte = try utf8(offset)
    if offset == 0 { return nil }
    if let previous = rope._scalar(before: byte) {
      let earlier = rope._scalar(before: byte - _UTF8Scalar.utf8Width(previous))
      if earlier.map({ _breaksBetween($0, previous) }) ?? true {
        return offset - _UTF8Scalar.utf16Width(previous)
      }
    }
    return try _BreakerPool.withBreaker(over: rope) { breaker in
      let result = engine_breaker_preceding(breaker, Int64(offset))
      return result < 0 ? nil : Int(result)
    }
  }

  /// Every boundary `b` with `range.lowerBound <= b <= range.upperBound`, in
  /// order.
  ///
  /// - Throws: ``BoundaryError`` if a bound is out of bounds or inside a
  ///   surrogate pair.
  /// - Complexity: O(log n + k) for a range of k units.
  public func boundaries(in range: Range<Int>) throws(BoundaryError) -> [Int] {
    var result: [Int] = []
    try forEachBoundary(in: range) { result.append($0) }
    return result
  }

  /// Calls `body` with every boundary `b` with `range.lowerBound <= b <=
  /// range.upperBound`, in order.
  ///
  /// - Throws: ``BoundaryError`` if a bound is out of bounds or inside a
  ///   surrogate pair.
  /// - Complexity: O(log n + k) for a range of k units.
  public func forEachBoundary(
    in range: Range<Int>, _ body: (Int) -> Void
  ) throws(BoundaryError) {
    let lowerByte = try utf8(range.lowerBound)
    _ = try utf8(range.upperBound)
    var lease: _BreakerPool.Lease? = nil
    defer { lease?.release() }
    var icuPosition = -1
    var failure: BoundaryError? = nil
    /// ICU's first boundary after `offset` (a boundary), stepping on from
    /// ICU's own position when it is there; an iterator is leased on first use.
    func icuBoundary(after offset: Int) -> Int {
      if lease == nil {
        do throws(BoundaryError) {
          lease = try _BreakerPool.lease(over: rope)
        } catch {
          failure = error
          return rope.utf16Count
        }
      }
      guard let breaker = lease?.breaker.raw else { return rope.utf16Count }
      let result =
        offset == icuPosition
        ? engine_breaker_next(breaker) : engine_breaker_following(breaker, Int64(offset))
      icuPosition = result < 0 ? rope.utf16Count : Int(result)
      return icuPosition
    }

    // `position` is where `current` starts; `target` is the next boundary
    // known so far (the position itself when it is a boundary).
    var position = range.lowerBound
    var target: Int
    if try isBoundary(position) {
      target = position
      body(position)
    } else {
      target = icuBoundary(after: position)
    }
    if let failure { throw failure }
    let upper = range.upperBound
    var current: UInt32? = nil
    var done = position >= upper
    /// Moves past `current`, given the scalar after it (`nil` at the end).
    func advance(before next: UInt32?) {
      guard let c = current else { return }
      let after = position + _UTF8Scalar.utf16Width(c)
      if target <= position {
        target = _breaksBetween(c, next) ? after : icuBoundary(after: position)
      }
      position = after
      if position == target && position <= upper { body(position) }
      if position >= upper || failure != nil { done = true }
    }
    var cursor = rope.chunkCursor(at: lowerByte, in: .utf8)
    var start = lowerByte - cursor.start.utf8
    while !done, let chunk = cursor.chunk {
      chunk.utf8.withUnsafeBufferPointer { bytes in
        var i = start
        while i < bytes.count && !done {
          let (scalar, length) = _UTF8Scalar.decode(bytes, at: i)
          i += length
          if current != nil { advance(before: scalar) }
          current = scalar
        }
      }
      start = 0
      cursor.moveNext()
    }
    if !done { advance(before: nil) }
    if let failure { throw failure }
  }

  /// `range` widened to the nearest boundaries outside it (a bound that is
  /// a boundary stays).
  ///
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n), plus ICU's look at the context.
  public func snappedOutward(_ range: Range<Int>) throws(BoundaryError) -> Range<Int> {
    let lower =
      try isBoundary(range.lowerBound) ? range.lowerBound : boundary(before: range.lowerBound) ?? 0
    let upper =
      try isBoundary(range.upperBound)
      ? range.upperBound : boundary(after: range.upperBound) ?? rope.utf16Count
    return lower..<upper
  }

  /// `range` narrowed to the nearest boundaries inside it (a bound that is
  /// a boundary stays). If no whole cluster fits, an empty range at the first
  /// boundary after the lower bound.
  ///
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n), plus ICU's look at the context.
  public func snappedInward(_ range: Range<Int>) throws(BoundaryError) -> Range<Int> {
    let lower =
      try isBoundary(range.lowerBound)
      ? range.lowerBound : boundary(after: range.lowerBound) ?? rope.utf16Count
    let upper =
      try isBoundary(range.upperBound) ? range.upperBound : boundary(before: range.upperBound) ?? 0
    return lower..<max(lower, upper)
  }
}

extension Rope {
  /// The grapheme cluster boundaries of this text.
  public var graphemeClusters: GraphemeClusters { GraphemeClusters(self) }
}
