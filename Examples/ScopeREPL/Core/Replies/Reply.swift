import DocumentEngine
import TextRope

/// What a command did, typed: what ``REPLEngine/run(_:)`` returns, before
/// one of its two writers makes it a line of the protocol (``json``) or text
/// for a person (``text(numbering:)``).
///
/// Offsets in a storage are in the command's unit; offsets in a context, and
/// the storage ranges of a session's replies, are UTF-16.
public enum Reply: Sendable {
  /// Done, with nothing to tell: `remove`, `select`, `visible`, `exclude`.
  case ok
  /// `add`: the new storage.
  case added(StorageInfo)
  /// `storages`: every storage in document order.
  case storages([StorageInfo])
  /// `text`: a storage's text, or part of it, and the storage's version;
  /// with the attribute runs of that text (UTF-16, relative to it) if they
  /// were asked for, and the host's tracked ranges and the suggestions
  /// over it (UTF-16, cut to it and relative to it) for `show`.
  case text(
    String, version: StorageVersion, attributes: [AttributeRun]? = nil,
    tracked: [TrackedRange]? = nil, suggestions: [Suggestion]? = nil)
  /// `text` with `"format": "markdown"`: the storage (or its part) as
  /// Markdown, and its version.
  case markdown(String, version: StorageVersion)
  /// `edit`: the storage's version after the edit, where the new text
  /// landed, what the live contexts heard, and the host's tracked ranges
  /// it touched or removed.
  case edited(
    StorageID, version: StorageVersion, range: Range<Int>, events: [DocumentEvent],
    tracked: TrackedChanges = TrackedChanges())
  /// `track`: the ranges (in the command's unit) of a storage now tracked,
  /// and their ids, in the order given.
  case tracking(StorageID, ranges: [Range<Int>], ids: [TrackedRangeID])
  /// `tracked`: the host's tracked ranges of a storage, in position order.
  case trackedRanges(StorageID, [TrackedRangeInfo])
  /// `untrack`: these ids no longer track anything.
  case untracked([TrackedRangeID])
  /// `setAttributes`: the attributes of `range` (in the command's unit) of
  /// a storage were set; its version did not change.
  case attributesSet(StorageID, range: Range<Int>, version: StorageVersion)
  /// `suggest`: the new suggestion, where it is in its storage.
  case suggested(SuggestionInfo)
  /// `suggestions`: those of a storage or of a context, in order (in a
  /// context, each with its `contextRange`).
  case suggestions(Command.ReviewTarget, [SuggestionInfo])
  /// `preview`, `accept` or `reject` (the result's reason says which) of
  /// a suggestion: what changed, and the text now at the result's
  /// `storageRange` (for people).
  case reviewed(SuggestionID, SuggestionResult, text: String)
  /// `contexts`: the new session's contexts, in document order, each also
  /// written in `format` if there is one.
  case contexts([WritingContext], format: ContextFormat? = nil)
  /// `replace`: where the replacement landed, and the text that landed
  /// when the tool gave Markdown (read into that text and its runs).
  case replaced(ReplacementResult, text: String? = nil)
  /// `toolSelect`: the selection the tool's ranges made (each range
  /// inside one storage).
  case toolSelected([SelectionRange])
  /// `state`: the session's new state.
  case state(WritingToolsState)
  /// `undo`: how many edits it made, what the live contexts heard, the
  /// tracked ranges it touched and removed, and the selection after it
  /// (each range inside one storage, in the command's unit). With nothing
  /// to undo there is no reply but the `nothingToUndo` error.
  case undone(UndoResult)
  /// `redo`: as `undone`.
  case redone(UndoResult)
  /// `closeGroup`: the person's undo group, or `origin`'s, ended.
  case groupClosed(origin: String?)
  /// `revert`: how many replacements went back, and the events.
  case reverted(UndoResult)
  /// `end`: the session ended.
  case ended
  /// `map`: where `offset` of version `from` is now.
  case mapped(offset: Int, from: StorageVersion, to: MappedOffset)
  /// `locate`: the storage and local offset at a document offset.
  case located(offset: Int, at: TextPosition)
  /// `paragraph`: the paragraph's range (its separator included) and where
  /// its contents end.
  case paragraph(Range<Int>, contentsEnd: Int)
  /// `graphemes`: the boundaries, the range's ends included.
  case graphemes([Int])
  /// `replay`: the edits made into the new storage, how long they took, and
  /// whether the final text is the trace's.
  case replayed(StorageID, edits: Int, seconds: Double, matches: Bool)
  /// `quit`: the REPL stops reading.
  case quit
}

/// A storage as `add` and `storages` tell it.
public struct StorageInfo: Sendable {
  /// Its id.
  public var id: StorageID
  /// Its length, in the command's unit.
  public var length: Int
  /// Its version.
  public var version: StorageVersion
  /// Its text (a snapshot).
  public var text: Rope
  /// The ranges excluded from Writing Tools (UTF-16).
  public var excluded: [Range<Int>]

  /// A storage's id, length in `unit`, version, text and exclusions.
  public init(_ storage: TextStorage, unit: TextUnit) {
    id = storage.id
    length = storage.text.count(in: unit)
    version = storage.version
    text = storage.text
    excluded = storage.excludedRanges
  }
}

/// A host's tracked range as `tracked` tells it: where it is now, and its
/// text for people.
public struct TrackedRangeInfo: Sendable {
  /// Its id, kind and rules, and its range in the command's unit.
  public var range: TrackedRange
  /// Its text.
  public var text: Rope

  /// A tracked range (its range in the command's unit) and its text.
  public init(_ range: TrackedRange, text: Rope) {
    self.range = range
    self.text = text
  }
}

/// A suggestion as `suggest` and `suggestions` tell it: where it is now,
/// and its text for people.
public struct SuggestionInfo: Sendable {
  /// The suggestion; its `contextRange` set when it was asked for in a
  /// context.
  public var suggestion: Suggestion
  /// Its text now (while a candidate is previewed, the candidate's).
  public var text: Rope

  /// A suggestion and its text.
  public init(_ suggestion: Suggestion, text: Rope) {
    self.suggestion = suggestion
    self.text = text
  }
}
