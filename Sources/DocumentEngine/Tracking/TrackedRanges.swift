import SummaryTrees

/// Who owns a tracked range: the host, or one of the engine's followers.
enum _TrackedRole: UInt8, Sendable {
  case host = 0
  case context = 1
  case mark = 2
  case selection = 3
  case visible = 4
  case replacement = 5
  case suggestion = 6
  /// The text an accepted suggestion put in (for undo and redo).
  case accepted = 7

  /// Its bit in a summary's `roles`, and in the masks queries take.
  var mask: UInt8 { 1 << rawValue }

  /// Whether an edit's result names the ranges of this role it touched
  /// and removed: the host's, and suggestions.
  var isReported: Bool { self == .host || self == .suggestion }
}

/// One tracked range in the tree: its start as the distance from the start
/// of the item before it (so that an edit shifts every range after it by
/// changing one item), its length, its label (increasing in the tree's
/// order: what finds it by id), its number in the storage, and its rules.
///
/// The tree's order is the ranges' *key*, (start, class): the class is 0
/// for a start that stays before text inserted at it, 1 for one that goes
/// after; equal keys keep the order they were added in. So text inserted
/// at a point moves exactly the items from one place on, in order.
struct _TrackedItem: TreeItem, Sendable {
  var delta: Int
  var length: Int
  var label: UInt64
  var local: UInt32
  var flags: UInt16
  /// The host's kind, as an index into the storage's table of kinds.
  var kind: UInt16

  // Flags: bits 0-1 the expansion (`TrackedExpansion`'s order), bit 2 the
  // bias (right), bit 3 the touch rule (remove), bit 4 whether the range
  // was empty when added (its bias rules), bit 5 whether a start that
  // passes its end takes the end with it (the engine's own followers: see
  // `collapsesToStart`), bits 8-15 the role.
  static func flags(_ rules: TrackingRules, empty: Bool, role: _TrackedRole) -> UInt16 {
    let expand: UInt16 =
      switch rules.expand {
      case .none: 0
      case .before: 1
      case .after: 2
      case .both: 3
      }
    return expand | (rules.bias == .right ? 4 : 0) | (rules.onTouch == .remove ? 8 : 0)
      | (empty ? 16 : 0) | (role.isReported ? 0 : 32) | UInt16(role.rawValue) << 8
  }

  var rules: TrackingRules {
    let expand: TrackedExpansion = [.none, .before, .after, .both][Int(flags & 3)]
    return TrackingRules(
      expand: expand, bias: flags & 4 != 0 ? .right : .left,
      onTouch: flags & 8 != 0 ? .remove : .keep)
  }

  var role: _TrackedRole { _TrackedRole(rawValue: UInt8(flags >> 8)) ?? .host }
  var removesOnTouch: Bool { flags & 8 != 0 }
  var isPoint: Bool { flags & 16 != 0 }
  /// Where a range goes whose start would pass its end: the contract's
  /// host ranges are then empty at the end's place; the engine's own
  /// followers (contexts, marks…) at the start's, as they always were
  /// (docs/OffsetIndex.md, *Tracked ranges*), so that what a session
  /// tells its tool does not change.
  var collapsesToStart: Bool { flags & 32 != 0 }

  /// Whether the start goes after text inserted exactly at it (+1), as the
  /// key's class.
  var startGoesAfter: Bool { isPoint ? flags & 4 != 0 : flags & 1 == 0 }
  /// Whether the end goes after text inserted exactly at it (+1).
  var endGoesAfter: Bool { isPoint ? flags & 4 != 0 : flags & 2 != 0 }
  var keyClass: UInt8 { startGoesAfter ? 1 : 0 }

  var summary: _TrackedSummary {
    _TrackedSummary(
      count: 1, span: delta, maxLength: length, lastLabel: label, lastClass: keyClass,
      roles: 1 << (flags >> 8))
  }
}

/// The sum of tracked items: how many, the start of the last relative to
/// the start before the first (`span`), the longest length (`maxLength`:
/// no item ends past `span + maxLength`, and a shift does not change it),
/// the last item's label and class, and which roles occur.
struct _TrackedSummary: TreeSummary {
  var count: Int
  var span: Int
  var maxLength: Int
  var lastLabel: UInt64
  var lastClass: UInt8
  var roles: UInt8

  /// No items: a furthest end below any (far enough from `Int.min` that a
  /// span added to it cannot overflow).
  static let zero = _TrackedSummary(
    count: 0, span: 0, maxLength: noEnd, lastLabel: 0, lastClass: 0, roles: 0)
  static let noEnd = Int.min / 4

  // Without a branch on either side being empty (the zero is neutral as
  // it is): a node adds up its slots' summaries after every change.
  @inline(__always)
  static func + (a: Self, b: Self) -> Self {
    let some = b.count > 0
    return _TrackedSummary(
      count: a.count + b.count, span: a.span + b.span,
      maxLength: Swift.max(a.maxLength, b.maxLength),
      lastLabel: some ? b.lastLabel : a.lastLabel, lastClass: some ? b.lastClass : a.lastClass,
      roles: a.roles | b.roles)
  }

  /// A slot changed in place: the usual keystroke shifts the items after
  /// it by changing one item's start, which changes only the spans on its
  /// path (the longest length does not move with a shift).
  @inline(__always)
  static func replacing(_ old: Self, with new: Self, in whole: Self, isLast: Bool) -> Self? {
    guard old.count == new.count, old.roles == new.roles,
      new.maxLength >= old.maxLength || old.maxLength < whole.maxLength
    else { return nil }
    var result = whole
    result.span += new.span - old.span
    result.maxLength = Swift.max(whole.maxLength, new.maxLength)
    if isLast {
      result.lastLabel = new.lastLabel
      result.lastClass = new.lastClass
    }
    return result
  }

  /// The furthest any item of a slot can end, relative to the start
  /// before its first: its last start plus its longest length.
  @inline(__always)
  var endBound: Int { span + maxLength }

  /// Whether the items summed, from a start at 0, reach key (`start`,
  /// `keyClass`) with their last one.
  @inline(__always)
  func reaches(_ start: Int, _ keyClass: UInt8) -> Bool {
    count > 0 && (span > start || (span == start && lastClass >= keyClass))
  }
}

enum _TrackedCountMetric: TreeMetric {
  static func measure(_ summary: _TrackedSummary) -> Int { summary.count }
}

/// What one edit did to a tracked range that it moved other than by a
/// shift, or touched: where it was and where it is (`nil`: removed).
struct _TrackedChange: Sendable {
  var local: UInt32
  var role: _TrackedRole
  var old: Range<Int>
  var new: Range<Int>?
  var touched: Bool
  /// The range's rules and kind (what the history needs to track it again
  /// under its number when an undo brings its text back).
  var flags: UInt16 = 0
  var kind: UInt16 = 0
}

/// Errors of the structure itself (the document turns them into
/// ``DocumentError``s).
enum _TrackedRangesError: Error, Equatable {
  case unknown(UInt32)
  case full
}

/// The labels of a storage's tracked ranges by their number, in pages of
/// ``pageSize`` that are dropped once none of their numbers is live: a
/// number's label finds its item in the tree in O(log n).
struct _LabelTable: Sendable {
  #if DEBUG
  static let pageSize = 8
  #else
  static let pageSize = 1024
  #endif
  var pages: [ContiguousArray<UInt64>?] = []
  var live: [Int32] = []

  subscript(local: UInt32) -> UInt64 {
    let p = Int(local) / Self.pageSize
    guard p < pages.count, let page = pages[p] else { return 0 }
    return page[Int(local) % Self.pageSize]
  }

  mutating func set(_ local: UInt32, _ label: UInt64) {
    let p = Int(local) / Self.pageSize
    while pages.count <= p {
      pages.append(nil)
      live.append(0)
    }
    var page = pages[p] ?? ContiguousArray(repeating: 0, count: Self.pageSize)
    // Taken out of the table while it changes, so that it is not copied.
    pages[p] = nil
    let slot = Int(local) % Self.pageSize
    if page[slot] == 0 { live[p] += 1 }
    page[slot] = label
    pages[p] = page
  }

  mutating func clear(_ local: UInt32) {
    let p = Int(local) / Self.pageSize
    guard p < pages.count, var page = pages[p] else { return }
    let slot = Int(local) % Self.pageSize
    guard page[slot] != 0 else { return }
    pages[p] = nil
    page[slot] = 0
    live[p] -= 1
    if live[p] > 0 { pages[p] = page }
  }
}

/// A storage's tracked ranges: every position that follows its edits, in
/// one persistent tree (see docs/DESIGN.md, *Tracked ranges*). A value: a
/// copy is a snapshot that shares the tree.
///
/// - An edit moves them all in O(log n + k) for the k ranges that overlap
///   or meet it (``edit(_:report:)``): the ranges after it move with one
///   item's delta.
/// - The ranges that overlap a range are found through the summaries'
///   furthest end, in O(log n + k).
/// - A range is found by its number through its label, in O(log n).
struct _TrackedRanges: Sendable {
  var tree = SummaryTree<_TrackedItem>()
  var labels = _LabelTable()
  /// The host's kinds, by index (the items keep the index).
  var kinds: [String] = []
  var kindIndex: [String: UInt16] = [:]
  /// The next number to give.
  var nextLocal: UInt32 = 1

  var count: Int { tree.summary.count }
  var isEmpty: Bool { tree.isEmpty }

  // MARK: Reading

  /// The item numbered `local`, with the sum of the items before it.
  func locate(_ local: UInt32) -> (item: _TrackedItem, prefix: _TrackedSummary)? {
    let label = labels[local]
    guard label != 0 else { return nil }
    let prefix = tree.prefix { $0.count > 0 && $0.lastLabel >= label }
    guard prefix.count < count,
      let found = tree.find(_TrackedCountMetric.self, prefix.count, bias: .right),
      found.item.label == label
    else { return nil }
    return (found.item, prefix)
  }

  /// Where the range numbered `local` is now.
  func range(_ local: UInt32) -> Range<Int>? {
    guard let (item, prefix) = locate(local) else { return nil }
    let start = prefix.span + item.delta
    return start..<(start + item.length)
  }

  func kindName(_ item: _TrackedItem) -> String {
    Int(item.kind) < kinds.count ? kinds[Int(item.kind)] : ""
  }

  /// Calls `body` with each range overlapping `range` in the tree's
  /// order (by start): those with a unit in it, and empty ones inside it;
  /// for an empty `range`, those containing or touching the point.
  /// `roles` limits the roles looked at (a mask of `1 << role`).
  func forEach(
    overlapping range: Range<Int>, roles: UInt8 = 0xFF,
    _ body: (_TrackedItem, Range<Int>) -> Void
  ) {
    let a = range.lowerBound
    let b = range.upperBound
    let point = range.isEmpty
    tree.forEach(
      admitting: { prefix, slot in
        // The slot's starts are at least `prefix.span`, its ends at most
        // `prefix.span + slot.endBound`.
        slot.roles & roles != 0 && (point ? prefix.span <= b : prefix.span < b)
          && (point
            ? prefix.span + slot.endBound >= a
            : prefix.span + slot.endBound > a
              || prefix.span + slot.endBound >= a)
      },
      { item, prefix in
        let start = prefix.span + item.delta
        if point ? start > b : start >= b { return false }
        let end = start + item.length
        guard roles & item.role.mask != 0 else { return true }
        let meets =
          point
          ? start <= a && a <= end
          : (start < b && end > a) || (start == end && start >= a)
        if meets { body(item, start..<end) }
        return true
      })
  }

  /// Calls `body` with each range that meets the closed range `span`
  /// (starts at or before its end, ends at or after its start), in the
  /// tree's order; `roles` limits the roles looked at.
  func forEach(
    meeting span: ClosedRange<Int>, roles: UInt8 = 0xFF, _ body: (_TrackedItem, Range<Int>) -> Void
  ) {
    let a = span.lowerBound
    let b = span.upperBound
    tree.forEach(
      admitting: { prefix, slot in
        slot.roles & roles != 0 && prefix.span <= b && prefix.span + slot.endBound >= a
      },
      { item, prefix in
        let start = prefix.span + item.delta
        if start > b { return false }
        let end = start + item.length
        if end >= a && roles & item.role.mask != 0 { body(item, start..<end) }
        return true
      })
  }

  /// Every range, in the tree's order.
  func forEachRange(_ body: (_TrackedItem, Range<Int>) -> Void) {
    var start = 0
    for item in tree {
      start += item.delta
      body(item, start..<(start + item.length))
    }
  }

  // MARK: Adding and removing

  func kindIndexIfAny(_ kind: String) -> UInt16? { kindIndex[kind] }

  /// The index of `kind` in the table, added if new.
  mutating func intern(_ kind: String) throws(_TrackedRangesError) -> UInt16 {
    if let i = kindIndex[kind] { return i }
    guard kinds.count < Int(UInt16.max) else { throw .full }
    let i = UInt16(kinds.count)
    kinds.append(kind)
    kindIndex[kind] = i
    return i
  }

  /// `n` new numbers, never given before in this storage.
  ///
  /// - Throws: `.full` when the storage would hold 2^31 ranges or have
  ///   given 2^32 numbers.
  mutating func newLocals(_ n: Int) throws(_TrackedRangesError) -> Range<UInt32> {
    guard n >= 0, n < Int(Int32.max) - count, Int(nextLocal) + n < Int(UInt32.max) else {
      throw .full
    }
    defer { nextLocal += UInt32(n) }
    return nextLocal..<(nextLocal + UInt32(n))
  }

  /// Adds a range (checked by the caller) under number `local`.
  mutating func insert(
    _ range: Range<Int>, local: UInt32, flags: UInt16, kind: UInt16
  ) {
    var item = _TrackedItem(
      delta: 0, length: range.count, label: 0, local: local, flags: flags, kind: kind)
    let keyClass = item.keyClass
    let start = range.lowerBound
    // After every item whose key is at most this one's.
    var prefix = tree.prefix { $0.reaches(start, keyClass + 1) }
    var rank = prefix.count
    var next = rank < count ? tree.find(_TrackedCountMetric.self, rank, bias: .right)?.item : nil
    var low = rank > 0 ? prefix.lastLabel : 0
    var high = next?.label ?? UInt64.max
    if high - low < 2 {
      relabel(around: rank)
      prefix = tree.prefix { $0.reaches(start, keyClass + 1) }
      rank = prefix.count
      next = rank < count ? tree.find(_TrackedCountMetric.self, rank, bias: .right)?.item : nil
      low = rank > 0 ? prefix.lastLabel : 0
      high = next?.label ?? UInt64.max
    }
    // At the end, a step that leaves room for many more after it; between
    // two, the middle.
    item.label = next == nil && high - low > 1 << 33 ? low + 1 << 32 : low + (high - low) / 2
    let before = rank > 0 ? prefix.span : 0
    item.delta = start - before
    if next != nil {
      // In place, in the leaf of the item it goes before: that item takes
      // the new one's slot and goes after it, its start now relative to it.
      let new = item
      tree.updateItem(_TrackedCountMetric.self, at: rank, bias: .right) { slot, _ in
        var moved = slot
        moved.delta -= new.delta
        slot = new
        return ((), .insertAfter([moved]))
      }
    } else {
      tree.append(item)
    }
    labels.set(local, item.label)
  }

  /// Spreads the labels of a window of items around rank `rank` evenly
  /// between those of the items around the window: the window grows
  /// until there are at least 2^16 labels between two of its items.
  mutating func relabel(around rank: Int) {
    var half = 8
    let n = count
    while true {
      let lo = max(0, rank - half)
      let hi = min(n, rank + half)
      let low =
        lo > 0 ? (tree.find(_TrackedCountMetric.self, lo - 1, bias: .right)?.item.label ?? 0) : 0
      let high =
        hi < n
        ? (tree.find(_TrackedCountMetric.self, hi, bias: .right)?.item.label ?? .max) : .max
      let step = (high - low) / UInt64(hi - lo + 1)
      if step >= 1 << 16 || (lo == 0 && hi == n) {
        var next = low
        var changed: [(UInt32, UInt64)] = []
        tree.updateEach(
          admitting: { prefix, slot in prefix.count < hi && prefix.count + slot.count > lo },
          { item, prefix in
            if prefix.count >= hi { return false }
            if prefix.count >= lo {
              next += step
              item.label = next
              changed.append((item.local, next))
            }
            return true
          })
        for (local, label) in changed { labels.set(local, label) }
        return
      }
      half *= 2
    }
  }

  /// Builds the tree again from `items` (absolute ranges, in key order),
  /// with labels spread evenly: what adding many ranges at once does.
  mutating func rebuild(_ items: [(range: Range<Int>, item: _TrackedItem)]) {
    let step = UInt64.max / UInt64(items.count + 1)
    var previous = 0
    var label: UInt64 = 0
    var built: [_TrackedItem] = []
    built.reserveCapacity(items.count)
    for (range, item) in items {
      var item = item
      label += step
      item.label = label
      item.delta = range.lowerBound - previous
      item.length = range.count
      previous = range.lowerBound
      built.append(item)
      labels.set(item.local, label)
    }
    tree = SummaryTree(built)
  }

  /// Adds many ranges (checked by the caller) at once: merged with the
  /// ranges there, and the tree built again, in O(n + m log m).
  mutating func insert(
    contentsOf new: [(range: Range<Int>, local: UInt32, flags: UInt16, kind: UInt16)]
  ) {
    if new.count < 64 || new.count < count / 16 {
      for n in new { insert(n.range, local: n.local, flags: n.flags, kind: n.kind) }
      return
    }
    var added = new.map {
      (
        range: $0.range,
        item: _TrackedItem(
          delta: 0, length: 0, label: 0, local: $0.local, flags: $0.flags, kind: $0.kind)
      )
    }
    // A stable sort by key: equal keys keep the order given. Keys packed
    // with their index in one word sort fast (and a checker's pass, in
    // order already, is not sorted again).
    let m = added.count
    if m < 1 << 24, added.allSatisfy({ $0.range.lowerBound < 1 << 38 }) {
      var keys = added.enumerated().map { i, new in
        UInt64(new.range.lowerBound) << 25 | UInt64(new.item.keyClass) << 24 | UInt64(i)
      }
      if !zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) {
        keys.sort()
        added = keys.map { added[Int($0 & 0xFF_FFFF)] }
      }
    } else {
      added = added.enumerated().sorted {
        let a = ($0.element.range.lowerBound, $0.element.item.keyClass, $0.offset)
        let b = ($1.element.range.lowerBound, $1.element.item.keyClass, $1.offset)
        return a < b
      }.map(\.element)
    }
    if count == 0 {
      rebuild(added)
      return
    }
    var merged: [(range: Range<Int>, item: _TrackedItem)] = []
    merged.reserveCapacity(count + added.count)
    var k = 0
    forEachRange { item, range in
      while k < added.count
        && (added[k].range.lowerBound, added[k].item.keyClass) < (range.lowerBound, item.keyClass)
      {
        merged.append(added[k])
        k += 1
      }
      merged.append((range, item))
    }
    merged.append(contentsOf: added[k...])
    rebuild(merged)
  }

  /// Removes the range numbered `local`.
  @discardableResult
  mutating func remove(_ local: UInt32) -> Bool {
    let label = labels[local]
    guard label != 0 else { return false }
    let rank = tree.prefix { $0.count > 0 && $0.lastLabel >= label }.count
    guard rank < count else { return false }
    // In place: the item goes from its leaf, then the next one (now at its
    // rank) starts relative to the one before the removed one.
    let delta = tree.updateItem(_TrackedCountMetric.self, at: rank, bias: .right) { item, _ in
      item.label == label ? (item.delta, .remove) : (nil, .keep)
    }
    guard let removed = delta, let delta = removed else { return false }
    if rank < count && delta != 0 {
      tree.updateItem(_TrackedCountMetric.self, at: rank, bias: .right) { next, _ in
        next.delta += delta
        return ((), .keep)
      }
    }
    labels.clear(local)
    return true
  }

  /// Puts the range numbered `local` at `range` (checked by the caller),
  /// with its rules.
  mutating func move(_ local: UInt32, to range: Range<Int>) {
    guard let (item, prefix) = locate(local) else { return }
    let start = prefix.span + item.delta
    if start == range.lowerBound && item.length == range.count { return }
    remove(local)
    insert(range, local: local, flags: item.flags, kind: item.kind)
  }
}

// MARK: - Following an edit

extension _TrackedRanges {
  /// Moves every range with the edit `s..<e` → `n` units (see
  /// docs/DESIGN.md, *Tracked ranges*): each end by the mapping rule with
  /// its own association, a start that would pass its end put on the end.
  /// Ranges whose text the edit touches and whose rule says so are
  /// removed. `report` gets every range that the edit did not only shift:
  /// those it touched, removed, or moved an end of, and every range that
  /// starts in the edited range (at its start, for an insertion); so a
  /// range not in it lies wholly before the edit (unchanged) or after it
  /// (shifted by the edit's change of length).
  ///
  /// - Complexity: O(log n + k log n) for the k ranges reported.
  mutating func edit(_ step: _EditStep, report: inout [_TrackedChange]) {
    if tree.isEmpty || step.changesNothing { return }
    let s = step.s
    let e = step.e
    let insertion = s == e
    // The window: the items from key `low` to before key `high` are mapped
    // one by one; from `high` on they only shift. (An insertion shifts the
    // items at (`s`, 1) too, but for a range emptied earlier whose end
    // stays: so they are looked at.)
    let low: (Int, UInt8) = insertion ? (s, 1) : (s, 0)
    let high: (Int, UInt8) = insertion ? (s, 2) : (e, 1)
    // A small tree (one leaf: a storage with a context and a selection,
    // say) is followed in one loop over its items.
    if tree.height == 0,
      tree.withLeafItems({ Self.followLeaf($0, step, low, high, &report) }) == true
    {
      return
    }
    var removals: [UInt32] = []
    var windowFound = false

    // One pass in order, on the path to the window: the items before it
    // whose end the edit reaches (only their end can move) are changed in
    // place; at an empty window (the usual keystroke) the first item after
    // takes the shift, and nothing else is looked at.
    tree.updateEach(
      admitting: { prefix, slot in
        guard slot.count > 0 else { return false }
        let last = prefix.span + slot.span
        let reachesWindow = last > low.0 || (last == low.0 && slot.lastClass >= low.1)
        return reachesWindow || (prefix.span <= s && prefix.span + slot.endBound >= s)
      },
      { item, prefix in
        let start = prefix.span + item.delta
        let key = (start, item.keyClass)
        if key >= high {
          item.delta += step.delta
          return false
        }
        if key >= low {
          windowFound = true
          return false
        }
        let end = start + item.length
        let old = start..<end
        let newEnd = Self.mapPoint(end, step, goesAfter: item.endGoesAfter)
        let touched = step.touches(old)
        if newEnd == end && !touched { return true }
        item.length = newEnd - start
        let removed = touched && item.removesOnTouch
        if removed { removals.append(item.local) }
        report.append(
          _TrackedChange(
            local: item.local, role: item.role, old: old, new: removed ? nil : start..<newEnd,
            touched: touched, flags: item.flags, kind: item.kind))
        return true
      })
    if windowFound {
      let first = tree.prefix { $0.reaches(low.0, low.1) }
      let after = tree.prefix { $0.reaches(high.0, high.1) }
      followReplaced(step, from: first, to: after, report: &report)
    }
    for local in removals { remove(local) }
  }

  /// ``edit(_:report:)`` for a tree that is one leaf: every item mapped
  /// where it lies, when none is removed and their order holds (else it
  /// changes nothing and returns `false`). Reports what the edit's
  /// general path reports: the ranges touched, those in the window, and
  /// those it did more than shift.
  static func followLeaf(
    _ items: UnsafeMutableBufferPointer<_TrackedItem>, _ step: _EditStep,
    _ low: (Int, UInt8), _ high: (Int, UInt8), _ report: inout [_TrackedChange]
  ) -> Bool {
    var start = 0
    var previous: (Int, UInt8) = (Int.min, 0)
    for item in items {
      start += item.delta
      let old = start..<(start + item.length)
      if item.removesOnTouch && step.touches(old) { return false }
      let key = (map(old, step, item).lowerBound, item.keyClass)
      if key < previous { return false }
      previous = key
    }
    let shiftedFrom = step.s + step.n
    var oldStart = 0
    var newStart = 0
    for i in items.indices {
      let item = items[i]
      oldStart += item.delta
      let old = oldStart..<(oldStart + item.length)
      let new = map(old, step, item)
      let touched = step.touches(old)
      let key = (old.lowerBound, item.keyClass)
      // What a reader of the report takes a range not in it to have been.
      let assumed =
        new.lowerBound >= shiftedFrom
        ? (new.lowerBound - step.delta)..<(new.upperBound - step.delta) : new
      if touched || (key >= low && key < high) || assumed != old {
        report.append(
          _TrackedChange(
            local: item.local, role: item.role, old: old, new: new, touched: touched,
            flags: item.flags, kind: item.kind))
      }
      items[i].delta = new.lowerBound - newStart
      items[i].length = new.count
      newStart = new.lowerBound
    }
    return true
  }

  /// Where an end (a start or an end) at `p` goes: the rule of *Mapping*,
  /// with association +1 if it `goesAfter` text inserted at it, else −1.
  @inline(__always)
  static func mapPoint(_ p: Int, _ step: _EditStep, goesAfter: Bool) -> Int {
    if p < step.s { return p }
    if step.s == step.e { return p == step.s && !goesAfter ? p : p + step.n }
    if p == step.s { return p }
    if p < step.e { return goesAfter ? step.s + step.n : step.s }
    return p + step.delta
  }

  /// The items with keys from (`s`, 0) to before (`e`, 1), for an edit that
  /// replaces `s..<e`: each mapped on its own, put in key order again (the
  /// edit may bring two together out of order), with their labels; the
  /// first item after them shifts.
  mutating func followReplaced(
    _ step: _EditStep, from first: _TrackedSummary, to after: _TrackedSummary,
    report: inout [_TrackedChange]
  ) {
    let lo = first.count
    let hi = after.count
    let total = count
    if lo == hi {
      if hi < total {
        _ = tree.updateItem(_TrackedCountMetric.self, at: hi, bias: .right) { item, _ in
          item.delta += step.delta
          return ((), .keep)
        }
      }
      return
    }
    if followInPlace(step, from: first, lo: lo, hi: hi, report: &report) { return }
    // Read the window, and the item after it.
    var window: [(range: Range<Int>, item: _TrackedItem)] = []
    var nextItem: (start: Int, item: _TrackedItem)? = nil
    tree.forEach(
      admitting: { prefix, slot in prefix.count <= hi && prefix.count + slot.count > lo },
      { item, prefix in
        if prefix.count > hi { return false }
        let start = prefix.span + item.delta
        if prefix.count == hi {
          nextItem = (start, item)
          return false
        }
        if prefix.count >= lo { window.append((start..<(start + item.length), item)) }
        return true
      })
    var labelsInOrder = window.map(\.item.label)
    var kept: [(range: Range<Int>, item: _TrackedItem, order: Int)] = []
    for (k, (old, item)) in window.enumerated() {
      let new = Self.map(old, step, item)
      let start = new.lowerBound
      let end = new.upperBound
      let touched = step.touches(old)
      let removed = touched && item.removesOnTouch
      // Reported even when it stays: whoever reads the report knows that a
      // range not in it lies wholly before the edit or was shifted.
      report.append(
        _TrackedChange(
          local: item.local, role: item.role, old: old, new: removed ? nil : start..<end,
          touched: touched, flags: item.flags, kind: item.kind))
      if removed {
        labels.clear(item.local)
        continue
      }
      kept.append((start..<end, item, k))
    }
    if kept.count < window.count {
      labelsInOrder = kept.map(\.item.label).sorted()
    }
    kept.sort {
      ($0.range.lowerBound, $0.item.keyClass, $0.order)
        < ($1.range.lowerBound, $1.item.keyClass, $1.order)
    }
    var replacement: [_TrackedItem] = []
    replacement.reserveCapacity(kept.count + 1)
    var previous = first.count > 0 ? first.span : 0
    for (k, entry) in kept.enumerated() {
      var item = entry.item
      item.delta = entry.range.lowerBound - previous
      item.length = entry.range.count
      if item.label != labelsInOrder[k] {
        item.label = labelsInOrder[k]
        labels.set(item.local, item.label)
      }
      previous = entry.range.lowerBound
      replacement.append(item)
    }
    var end = hi
    if let (start, item) = nextItem {
      var item = item
      item.delta = start + step.delta - previous
      replacement.append(item)
      end += 1
    }
    tree.replace(_TrackedCountMetric.self, lo..<end, with: replacement)
  }
}

extension _TrackedRanges {
  /// ``followReplaced(_:from:to:report:)`` without moving an item:
  /// when the edit removes none of the window's items and keeps their
  /// order (the usual case: a caret at the point of an insertion), each is
  /// changed where it lies, with no allocation. Returns `false`, having
  /// changed nothing, when it cannot.
  mutating func followInPlace(
    _ step: _EditStep, from first: _TrackedSummary, lo: Int, hi: Int,
    report: inout [_TrackedChange]
  ) -> Bool {
    let reported = report.count
    var fits = true
    var previous: (Int, UInt8)? = nil
    tree.forEach(
      admitting: { prefix, slot in prefix.count < hi && prefix.count + slot.count > lo },
      { item, prefix in
        if prefix.count >= hi { return false }
        if prefix.count < lo { return true }
        let old = (prefix.span + item.delta)..<(prefix.span + item.delta + item.length)
        let new = Self.map(old, step, item)
        let touched = step.touches(old)
        if touched && item.removesOnTouch { fits = false }
        let key = (new.lowerBound, item.keyClass)
        if let previous, key < previous { fits = false }
        previous = key
        report.append(
          _TrackedChange(
            local: item.local, role: item.role, old: old, new: new, touched: touched,
            flags: item.flags, kind: item.kind))
        return fits
      })
    guard fits else {
      report.removeLast(report.count - reported)
      return false
    }
    var oldPrevious = first.count > 0 ? first.span : 0
    var newPrevious = oldPrevious
    let total = count
    tree.updateEach(
      admitting: { prefix, slot in prefix.count <= hi && prefix.count + slot.count > lo },
      { item, prefix in
        if prefix.count > hi || prefix.count >= total { return false }
        if prefix.count < lo { return true }
        let oldStart = oldPrevious + item.delta
        oldPrevious = oldStart
        if prefix.count == hi {
          item.delta = oldStart + step.delta - newPrevious
          return false
        }
        let new = Self.map(oldStart..<(oldStart + item.length), step, item)
        item.delta = new.lowerBound - newPrevious
        item.length = new.count
        newPrevious = new.lowerBound
        return true
      })
    return true
  }

  /// Where an edit takes a range, by the rules of `item`.
  @inline(__always)
  static func map(_ old: Range<Int>, _ step: _EditStep, _ item: _TrackedItem) -> Range<Int> {
    var start = mapPoint(old.lowerBound, step, goesAfter: item.startGoesAfter)
    var end = mapPoint(old.upperBound, step, goesAfter: item.endGoesAfter)
    if start > end {
      if item.collapsesToStart { end = start } else { start = end }
    }
    return start..<end
  }
}

// MARK: - Invariants

extension _TrackedRanges {
  /// Checks the tree's order (keys never decrease, labels increase), the
  /// lengths, and that the label table finds every item. Traps on a
  /// violation. Compiled in only with `-DENGINE_INTERNAL_CHECKS`.
  func _invariantCheck(length: Int) {
    #if ENGINE_INTERNAL_CHECKS
    var previous: (Int, UInt8, UInt64)? = nil
    forEachRange { item, range in
      precondition(range.lowerBound >= 0 && range.upperBound <= length, "a tracked range outside")
      precondition(item.length >= 0, "a negative tracked length")
      if let (start, keyClass, label) = previous {
        precondition(
          (start, keyClass) <= (range.lowerBound, item.keyClass), "tracked ranges out of order")
        precondition(label < item.label, "tracked labels out of order")
      }
      precondition(labels[item.local] == item.label, "a tracked label out of step")
      previous = (range.lowerBound, item.keyClass, item.label)
    }
    #endif
  }
}
