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
    var session: WritingSession? = nil
  }

  private let lock = NSLock()
  private var state = State()

  /// An empty document.
  public init() {}

  private func withState<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }

  /// A snapshot of every storage.
  ///
  /// - Complexity: O(1)
  public var content: DocumentContent { withState { $0.content } }

  /// The selection.
  public var selection: [SelectionRange] { withState { $0.selection } }

  /// The current session, if contexts were asked for.
  public var session: WritingSession? { withState { $0.session } }

  /// Adds a storage (see ``DocumentContent/add(_:text:after:)``).
  public func add(_ id: StorageID, text: Rope, after: StorageID? = nil) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      try state.content.add(id, text: text, after: after)
    }
  }

  /// Removes a storage, with the parts of the selection and visible ranges
  /// in it.
  public func remove(_ id: StorageID) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in
      try state.content.remove(id)
      state.selection.removeAll { $0.start.storage == id || $0.end.storage == id }
      state.visible[id] = nil
    }
  }

  /// Moves a storage (see ``DocumentContent/move(_:after:)``).
  public func move(_ id: StorageID, after: StorageID?) throws(DocumentError) {
    try withState { (state) throws(DocumentError) in try state.content.move(id, after: after) }
  }

  /// Edits a storage (see ``DocumentContent/edit(_:range:with:)``).
  ///
  /// - Returns: the storage's new version.
  @discardableResult
  public func edit(
    _ id: StorageID, range: Range<Int>, with text: String
  ) throws(DocumentError) -> Int {
    try withState { (state) throws(DocumentError) in
      try state.content.edit(id, range: range, with: text)
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
      for (id, range) in visible {
        let storage = try state.content.storage(id)
        for offset in [range.lowerBound, range.upperBound] {
          do throws(RopeError) {
            _ = try storage.text.utf8Offset(of: offset, in: .utf16)
          } catch {
            throw .invalidRange(id, error)
          }
        }
      }
      state.visible = visible
    }
  }

  /// Starts a session with the contexts for `scope` (see
  /// ``DocumentContent/contexts(for:selection:visible:surroundingParagraphs:)``),
  /// ending the previous one.
  public func startSession(
    scope: ContextScope, surroundingParagraphs: Int = 0
  ) throws(DocumentError) -> WritingSession {
    try withState { (state) throws(DocumentError) in
      let contexts = try state.content.contexts(
        for: scope, selection: state.selection, visible: state.visible,
        surroundingParagraphs: surroundingParagraphs)
      let session = WritingSession(id: _Identifiers.make(), scope: scope, contexts: contexts)
      state.session = session
      return session
    }
  }

  /// Whether `session` is the document's current session (not ended).
  public func isLive(_ session: WritingSession) -> Bool {
    withState { $0.session?.id == session.id }
  }

  /// Ends the current session.
  public func endSession() {
    withState { $0.session = nil }
  }
}
