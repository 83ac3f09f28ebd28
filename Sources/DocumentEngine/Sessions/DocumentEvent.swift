#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the host hears after an edit: about a live context of the edited
/// storage, what it passes to Writing Tools' `updateRange(_:with:reason:forContextWithIdentifier:)`
/// or `updateForReflowedTextInContextWithIdentifier(_:)`; about its own
/// tracked ranges, those the edit touched or removed.
public enum DocumentEvent: Hashable, Sendable {
  /// Text inside the context changed: `range` (relative to the context text
  /// before the edit) now holds `text`; the context is now at
  /// `contextVersion`. `reason` says why (see *Reasons* in the *Sessions*
  /// article): ``ChangeReason/typing`` for the person's or a peer's edit,
  /// ``ChangeReason/undoRedo`` for undo, redo and revert, a
  /// ``TextReplacementReason`` for another tool's replacement or a
  /// suggestion's preview, accept or reject.
  case textUpdated(
    context: UUID, range: Range<Int>, text: String, contextVersion: ContextVersion,
    reason: ChangeReason = .typing)
  /// An edit before the context moved it; its text is unchanged, and is now
  /// at `storageRange` of its storage (UTF-16).
  case reflowed(context: UUID, storageRange: Range<Int>)
  /// The host's tracked ranges that an edit touched (kept) or removed (see
  /// the *Tracked ranges* article): what a checker looks at again. Only
  /// ``Document/events(limit:)`` observers hear it, after the contexts' events of
  /// the same call; the call's result says the same in its `tracked`.
  case tracked(TrackedChanges)
  /// The observer fell behind: this many events were not buffered for it
  /// (see ``Document/events(limit:)``); what it knows of the document may
  /// be stale, so it reads it afresh. It comes after the events it did
  /// get, and before those that came after the gap.
  case missed(Int)

  /// The context the event is about (`nil` for ``tracked(_:)`` and
  /// ``missed(_:)``).
  public var context: UUID? {
    switch self {
    case .textUpdated(let context, _, _, _, _), .reflowed(let context, _): context
    case .tracked, .missed: nil
    }
  }
}
