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
}
