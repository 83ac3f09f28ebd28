#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the host hears about a live context after an edit of its storage:
/// what it passes to Writing Tools' `updateRange(_:with:reason:forContextWithIdentifier:)`
/// or `updateForReflowedTextInContextWithIdentifier(_:)`.
public enum DocumentEvent: Hashable, Sendable {
  /// Text inside the context changed: `range` (relative to the context text
  /// before the edit) now holds `text`; the context is now at
  /// `contextVersion`.
  case textUpdated(
    context: UUID, range: Range<Int>, text: String, contextVersion: ContextVersion)
  /// An edit before the context moved it; its text is unchanged, and is now
  /// at `storageRange` of its storage (UTF-16).
  case reflowed(context: UUID, storageRange: Range<Int>)

  /// The context the event is about.
  public var context: UUID {
    switch self {
    case .textUpdated(let context, _, _, _), .reflowed(let context, _): context
    }
  }
}
