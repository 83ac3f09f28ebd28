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
  /// `contextVersion`.
  case textUpdated(
    context: UUID, range: Range<Int>, text: String, contextVersion: ContextVersion)
  /// An edit before the context moved it; its text is unchanged, and is now
  /// at `storageRange` of its storage (UTF-16).
  case reflowed(context: UUID, storageRange: Range<Int>)
  /// The host's tracked ranges that an edit touched (kept) or removed (see
  /// the *Tracked ranges* article): what a checker looks at again. Only
  /// ``Document/events()`` observers hear it, after the contexts' events of
  /// the same call; the call's result says the same in its `tracked`.
  case tracked(TrackedChanges)

  /// The context the event is about (`nil` for ``tracked(_:)``).
  public var context: UUID? {
    switch self {
    case .textUpdated(let context, _, _, _), .reflowed(let context, _): context
    case .tracked: nil
    }
  }
}
