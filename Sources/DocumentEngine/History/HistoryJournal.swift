// The journal: the person's groups kept as their edits while only the
// person edits a storage (see docs/History.md, *The journal*).
//
// A group the person types is, as long as nobody else edits its storage,
// nothing but its edit: where it was, how much it put in, the text it
// removed, where the selection was before it. Such a group waits in its
// storage's journal, a few bytes each, and the storage's tree of history
// marks does not take it. The tree takes the journal, in order, the moment
// anything needs the tree: an edit of the storage by anyone else (a tool,
// a peer, an unrecorded edit), an undo or a redo, a mark read or added
// there. Until then a keystroke costs the history what it costs to note
// an edit, and a group a few bytes beside the text it removed.

/// Where the selection was before a group the journal keeps: offsets of
/// the group's storage, before its edit; `end` is `nil` for a caret.
struct _JournalSelection: Sendable, Equatable {
  var start: Int
  var end: Int?
}

/// A group as the journal keeps it: its action, its one edit (the text at
/// `start` it removed and the `inserted` units it put there), and the
/// selection before it.
struct _JournalHunk: Sendable {
  /// Its action: -1 for an edit no history records (it only moves the
  /// marks).
  var action: Int
  var start: Int
  var inserted: Int
  var removed: AttributedText
  var selection: _JournalSelection?
  /// What it costs in the history's bytes (its encoding and its runs).
  var cost = 0
  /// The length of what it removed (UTF-16).
  var removedLength = 0
  /// Whether its action was made when it was (an origin's group), not
  /// when the tree takes it (the person's lazy groups).
  var isEager = false
}

/// Where a reader of the journal is, and what the deltas there are
/// relative to.
struct _JournalCursor: Sendable {
  var offset = 0
  var run = 0
  var action = 0
  var end = 0
}

/// A storage's journal: its groups' hunks, oldest first, each a few bytes
/// (deltas as variable-length integers, and the removed text's UTF-8),
/// with their attribute runs aside. The oldest may have been dropped (the
/// history's limit): they still move the tree's marks when it takes them,
/// and record nothing.
struct _Journal: Sendable {
  /// The encoded hunks in `bytes[..<used]`; the rest is room, zeroed, so
  /// that a hunk is written in place through one pointer (no append).
  private var bytes: [UInt8] = []
  private var used = 0
  private var runs: [[AttributeRun]] = []
  /// The state before the first byte.
  private var base = _JournalCursor()
  /// The state after the last hunk (what the next one is encoded against).
  private var last = _JournalCursor()
  /// Where the hunks not yet dropped start.
  private var kept = _JournalCursor()
  private(set) var count = 0
  private(set) var droppedCount = 0
  /// What the kept hunks cost, in the history's bytes.
  private(set) var charged = 0

  var isEmpty: Bool { count == 0 }

  private enum Flag {
    static let removed: UInt8 = 1
    static let runs: UInt8 = 2
    static let selection: UInt8 = 4
    static let selectionRange: UInt8 = 8
    /// An edit of no action: its removed length, no text.
    static let plain: UInt8 = 16
    /// A group whose action is in the table already (an origin's): the
    /// tree records it if the action is still kept, and makes no action.
    static let eager: UInt8 = 32
  }

  /// Appends a hunk (its action after every other's); returns its cost,
  /// charged unless it is `dropped` already.
  @discardableResult
  mutating func append(_ hunk: _JournalHunk, dropped: Bool) -> Int {
    append(
      action: hunk.action, start: hunk.start, inserted: hunk.inserted, removed: hunk.removed,
      selection: hunk.selection, eager: hunk.isEager, dropped: dropped)
  }

  /// Appends an edit of no action (it only moves the marks when the tree
  /// takes it).
  mutating func appendPlain(start: Int, removedLength: Int, inserted: Int) {
    ensureRoom(32)
    let delta = Self.zigzag(start &- last.end)
    used = bytes.withUnsafeMutableBufferPointer { buffer in
      var n = used
      buffer[n] = Flag.plain
      n += 1
      Self.put(delta, buffer, &n)
      Self.put(UInt64(truncatingIfNeeded: inserted), buffer, &n)
      Self.put(UInt64(truncatingIfNeeded: removedLength), buffer, &n)
      return n
    }
    last.offset = used
    last.end = start &+ inserted
    count += 1
    if droppedCount == count - 1 {
      kept = last
      droppedCount += 1
    }
  }

  /// Appends the pending hunk `p`, read in place (its removed text is
  /// neither copied nor retained, and a hunk that removed nothing does not
  /// look at it).
  @discardableResult
  @inline(__always)
  mutating func append(_ p: inout _PendingHunk, dropped: Bool) -> Int {
    let removes = p.removedLength != 0
    // (The runs are read only if there are any, and the bytes copied from
    // the hunk in place: neither is retained for the call.)
    let hasRuns = removes && !p.removedBytes.runs.isEmpty
    return append(
      action: p.action, start: p.start, inserted: p.inserted,
      utf8Count: removes ? p.removedBytes.utf8.count : 0,
      runs: hasRuns ? p.removedBytes.runs : [], selection: p.selection, dropped: dropped
    ) { p.removedBytes.utf8.copyBytes(to: $0) }
  }

  /// Appends a hunk of the tree's or the tests' (its removed text copied).
  private mutating func append(
    action: Int, start: Int, inserted: Int, removed: AttributedText,
    selection: _JournalSelection?, eager: Bool = false, dropped: Bool
  ) -> Int {
    var text = removed.text
    return append(
      action: action, start: start, inserted: inserted, utf8Count: text.utf8.count,
      runs: removed.runs, selection: selection, eager: eager, dropped: dropped
    ) { to in
      text.withUTF8 { if let from = $0.baseAddress { to.update(from: from, count: $0.count) } }
    }
  }

  /// Writes a hunk in place: its flags and numbers, then the `utf8Count`
  /// bytes of its removed text (`copyText` copies them where it is told),
  /// its `runs` aside; returns its cost, charged unless it is `dropped`
  /// already.
  @inline(__always)
  private mutating func append(
    action: Int, start: Int, inserted: Int, utf8Count: Int, runs hunkRuns: [AttributeRun],
    selection: _JournalSelection?, eager: Bool = false, dropped: Bool,
    copyText: (UnsafeMutablePointer<UInt8>) -> Void
  ) -> Int {
    let was = used
    var at = writeHeader(
      action: action, start: start, inserted: inserted, utf8Count: utf8Count,
      hasRuns: !hunkRuns.isEmpty, selection: selection, eager: eager)
    if utf8Count > 0 {
      bytes.withUnsafeMutableBufferPointer { buffer in
        if let to = buffer.baseAddress { copyText(to + at) }
      }
      at += utf8Count
    }
    if !hunkRuns.isEmpty { runs.append(hunkRuns) }
    return finish(
      at: at, was: was, action: action, end: start &+ inserted, runCount: hunkRuns.count,
      dropped: dropped)
  }

  /// Writes a hunk's flags and numbers in place, with room after them for
  /// `utf8Count` bytes of removed text; returns where the text goes.
  @inline(__always)
  private mutating func writeHeader(
    action: Int, start: Int, inserted: Int, utf8Count: Int, hasRuns: Bool,
    selection: _JournalSelection?, eager: Bool
  ) -> Int {
    var flags: UInt8 = eager ? Flag.eager : 0
    if utf8Count > 0 { flags |= Flag.removed }
    if hasRuns { flags |= Flag.runs }
    if let selection {
      flags |= Flag.selection
      if selection.end != nil { flags |= Flag.selectionRange }
    }
    ensureRoom(64 + utf8Count)
    let actionDelta = UInt64(truncatingIfNeeded: action &- last.action)
    let startDelta = Self.zigzag(start &- last.end)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      var n = used
      buffer[n] = flags
      n += 1
      Self.put(actionDelta, buffer, &n)
      Self.put(startDelta, buffer, &n)
      Self.put(UInt64(truncatingIfNeeded: inserted), buffer, &n)
      if utf8Count > 0 { Self.put(UInt64(utf8Count), buffer, &n) }
      if let selection {
        Self.put(Self.zigzag(selection.start &- start), buffer, &n)
        if let end = selection.end { Self.put(Self.zigzag(end &- selection.start), buffer, &n) }
      }
      return n
    }
  }

  /// Ends a hunk written up to `at`: the state after it, its count and
  /// cost (charged unless it is `dropped`).
  @inline(__always)
  private mutating func finish(
    at: Int, was: Int, action: Int, end: Int, runCount: Int, dropped: Bool
  ) -> Int {
    used = at
    last.offset = used
    last.run = runs.count
    last.action = action
    last.end = end
    count += 1
    let cost = used - was + 48 * runCount
    if dropped {
      if droppedCount == count - 1 {
        kept = last
        droppedCount += 1
      }
      return cost
    }
    charged += cost
    return cost
  }

  /// Every hunk, oldest first.
  func forEachHunk(_ body: (_JournalHunk) -> Void) {
    var cursor = base
    while let hunk = decode(&cursor) { body(hunk) }
  }

  /// The action of the oldest lazy group's hunk not dropped: past those
  /// dropped at the front, and past any whose group the limit dropped
  /// (`lazyDropped` or older) while a hunk not dropped was before it
  /// (only the front is marked dropped).
  func firstKeptAction(after lazyDropped: Int) -> Int? {
    var cursor = kept
    while let hunk = decode(&cursor) {
      if hunk.action > lazyDropped && !hunk.isEager { return hunk.action }
    }
    return nil
  }

  /// Drops the oldest kept hunk if it is action `action`'s (passing those
  /// of groups dropped already, `lazyDropped` or older): its cost, or
  /// `nil` if it is not.
  mutating func dropFirst(_ action: Int, after lazyDropped: Int) -> Int? {
    var cursor = kept
    var skipped = 0
    var skippedCost = 0
    while let hunk = decode(&cursor) {
      if hunk.action < 0 || hunk.isEager {
        // An edit of no action, or an origin's group, before it: it goes
        // with it (the tree takes it all the same, and records an
        // origin's group whose action is kept).
        skipped += 1
        skippedCost += hunk.cost
        continue
      }
      if hunk.action <= lazyDropped {
        // A group the limit dropped already (not charged): it goes too.
        skipped += 1
        continue
      }
      guard hunk.action == action else { return nil }
      kept = cursor
      droppedCount += 1 + skipped
      charged -= hunk.cost + skippedCost
      return hunk.cost + skippedCost
    }
    return nil
  }

  /// Takes the dropped hunks out (oldest first), for the tree to take
  /// their edits.
  mutating func takeDropped() -> [_JournalHunk] {
    var taken: [_JournalHunk] = []
    var cursor = base
    while cursor.offset < kept.offset, let hunk = decode(&cursor) { taken.append(hunk) }
    bytes.removeFirst(kept.offset)
    used -= kept.offset
    runs.removeFirst(kept.run)
    last.offset -= kept.offset
    last.run -= kept.run
    base = _JournalCursor(offset: 0, run: 0, action: kept.action, end: kept.end)
    kept = base
    count -= droppedCount
    droppedCount = 0
    return taken
  }

  /// The hunk at `cursor`, which moves past it.
  private func decode(_ cursor: inout _JournalCursor) -> _JournalHunk? {
    guard cursor.offset < last.offset, cursor.offset < used else { return nil }
    let start = cursor.offset
    var at = cursor.offset
    let flags = bytes[at]
    at += 1
    if flags & Flag.plain != 0 {
      let position = cursor.end &+ Self.unzigzag(Self.take(bytes, &at))
      let inserted = Int(truncatingIfNeeded: Self.take(bytes, &at))
      let length = Int(truncatingIfNeeded: Self.take(bytes, &at))
      cursor = _JournalCursor(
        offset: at, run: cursor.run, action: cursor.action, end: position &+ inserted)
      return _JournalHunk(
        action: -1, start: position, inserted: inserted, removed: .empty, selection: nil,
        cost: 0, removedLength: length)
    }
    let action = cursor.action &+ Int(truncatingIfNeeded: Self.take(bytes, &at))
    let position = cursor.end &+ Self.unzigzag(Self.take(bytes, &at))
    let inserted = Int(truncatingIfNeeded: Self.take(bytes, &at))
    let textCount =
      flags & Flag.removed != 0 ? Int(truncatingIfNeeded: Self.take(bytes, &at)) : 0
    var selection: _JournalSelection? = nil
    if flags & Flag.selection != 0 {
      let s = position &+ Self.unzigzag(Self.take(bytes, &at))
      var end: Int? = nil
      if flags & Flag.selectionRange != 0 { end = s &+ Self.unzigzag(Self.take(bytes, &at)) }
      selection = _JournalSelection(start: s, end: end)
    }
    var text = ""
    if textCount != 0 {
      let n = max(0, min(textCount, used - at))
      text = String(decoding: bytes[at..<(at + n)], as: UTF8.self)
      at += n
    }
    var run = cursor.run
    var removedRuns: [AttributeRun] = []
    if flags & Flag.runs != 0, run < runs.count {
      removedRuns = runs[run]
      run += 1
    }
    let removed = AttributedText(maximal: text, runs: removedRuns)
    cursor = _JournalCursor(
      offset: at, run: run, action: action, end: position &+ inserted)
    return _JournalHunk(
      action: action, start: position, inserted: inserted, removed: removed,
      selection: selection, cost: at - start + 48 * removed.runs.count,
      removedLength: removed.length, isEager: flags & Flag.eager != 0)
  }

  // MARK: Variable-length integers

  private static func zigzag(_ v: Int) -> UInt64 {
    UInt64(bitPattern: Int64(truncatingIfNeeded: (v << 1) ^ (v >> (Int.bitWidth - 1))))
  }

  private static func unzigzag(_ u: UInt64) -> Int {
    Int(truncatingIfNeeded: Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1))))
  }

  /// Makes sure of room for `count` more bytes after `used` (the growth
  /// out of line).
  @inline(__always)
  private mutating func ensureRoom(_ count: Int) {
    if used + count > bytes.count { makeRoom(count) }
  }

  /// Makes room for `count` more bytes after `used`: grown by a quarter,
  /// not doubled (the journal is most of what a long session's history
  /// keeps).
  @inline(never)
  private mutating func makeRoom(_ count: Int) {
    let needed = used + count
    let size = max(needed, bytes.count + bytes.count / 4)
    bytes.reserveCapacity(size)
    bytes.append(contentsOf: repeatElement(0, count: size - bytes.count))
  }

  /// Writes `v` at `n` in `buffer` (room for 9 bytes is there), its
  /// length in its first byte's trailing zeros: below 2^56 (every offset,
  /// length and delta a document has), `L` bytes (one to eight, seven bits
  /// of the value each) hold `v << L` with bit `L - 1` set, written in one
  /// 8-byte store with no branch on the value (`v << L` is below 2^(8L):
  /// the bytes past its end are written as zero); above, a zero byte and
  /// the value's eight bytes.
  @inline(__always)
  private static func put(_ v: UInt64, _ buffer: UnsafeMutableBufferPointer<UInt8>, _ n: inout Int)
  {
    guard v < 1 << 56, let base = buffer.baseAddress else {
      buffer[n] = 0
      for i in 0..<8 { buffer[n + 1 + i] = UInt8(truncatingIfNeeded: v >> UInt64(8 * i)) }
      n += 9
      return
    }
    let length = (70 &- (v | 1).leadingZeroBitCount) / 7
    let word = (v &<< UInt64(length)) | (1 &<< UInt64(length &- 1))
    UnsafeMutableRawPointer(base + n).storeBytes(of: word.littleEndian, as: UInt64.self)
    n &+= length
  }

  /// Reads the number ``put(_:_:_:)`` wrote at `at` (zero past the end).
  private static func take(_ bytes: [UInt8], _ at: inout Int) -> UInt64 {
    guard at < bytes.count else { return 0 }
    let isRaw = bytes[at] == 0
    let length = isRaw ? 9 : bytes[at].trailingZeroBitCount + 1
    let from = isRaw ? at + 1 : at
    let end = min(at + length, bytes.count)
    var word: UInt64 = 0
    for i in from..<end { word |= UInt64(bytes[i]) << UInt64(8 * (i - from)) }
    at = end
    return isRaw ? word : word >> UInt64(length)
  }
}

extension DocumentState {
  // MARK: - Lazy groups

  /// Whether a group of the person's can open lazily with the selection
  /// `before` it (none, or in the group's storage), and that selection as
  /// the journal keeps it.
  static func lazySelection(
    _ before: _SelectionBefore?, in id: StorageID
  ) -> (isPossible: Bool, selection: _JournalSelection?) {
    guard let before else { return (true, nil) }
    guard before.start.storage == id else { return (false, nil) }
    if let end = before.end {
      guard end.storage == id else { return (false, nil) }
      return (true, _JournalSelection(start: before.start.offset, end: end.offset))
    }
    return (true, _JournalSelection(start: before.start.offset, end: nil))
  }

  /// Opens a group of the person's lazily: an id on the main stack, no
  /// action in the table until the storage's tree takes its hunk.
  @inline(__always)
  mutating func openLazyGroup(in id: StorageID, _ edit: _EditStep, now: Int64) -> Int {
    let action = history.nextAction
    history.nextAction += 1
    history.lazyCount += 1
    history.lastLazy = action
    history.main.pushGroup(action)
    clearRedo()
    if history.personOpen?.storage == id {
      // The group before it in the same storage leaves its place, written
      // field by field (what this is worth: docs/benchmarks.md, issue 30).
      history.updatePersonOpen {
        $0.action = action
        $0.isDeletion = edit.n == 0
        $0.lastTime = now
        $0.last = nil
      }
    } else {
      history.setPersonOpen(
        _OpenGroup(action: action, storage: id, isDeletion: edit.n == 0, lastTime: now))
    }
    enforceHistoryLimit()
    return action
  }

  /// Starts the pending hunk of a lazy group with its first edit, which
  /// removed ``_History/keystrokeRemoved``.
  @inline(__always)
  mutating func startLazyHunk(
    _ action: Int, _ edit: _EditStep, selection: _JournalSelection?, in id: StorageID
  ) {
    if history.pending?.storage == id, history.journalPending(in: id, keepingPlace: true) {
      // The journal took the last hunk; this one takes its place.
      history.restartPending(action, edit, selection: selection)
      return
    }
    retirePending()
    let hunk = _PendingHunk(
      storage: id, action: action, edit, taking: &history.keystrokeRemoved, isLazy: true,
      selection: selection)
    history.setPending(hunk)
  }

  /// Puts the pending hunk away when another starts: a lazy group that is
  /// no longer open goes in its storage's journal; any other hunk goes in
  /// the tree (after the journal).
  mutating func retirePending() {
    guard history.pending != nil, !history.journalPending(), let p = history.pending
    else { return }
    flushHistory(p.storage)
  }

  /// Puts an edit no history records in storage `id`'s journal, behind
  /// its hunks and before the pending hunk, if the storage has a journal or
  /// the pending hunk and the edit does not touch the pending hunk's text:
  /// such an edit and the pending hunk's keystrokes commute, so the tree
  /// taking it first gives the marks it would have given in the order they
  /// came. Returns false if it did not (the caller puts the journal in the
  /// tree and moves the marks).
  mutating func journalPlain(_ edit: _EditStep, in id: StorageID) -> Bool {
    journalAside(edit, in: id) { history, step in
      // A hunk of no action: it records nothing, it only moves the marks.
      history.journalPlain(
        start: step.s, removedLength: step.e - step.s, inserted: step.n, in: id)
    }
  }

  /// Puts the first edit of an origin's new group (its action made, on
  /// the origin's stack) in storage `id`'s journal, as ``journalPlain(_:in:)``
  /// puts an edit no history records: the person's journal and pending hunk
  /// then wait on, and the tree records the origin's group when it takes
  /// them. Returns false if it did not (the caller records it).
  mutating func journalOrigin(
    _ action: Int, _ edit: _EditStep, removed: AttributedText, in id: StorageID
  ) -> Bool {
    journalAside(edit, in: id) { history, step in
      history.journalEager(
        _JournalHunk(
          action: action, start: step.s, inserted: step.n, removed: removed, selection: nil,
          isEager: true), in: id)
    }
  }

  /// What ``journalPlain(_:in:)`` and ``journalOrigin(_:_:removed:in:)``
  /// share: `edit` in the coordinates before the pending hunk (the hunk and
  /// its selection moved if it is before them) handed to `append`, if it
  /// commutes with the pending hunk.
  private mutating func journalAside(
    _ edit: _EditStep, in id: StorageID, _ append: (inout _History, _EditStep) -> Void
  ) -> Bool {
    let pendingHere = history.pending?.storage == id
    guard pendingHere || history.journaled.contains(id) else { return false }
    var step = edit
    if pendingHere, let start = history.pending?.start, let inserted = history.pending?.inserted,
      let removedLength = history.pending?.removedLength
    {
      if edit.e < start {
        // Before the hunk: it moves.
        history.updatePending { $0.start = start + edit.delta }
      } else if edit.s > start + inserted {
        // After it: in the coordinates before the hunk's keystrokes.
        let shift = inserted - removedLength
        step = _EditStep((edit.s - shift)..<(edit.e - shift), insertedLength: edit.n)
      } else {
        return false
      }
      // The selection before the hunk is in those coordinates too: the
      // tree will take the edit before it.
      if let selection = history.pending?.selection {
        let moved = _JournalSelection(
          start: _TrackedRanges.mapPoint(selection.start, step, goesAfter: false),
          end: selection.end.map { _TrackedRanges.mapPoint($0, step, goesAfter: false) })
        history.updatePending { $0.selection = moved }
      }
    }
    append(&history, step)
    return true
  }

  // MARK: - The tree takes the journal

  /// Puts storage `id`'s journal, then its pending hunk, in its tree of
  /// marks: before anything else edits the storage, or reads or adds a
  /// mark there.
  mutating func flushHistory(_ id: StorageID) {
    flushJournal(id)
    if history.pending?.storage == id { flushPending() }
  }

  /// Puts storage `id`'s journal in its tree of marks, and leaves the
  /// pending hunk pending: the journal's hunks all come before it, and the
  /// edits that wait beside it are in the coordinates before it whether the
  /// journal holds hunks or not.
  mutating func flushJournal(_ id: StorageID) {
    guard !history.journaled.isEmpty, history.journaled.contains(id),
      let journal = history.takeJournal(id)
    else { return }
    if history.marks[id] == nil, let serial = content.serial(of: id) {
      history.marks[id] = _HistoryMarks(serial: serial)
    }
    history.bytes -= journal.charged
    journal.forEachHunk { hunk in materialize(hunk, in: id) }
  }

  /// The most hunks a journal holds when a streaming tool's or a peer's
  /// edit comes to wait in it: past it, that edit has the tree take the
  /// journal first.
  static let journalBound = 32

  /// Before a tool's or a peer's edit waits in storage `id`'s journal: the
  /// tree takes the journal if it holds ``journalBound`` hunks or more (not
  /// the pending hunk, so the person's typing goes on without the tree). So
  /// the edit that cannot wait (one that touches the pending hunk) has a
  /// short journal to take, not every group since the tool last came: at
  /// the history's limit, 10,000 groups took tens of milliseconds.
  ///
  /// Only while a tool streams (`interactiveStreaming`), whose replacements
  /// come every few keystrokes: a replacement or a peer's edit after long
  /// typing alone would take every group typed since at once (10,000
  /// groups: 50 ms), where waiting beside them costs nothing.
  /// It is also where the marks of dropped groups leave their trees, a
  /// few at a time (``sweepStaleMarks()``): the tool's edit pays for them,
  /// not the person's keystroke.
  mutating func boundJournal(_ id: StorageID) {
    guard writingToolsState == .interactiveStreaming else { return }
    if history.staleMarks.count >= Self.staleMarksByTool { sweepStaleMarks() }
    guard history.journaled.contains(id),
      (history.journal(of: id)?.count ?? 0) >= Self.journalBound
    else { return }
    flushJournal(id)
  }

  /// ``boundJournal(_:)`` in a condition: always true.
  mutating func boundingJournal(_ id: StorageID) -> Bool {
    boundJournal(id)
    return true
  }

  /// Puts every journal and the pending hunk in their trees (before an
  /// undo or a redo).
  mutating func flushAllHistory() {
    for id in history.journaled { flushHistory(id) }
    if let p = history.pending { flushHistory(p.storage) }
  }

  /// The tree of storage `id` takes a hunk of its journal: a kept group
  /// becomes an action with its marks; a dropped one only moves the marks.
  mutating func materialize(_ hunk: _JournalHunk, in id: StorageID) {
    var recording: _Recording? = nil
    if hunk.isEager {
      // An origin's group: recorded if its action is still kept.
      if history.actions.contains(hunk.action) {
        recording = _Recording(action: hunk.action, mayPend: false)
      }
    } else if hunk.action >= 0 && hunk.action > history.lazyDropped {
      makeLazyAction(hunk.action, selection: hunk.selection, in: id)
      recording = _Recording(action: hunk.action, mayPend: false)
    }
    let step = _EditStep(
      hunk.start..<(hunk.start + hunk.removedLength), insertedLength: hunk.inserted)
    let made = followMarks(step, in: id, recording: recording, removed: hunk.removed)
    if recording != nil { noteLast(made, of: hunk.action, in: id) }
    // A tool's replacement's link gets its marks now.
    if hunk.isEager, recording != nil,
      let k = history.actions[hunk.action]?.swaps.firstIndex(where: \.pending)
    {
      history.actions[hunk.action]?.swaps[k].added = history.lastMade.added
      history.actions[hunk.action]?.swaps[k].piece = history.lastMade.piece
      history.actions[hunk.action]?.swaps[k].pending = false
    }
  }

  /// Makes lazy group `a`'s action, with the selection before it as
  /// points (the tree being where it was before the group's edit).
  mutating func makeLazyAction(_ a: Int, selection: _JournalSelection?, in id: StorageID) {
    history.lazyCount -= 1
    var action = _HistoryAction(party: .person)
    action.bytes = _HistoryAction.baseCost
    history.bytes += action.bytes
    history.actions[a] = action
    if let selection {
      keep(
        _SelectionBefore(
          start: (id, selection.start), end: selection.end.map { (id, $0) }),
        for: a, flushing: false)
    }
  }

  // MARK: - Dropping and forgetting

  /// Drops lazy group `a` (the oldest the histories keep: the limit drops
  /// the oldest first).
  mutating func dropLazy(_ a: Int) {
    guard a > history.lazyDropped, a <= history.lastLazy else { return }
    var holder: StorageID? = nil
    var isOldest = true
    for id in history.journaled {
      guard let first = history.journal(of: id)?.firstKeptAction(after: history.lazyDropped)
      else { continue }
      if first == a {
        holder = id
      } else if first < a {
        isOldest = false
      }
    }
    guard isOldest else {
      // Not the oldest: the trees take everything, and it goes as any
      // action does.
      flushAllHistory()
      if history.actions.contains(a) { dropAction(a) }
      return
    }
    if let holder {
      let lazyDropped = history.lazyDropped
      history.bytes -=
        (history.withJournal(holder) { $0.dropFirst(a, after: lazyDropped) } ?? nil) ?? 0
    } else if !(history.pending?.action == a && history.pending?.isLazy == true),
      a != history.lastLazy
    {
      return
    }
    history.lazyCount -= 1
    history.lazyDropped = a
    if history.personOpen?.action == a {
      history.setPersonOpen(nil)
    }
    if let holder { compactJournal(holder) }
  }

  /// Once most of a journal was dropped, its tree takes the dropped hunks'
  /// edits (if it has marks to move) and the journal lets them go.
  mutating func compactJournal(_ id: StorageID) {
    guard let journal = history.journal(of: id), journal.droppedCount > 64,
      journal.droppedCount * 2 > journal.count
    else { return }
    let dropped = history.withJournal(id) { $0.takeDropped() } ?? []
    guard history.marks[id]?.tree.isEmpty == false else { return }
    for hunk in dropped { materialize(hunk, in: id) }
  }

  /// Storage `id` was removed: its lazy groups become actions with nothing
  /// left to take back (as every group there is), and its journal goes.
  mutating func forgetJournal(of id: StorageID) {
    if let p = history.pending, p.storage == id {
      history.setPending(nil)
      if p.isLazy && p.action > history.lazyDropped {
        makeLazyAction(p.action, selection: nil, in: id)
      }
    }
    if history.journaled.contains(id), let journal = history.takeJournal(id) {
      history.bytes -= journal.charged
      journal.forEachHunk { hunk in
        if !hunk.isEager && hunk.action > history.lazyDropped {
          makeLazyAction(hunk.action, selection: nil, in: id)
        }
      }
    }
  }
}

extension DocumentState {
  // MARK: - The person's keystroke, without a plan

  /// What the person's `edit` does to the history when that is decided
  /// without the tree (the common keystroke): it goes on with their open
  /// group in its pending hunk (typing on, or deleting on, in one place, in
  /// the interval), or it opens a new lazy group (the selection before it
  /// none or in the same storage). `false`: ``historyPlan(_:in:)`` decides.
  /// Asked for the person's edits only, while the history is on.
  /// Decided, as the plan is, before the edit; ``historyFastFollow(_:in:removed:)``
  /// records it once the storage took the edit.
  /// The step is left in ``_History/fast`` (a stored place: nothing big
  /// is returned through an optional on every keystroke).
  mutating func historyFast(_ edit: _EditStep, in id: StorageID, now: Int64) -> Bool {
    // (An edit that changes nothing, a transformed piece left empty, is
    // recorded by no one: the plan says so.)
    guard batchActions == nil, history.isEnabled, !edit.changesNothing
    else {
      return false
    }
    let isDeletion = edit.n == 0
    var goesOn = false
    if let open = history.personOpen?.action, history.personOpen?.storage == id,
      history.personOpen?.isDeletion == isDeletion,
      let last = history.personOpen?.lastTime, now &- last <= history.intervalNanos
    {
      // The open group may go on: the pending hunk says where it left off
      // (if it is in the tree, the plan asks the tree).
      guard history.pending?.action == open else { return false }
      let isKept =
        history.pending?.isLazy == true
        ? open > history.lazyDropped : history.actions.contains(open)
      goesOn = isKept && history.pending?.isContinued(by: edit) == true
    }
    var selection: _JournalSelection? = nil
    if !goesOn {
      let lazy = Self.lazySelection(selectionNow(), in: id)
      guard lazy.isPossible else { return false }
      selection = lazy.selection
    }
    history.fast.now = now
    history.fast.opens = !goesOn
    history.fast.selection = selection
    return true
  }

  /// Records a keystroke ``historyFast(_:in:now:)`` decided, once the storage
  /// took it and handed back the text it removed (in
  /// ``_History/keystrokeRemoved``).
  mutating func historyFastFollow(_ edit: _EditStep, in id: StorageID) {
    let now = history.fast.now
    if history.fast.opens {
      let action = openLazyGroup(in: id, edit, now: now)
      startLazyHunk(action, edit, selection: history.fast.selection, in: id)
      history.typingStarts(action, edit, in: id, now: now)
    } else {
      history.updatePersonOpen { $0.lastTime = now }
      history.pendingTakesKeystroke(edit)
      history.refreshTyping()
    }
  }
}

/// What ``DocumentState/historyFast(_:in:now:)`` decided for a keystroke of the
/// person's.
struct _FastStep {
  /// On the history's clock, in nanoseconds.
  var now: Int64
  /// Whether it opens a new lazy group (else it goes on with the open one).
  var opens: Bool
  /// For a new group: the selection before it.
  var selection: _JournalSelection?
}
