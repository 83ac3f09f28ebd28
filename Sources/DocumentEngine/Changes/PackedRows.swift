/// Rows of four integers, packed: a row is kept as the differences of its
/// columns from the row before, zigzag-encoded, in 1, 2, 4 or 8 bytes each,
/// after a byte that gives the four sizes (as stream VByte does), so that
/// the rows the engine appends on every keystroke — an edit's place,
/// lengths and the text length before it; a context's version and range —
/// take five to nine bytes instead of 32, and a row decodes without a
/// branch on its bytes (a loop through thousands of records, the
/// transformation of an operation on an old basis, reads 2–3 ns a row).
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
  /// The most bytes a block's rows after its first can take (a size byte
  /// and four columns of at most eight bytes each), and the eight bytes a
  /// read or write of the last column may touch past them.
  static var blockBytes: Int { (blockSize - 1) * 33 + 8 }

  /// A chunk of bytes at a fixed address: rows are decoded from its
  /// pointer, and appended by writing past its count. Shared between
  /// copies of the rows until one of them appends (then it is copied).
  final class Chunk: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
      base = .allocate(capacity: capacity)
      self.capacity = capacity
    }

    /// A copy of the bytes written so far, with room for `capacity`.
    func copy(capacity: Int) -> Chunk {
      let chunk = Chunk(capacity: Swift.max(capacity, count))
      chunk.base.update(from: base, count: count)
      chunk.count = count
      return chunk
    }

    deinit { base.deallocate() }
  }

  private var anchors = _SegmentedArray<Anchor>()
  private var chunks: [Chunk] = []
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
      if !isKnownUniquelyReferenced(&chunks[n]) {
        // Shared with a copy of the rows: this value's own from now on.
        chunks[n] = chunks[n].copy(capacity: chunks[n].capacity)
      }
      let chunk = chunks[n]
      if chunk.capacity &- chunk.count < 41 {
        // Only the first chunk, while it is small, can be short of room.
        chunks[n] = chunk.copy(capacity: Swift.max(2 &* chunk.capacity, 64))
      }
      let target = chunks[n]
      let bytes = target.base
      let start = target.count
      var k = start &+ 1
      var sizes: UInt8 = 0
      sizes |= Self.put(row.a &- last.a, bytes, &k)
      sizes |= Self.put(row.b &- last.b, bytes, &k) &<< 2
      sizes |= Self.put(row.c &- last.c, bytes, &k) &<< 4
      sizes |= Self.put(row.d &- last.d, bytes, &k) &<< 6
      bytes[start] = sizes
      target.count = k
    }
    last = row
    count &+= 1
  }

  /// Starts a block with `row`, in the last chunk if it has room for the
  /// whole block (or can still grow), else in a new one.
  private mutating func startBlock(with row: Row) {
    if chunks.isEmpty {
      chunks.append(Chunk(capacity: 64))
    } else {
      let n = chunks.count - 1
      let growing = chunks.count == 1 && chunks[0].capacity < Self.chunkSize
      if !growing, chunks[n].capacity - chunks[n].count < Self.blockBytes {
        chunks.append(Chunk(capacity: Self.chunkSize))
      }
    }
    let n = chunks.count - 1
    anchors.append(Anchor(row: row, chunk: droppedChunks + n, offset: chunks[n].count))
  }

  /// Writes `value` zigzag-encoded at `index` in as few of 1, 2, 4 or 8
  /// bytes as hold it (eight bytes are written: the room is there), moves
  /// `index` past them, and returns their size's code (0–3).
  @inline(__always)
  private static func put(
    _ value: Int, _ bytes: UnsafeMutablePointer<UInt8>, _ index: inout Int
  ) -> UInt8 {
    let u = UInt64(bitPattern: Int64((value &<< 1) ^ (value &>> 63)))
    let code: UInt8 = u < 0x100 ? 0 : u < 0x1_0000 ? 1 : u < 0x1_0000_0000 ? 2 : 3
    UnsafeMutableRawPointer(bytes + index).storeBytes(of: u.littleEndian, as: UInt64.self)
    index &+= 1 &<< Int(code)
    return code
  }

  /// Reads a value of size code `code` at `index`, moving it past.
  @inline(__always)
  private static func get(_ bytes: UnsafePointer<UInt8>, _ index: inout Int, _ code: UInt8) -> Int {
    let raw = UInt64(
      littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
    let size = 1 &<< Int(code)
    let u = raw & (~UInt64(0) &>> UInt64(64 &- 8 &* size))
    index &+= size
    return Int(bitPattern: UInt(u &>> 1)) ^ -Int(bitPattern: UInt(u & 1))
  }

  /// Adds to `row` the differences kept at `index`, moving it past.
  @inline(__always)
  private static func advance(_ row: inout Row, _ bytes: UnsafePointer<UInt8>, _ index: inout Int) {
    let sizes = bytes[index]
    index &+= 1
    row.a &+= get(bytes, &index, sizes & 3)
    row.b &+= get(bytes, &index, (sizes &>> 2) & 3)
    row.c &+= get(bytes, &index, (sizes &>> 4) & 3)
    row.d &+= get(bytes, &index, sizes &>> 6)
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
      // (The chunk is held by this value, which the caller holds: its
      // bytes stay where they are while they are read.)
      let bytes = UnsafePointer(chunks[anchor.chunk &- droppedChunks].base)
      var row = anchor.row
      var index = anchor.offset
      var s = first
      // The rows of the block before `slot`, decoded and passed over.
      while s < slot {
        if s > first { Self.advance(&row, bytes, &index) }
        s &+= 1
      }
      while s < blockEnd {
        if s > first { Self.advance(&row, bytes, &index) }
        guard try body(row, position) else { return }
        position &+= 1
        s &+= 1
      }
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
  /// for the next appends (if no copy shares it).
  mutating func removeAll(keepingCapacity: Bool = false) {
    if keepingCapacity, !chunks.isEmpty {
      chunks.removeLast(chunks.count - 1)
      if isKnownUniquelyReferenced(&chunks[0]) {
        chunks[0].count = 0
      } else {
        chunks = []
      }
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
