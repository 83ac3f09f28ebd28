import SummaryTrees

extension Rope {
  /// Replaces the text in `range` (of `unit`) with `replacement`.
  ///
  /// - Parameters:
  ///   - range: the text to replace; empty to insert.
  ///   - unit: the unit of `range` (UTF-16 by default).
  ///   - replacement: the new text; empty to delete.
  /// - Throws: as ``utf8Offset(of:in:)`` for either bound; the rope is then
  ///   unchanged.
  /// - Complexity: O(log n + m) for a replacement of m bytes; an edit inside
  ///   one chunk is done in place.
  public mutating func replace(
    _ range: Range<Int>, in unit: TextUnit = .utf16, with replacement: String
  ) throws(RopeError) {
    let bytes = try utf8Range(of: range, in: unit)
    var replacement = replacement
    replacement.withUTF8 { replaceUTF8(bytes, with: $0) }
  }

  /// Replaces the text in `range` (of `unit`) with the text that the UTF-8
  /// `bytes` encode.
  ///
  /// - Throws: ``RopeError/invalidUTF8(byteOffset:)`` (an offset into
  ///   `bytes`), or as ``utf8Offset(of:in:)`` for either bound; the rope is
  ///   then unchanged.
  /// - Complexity: O(log n + m)
  public mutating func replace(
    _ range: Range<Int>, in unit: TextUnit = .utf16, withUTF8 bytes: some Sequence<UInt8>
  ) throws(RopeError) {
    let target = try utf8Range(of: range, in: unit)
    let array = Array(bytes)
    let invalid = array.withUnsafeBufferPointer { _UTF8Validation.firstInvalidOffset($0) }
    if let invalid { throw .invalidUTF8(byteOffset: invalid) }
    array.withUnsafeBufferPointer { replaceUTF8(target, with: $0) }
  }

  /// Replaces the text in `range` (of `unit`) with the text of `rope`,
  /// sharing its chunks.
  ///
  /// - Complexity: O(log n + log m)
  public mutating func replace(
    _ range: Range<Int>, in unit: TextUnit = .utf16, with rope: Rope
  ) throws(RopeError) {
    let target = try utf8Range(of: range, in: unit)
    let (head, rest) = splitUTF8(at: target.lowerBound)
    var result = head
    result.append(rope)
    result.append(rest.splitUTF8(at: target.count).1)
    self = result
    _invariantCheck()
  }

  /// Inserts `text` at `offset` (of `unit`).
  ///
  /// - Throws: as ``utf8Offset(of:in:)``; the rope is then unchanged.
  /// - Complexity: O(log n + m)
  public mutating func insert(
    _ text: String, at offset: Int, in unit: TextUnit = .utf16
  ) throws(RopeError) {
    try replace(offset..<offset, in: unit, with: text)
  }

  /// Removes the text in `range` (of `unit`).
  ///
  /// - Throws: as ``utf8Offset(of:in:)`` for either bound; the rope is then
  ///   unchanged.
  /// - Complexity: O(log n)
  public mutating func delete(_ range: Range<Int>, in unit: TextUnit = .utf16) throws(RopeError) {
    try replace(range, in: unit, with: "")
  }

  /// Appends `text`.
  ///
  /// - Complexity: O(log n + m)
  public mutating func append(_ text: String) {
    var text = text
    let end = utf8Count
    text.withUTF8 { replaceUTF8(end..<end, with: $0) }
  }

  /// Replaces a UTF-8 range whose bounds are on scalar boundaries with valid
  /// UTF-8 bytes.
  @usableFromInline
  mutating func replaceUTF8(_ range: Range<Int>, with new: UnsafeBufferPointer<UInt8>) {
    defer { _invariantCheck() }
    if range.isEmpty && new.isEmpty { return }
    if tree.isEmpty {
      self = Rope(validUTF8: new)
      return
    }
    if editInPlace(range, with: new) { return }
    let (head, rest) = splitUTF8(at: range.lowerBound)
    var result = head
    result.append(Rope(validUTF8: new))
    result.append(rest.splitUTF8(at: range.count).1)
    self = result
  }

  /// The fast path of an edit: when `range` lies inside one chunk and the
  /// result fits in at most two chunks, edits that chunk in place and updates
  /// its summary from the bytes around the edit. Returns `false`, changing
  /// nothing, when the edit needs the general path.
  mutating func editInPlace(_ range: Range<Int>, with new: UnsafeBufferPointer<UInt8>) -> Bool {
    let total = tree.summary.utf8
    let bias: Bias = range.isEmpty ? .left : .right
    let done = tree.updateItem(UTF8Metric.self, at: range.lowerBound, bias: bias) {
      (chunk: inout _TextChunk, prefix: TextSummary) -> (Bool, TreeItemChange<_TextChunk>) in
      let start = range.lowerBound - prefix.utf8
      let end = range.upperBound - prefix.utf8
      let oldCount = chunk.count
      guard end <= oldCount else { return (false, .keep) }
      let newCount = oldCount - (end - start) + new.count
      guard newCount > 0, newCount <= 2 * _ChunkLimits.maxBytes else { return (false, .keep) }
      // A CR LF pair must not end up split between this chunk and a neighbour.
      if start == 0 && prefix.utf8 > 0 {
        let first = new.isEmpty ? chunk.bytes[end] : new[0]
        if first == 0x0A { return (false, .keep) }
      }
      if end == oldCount && prefix.utf8 + oldCount < total {
        let last = new.isEmpty ? chunk.bytes[start - 1] : new[new.count - 1]
        if last == 0x0D { return (false, .keep) }
      }
      // The counts change only in a window around the edit; see
      // `_UTF8Counts.summary(of:in:)`.
      let low = max(start - 1, 0)
      let before = chunk.bytes.withUnsafeBufferPointer {
        _UTF8Counts.summary(of: $0, in: low..<min(end + 2, oldCount))
      }
      chunk.bytes.replaceSubrange(start..<end, with: new)
      let after = chunk.bytes.withUnsafeBufferPointer {
        _UTF8Counts.summary(of: $0, in: low..<min(start + new.count + 2, newCount))
      }
      chunk.summary = chunk.summary - before + after
      if newCount <= _ChunkLimits.maxBytes { return (true, .keep) }
      var pieces = chunk.bytes.withUnsafeBufferPointer { _TextChunk.evenChunks(of: $0) }
      chunk = pieces.removeFirst()
      return (true, .insertAfter(pieces))
    }
    return done ?? false
  }
}
