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
    let number = try paragraphNumber(at: offset, in: unit)
    let start = try paragraphStart(number, in: unit)
    guard number + 1 < paragraphCount else {
      let end = count(in: unit)
      return (start..<end, end)
    }
    let endUTF8 = try paragraphStart(number + 1, in: .utf8)
    let end = unit == .utf8 ? endUTF8 : try self.offset(ofUTF8: endUTF8, in: unit)
    return (start..<end, end - separatorLength(endingAt: endUTF8, in: unit))
  }

  /// The length in `unit` of the paragraph separator that ends at UTF-8
  /// offset `end`.
  func separatorLength(endingAt end: Int, in unit: TextUnit) -> Int {
    guard let hit = tree.find(UTF8Metric.self, end, bias: .left) else { return 0 }
    let local = end - hit.prefix.utf8
    return hit.item.bytes.withUnsafeBufferPointer { bytes in
      switch bytes[local - 1] {
      case 0x0A:
        return local >= 2 && bytes[local - 2] == 0x0D ? 2 : 1
      case 0xA9:  // U+2029: E2 80 A9
        return unit == .utf8 ? 3 : 1
      default:  // CR
        return 1
      }
    }
  }
}
