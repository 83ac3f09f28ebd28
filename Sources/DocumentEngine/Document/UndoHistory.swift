/// One entry of the document's undo history.
enum _UndoGroup: Sendable {
  /// A group of the session's replacements, by index.
  case replacements([Int])
  /// An accepted suggestion (its index in ``DocumentState/accepted``).
  case accepted(Int)
  /// A group of the person's edits, or its undo (an action of
  /// ``DocumentState/recorded``).
  case group(Int)
}

/// The document's main undo and redo stacks: the person's groups, the
/// session's groups of replacements and the accepted suggestions, in order.
struct _UndoHistory: Sendable {
  var undo: [_UndoGroup] = []
  var redo: [_UndoGroup] = []

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
