/// A suggestion's id: the id of the tracked range that holds its text, in
/// the same space as the host's tracked ranges (an edit's
/// ``TrackedChanges`` names both).
public typealias SuggestionID = TrackedRangeID

/// What a suggestion is about: one of the usual kinds, or the host's own.
public struct SuggestionKind: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  public var rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { rawValue = value }

  /// A misspelled word.
  public static let spelling = SuggestionKind(rawValue: "spelling")
  /// A grammar issue (Writing Tools' proofreading, a grammar checker).
  public static let grammar = SuggestionKind(rawValue: "grammar")
  /// A matter of style (a reviewer's, a language model's).
  public static let style = SuggestionKind(rawValue: "style")

  public var description: String { rawValue }
}

/// One change a suggestion proposes: plain text, or text with attribute
/// runs (relative to `text`).
public struct SuggestionCandidate: Hashable, Sendable {
  /// The text that would replace the suggestion's text.
  public var text: String
  /// Its attributes: `nil` for plain text, which takes those of the text
  /// it replaces by the edit rule (see
  /// ``Document/edit(_:range:with:attributes:origin:basis:)``); else
  /// exactly these runs.
  public var attributes: [AttributeRun]?

  public init(_ text: String, attributes: [AttributeRun]? = nil) {
    self.text = text
    self.attributes = attributes
  }

  /// A candidate of exactly this attributed text (its runs, and no
  /// attributes where it has none).
  public init(_ text: AttributedText) {
    self.init(text.text, attributes: text.runs)
  }

  /// The candidate as an attributed text: `nil` for plain text (whose
  /// attributes the edit rule gives where it lands).
  public var attributedText: AttributedText? {
    attributes.map { AttributedText(unchecked: text, runs: $0) }
  }
}

/// A checker's finding for the person to review: where it is now, what it
/// is about, and the changes it proposes (see the *Review* article).
public struct Suggestion: Hashable, Sendable, Identifiable {
  public var id: SuggestionID
  /// The storage it is in.
  public var storage: StorageID
  /// Where its text is now in the storage (UTF-16); while a candidate is
  /// previewed, the candidate's text.
  public var range: Range<Int>
  /// Where its text is in the context asked about
  /// (``Document/suggestions(inContext:)``), relative to the context's
  /// text as it is now; `nil` from the other queries.
  public var contextRange: Range<Int>?
  public var kind: SuggestionKind
  /// A short explanation for the person ("Possible spelling mistake").
  public var explanation: String
  public var candidates: [SuggestionCandidate]
  /// The candidate in the text now (a preview), if one is.
  public var previewed: Int?

  /// A suggestion, as the document's queries give it.
  public init(
    id: SuggestionID, storage: StorageID, range: Range<Int>, contextRange: Range<Int>? = nil,
    kind: SuggestionKind, explanation: String, candidates: [SuggestionCandidate],
    previewed: Int? = nil
  ) {
    self.id = id
    self.storage = storage
    self.range = range
    self.contextRange = contextRange
    self.kind = kind
    self.explanation = explanation
    self.candidates = candidates
    self.previewed = previewed
  }
}

/// A suggestion a checker proposes (see
/// ``Document/suggest(_:in:)``): the range of the storage it is about,
/// and what it proposes.
public struct ProposedSuggestion: Hashable, Sendable {
  /// The range it is about (UTF-16, in the storage or context it is
  /// added to).
  public var range: Range<Int>
  public var kind: SuggestionKind
  public var explanation: String
  public var candidates: [SuggestionCandidate]

  public init(
    _ range: Range<Int>, kind: SuggestionKind, explanation: String = "",
    candidates: [SuggestionCandidate] = []
  ) {
    self.range = range
    self.kind = kind
    self.explanation = explanation
    self.candidates = candidates
  }
}

/// What ``Document/preview(_:candidate:)``, ``Document/accept(_:candidate:)``
/// or ``Document/reject(_:)`` did.
public struct SuggestionResult: Hashable, Sendable {
  /// The suggestion's storage.
  public var storage: StorageID
  /// Where the text it changed is now: the candidate's (preview, accept),
  /// or the original's (reject).
  public var storageRange: Range<Int>
  /// Apple's reason: ``TextReplacementReason/temporary``,
  /// ``TextReplacementReason/accepted`` or ``TextReplacementReason/rejected``;
  /// its events carry the same.
  public var reason: TextReplacementReason
  /// What the live contexts heard, in order.
  public var events: [DocumentEvent]
  /// The host's tracked ranges and the other suggestions that the change
  /// touched and removed.
  public var tracked: TrackedChanges

  public init(
    storage: StorageID, storageRange: Range<Int>, reason: TextReplacementReason,
    events: [DocumentEvent], tracked: TrackedChanges = TrackedChanges()
  ) {
    self.storage = storage
    self.storageRange = storageRange
    self.reason = reason
    self.events = events
    self.tracked = tracked
  }
}
