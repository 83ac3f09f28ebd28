/// Rows of four integers, packed: a row is kept as the differences of its
/// columns from the row before, each a zigzag LEB128 number, so that the
/// rows the engine appends on every keystroke — an edit's place, lengths
/// and the text length before it; a context's version and range — take a
/// few bytes each instead of 32.
///
/// Every 64th row (a block's first) is also kept whole, in an anchor that
/// says where the block's bytes start: reading row `i` decodes at most 63
/// rows, and a loop from `i` on decodes each once. Bytes go into chunks of
/// 32 KB that never move (a block's bytes lie in one chunk), so an append
/// copies nothing already written; the first chunk starts small and grows
/// by doubling, so that a short log takes little memory. A removal at the
/// front drops whole blocks and chunks.
struct _PackedRows: Sendable {
  /// One row.
  struct Row: Hashable, Sendable {
    var a: Int
    var b: Int
    var c: Int
    var d: Int

    init(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }
  }

  /// Where a block starts: its first row, whole, and the chunk and offset
  /// of the next rows' bytes.
  struct Anchor: Sendable {
    var row: Row
    var chunk: Int
    var offset: Int
  }

  static var blockShift: Int { 6 }
  static var blockSize: Int { 1 << blockShift }
  static var chunkSize: Int { 1 << 15 }
  /// The most bytes a block's rows after its first can take (four
  /// columns of at most ten bytes each).
  static var blockBytes: Int { (blockSize - 1) * 40 }

  private var anchors = _SegmentedArray<Anchor>()
  private var chunks: [ContiguousArray<UInt8>] = []
  /// Chunks dropped from the front (an anchor's chunk counts from the
  /// first ever).
  private var droppedChunks = 0
  /// Rows dropped from the front of the first block.
  private var head = 0
  /// How many rows there are.
  private(set) var count = 0
  /// The last row appended: the next one is kept as its differences from it.
  private var last = Row(0, 0, 0, 0)

  init() {}

  var isEmpty: Bool { count == 0 }

  /// The bytes the rows take (their chunks' capacity and the anchors).
  var capacity: Int {
    chunks.reduce(0) { $0 + $1.capacity }
      + anchors.capacity * MemoryLayout<Anchor>.stride
  }

  /// Appends `row`.
  mutating func append(_ row: Row) {
    let slot = head &+ count
    if slot & (Self.blockSize &- 1) == 0 {
      startBlock(with: row)
    } else {
      let n = chunks.count &- 1
      if chunks[n].capacity &- chunks[n].count < 40 {
        // Only the first chunk, while it is small, can be short of room.
        chunks[n].reserveCapacity(Swift.max(2 &* chunks[n].capacity, 64))
      }
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
        var k = Self.put(row.a &- last.a, buffer, 0)
        k = Self.put(row.b &- last.b, buffer, k)
        k = Self.put(row.c &- last.c, buffer, k)
        k = Self.put(row.d &- last.d, buffer, k)
        chunks[n].append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<k]))
      }
    }
    last = row
    count &+= 1
  }

  /// Starts a block with `row`, in the last chunk if it has room for the
  /// whole block (or can still grow), else in a new one.
  private mutating func startBlock(with row: Row) {
    if chunks.isEmpty {
      var chunk = ContiguousArray<UInt8>()
      chunk.reserveCapacity(64)
      chunks.append(chunk)
    } else {
      let n = chunks.count - 1
      let growing = chunks.count == 1 && chunks[0].capacity < Self.chunkSize
      if !growing, chunks[n].capacity - chunks[n].count < Self.blockBytes {
        var chunk = ContiguousArray<UInt8>()
        chunk.reserveCapacity(Self.chunkSize)
        chunks.append(chunk)
      }
    }
    let n = chunks.count - 1
    anchors.append(Anchor(row: row, chunk: droppedChunks + n, offset: chunks[n].count))
  }

  /// Writes `value` zigzag LEB128 at `index`; returns the index after it.
  @inline(__always)
  private static func put(_ value: Int, _ buffer: UnsafeMutableBufferPointer<UInt8>, _ index: Int)
    -> Int
  {
    var v = UInt(bitPattern: (value &<< 1) ^ (value &>> 63))
    var i = index
    while v >= 0x80 {
      buffer[i] = UInt8(truncatingIfNeeded: v) | 0x80
      v &>>= 7
      i &+= 1
    }
    buffer[i] = UInt8(truncatingIfNeeded: v)
    return i &+ 1
  }

  /// Reads a zigzag LEB128 number at `index`, moving it past.
  @inline(__always)
  private static func get(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Int {
    var v: UInt = 0
    var shift: UInt = 0
    while true {
      let byte = bytes[index]
      index &+= 1
      v |= UInt(byte & 0x7F) &<< shift
      if byte < 0x80 { break }
      shift &+= 7
    }
    return Int(bitPattern: v &>> 1) ^ -Int(bitPattern: v & 1)
  }

  /// The row at `position`.
  ///
  /// - Complexity: O(1): at most 63 rows decoded.
  subscript(position: Int) -> Row {
    precondition(position >= 0 && position < count, "index out of range")
    var found = Row(0, 0, 0, 0)
    forEach(from: position) { row, _ in
      found = row
      return false
    }
    return found
  }

  /// The last row.
  var lastRow: Row? { count > 0 ? last : nil }

  /// Calls `body` with each row from `start` on, in order, and its
  /// position, until `body` returns false.
  ///
  /// - Complexity: O(k + 63) for the k rows read.
  @inline(__always)
  func forEach(from start: Int, _ body: (Row, Int) throws -> Bool) rethrows {
    guard start < count else { return }
    var slot = head &+ Swift.max(start, 0)
    let end = head &+ count
    var position = Swift.max(start, 0)
    while slot < end {
      let block = slot &>> Self.blockShift
      let anchor = anchors[block]
      let blockEnd = Swift.min((block &+ 1) &<< Self.blockShift, end)
      let first = block &<< Self.blockShift
      let goOn = try chunks[anchor.chunk &- droppedChunks].withUnsafeBufferPointer {
        bytes -> Bool in
        var row = anchor.row
        var index = anchor.offset
        var s = first
        while s < blockEnd {
          if s > first {
            row.a &+= Self.get(bytes, &index)
            row.b &+= Self.get(bytes, &index)
            row.c &+= Self.get(bytes, &index)
            row.d &+= Self.get(bytes, &index)
          }
          if s >= slot {
            guard try body(row, position) else { return false }
            position &+= 1
          }
          s &+= 1
        }
        return true
      }
      if !goOn { return }
      slot = blockEnd
    }
  }

  /// Removes the first `k` rows (at most `count`).
  mutating func removeFirst(_ k: Int) {
    precondition(k >= 0 && k <= count, "removing more rows than there are")
    if k == count {
      removeAll(keepingCapacity: true)
      return
    }
    head &+= k
    count &-= k
    let whole = head &>> Self.blockShift
    guard whole > 0 else { return }
    anchors.removeFirst(whole)
    head &= Self.blockSize &- 1
    let firstChunk = anchors[0].chunk
    if firstChunk > droppedChunks {
      chunks.removeFirst(firstChunk - droppedChunks)
      droppedChunks = firstChunk
    }
  }

  /// Removes every row; with `keepingCapacity`, keeps one chunk's storage
  /// for the next appends.
  mutating func removeAll(keepingCapacity: Bool = false) {
    if keepingCapacity, !chunks.isEmpty {
      chunks.removeLast(chunks.count - 1)
      chunks[0].removeAll(keepingCapacity: true)
    } else {
      chunks = []
    }
    anchors.removeAll(keepingCapacity: keepingCapacity)
    droppedChunks = 0
    head = 0
    count = 0
    last = Row(0, 0, 0, 0)
  }
}
