import Foundation
import TextRope

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

/// A document that several threads share: every mutation is serialized
/// behind a lock, and every read works on an immutable snapshot
/// (``DocumentContent`` is a value; taking one costs O(1)).
public final class Document: @unchecked Sendable {
  struct State {
    var content = DocumentContent()
    var selection: [SelectionRange] = []
    var visible: [StorageID: Range<Int>] = [:]
    var session: _SessionState? = nil
    var sessionCount = 0
    var keepsAllHistory = false
  }

  private let lock = NSLock()
  private var state = State()

  /// An empty document.
  ///
  /// - Parameter keepsAllHistory: keep every edit of every storage, so that
  ///   ``map(_:_:from:assoc:)`` and a `basis` may name any version since the
  ///   storage was added. Otherwise the history is dropped once no live
  ///   context and no ``pin(_:version:)`` refers to it.
  public init(keepsAllHistory: Bool = false) {
    state.keepsAllHistory = keepsAllHistory
  }

  private func withState<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }

  /// `withState` for a call that makes events: they go to every observer
  /// before the lock is let go, so observers hear them in the order the
  /// calls were made.
  private func withStateAndEvents<R>(
    _ events: (R) -> [DocumentEvent], _ body: (inout State) throws(DocumentError) -> R
  ) throws(DocumentError) -> R {
    lock.lock()
    defer { lock.unlock() }
    let result = try body(&state)
    publish(events(result))
    return result
  }

  // MARK: Observing

  /// Guards `observers` (taken inside `lock` when publishing, alone when an
  /// observer goes away).
  private let observersLock = NSLock()
  private var observers: [UUID: AsyncStream<DocumentEvent>.Continuation] = [:]

  /// Every event that the live contexts hear from now on, whichever thread
  /// made the call (a sync peer's edit, the tool's replacements, undo), in
  /// the order of the calls: what a host's UI task listens to.
  ///
  /// ```swift
  /// let events = document.events()
  /// Task { @MainActor in
  ///   for await event in events { apply(event) }   // e.g. tell Writing Tools
  /// }
  /// ```
  ///
  /// The stream buffers what its reader has not taken yet, and ends when the
  /// document goes away; a reader that stops (its task cancelled) stops
  /// being sent events.
  public func events() -> AsyncStream<DocumentEvent> {
    let (stream, continuation) = AsyncStream<DocumentEvent>.makeStream()
    let id = UUID()
    observersLock.lock()
    observers[id] = continuation
    observersLock.unlock()
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      self.observersLock.lock()
      self.observers[id] = nil
      self.observersLock.unlock()
    }
    return stream
  }

  /// Sends `events` to every observer (with `lock` held).
  private func publish(_ events: [DocumentEvent]) {
    if events.isEmpty { return }
    observersLock.lock()
    defer { observersLock.unlock() }
    for continuation in observers.values {
      for event in events { continuation.yield(event) }
    }
  }

  deinit {
    for continuation in observers.values { continuation.finish() }
  }

  /// A snapshot of every storage.
  ///
  /// - Complexity: O(1)
  public var content: DocumentContent { withState { $0.content } }

  /// The selection.
  public var selection: [SelectionRange] { withState { $0.selection } }

  /// The visible range of each storage that shows one.
  public var visible: [StorageID: Range<Int>] { withState { $0.visible } }

  /// The current session, if contexts were asked for.
  public var session: WritingSession? { withState { $0.session?.session } }

  /// The current session's state (`.inactive` without a session).
  public var writingToolsState: WritingToolsState {
    withState { $0.session?.state ?? .inactive }
  }

  /// Adds a storage (see ``DocumentContent/add(_:text:after:)``).
  public func add(_ id: StorageID, text: Rope, after: StorageID? = nil) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      try state.content.add(id, text: text, after: after)
    }
  }

  /// Removes a storage, with the parts of the selection and visible ranges
  /// in it; its contexts stop being live.
  public func remove(_ id: StorageID) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      try state.content.remove(id)
      state.selection.removeAll { $0.start.storage == id || $0.end.storage == id }
      state.visible[id] = nil
      state.session?.forget(id)
    }
  }

  /// Moves a storage (see ``DocumentContent/move(_:after:)``).
  public func move(_ id: StorageID, after: StorageID?) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in try state.content.move(id, after: after) }
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
  /// - Parameters:
  ///   - range: the replaced range (UTF-16), in the editor's view.
  ///   - origin: who made it; `nil` for the person.
  ///   - basis: the storage version it was made on; the current one if
  ///     `nil`.
  /// - Returns: the new version, where the text landed, and the events of
  ///   the live contexts.
  /// - Throws: ``DocumentError/unknownStorage(_:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` (out of bounds of the view, or
  ///   splitting a surrogate pair where it lands),
  ///   ``DocumentError/staleVersion(_:)``; nothing changes.
  /// - Complexity: O(log n) for a plain edit; O(k + u·o) for k edits since
  ///   `basis`, u of them by others and o by the origin.
  @discardableResult
  public func edit(
    _ id: StorageID, range: Range<Int>, with text: String, origin: String? = nil,
    basis: Int? = nil
  ) throws(DocumentError) -> EditResult {
    try withStateAndEvents(\.events) { (state) throws(DocumentError) in
      let n = text.utf16.count
      let current = try state.content.storage(id).version
      if origin == nil && (basis == nil || basis == current) {
        return try state.editAsPerson(id, range, text, version: current)
      }
      let party = origin.map(EditParty.origin) ?? .person
      let version = basis ?? current
      let length = try state.viewLength(of: id, at: version, party: party)
      guard range.lowerBound >= 0 && range.upperBound <= length else {
        throw .invalidRange(
          id, .offsetOutOfBounds(offset: range.upperBound, unit: .utf16, count: length))
      }
      let original = _Operation(range, length: n, party: party)
      let transformed: _Operation
      do {
        transformed = try state.content.storage(id).changes.transform(original, from: version)
          .operation
      } catch {
        throw .staleVersion(version)
      }
      try state.checkBounds(transformed, in: id)
      if range.isEmpty && n == 0 {
        // A no-op as it was made: checked, and it makes no version.
        let start = transformed.pieces.first?.range.lowerBound ?? 0
        return EditResult(version: current, range: start..<start, events: [])
      }
      let (after, events) = try state.apply(
        id, transformed, text: text, original: original, basis: version, actor: .other)
      let start = transformed.pieces.first?.range.lowerBound ?? 0
      return EditResult(version: after, range: start..<(start + n), events: events)
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
  /// - Returns: as ``edit(_:range:with:origin:basis:)``, with the range
  ///   where the text landed in UTF-16.
  /// - Throws: ``DocumentError/unknownStorage(_:)``, or
  ///   ``DocumentError/invalidRange(_:_:)`` for a bound out of bounds or
  ///   inside a scalar (UTF-8) or a surrogate pair (UTF-16); nothing changes.
  /// - Complexity: O(log n) more than an edit in UTF-16.
  @discardableResult
  public func edit(
    _ id: StorageID, range: Range<Int>, in unit: TextUnit, with text: String
  ) throws(DocumentError) -> EditResult {
    try withStateAndEvents(\.events) { (state) throws(DocumentError) in
      // No copy of the storage may live on into the edit: it would share
      // the rope's nodes and make the edit copy them.
      let (utf16, version) = try state.content.utf16Range(of: range, in: unit, of: id)
      return try state.editAsPerson(id, utf16, text, version: version)
    }
  }

  /// Marks a range excluded from Writing Tools, or clears the mark.
  public func setExcluded(
    _ excluded: Bool, _ id: StorageID, range: Range<Int>
  ) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      try state.content.setExcluded(excluded, id, range: range)
    }
  }

  /// Sets the selection, after checking every position.
  public func select(_ selection: [SelectionRange]) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      state.selection = try state.content.validated(selection)
    }
  }

  /// Sets the visible range of each storage that shows one.
  public func setVisible(_ visible: [StorageID: Range<Int>]) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      for (id, range) in visible { _ = try state.content.checked(range, in: id) }
      state.visible = visible
    }
  }

  /// Starts a session with the contexts for `scope` (see
  /// ``DocumentContent/contexts(for:selection:visible:surroundingParagraphs:)``),
  /// ending the previous one. The session starts `.inactive`.
  public func startSession(
    scope: ContextScope, surroundingParagraphs: Int = 0
  ) throws(DocumentError) -> WritingSession {
    try withState { (state) throws(DocumentError) in
      let contexts = try state.content.contexts(
        for: scope, selection: state.selection, visible: state.visible,
        surroundingParagraphs: surroundingParagraphs)
      state.endSession()
      state.sessionCount += 1
      let session = WritingSession(id: _Identifiers.make(), scope: scope, contexts: contexts)
      state.session = _SessionState(
        session: session, party: .tool(state.sessionCount),
        contexts: contexts.map {
          _LiveContext(
            id: $0.id, storage: $0.storage, range: $0.storageRange,
            history: [($0.version, $0.storageRange.lowerBound, $0.storageRange.count)])
        })
      for context in contexts {
        try? state.content.withChanges(context.storage) { (log) throws(DocumentError) in
          try? log.pin(context.version, composing: true)
        }
      }
      return session
    }
  }

  /// Whether `session` is the document's current session (not ended).
  public func isLive(_ session: WritingSession) -> Bool {
    withState { $0.session?.session.id == session.id }
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
    try withState { (state) throws(DocumentError) in
      let context = try state.liveContext(id)
      let text = try state.content.storage(context.storage).text
      return LiveContext(
        id: id, storage: context.storage, storageRange: context.range,
        contextVersion: context.contextVersion,
        text: (try? text.slice(context.range)) ?? Rope())
    }
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
  /// DESIGN.md, "Replacements"), the replacement is refused as a conflict,
  /// unless `policy` is `.merge`.
  ///
  /// - Throws: ``DocumentError/noSession``,
  ///   ``DocumentError/unknownContext(_:)``,
  ///   ``DocumentError/staleVersion(_:)``,
  ///   ``DocumentError/outsideContext(_:length:)``,
  ///   ``DocumentError/conflict(context:)``, ``DocumentError/excluded(_:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` (a surrogate pair split);
  ///   nothing changes.
  /// - Complexity: O(log n) without basis; O(log m) with the basis the
  ///   context was made at when the tool replaced nothing since; else O(k)
  ///   for k edits since the basis.
  public func replace(
    context: UUID, range: Range<Int>, with text: String, basis: Int? = nil,
    policy: ReplacementPolicy = .refuse
  ) throws(DocumentError) -> ReplacementResult {
    try withStateAndEvents(\.events) { (state) throws(DocumentError) in
      try state.replace(context, range, text, basis: basis, policy: policy)
    }
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
      let live = try state.liveContext(context)
      var selection: [SelectionRange] = []
      for range in ranges {
        guard range.lowerBound >= 0 && range.upperBound <= live.range.count else {
          throw .outsideContext(range, length: live.range.count)
        }
        let storageRange =
          (live.range.lowerBound + range.lowerBound)..<(live.range.lowerBound + range.upperBound)
        selection.append(SelectionRange(live.storage, storageRange))
      }
      state.selection = try state.content.validated(selection)
      return state.selection
    }
  }

  /// Moves the session to `next` (see ``WritingToolsState/canMove(to:)``).
  /// Leaving `.interactiveStreaming` closes the undo group of its
  /// replacements.
  ///
  /// - Throws: ``DocumentError/noSession`` or
  ///   ``DocumentError/invalidStateTransition(from:to:)``.
  public func setState(_ next: WritingToolsState) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      guard var session = state.session else { throw .noSession }
      guard session.state.canMove(to: next) else {
        throw .invalidStateTransition(from: session.state, to: next)
      }
      if session.state == .interactiveStreaming && next != .interactiveStreaming {
        session.closeGroup()
      }
      if next == .interactiveStreaming && session.streamingGroup == nil {
        session.streamingGroup = []
      }
      session.state = next
      state.session = session
    }
  }

  /// Undoes the session's last group of replacements: each that is still
  /// intact gets its original text back (an edit like any other, with
  /// events). Replacements the person has edited since stay.
  ///
  /// - Throws: ``DocumentError/noSession``.
  public func undo() throws(DocumentError) -> [DocumentEvent] {
    try withStateAndEvents(\.self) { (state) throws(DocumentError) in try state.undo(redo: false) }
  }

  /// Redoes the last undone group.
  ///
  /// - Throws: ``DocumentError/noSession``.
  public func redo() throws(DocumentError) -> [DocumentEvent] {
    try withStateAndEvents(\.self) { (state) throws(DocumentError) in try state.undo(redo: true) }
  }

  /// Reverts the session: every replacement it made that is still intact
  /// goes back to its original text; the person's edits stay.
  ///
  /// - Returns: how many replacements went back, and the events.
  /// - Throws: ``DocumentError/noSession``.
  public func revert() throws(DocumentError) -> (reverted: Int, events: [DocumentEvent]) {
    try withStateAndEvents(\.events) { (state) throws(DocumentError) in try state.revert() }
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
      let live = try state.liveContext(context)
      guard var session = state.session else { throw .noSession }
      var made: [Mark] = []
      for range in ranges {
        guard range.lowerBound >= 0 && range.upperBound <= live.range.count else {
          throw .outsideContext(range, length: live.range.count)
        }
        let start = live.range.lowerBound
        let storageRange = (start + range.lowerBound)..<(start + range.upperBound)
        _ = try state.content.checked(storageRange, in: live.storage)
        made.append(
          Mark(
            id: session.nextMark + made.count, storage: live.storage, range: storageRange,
            kind: kind))
      }
      session.nextMark += made.count
      session.marks += made
      state.session = session
      return made
    }
  }

  /// Removes marks by id (all of them if `ids` is nil).
  public func removeMarks(_ ids: Set<Int>? = nil) {
    withState { state in
      state.session?.marks.removeAll { ids?.contains($0.id) ?? true }
    }
  }

  /// The session's marks, where they are now.
  public var marks: [Mark] { withState { $0.session?.marks ?? [] } }

  /// Where `offset` of storage `id` at `version` is now, by ProseMirror's
  /// sequential rule, and whether the character on the `assoc` side was
  /// deleted since (see ``ChangeMap``).
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/staleVersion(_:)``; an offset past the text of that
  ///   version is ``DocumentError/invalidRange(_:_:)``.
  /// - Complexity: O(log m) from a pinned version or a recently mapped one;
  ///   else O(k log k) for the k edits since.
  public func map(
    _ id: StorageID, _ offset: Int, from version: Int, assoc: Int = 1
  ) throws(DocumentError) -> MappedOffset {
    let (mapped, length) = try withLog(id, version) {
      (log) throws(ChangeLogError) -> (MappedOffset?, Int) in
      try log.check(version)
      let length = log.length(at: version)
      guard offset >= 0 && offset <= length else { return (nil, length) }
      return (try log.map(offset, from: version, assoc: assoc), length)
    }
    guard let mapped else {
      throw .invalidRange(id, .offsetOutOfBounds(offset: offset, unit: .utf16, count: length))
    }
    return mapped
  }

  /// Whether any edit since `version` touched `range` (of that version) of
  /// storage `id`: deleted or replaced a unit in it, or inserted strictly
  /// inside it.
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/staleVersion(_:)``; a range past the text of that
  ///   version is ``DocumentError/invalidRange(_:_:)``.
  public func touched(
    _ id: StorageID, _ range: Range<Int>, since version: Int
  ) throws(DocumentError) -> Bool {
    let (touched, length) = try withLog(id, version) {
      (log) throws(ChangeLogError) -> (Bool?, Int) in
      try log.check(version)
      let length = log.length(at: version)
      guard range.lowerBound >= 0 && range.upperBound <= length else { return (nil, length) }
      return (try log.touches(range, since: version), length)
    }
    guard let touched else {
      throw .invalidRange(
        id, .offsetOutOfBounds(offset: range.upperBound, unit: .utf16, count: length))
    }
    return touched
  }

  /// Keeps the history of storage `id` since `version` until
  /// ``unpin(_:version:)``: mapping from it, transforming edits made on it,
  /// stay possible. The first mapping from it composes a map that is then
  /// kept up to date (O(log m) per mapping and per edit).
  public func pin(_ id: StorageID, version: Int) throws(DocumentError) {
    try withLog(id, version) { (log) throws(ChangeLogError) in try log.pin(version) }
  }

  /// Undoes one ``pin(_:version:)``.
  public func unpin(_ id: StorageID, version: Int) {
    withState { state in
      let keepAll = state.keepsAllHistory
      try? state.content.withChanges(id) { (log) throws(DocumentError) in
        log.unpin(version)
        if !keepAll { log.trim() }
      }
    }
  }

  /// Runs `body` on the change log of storage `id`; its errors are about
  /// `version`, which is then stale.
  private func withLog<R>(
    _ id: StorageID, _ version: Int, _ body: (inout ChangeLog) throws(ChangeLogError) -> R
  ) throws(DocumentError) -> R {
    try withState { (state) throws(DocumentError) in
      try state.content.withChanges(id) { (log) throws(DocumentError) in
        do {
          return try body(&log)
        } catch {
          throw .staleVersion(version)
        }
      }
    }
  }
}

extension Document.State {
  /// The person's edit of `range` (UTF-16) at the current `version`.
  mutating func editAsPerson(
    _ id: StorageID, _ range: Range<Int>, _ text: String, version current: Int
  ) throws(DocumentError) -> EditResult {
    let n = text.utf16.count
    if range.isEmpty && n == 0 {
      // A no-op: its offset is still checked, and it makes no version.
      try checkBounds(_Operation(range, length: 0, party: .person), in: id)
      return EditResult(version: current, range: range, events: [])
    }
    let record = ChangeRecord(range: range, insertedLength: n, party: .person)
    let (version, events) = try apply(id, range, text, record: record, actor: .other)
    return EditResult(
      version: version, range: range.lowerBound..<(range.lowerBound + n), events: events)
  }
}
