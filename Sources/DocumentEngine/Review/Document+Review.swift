#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Suggestions and review

extension Document {
  /// Adds a checker's suggestions over ranges of a storage, all or none:
  /// each is a tracked range that an edit touching its text removes (the
  /// edit's result names it), with its kind, explanation and candidates. A
  /// suggestion belongs to no session: a checker runs whether Writing Tools
  /// is active or not.
  ///
  /// ```swift
  /// let id = try document.suggest(
  ///   [ProposedSuggestion(40..<43, kind: .spelling, explanation: "Possible spelling mistake",
  ///     candidates: [SuggestionCandidate("the")])],
  ///   in: "body")[0]
  /// ```
  ///
  /// - Returns: their ids, in the order given.
  /// - Throws: ``DocumentError/unknownStorage(_:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` (a range out of bounds or with
  ///   an end inside a surrogate pair, or a candidate's run),
  ///   ``DocumentError/invalidAttribute(_:reason:)``,
  ///   ``DocumentError/overlappingRuns(_:)``,
  ///   ``DocumentError/ignoredSuggestion(kind:text:)`` (the person rejected
  ///   the same kind over the same text), or
  ///   ``DocumentError/tooManyTrackedRanges``; nothing is added then.
  /// - Complexity: O(m log n) for m suggestions among n, or
  ///   O(n + m log m) when many are added at once.
  @discardableResult
  public func suggest(
    _ suggestions: [ProposedSuggestion], in id: StorageID
  ) throws(DocumentError) -> [SuggestionID] {
    try withState { (state) throws(DocumentError) in try state.suggest(suggestions, in: id) }
  }

  /// Adds suggestions over ranges of a live context's text, relative to
  /// it as it is now (what a tool's proofreading finds in the context it
  /// was given); they are kept as ranges of the context's storage and
  /// outlive the session.
  ///
  /// - Throws: ``DocumentError/noSession``,
  ///   ``DocumentError/unknownContext(_:)``,
  ///   ``DocumentError/outsideContext(_:length:)``, and those of
  ///   ``suggest(_:in:)``; nothing is added then.
  @discardableResult
  public func suggest(
    _ suggestions: [ProposedSuggestion], inContext context: UUID
  ) throws(DocumentError) -> [SuggestionID] {
    try withState { (state) throws(DocumentError) in
      try state.suggest(suggestions, inContext: context)
    }
  }

  /// The suggestion with this id, where it is now.
  ///
  /// - Throws: ``DocumentError/unknownSuggestion(_:)``.
  public func suggestion(_ id: SuggestionID) throws(DocumentError) -> Suggestion {
    try withState { (state) throws(DocumentError) in try state.suggestion(id) }
  }

  /// The suggestions of a storage that overlap `range` (all for `nil`), in
  /// position order (equal starts by id): what a view underlines. The
  /// overlap rule is ``trackedRanges(in:overlapping:kind:)``'s.
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/invalidRange(_:_:)``.
  /// - Complexity: O(log n + k log k) for k returned.
  public func suggestions(
    in id: StorageID, overlapping range: Range<Int>? = nil
  ) throws(DocumentError) -> [Suggestion] {
    try withState { (state) throws(DocumentError) in
      try state.suggestions(in: id, overlapping: range)
    }
  }

  /// The suggestions inside a live context, in order, each with
  /// ``Suggestion/contextRange`` relative to the context's text as it is
  /// now: what the delegate answers to Writing Tools'
  /// `requestsGrammarResultsFor` (as `NSTextCheckingResult`s).
  ///
  /// - Throws: ``DocumentError/noSession`` or
  ///   ``DocumentError/unknownContext(_:)``.
  /// - Complexity: O(log n + k log k) for k returned.
  public func suggestions(inContext context: UUID) throws(DocumentError) -> [Suggestion] {
    try withState { (state) throws(DocumentError) in try state.suggestions(inContext: context) }
  }

  /// Puts a candidate into the text so that the person sees it (Apple's
  /// `temporary`): no undo entry, and the suggestion keeps what it replaced,
  /// text and attributes. One preview at a time: a preview under way (of
  /// this suggestion or another) is taken back first. The person typing
  /// inside it keeps what they see: the preview becomes their text and the
  /// suggestion is gone.
  ///
  /// - Returns: where the candidate is, the events (reason `temporary`).
  /// - Throws: ``DocumentError/unknownSuggestion(_:)`` or
  ///   ``DocumentError/invalidCandidate(_:count:)``; nothing changes.
  @discardableResult
  public func preview(
    _ id: SuggestionID, candidate: Int
  ) throws(DocumentError) -> SuggestionResult {
    try withStateAndEvents { (state) throws(DocumentError) in
      try state.preview(id, candidate: candidate)
    }
  }

  /// Accepts a candidate (the one named, else the previewed one, else the
  /// first): it replaces the suggestion's text as one undo group of the
  /// person's (``undo(origin:)`` takes it back by the history's selective
  /// rule, whatever was typed since), and the suggestion is gone.
  ///
  /// - Returns: where the candidate is, the events (reason `accepted`).
  /// - Throws: ``DocumentError/unknownSuggestion(_:)`` or
  ///   ``DocumentError/invalidCandidate(_:count:)``; nothing changes.
  @discardableResult
  public func accept(
    _ id: SuggestionID, candidate: Int? = nil
  ) throws(DocumentError) -> SuggestionResult {
    try withStateAndEvents { (state) throws(DocumentError) in
      try state.accept(id, candidate: candidate)
    }
  }

  /// Rejects a suggestion: its preview, if there is one, is taken back
  /// (text and attributes exactly as they were), the suggestion is gone,
  /// and its kind and text are ignored for the document from now on (a
  /// later ``suggest(_:in:)`` of the same is refused), as Writing Tools'
  /// `ignoreGrammarRange` and a spelling checker's `ignoreWord` do.
  ///
  /// - Returns: where the suggestion's text is, the events (reason
  ///   `rejected`).
  /// - Throws: ``DocumentError/unknownSuggestion(_:)``; nothing changes.
  @discardableResult
  public func reject(_ id: SuggestionID) throws(DocumentError) -> SuggestionResult {
    try withStateAndEvents { (state) throws(DocumentError) in try state.reject(id) }
  }
}

extension SuggestionResult: _EventfulResult {
  var published: [DocumentEvent] { DocumentEvent.published(events, tracked) }
}
