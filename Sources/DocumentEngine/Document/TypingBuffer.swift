import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The person's typing at one place, held back from the storage until
/// something else needs the storage: the buffered layer of the document
/// (as `BufferedRope` is the rope's, and jumprope's `JumpRopeBuf` is
/// jumprope's).
///
/// A keystroke that types on where the last one ended, in a place where
/// nothing but the engine's own followers (the contexts, the selection,
/// the visible ranges, the history's marks) meets the point, is given its
/// version, its result and its events at once — what the keystroke made
/// the usual way would give — and its text waits here. Every other call of
/// the document applies what waits first (``DocumentState/flushTyping()``):
/// the typed text goes into the storage as one insertion (its text, its
/// runs and its tracked ranges follow it once), and the change log gets one
/// row for each keystroke, so that every version handed out stays a version
/// of the log. That is exact: each keystroke inserted where the one before
/// ended, so every position meets the run's point as it met the first
/// keystroke's (a position there that goes after text inserted at it went
/// along with each; one that stays before it stays), and the merged
/// insertion takes every tracked range, attribute run and exclusion where
/// the keystrokes one by one would have.
///
/// The run is opened by a keystroke at the point where the person's last
/// edit ended (its ``candidate``), after the checks the keystroke path
/// would make: no range of the host's, no suggestion and no replacement
/// of a tool meets the point (they are reported or broken by an edit
/// there), no context begins or ends there (its events depend on which
/// side the text goes), no batch is open, and the history goes on with
/// its own typing run. A read of the document applies the run and keeps
/// it open; any change closes it.
struct _TypingBuffer: Sendable {
  /// Whether a run is open: the point, the storage and the contexts are
  /// known to hold for the next keystroke.
  var isOpen = false
  var storage = StorageID("")
  /// Where the held-back text starts (UTF-16).
  var start = 0
  /// Where the next keystroke of the run types (UTF-16).
  var point = 0
  /// The storage's version when the held-back text started.
  var baseVersion = StorageVersion(rawValue: 0)
  /// The held-back text.
  var utf8: [UInt8] = []
  /// Each held-back keystroke, in order: the UTF-16 length it typed
  /// (positive), or that it deleted before the point (negative: a
  /// backspace over text the run typed).
  var lengths: [Int] = []
  /// Whether the storage has attribute runs (then a backspace goes the
  /// usual way: the history keeps the runs of the text it removes).
  var hasAttributes = false
  /// The live contexts of the storage that a keystroke there changes or
  /// moves, in the order the session keeps them (those wholly before the
  /// point hear nothing and are not here).
  var contexts: [_RunContext] = []

  /// Where the person's last edit of the usual path ended: a keystroke
  /// there may open a run.
  var candidate: (storage: StorageID, point: Int)? = nil

  /// The longest keystroke that types on (UTF-16): a longer insertion (a
  /// paste) goes the usual way.
  static let keystrokeLimit = 256
  /// How many keystrokes wait at most: the next one applies them first
  /// (and the run stays open), so that what waits stays small.
  static let maxKeystrokes = 4096

  /// Whether the document buffers typing at all (tests turn it off to
  /// compare with the usual path).
  var isEnabled = true

  /// How many reads in a row found at most ``shortRun`` keystrokes held:
  /// a host that reads after (nearly) every keystroke gains nothing from
  /// holding them back, and pays for the run on top of the usual edit.
  var shortReads = 0
  /// How many of the person's keystrokes still go the usual way before a
  /// run may open again (after ``shortReadsToPause`` short reads in a row).
  var pause = 0
  static let shortRun = 2
  static let shortReadsToPause = 4
  static let pauseLength = 1024
}

/// A live context as a typing run follows it: where it was and its
/// version when the held-back text started (with it, a context with the
/// point inside is that text longer and one version a keystroke further; a
/// context after the point is that text further on).
struct _RunContext: Sendable {
  /// Its index in the session's contexts.
  var index: Int
  var id: UUID
  var range: Range<Int>
  var version: ContextVersion
  /// Whether the point is inside it (its text changes), or it lies after
  /// the point (it moves).
  var isInside: Bool

  /// Where it is with `held` UTF-16 units held back at the run's start.
  func range(holding held: Int) -> Range<Int> {
    isInside
      ? range.lowerBound..<(range.upperBound + held)
      : (range.lowerBound + held)..<(range.upperBound + held)
  }
}

extension DocumentState {
  /// The person's keystroke (an insertion of `text` at `range`, UTF-16, no
  /// attributes given) if it types on with the typing run, or opens one at
  /// the person's last edit: its result, the text held back. `nil` if it
  /// does not (nothing changed; the caller closes the run and edits the
  /// usual way).
  mutating func typeOn(_ id: StorageID, _ range: Range<Int>, _ text: String) -> EditResult? {
    guard batchActions == nil else { return nil }
    if !range.isEmpty {
      return text.isEmpty ? backspaceHeld(id, range) : nil
    }
    let p = range.lowerBound
    if held.isOpen {
      guard held.point == p, held.storage == id else { return nil }
    } else {
      guard held.isEnabled, let candidate = held.candidate, candidate.point == p,
        candidate.storage == id
      else { return nil }
    }
    let n = text.utf16.count
    guard n > 0, n <= _TypingBuffer.keystrokeLimit else { return nil }
    if history.isEnabled {
      let now = history.now()
      let edit = _EditStep(range, insertedLength: n)
      if history.typing.goesOn(edit, in: id, now: now) {
        // The history goes on with its own typing run, as the usual
        // path's `historyBefore` would find it.
        if !held.isOpen { guard openTypingRun(id, at: p) else { return nil } }
        history.typingTypes(n, now: now)
      } else {
        // The keystroke opens a group of the person's (after a deletion,
        // or a pause), as the usual path's fast one opens it: decided on
        // the document as it is (the selection before it: what waits goes
        // in first), recorded from the history's own records (its journal
        // and pending hunk, never the storage), so before the text is.
        flushTyping()
        guard historyFast(edit, in: id, now: now) else { return nil }
        if !held.isOpen { guard openTypingRun(id, at: p) else { return nil } }
        historyFastFollow(edit, in: id)
      }
    } else {
      if !held.isOpen { guard openTypingRun(id, at: p) else { return nil } }
    }
    if held.lengths.count == _TypingBuffer.maxKeystrokes { flushTyping() }

    let version = held.baseVersion + (held.lengths.count + 1)
    held.utf8.append(contentsOf: text.utf8)
    held.lengths.append(n)
    held.point = p + n
    let events = heldEvents(range, text: text)
    return EditResult(version: version, range: p..<(p + n), events: events)
  }

  /// The person's backspace over text the run holds back (`range` ends at
  /// the run's point and starts in its text): its result, the held text
  /// shortened, the history given the removed text as the rope's edit
  /// would give it. `nil` if it is not one (nothing changed).
  mutating func backspaceHeld(_ id: StorageID, _ range: Range<Int>) -> EditResult? {
    guard held.isOpen, held.storage == id, range.upperBound == held.point,
      range.lowerBound >= held.start, !held.hasAttributes,
      let cut = heldUTF8Start(ofLast: range.count)
    else { return nil }
    let edit = _EditStep(range, insertedLength: 0)
    if history.isEnabled {
      let now = history.now()
      // The text it removes, where the rope's edit hands it to the history.
      history.keystrokeRemoved.removeAll()
      held.utf8.withUnsafeBufferPointer {
        history.keystrokeRemoved.utf8.append(UnsafeBufferPointer(rebasing: $0[cut...]))
      }
      if history.typing.goesOn(edit, in: id, now: now) {
        history.typingGoesOn(edit, now: now)
      } else {
        // (The selection it reads is where the held text puts it.)
        guard historyFast(edit, in: id, now: now) else { return nil }
        historyFastFollow(edit, in: id)
      }
    }
    held.lengths.append(-range.count)
    held.utf8.removeSubrange(cut...)
    held.point = range.lowerBound
    let version = held.baseVersion + held.lengths.count
    let events = heldEvents(range, text: "")
    // (Here, not before: the backspace takes its text from the run.)
    if held.lengths.count >= _TypingBuffer.maxKeystrokes { flushTyping() }
    return EditResult(
      version: version, range: range.lowerBound..<range.lowerBound, events: events)
  }

  /// Where in the held text its last `units` UTF-16 units start (in
  /// bytes), or `nil` if that is inside a surrogate pair (the usual path
  /// refuses the edit) or before the held text.
  ///
  /// Mutating only so that it reads the state in place (as
  /// `selectionNow`): a method that is not, called from a mutating edit,
  /// is handed a copy of the whole state.
  mutating func heldUTF8Start(ofLast units: Int) -> Int? {
    held.utf8.withUnsafeBufferPointer {
      _UTF8Validation.byteOffset(ofLastUTF16: units, in: $0)
    }
  }

  /// The events `followSession` makes for the run's last keystroke, an
  /// edit of `range` by `text` at the run's point (it changes only held
  /// text, or inserts at the point): a context with the point inside
  /// changes and hears it, one after the point moves.
  /// (Mutating only to read the state in place, as ``heldUTF8Start(ofLast:)``.)
  mutating func heldEvents(_ range: Range<Int>, text: String) -> _Events {
    if held.contexts.isEmpty { return .none }
    if held.contexts.count == 1 { return .one(heldEvent(held.contexts[0], range, text: text)) }
    var events: [DocumentEvent] = []
    events.reserveCapacity(held.contexts.count)
    for context in held.contexts { events.append(heldEvent(context, range, text: text)) }
    return .many(events)
  }

  /// ``heldEvents(_:text:)`` for one of the run's contexts.
  @inline(__always)
  mutating func heldEvent(
    _ context: _RunContext, _ range: Range<Int>, text: String
  ) -> DocumentEvent {
    let now = context.range(holding: held.point - held.start)
    if context.isInside {
      let at = range.lowerBound - now.lowerBound
      return .textUpdated(
        context: context.id, range: at..<(at + range.count), text: text,
        contextVersion: ContextVersion(rawValue: context.version.rawValue + held.lengths.count),
        reason: .typing)
    }
    return .reflowed(context: context.id, storageRange: now)
  }

  /// Where tracked range number `local` of storage `id` is now, with the
  /// held text (as the flush will move it).
  mutating func trackedRangeNow(_ local: UInt32, in id: StorageID) -> Range<Int>? {
    guard !held.lengths.isEmpty, held.storage == id else {
      return content.trackedRange(local, in: id)
    }
    guard let (item, prefix) = content.storageIfAny(id)?.tracked.locate(local) else {
      return nil
    }
    let start = prefix.span + item.delta
    let step = _EditStep(held.start..<held.start, insertedLength: held.point - held.start)
    return _TrackedRanges.map(start..<(start + item.length), step, item)
  }

  /// Opens a typing run at `p` of storage `id` if a keystroke there may
  /// type on (see ``_TypingBuffer``).
  mutating func openTypingRun(_ id: StorageID, at p: Int) -> Bool {
    held.candidate = nil
    guard recording == nil, let storage = content.storageIfAny(id) else { return false }
    if !history.isEnabled
      && (!history.marks.isEmpty || history.pending != nil || !history.journaled.isEmpty)
    {
      return false
    }
    // What an edit at the point reports, breaks or decides by side.
    let reported =
      _TrackedRole.host.mask | _TrackedRole.suggestion.mask | _TrackedRole.replacement.mask
      | _TrackedRole.accepted.mask
    var meets = false
    storage.tracked.forEach(meeting: p...p, roles: reported) { _, _ in meets = true }
    if meets { return false }
    var contexts: [_RunContext] = []
    if let session {
      if !session.replacements.isEmpty && session.replacementsByLocal[id]?.isEmpty == false {
        return false
      }
      let indices =
        session.onlyStorage.map { $0.id == id ? $0.indices : [] }
        ?? session.contextsByStorage[id] ?? []
      for i in indices {
        guard let range = storage.tracked.range(session.contextLocals[i]) else { continue }
        if range.lowerBound == p || range.upperBound == p { return false }
        if range.upperBound < p { continue }
        contexts.append(
          _RunContext(
            index: i, id: session.contexts[i].id, range: range,
            version: session.contexts[i].contextVersion, isInside: range.lowerBound < p))
      }
    }
    held.isOpen = true
    held.storage = id
    held.start = p
    held.point = p
    held.baseVersion = storage.version
    held.hasAttributes = storage.attributes != nil
    held.contexts = contexts
    return true
  }

  /// Puts the held-back keystrokes in the storage (see ``_TypingBuffer``);
  /// the run stays open.
  mutating func flushTyping() {
    guard !held.lengths.isEmpty else { return }
    let id = held.storage
    trackedReport.empty()
    let total = held.point - held.start
    content.insertTyped(
      id, at: held.start, utf8: held.utf8, lengths: held.lengths, total: total,
      keepingChanges: keepsAllChanges || hasSession, report: &trackedReport)
    // Each context the keystrokes changed reached one version a keystroke.
    for k in held.contexts.indices {
      if held.contexts[k].isInside {
        session?.contexts[held.contexts[k].index].advanceTyped(
          from: held.baseVersion, range: held.contexts[k].range, lengths: held.lengths)
        held.contexts[k].version.rawValue += held.lengths.count
      }
      held.contexts[k].range = held.contexts[k].range(holding: total)
    }
    held.baseVersion = held.baseVersion + held.lengths.count
    held.start = held.point
    held.utf8.removeAll(keepingCapacity: true)
    held.lengths.removeAll(keepingCapacity: true)
    _invariantCheck(id)
  }

  /// ``flushTyping()`` for a read of the document: the run stays open,
  /// unless reads keep finding it short (see ``_TypingBuffer/shortReads``):
  /// then the next ``_TypingBuffer/pauseLength`` keystrokes go the usual
  /// way.
  mutating func flushForRead() {
    guard !held.lengths.isEmpty else { return }
    if held.lengths.count <= _TypingBuffer.shortRun {
      held.shortReads += 1
    } else {
      held.shortReads = 0
    }
    flushTyping()
    if held.shortReads >= _TypingBuffer.shortReadsToPause {
      closeTyping()
      held.shortReads = 0
      held.pause = _TypingBuffer.pauseLength
    }
  }

  /// Puts the held-back keystrokes in the storage and closes the run (and
  /// forgets the point where one might open): before any call that may
  /// change the document.
  @inline(__always)
  mutating func closeTyping() {
    if held.isOpen {
      flushTyping()
      held.isOpen = false
      held.contexts.removeAll(keepingCapacity: true)
    }
    held.candidate = nil
  }
}
