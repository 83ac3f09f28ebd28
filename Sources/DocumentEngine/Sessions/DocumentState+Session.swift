import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The session's side of ``DocumentState``: starting and ending it, its
// contexts, states and marks (tracked ranges of their storages, which every
// edit moves). What else an edit does to a session is in
// ``DocumentState/followSession(_:in:at:text:by:before:reason:)``; replacements,
// undo and revert are in DocumentState+Replacements.swift.
extension DocumentState {
  /// Starts a session (see ``Document/startSession(scope:surroundingParagraphs:resultOptions:)``).
  mutating func startSession(
    scope: ContextScope, surroundingParagraphs: Int, resultOptions: ResultOptions
  ) throws(DocumentError) -> WritingSession {
    let contexts = try content.contexts(
      for: scope, selection: selection, visible: visible,
      surroundingParagraphs: surroundingParagraphs)
    endSession()
    sessionCount += 1
    let handout = WritingSession(
      id: _Identifiers.make(), scope: scope, contexts: contexts, resultOptions: resultOptions)
    var locals: [UInt32] = []
    for context in contexts {
      // Cut from the storage just now: its range is valid.
      locals +=
        (try? content.track(
          [context.storageRange], in: context.storage, role: .context, rules: TrackingRules()))
        ?? [0]
    }
    session = _LiveSession(handout, party: .tool(sessionCount), locals: locals)
    hasSession = true
    for context in contexts {
      // Every context's version is pinned, so that a tool's replacement on
      // any of its versions is transformed through the records since. Not
      // with a composed map kept up to date: that would cost every
      // keystroke two tree updates (most of a live keystroke's extra time)
      // for what only a replacement on an older basis reads, and that
      // transformation reads the records at a few nanoseconds each.
      // The context was just made from the storage at its version.
      _mustSucceed("pinning a new context's version") { () throws(DocumentError) in
        try withLog(context.storage, context.version) { (log) throws(ChangeLogError) in
          try log.pin(context.version, composing: false, for: .session)
        }
      }
    }
    return handout
  }

  /// Ends the current session and drops the history only it pinned.
  mutating func endSession() {
    guard session != nil else { return }
    // A streaming phase under way closes its group first.
    if session?.streamingGroup != nil { closeStreamingGroup() }
    guard let ended = session else { return }
    session = nil
    hasSession = false
    // With the history recording, its groups are the history's actions:
    // they stay, and are taken back by the history's rule (their links to
    // its replacements count no more). Without, its groups go with it
    // (they name its replacements); the document's own (accepted
    // suggestions) stay.
    history.main.forgetSession()
    for context in ended.contexts {
      unpin(context.storage, version: context.versions[0].version, for: .session)
      content.untrack(context.local, in: context.storage)
    }
    for mark in ended.marks { content.untrack(mark.local, in: mark.storage) }
    for replacement in ended.replacements where replacement.intact {
      content.untrack(replacement.local, in: replacement.storage)
    }
  }

  /// The current session as it was handed out, if one lives.
  var handout: WritingSession? { session?.handout }

  /// The current session's state (`.inactive` without a session).
  var writingToolsState: WritingToolsState { session?.state ?? .inactive }

  /// The session's marks, where they are now (none without a session).
  var marks: [Mark] {
    (session?.marks ?? []).compactMap { mark in
      content.trackedRange(mark.local, in: mark.storage).map {
        Mark(id: mark.id, storage: mark.storage, range: $0, kind: mark.kind)
      }
    }
  }

  /// Where a live context's text is now.
  func range(of context: _TrackedContext) -> Range<Int> {
    content.trackedRange(context.local, in: context.storage) ?? 0..<0
  }

  /// The current session.
  ///
  /// - Throws: ``DocumentError/noSession``.
  func liveSession() throws(DocumentError) -> _LiveSession {
    guard let session else { throw .noSession }
    return session
  }

  /// A context of the current session, as it is followed.
  ///
  /// - Throws: ``DocumentError/noSession`` or
  ///   ``DocumentError/unknownContext(_:)``.
  func trackedContext(_ id: UUID) throws(DocumentError) -> _TrackedContext {
    try liveSession().context(id)
  }

  /// A live context as it is now, with its text.
  func liveContext(_ id: UUID) throws(DocumentError) -> LiveContext {
    let context = try trackedContext(id)
    let text = try content.storage(context.storage).text
    return LiveContext(
      id: id, storage: context.storage, storageRange: range(of: context),
      contextVersion: context.contextVersion,
      text: (try? text.slice(range(of: context))) ?? Rope())
  }

  /// The storage range of `range` (relative to a live context's text),
  /// checked against the context's length.
  func storageRange(
    of range: Range<Int>, in context: _TrackedContext
  ) throws(DocumentError) -> Range<Int> {
    let now = self.range(of: context)
    guard range.lowerBound >= 0 && range.upperBound <= now.count else {
      throw .outsideContext(range, length: now.count)
    }
    let start = now.lowerBound
    return (start + range.lowerBound)..<(start + range.upperBound)
  }

  /// Sets the selection to ranges of a context's text.
  mutating func toolSelect(
    context: UUID, ranges: [Range<Int>]
  ) throws(DocumentError) -> [SelectionRange] {
    let tracked = try trackedContext(context)
    var selection: [SelectionRange] = []
    for range in ranges {
      selection.append(SelectionRange(tracked.storage, try storageRange(of: range, in: tracked)))
    }
    try select(selection)
    return self.selection
  }

  /// Moves the session to another state (see
  /// ``_LiveSession/move(to:)``).
  mutating func setWritingToolsState(_ next: WritingToolsState) throws(DocumentError) {
    guard session != nil else { throw .noSession }
    let closed = try session?.move(to: next)
    if session?.streamingGroup == nil, let action = session?.streamingAction {
      session?.streamingAction = nil
      pushSessionGroup(closed, action: action)
    } else if let closed {
      pushSessionGroup(closed, action: nil)
    }
  }

  /// Marks ranges of a context's text.
  mutating func mark(
    context: UUID, ranges: [Range<Int>], as kind: MarkKind
  ) throws(DocumentError) -> [Mark] {
    let tracked = try trackedContext(context)
    var storageRanges: [Range<Int>] = []
    for range in ranges {
      let storageRange = try storageRange(of: range, in: tracked)
      _ = try content.checked(storageRange, in: tracked.storage)
      storageRanges.append(storageRange)
    }
    guard session != nil else { throw .noSession }
    let locals = try content.track(
      storageRanges, in: tracked.storage, role: .mark, rules: TrackingRules())
    let made = session?.addMarks(locals, in: tracked.storage, as: kind) ?? []
    return zip(made, storageRanges).map {
      Mark(id: $0.id, storage: $0.storage, range: $1, kind: $0.kind)
    }
  }

  /// Removes the marks with these ids.
  mutating func removeMarks(_ ids: Set<Int>) {
    for mark in session?.marks ?? [] where ids.contains(mark.id) {
      content.untrack(mark.local, in: mark.storage)
    }
    session?.marks.removeAll { ids.contains($0.id) }
  }

  /// Removes every mark.
  mutating func removeAllMarks() {
    for mark in session?.marks ?? [] { content.untrack(mark.local, in: mark.storage) }
    session?.marks.removeAll()
  }
}
