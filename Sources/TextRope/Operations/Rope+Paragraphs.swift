import SummaryTrees

extension Rope {
  /// The number (from 0) of the paragraph that holds `offset`: how many
  /// paragraph separators end at or before it. An offset between a CR and
  /// its LF is still in the paragraph that CR LF ends.
  ///
  /// - Throws: as ``utf8Offset(of:in:)``.
  /// - Complexity: O(log n)
  public func paragraphNumber(at offset: Int, in unit: TextUnit = .utf16) throws(RopeError) -> Int {
    let byte = try utf8Offset(of: offset, in: unit)
    guard let hit = tree.find(UTF8Metric.self, byte, bias: .right) else { return 0 }
    let local = byte - hit.prefix.utf8
    if local == hit.item.count {
      return hit.prefix.paragraphSeparators + hit.item.summary.paragraphSeparators
    }
    return hit.prefix.paragraphSeparators
      + hit.item.bytes.withUnsafeBufferPointer { _UTF8Counts.separators(upTo: local, in: $0) }
  }

  /// The offset (in `unit`) where paragraph `number` (from 0) starts: 0 for
  /// the first, else right after the `number`th separator.
  ///
  /// - Throws: ``RopeError/paragraphOutOfBounds(number:count:)`` unless
  ///   `0 <= number < paragraphCount`.
  /// - Complexity: O(log n)
  public func paragraphStart(_ number: Int, in unit: TextUnit = .utf16) throws(RopeError) -> Int {
    guard number >= 0 && number < paragraphCount else {
      throw .paragraphOutOfBounds(number: number, count: paragraphCount)
    }
    if number == 0 { return 0 }
    guard let hit = tree.find(ParagraphSeparatorMetric.self, number, bias: .left) else { return 0 }
    let nth = number - hit.prefix.paragraphSeparators
    let local = hit.item.bytes.withUnsafeBufferPointer {
      _UTF8Counts.byteOffset(afterSeparator: nth, in: $0)
    }
    return try offset(ofUTF8: hit.prefix.utf8 + (local ?? hit.item.count), in: unit)
  }

  /// The paragraph that holds `offset`, as
  /// `NSString.getParagraphStart(_:end:contentsEnd:for:)` answers for an
  /// empty range there: its range with the separator, and where its contents
  /// end (before the separator).
  ///
  /// An offset between a CR and its LF is in the paragraph that CR LF ends;
  /// the end of a text that ends with a separator is in the empty paragraph
  /// after it.
  ///
  /// - Throws: as ``utf8Offset(of:in:)``.
  /// - Complexity: O(log n)
  public func paragraph(
    containing offset: Int, in unit: TextUnit = .utf16
  ) throws(RopeError) -> (range: Range<Int>, contentsEnd: Int) {
    try checkBounds(offset, unit)
    guard let (chunk, prefix) = self.chunk(at: offset, in: unit) else { return (0..<0, 0) }
    return try chunk.utf8.withUnsafeBufferPointer {
      (bytes) throws(RopeError) -> (range: Range<Int>, contentsEnd: Int) in
      let measure = chunk.summary[unit]
      guard let local = _UTF8Counts.byteOffset(of: offset - prefix[unit], unit, measure, in: bytes)
      else {
        throw unit == .utf8
          ? .splitsScalar(utf8Offset: offset) : .splitsSurrogatePair(utf16Offset: offset)
      }
      /// A byte offset in this chunk, in `unit` from the start of the text.
      func inUnit(_ byte: Int) -> Int {
        if unit == .utf8 || measure == bytes.count { return prefix[unit] + byte }
        return prefix[unit]
          + _UTF8Counts.units(upTo: byte, utf16: unit == .utf16, total: measure, in: bytes)
      }
      // The start: after the last separator before the offset, in this chunk
      // or (through the separator index) in an earlier one.
      let start: Int
      if let end = _UTF8Counts.lastSeparatorEnd(before: local, in: bytes) {
        start = inUnit(end)
      } else if prefix.paragraphSeparators == 0 {
        start = 0
      } else {
        start = try paragraphStart(prefix.paragraphSeparators, in: unit)
      }
      // The end: after the first separator that ends after the offset.
      if let last = _UTF8Counts.firstSeparatorLastByte(from: local, in: bytes) {
        let end = inUnit(last + 1)
        return (start..<end, end - Self.separatorLength(endingAt: last, in: bytes, unit))
      }
      let number = prefix.paragraphSeparators + chunk.summary.paragraphSeparators
      guard number < paragraphSeparatorCount,
        let hit = tree.find(ParagraphSeparatorMetric.self, number + 1, bias: .left)
      else {
        let end = count(in: unit)
        return (start..<end, end)
      }
      return hit.item.bytes.withUnsafeBufferPointer { other in
        let nth = number + 1 - hit.prefix.paragraphSeparators
        let after = _UTF8Counts.byteOffset(afterSeparator: nth, in: other) ?? other.count
        let end =
          unit == .utf8 || hit.item.summary[unit] == other.count
          ? hit.prefix[unit] + after
          : hit.prefix[unit]
            + _UTF8Counts.units(
              upTo: after, utf16: unit == .utf16, total: hit.item.summary[unit], in: other)
        return (start..<end, end - Self.separatorLength(endingAt: after - 1, in: other, unit))
      }
    }
  }

  /// The length in `unit` of the paragraph separator whose last byte is at
  /// `last`.
  static func separatorLength(
    endingAt last: Int, in bytes: UnsafeBufferPointer<UInt8>, _ unit: TextUnit
  ) -> Int {
    switch bytes[last] {
    case 0x0A: return last >= 1 && bytes[last - 1] == 0x0D ? 2 : 1
    case 0xA9: return unit == .utf8 ? 3 : 1  // U+2029: E2 80 A9
    default: return 1  // CR
    }
  }
}

// MARK: - The separators, for other modules

extension Rope {
  /// Whether `scalar` is one of the rope's paragraph separators: LF, CR or
  /// U+2029 (a CR LF pair is one separator). The one definition of a line
  /// break that the engine's other modules use.
  @inlinable
  public static func isParagraphSeparator(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\n" || scalar == "\r" || scalar == "\u{2029}"
  }

  /// The length in UTF-16 units of the paragraph separator that ends right
  /// before UTF-16 `offset` (2 for CR LF), or 0: none ends there, or the
  /// offset is not in the text.
  public func separatorLength(before offset: Int) -> Int {
    guard offset > 0, offset <= utf16Count,
      let last = (try? string((offset - 1)..<offset))?.unicodeScalars.first,
      Self.isParagraphSeparator(last)
    else { return 0 }
    guard last == "\n", offset > 1, (try? string((offset - 2)..<(offset - 1))) == "\r"
    else { return 1 }
    return 2
  }
}
