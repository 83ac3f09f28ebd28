/// What ``Document/undo(origin:)``, ``Document/redo(origin:)`` or ``Document/revert()``
/// did: how many of the session's replacements (or accepted suggestions)
/// swapped their text, and what the live contexts heard.
public struct UndoResult: Hashable, Sendable {
  /// How many edits it made: for a group taken back by the history's
  /// selective rule, one a piece of text put back and one a run of units
  /// taken out; for a replacement swapped whole (the live session's, an
  /// accepted suggestion's, revert), one a replacement.
  public var replacementCount: Int
  /// What the live contexts heard, in order.
  public var events: [DocumentEvent]
  /// The host's tracked ranges that the swaps touched and removed.
  public var tracked: TrackedChanges
  /// The selection after it: for the person's group, where it was before
  /// the group (undo) or after it (redo).
  public var selection: [SelectionRange] = []
  /// The host's tracked ranges it brought back where they were (ranges
  /// the group's edits collapsed or removed, whose text came back), in
  /// order: a host redraws them.
  public var restored: [TrackedRangeID] = []

  /// A result, as undo, redo and revert give it.
  public init(
    replacementCount: Int, events: [DocumentEvent], tracked: TrackedChanges = TrackedChanges()
  ) {
    self.tracked = tracked
    self.replacementCount = replacementCount
    self.events = events
  }
}

extension UndoResult {
  /// Nothing swapped.
  init() { self.init(replacementCount: 0, events: []) }
}
