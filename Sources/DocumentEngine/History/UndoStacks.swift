/// One entry of the document's undo history.
enum _UndoGroup: Sendable {
  /// A group of the session's replacements, by index.
  case replacements([Int])
  /// An accepted suggestion (its index in ``DocumentState/accepted``).
  case accepted(Int)
  /// A group of the person's edits, or its undo (an action of
  /// ``DocumentState/history``).
  case group(Int)
  /// The person's groups with the consecutive ids of `run`, the oldest
  /// first: typing in one storage after another is one entry, not one a
  /// group (``_UndoStacks/pushGroup(_:)``).
  case groups(Range<Int>)

  /// The actions of a person's group or run of groups, oldest first.
  var actions: Range<Int> {
    switch self {
    case .group(let a): a..<(a + 1)
    case .groups(let run): run
    case .replacements, .accepted: 0..<0
    }
  }
}

/// The document's main undo and redo stacks: the person's groups, the
/// session's groups of replacements and the accepted suggestions, in order.
///
/// The run of the person's groups on top of the undo stack is kept out of
/// the array, as two integers (``topRun``): a group the person opens
/// extends it without touching the array (every few keystrokes a group
/// opens). ``undo`` is the whole stack, the run on top.
struct _UndoStacks: Sendable {
  /// The undo stack below ``topRun``, from ``head`` on: the history's
  /// limit drops its oldest groups from the front, which moves `head`
  /// (the entries before it are gone; the array is compacted when they
  /// are half of it, or when the stack is changed through ``undo``).
  private var below: [_UndoGroup] = []
  private var head = 0
  /// The run of the person's groups on top of the undo stack, consecutive
  /// ids, the oldest first; empty when the top is not such a run.
  private var topRun = 0..<0
  /// The redo stack, the oldest first.
  var redo: [_UndoGroup] = []

  /// The undo stack, the oldest first (the run on top as its entry).
  /// Reading it makes a new array while a run is on top (the history
  /// changes it through `_modify`, which puts the run in the array first).
  var undo: [_UndoGroup] {
    get {
      let stack = Array(below[head...])
      return topRun.isEmpty ? stack : stack + [Self.entry(topRun)]
    }
    _modify {
      compact()
      settle()
      yield &below
    }
  }

  /// The oldest person's group on the undo stack.
  var firstUndoGroup: Int? { Self.firstGroup(below[head...]) ?? topRun.first }

  /// Removes person's group `a` from the undo stack: in O(1) when it is
  /// the first entry's oldest group (the history's limit drops the oldest
  /// group each time a new one comes past it).
  mutating func removeUndoGroup(_ a: Int) {
    if head < below.count {
      let run = below[head].actions
      if run.count == 1 && run.lowerBound == a {
        head += 1
        if head >= 64 && head * 2 >= below.count { compact() }
        return
      }
      if run.count > 1 && run.lowerBound == a {
        below[head] = run.count == 2 ? .group(a + 1) : .groups((a + 1)..<run.upperBound)
        return
      }
    }
    Self.remove(a, from: &undo)
  }

  /// Drops the entries before ``head`` from the array.
  private mutating func compact() {
    guard head > 0 else { return }
    below.removeFirst(head)
    head = 0
  }

  /// Pushes a person's group on the undo stack: it extends the run on top
  /// if its id comes next.
  @inline(__always)
  mutating func pushGroup(_ a: Int) {
    if !topRun.isEmpty && topRun.upperBound == a {
      topRun = topRun.lowerBound..<(a &+ 1)
    } else {
      pushNewRun(a)
    }
  }

  /// Pushes `a` as a new run on top (a group after anything else).
  private mutating func pushNewRun(_ a: Int) {
    settle()
    // The array's top may be a run `a` comes after (put there by an undo
    // or a redo): it becomes the run on top.
    switch below.count > head ? below.last : nil {
    case .groups(let run) where run.upperBound == a:
      below.removeLast()
      topRun = run.lowerBound..<(a &+ 1)
    case .group(let b) where b &+ 1 == a:
      below.removeLast()
      topRun = b..<(a &+ 1)
    default:
      topRun = a..<(a &+ 1)
    }
  }

  /// Puts the run on top in the array.
  private mutating func settle() {
    guard !topRun.isEmpty else { return }
    below.append(Self.entry(topRun))
    topRun = 0..<0
  }

  /// A run as an entry of a stack (one group as `.group`).
  private static func entry(_ run: Range<Int>) -> _UndoGroup {
    run.count == 1 ? .group(run.lowerBound) : .groups(run)
  }

  /// Pops the top of `stack`: the last group of a run (the rest stays).
  static func pop(_ stack: inout [_UndoGroup]) -> _UndoGroup? {
    guard let top = stack.popLast() else { return nil }
    guard case .groups(let run) = top, run.count > 1 else {
      if case .groups(let run) = top, let only = run.first { return .group(only) }
      return top
    }
    let last = run.upperBound - 1
    stack.append(run.count == 2 ? .group(run.lowerBound) : .groups(run.lowerBound..<last))
    return .group(last)
  }

  /// The oldest person's group of `stack`.
  static func firstGroup(_ stack: some Collection<_UndoGroup>) -> Int? {
    stack.lazy.compactMap { $0.actions.first }.first
  }

  /// Removes person's group `a` from `stack` (from its run, if it is in
  /// one).
  static func remove(_ a: Int, from stack: inout [_UndoGroup]) {
    guard let i = stack.firstIndex(where: { $0.actions.contains(a) }) else { return }
    let run = stack[i].actions
    if run.count == 1 {
      stack.remove(at: i)
    } else if a == run.lowerBound {
      stack[i] = run.count == 2 ? .group(a + 1) : .groups((a + 1)..<run.upperBound)
    } else if a == run.upperBound - 1 {
      stack[i] = run.count == 2 ? .group(run.lowerBound) : .groups(run.lowerBound..<a)
    } else {
      stack.replaceSubrange(
        i...i, with: [.groups(run.lowerBound..<a), .groups((a + 1)..<run.upperBound)])
    }
  }

  /// Drops the groups of the session that ended.
  mutating func forgetSession() {
    func isSession(_ group: _UndoGroup) -> Bool {
      if case .replacements = group { return true }
      return false
    }
    undo.removeAll(where: isSession)
    redo.removeAll(where: isSession)
  }
}
