/// A change log's rows, one 64-bit word each: an edit's start (as the
/// difference from the edit before's, zigzag-encoded, 31 bits), its
/// removed count (12 bits) and its inserted length with the log's flag
/// (21 bits). The text length before each edit is not kept: it is the
/// length before the block's first, kept in the block's anchor, plus what
/// the edits since added. A row that does not fit (a start over a billion
/// units from the last, a removal of 4,095 units or more, an insertion of
/// a million) is kept whole beside the words, and its word says so.
///
/// Eight bytes a row, where ``_PackedRows`` takes five to nine: the words
/// decode with a load and three shifts, so that a loop through thousands
/// of records — the transformation of an operation on an old basis —
/// reads them almost as fast as an array of them.
///
/// The same interface as ``_PackedRows``: a row's `a` is the start, `b`
/// the removed count, `c` the inserted length doubled plus the flag, `d`
/// the text length before it.
struct _EditRows: Sendable {
  typealias Row = _PackedRows.Row

  /// The rows before a block: where the last edit before it started, and
  /// the text length before the block's first edit.
  struct Anchor: Sendable {
    var lowerBefore: Int
    var lengthBefore: Int
  }

  /// A row kept whole, by its place among every row ever appended.
  struct Wide: Sendable {
    var serial: Int
    var row: Row
  }

  static var blockShift: Int { 6 }
  static var blockSize: Int { 1 << blockShift }
  static var escape: UInt64 { 0xFFF &<< 21 }

  private var words = _SegmentedArray<UInt64>()
  private var anchors = _SegmentedArray<Anchor>()
  private var wide = _SegmentedArray<Wide>()
  /// Rows dropped from the front of the first block.
  private var head = 0
  /// Rows ever dropped from the front (serials count from the first ever).
  private var dropped = 0
  /// How many rows there are.
  private(set) var count = 0
  /// The last row appended.
  private var last = Row(0, 0, 0, 0)

  init() {}

  var isEmpty: Bool { count == 0 }

  /// The bytes the rows take.
  var capacity: Int {
    words.capacity * 8 + anchors.capacity * MemoryLayout<Anchor>.stride
      + wide.capacity * MemoryLayout<Wide>.stride
  }

  /// The last row.
  var lastRow: Row? { count > 0 ? last : nil }

  /// Appends `row`.
  mutating func append(_ row: Row) {
    let slot = head &+ count
    let previousLower = count > 0 ? last.a : 0
    if slot & (Self.blockSize &- 1) == 0 {
      anchors.append(Anchor(lowerBefore: previousLower, lengthBefore: row.d))
    }
    let delta = row.a &- previousLower
    let zigzag = UInt64(bitPattern: Int64((delta &<< 1) ^ (delta &>> 63)))
    if zigzag < 1 &<< 31, row.b >= 0, row.b < 0xFFF, row.c >= 0, row.c < 1 &<< 21 {
      words.append(zigzag &<< 33 | UInt64(row.b) &<< 21 | UInt64(row.c))
    } else {
      words.append(Self.escape)
      wide.append(Wide(serial: dropped &+ count, row: row))
    }
    last = row
    count &+= 1
  }

  /// The index in ``wide`` of the first row kept whole at or after
  /// position `i`.
  private func firstWide(atOrAfter i: Int) -> Int {
    let serial = dropped &+ i
    return wide.partitioningIndex { $0.serial >= serial }
  }

  /// The row at `position`.
  ///
  /// - Complexity: O(1): at most 63 words decoded.
  subscript(position: Int) -> Row {
    precondition(position >= 0 && position < count, "index out of range")
    var found = Row(0, 0, 0, 0)
    forEach(from: position) { row, _ in
      found = row
      return false
    }
    return found
  }

  /// Calls `body` with each row from `start` on, in order, and its
  /// position, until `body` returns false.
  ///
  /// - Complexity: O(k + 63) for the k rows read.
  @inline(__always)
  func forEach(from start: Int, _ body: (Row, Int) throws -> Bool) rethrows {
    guard start < count else { return }
    let startSlot = head &+ Swift.max(start, 0)
    // From the block's anchor: the rows before `start` in its block are
    // decoded and passed over.
    let blockStart = startSlot & ~(Self.blockSize &- 1)
    let anchor = anchors[startSlot &>> Self.blockShift]
    var lower = anchor.lowerBefore
    var length = anchor.lengthBefore
    // (`words` holds the first block whole: word i is slot i, and slot
    // `head` is position 0.)
    var w = firstWide(atOrAfter: blockStart &- head)
    var slot = blockStart
    try words.forEachRun(from: blockStart) { run, _ in
      for word in run {
        var row: Row
        if word & Self.escape == Self.escape {
          row = wide[w].row
          w &+= 1
        } else {
          let z = word &>> 33
          let delta = Int(bitPattern: UInt(z &>> 1)) ^ -Int(bitPattern: UInt(z & 1))
          row = Row(
            lower &+ delta, Int(truncatingIfNeeded: (word &>> 21) & 0xFFF),
            Int(truncatingIfNeeded: word & 0x1F_FFFF), 0)
        }
        row.d = length
        lower = row.a
        length = length &+ (row.c &>> 1) &- row.b
        if slot >= startSlot {
          guard try body(row, slot &- head) else { return false }
        }
        slot &+= 1
      }
      return true
    }
  }

  /// Removes the first `k` rows (at most `count`).
  mutating func removeFirst(_ k: Int) {
    precondition(k >= 0 && k <= count, "removing more rows than there are")
    if k == count {
      dropped &+= k
      removeAllKeepingDropped()
      return
    }
    // The rows of whole blocks go; the first block keeps its rows before
    // `head` (its anchor is from its first row).
    let newHead = head &+ k
    let whole = newHead &>> Self.blockShift
    if whole > 0 {
      anchors.removeFirst(whole)
      words.removeFirst(whole &<< Self.blockShift)
    }
    head = newHead & (Self.blockSize &- 1)
    // (The words of the first block before `head` stay, so that the block
    // decodes from its anchor.)
    dropped &+= k
    count &-= k
    let w = firstWide(atOrAfter: -head)
    if w > 0 { wide.removeFirst(w) }
  }

  /// Removes every row.
  mutating func removeAll(keepingCapacity: Bool = false) {
    dropped &+= count
    removeAllKeepingDropped(keepingCapacity: keepingCapacity)
  }

  private mutating func removeAllKeepingDropped(keepingCapacity: Bool = true) {
    words.removeAll(keepingCapacity: keepingCapacity)
    anchors.removeAll(keepingCapacity: keepingCapacity)
    wide.removeAll(keepingCapacity: keepingCapacity)
    head = 0
    count = 0
    last = Row(0, 0, 0, 0)
  }
}
