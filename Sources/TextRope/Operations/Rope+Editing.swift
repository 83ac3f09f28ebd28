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
    var discarded = _DiscardedText()
    try replace(range, in: unit, with: replacement, sink: &discarded)
  }

  /// Replaces the text in `range` (of `unit`) with `replacement`, and
  /// puts the UTF-8 of the text it removed in `removedUTF8` (emptied
  /// first; its room reused): read from the chunk while the edit has it in
  /// hand when the edit is done in place (a keystroke), else read before
  /// the general path. No string is made: a keystroke's deletion copies
  /// its bytes into room kept from the last one.
  ///
  /// - Throws: as ``replace(_:in:with:)``; the rope is then unchanged and
  ///   `removedUTF8` empty.
  package mutating func replace(
    _ range: Range<Int>, in unit: TextUnit = .utf16, with replacement: String,
    removedUTF8: inout UTF8Room
  ) throws(RopeError) {
    removedUTF8.removeAll()
    do {
      try replace(range, in: unit, with: replacement, sink: &removedUTF8)
    } catch {
      removedUTF8.removeAll()
      throw error
    }
  }

  /// The edit of both: the text it removed goes in `removed` if that keeps
  /// it (the one that does not is specialized away).
  private mutating func replace<Sink: _RemovedTextSink>(
    _ range: Range<Int>, in unit: TextUnit, with replacement: String, sink removed: inout Sink
  ) throws(RopeError) {
    try replacement._withUTF8 { (bytes) throws(RopeError) in
      try replace(range, in: unit, validUTF8: bytes, removed: &removed)
    }
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

  /// Replaces `range` (of `unit`) with valid UTF-8 `new`: in place when the
  /// range lies in one chunk (one descent of the tree finds the chunk, checks
  /// the bounds and edits it), else by splitting and concatenating.
  mutating func replace(
    _ range: Range<Int>, in unit: TextUnit, validUTF8 new: UnsafeBufferPointer<UInt8>
  ) throws(RopeError) {
    var discarded = _DiscardedText()
    try replace(range, in: unit, validUTF8: new, removed: &discarded)
  }

  /// The same, the text it removed put in `removed` if that keeps it (see
  /// ``replace(_:in:with:removedUTF8:)``).
  mutating func replace<Sink: _RemovedTextSink>(
    _ range: Range<Int>, in unit: TextUnit, validUTF8 new: UnsafeBufferPointer<UInt8>,
    removed: inout Sink
  ) throws(RopeError) {
    try checkBounds(range.lowerBound, unit)
    try checkBounds(range.upperBound, unit)
    if range.isEmpty && new.isEmpty {
      // Nothing to do, but the offset must still be a valid one.
      _ = try utf8Offset(of: range.lowerBound, in: unit)
      return
    }
    let outcome: _InPlaceEdit
    switch unit {
    case .utf8: outcome = editInPlace(UTF8Metric.self, range, unit, with: new, removed: &removed)
    case .utf16:
      outcome = editInPlace(UTF16Metric.self, range, unit, with: new, removed: &removed)
    case .unicodeScalars:
      outcome = editInPlace(ScalarMetric.self, range, unit, with: new, removed: &removed)
    }
    switch outcome {
    case .done:
      _invariantCheck()
    case .refused(let error):
      throw error
    case .notInPlace:
      let bytes = try utf8Range(of: range, in: unit)
      if Sink.keeps { keepUTF8(bytes, in: &removed) }
      replaceBySplicing(bytes, with: new)
    case .spansPast(let chunkEnd):
      // (A bad bound is for the general path to report, as without
      // `removed`.)
      if Sink.keeps, let bytes = try? utf8Range(of: range, in: unit) {
        keepUTF8(bytes, in: &removed)
      }
      try replaceAcrossTwoChunks(range, in: unit, chunkEnd: chunkEnd, with: new)
    }
  }

  /// Hands `sink` the bytes of UTF-8 range `bytes`, chunk by chunk (the
  /// general path's removed text: no string made).
  private func keepUTF8<Sink: _RemovedTextSink>(_ bytes: Range<Int>, in sink: inout Sink) {
    forEachChunk(inUTF8: bytes) { chunk, part in
      chunk.bytes.withUnsafeBufferPointer {
        sink.keep(utf8: UnsafeBufferPointer(rebasing: $0[part]))
      }
    }
  }

  /// An edit whose range starts in one chunk and ends in a later one
  /// (`chunkEnd`, in `unit`, is where the first chunk ends): if it ends in
  /// the very next chunk, deletes the part in that chunk and then edits the
  /// first chunk, both in place; else splices. Either way the rope is
  /// unchanged if a bound is bad.
  mutating func replaceAcrossTwoChunks(
    _ range: Range<Int>, in unit: TextUnit, chunkEnd: Int, with new: UnsafeBufferPointer<UInt8>
  ) throws(RopeError) {
    // Check the lower bound first: the first step below changes the rope.
    let lower = try utf8Offset(of: range.lowerBound, in: unit)
    let tail = chunkEnd..<range.upperBound
    let first: _InPlaceEdit
    switch unit {
    case .utf8: first = editInPlace(UTF8Metric.self, tail, unit, with: .init(start: nil, count: 0))
    case .utf16:
      first = editInPlace(UTF16Metric.self, tail, unit, with: .init(start: nil, count: 0))
    case .unicodeScalars:
      first = editInPlace(ScalarMetric.self, tail, unit, with: .init(start: nil, count: 0))
    }
    switch first {
    case .done:
      let head = range.lowerBound..<chunkEnd
      let second: _InPlaceEdit
      switch unit {
      case .utf8: second = editInPlace(UTF8Metric.self, head, unit, with: new)
      case .utf16: second = editInPlace(UTF16Metric.self, head, unit, with: new)
      case .unicodeScalars: second = editInPlace(ScalarMetric.self, head, unit, with: new)
      }
      if case .done = second {
        _invariantCheck()
        return
      }
      // The bounds are valid: only the general path is left.
      replaceBySplicing(lower..<(try utf8Offset(of: chunkEnd, in: unit)), with: new)
    case .refused(let error):
      throw error
    case .notInPlace, .spansPast:
      replaceBySplicing(lower..<(try utf8Offset(of: range.upperBound, in: unit)), with: new)
    }
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
    switch editInPlace(UTF8Metric.self, range, .utf8, with: new) {
    case .done: return
    case .spansPast(let chunkEnd):
      // (The bounds are valid: nothing is refused.)
      try? replaceAcrossTwoChunks(range, in: .utf8, chunkEnd: chunkEnd, with: new)
    case .refused, .notInPlace: replaceBySplicing(range, with: new)
    }
  }

  /// The general path of an edit: splits the rope around `range` (UTF-8, on
  /// scalar boundaries) and concatenates the parts with the new text.
  mutating func replaceBySplicing(_ range: Range<Int>, with new: UnsafeBufferPointer<UInt8>) {
    defer { _invariantCheck() }
    if tree.isEmpty {
      self = Rope(validUTF8: new)
      return
    }
    let (head, rest) = splitUTF8(at: range.lowerBound)
    var result = head
    result.append(Rope(validUTF8: new))
    result.append(rest.splitUTF8(at: range.count).1)
    self = result
  }

  /// The fast path of an edit: when `range` (of `unit`, measured by `M`) lies
  /// inside one chunk and the result fits in a few chunks, finds the chunk,
  /// turns the bounds into byte offsets, edits the bytes in place and updates
  /// the chunk's summary from the bytes around the edit. Changes nothing
  /// unless it returns `.done`.
  mutating func editInPlace<M: TreeMetric>(
    _ metric: M.Type, _ range: Range<Int>, _ unit: TextUnit,
    with new: UnsafeBufferPointer<UInt8>
  ) -> _InPlaceEdit where M.Summary == TextSummary {
    var discarded = _DiscardedText()
    return editInPlace(metric, range, unit, with: new, removed: &discarded)
  }

  /// The same; once the edit is sure to be done in place, the bytes it
  /// removes go in `removed` if that keeps them (the chunk is in hand, the
  /// bounds found).
  mutating func editInPlace<M: TreeMetric, Sink: _RemovedTextSink>(
    _ metric: M.Type, _ range: Range<Int>, _ unit: TextUnit,
    with new: UnsafeBufferPointer<UInt8>, removed: inout Sink
  ) -> _InPlaceEdit where M.Summary == TextSummary {
    if range.isEmpty && new.isEmpty { return .done }
    if tree.isEmpty { return .notInPlace }
    let total = tree.summary.utf8
    let bias: Bias = range.isEmpty ? .left : .right
    let outcome = tree.updateItem(metric, at: range.lowerBound, bias: bias) {
      (chunk: inout _TextChunk, prefix: TextSummary) -> (_InPlaceEdit, TreeItemChange<_TextChunk>)
      in
      let base = M.measure(prefix)
      let measure = M.measure(chunk.summary)
      guard range.upperBound - base <= measure else {
        return range.lowerBound - base < measure
          ? (.spansPast(chunkEnd: base + measure), .keep) : (.notInPlace, .keep)
      }
      let oldCount = chunk.count
      // The bounds as byte offsets in the chunk.
      let bounds: (Int, Int)? = chunk.bytes.withUnsafeBufferPointer { bytes in
        guard
          let start = _UTF8Counts.byteOffset(of: range.lowerBound - base, unit, measure, in: bytes)
        else { return nil }
        if range.isEmpty { return (start, start) }
        guard
          let end = _UTF8Counts.byteOffset(of: range.upperBound - base, unit, measure, in: bytes)
        else { return nil }
        return (start, end)
      }
      guard let (start, end) = bounds else {
        // Find which bound is bad, for the error.
        let bad =
          chunk.bytes.withUnsafeBufferPointer { bytes in
            _UTF8Counts.byteOffset(of: range.lowerBound - base, unit, measure, in: bytes) == nil
          } ? range.lowerBound : range.upperBound
        let error: RopeError =
          unit == .utf8 ? .splitsScalar(utf8Offset: bad) : .splitsSurrogatePair(utf16Offset: bad)
        return (.refused(error), .keep)
      }
      let newCount = oldCount - (end - start) + new.count
      // A large insertion becomes new chunks after this one; a huge one is
      // built as a tree of its own (splicing).
      guard newCount > 0, newCount <= 64 * _ChunkLimits.maxBytes else {
        return (.notInPlace, .keep)
      }
      // A CR LF pair must not end up split between this chunk and a neighbour.
      if start == 0 && prefix.utf8 > 0 {
        let first = new.isEmpty ? chunk.bytes[end] : new[0]
        if first == 0x0A { return (.notInPlace, .keep) }
      }
      if end == oldCount && prefix.utf8 + oldCount < total {
        let last = new.isEmpty ? chunk.bytes[start - 1] : new[new.count - 1]
        if last == 0x0D { return (.notInPlace, .keep) }
      }
      if Sink.keeps && end > start {
        chunk.bytes.withUnsafeBufferPointer {
          removed.keep(utf8: UnsafeBufferPointer(rebasing: $0[start..<end]))
        }
      }
      if newCount > _ChunkLimits.maxBytes {
        // Too big for one chunk: cut the edited bytes into new chunks.
        let pieces = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: newCount) { buffer in
          chunk.bytes.withUnsafeBufferPointer { old in
            var i = 0
            for b in old[..<start] {
              buffer[i] = b
              i += 1
            }
            for b in new {
              buffer[i] = b
              i += 1
            }
            for b in old[end...] {
              buffer[i] = b
              i += 1
            }
          }
          return _TextChunk.evenChunks(of: UnsafeBufferPointer(buffer))
        }
        var rest = pieces
        chunk = rest.removeFirst()
        return (.done, .insertAfter(rest))
      }
      if newCount > chunk.bytes.capacity {
        // Grow by half, but never past what a chunk may hold.
        chunk.bytes.reserveCapacity(
          min(_ChunkLimits.maxBytes, max(newCount, chunk.bytes.capacity * 3 / 2)))
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
      return (.done, .keep)
    }
    return outcome ?? .notInPlace
  }
}

/// What the in-place path of an edit did.
enum _InPlaceEdit {
  /// The edit is done.
  case done
  /// The edit needs the general path; nothing changed.
  case notInPlace
  /// A bound is inside a scalar or a surrogate pair; nothing changed.
  case refused(RopeError)
  /// The range starts in a chunk and ends past it, where the chunk ends at
  /// `chunkEnd` (in the edit's unit); nothing changed.
  case spansPast(chunkEnd: Int)
}

/// Where an edit puts the text it removed, as its caller asks: nowhere
/// (``_DiscardedText``) or in a ``UTF8Room`` the caller passes. It is told
/// nothing when the edit removed nothing.
protocol _RemovedTextSink {
  /// Whether it keeps the text (if not, the edit reads none).
  static var keeps: Bool { get }
  /// The removed text (or the next part of it), read from the chunk the
  /// edit has in hand, or chunk by chunk before the general path.
  mutating func keep(utf8 bytes: UnsafeBufferPointer<UInt8>)
}

/// The sink of an edit whose removed text nobody reads.
struct _DiscardedText: _RemovedTextSink {
  /// A byte of storage: a value of no size lives at one address shared by
  /// every thread, and the exclusivity checks of a sanitized build would
  /// see two edits on two threads modify "it" at once.
  private var unused: UInt8 = 0
  static var keeps: Bool { false }
  func keep(utf8 bytes: UnsafeBufferPointer<UInt8>) {}
}

extension String {
  /// Calls `body` with the string's UTF-8: a native string lends it without
  /// a copy (or a retain); another is copied first. (The edits of `Rope`
  /// and `BufferedRope` take their text so.)
  @inline(__always)
  func _withUTF8(_ body: (UnsafeBufferPointer<UInt8>) throws(RopeError) -> Void)
    throws(RopeError)
  {
    var failure: RopeError? = nil
    let done: Void? = utf8.withContiguousStorageIfAvailable { bytes in
      do throws(RopeError) { try body(bytes) } catch { failure = error }
    }
    if done == nil {
      var copy = self
      copy.withUTF8 { bytes in
        do throws(RopeError) { try body(bytes) } catch { failure = error }
      }
    }
    if let failure { throw failure }
  }
}
