import SummaryTrees

/// Where a position of an older version is now (see ``ChangeMap/map(_:bias:)``).
public struct MappedOffset: Hashable, Sendable {
  /// The position in the current text.
  public var offset: Int
  /// Whether the unit on the `bias` side of the old position (after it for
  /// `.right`, before it for `.left`) has been deleted since.
  public var deleted: Bool

  /// A mapped position.
  public init(offset: Int, deleted: Bool) {
    self.offset = offset
    self.deleted = deleted
  }
}

/// The edits of one text since a base version, composed into one sequence of
/// sections — kept, deleted, inserted, each with its old and new length — on a
/// `SummaryTree`, so that mapping a position of the base version to the
/// current text costs O(log m) for m sections, however many edits there were.
///
/// Mapping follows ProseMirror's sequential rule exactly (as if the position
/// were mapped through every edit in turn, with the same `bias`): before an
/// edit a position stays, after it it shifts; at a pure insertion `bias`
/// decides (`.left` stays before the new text, `.right` goes after it); in a replaced
/// range the start stays at the start, the end goes to the end, and an
/// interior position goes to the `bias` side.
///
/// Composition loses that rule unless the sections keep track of which side of
/// each inserted text every old position ended on, and that differs between
/// the two `bias` values, so the map keeps one sequence for each. An old
/// position is found in a sequence by a fixed rule: for `.right` after every section
/// that ends at or before it in old units (zero-length ones included), for `.left`
/// before every section that starts at or after it. Recording an edit places
/// its new text so that the rule keeps giving the sequential answer: for `.right`
/// right after the first replaced unit (before it, for a pure insertion, every
/// zero-width section there), for `.left` right before the last.
public struct ChangeMap: Sendable {
  /// The sections for `.right` and `.left`.
  var forward: SummaryTree<_Section>
  var backward: SummaryTree<_Section>

  /// The map of no edit over a text of `length` units.
  public init(length: Int) {
    let items = length > 0 ? [_Section(kind: .kept, old: length, new: length)] : []
    forward = SummaryTree(items)
    backward = forward
  }

  /// The length of the base version's text.
  public var oldLength: Int { forward.summary.old }
  /// The length of the current text.
  public var newLength: Int { forward.summary.new }
  /// How many sections the map holds (for `.right`).
  public var sectionCount: Int { forward.summary.count }

  /// Checks the map: both sequences' trees are well formed and agree on
  /// the old and new lengths, every section is what its kind says (kept:
  /// `old == new > 0`; deleted: `new == 0 < old`; inserted: `old == 0`), and
  /// no count is negative. Traps on a violation. Compiled in only with
  /// `-DENGINE_INTERNAL_CHECKS`; a no-op otherwise.
  ///
  /// - Complexity: O(m) for m sections.
  public func _invariantCheck() {
    #if ENGINE_INTERNAL_CHECKS
    precondition(forward.summary.old == backward.summary.old, "sequences disagree on old length")
    precondition(forward.summary.new == backward.summary.new, "sequences disagree on new length")
    precondition(
      forward.summary.insertions == backward.summary.insertions,
      "sequences disagree on insertions")
    for tree in [forward, backward] {
      tree._invariantCheck()
      for section in tree {
        precondition(section.insertions >= 0, "negative insertion count")
        switch section.kind {
        case .kept:
          precondition(section.old == section.new && section.old > 0, "bad kept section")
          precondition(section.insertions == 0, "insertions on a kept section")
        case .deleted:
          precondition(section.new == 0 && section.old > 0, "bad deleted section")
          precondition(section.insertions == 0, "insertions on a deleted section")
        case .inserted:
          precondition(section.old == 0 && section.new >= 0, "bad inserted section")
        }
      }
    }
    #endif
  }

  /// Composes one more edit, given in current coordinates: `range` replaced
  /// by `insertedLength` units.
  ///
  /// - Precondition: `range` lies within the current text (the caller checks).
  /// - Complexity: O(log m)
  public mutating func record(_ range: Range<Int>, insertedLength: Int) {
    Self.record(&forward, range, insertedLength, forward: true)
    Self.record(&backward, range, insertedLength, forward: false)
  }

  /// Where `offset` of the base version is now.
  ///
  /// - Parameters:
  ///   - offset: a position in the base version's text, `0...oldLength`
  ///     (clamped).
  ///   - bias: the side the position keeps to where text was inserted at
  ///     it: `.left` stays before the new text, `.right` goes after it.
  /// - Complexity: O(log m)
  public func map(_ offset: Int, bias: Bias = .right) -> MappedOffset {
    let p = min(max(offset, 0), oldLength)
    if bias == .left {
      if p == 0 { return MappedOffset(offset: 0, deleted: false) }
      guard let found = backward.find(_OldMetric.self, p, bias: .left) else {
        return MappedOffset(offset: p, deleted: false)
      }
      let section = found.item
      let inside = p - found.prefix.old
      switch section.kind {
      case .kept: return MappedOffset(offset: found.prefix.new + inside, deleted: false)
      default: return MappedOffset(offset: found.prefix.new, deleted: true)
      }
    }
    if p >= oldLength { return MappedOffset(offset: newLength, deleted: false) }
    guard let found = forward.find(_OldMetric.self, p, bias: .right) else {
      return MappedOffset(offset: p, deleted: false)
    }
    let inside = p - found.prefix.old
    switch found.item.kind {
    case .kept: return MappedOffset(offset: found.prefix.new + inside, deleted: false)
    default: return MappedOffset(offset: found.prefix.new, deleted: true)
    }
  }

  /// Whether any composed edit touched `range` of the base version: deleted
  /// or replaced a unit inside it, or inserted strictly inside it; for an
  /// empty range, whether the units on both sides of it were deleted.
  ///
  /// - Complexity: O(log m)
  public func touches(_ range: Range<Int>) -> Bool {
    let a = min(max(range.lowerBound, 0), oldLength)
    let b = min(max(range.upperBound, a), oldLength)
    if a == b {
      guard a > 0 && a < oldLength else { return false }
      return deletedBefore(a + 1) - deletedBefore(a - 1) == 2
    }
    if deletedBefore(b) - deletedBefore(a) > 0 { return true }
    // Insertions located after every section ending at or before `a`, and
    // before every section starting at or after `b`.
    return insertionsBefore(b, strict: true) - insertionsBefore(a, strict: false) > 0
  }

  /// The number of deleted units among the first `p` old units.
  func deletedBefore(_ p: Int) -> Int {
    guard p > 0, let found = forward.find(_OldMetric.self, p, bias: .left) else { return 0 }
    let inside = p - found.prefix.old
    return found.prefix.deletedOld + (found.item.kind == .deleted ? inside : 0)
  }

  /// The number of insertion events located before old position `p`:
  /// with `strict`, those before every section starting at or after `p`;
  /// otherwise those after every section ending at or before `p`.
  func insertionsBefore(_ p: Int, strict: Bool) -> Int {
    if strict {
      guard p > 0, let found = forward.find(_OldMetric.self, p, bias: .left) else { return 0 }
      return found.prefix.insertions + found.item.insertions
    }
    if p >= oldLength { return forward.summary.insertions }
    guard let found = forward.find(_OldMetric.self, p, bias: .right) else { return 0 }
    return found.prefix.insertions
  }

  static func cut(_ section: _Section, _ offset: Int) -> (_Section, _Section) {
    // Only kept and inserted sections have new units to cut; a kept section
    // cuts its old units in step.
    var a = section
    var b = section
    a.new = offset
    b.new = section.new - offset
    if section.kind == .kept {
      a.old = offset
      b.old = section.old - offset
    }
    if section.kind == .inserted {
      a.insertions = section.insertions
      b.insertions = 0
    }
    return (a, b)
  }

  /// Records a typing-shaped edit in place, in one descent, when it falls
  /// inside one section (or, for an insertion, right after an inserted or
  /// kept one for `.right`, right before one for `.left`) so that no zero-width section
  /// decides where it goes. Returns false to let the general path do it.
  static func recordInPlace(
    _ tree: inout SummaryTree<_Section>, _ s: Int, _ e: Int, _ n: Int, forward: Bool
  ) -> Bool {
    let total = tree.summary.new
    if s == e {
      // A pure insertion: `.right` goes right after the section holding unit
      // s - 1, `.left` right before the one holding unit s.
      guard n > 0, forward ? s > 0 : s < total else { return false }
      let done = tree.updateItem(_NewMetric.self, at: s, bias: forward ? .left : .right) {
        (item: inout _Section, prefix: _SectionSummary) -> (Bool, TreeItemChange<_Section>) in
        let inside = s - prefix.new
        let new = _Section(kind: .inserted, old: 0, new: n, insertions: 1)
        switch item.kind {
        case .inserted:
          item.new += n
          item.insertions += 1
          return (true, .keep)
        case .kept:
          if inside == item.new {
            return (true, .insertAfter([new]))
          }
          if inside == 0 {
            let kept = item
            item = new
            return (true, .insertAfter([kept]))
          }
          let after = _Section(kind: .kept, old: item.old - inside, new: item.new - inside)
          item.old = inside
          item.new = inside
          return (true, .insertAfter([new, after]))
        case .deleted:
          return (false, .keep)
        }
      }
      return done ?? false
    }
    // A deletion or replacement inside one section.
    let done = tree.updateItem(_NewMetric.self, at: s, bias: .right) {
      (item: inout _Section, prefix: _SectionSummary) -> (Bool, TreeItemChange<_Section>) in
      let inside = s - prefix.new
      guard inside >= 0, e - prefix.new <= item.new else { return (false, .keep) }
      switch item.kind {
      case .inserted:
        // New text in inserted text: the same place in old terms.
        item.new += n - (e - s)
        if n > 0 { item.insertions += 1 }
        return (true, .keep)
      case .kept:
        let count = e - s
        // The new text goes after the first replaced unit for `.right`, before
        // the last for `.left` (as the general path places it).
        var more: ContiguousArray<_Section> = []
        if n == 0 {
          more = [_Section(kind: .deleted, old: count, new: 0)]
        } else {
          let new = _Section(kind: .inserted, old: 0, new: n, insertions: 1)
          let one = _Section(kind: .deleted, old: 1, new: 0)
          let others = _Section(kind: .deleted, old: count - 1, new: 0)
          more = forward ? [one, new] : []
          if count > 1 { more.append(others) }
          if !forward { more += [new, one] }
        }
        let rest = item.new - inside - count
        if rest > 0 { more.append(_Section(kind: .kept, old: rest, new: rest)) }
        if inside == 0 {
          item = more.removeFirst()
          return (true, more.isEmpty ? .keep : .insertAfter(more))
        }
        item.old = inside
        item.new = inside
        return (true, .insertAfter(more))
      case .deleted:
        return (false, .keep)
      }
    }
    return done ?? false
  }

  static func record(
    _ tree: inout SummaryTree<_Section>, _ range: Range<Int>, _ n: Int, forward: Bool,
    general: Bool = false
  ) {
    let s = range.lowerBound
    let e = range.upperBound
    if !general && recordInPlace(&tree, s, e, n, forward: forward) { return }
    if !general && e - s > 1 {
      // Across sections: the same edit as steps that each fall inside one
      // section. The new text goes where the sequence would put it: after
      // the first replaced unit (`.right`), before the last (`.left`).
      if n == 0 {
        deleteAcrossSections(&tree, s, e, forward: forward)
      } else if forward {
        record(&tree, s..<(s + 1), n, forward: true)
        deleteAcrossSections(&tree, s + n, s + n + (e - s - 1), forward: true)
      } else {
        deleteAcrossSections(&tree, s, e - 1, forward: false)
        record(&tree, s..<(s + 1), n, forward: false)
      }
      return
    }
    let new = _Section(kind: .inserted, old: 0, new: n, insertions: 1)
    if s == e {
      guard n > 0 else { return }
      // A pure insertion: for `.right` every old position now at `s` goes after
      // it (it goes before the zero-width sections there), for `.left` before.
      var (left, right) = tree.split(
        _NewMetric.self, at: s, bias: forward ? .right : .left, cuttingWith: cut)
      if !Self.mergeIntoLast(&left, new) {
        left.append(new)
      }
      left.append(contentsOf: right)
      tree = left
      return
    }
    var (left, rest) = tree.split(_NewMetric.self, at: s, bias: .left, cuttingWith: cut)
    let (middle, right) = rest.split(_NewMetric.self, at: e - s, bias: .right, cuttingWith: cut)
    var items = ContiguousArray<_Section>()
    let all = Array(middle)
    for (i, item) in all.enumerated() {
      var pieces: [_Section] = []
      switch item.kind {
      case .deleted:
        pieces = [item]
      case .inserted:
        pieces = [_Section(kind: .inserted, old: 0, new: 0, insertions: item.insertions)]
        if n > 0 && forward && i == 0 { pieces.append(new) }
        if n > 0 && !forward && i == all.count - 1 { pieces.insert(new, at: 0) }
      case .kept:
        let gone = _Section(kind: .deleted, old: item.old, new: 0)
        pieces = [gone]
        if n > 0 && forward && i == 0 {
          pieces = [_Section(kind: .deleted, old: 1, new: 0), new]
          if item.old > 1 { pieces.append(_Section(kind: .deleted, old: item.old - 1, new: 0)) }
        } else if n > 0 && !forward && i == all.count - 1 {
          pieces = []
          if item.old > 1 { pieces.append(_Section(kind: .deleted, old: item.old - 1, new: 0)) }
          pieces += [new, _Section(kind: .deleted, old: 1, new: 0)]
        }
      }
      for piece in pieces { Self.appendMerging(&items, piece) }
    }
    var head = ContiguousArray<_Section>()
    if let first = items.first, Self.mergeIntoLast(&left, first) {
      head = ContiguousArray(items.dropFirst())
    } else {
      head = items
    }
    left.append(contentsOf: SummaryTree(head))
    left.append(contentsOf: right)
    tree = left
  }

  /// Deletes `a..<b` (current units) one section at a time, from the
  /// last: deleting a range in parts from its end maps every position as
  /// deleting it at once does, and each part falls inside one section.
  ///
  /// - Complexity: O(k log m) for the k sections the range meets.
  static func deleteAcrossSections(
    _ tree: inout SummaryTree<_Section>, _ a: Int, _ b: Int, forward: Bool
  ) {
    var end = b
    while end > a {
      // The section that holds unit `end - 1`.
      guard let found = tree.find(_NewMetric.self, end, bias: .left) else { return }
      let start = max(a, found.prefix.new)
      if start == end || !recordInPlace(&tree, start, end, 0, forward: forward) {
        // Not one section's units after all: the general way for the rest.
        record(&tree, a..<end, 0, forward: forward, general: true)
        return
      }
      end = start
    }
  }

  static func appendMerging(_ items: inout ContiguousArray<_Section>, _ section: _Section) {
    if let last = items.last, last.kind == section.kind, last.kind != .kept {
      items[items.count - 1].old += section.old
      items[items.count - 1].new += section.new
      items[items.count - 1].insertions += section.insertions
    } else {
      items.append(section)
    }
  }

  /// Adds `section` to the last item of `tree` if both are deleted or both
  /// inserted.
  static func mergeIntoLast(_ tree: inout SummaryTree<_Section>, _ section: _Section) -> Bool {
    let count = tree.summary.count
    guard count > 0, section.kind != .kept else { return false }
    let merged = tree.updateItem(_SectionCountMetric.self, at: count - 1, bias: .right) {
      (item: inout _Section, _) -> (Bool, TreeItemChange<_Section>) in
      guard item.kind == section.kind else { return (false, .keep) }
      item.old += section.old
      item.new += section.new
      item.insertions += section.insertions
      return (true, .keep)
    }
    return merged ?? false
  }
}

/// One section of a composed change: `old` units of the base version become
/// `new` units of the current text.
@usableFromInline
struct _Section: TreeItem, Sendable, Hashable {
  @usableFromInline
  enum Kind: UInt8, Sendable {
    /// Unchanged: `old == new`.
    case kept
    /// Deleted: `new == 0`.
    case deleted
    /// Inserted: `old == 0`; `insertions` counts the edits that inserted
    /// here, even if their text was deleted again.
    case inserted
  }
  @usableFromInline var kind: Kind
  @usableFromInline var old: Int
  @usableFromInline var new: Int
  @usableFromInline var insertions: Int

  init(kind: Kind, old: Int, new: Int, insertions: Int = 0) {
    self.kind = kind
    self.old = old
    self.new = new
    self.insertions = insertions
  }

  @usableFromInline
  var summary: _SectionSummary {
    _SectionSummary(
      count: 1, old: old, new: new, deletedOld: kind == .deleted ? old : 0,
      insertions: insertions)
  }
}

@usableFromInline
struct _SectionSummary: TreeSummary {
  @usableFromInline var count: Int
  @usableFromInline var old: Int
  @usableFromInline var new: Int
  @usableFromInline var deletedOld: Int
  @usableFromInline var insertions: Int

  @usableFromInline static let zero = _SectionSummary(
    count: 0, old: 0, new: 0, deletedOld: 0, insertions: 0)

  @usableFromInline
  static func + (lhs: Self, rhs: Self) -> Self {
    _SectionSummary(
      count: lhs.count + rhs.count, old: lhs.old + rhs.old, new: lhs.new + rhs.new,
      deletedOld: lhs.deletedOld + rhs.deletedOld, insertions: lhs.insertions + rhs.insertions)
  }

  @usableFromInline
  static func removing(_ part: Self, from total: Self) -> Self? {
    _SectionSummary(
      count: total.count - part.count, old: total.old - part.old, new: total.new - part.new,
      deletedOld: total.deletedOld - part.deletedOld,
      insertions: total.insertions - part.insertions)
  }
}

@usableFromInline
enum _OldMetric: TreeMetric {
  @usableFromInline static func measure(_ s: _SectionSummary) -> Int { s.old }
}

@usableFromInline
enum _NewMetric: TreeMetric {
  @usableFromInline static func measure(_ s: _SectionSummary) -> Int { s.new }
}

@usableFromInline
enum _SectionCountMetric: TreeMetric {
  @usableFromInline static func measure(_ s: _SectionSummary) -> Int { s.count }
}
