import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A copy of part of one storage handed to a writing tool, with the part the
/// tool should work on: what `NSWritingToolsCoordinator.Context` holds.
///
/// The text is a rope snapshot of the storage: making a context copies no
/// text.
public struct WritingContext: Sendable, Identifiable {
  /// A fresh identifier.
  public internal(set) var id: UUID
  /// The storage it was cut from.
  public let storage: StorageID
  /// Where in the storage (UTF-16) its text was cut from.
  public let storageRange: Range<Int>
  /// The storage's version at that moment.
  public let version: StorageVersion
  /// The text: paragraphs of the storage, a snapshot.
  public let text: Rope
  /// The part of `text` the tool should act on (the selection, or a caret as
  /// an empty range), relative to `text`.
  public let range: Range<Int>
  /// The ranges of `text` excluded from Writing Tools, relative to `text`.
  public let excluded: [Range<Int>]
  /// The attributes of `text` (rich text), as maximal runs of every key,
  /// relative to `text`: what the host puts into the context's attributed
  /// string.
  public let attributes: [AttributeRun]
  /// The part of `text` the tool says it will consider; the whole text until
  /// the tool narrows it.
  public var resolvedRange: Range<Int>
  /// Bumped by one by each change of the context's text; 0 at the start.
  public let contextVersion: ContextVersion
}
