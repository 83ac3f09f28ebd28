/// Why text changed that the tool did not change itself, as Writing Tools'
/// `NSWritingToolsCoordinator.TextUpdateReason` says it: what the host
/// passes to `updateRange(_:with:reason:forContextWithIdentifier:)`.
public enum TextUpdateReason: String, Hashable, Sendable, CaseIterable {
  /// The person typed, or a peer's edit landed.
  case typing
  /// Undo or redo (and a session's revert) changed it.
  case undoRedo
}

/// Why a tool's replacement changed text, as Writing Tools'
/// `NSWritingToolsCoordinator.TextReplacementReason` says it.
public enum TextReplacementReason: String, Hashable, Sendable, CaseIterable {
  /// A replacement of an interactive session (the tool's panel is open).
  case interactive
  /// A replacement of a noninteractive session.
  case noninteractive
  /// A suggestion's candidate put in so that the person sees it (a
  /// preview: no undo entry).
  case temporary
  /// A suggestion accepted (one undo group).
  case accepted
  /// A suggestion rejected: its preview taken back.
  case rejected
}

/// Why a change happened, as an event carries it: an update the tool did
/// not make, or one of the tool's (or a reviewed suggestion's)
/// replacements.
public enum ChangeReason: Hashable, Sendable {
  /// The person, a peer, or undo and redo.
  case update(TextUpdateReason)
  /// A tool's replacement, or a suggestion's preview, accept or reject.
  case replacement(TextReplacementReason)

  /// Its name, as Apple spells the case (`typing`, `interactive`…).
  public var name: String {
    switch self {
    case .update(let reason): reason.rawValue
    case .replacement(let reason): reason.rawValue
    }
  }

  /// The person's or a peer's edit.
  public static let typing = ChangeReason.update(.typing)
  /// Undo, redo or revert.
  public static let undoRedo = ChangeReason.update(.undoRedo)
}
