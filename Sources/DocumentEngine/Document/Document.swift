import Foundation
import SummaryTrees
import Synchronization
import TextRope

/// A document that several threads share: every mutation is serialized
/// behind a lock, and every read works on an immutable snapshot
/// (``DocumentContent`` is a value; taking one costs O(1)).
public final class Document: @unchecked Sendable {
  private let lock = NSLock()
  /// Read and changed only with `lock` held, so it needs no run-time
  /// exclusivity checks.
  @exclusivity(unchecked) private var state: DocumentState

  /// An empty document.
  ///
  /// - Parameter keepsAllChanges: keep every edit of every storage, so that
  ///   ``map(_:in:from:bias:)`` and a `basis` may name any version since the
  ///   storage was added. Otherwise the change records are dropped once no
  ///   live context and no ``pin(_:version:)`` refers to them. (The undo
  ///   history is another thing: ``historyOptions``.)
  public init(keepsAllChanges: Bool = false) {
    state = DocumentState(keepsAllChanges: keepsAllChanges)
  }

  /// An empty document (the former name of ``init(keepsAllChanges:)``).
  @available(*, deprecated, renamed: "init(keepsAllChanges:)")
  public convenience init(keepsAllHistory: Bool) {
    self.init(keepsAllChanges: keepsAllHistory)
  }

  func withState<R, E: Error>(
    _ body: (inout DocumentState) throws(E) -> R
  ) throws(E) -> R {
    lock.lock()
    defer { lock.unlock() }
    state.closeTyping()
    return try body(&state)
  }

  /// `withState` for a call that only reads: the typing held back goes in
  /// the storage, and the typing run stays open (see ``_TypingBuffer``).
  func readingState<R>(_ body: (borrowing DocumentState) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    state.flushForRead()
    return body(state)
  }

  /// `withState` for a call that makes events: they go to every observer
  /// before the lock is let go, so observers hear them in the order the
  /// calls were made. `typingOn`: the person's edit, which may type on
  /// with the typing run (``DocumentState/edit(_:range:with:attributes:origin:basis:)``
  /// closes it otherwise); any other call closes it first.
  func withStateAndEvents<R: _EventfulResult>(
    typingOn: Bool = false, _ body: (inout DocumentState) throws(DocumentError) -> R
  ) throws(DocumentError) -> R {
    lock.lock()
    defer { lock.unlock() }
    if !typingOn { state.closeTyping() }
    let result = try body(&state)
    if isObserved { publish(result.published) }
    return result
  }

  /// Whether the person's typing is held back until something reads or
  /// changes the document (see `_TypingBuffer`; on unless a test or a
  /// benchmark compares with the usual path).
  @_spi(Benchmarks) public var buffersTyping: Bool {
    get { withState { $0.held.isEnabled } }
    set { withState { $0.held.isEnabled = newValue } }
  }

  // MARK: Observing

  /// Guards `observers` (taken inside `lock` when publishing, alone when an
  /// observer goes away).
  private let observersLock = NSLock()
  private var observers: [ObjectIdentifier: _ObserverBuffer] = [:]
  /// How many `observers` there are, readable without `observersLock`: a
  /// keystroke that nobody observes publishes without taking it.
  private let observerCount = Atomic<Int>(0)

  /// Every event that the live contexts hear from now on, whichever thread
  /// made the call (a sync peer's edit, the tool's replacements, undo), in
  /// the order of the calls: what a host's UI task listens to.
  ///
  /// ```swift
  /// let events = document.events()
  /// Task { @MainActor in
  ///   for await event in events {
  ///     if case .missed = event { reload() } else { apply(event) }   // e.g. tell Writing Tools
  ///   }
  /// }
  /// ```
  ///
  /// The stream buffers at most `limit` events that its reader has not
  /// taken; the events of a reader that falls further behind are counted,
  /// not kept, and it is told how many it missed (``DocumentEvent/missed(_:)``)
  /// once it has read the others. So an observer that stops reading costs
  /// the document at most `limit` events. The stream ends when the document
  /// goes away; a reader that stops (its task cancelled, or the stream and
  /// its iterator gone) stops being sent events.
  ///
  /// - Parameter limit: how many events to buffer at most (at least 1;
  ///   ``DocumentEvents/defaultLimit`` unless said).
  public func events(limit: Int = DocumentEvents.defaultLimit) -> DocumentEvents {
    let key = Box()
    let id = ObjectIdentifier(key)
    let forget: @Sendable () -> Void = { [weak self] in
      _ = key
      guard let self else { return }
      self.observersLock.lock()
      self.observers[id] = nil
      self.observerCount.store(self.observers.count, ordering: .sequentiallyConsistent)
      self.observersLock.unlock()
    }
    let buffer = _ObserverBuffer(limit: limit, onCancel: forget)
    observersLock.lock()
    observers[id] = buffer
    observerCount.store(observers.count, ordering: .sequentiallyConsistent)
    observersLock.unlock()
    return DocumentEvents(token: _ObserverToken(buffer: buffer, forget: forget))
  }

  /// An object whose identity names one observer while it lives.
  private final class Box: Sendable {}

  /// Whether anyone observes the document: a keystroke nobody observes
  /// makes no list of events to publish.
  private var isObserved: Bool { observerCount.load(ordering: .sequentiallyConsistent) != 0 }

  /// Sends `events` to every observer (with `lock` held).
  private func publish(_ events: [DocumentEvent]) {
    // An observer that `events()` returned before this call began is
    // counted (the count is stored before `events()` returns).
    if events.isEmpty || observerCount.load(ordering: .sequentiallyConsistent) == 0 { return }
    observersLock.lock()
    defer { observersLock.unlock() }
    for buffer in observers.values { buffer.send(events) }
  }

  deinit {
    for buffer in observers.values { buffer.finish() }
  }

  /// A snapshot of every storage.
  ///
  /// - Complexity: O(1)
  public var content: DocumentContent { readingState { $0.content } }

  /// The selection.
  public var selection: [SelectionRange] { readingState { $0.selection } }

  /// The visible range of each storage that shows one.
  public var visible: [StorageID: Range<Int>] { readingState { $0.visible } }

  /// The current session, as it was handed out, if contexts were asked
  /// for.
  public var session: WritingSession? { readingState { $0.handout } }

  /// The current session's state (`.inactive` without a session).
  public var writingToolsState: WritingToolsState {
    withState { $0.writingToolsState }
  }

  /// Adds a storage, with the attributes of its text and what it was read
  /// from (see ``DocumentContent/add(_:text:after:attributes:source:)``).
  public func add(
    _ id: StorageID, text: Rope, after: StorageID? = nil, attributes: [AttributeRun] = [],
    source: (any StorageSource)? = nil
  ) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      try state.add(id, text: text, after: after, attributes: attributes, source: source)
    }
  }

  /// Sets attributes over a range of a storage: each value sets its key
  /// there, `nil` removes the key; other keys stay. The text does not
  /// change and no version is made; the live contexts hear nothing (a
  /// context's attributes are those of its text when it was made).
  ///
  /// ```swift
  /// try document.setAttributes(
  ///   [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)],
  ///   in: "body", range: 4..<9)
  /// ```
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` or
  ///   ``DocumentError/invalidAttribute(_:reason:)``; nothing changes.
  public func setAttributes(
    _ attributes: [AttributeKey: AttributeValue?], in id: StorageID, range: Range<Int>
  ) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      try state.setAttributes(attributes, in: id, range: range)
    }
  }

  /// Removes a storage, with the parts of the selection and visible ranges
  /// in it; its contexts stop being live.
  public func remove(_ id: StorageID) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in try state.remove(id) }
  }

  /// Moves a storage (see ``DocumentContent/move(_:after:)``).
  public func move(_ id: StorageID, after: StorageID?) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in try state.move(id, after: after) }
  }

  /// Edits a storage: the person typing (no origin, no basis), or an edit
  /// made elsewhere on an older version.
  ///
  /// With an `origin`, the edit was made on the storage as of `basis` plus
  /// all of that origin's own later edits; it is transformed through the
  /// other edits since `basis` (two-party OT, as in Jupiter) and applied; it
  /// is never refused for a conflict. Without an origin but with a `basis`,
  /// it is transformed through every edit since `basis`. Concurrent
  /// insertions at one place go in ``EditParty`` order: no origin first, then
  /// origins in the byte order of their names. An empty range replaced by
  /// empty text is a no-op: its offset is checked, and it makes no version.
  ///
  /// The new text takes `attributes`; without them, those of the first unit
  /// it replaces, or for an insertion those of the unit before it, or at the
  /// start of the text those of the unit after it
  /// (`NSMutableAttributedString`'s rule). The Writing Tools exclusion keeps
  /// its own rule: new text is excluded only strictly inside an excluded
  /// run.
  ///
  /// ```swift
  /// try document.edit("body", range: 9..<9, with: "bold",
  ///   attributes: [.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)])
  /// ```
  ///
  /// - Parameters:
  ///   - id: the storage edited.
  ///   - range: the replaced range (UTF-16), in the editor's view.
  ///   - text: the new text.
  ///   - attributes: the attributes of the new text (`[:]`: none); `nil`
  ///     for those the rule above gives it.
  ///   - origin: who made it; `nil` for the person.
  ///   - basis: the storage version it was made on; the current one if
  ///     `nil`.
  /// - Returns: the new version, where the text landed, and the events of
  ///   the live contexts.
  /// - Throws: ``DocumentError/unknownStorage(_:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` (out of bounds of the view, or
  ///   splitting a surrogate pair where it lands),
  ///   ``DocumentError/staleVersion(_:)``,
  ///   ``DocumentError/invalidAttribute(_:reason:)``; nothing changes.
  /// - Complexity: O(log n) for a plain edit, plus O(k log r) for k keys of
  ///   attributes; O(k + u·o) for k edits since `basis`, u of them by others
  ///   and o by the origin.
  @discardableResult
  public func edit(
    _ id: StorageID, range: Range<Int>, with text: String,
    attributes: [AttributeKey: AttributeValue]? = nil, origin: String? = nil,
    basis: StorageVersion? = nil
  ) throws(DocumentError) -> EditResult {
    try withStateAndEvents(typingOn: true) { (state) throws(DocumentError) in
      try state.edit(
        id, range: range, with: text, attributes: attributes, origin: origin, basis: basis)
    }
  }

  /// The person's edit of a storage with the range in `unit`: UTF-8,
  /// UTF-16 or Unicode scalars (the unit of most editing traces). The range
  /// is converted in the storage's text under the same lock as the edit.
  ///
  /// ```swift
  /// try document.edit("body", range: 3..<4, in: .unicodeScalars, with: "é")
  /// ```
  ///
  /// - Returns: as ``edit(_:range:with:attributes:origin:basis:)``: where
  ///   the text landed in UTF-16 (``EditResult/range``) and in `unit`
  ///   (``EditResult/unitRange``).
  /// - Throws: ``DocumentError/unknownStorage(_:)``, or
  ///   ``DocumentError/invalidRange(_:_:)`` for a bound out of bounds or
  ///   inside a scalar (UTF-8) or a surrogate pair (UTF-16); nothing changes.
  /// - Complexity: O(log n) more than an edit in UTF-16.
  @discardableResult
  public func edit(
    _ id: StorageID, range: Range<Int>, in unit: TextUnit, with text: String,
    attributes: [AttributeKey: AttributeValue]? = nil
  ) throws(DocumentError) -> EditResult {
    try withStateAndEvents { (state) throws(DocumentError) in
      try state.edit(id, range: range, in: unit, with: text, attributes: attributes)
    }
  }

  /// Makes one edit as a batch would take it (see ``DocumentEdit``): the
  /// person's edit in any unit, or an origin's on an older version.
  ///
  /// - Returns: as ``edit(_:range:with:attributes:origin:basis:)``, with
  ///   ``EditResult/unitRange`` in the edit's unit.
  /// - Throws: as the edit it stands for; nothing changes.
  @discardableResult
  public func edit(_ edit: DocumentEdit) throws(DocumentError) -> EditResult {
    try withStateAndEvents { (state) throws(DocumentError) in try state.edit(edit) }
  }

  /// Applies a batch of edits in order, all or nothing: each edit's range is
  /// in the text as the edits before it in the batch left it (as if they
  /// were made one by one). If one is refused, none is made.
  ///
  /// ```swift
  /// try document.apply([
  ///   DocumentEdit("title", range: 0..<5, with: "Notes"),
  ///   DocumentEdit("body", range: 10..<10, in: .unicodeScalars, with: "🙂"),
  /// ])
  /// ```
  ///
  /// - Returns: each edit's result, in order; observers hear the events of
  ///   all of them once the batch is made.
  /// - Throws: ``DocumentError/batchRefused(index:_:)``, with the index of
  ///   the edit refused and why; nothing changes.
  /// - Complexity: the edits' own, plus a copy of the path each first edit
  ///   of a storage changes.
  @discardableResult
  public func apply(_ edits: [DocumentEdit]) throws(DocumentError) -> [EditResult] {
    try withStateAndEvents { (state) throws(DocumentError) in
      _Batch(results: try state.apply(edits))
    }.results
  }

  /// Marks a range of a storage excluded from Writing Tools
  /// (`excluded` true), or clears the mark.
  ///
  /// ```swift
  /// try document.setExcluded(true, in: "body", range: 40..<52)   // a code sample
  /// ```
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/invalidRange(_:_:)``; nothing changes.
  public func setExcluded(
    _ excluded: Bool, in id: StorageID, range: Range<Int>
  ) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      try state.setExcluded(excluded, in: id, range: range)
    }
  }

  /// Sets the selection, after checking every position.
  public func select(_ selection: [SelectionRange]) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in try state.select(selection) }
  }

  /// Sets the visible range of each storage that shows one.
  public func setVisible(_ visible: [StorageID: Range<Int>]) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in try state.setVisible(visible) }
  }

  /// Starts a session with the contexts for `scope` (see
  /// ``DocumentContent/contexts(for:selection:visible:surroundingParagraphs:)``),
  /// ending the previous one. The session starts `.inactive`.
  ///
  /// - Parameters:
  ///   - scope: which text to hand out.
  ///   - surroundingParagraphs: for `.userSelection`, how many more
  ///     paragraphs to include on each side.
  ///   - resultOptions: what kind of text the tool may give back (plain
  ///     text unless said otherwise); its replacements' attributes are
  ///     filtered by them (see ``ResultOptions``).
  public func startSession(
    scope: ContextScope, surroundingParagraphs: Int = 0,
    resultOptions: ResultOptions = .plainText
  ) throws(DocumentError) -> WritingSession {
    try withState { (state) throws(DocumentError) in
      try state.startSession(
        scope: scope, surroundingParagraphs: surroundingParagraphs, resultOptions: resultOptions)
    }
  }

  /// Whether `session` is the document's current session (not ended).
  public func isLive(_ session: WritingSession) -> Bool {
    withState { $0.handout?.id == session.id }
  }

  /// Ends the current session: its contexts stop being live, its marks go,
  /// and the history only it needed is dropped.
  public func endSession() {
    withState { $0.endSession() }
  }

  /// A live context as it is now: where its text is, its version and text.
  ///
  /// - Throws: ``DocumentError/noSession`` or
  ///   ``DocumentError/unknownContext(_:)``.
  public func liveContext(_ id: UUID) throws(DocumentError) -> LiveContext {
    try withState { (state) throws(DocumentError) in try state.liveContext(id) }
  }

  /// Replaces `range` of a context's text with `text`, for the session's
  /// tool.
  ///
  /// Without `basis` (or with the current context version) the range is
  /// relative to the context's current text: the original text with every
  /// earlier replacement and every reported edit in it. With an older
  /// `basis`, it is relative to the text of that context version plus the
  /// tool's own later replacements, and is transformed through the edits the
  /// tool had not seen. If one of those touched the range (see
  /// docs/DESIGN.md, "Replacements, edits and versions"), the replacement
  /// is refused as a conflict, unless `policy` is `.merge`.
  ///
  /// The text may come with `attributes` (runs relative to `text`), which
  /// the session's ``ResultOptions`` filter: under plain text they are
  /// ignored; with rich text the tool decides the inline presentation
  /// intents and links of its text, and with presentation intents the
  /// blocks it gives. Every other key, and every key of a plain-text
  /// replacement, follows the edit rule of
  /// ``edit(_:range:with:attributes:origin:basis:)``. Undo, redo and revert
  /// give back text and attributes exactly.
  ///
  /// - Throws: ``DocumentError/noSession``,
  ///   ``DocumentError/unknownContext(_:)``,
  ///   ``DocumentError/staleContextVersion(_:)``,
  ///   ``DocumentError/outsideContext(_:length:)``,
  ///   ``DocumentError/conflict(context:)``, ``DocumentError/excluded(_:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` (a surrogate pair split, or a
  ///   run past `text`), ``DocumentError/invalidAttribute(_:reason:)``,
  ///   ``DocumentError/overlappingRuns(_:)``; nothing changes.
  /// - Complexity: O(log n) without basis; O(log m) with the basis the
  ///   context was made at when the tool replaced nothing since; else O(k)
  ///   for k edits since the basis; in each case also O(R) for the
  ///   session's R replacements, which follow the edit.
  public func replace(
    context: UUID, range: Range<Int>, with text: String, attributes: [AttributeRun]? = nil,
    basis: ContextVersion? = nil, policy: ReplacementPolicy = .refuse
  ) throws(DocumentError) -> ReplacementResult {
    try withStateAndEvents { (state) throws(DocumentError) in
      try state.replace(
        context, range, text, attributes: attributes, basis: basis, policy: policy)
    }
  }

  /// Replaces `range` of a context's text with an attributed text, as
  /// ``replace(context:range:with:attributes:basis:policy:)`` does with its
  /// text and runs, and gives back what landed.
  ///
  /// - Returns: what the replacement did, and the attributed text that
  ///   landed: the storage's text and runs where the replacement is now
  ///   (the session's ``ResultOptions`` may have filtered the runs given,
  ///   and the edit rule given attributes to the rest).
  /// - Throws: what ``replace(context:range:with:attributes:basis:policy:)``
  ///   throws; nothing changes.
  @discardableResult
  public func replace(
    context: UUID, range: Range<Int>, with text: AttributedText,
    basis: ContextVersion? = nil, policy: ReplacementPolicy = .refuse
  ) throws(DocumentError) -> (result: ReplacementResult, text: AttributedText) {
    try replace(context: context, basis: basis, policy: policy) { _ in (range, text) }
  }

  /// Replaces a range of a context's text with an attributed text, as
  /// ``replace(context:range:with:basis:policy:)`` does, with the range
  /// and the text decided by `prepare` from the context as it is (under the
  /// same lock: no other call can change the context between what
  /// `prepare` reads and the replacement), and gives back what landed.
  /// What a converter that trims or completes its text against the
  /// context's (DocumentMarkdown's `replace(context:range:markdown:…)`)
  /// calls. `prepare` must not call the document.
  ///
  /// - Returns: what the replacement did, and the attributed text that
  ///   landed.
  /// - Throws: what `prepare` throws, and what
  ///   ``replace(context:range:with:attributes:basis:policy:)`` throws;
  ///   nothing changes.
  public func replace(
    context: UUID, basis: ContextVersion? = nil, policy: ReplacementPolicy = .refuse,
    preparing prepare: (LiveContext) throws(DocumentError) -> (
      range: Range<Int>, text: AttributedText
    )
  ) throws(DocumentError) -> (result: ReplacementResult, text: AttributedText) {
    let landed = try withStateAndEvents { (state) throws(DocumentError) in
      let prepared = try prepare(try state.liveContext(context))
      let result = try state.replace(
        context, prepared.range, prepared.text.text, attributes: prepared.text.runs,
        attributesAreMaximal: true, basis: basis, policy: policy)
      return _Landed(
        result: result, text: try state.attributedText(of: result.storage, in: result.storageRange))
    }
    return (landed.result, landed.text)
  }

  /// Selects ranges of a context's text (Writing Tools' `select`): sets the
  /// document's selection to the storage ranges they are now.
  ///
  /// - Throws: ``DocumentError/noSession``,
  ///   ``DocumentError/unknownContext(_:)``,
  ///   ``DocumentError/outsideContext(_:length:)``.
  @discardableResult
  public func toolSelect(
    context: UUID, ranges: [Range<Int>]
  ) throws(DocumentError) -> [SelectionRange] {
    try withState { (state) throws(DocumentError) in
      try state.toolSelect(context: context, ranges: ranges)
    }
  }

  /// Moves the session to `next` (see ``WritingToolsState/canMove(to:)``),
  /// the state ``writingToolsState`` reads. Leaving `.interactiveStreaming`
  /// closes the undo group of its replacements.
  ///
  /// - Throws: ``DocumentError/noSession`` or
  ///   ``DocumentError/invalidStateTransition(from:to:)``.
  public func setWritingToolsState(_ next: WritingToolsState) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in try state.setWritingToolsState(next) }
  }

  /// Undoes the last group of a history: without `origin`, the document's
  /// main history — the person's last group of edits, a Writing Tools
  /// session's last group of replacements (live or ended), or the last
  /// accepted suggestion (its original text and attributes back, unless
  /// someone has edited its text since); with `origin`, that origin's last
  /// group.
  ///
  /// The undo of a group of edits, or of a tool's, is selective (see the
  /// *History* article): the units it put in that are still there go, the
  /// units it removed come back with their attributes between the
  /// neighbours they had; what others did since stays. (A replacement of
  /// the live session that no one else touched swaps back in one edit of
  /// the session's. With the history not recording, undo swaps back only
  /// the live session's intact replacements.) The selection goes back where it
  /// was before the group. An edit like any other, with events (reason
  /// ``TextUpdateReason/undoRedo``). A streaming phase under way closes
  /// its group first; so does the person's open group.
  ///
  /// - Returns: how many edits it made, the events, and the selection.
  /// - Throws: ``DocumentError/nothingToUndo`` when the history has no
  ///   group to undo.
  @discardableResult
  public func undo(origin: String? = nil) throws(DocumentError) -> UndoResult {
    try withStateAndEvents { (state) throws(DocumentError) in try state.undoGroup(origin: origin) }
  }

  /// Redoes the last undone group of a history (the main one, or
  /// `origin`'s): what its undo took back comes back, by the same rule.
  /// The selection goes where it was after the group.
  ///
  /// - Returns: how many edits it made, the events, and the selection.
  /// - Throws: ``DocumentError/nothingToRedo`` when the history has no
  ///   group to redo.
  @discardableResult
  public func redo(origin: String? = nil) throws(DocumentError) -> UndoResult {
    try withStateAndEvents { (state) throws(DocumentError) in try state.redoGroup(origin: origin) }
  }

  /// Ends the person's (or `origin`'s) open undo group: the next edit
  /// starts a new one, wherever it is.
  public func closeGroup(origin: String? = nil) {
    withState { state in state.closeGroup(origin: origin) }
  }

  /// How the person's edits are grouped and how much history is kept.
  /// Lowering a limit drops the oldest groups at once.
  public var historyOptions: HistoryOptions {
    get { withState { $0.history.options } }
    set { withState { state in state.setHistoryOptions(newValue) } }
  }

  /// What the histories keep, in bytes: the text their groups would put
  /// back, and a fixed cost for each group and for each range or point it
  /// follows.
  public var historyBytes: Int { withState { $0.history.bytes } }

  /// How many groups the histories keep (undone ones included).
  public var historyGroupCount: Int { withState { $0.history.groupCount } }

  /// Reverts the session: every replacement it made that is still intact
  /// goes back to its original text; the person's edits stay. The
  /// session's groups in the history keep nothing of what went back (their
  /// undo does nothing), and the redo history is cleared.
  ///
  /// - Returns: how many replacements went back, and the events.
  /// - Throws: ``DocumentError/noSession``.
  @discardableResult
  public func revert() throws(DocumentError) -> UndoResult {
    try withStateAndEvents { (state) throws(DocumentError) in try state.revert() }
  }

  /// Marks ranges of a context's text to hide (during an animation) or
  /// underline (proofreading suggestions); they are mapped to storage
  /// ranges and kept mapped through later edits.
  ///
  /// - Throws: ``DocumentError/noSession``,
  ///   ``DocumentError/unknownContext(_:)``,
  ///   ``DocumentError/outsideContext(_:length:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` (a surrogate pair split).
  @discardableResult
  public func mark(
    context: UUID, ranges: [Range<Int>], as kind: MarkKind
  ) throws(DocumentError) -> [Mark] {
    try withState { (state) throws(DocumentError) in
      try state.mark(context: context, ranges: ranges, as: kind)
    }
  }

  /// Removes the marks with these ids; an id that names no mark is passed
  /// over.
  public func removeMarks(_ ids: Set<Int>) {
    withState { $0.removeMarks(ids) }
  }

  /// Removes every mark of the session.
  public func removeAllMarks() {
    withState { $0.removeAllMarks() }
  }

  /// The session's marks, where they are now.
  public var marks: [Mark] { withState { $0.marks } }

  // MARK: Tracked ranges

  /// Tracks ranges of a storage for the host — spelling underlines,
  /// comments, search hits, bookmarks, diagnostics: each follows every
  /// later edit, whoever makes it, by `rules`, and the edits' results name
  /// those whose text they touched or that they removed (see the *Tracked
  /// ranges* article).
  ///
  /// ```swift
  /// let underline = try document.track(
  ///   [40..<43], in: "body", kind: "spelling", rules: TrackingRules(onTouch: .remove))[0]
  /// let comment = try document.track(
  ///   [10..<25], in: "body", kind: "comment", rules: TrackingRules(expand: .after))[0]
  /// ```
  ///
  /// - Returns: their ids, in the order given.
  /// - Throws: ``DocumentError/unknownStorage(_:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` or
  ///   ``DocumentError/tooManyTrackedRanges``; nothing is tracked then.
  /// - Complexity: O(m log n) for m ranges among n, or O(n + m log m) when
  ///   many are added at once.
  @discardableResult
  public func track(
    _ ranges: [Range<Int>], in id: StorageID, kind: String = "host",
    rules: TrackingRules = TrackingRules()
  ) throws(DocumentError) -> [TrackedRangeID] {
    try withState { (state) throws(DocumentError) in
      try state.track(ranges, in: id, kind: kind, rules: rules)
    }
  }

  /// Stops tracking the host's ranges with these ids.
  ///
  /// - Throws: ``DocumentError/unknownTrackedRange(_:)`` for an id that
  ///   names none (never given, removed, or of a removed storage); nothing
  ///   is removed then.
  /// - Complexity: O(m log n) for m ids among n ranges.
  public func untrack(_ ids: [TrackedRangeID]) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in try state.untrack(ids) }
  }

  /// The host's tracked ranges of a storage that overlap `range` (all for
  /// `nil`), of kind `kind` (any for `nil`), in position order: what a view
  /// draws for its visible area (see
  /// ``DocumentContent/trackedRanges(in:overlapping:kind:)``).
  ///
  /// - Complexity: O(log n + k log k) for k returned.
  public func trackedRanges(
    in id: StorageID, overlapping range: Range<Int>? = nil, kind: String? = nil
  ) throws(DocumentError) -> [TrackedRange] {
    try withState { (state) throws(DocumentError) in
      try state.trackedRanges(in: id, overlapping: range, kind: kind)
    }
  }

  /// The host's tracked range with this id, where it is now.
  ///
  /// - Throws: ``DocumentError/unknownTrackedRange(_:)``.
  /// - Complexity: O(log n)
  public func trackedRange(_ id: TrackedRangeID) throws(DocumentError) -> TrackedRange {
    try withState { (state) throws(DocumentError) in try state.trackedRange(id) }
  }

  /// Where `offset` of storage `id` at `version` is now, by ProseMirror's
  /// sequential rule, and whether the unit on the `bias` side was deleted
  /// since (see ``ChangeMap``).
  ///
  /// ```swift
  /// let caret = try document.map(120, in: "body", from: sent)   // after text typed at 120
  /// let anchor = try document.map(120, in: "body", from: sent, bias: .left)
  /// ```
  ///
  /// - Parameters:
  ///   - offset: a position (UTF-16) in the storage's text at `version`.
  ///   - id: the storage.
  ///   - version: the storage version the offset belongs to.
  ///   - bias: where the position goes if text was inserted right at it:
  ///     `.right` (the default) after the new text, `.left` before it.
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/staleVersion(_:)``; an offset past the text of that
  ///   version is ``DocumentError/invalidRange(_:_:)``.
  /// - Complexity: O(log m) from a pinned version or a recently mapped one;
  ///   else O(k log k) for the k edits since.
  public func map(
    _ offset: Int, in id: StorageID, from version: StorageVersion, bias: Bias = .right
  ) throws(DocumentError) -> MappedOffset {
    try withState { (state) throws(DocumentError) in
      try state.map(offset, in: id, from: version, bias: bias)
    }
  }

  /// Whether any edit since `version` touched `range` (of that version) of
  /// storage `id`: deleted or replaced a unit in it, or inserted strictly
  /// inside it (the conflict rule of tool replacements).
  ///
  /// ```swift
  /// if try document.isTouched(120..<130, in: "body", since: sent) { … }
  /// ```
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/staleVersion(_:)``; a range past the text of that
  ///   version is ``DocumentError/invalidRange(_:_:)``.
  public func isTouched(
    _ range: Range<Int>, in id: StorageID, since version: StorageVersion
  ) throws(DocumentError) -> Bool {
    try withState { (state) throws(DocumentError) in
      try state.isTouched(range, in: id, since: version)
    }
  }

  /// Keeps the history of storage `id` since `version` until
  /// ``unpin(_:version:)``: mapping from it, transforming edits made on it,
  /// stay possible. The first mapping from it composes a map that is then
  /// kept up to date (O(log m) per mapping and per edit).
  public func pin(_ id: StorageID, version: StorageVersion) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in try state.pin(id, version: version) }
  }

  /// Undoes one ``pin(_:version:)``. A version this caller did not pin
  /// (one a session keeps for its contexts) is left alone.
  public func unpin(_ id: StorageID, version: StorageVersion) {
    withState { $0.unpin(id, version: version) }
  }
}

/// A result that carries the events a call made, for observers: the
/// contexts' events, then the host's tracked ranges it touched or removed.
protocol _EventfulResult {
  var published: [DocumentEvent] { get }
}

extension DocumentEvent {
  /// `events`, and a ``tracked(_:)`` event after them when `tracked` names
  /// any range.
  static func published(_ events: [DocumentEvent], _ tracked: TrackedChanges) -> [DocumentEvent] {
    tracked.isEmpty ? events : events + [.tracked(tracked)]
  }
}

extension EditResult: _EventfulResult {
  var published: [DocumentEvent] { DocumentEvent.published(events, tracked) }
}
extension ReplacementResult: _EventfulResult {
  var published: [DocumentEvent] { DocumentEvent.published(events, tracked) }
}
extension UndoResult: _EventfulResult {
  var published: [DocumentEvent] { DocumentEvent.published(events, tracked) }
}

/// A replacement and what landed.
struct _Landed: _EventfulResult {
  var result: ReplacementResult
  var text: AttributedText
  var published: [DocumentEvent] { result.published }
}

/// The results of a batch of edits.
struct _Batch: _EventfulResult {
  var results: [EditResult]
  var published: [DocumentEvent] { results.flatMap(\.published) }
}
