import DocumentEngine
import Foundation
import SummaryTrees
import TextRope

/// One request to the REPL, typed: what a line of the JSON protocol
/// (``init(jsonLine:)``) or of human mode (``init(words:contexts:)``) asks
/// for, before ``REPLEngine/run(_:)`` runs it. There is one case per `cmd`
/// of the protocol.
///
/// Offsets in a storage are in the command's `unit` (UTF-16 unless the
/// request says otherwise) and are checked against the text only when the
/// command runs. Offsets in a context are UTF-16, relative to the context's
/// text, as Writing Tools counts them.
public enum Command: Hashable, Sendable {
  /// `add`: a storage holding a text or a UTF-8 file's text, at the end or
  /// right after `after`, with the attributes of `attributes` (runs over
  /// the text, UTF-16); the reply gives its length in `unit`.
  case add(StorageID, Source, after: StorageID?, unit: TextUnit, attributes: [AttributeRun] = [])
  /// `remove`: removes a storage.
  case remove(StorageID)
  /// `storages`: every storage in document order, with lengths in `unit`.
  case storages(unit: TextUnit)
  /// `text`: a storage's text, or its part `range` (in `unit`), and with
  /// `attributes` the attribute runs of that text; with `tracked` (human
  /// mode's `show`, not a field of the protocol) the host's tracked ranges
  /// and the suggestions over it too.
  case text(
    StorageID, range: Range<Int>?, unit: TextUnit, attributes: Bool = false, tracked: Bool = false,
    format: ContextFormat? = nil)
  /// `edit`: the person's edit with its range in any unit, or an edit made
  /// elsewhere (with an origin or a basis) in UTF-16.
  case edit(DocumentEdit)
  /// `select`: sets the selection.
  case select(Selection, unit: TextUnit)
  /// `visible`: sets the visible range of each storage that shows one.
  case visible([StorageSpan], unit: TextUnit)
  /// `exclude`: excludes a range of a storage from Writing Tools.
  case exclude(StorageSpan, unit: TextUnit)
  /// `setAttributes`: sets attributes over a range of a storage (a `nil`
  /// value removes its key; other keys stay); no text changes.
  case setAttributes(StorageSpan, [AttributeKey: AttributeValue?], unit: TextUnit)
  /// `track`: tracks `ranges` of a storage (in `unit`) for the host, of
  /// kind `kind`, each following every later edit by `rules`.
  case track(StorageID, ranges: [Range<Int>], unit: TextUnit, kind: String, rules: TrackingRules)
  /// `tracked`: the host's tracked ranges of a storage, or those that
  /// overlap `range` (in `unit`; for an empty range, those that contain or
  /// touch the point), of kind `kind` if there is one.
  case tracked(StorageID, range: Range<Int>?, unit: TextUnit, kind: String?)
  /// `untrack`: stops tracking the host's ranges with these ids.
  case untrack([TrackedRangeID])
  /// `suggest`: a checker's suggestion over `range` (UTF-16) of a
  /// storage or of a live context's text (relative to it as it is now), of
  /// kind `kind`, with an explanation for the person and the candidates
  /// it proposes, in order.
  case suggest(
    ReviewTarget, range: Range<Int>, kind: SuggestionKind, explanation: String,
    candidates: [Replacement])
  /// `suggestions`: the suggestions of a storage (those overlapping
  /// `range`, if there is one), or those inside a live context with their
  /// ranges relative to its text; `range` goes with a storage only.
  case suggestions(ReviewTarget, range: Range<Int>? = nil)
  /// `preview`: puts a suggestion's candidate (by index) into the text
  /// for the person to see.
  case preview(SuggestionID, candidate: Int)
  /// `accept`: accepts a suggestion's candidate (the one named, else the
  /// previewed one, else the first).
  case accept(SuggestionID, candidate: Int?)
  /// `reject`: rejects a suggestion (its preview taken back); its kind
  /// and text are ignored from now on.
  case reject(SuggestionID)
  /// `contexts`: starts a session with the contexts of `scope`, ending any
  /// earlier one; the tool may give back what `resultOptions` allow. With
  /// a `format`, each context is also written in it (as Markdown).
  case contexts(
    ContextScope, surroundingParagraphs: Int, resultOptions: ResultOptions = .plainText,
    format: ContextFormat? = nil)
  /// `replace`: the tool replaces `range` of a context's text, as of
  /// context version `basis` (the current one if `nil`), with
  /// `replacement`: a text and the attribute runs it gives, if any, or
  /// Markdown (its attributes, too, filtered by the session's result
  /// options).
  case replace(
    context: UUID, range: Range<Int>, with: Replacement, basis: ContextVersion?,
    policy: ReplacementPolicy)
  /// `toolSelect`: the tool selects ranges of a context's text.
  case toolSelect(context: UUID, ranges: [Range<Int>])
  /// `state`: moves the session to a Writing Tools state.
  case state(WritingToolsState)
  /// `undo`: undoes the last group of the document's main history (the
  /// person's group of edits, a session's group of replacements or an
  /// accepted suggestion), or with an `origin` that origin's last group;
  /// the reply gives the selection after it in `unit`.
  case undo(origin: String? = nil, unit: TextUnit = .utf16)
  /// `redo`: redoes the last undone group of the main history, or of
  /// `origin`'s; the reply gives the selection after it in `unit`.
  case redo(origin: String? = nil, unit: TextUnit = .utf16)
  /// `closeGroup`: the person's (or `origin`'s) current undo group ends
  /// here: the next edit starts a new one.
  case closeGroup(origin: String? = nil)
  /// `revert`: puts back the text of every intact replacement of the
  /// session.
  case revert
  /// `end`: ends the session.
  case end
  /// `map`: where `offset` (UTF-16) of storage version `from` is now.
  case map(StorageID, offset: Int, from: StorageVersion, bias: Bias)
  /// `locate`: the storage and local offset (UTF-16) at a document offset.
  case locate(offset: Int)
  /// `paragraph`: the paragraph holding `offset` (in `unit`).
  case paragraph(StorageID, offset: Int, unit: TextUnit)
  /// `graphemes`: the grapheme cluster boundaries of a storage, or of its
  /// part `range` (in `unit`).
  case graphemes(StorageID, range: Range<Int>?, unit: TextUnit)
  /// `replay`: replays an editing trace (positions in scalars) into a new
  /// storage.
  case replay(path: String, storage: StorageID)
  /// `quit`: stops the REPL.
  case quit

  /// Where the text of an added storage comes from.
  public enum Source: Hashable, Sendable {
    /// The text itself.
    case text(String)
    /// Markdown, read as rich text with its source kept.
    case markdown(String)
    /// A UTF-8 file, read within the REPL's limits.
    case file(path: String)
  }

  /// What a `replace` puts in the place of its range, or a suggestion's
  /// candidate is.
  public enum Replacement: Hashable, Sendable {
    /// A text, with attribute runs relative to it if the tool gives any.
    case text(String, attributes: [AttributeRun]? = nil)
    /// GitHub-flavoured Markdown, read into a text and its attribute runs.
    case markdown(String)
  }

  /// What a review command is about: a storage, or a live context of the
  /// session (whose offsets are relative to its text).
  public enum ReviewTarget: Hashable, Sendable {
    /// A storage, its offsets UTF-16.
    case storage(StorageID)
    /// A live context, its offsets UTF-16 and relative to its text.
    case context(UUID)
  }

  /// A selection as a request gives it.
  public enum Selection: Hashable, Sendable {
    /// Ranges, each inside one storage.
    case ranges([StorageSpan])
    /// One range from a place in a storage to a place in the same or a
    /// later one (offsets in the command's unit until the engine converts
    /// them).
    case span(from: TextPosition, to: TextPosition)
  }

  /// The range `offset..<offset + length`, for a request that gives an
  /// offset and a length.
  ///
  /// - Throws: `outOfRange` if the length is negative or the end is past
  ///   `Int.max` (so the range can be made); whether it is inside a text is
  ///   for the document to say.
  static func range(offset: Int, length: Int) throws(REPLError) -> Range<Int> {
    guard length >= 0, offset <= Int.max - length else {
      throw REPLError("outOfRange", "offset \(offset) and length \(length) make no range")
    }
    return offset..<(offset + length)
  }

  /// The protocol's `assoc` as a bias: −1 is `.left`, 1 (the default)
  /// `.right`.
  ///
  /// - Throws: `badRequest` for any other number.
  static func bias(assoc: Int?) throws(REPLError) -> Bias {
    switch assoc {
    case -1: return .left
    case nil, 1: return .right
    default: throw .badRequest("'assoc' must be -1 or 1")
    }
  }

  /// The bias that `name` names: `left` or `right` (an empty tracked
  /// range's).
  ///
  /// - Throws: `badRequest` for any other name.
  static func bias(named name: String) throws(REPLError) -> Bias {
    switch name {
    case "left": return .left
    case "right": return .right
    default: throw .badRequest("unknown bias '\(name)' (left, right)")
    }
  }

  /// The value of an enumeration that `name` names, such as a scope or a
  /// state.
  ///
  /// - Throws: `badRequest`, listing the names there are.
  static func named<Value: CaseIterable & RawRepresentable<String>>(
    _ name: String, _ what: String
  ) throws(REPLError) -> Value {
    guard let value = Value(rawValue: name) else {
      let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
      throw .badRequest("unknown \(what) '\(name)' (\(names))")
    }
    return value
  }
}

/// A way to write a context besides its text and runs: what a `contexts`
/// request's `format` names.
public enum ContextFormat: String, CaseIterable, Hashable, Sendable {
  /// GitHub-flavoured Markdown (the context's `markdown`).
  case markdown
}

/// A range of a storage, in the unit of the command that names it.
public struct StorageSpan: Hashable, Sendable {
  /// The storage.
  public var storage: StorageID
  /// The range, not yet checked against the storage's text.
  public var range: Range<Int>

  /// A range of `storage`.
  public init(_ storage: StorageID, _ range: Range<Int>) {
    self.storage = storage
    self.range = range
  }
}
