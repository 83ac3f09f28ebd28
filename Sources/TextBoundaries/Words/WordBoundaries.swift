import CEngineICU
import TextRope

/// The word boundaries of a rope snapshot, as ICU's word break iterator
/// finds them (UAX #29 word boundaries, with ICU's dictionaries for Thai,
/// Lao, Khmer, Burmese, Chinese and Japanese).
///
/// The text between two boundaries is a *segment*. A segment is a *word*
/// when ICU's rule status says it holds letters, numbers, kana or
/// ideographs; spaces, punctuation, symbols, emoji and line breaks are
/// segments that are not words. "don't", "3.14" and "1,000" are one word
/// each; "中文字符" is the words ICU's dictionary finds in it.
///
/// ```swift
/// let words = WordBoundaries(Rope("Hello, don't panic!"))
/// try words.words(in: 0..<19)      // [0..<5, 7..<12, 13..<18]
/// try words.word(containing: 9)    // 7..<12 ("don't")
/// try words.wordStart(before: 13)  // 7: Option-Left in a macOS text view
/// try words.wordEnd(after: 5)      // 12: Option-Right
/// ```
///
/// ICU reads the rope's chunks in place through a `UText`, only those near
/// the offsets it is asked about, so a query on a rope of hundreds of
/// megabytes reads a few chunks. (A run of Thai, Lao, Khmer, Burmese or CJK
/// text is read whole: ICU's dictionaries segment a run at once.)
///
/// Offsets are UTF-16 code units. An offset out of bounds or inside a
/// surrogate pair is a thrown ``BoundaryError/invalidOffset(_:)``.
public struct WordBoundaries: Sendable {
  /// The text.
  public let rope: Rope
  /// The locale whose word rules apply (`""`: the root locale's).
  public let locale: String

  /// The word boundaries of `rope`, by the rules of `locale`.
  ///
  /// - Parameters:
  ///   - rope: the text.
  ///   - locale: an ICU locale identifier such as `"en"` or `"ja"`; `""`
  ///     (the default) for the root locale. An unknown locale gets the
  ///     root's rules.
  /// - Complexity: O(1)
  public init(_ rope: Rope, locale: String = "") {
    self.rope = rope
    self.locale = locale
  }

  /// Checks that `offset` is in bounds and not inside a surrogate pair.
  private func validate(_ offset: Int) throws(BoundaryError) {
    do {
      _ = try rope.utf8Offset(of: offset, in: .utf16)
    } catch {
      throw .invalidOffset(error)
    }
  }

  /// Runs `body` with a word break iterator set to the rope's text.
  private func withBreaker<R>(
    _ body: (OpaquePointer) throws(BoundaryError) -> R
  ) throws(BoundaryError) -> R {
    try _BreakerPool.withBreaker(.words(locale: locale), over: rope, body)
  }

  /// Whether a word boundary falls at `offset`. The start and the end of
  /// the text are boundaries.
  ///
  /// - Parameter offset: a UTF-16 offset in the text.
  /// - Returns: `true` if a segment starts or ends at `offset`.
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n), plus ICU's look at the context.
  public func isBoundary(_ offset: Int) throws(BoundaryError) -> Bool {
    try validate(offset)
    if offset == 0 || offset == rope.utf16Count { return true }
    return try withBreaker { breaker in engine_breaker_is_boundary(breaker, Int64(offset)) }
  }

  /// The first word boundary after `offset`, or `nil` at the end of the
  /// text.
  ///
  /// - Parameter offset: a UTF-16 offset in the text.
  /// - Returns: the end of the segment that holds the unit at `offset`.
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n), plus ICU's look at the context.
  public func boundary(after offset: Int) throws(BoundaryError) -> Int? {
    try validate(offset)
    if offset == rope.utf16Count { return nil }
    return try withBreaker { breaker in
      let result = engine_breaker_following(breaker, Int64(offset))
      return result < 0 ? nil : Int(result)
    }
  }

  /// The last word boundary before `offset`, or `nil` at the start of the
  /// text.
  ///
  /// - Parameter offset: a UTF-16 offset in the text.
  /// - Returns: the start of the segment that holds the unit before
  ///   `offset`.
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n), plus ICU's look at the context.
  public func boundary(before offset: Int) throws(BoundaryError) -> Int? {
    try validate(offset)
    if offset == 0 { return nil }
    return try withBreaker { breaker in
      let result = engine_breaker_preceding(breaker, Int64(offset))
      return result < 0 ? nil : Int(result)
    }
  }

  /// The words (segments of letters, numbers, kana or ideographs) that
  /// intersect `range`, whole and in order: a word that starts before the
  /// range or ends after it is included whole.
  ///
  /// A word intersects the range when they share a unit, as `overlaps(_:)`
  /// has it, so an empty range intersects no word (see
  /// ``word(containing:)``). This is the walk a spelling checker makes over
  /// the visible text.
  ///
  /// - Parameter range: UTF-16 offsets in the text.
  /// - Returns: the words' ranges, in UTF-16 offsets.
  /// - Throws: ``BoundaryError`` if a bound is out of bounds or inside a
  ///   surrogate pair.
  /// - Complexity: O(log n + k) for a range of k units, plus ICU's look at
  ///   the context around the bounds.
  public func words(in range: Range<Int>) throws(BoundaryError) -> [Range<Int>] {
    try validate(range.lowerBound)
    try validate(range.upperBound)
    guard !range.isEmpty else { return [] }
    return try withBreaker { breaker in
      let lower = Int64(range.lowerBound)
      // The start of the segment that holds the range's first unit; the
      // iterator is left there, so `next` walks on from it.
      var start =
        engine_breaker_is_boundary(breaker, lower)
        ? range.lowerBound : Int(engine_breaker_preceding(breaker, lower))
      var result: [Range<Int>] = []
      while start < range.upperBound {
        let end = engine_breaker_next(breaker)
        guard end >= 0 else { break }
        if engine_breaker_rule_status(breaker) >= ENGINE_WORD_NONE_LIMIT {
          result.append(start..<Int(end))
        }
        start = Int(end)
      }
      return result
    }
  }

  /// The word that holds the unit at `offset`; else the word that ends at
  /// `offset`; else `nil` (spaces, punctuation, or an empty text).
  ///
  /// A caret just after a word ("word|") is in that word, as a spelling
  /// checker or a double click wants it; between two words that touch, the
  /// one after the caret wins.
  ///
  /// - Parameter offset: a UTF-16 offset in the text.
  /// - Returns: the word's range in UTF-16 offsets, or `nil`.
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n), plus ICU's look at the context.
  public func word(containing offset: Int) throws(BoundaryError) -> Range<Int>? {
    try validate(offset)
    let count = rope.utf16Count
    if count == 0 { return nil }
    return try withBreaker { breaker in
      if offset < count {
        // The segment that holds the unit at `offset`.
        let end = engine_breaker_following(breaker, Int64(offset))
        if end >= 0 && engine_breaker_rule_status(breaker) >= ENGINE_WORD_NONE_LIMIT {
          return Int(engine_breaker_previous(breaker))..<Int(end)
        }
      }
      if offset > 0 {
        // The segment that holds the unit before `offset`, if it ends there.
        let start = engine_breaker_preceding(breaker, Int64(offset))
        let end = engine_breaker_next(breaker)
        if start >= 0 && end == offset
          && engine_breaker_rule_status(breaker) >= ENGINE_WORD_NONE_LIMIT
        {
          return Int(start)..<offset
        }
      }
      return nil
    }
  }

  /// Where Ctrl-Left (Option-Left on a Mac) takes a caret at `offset`: the
  /// start of the word before it, skipping spaces and punctuation.
  ///
  /// This is how macOS text views move by word: from inside a word or
  /// just after it, to its start; from a word's start or from the spaces
  /// and punctuation before a word, to the start of the previous word; 0
  /// when no word starts before `offset`.
  ///
  /// - Parameter offset: a UTF-16 offset in the text.
  /// - Returns: the start of the last word that starts before `offset`, or
  ///   0.
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n + d) for a move of d units, plus ICU's look at
  ///   the context.
  public func wordStart(before offset: Int) throws(BoundaryError) -> Int {
    try validate(offset)
    if offset == 0 { return 0 }
    return try withBreaker { breaker in
      // The segment that holds the unit before `offset`; the iterator is
      // left at its end, with its status.
      guard engine_breaker_preceding(breaker, Int64(offset)) >= 0,
        engine_breaker_next(breaker) >= 0
      else { return 0 }
      var status = engine_breaker_rule_status(breaker)
      while true {
        // The start of the segment whose status is `status`.
        let start = engine_breaker_previous(breaker)
        guard start >= 0 else { return 0 }
        if status >= ENGINE_WORD_NONE_LIMIT { return Int(start) }
        status = engine_breaker_rule_status(breaker)  // of the segment that ends at `start`
      }
    }
  }

  /// Where Ctrl-Right (Option-Right on a Mac) takes a caret at `offset`: the
  /// end of the next word, skipping spaces and punctuation.
  ///
  /// This is how macOS text views move by word: from inside a word or just
  /// before it, to its end; from a word's end or from the spaces and
  /// punctuation after a word, to the end of the next word; the end of the
  /// text when no word ends after `offset`.
  ///
  /// - Parameter offset: a UTF-16 offset in the text.
  /// - Returns: the end of the first word that ends after `offset`, or the
  ///   text's length.
  /// - Throws: ``BoundaryError``.
  /// - Complexity: O(log n + d) for a move of d units, plus ICU's look at
  ///   the context.
  public func wordEnd(after offset: Int) throws(BoundaryError) -> Int {
    try validate(offset)
    let count = rope.utf16Count
    if offset == count { return count }
    return try withBreaker { breaker in
      // The segment that holds the unit at `offset`.
      var end = engine_breaker_following(breaker, Int64(offset))
      while end >= 0 {
        if engine_breaker_rule_status(breaker) >= ENGINE_WORD_NONE_LIMIT { return Int(end) }
        end = engine_breaker_next(breaker)
      }
      return count
    }
  }

  /// Every boundary of `text` and its words, from ICU reading the whole
  /// text from one contiguous buffer: the oracle of the tests, not a rope
  /// query.
  ///
  /// - Parameters:
  ///   - text: the text.
  ///   - locale: an ICU locale identifier, as for ``init(_:locale:)``.
  /// - Returns: the boundaries (0 and the UTF-16 length included) and the
  ///   words' ranges, in UTF-16 offsets.
  /// - Throws: ``BoundaryError/icuUnavailable(_:)``,
  ///   ``BoundaryError/textTooLong(utf16Count:)``.
  /// - Complexity: O(n)
  public static func _boundariesAndWords(
    ofContiguous text: String, locale: String = ""
  ) throws(BoundaryError) -> (boundaries: [Int], words: [Range<Int>]) {
    try _BreakerPool.withBreaker(.words(locale: locale), overContiguous: text) { breaker in
      var boundaries = [0]
      var words: [Range<Int>] = []
      var start = 0
      while true {
        let end = engine_breaker_next(breaker)
        guard end >= 0 else { break }
        if engine_breaker_rule_status(breaker) >= ENGINE_WORD_NONE_LIMIT {
          words.append(start..<Int(end))
        }
        boundaries.append(Int(end))
        start = Int(end)
      }
      return (boundaries, words)
    }
  }
}

extension Rope {
  /// The word boundaries of this text, by the root locale's rules.
  public var wordBoundaries: WordBoundaries { WordBoundaries(self) }
}
