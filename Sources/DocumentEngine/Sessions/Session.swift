import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The session's side of ``DocumentState``: starting and ending it, its
// contexts, states and marks. Replacements, undo and revert are in
// Replacements.swift.
extension DocumentState {
  /// Starts a session (see ``Document/startSession(scope:surroundingParagraphs:)``).
  mutating func startSession(
    scope: ContextScope, surroundingParagraphs: Int
  ) throws(DocumentError) -> WritingSession {
    let contexts = try content.contexts(
      for: scope, selection: selection, visible: visible,
      surroundingParagraphs: surroundingParagraphs)
    endSession()
    sessionCount += 1
    let session = WritingSession(id: _Identifiers.make(), scope: scope, contexts: contexts)
    self.session = _SessionState(
      session: session, party: .tool(sessionCount),
      contexts: contexts.map {
        _LiveContext(
          id: $0.id, storage: $0.storage, range: $0.storageRange,
          history: [($0.version, $0.storageRange.lowerBound, $0.storageRange.count)])
      })
    for context in contexts {
      // Every context's version is pinned with a composed map, so that the
      // tool's replacements on it map in O(log m).
      // The context was just made from the storage at its version.
      _mustSucceed("pinning a new context's version") { () throws(DocumentError) in
        try withLog(context.storage, context.version) { (log) throws(ChangeLogError) in
          try log.pin(context.version, composing: true)
        }
      }
    }
    return session
  }

  /// A live context of the current session.
  func liveContext(_ id: UUID) throws(DocumentError) -> _LiveContext {
    guard let session else { throw .noSession }
    guard let context = session.contexts.first(where: { $0.id == id }) else {
      throw .unknownContext(id)
    }
    return context
  }

  /// A live context as it is now, with its text.
  func liveContextNow(_ id: UUID) throws(DocumentError) -> LiveContext {
    let context = try liveContext(id)
    let text = try content.storage(context.storage).text
    return LiveContext(
      id: id, storage: context.storage, storageRange: context.range,
      contextVersion: context.contextVersion,
      text: (try? text.slice(context.range)) ?? Rope())
  }

  /// Ends the current session and drops the history only it pinned.
  mutating func endSession() {
    guard let ended = session else { return }
    session = nil
    for context in ended.contexts {
      unpin(context.storage, version: context.history[0].version)
    }
  }

  /// The storage range of `range` (relative to a live context's text),
  /// checked against the context's length.
  func storageRange(
    of range: Range<Int>, in live: _LiveContext
  ) throws(DocumentError) -> Range<Int> {
    guard range.lowerBound >= 0 && range.upperBound <= live.range.count else {
      throw .outsideContext(range, length: live.range.count)
    }
    let start = live.range.lowerBound
    return (start + range.lowerBound)..<(start + range.upperBound)
  }

  /// Sets the selection to ranges of a context's text.
  mutating func toolSelect(
    context: UUID, ranges: [Range<Int>]
  ) throws(DocumentError) -> [SelectionRange] {
    let live = try liveContext(context)
    var selection: [SelectionRange] = []
    for range in ranges {
      selection.append(SelectionRange(live.storage, try storageRange(of: range, in: live)))
    }
    self.selection = try content.validated(selection)
    return self.selection
  }

  /// Moves the session to another state.
  mutating func setState(_ next: WritingToolsState) throws(DocumentError) {
    guard var session else { throw .noSession }
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
    self.session = session
  }

  /// Marks ranges of a context's text.
  mutating func mark(
    context: UUID, ranges: [Range<Int>], as kind: MarkKind
  ) throws(DocumentError) -> [Mark] {
    let live = try liveContext(context)
    guard var session else { throw .noSession }
    var made: [Mark] = []
    for range in ranges {
      let storageRange = try storageRange(of: range, in: live)
      _ = try content.checked(storageRange, in: live.storage)
      made.append(
        Mark(
          id: session.nextMark + made.count, storage: live.storage, range: storageRange,
          kind: kind))
    }
    session.nextMark += made.count
    session.marks += made
    self.session = session
    return made
  }
}
