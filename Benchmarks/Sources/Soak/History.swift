import DocumentEngine

// The history's task (issue 46): a second document, with the history
// recording, whose storages one task owns. Every group it makes is undone
// and redone right after (or left undone) and checked against the model:
// the person's groups (the main stack), a peer's (its own stack), a tool's
// replacement after its session ended (the main stack, selectively), and a
// host's tracked range over the text an edit removes, which the undo puts
// back where it was (and names in `restored`), and a suggestion previewed
// then rejected (the text as it was) or accepted (one group, undone and
// redone). Nothing else edits these
// storages, so each undo is the exact inverse of the group it takes back.

extension Worker {
  /// One step of the history's task.
  func historyStep(_ k: Int) throws {
    switch random.int(0...999) {
    case 0..<300: try undoRoundTrip(k, origin: nil)
    case 300..<450: try undoRoundTrip(k, origin: "hpeer")
    case 450..<500 where options.runs(.session): try toolUndoAfterSession(k)
    case 500..<600: try suggestionRoundTrip(k)
    default: _ = try personEdit(k, near: nil)
    }
  }

  /// An edit of `origin`'s (the person's for nil) in a group of its own,
  /// maybe with a host's range tracked over what it removes; then undo
  /// (the text and the range back), and redo (the edit again) or not.
  func undoRoundTrip(_ k: Int, origin: String?) throws {
    let id = slots[k].id
    document.closeGroup(origin: origin)
    // A range over the edit's place: its ends where the edit may remove
    // their units.
    let count = slots[k].model.count
    let at = slots[k].model.boundary(random.int(0...count))
    var tracked: (id: TrackedRangeID, range: Range<Int>)? = nil
    if random.percent(50) {
      let lower = slots[k].model.boundary(max(0, at - random.int(0...8)))
      let upper = max(lower, slots[k].model.boundary(min(count, at + random.int(0...8))))
      let ids = try call(.track, "track \(id) \(lower)..<\(upper)") {
        try document.track([lower..<upper], in: id, kind: "soak")
      }
      tracked = (ids[0], lower..<upper)
    }
    let before = slots[k].model
    let step = try personEdit(k, near: at..<at, origin: origin)
    document.closeGroup(origin: origin)
    defer {
      if let tracked { _ = try? document.untrack([tracked.id]) }
    }
    guard let step else { return }
    let after = slots[k].model
    let undone = try call(.undo, "undo of \(origin ?? "the person")'s edit \(step)") {
      try document.undo(origin: origin)
    }
    slots[k].model = before
    slots[k].version = try storage(k).version.rawValue
    try spotCheck(k, step.s..<(step.s + step.e - step.s), "after undoing \(step)")
    if let tracked {
      let now = try call(.trackedRange, "trackedRange after undo") {
        try document.trackedRange(tracked.id)
      }
      guard now.range == tracked.range else {
        throw failure(
          "after undoing \(step): the tracked range \(tracked.range) is at \(now.range)")
      }
      // An undo names the ranges it put back: those the edit collapsed or
      // removed (a range whose text it removed whole).
      let inside = step.s <= tracked.range.lowerBound && tracked.range.upperBound <= step.e
      if inside && !tracked.range.isEmpty && !undone.restored.contains(tracked.id) {
        throw failure(
          "after undoing \(step): the tracked range \(tracked.range) came back, unnamed"
            + " (restored: \(undone.restored))")
      }
    }
    guard random.percent(70) else { return }
    _ = try call(.redo, "redo of \(step)") { try document.redo(origin: origin) }
    slots[k].model = after
    slots[k].version = try storage(k).version.rawValue
    try spotCheck(k, step.s..<(step.s + step.n), "after redoing \(step)")
  }

  /// A tool's replacement of a few units, in a session that ends; then
  /// the person's undo takes it back (the last group of the main stack)
  /// and redo makes it again.
  func toolUndoAfterSession(_ k: Int) throws {
    let id = slots[k].id
    document.closeGroup()
    let count = slots[k].model.count
    guard count > 2 else { return }
    let lower = slots[k].model.boundary(random.int(0...(count - 1)))
    let upper = max(lower, slots[k].model.boundary(min(count, lower + random.int(1...6))))
    try call(.select, "select \(id) \(lower)..<\(upper)") {
      try document.select([SelectionRange(id, lower..<upper)])
    }
    let session = try call(.startSession, "startSession") {
      try document.startSession(scope: .userSelection)
    }
    guard let context = session.contexts.first(where: { $0.storage == id }) else {
      document.endSession()
      return
    }
    let start = context.storageRange.lowerBound
    let (text, units) = makeEditText(pieces: 1, random: &random)
    let range = (lower - start)..<(upper - start)
    let before = slots[k].model
    let (outcome, elapsed) = try attempt {
      try document.replace(context: context.id, range: range, with: text)
    }
    document.endSession()
    tally.add(.endSession, 0)
    switch outcome {
    case .failure(let error):
      tally.add(.toolRefused, elapsed)
      refused("replace", error)
      return
    case .success:
      tally.add(.toolReplace, elapsed)
    }
    slots[k].model.replaceSubrange(lower..<upper, with: units)
    slots[k].version = try storage(k).version.rawValue
    let after = slots[k].model
    try spotCheck(k, lower..<(lower + units.count), "after the tool's replacement")
    try undoAndRedo(
      k, "the tool's replacement after its session", before: (before, lower..<upper),
      after: (after, lower..<(lower + units.count)))
  }

  /// A suggestion over a few units: previewed then rejected (nothing
  /// changed), or accepted (its candidate in place), then undone (the
  /// text as it was) and redone.
  func suggestionRoundTrip(_ k: Int) throws {
    let id = slots[k].id
    document.closeGroup()
    let count = slots[k].model.count
    guard count > 2 else { return }
    let lower = slots[k].model.boundary(random.int(0...(count - 1)))
    let upper = max(lower, slots[k].model.boundary(min(count, lower + random.int(1...8))))
    let (text, units) = makeEditText(pieces: 1, random: &random)
    serial += 1
    let kind = SuggestionKind(rawValue: "soak\(serial)")
    let ids = try call(.suggest, "suggest \(id) \(lower)..<\(upper)") {
      try document.suggest(
        [ProposedSuggestion(lower..<upper, kind: kind, candidates: [SuggestionCandidate(text)])],
        in: id)
    }
    guard let suggestion = ids.first else { throw failure("suggest gave no id") }
    let before = slots[k].model
    if random.percent(30) {
      _ = try call(.preview, "preview") { try document.preview(suggestion, candidate: 0) }
      _ = try call(.reject, "reject") { try document.reject(suggestion) }
      slots[k].version = try storage(k).version.rawValue
      try spotCheck(k, lower..<upper, "after a previewed suggestion was rejected")
      return
    }
    _ = try call(.accept, "accept") { try document.accept(suggestion) }
    slots[k].model.replaceSubrange(lower..<upper, with: units)
    slots[k].version = try storage(k).version.rawValue
    let after = slots[k].model
    try spotCheck(k, lower..<(lower + units.count), "after accepting a suggestion")
    try undoAndRedo(
      k, "an accepted suggestion", before: (before, lower..<upper),
      after: (after, lower..<(lower + units.count)))
  }

  /// The person's undo of the last group, which gives back `before`'s text
  /// (checked around its range), then redo, which gives back `after`'s.
  func undoAndRedo(
    _ k: Int, _ what: String, before: ([UInt16], Range<Int>), after: ([UInt16], Range<Int>)
  ) throws {
    _ = try call(.undo, "undo of \(what)") { try document.undo() }
    slots[k].model = before.0
    slots[k].version = try storage(k).version.rawValue
    try spotCheck(k, before.1, "after undoing \(what)")
    _ = try call(.redo, "redo of \(what)") { try document.redo() }
    slots[k].model = after.0
    slots[k].version = try storage(k).version.rawValue
    try spotCheck(k, after.1, "after redoing \(what)")
  }
}
