/// A rope with its next edits buffered: an edit that touches the one
/// waiting (typing on where it left off, a backspace over it or just before
/// it, a forward delete just after it) is merged into it, in a few bytes
/// kept beside the rope, and the rope takes it in one edit when anything
/// else is asked of it (jumprope's `JumpRopeBuf`, "equivalent to a
/// `BufWriter`").
///
/// It has the rope's interface for what a keystroke asks of the text — the
/// edit, the counts, the offset conversions in every unit with the rope's
/// errors (a UTF-16 offset inside a surrogate pair, a UTF-8 offset inside a
/// scalar), the text an edit removes — and answers those without taking
/// the buffered edit into the rope. Every other read goes through
/// ``flushed()``, which takes it and hands out the rope: an O(1),
/// immutable, `Sendable` snapshot, as ever.
///
/// ```swift
/// var text = BufferedRope(Rope("Hello"))
/// try text.insert(",", at: 5)
/// try text.insert(" world", at: 6)     // merged: the rope has not moved
/// text.utf16Count                       // 12
/// let rope = text.flushed()             // "Hello, world", one edit
/// ```
///
/// The buffered edit is a replacement of one stretch of the rope's text
/// (`removed`, at `start`) by the bytes kept (`inserted`, at most
/// ``BufferedRope/limit`` of them); its position and the removed stretch
/// are known in UTF-8, and in UTF-16 and scalars once an edit or a query in
/// that unit needed them.
public struct BufferedRope: Sendable {
  /// The rope, without the buffered edit.
  var base: Rope
  /// The edit waiting, if any.
  var pending: _PendingEdit?

  /// The most bytes the buffered edit keeps; an edit that would make it
  /// longer takes it into the rope first.
  public static let limit = 1024

  /// A buffered rope over `rope`, with nothing buffered.
  public init(_ rope: Rope = Rope()) {
    base = rope
    pending = nil
  }

  /// A buffered rope holding `string`.
  public init(_ string: some StringProtocol) {
    self.init(Rope(string))
  }

  /// Whether an edit is waiting to go into the rope.
  public var isBuffering: Bool { pending != nil }

  /// Takes the buffered edit into the rope (one edit), if there is one.
  public mutating func flush() {
    guard let edit = pending else { return }
    pending = nil
    edit.inserted.withUnsafeBufferPointer {
      base.replaceUTF8(edit.start.utf8..<(edit.start.utf8 + edit.removed.utf8), with: $0)
    }
  }

  /// The text as a rope, the buffered edit taken in first: an O(1)
  /// snapshot that later edits do not change.
  public mutating func flushed() -> Rope {
    flush()
    return base
  }

  // MARK: - Counts

  /// The text's length in UTF-8 bytes.
  public var utf8Count: Int {
    guard let edit = pending else { return base.utf8Count }
    return base.utf8Count - edit.removed.utf8 + edit.inserted.count
  }

  /// The text's length in UTF-16 code units.
  public var utf16Count: Int { count(in: .utf16) }

  /// The text's length in Unicode scalars.
  public var scalarCount: Int { count(in: .unicodeScalars) }

  /// The text's length in `unit`.
  public func count(in unit: TextUnit) -> Int {
    guard let edit = pending else { return base.count(in: unit) }
    return base.count(in: unit) - removedCount(edit, unit) + edit.insertedCount[unit]
  }

  /// Whether the text is empty.
  public var isEmpty: Bool { utf8Count == 0 }

  // MARK: - Offsets

  /// The UTF-8 offset of the position `offset` in `unit`.
  ///
  /// - Throws: as ``Rope/utf8Offset(of:in:)``, with the offsets of the
  ///   text as it is (the buffered edit made).
  /// - Complexity: O(log n), or O(k) inside the k bytes buffered.
  public func utf8Offset(of offset: Int, in unit: TextUnit) throws(RopeError) -> Int {
    guard let edit = pending else { return try base.utf8Offset(of: offset, in: unit) }
    try checkBounds(offset, unit)
    return try utf8Offset(of: offset, in: unit, edit, start: startCount(edit, unit))
  }

  /// The position at UTF-8 offset `utf8Offset`, in `unit`.
  ///
  /// - Throws: as ``Rope/offset(ofUTF8:in:)``.
  /// - Complexity: O(log n), or O(k) inside the k bytes buffered.
  public func offset(ofUTF8 utf8Offset: Int, in unit: TextUnit) throws(RopeError) -> Int {
    guard let edit = pending else { return try base.offset(ofUTF8: utf8Offset, in: unit) }
    try checkBounds(utf8Offset, .utf8)
    let (start, end) = (edit.start.utf8, edit.start.utf8 + edit.inserted.count)
    if utf8Offset <= start { return try base.offset(ofUTF8: utf8Offset, in: unit) }
    if utf8Offset <= end {
      let local = utf8Offset - start
      if local < edit.inserted.count && _UTF8Counts.isContinuation(edit.inserted[local]) {
        throw .splitsScalar(utf8Offset: utf8Offset)
      }
      let units: Int
      switch unit {
      case .utf8: units = local
      case .utf16, .unicodeScalars:
        units = edit.inserted.withUnsafeBufferPointer {
          _UTF8Counts.units(upTo: local, utf16: unit == .utf16, in: $0)
        }
      }
      return startCount(edit, unit) + units
    }
    let inRope = utf8Offset - edit.inserted.count + edit.removed.utf8
    do {
      let found = try base.offset(ofUTF8: inRope, in: unit)
      return found - removedCount(edit, unit) + edit.insertedCount[unit]
    } catch {
      if case .splitsScalar = error { throw .splitsScalar(utf8Offset: utf8Offset) }
      throw error
    }
  }

  /// Whether `offset` (of `unit`) is a position of the text, else the
  /// rope's error for it.
  func checkBounds(_ offset: Int, _ unit: TextUnit) throws(RopeError) {
    let count = count(in: unit)
    guard offset >= 0 && offset <= count else {
      throw .offsetOutOfBounds(offset: offset, unit: unit, count: count)
    }
  }

  /// `utf8Offset(of:in:)` with the buffered edit `edit` starting at
  /// `start` in `unit`.
  func utf8Offset(
    of offset: Int, in unit: TextUnit, _ edit: _PendingEdit, start: Int
  ) throws(RopeError) -> Int {
    if offset <= start { return try base.utf8Offset(of: offset, in: unit) }
    let end = start + edit.insertedCount[unit]
    if offset <= end {
      return edit.start.utf8 + (try localByte(of: offset - start, in: unit, edit, at: offset))
    }
    let removed = removedCount(edit, unit)
    let inRope = offset - edit.insertedCount[unit] + removed
    do {
      return try base.utf8Offset(of: inRope, in: unit) - edit.removed.utf8 + edit.inserted.count
    } catch {
      switch error {
      case .splitsSurrogatePair: throw .splitsSurrogatePair(utf16Offset: offset)
      case .splitsScalar: throw .splitsScalar(utf8Offset: offset)
      default: throw error
      }
    }
  }

  /// The byte of the buffered bytes at which `units` of `unit` have been
  /// passed (`offset`, the text's, names it in an error).
  func localByte(
    of units: Int, in unit: TextUnit, _ edit: _PendingEdit, at offset: Int
  ) throws(RopeError) -> Int {
    if units == edit.insertedCount[unit] { return edit.inserted.count }
    if units == 0 { return 0 }
    switch unit {
    case .utf8:
      if _UTF8Counts.isContinuation(edit.inserted[units]) {
        throw .splitsScalar(utf8Offset: offset)
      }
      return units
    case .utf16, .unicodeScalars:
      let utf16 = unit == .utf16
      var back = edit.insertedCount[unit] - units
      if back <= 8 {
        // Near the end (a backspace): walk back over the last scalars.
        var i = edit.inserted.count
        while back > 0 {
          i -= 1
          while _UTF8Counts.isContinuation(edit.inserted[i]) { i -= 1 }
          back -= utf16 && edit.inserted[i] >= 0xF0 ? 2 : 1
        }
        if back < 0 { throw .splitsSurrogatePair(utf16Offset: offset) }
        return i
      }
      let byte = edit.inserted.withUnsafeBufferPointer {
        _UTF8Counts.byteOffset(of: units, utf16: utf16, in: $0)
      }
      guard let byte else { throw .splitsSurrogatePair(utf16Offset: offset) }
      return byte
    }
  }

  /// Where the buffered edit starts, in `unit` (from the rope if no edit
  /// told it).
  func startCount(_ edit: _PendingEdit, _ unit: TextUnit) -> Int {
    let known = edit.start[unit]
    if known >= 0 { return known }
    return (try? base.offset(ofUTF8: edit.start.utf8, in: unit)) ?? 0
  }

  /// The length of the rope's text the buffered edit removes, in `unit`.
  func removedCount(_ edit: _PendingEdit, _ unit: TextUnit) -> Int {
    let known = edit.removed[unit]
    if known >= 0 { return known }
    let end = (try? base.offset(ofUTF8: edit.start.utf8 + edit.removed.utf8, in: unit)) ?? 0
    return end - startCount(edit, unit)
  }

  // MARK: - Editing

  /// Replaces the text in `range` (of `unit`) with `replacement`: merged
  /// into the buffered edit if it touches it, else that one goes into the
  /// rope and this one waits instead.
  ///
  /// - Throws: as ``Rope/replace(_:in:with:)``; the text is then unchanged.
  /// - Complexity: O(log n) at most (one or two conversions in the rope, no
  ///   change to its tree); O(1) amortized for typing on at the same place.
  public mutating func replace(
    _ range: Range<Int>, in unit: TextUnit = .utf16, with replacement: String
  ) throws(RopeError) {
    var discarded = _DiscardedText()
    try replace(range, in: unit, with: replacement, sink: &discarded)
  }

  /// Replaces the text in `range` (of `unit`) with `replacement`, and puts
  /// the UTF-8 of the text it removed in `removedUTF8` (emptied first).
  ///
  /// - Throws: as ``replace(_:in:with:)``; `removedUTF8` is then empty.
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

  /// Inserts `text` at `offset` (of `unit`).
  public mutating func insert(
    _ text: String, at offset: Int, in unit: TextUnit = .utf16
  ) throws(RopeError) {
    try replace(offset..<offset, in: unit, with: text)
  }

  /// Removes the text in `range` (of `unit`).
  public mutating func delete(_ range: Range<Int>, in unit: TextUnit = .utf16) throws(RopeError) {
    try replace(range, in: unit, with: "")
  }

  private mutating func replace<Sink: _RemovedTextSink>(
    _ range: Range<Int>, in unit: TextUnit, with replacement: String, sink: inout Sink
  ) throws(RopeError) {
    var failure: RopeError? = nil
    let done: Void? = replacement.utf8.withContiguousStorageIfAvailable { bytes in
      do throws(RopeError) {
        try replace(range, in: unit, validUTF8: bytes, sink: &sink)
      } catch {
        failure = error
      }
    }
    if done == nil {
      var copy = replacement
      copy.withUTF8 { bytes in
        do throws(RopeError) {
          try replace(range, in: unit, validUTF8: bytes, sink: &sink)
        } catch {
          failure = error
        }
      }
    }
    if let failure { throw failure }
  }

  private mutating func replace<Sink: _RemovedTextSink>(
    _ range: Range<Int>, in unit: TextUnit, validUTF8 new: UnsafeBufferPointer<UInt8>,
    sink: inout Sink
  ) throws(RopeError) {
    try checkBounds(range.lowerBound, unit)
    try checkBounds(range.upperBound, unit)
    if let edit = pending {
      if try merge(range, in: unit, new, edit, sink: &sink) { return }
      // Check both bounds before the rope moves: a refused edit changes
      // nothing, the buffered one included.
      let start = startCount(edit, unit)
      _ = try utf8Offset(of: range.lowerBound, in: unit, edit, start: start)
      _ = try utf8Offset(of: range.upperBound, in: unit, edit, start: start)
      flush()
    }
    if new.count > Self.limit {
      try base.replace(range, in: unit, validUTF8: new, removed: &sink)
      return
    }
    let lower = try base.utf8Offset(of: range.lowerBound, in: unit)
    let upper = range.isEmpty ? lower : try base.utf8Offset(of: range.upperBound, in: unit)
    if range.isEmpty && new.isEmpty { return }
    if Sink.keeps { keepRopeUTF8(lower..<upper, in: &sink) }
    var edit = _PendingEdit(start: lower, removed: upper - lower)
    edit.start[unit] = range.lowerBound
    edit.removed[unit] = range.count
    edit.append(new)
    pending = edit
  }

  /// Merges the edit of `range` (of `unit`) by `new` into the buffered
  /// `edit` if it touches it and the bytes kept stay within the limit.
  ///
  /// - Returns: whether it did (else nothing changed).
  private mutating func merge<Sink: _RemovedTextSink>(
    _ range: Range<Int>, in unit: TextUnit, _ new: UnsafeBufferPointer<UInt8>,
    _ edit: _PendingEdit, sink: inout Sink
  ) throws(RopeError) -> Bool {
    let start = startCount(edit, unit)
    let end = start + edit.insertedCount[unit]
    guard range.lowerBound <= end && range.upperBound >= start else { return false }
    // The buffered bytes it keeps, and the rope's text it removes on either
    // side of them (every bound checked before anything changes).
    let head =
      range.lowerBound < start
      ? 0 : try localByte(of: range.lowerBound - start, in: unit, edit, at: range.lowerBound)
    let tail =
      range.upperBound > end
      ? edit.inserted.count
      : try localByte(of: range.upperBound - start, in: unit, edit, at: range.upperBound)
    guard edit.inserted.count - (tail - head) + new.count <= Self.limit else { return false }
    let newStart =
      range.lowerBound < start
      ? try base.utf8Offset(of: range.lowerBound, in: unit) : edit.start.utf8
    let removedBefore = removedCount(edit, unit)
    let ropeUpper = range.upperBound - edit.insertedCount[unit] + removedBefore
    let oldEnd = edit.start.utf8 + edit.removed.utf8
    var newEnd = oldEnd
    if range.upperBound > end {
      do {
        newEnd = try base.utf8Offset(of: ropeUpper, in: unit)
      } catch {
        if case .splitsSurrogatePair = error {
          throw .splitsSurrogatePair(utf16Offset: range.upperBound)
        }
        if case .splitsScalar = error { throw .splitsScalar(utf8Offset: range.upperBound) }
        throw error
      }
    }
    if Sink.keeps {
      keepRopeUTF8(newStart..<edit.start.utf8, in: &sink)
      edit.inserted.withUnsafeBufferPointer {
        sink.keep(utf8: UnsafeBufferPointer(rebasing: $0[head..<tail]))
      }
      keepRopeUTF8(oldEnd..<newEnd, in: &sink)
    }
    var merged = edit
    if range.lowerBound < start {
      merged.start = _UnitCounts(utf8: newStart)
      merged.start[unit] = range.lowerBound
    }
    if range.lowerBound < start || range.upperBound > end {
      let newStartInUnit = min(range.lowerBound, start)
      merged.removed = _UnitCounts(utf8: newEnd - newStart)
      merged.removed[unit] =
        (range.upperBound > end ? ropeUpper : start + removedBefore) - newStartInUnit
    }
    pending = nil
    merged.replaceInserted(head..<tail, with: new)
    // (Typing taken back leaves nothing to do.)
    if !merged.inserted.isEmpty || merged.removed.utf8 > 0 { pending = merged }
    return true
  }

  /// Hands `sink` the rope's bytes in UTF-8 range `bytes`.
  private func keepRopeUTF8<Sink: _RemovedTextSink>(_ bytes: Range<Int>, in sink: inout Sink) {
    guard !bytes.isEmpty else { return }
    base.forEachChunk(inUTF8: bytes) { chunk, part in
      chunk.bytes.withUnsafeBufferPointer {
        sink.keep(utf8: UnsafeBufferPointer(rebasing: $0[part]))
      }
    }
  }
}

extension String {
  /// The text of `buffered`, the buffered edit made.
  public init(_ buffered: BufferedRope) {
    var copy = buffered
    self.init(copy.flushed())
  }
}

/// A count in each unit a buffered edit needs, UTF-8 always known and the
/// others -1 until an edit or a query in that unit told them.
struct _UnitCounts: Sendable {
  var utf8: Int
  var utf16 = -1
  var scalars = -1

  init(utf8: Int) { self.utf8 = utf8 }

  subscript(unit: TextUnit) -> Int {
    get {
      switch unit {
      case .utf8: utf8
      case .utf16: utf16
      case .unicodeScalars: scalars
      }
    }
    set {
      switch unit {
      case .utf8: utf8 = newValue
      case .utf16: utf16 = newValue
      case .unicodeScalars: scalars = newValue
      }
    }
  }
}

/// The edit a ``BufferedRope`` keeps: the rope's text from `start` on, of
/// length `removed`, replaced by `inserted` (valid UTF-8; its counts in
/// every unit kept with it).
struct _PendingEdit: Sendable {
  var start: _UnitCounts
  var removed: _UnitCounts
  var inserted: [UInt8] = []
  var insertedCount = _UnitCounts(utf8: 0)

  init(start: Int, removed: Int) {
    self.start = _UnitCounts(utf8: start)
    self.removed = _UnitCounts(utf8: removed)
    insertedCount.utf16 = 0
    insertedCount.scalars = 0
  }

  /// Appends valid UTF-8 `bytes` to the inserted text.
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    replaceInserted(inserted.count..<inserted.count, with: bytes)
  }

  /// Replaces the inserted bytes in `range` (on scalar boundaries) with
  /// valid UTF-8 `bytes`, keeping the counts.
  mutating func replaceInserted(_ range: Range<Int>, with bytes: UnsafeBufferPointer<UInt8>) {
    if !range.isEmpty {
      let out = inserted.withUnsafeBufferPointer {
        _UTF8Counts.summary(of: UnsafeBufferPointer(rebasing: $0[range]))
      }
      insertedCount.utf16 -= out.utf16
      insertedCount.scalars -= out.scalars
    }
    let added = _UTF8Counts.summary(of: bytes)
    insertedCount.utf16 += added.utf16
    insertedCount.scalars += added.scalars
    if range.lowerBound == inserted.count {
      inserted.append(contentsOf: bytes)
    } else {
      inserted.replaceSubrange(range, with: bytes)
    }
    insertedCount.utf8 = inserted.count
  }
}
