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
  /// The edit waiting (if `pending.isActive`), kept in place: its bytes are
  /// never copied while typing goes on.
  var pending = _PendingEdit()

  /// The most bytes the buffered edit keeps; an edit that would make it
  /// longer takes it into the rope first.
  public static let limit = 256

  /// A buffered rope over `rope`, with nothing buffered.
  public init(_ rope: Rope = Rope()) {
    base = rope
  }

  /// A buffered rope holding `string`.
  public init(_ string: some StringProtocol) {
    self.init(Rope(string))
  }

  /// Whether an edit is waiting to go into the rope.
  public var isBuffering: Bool { pending.isActive }

  /// Takes the buffered edit into the rope (one edit), if there is one.
  public mutating func flush() {
    guard pending.isActive else { return }
    if pending.start.utf8 >= 0 && pending.removed.utf8 >= 0 {
      let range = pending.start.utf8..<(pending.start.utf8 + pending.removed.utf8)
      pending.inserted.withUTF8 { base.replaceUTF8(range, with: $0) }
    } else {
      // Known in the unit of its edits only: the rope finds the place in
      // the one descent of its own edit. (The bounds are valid.)
      let unit = pending.commonUnit
      let range = pending.start[unit]..<(pending.start[unit] + pending.removed[unit])
      var discarded = _DiscardedText()
      pending.inserted.withUTF8 {
        try? base.replace(range, in: unit, validUTF8: $0, removed: &discarded)
      }
    }
    pending.clear()
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
    guard pending.isActive else { return base.utf8Count }
    return base.utf8Count - removedUTF8() + pending.inserted.count
  }

  /// The text's length in UTF-16 code units.
  public var utf16Count: Int { count(in: .utf16) }

  /// The text's length in Unicode scalars.
  public var scalarCount: Int { count(in: .unicodeScalars) }

  /// The text's length in `unit`.
  public func count(in unit: TextUnit) -> Int {
    guard pending.isActive else { return base.count(in: unit) }
    return base.count(in: unit) - removedCount(unit) + pending.insertedCount[unit]
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
    guard pending.isActive else { return try base.utf8Offset(of: offset, in: unit) }
    try checkBounds(offset, unit, count(in: unit))
    return try bufferedUTF8Offset(of: offset, in: unit, start: startCount(unit))
  }

  /// The position at UTF-8 offset `utf8Offset`, in `unit`.
  ///
  /// - Throws: as ``Rope/offset(ofUTF8:in:)``.
  /// - Complexity: O(log n), or O(k) inside the k bytes buffered.
  public func offset(ofUTF8 utf8Offset: Int, in unit: TextUnit) throws(RopeError) -> Int {
    guard pending.isActive else { return try base.offset(ofUTF8: utf8Offset, in: unit) }
    try checkBounds(utf8Offset, .utf8, self.utf8Count)
    let start = startUTF8()
    let end = start + pending.inserted.count
    if utf8Offset <= start { return try base.offset(ofUTF8: utf8Offset, in: unit) }
    if utf8Offset <= end {
      let local = utf8Offset - start
      if local < pending.inserted.count && _UTF8Counts.isContinuation(pending.inserted[local]) {
        throw .splitsScalar(utf8Offset: utf8Offset)
      }
      let units: Int
      switch unit {
      case .utf8: units = local
      case .utf16, .unicodeScalars:
        units = pending.inserted.withUTF8 {
          _UTF8Counts.units(upTo: local, utf16: unit == .utf16, in: $0)
        }
      }
      return startCount(unit) + units
    }
    let inRope = utf8Offset - pending.inserted.count + removedUTF8()
    do {
      let found = try base.offset(ofUTF8: inRope, in: unit)
      return found - removedCount(unit) + pending.insertedCount[unit]
    } catch {
      if case .splitsScalar = error { throw .splitsScalar(utf8Offset: utf8Offset) }
      throw error
    }
  }

  /// Whether `offset` (of `unit`) is within `0...count`, else the rope's
  /// error for it.
  @inline(__always)
  func checkBounds(_ offset: Int, _ unit: TextUnit, _ count: Int) throws(RopeError) {
    guard offset >= 0 && offset <= count else {
      throw .offsetOutOfBounds(offset: offset, unit: unit, count: count)
    }
  }

  /// `utf8Offset(of:in:)` with the buffered edit starting at `start` in
  /// `unit`.
  func bufferedUTF8Offset(of offset: Int, in unit: TextUnit, start: Int) throws(RopeError) -> Int {
    if offset <= start { return try base.utf8Offset(of: offset, in: unit) }
    let inserted = pending.insertedCount[unit]
    if offset <= start + inserted {
      return startUTF8() + (try localByte(of: offset - start, in: unit, at: offset))
    }
    let inRope = offset - inserted + removedCount(unit)
    do {
      return try base.utf8Offset(of: inRope, in: unit) - removedUTF8() + pending.inserted.count
    } catch {
      throw Self.moved(error, to: offset)
    }
  }

  /// The rope's error `error` for an offset past the buffered edit, named
  /// by the text's offset `offset` instead.
  static func moved(_ error: RopeError, to offset: Int) -> RopeError {
    switch error {
    case .splitsSurrogatePair: .splitsSurrogatePair(utf16Offset: offset)
    case .splitsScalar: .splitsScalar(utf8Offset: offset)
    default: error
    }
  }

  /// The byte of the buffered bytes at which `units` of `unit` have been
  /// passed (`offset`, the text's, names it in an error).
  func localByte(of units: Int, in unit: TextUnit, at offset: Int) throws(RopeError) -> Int {
    let total = pending.insertedCount[unit]
    if units == total { return pending.inserted.count }
    if units == 0 { return 0 }
    switch unit {
    case .utf8:
      if _UTF8Counts.isContinuation(pending.inserted[units]) {
        throw .splitsScalar(utf8Offset: offset)
      }
      return units
    case .utf16, .unicodeScalars:
      // Walk from the nearest known place: the end, or where the last edit
      // left off (typing and corrections stay near it), else scan.
      let utf16 = unit == .utf16
      var from = (units: total, byte: pending.inserted.count)
      if pending.cursorUnit == unit && abs(pending.cursor.units - units) < abs(total - units) {
        from = pending.cursor
      }
      if abs(from.units - units) <= 32 {
        guard let byte = pending.walk(from: from, to: units, utf16: utf16) else {
          throw .splitsSurrogatePair(utf16Offset: offset)
        }
        return byte
      }
      let byte = pending.inserted.withUTF8 {
        _UTF8Counts.byteOffset(of: units, utf16: utf16, in: $0)
      }
      guard let byte else { throw .splitsSurrogatePair(utf16Offset: offset) }
      return byte
    }
  }

  /// Where the buffered edit starts, in `unit` (from the rope if no edit
  /// told it).
  func startCount(_ unit: TextUnit) -> Int {
    let known = pending.start[unit]
    if known >= 0 { return known }
    return (try? base.offset(ofUTF8: startUTF8(), in: unit)) ?? 0
  }

  /// Where the buffered edit starts in the rope, in UTF-8 (from the rope
  /// if its edits were in another unit: the bounds were valid).
  func startUTF8() -> Int {
    if pending.start.utf8 >= 0 { return pending.start.utf8 }
    let unit = pending.commonUnit
    return (try? base.utf8Offset(of: pending.start[unit], in: unit)) ?? 0
  }

  /// The length of the rope's text the buffered edit removes, in UTF-8.
  func removedUTF8() -> Int {
    if pending.removed.utf8 >= 0 { return pending.removed.utf8 }
    let unit = pending.commonUnit
    let end = pending.start[unit] + pending.removed[unit]
    return ((try? base.utf8Offset(of: end, in: unit)) ?? 0) - startUTF8()
  }

  /// The length of the rope's text the buffered edit removes, in `unit`.
  func removedCount(_ unit: TextUnit) -> Int {
    let known = pending.removed[unit]
    if known >= 0 { return known }
    let end = startUTF8() + removedUTF8()
    return ((try? base.offset(ofUTF8: end, in: unit)) ?? 0) - startCount(unit)
  }

  // MARK: - Editing

  /// Replaces the text in `range` (of `unit`) with `replacement`: merged
  /// into the buffered edit if it touches it, else that one goes into the
  /// rope and this one waits instead.
  ///
  /// - Throws: as the rope's `replace(_:in:with:)`; the text is then unchanged.
  /// - Complexity: O(log n) at most (one or two conversions in the rope, no
  ///   change to its tree); O(1) amortized for typing on at the same place.
  public mutating func replace(
    _ range: Range<Int>, in unit: TextUnit = .utf16, with replacement: String
  ) throws(RopeError) {
    if typeOn(range, in: unit, with: replacement) { return }
    var discarded = _DiscardedText()
    try replace(range, in: unit, with: replacement, sink: &discarded)
  }

  /// The keystroke's own path: `replacement` typed right where the
  /// buffered text ends, or a backspace over its last few units. Nothing
  /// to check there (the end of the buffered text is a scalar boundary),
  /// no conversion, no rope.
  ///
  /// - Returns: whether it made the edit.
  @inline(__always)
  mutating func typeOn(
    _ range: Range<Int>, in unit: TextUnit, with replacement: String
  ) -> Bool {
    guard pending.isActive, unit != .utf8 else { return false }
    let start = pending.start[unit]
    guard start >= 0 else { return false }
    let end = start + pending.insertedCount[unit]
    guard range.upperBound == end else { return false }
    if range.isEmpty {
      var text = replacement
      return text.withUTF8 { bytes in
        guard pending.inserted.count + bytes.count <= Self.limit, !bytes.isEmpty else {
          return false
        }
        let counts = _PendingEdit.counts(bytes)
        pending.inserted.append(bytes)
        pending.insertedCount.utf8 = pending.inserted.count
        pending.insertedCount.utf16 += counts.utf16
        pending.insertedCount.scalars += counts.scalars
        let units = unit == .utf16 ? counts.utf16 : counts.scalars
        pending.cursor = (end - start + units, pending.inserted.count)
        pending.cursorUnit = unit
        return true
      }
    }
    guard replacement.isEmpty, range.lowerBound >= start, range.count <= 8 else { return false }
    guard
      let byte = pending.walk(
        from: (end - start, pending.inserted.count), to: range.lowerBound - start,
        utf16: unit == .utf16)
    else { return false }
    let gone = pending.inserted.count - byte
    let out = pending.inserted.withUTF8 {
      _PendingEdit.counts(UnsafeBufferPointer(rebasing: $0[byte...]))
    }
    pending.inserted.removeLast(gone)
    pending.insertedCount.utf8 = pending.inserted.count
    pending.insertedCount.utf16 -= out.utf16
    pending.insertedCount.scalars -= out.scalars
    pending.cursor = (range.lowerBound - start, byte)
    pending.cursorUnit = unit
    if pending.isEmpty { pending.clear() }
    return true
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
    try replacement._withUTF8 { (bytes) throws(RopeError) in
      try replace(range, in: unit, validUTF8: bytes, sink: &sink)
    }
  }

  private mutating func replace<Sink: _RemovedTextSink>(
    _ range: Range<Int>, in unit: TextUnit, validUTF8 new: UnsafeBufferPointer<UInt8>,
    sink: inout Sink
  ) throws(RopeError) {
    let count = count(in: unit)
    try checkBounds(range.lowerBound, unit, count)
    try checkBounds(range.upperBound, unit, count)
    if pending.isActive {
      if try merge(range, in: unit, new, sink: &sink) { return }
      // (The text is the same after the flush: a bound refused below
      // leaves it unchanged.)
      flush()
    }
    if new.count > Self.limit {
      try base.replace(range, in: unit, validUTF8: new, removed: &sink)
      return
    }
    // Every scalar offset in bounds is valid: an edit in scalars needs no
    // UTF-8 yet (the flush's own descent finds the place), unless the
    // text it removes is asked for.
    var (lower, upper) = (-1, -1)
    if unit != .unicodeScalars || Sink.keeps {
      lower = try base.utf8Offset(of: range.lowerBound, in: unit)
      upper = range.isEmpty ? lower : try base.utf8Offset(of: range.upperBound, in: unit)
    }
    if range.isEmpty && new.isEmpty { return }
    if Sink.keeps { keepRopeUTF8(lower..<upper, in: &sink) }
    pending.open(start: lower, removed: lower < 0 ? -1 : upper - lower)
    pending.start[unit] = range.lowerBound
    pending.removed[unit] = range.count
    pending.replaceInserted(0..<0, with: new)
    pending.leaveCursor(after: new, at: 0, units: 0, in: unit)
  }

  /// Merges the edit of `range` (of `unit`) by `new` into the buffered
  /// edit if it touches it and the bytes kept stay within the limit.
  ///
  /// - Returns: whether it did (else nothing changed).
  private mutating func merge<Sink: _RemovedTextSink>(
    _ range: Range<Int>, in unit: TextUnit, _ new: UnsafeBufferPointer<UInt8>,
    sink: inout Sink
  ) throws(RopeError) -> Bool {
    let start = startCount(unit)
    let end = start + pending.insertedCount[unit]
    guard range.lowerBound <= end && range.upperBound >= start else { return false }
    // The buffered bytes it keeps, and the rope's text it removes on either
    // side of them (every bound checked before anything changes).
    let head =
      range.lowerBound < start
      ? 0 : try localByte(of: range.lowerBound - start, in: unit, at: range.lowerBound)
    // (In UTF-8 only where a bound needs checking, or the removed text is
    // asked for: a scalar offset in bounds is valid.)
    let inUTF8 = unit != .unicodeScalars || Sink.keeps
    var newStart =
      range.lowerBound < start && inUTF8
      ? try base.utf8Offset(of: range.lowerBound, in: unit) : -1
    let tail =
      range.upperBound > end
      ? pending.inserted.count
      : try localByte(of: range.upperBound - start, in: unit, at: range.upperBound)
    guard pending.inserted.count - (tail - head) + new.count <= Self.limit else { return false }
    if range.lowerBound >= start && range.upperBound <= end {
      // Inside the buffered bytes (typing on, a backspace over them).
      if Sink.keeps { keepBufferedUTF8(head..<tail, in: &sink) }
      pending.replaceInserted(head..<tail, with: new)
      pending.leaveCursor(after: new, at: head, units: range.lowerBound - start, in: unit)
      if pending.isEmpty { pending.clear() }
      return true
    }
    let removedBefore = removedCount(unit)
    let ropeUpper = range.upperBound - pending.insertedCount[unit] + removedBefore
    var newEnd = -1
    if range.upperBound > end && inUTF8 {
      do {
        newEnd = try base.utf8Offset(of: ropeUpper, in: unit)
      } catch {
        throw Self.moved(error, to: range.upperBound)
      }
    }
    let oldStart = inUTF8 ? startUTF8() : -1
    let oldEnd = inUTF8 ? oldStart + removedUTF8() : -1
    if range.lowerBound >= start { newStart = oldStart }
    if range.upperBound <= end { newEnd = oldEnd }
    if Sink.keeps {
      keepRopeUTF8(newStart..<oldStart, in: &sink)
      keepBufferedUTF8(head..<tail, in: &sink)
      keepRopeUTF8(oldEnd..<newEnd, in: &sink)
    }
    let newStartInUnit = min(range.lowerBound, start)
    let newEndInUnit = range.upperBound > end ? ropeUpper : start + removedBefore
    pending.start = _UnitCounts(utf8: newStart)
    pending.start[unit] = newStartInUnit
    pending.removed = _UnitCounts(utf8: inUTF8 ? newEnd - newStart : -1)
    pending.removed[unit] = newEndInUnit - newStartInUnit
    pending.replaceInserted(head..<tail, with: new)
    pending.leaveCursor(after: new, at: head, units: max(0, range.lowerBound - start), in: unit)
    if pending.isEmpty { pending.clear() }
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

  /// Hands `sink` the buffered bytes in `range`.
  private func keepBufferedUTF8<Sink: _RemovedTextSink>(_ range: Range<Int>, in sink: inout Sink) {
    guard !range.isEmpty else { return }
    pending.inserted.withUTF8 {
      sink.keep(utf8: UnsafeBufferPointer(rebasing: $0[range]))
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

/// The edit a ``BufferedRope`` keeps, if `isActive`: the rope's text from
/// `start` on, of length `removed`, replaced by `inserted` (valid UTF-8;
/// its counts in every unit kept with it). Its bytes' room is kept from
/// one edit to the next.
struct _PendingEdit: Sendable {
  var isActive = false
  var start = _UnitCounts(utf8: 0)
  var removed = _UnitCounts(utf8: 0)
  var inserted = UTF8Room()
  var insertedCount = _UnitCounts(utf8: 0)

  /// A place in `inserted` known in `cursorUnit` (where the last edit
  /// left off), if that is UTF-16 or scalars.
  var cursor = (units: 0, byte: 0)
  var cursorUnit = TextUnit.utf8

  /// Whether it changes nothing (typing taken back). (What it removes is
  /// known in `commonUnit` at least.)
  var isEmpty: Bool { inserted.count == 0 && removed[commonUnit] == 0 }

  /// A unit its start and its removed length are both known in (UTF-8
  /// first).
  var commonUnit: TextUnit {
    if start.utf8 >= 0 && removed.utf8 >= 0 { return .utf8 }
    if start.utf16 >= 0 && removed.utf16 >= 0 { return .utf16 }
    return .unicodeScalars
  }

  /// Notes where an edit that put `new` at byte `head` (`units` of `unit`
  /// into the inserted text) left off.
  mutating func leaveCursor(
    after new: UnsafeBufferPointer<UInt8>, at head: Int, units: Int, in unit: TextUnit
  ) {
    guard unit != .utf8 else {
      cursorUnit = .utf8
      return
    }
    let counts = Self.counts(new)
    cursor = (units + (unit == .utf16 ? counts.utf16 : counts.scalars), head + new.count)
    cursorUnit = unit
  }

  /// The byte at which `target` units (UTF-16 if `utf16`, else scalars)
  /// of the inserted text have been passed, walking from the known place
  /// `from`; `nil` inside a surrogate pair.
  func walk(from: (units: Int, byte: Int), to target: Int, utf16: Bool) -> Int? {
    var (units, i) = from
    while units < target {
      let lead = inserted[i]
      let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
      units += utf16 && length == 4 ? 2 : 1
      i += length
    }
    while units > target {
      i -= 1
      while _UTF8Counts.isContinuation(inserted[i]) { i -= 1 }
      units -= utf16 && inserted[i] >= 0xF0 ? 2 : 1
    }
    return units == target ? i : nil
  }

  /// Starts an edit removing `removed` bytes at `start`, inserting none
  /// yet.
  mutating func open(start: Int, removed: Int) {
    isActive = true
    self.start = _UnitCounts(utf8: start)
    self.removed = _UnitCounts(utf8: removed)
    inserted.removeAll()
    insertedCount = _UnitCounts(utf8: 0)
    insertedCount.utf16 = 0
    insertedCount.scalars = 0
    cursorUnit = .utf8
  }

  /// Ends it (it went into the rope, or was taken back).
  mutating func clear() {
    isActive = false
    start = _UnitCounts(utf8: 0)
    removed = _UnitCounts(utf8: 0)
    inserted.removeAll()
    insertedCount = _UnitCounts(utf8: 0)
    cursorUnit = .utf8
  }

  /// Replaces the inserted bytes in `range` (on scalar boundaries) with
  /// valid UTF-8 `bytes`, keeping the counts.
  mutating func replaceInserted(_ range: Range<Int>, with bytes: UnsafeBufferPointer<UInt8>) {
    // (The cursor is the caller's to leave again.)
    cursorUnit = .utf8
    if !range.isEmpty {
      let out = inserted.withUTF8 {
        Self.counts(UnsafeBufferPointer(rebasing: $0[range]))
      }
      insertedCount.utf16 -= out.utf16
      insertedCount.scalars -= out.scalars
    }
    if !bytes.isEmpty {
      let added = Self.counts(bytes)
      insertedCount.utf16 += added.utf16
      insertedCount.scalars += added.scalars
    }
    if range.lowerBound == inserted.count {
      inserted.append(bytes)
    } else {
      inserted.replaceSubrange(range, with: bytes)
    }
    insertedCount.utf8 = inserted.count
  }

  /// The UTF-16 code units and scalars of valid UTF-8 `bytes` (a
  /// keystroke's few, counted one by one).
  @inline(__always)
  static func counts(_ bytes: UnsafeBufferPointer<UInt8>) -> (utf16: Int, scalars: Int) {
    if bytes.count > 16 {
      let summary = _UTF8Counts.summary(of: bytes)
      return (summary.utf16, summary.scalars)
    }
    var scalars = 0
    var fourByte = 0
    for byte in bytes {
      if !_UTF8Counts.isContinuation(byte) { scalars += 1 }
      if byte >= 0xF0 { fourByte += 1 }
    }
    return (scalars + fourByte, scalars)
  }
}
