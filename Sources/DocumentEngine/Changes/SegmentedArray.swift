/// An array that grows one fixed-size segment at a time: an append copies
/// at most one segment, never the whole array, so its worst case is
/// O(`segmentCount`), not O(n).
///
/// The engine appends a few records on every keystroke for as long as
/// history is kept (a live session, a sync peer). In one contiguous array
/// the append that finds it full copies all of it to a buffer twice as
/// large, and touches the new buffer's pages: at 131,072 records the
/// keystroke that does it took milliseconds (`KeystrokeReplay --latency`).
/// Here that keystroke starts a segment of `segmentCount` elements.
///
/// A copy shares the segments; an append to a shared value copies only the
/// last segment, a removal at the front drops whole segments. The first
/// segment starts small and grows by doubling (a log of a few records
/// takes a few records' memory); the later ones are allocated whole.
struct _SegmentedArray<Element>: RandomAccessCollection {
  /// Elements a segment holds: a power of two, so that an index splits
  /// into a segment and a slot with a shift and a mask.
  static var segmentShift: Int { 12 }
  static var segmentCount: Int { 1 << segmentShift }

  private var segments: [ContiguousArray<Element>] = []
  /// Elements dropped from the front of the first segment.
  private var head = 0
  private(set) var count = 0

  init() {}

  init(_ elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// The elements the segments have room for.
  var capacity: Int { segments.reduce(0) { $0 + $1.capacity } }

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  /// The element at `position`, lent in place (`records[i].party` copies
  /// only the party, not the whole record).
  @inline(__always)
  subscript(position: Int) -> Element {
    _read {
      precondition(position >= 0 && position < count, "index out of range")
      let slot = position &+ head
      yield segments[slot &>> Self.segmentShift][slot & (Self.segmentCount &- 1)]
    }
  }

  /// Calls `body` with each contiguous run of the elements from `start` on,
  /// in order, and the index of the run's first element, until `body`
  /// returns false: a loop over many elements reads them from buffers, not
  /// one subscript each.
  @inline(__always)
  func forEachRun(
    from start: Int, _ body: (UnsafeBufferPointer<Element>, Int) throws -> Bool
  ) rethrows {
    var position = start
    while position < count {
      let slot = position &+ head
      let segment = slot &>> Self.segmentShift
      let offset = slot & (Self.segmentCount &- 1)
      let length = Swift.min(segments[segment].count - offset, count - position)
      let goOn = try segments[segment].withUnsafeBufferPointer { buffer in
        try body(UnsafeBufferPointer(rebasing: buffer[offset..<offset + length]), position)
      }
      if !goOn { return }
      position += length
    }
  }

  mutating func append(_ element: consuming Element) {
    if segments.isEmpty {
      // The first segment grows as an array does, so that a short history
      // (most storages' logs) takes little memory; its growth copies at
      // most one segment.
      segments.append([])
    } else if segments[segments.count - 1].count == Self.segmentCount {
      // A history past one segment is a long one: later segments are made
      // whole at once.
      var segment = ContiguousArray<Element>()
      segment.reserveCapacity(Self.segmentCount)
      segments.append(segment)
    } else if segments.count == 1, segments[0].count == segments[0].capacity {
      // The first segment doubles, but not past a segment.
      segments[0].reserveCapacity(Swift.min(Swift.max(2 * segments[0].count, 8), Self.segmentCount))
    }
    segments[segments.count - 1].append(element)
    count += 1
  }

  /// The index of the first element for which `belongs` is true, all
  /// those after it being true too (`count` if none is): a binary search.
  ///
  /// - Complexity: O(log n)
  func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let mid = (low &+ high) / 2
      if belongs(self[mid]) { high = mid } else { low = mid &+ 1 }
    }
    return low
  }

  /// Removes the first `k` elements (at most `count`).
  mutating func removeFirst(_ k: Int) {
    precondition(k >= 0 && k <= count, "removing more than the array holds")
    if k == count {
      removeAll(keepingCapacity: true)
      return
    }
    head += k
    count -= k
    let whole = head &>> Self.segmentShift
    if whole > 0 {
      segments.removeFirst(whole)
      head &= Self.segmentCount &- 1
    }
  }

  /// Removes every element; with `keepingCapacity`, keeps one segment's
  /// storage for the next appends.
  mutating func removeAll(keepingCapacity: Bool = false) {
    if keepingCapacity, !segments.isEmpty {
      segments.removeLast(segments.count - 1)
      segments[0].removeAll(keepingCapacity: true)
    } else {
      segments = []
    }
    head = 0
    count = 0
  }
}

extension _SegmentedArray: Sendable where Element: Sendable {}
