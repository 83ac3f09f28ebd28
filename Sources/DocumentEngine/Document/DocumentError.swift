import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why the document refused a request; a refused request changes nothing.
///
/// Each payload is in one coordinate space, said for each case: storage
/// offsets are UTF-16 offsets in the storage's current text (unless a
/// `RopeError` says another unit), context ranges are relative to the
/// context's text. ``description`` reads as a sentence.
public enum DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No storage has this id.
  case unknownStorage(StorageID)
  /// A storage with this id exists already.
  case duplicateStorage(StorageID)
  /// An offset or range is not valid in the storage's text: out of bounds,
  /// or inside a scalar or surrogate pair. The `RopeError` gives the
  /// offset and its unit.
  case invalidRange(StorageID, RopeError)
  /// No context of the current session has this id.
  case unknownContext(UUID)
  /// There is no session (none was started, or it ended).
  case noSession
  /// A range, relative to the context's text, runs past that text (of the
  /// context version it was made on), whose length is `length`.
  case outsideContext(Range<Int>, length: Int)
  /// An edit the writer had not seen touched the range: the person's text
  /// wins and nothing changed.
  case conflict(context: UUID)
  /// The range, in the storage, touches text excluded from Writing Tools.
  case excluded(Range<Int>)
  /// The storage version is not known: newer than the text, or older than
  /// the history kept.
  case staleVersion(StorageVersion)
  /// The context version is not one the context has been at: newer than the
  /// context, or negative.
  case staleContextVersion(ContextVersion)
  /// The session cannot go from one state to the other.
  case invalidStateTransition(from: WritingToolsState, to: WritingToolsState)
  /// A count that must not be negative was (the number of surrounding
  /// paragraphs of a context).
  case negativeCount(Int)
  /// An attribute's value is not one its key takes (a well-known key with
  /// a value of another kind, a host key with a value that is not a
  /// string, an integer or a Boolean), or is not well formed (an empty set
  /// of inline intents, a header of level 7): `reason` says which.
  case invalidAttribute(AttributeKey, reason: String)
  /// Attribute runs given with a text are out of order or overlap: `range`
  /// is the first run that starts before the previous one ends.
  case overlappingRuns(Range<Int>)
  /// No tracked range has this id (it was never given, was removed, or its
  /// storage was).
  case unknownTrackedRange(TrackedRangeID)
  /// The document cannot track more: over 2^32 tracked ranges were added
  /// to one storage, over 2^31 live there, over 65,535 kinds named in one
  /// storage, or over 2^21 storages added in the document's life.
  case tooManyTrackedRanges
  /// No suggestion has this id (never made, or gone: accepted, rejected,
  /// or its text touched).
  case unknownSuggestion(SuggestionID)
  /// The person rejected a suggestion of this kind over this text before
  /// (it is ignored for the document).
  case ignoredSuggestion(kind: SuggestionKind, text: String)
  /// The suggestion has no candidate with this index (it has `count`).
  case invalidCandidate(Int, count: Int)
  /// The edit at `index` of a batch was refused, for the reason given; no
  /// edit of the batch was made.
  /// There is no group to undo in the history asked for.
  case nothingToUndo
  /// There is no group to redo in the history asked for.
  case nothingToRedo
  indirect case batchRefused(index: Int, DocumentError)

  public var description: String {
    switch self {
    case .unknownStorage(let id): "no storage is named '\(id)'"
    case .duplicateStorage(let id): "a storage named '\(id)' exists already"
    case .invalidRange(let id, let error): "in storage '\(id)': \(error)"
    case .unknownContext(let id): "no context of the current session has the id \(id)"
    case .noSession: "there is no Writing Tools session"
    case .outsideContext(let range, let length):
      "the range \(range.lowerBound)..<\(range.upperBound) is not within the context's text of "
        + "\(length) UTF-16 units"
    case .conflict(let context):
      "an edit the tool had not seen touched the range in context \(context); the person's "
        + "text stays"
    case .excluded(let range):
      "the storage range \(range.lowerBound)..<\(range.upperBound) touches text excluded "
        + "from Writing Tools"
    case .staleVersion(let version):
      "storage version \(version) is not known: newer than the text, or older than the "
        + "history kept"
    case .staleContextVersion(let version):
      "context version \(version) is not a version the context has been at"
    case .invalidStateTransition(let from, let to):
      "a session cannot go from \(from.rawValue) to \(to.rawValue)"
    case .negativeCount(let count): "the count \(count) is negative"
    case .invalidAttribute(let key, let reason): "the attribute '\(key)' is not valid: \(reason)"
    case .overlappingRuns(let range):
      "the attribute run \(range.lowerBound)..<\(range.upperBound) starts before the run "
        + "before it ends"
    case .unknownTrackedRange(let id): "no tracked range has the id \(id)"
    case .tooManyTrackedRanges: "the document tracks as many ranges or storages as it can"
    case .unknownSuggestion(let id): "no suggestion has the id \(id)"
    case .ignoredSuggestion(let kind, let text):
      "a \(kind) suggestion over \"\(text)\" was rejected before and is ignored"
    case .invalidCandidate(let index, let count):
      "the suggestion has no candidate \(index) (it has \(count))"
    case .nothingToUndo: "there is nothing to undo"
    case .nothingToRedo: "there is nothing to redo"
    case .batchRefused(let index, let error): "edit \(index) of the batch was refused: \(error)"
    }
  }
}
