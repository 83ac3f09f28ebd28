import TextRope

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

/// One edit of a batch (see ``Document/apply(_:)``): the person's edit of a
/// range in UTF-16 or another unit, or an edit of an origin on an older
/// version.
public struct DocumentEdit: Hashable, Sendable {
  /// The storage edited.
  public var storage: StorageID
  /// The replaced range, in ``unit``.
  public var range: Range<Int>
  /// The unit of ``range``.
  public private(set) var unit: TextUnit
  /// The new text.
  public var text: String
  /// Who made it (`nil` for the person); only for an edit in UTF-16.
  public private(set) var origin: String?
  /// The storage version it was made on (`nil` for the current one); only
  /// for an edit in UTF-16.
  public private(set) var basis: StorageVersion?

  /// An edit of `range` (UTF-16), as ``Document/edit(_:range:with:origin:basis:)``
  /// takes it.
  public init(
    _ storage: StorageID, range: Range<Int>, with text: String, origin: String? = nil,
    basis: StorageVersion? = nil
  ) {
    self.storage = storage
    self.range = range
    self.unit = .utf16
    self.text = text
    self.origin = origin
    self.basis = basis
  }

  /// The person's edit of `range` in `unit`, as
  /// ``Document/edit(_:range:in:with:)`` takes it.
  public init(_ storage: StorageID, range: Range<Int>, in unit: TextUnit, with text: String) {
    self.storage = storage
    self.range = range
    self.unit = unit
    self.text = text
  }
}

/// What an edit did.
public struct EditResult: Hashable, Sendable {
  /// The storage's version after the edit (after its last piece, if
  /// transformation split it).
  public var version: StorageVersion
  /// Where the new text landed, in current coordinates.
  public var range: Range<Int>
  /// What the live contexts heard, in order.
  public var events: [DocumentEvent]

  /// A result, as an edit gives it.
  public init(version: StorageVersion, range: Range<Int>, events: [DocumentEvent]) {
    self.version = version
    self.range = range
    self.events = events
  }
}

/// What to do with a tool replacement that an edit it had not seen touched.
public enum ReplacementPolicy: String, Hashable, Sendable, CaseIterable {
  /// Refuse it with ``DocumentError/conflict(context:)``: the person's text
  /// wins.
  case refuse
  /// Apply it anyway, transformed through the edits it had not seen.
  case merge
}

/// Where a tool replacement landed.
public struct ReplacementResult: Hashable, Sendable {
  /// The storage it was applied to.
  public var storage: StorageID
  /// Where its text is now, in the storage (UTF-16).
  public var storageRange: Range<Int>
  /// The context's version after it.
  public var contextVersion: ContextVersion
  /// What the other live contexts heard (the replaced context hears nothing:
  /// the replacement is its own change).
  public var events: [DocumentEvent]

  /// A result, as a replacement gives it.
  public init(
    storage: StorageID, storageRange: Range<Int>, contextVersion: ContextVersion,
    events: [DocumentEvent]
  ) {
    self.storage = storage
    self.storageRange = storageRange
    self.contextVersion = contextVersion
    self.events = events
  }
}

/// The states of a Writing Tools session (Apple's
/// `NSWritingToolsCoordinator.State`).
public enum WritingToolsState: String, Hashable, Sendable, CaseIterable {
  /// Writing Tools is not acting on the text.
  case inactive
  /// Writing Tools works in its own panel; the text changes only when the
  /// person accepts.
  case noninteractive
  /// Writing Tools works in the text, waiting.
  case interactiveResting
  /// Writing Tools is streaming replacements into the text.
  case interactiveStreaming

  /// Whether a session may go from this state to `next`: inactive →
  /// noninteractive | interactiveResting ⇄ interactiveStreaming, and back to
  /// inactive from any. Staying in a state is allowed.
  public func canMove(to next: Self) -> Bool {
    if next == self || next == .inactive { return true }
    switch self {
    case .inactive: return next == .noninteractive || next == .interactiveResting
    case .noninteractive: return false
    case .interactiveResting: return next == .interactiveStreaming
    case .interactiveStreaming: return next == .interactiveResting
    }
  }
}

/// How the host shows a range a writing tool marked.
public enum MarkKind: Hashable, Sendable {
  /// Hidden while an animation plays over it.
  case hidden
  /// Underlined as a proofreading suggestion (the label says which).
  case underline(String)
}

/// A range a writing tool asked the host to hide or underline, mapped to its
/// storage and kept mapped through later edits.
public struct Mark: Hashable, Sendable, Identifiable {
  /// A number unique in the session.
  public var id: Int
  /// The storage.
  public var storage: StorageID
  /// Where it is now (UTF-16).
  public var range: Range<Int>
  /// How to show it.
  public var kind: MarkKind
}

/// A live context as it is now.
public struct LiveContext: Sendable, Identifiable {
  /// The context's identifier.
  public var id: UUID
  /// The storage.
  public var storage: StorageID
  /// Where its text is now in the storage (UTF-16).
  public var storageRange: Range<Int>
  /// Its version: 0 when made, one more for each change of its text.
  public var contextVersion: ContextVersion
  /// Its text now (a rope snapshot).
  public var text: Rope
}

/// One Writing Tools operation: the contexts handed out for a scope. Asking
/// the document for contexts again ends the previous session.
public struct WritingSession: Sendable, Identifiable {
  /// A fresh identifier.
  public let id: UUID
  /// The scope the contexts were made for.
  public let scope: ContextScope
  /// The contexts, in document order.
  public let contexts: [WritingContext]
}

/// What ``Document/revert()`` did.
public struct RevertResult: Hashable, Sendable {
  /// How many replacements went back to their original text.
  public var reverted: Int
  /// What the live contexts heard, in order.
  public var events: [DocumentEvent]

  /// A result, as a revert gives it.
  public init(reverted: Int, events: [DocumentEvent]) {
    self.reverted = reverted
    self.events = events
  }
}
