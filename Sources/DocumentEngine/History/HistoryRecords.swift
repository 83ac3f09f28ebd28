import TextRope

/// Whose history a group is in: the person's (the document's main history),
/// a Writing Tools session's tool's (on the main history too, in order with
/// the person's groups; it has no open group: each of its groups is closed
/// when its replacement, or its streaming phase, is), or a named origin's.
enum _HistoryParty: Hashable, Sendable {
  case person
  case tool
  case origin(String)
}

/// A mark of the history in a storage: its number in that storage's tree of
/// history marks (see ``_HistoryMarks``), and the storage's serial, so
/// that a storage removed and added again under its name does not answer
/// for the old one.
struct _MarkRef: Hashable, Sendable {
  var storage: StorageID
  var serial: Int
  var local: UInt32
}

/// What a history mark stands for.
struct _MarkOwner: Hashable, Sendable {
  enum Role: Hashable, Sendable {
    /// Units the action put in (a range).
    case added
    /// Where the action's removed piece `k` goes back (a point).
    case removed(Int)
    /// Where the selection's start (or end) was before the group (a point).
    case selectionStart
    case selectionEnd
    /// Where the start (or end) of the host's tracked range that the
    /// action's kept range `k` names goes back (a point).
    case rangeStart(Int)
    case rangeEnd(Int)
  }

  var action: Int
  var role: Role

  var isPoint: Bool {
    if case .added = role { return false }
    return true
  }

  /// Whether it stands for an end of a host's kept range.
  var isRangeEnd: Bool {
    switch role {
    case .rangeStart, .rangeEnd: true
    default: false
    }
  }
}

/// A mark inside a removed piece: a range (or point) of its text that
/// belonged to another action when the piece was removed, so that putting
/// the piece back gives those units (or that point) back to it.
struct _InnerMark: Sendable {
  /// Relative to the piece's text.
  var range: Range<Int>
  var owner: _MarkOwner
  /// For a point: its number. A point stays in the tree while it is in a
  /// piece, at the piece's point, right after it (see ``_HistoryMarks/swallowedBy``).
  var local: UInt32? = nil
  /// For a range: whether it holds the last unit its open group typed
  /// (the group goes on after it once it is back).
  var holdsGroupEnd = false
}

/// A removed piece: its action and its index there.
struct _PieceRef: Hashable, Sendable {
  var action: Int
  var piece: Int
}

/// A host's tracked range that an action's edit collapsed or removed (an
/// end whose unit the edit removed: a start at `s ≤ p < e`, an end at
/// `s < p ≤ e`; an empty range's point by its bias), kept so that taking
/// the action back brings it back where it was (docs/DESIGN.md, *History*:
/// undo puts back the positions too). Its kept ends wait inside the
/// action's piece as inner marks, and come back with it; a removed range's
/// other ends wait as points.
struct _KeptRange: Sendable {
  var storage: StorageID
  var serial: Int
  var local: UInt32
  /// For a range the edit removed: its rules and kind (it is tracked again
  /// under its number).
  var item: (flags: UInt16, kind: UInt16)?
  var keepsStart: Bool
  var keepsEnd: Bool
  /// Where its start and end wait (nil while inside a piece, or not kept).
  var start: _MarkRef? = nil
  var end: _MarkRef? = nil
}

/// A tool's group's link to one of its session's replacements: the
/// replacement's index, the action's range of the units the replacement put
/// in (if any) and its piece of the text it replaced (if any). While the
/// session lives and the replacement is intact, undo and redo swap its text
/// as the session's own edit (``DocumentState/swapText(_:toOriginal:)``),
/// recorded in the inverse, which takes the link over.
struct _SwapLink: Sendable {
  var replacement: Int
  var added: _MarkRef?
  var piece: Int?
  /// Whether its edit still waits in its storage's journal (as an eager
  /// hunk): the marks are filled in when the tree takes it.
  var pending = false
}

/// Text an action removed, waiting at a point of its storage to go back.
struct _RemovedPiece: Sendable {
  /// The point (`nil` once the piece went back, or its storage went).
  var mark: _MarkRef?
  var text: AttributedText
  var inner: [_InnerMark]
}

/// What the history does with an edit of the one path, decided before it.
struct _HistoryPlan {
  /// The recording, when it is known before the edit (the open group, a
  /// batch's group, an undo); else a new group of `party` opens.
  var recording: _Recording? = nil
  var party: _HistoryParty? = nil
  var selection: _SelectionBefore? = nil
  var removed = AttributedText.empty
  /// On the history's clock, in nanoseconds.
  var now: Int64 = 0
}

/// Where the selection's first range was before an edit that opens a
/// group: its start, and its end unless it is a caret.
struct _SelectionBefore {
  var start: (storage: StorageID, offset: Int)
  var end: (storage: StorageID, offset: Int)?
}

/// What the selection was before a group, as points that follow edits.
struct _SelectionMarks: Sendable {
  var start: _MarkRef
  var end: _MarkRef?
}

/// One group's effect, as it can be taken back: the units it put in that
/// are still there (``added``) and the pieces it removed
/// (``pieces``). Undoing it makes its inverse, another action, which
/// takes the group's place in the history.
struct _HistoryAction: Sendable {
  var party: _HistoryParty
  var pieces: [_RemovedPiece] = []
  var added: [_MarkRef] = []
  /// Where the selection was before the group; its undo and redo keep it.
  var selection: _SelectionMarks? = nil
  /// What it costs, in bytes (see ``_HistoryAction/cost``).
  var bytes: Int = 0
  /// For a tool's group: the number of the session that made it
  /// (``DocumentState/sessionCount``), and its links to that session's
  /// replacements, which count while the session lives.
  var session: Int? = nil
  var swaps: [_SwapLink] = []
  /// The host's tracked ranges its edits collapsed or removed.
  var ranges: [_KeptRange] = []

  init(party: _HistoryParty) { self.party = party }

  /// What a mark costs: its item in the tree and its owner's entry.
  static let markCost = 64
  /// What an action costs besides its marks and texts.
  static let baseCost = 96
}

/// An edit being made by an action (a group's edit, or its undo or redo):
/// the one path (`DocumentState.apply`) records it in the action.
struct _Recording: Sendable {
  var action: Int
  /// Whether a keystroke may go in the storage's pending hunk (the
  /// person's or an origin's own group; not a batch, an undo or a redo).
  var mayPend: Bool
  /// For an undo or redo putting a piece back: the piece's point and
  /// inner marks.
  var revive: (mark: UInt32, inner: [_InnerMark])? = nil
  /// Whether the edit also removes text (an undo or redo that puts a piece
  /// back in place of the units it takes out, in one edit): what it removes
  /// makes a piece of the recording action, whose point goes after the
  /// text put back (as if the text went back first, then the units went).
  var replaces = false
  /// Whether the edit may wait in its storage's journal as an eager hunk
  /// (a tool's replacement: the tree takes it with the person's groups,
  /// instead of taking them all at once for it).
  var journals = false
}

/// Text an edit removed as the rope hands it back: its UTF-8 (valid, on
/// scalar boundaries) in room that is reused, and its attributes as
/// maximal runs. The histories keep one for the keystroke being made and
/// one in the pending hunk: a keystroke's deletion makes no string and no
/// array. (A pending hunk's first edit takes the keystroke's bytes by a
/// swap, so that the two trade rooms; room over ``keptRoom`` bytes is let
/// go when emptied, so that a large deletion's does not stay.)
struct _RemovedBytes: Sendable {
  var utf8 = UTF8Room()
  var runs: [AttributeRun] = []

  init() {}

  init(_ text: AttributedText) {
    utf8 = UTF8Room(text.text.utf8)
    runs = text.runs
  }

  var attributedText: AttributedText {
    AttributedText(maximal: utf8.withUTF8 { String(decoding: $0, as: UTF8.self) }, runs: runs)
  }

  /// The most room kept once it is emptied.
  static let keptRoom = 1 << 16

  /// Makes it empty, keeping its room (up to ``keptRoom``).
  mutating func removeAll() {
    utf8.removeAll(keepingRoomUpTo: Self.keptRoom)
    if !runs.isEmpty { runs = [] }
  }

  /// Puts `other` before it (a backspace that goes on).
  mutating func prepend(_ other: borrowing _RemovedBytes) {
    guard runs.isEmpty && other.runs.isEmpty else {
      self = _RemovedBytes(.concatenated([other.attributedText, attributedText]))
      return
    }
    utf8.insert(contentsOf: other.utf8, at: 0)
  }

  /// Puts `other` after it (a forward delete that goes on).
  mutating func append(_ other: borrowing _RemovedBytes) {
    guard runs.isEmpty && other.runs.isEmpty else {
      self = _RemovedBytes(.concatenated([attributedText, other.attributedText]))
      return
    }
    utf8.insert(contentsOf: other.utf8, at: utf8.count)
  }
}

/// The keystrokes of an open group not yet put in the storage's tree of
/// marks: the text at `start` removed and `inserted` units put in its
/// place, in current coordinates. Typing in one place only changes these
/// numbers; the tree takes them as one edit when something else happens
/// in the storage (``DocumentState/flushPending(in:)``).
struct _PendingHunk: Sendable {
  var storage: StorageID
  var action: Int
  var start: Int
  var inserted: Int
  /// The text it removed, in order (a backspace's goes in front, a
  /// forward delete's at the end), as UTF-8 and runs: a keystroke adds its
  /// bytes in the room the last ones left.
  var removedBytes = _RemovedBytes()
  var removedLength = 0
  /// Whether its action was opened lazily: it is not in the table of
  /// actions yet, and goes in its storage's journal when the hunk is done.
  var isLazy = false
  /// For a lazy group: where the selection was before it.
  var selection: _JournalSelection? = nil

  /// A hunk of `action` with its first edit, which removed `removed`
  /// (taken, if the edit removed anything: `removed` gets this hunk's
  /// empty room).
  init(
    storage: StorageID, action: Int, _ edit: _EditStep, taking removed: inout _RemovedBytes,
    isLazy: Bool = false, selection: _JournalSelection? = nil
  ) {
    self.storage = storage
    self.action = action
    start = edit.s
    inserted = edit.n
    self.isLazy = isLazy
    restart(action, edit, taking: &removed, selection: selection)
  }

  /// A hunk of `action` with its first edit, which removed `removed`.
  init(
    storage: StorageID, action: Int, _ edit: _EditStep, removed: AttributedText,
    isLazy: Bool = false, selection: _JournalSelection? = nil
  ) {
    var bytes = _RemovedBytes(removed)
    self.init(
      storage: storage, action: action, edit, taking: &bytes, isLazy: isLazy,
      selection: selection)
  }

  /// Starts over as the hunk of `action` with its first edit, in place (its
  /// rooms kept), which removed `removed` (taken, if the edit removed
  /// anything: `removed` gets the room of this hunk's last text, emptied).
  mutating func restart(
    _ action: Int, _ edit: _EditStep, taking removed: inout _RemovedBytes,
    selection: _JournalSelection?
  ) {
    self.action = action
    start = edit.s
    inserted = edit.n
    if edit.e > edit.s {
      swap(&removedBytes, &removed)
      // `removed` has this hunk's last text and room now: emptied (a large
      // deletion's room let go).
      removed.removeAll()
      removedLength = edit.e - edit.s
    } else {
      if removedLength != 0 { removedBytes.removeAll() }
      removedLength = 0
    }
    self.selection = selection
  }

  /// The text it removed.
  var removed: AttributedText { removedBytes.attributedText }

  /// Whether `edit` goes on where the hunk left off: typing at its end, or
  /// deleting next to its point (backspace or forward delete).
  func isContinued(by edit: _EditStep) -> Bool {
    Self.isContinued(start: start, inserted: inserted, by: edit)
  }

  /// Whether `edit` goes on where a hunk that starts at `start` and put
  /// in `inserted` units left off (the rule ``_TypingRun`` reads too).
  @inline(__always)
  static func isContinued(start: Int, inserted: Int, by edit: _EditStep) -> Bool {
    if edit.n > 0 { return edit.s == edit.e && edit.s == start &+ inserted }
    return edit.s < edit.e && inserted == 0 && (edit.e == start || edit.s == start)
  }

  /// Appends it to `journal`, read where it is (in place in the
  /// histories' optional: no copy of it or its text).
  mutating func append(to journal: inout _Journal, dropped: Bool) -> Int {
    journal.append(&self, dropped: dropped)
  }

  /// Takes a keystroke that goes on with it (``isContinued(by:)``).
  mutating func take(_ edit: _EditStep, removed text: borrowing _RemovedBytes) {
    if edit.n > 0 {
      inserted += edit.n
    } else if edit.e == start {
      removedBytes.prepend(text)
      start = edit.s
      removedLength += edit.e - edit.s
    } else {
      removedBytes.append(text)
      removedLength += edit.e - edit.s
    }
  }

  /// Takes a keystroke that goes on with it, which removed `text`.
  mutating func take(_ edit: _EditStep, removed text: AttributedText) {
    take(edit, removed: _RemovedBytes(text))
  }

}

/// A storage's history marks: a tree of tracked ranges of its own (so that
/// a keystroke does not walk them: they take a keystroke's edit only when
/// it is not the open group's), what each stands for, and the pending
/// hunk.
struct _HistoryMarks: Sendable {
  var serial: Int
  var tree = _TrackedRanges()
  var owners: [UInt32: _MarkOwner] = [:]
  /// For each point inside a removed piece (its text was removed around
  /// it), the innermost such piece. The point is in the tree at the
  /// piece's point, after it, in order; when the piece goes back, the
  /// point goes back inside its text, and when the point's own piece goes
  /// back first, the pieces around it are cut in two there.
  var swallowedBy: [UInt32: _PieceRef] = [:]

  init(serial: Int) { self.serial = serial }

  /// A point (empty, stays before text inserted at it).
  static let pointFlags = _TrackedItem.flags(
    TrackingRules(bias: .left), empty: true, role: .host)
  /// A range of units (takes no text inserted at its ends).
  static let rangeFlags = _TrackedItem.flags(TrackingRules(), empty: false, role: .host)

  /// Adds a mark; its number.
  mutating func add(_ range: Range<Int>, owner: _MarkOwner) -> UInt32? {
    guard let local = try? tree.newLocals(1).lowerBound else { return nil }
    tree.insert(
      range, local: local, flags: owner.isPoint ? Self.pointFlags : Self.rangeFlags, kind: 0)
    owners[local] = owner
    return local
  }

  mutating func remove(_ local: UInt32) {
    tree.remove(local)
    owners[local] = nil
    swallowedBy[local] = nil
  }

  /// The points at `p`, in the tree's order.
  func points(at p: Int) -> [UInt32] {
    var found: [UInt32] = []
    tree.forEach(meeting: p...p) { item, range in
      if range.isEmpty && range.lowerBound == p && owners[item.local]?.isPoint == true {
        found.append(item.local)
      }
    }
    return found
  }
}

/// A party's open group: its action, where its last hunk is, what kind of
/// edit it groups, and when its last edit was.
struct _OpenGroup: Sendable {
  var action: Int
  var storage: StorageID
  var isDeletion: Bool
  /// On the history's clock, in nanoseconds.
  var lastTime: Int64
  /// The last hunk once it left the pending hunk: its added range (an
  /// insertion group) or its point (a deletion group).
  var last: _MarkRef? = nil
}

/// An origin's undo and redo stacks (of actions).
struct _OriginStacks: Sendable {
  var undo: [Int] = []
  var redo: [Int] = []
}

/// Everything the person's and the origins' histories keep besides the
/// main stacks (``_UndoStacks``).
/// The actions by id: ids are given in increasing order and the oldest go
/// first, so an array from the oldest kept id on finds them without a hash.
struct _ActionTable: Sendable {
  private var slots: [_HistoryAction?] = []
  private var base = 0
  /// No action is kept in the slots before this one: the search for the
  /// first kept one starts here, so that dropping the oldest actions one
  /// by one does not walk the empty slots before them again and again
  /// (each look copies a slot: 136 bytes).
  private var front = 0
  /// How many actions are kept.
  private(set) var count = 0

  subscript(id: Int) -> _HistoryAction? {
    get {
      let i = id - base
      return i >= 0 && i < slots.count ? slots[i] : nil
    }
    _modify {
      let i = id - base
      if i >= 0 && i < slots.count {
        let was = slots[i] != nil
        yield &slots[i]
        let kept = slots[i] != nil
        count += (kept ? 1 : 0) - (was ? 1 : 0)
        if kept && i < front { front = i }
        if was && !kept { trim() }
      } else {
        var new: _HistoryAction? = nil
        yield &new
        if let new { insert(new, at: id) }
      }
    }
  }

  /// Whether action `id` is kept (without copying it).
  func contains(_ id: Int) -> Bool {
    let i = id - base
    return i >= 0 && i < slots.count && slots[i] != nil
  }

  @discardableResult
  mutating func removeValue(forKey id: Int) -> _HistoryAction? {
    let old = self[id]
    if old != nil { self[id] = nil }
    return old
  }

  private mutating func insert(_ action: _HistoryAction, at id: Int) {
    if slots.isEmpty {
      base = id
      front = 0
    }
    if id < base {
      slots.insert(contentsOf: [_HistoryAction?](repeating: nil, count: base - id), at: 0)
      front += base - id
      base = id
    }
    front = min(front, id - base)
    while id - base >= slots.count { slots.append(nil) }
    slots[id - base] = action
    count += 1
  }

  /// Drops the empty slots at the front once they are half the array.
  private mutating func trim() {
    var first = front
    while first < slots.count, slots[first] == nil { first += 1 }
    guard first < slots.count else {
      slots.removeAll(keepingCapacity: true)
      front = 0
      return
    }
    front = first
    if first > 64 && first * 2 > slots.count {
      slots.removeFirst(first)
      base += first
      front = 0
    }
  }
}

/// The document's one history (docs/DESIGN.md, *History*): the main undo
/// and redo stacks, each origin's, the actions of their groups (the units
/// they put in, the text they took out, as marks), the journal, the
/// pending hunk and the person's typing run.
struct _History: Sendable {
  /// The main undo and redo stacks: the person's groups, the tools' groups
  /// (and, with the recording off, the session's replacements) and the
  /// accepted suggestions, in order.
  var main = _UndoStacks()
  var actions = _ActionTable()
  /// The keystrokes of the last group typed, not yet in its storage's
  /// tree (one at a time: anything else in that storage puts it there).
  ///
  /// Only this file sets it (``setPending(_:)``, ``updatePending(_:)``,
  /// the typing run's keystroke): changing it makes ``typing`` not live.
  fileprivate(set) var pending: _PendingHunk? = nil
  var nextAction = 0
  /// The groups that entered the history later than their number says (an
  /// accepted preview's action, made at the preview): where they entered,
  /// as ``order(_:)`` counts (the limit drops the oldest first).
  var enteredLate: [Int: Int] = [:]
  var marks: [StorageID: _HistoryMarks] = [:]
  /// Marks of groups the limit dropped, still in their trees: they leave
  /// them a batch at a time (``DocumentState/sweepStaleMarks()``), so that
  /// the keystroke that opens a group past the limit does not pay for the
  /// oldest group's marks. Until then they move with the text like any
  /// mark, and an edit that reports one removes it (its action is gone).
  var staleMarks: [_MarkRef] = []
  /// The open groups: the person's apart, as every keystroke asks for it.
  /// Only this file sets it (``setPersonOpen(_:)``,
  /// ``updatePersonOpen(_:)``, the typing run's keystroke), as ``pending``.
  fileprivate(set) var personOpen: _OpenGroup? = nil
  /// What the person's next keystroke reads to know it goes on with their
  /// open group (see ``_TypingRun``).
  var typing = _TypingRun()
  var originOpen: [String: _OpenGroup] = [:]
  var origins: [String: _OriginStacks] = [:]
  var options = HistoryOptions() {
    didSet {
      clockIsSystem = options.isSystemClock
      intervalNanos = Self.nanoseconds(options.groupingInterval)
      typing.isLive = false
    }
  }
  /// Whether the options' clock is the system's (read without a call
  /// through the closure, nor `Duration`'s 128-bit arithmetic).
  var clockIsSystem = true
  /// The grouping interval, in nanoseconds.
  var intervalNanos = Self.nanoseconds(.seconds(1))
  /// What the kept actions cost, in bytes.
  var bytes = 0
  /// Whether the person's edits are recorded at all (kept beside the
  /// options: every keystroke asks).
  var isEnabled = true
  /// How many of the person's groups were opened lazily and are not in
  /// ``actions`` yet: in a journal, in the pending hunk, or just opened.
  var lazyCount = 0
  /// Every lazily opened group up to this id was dropped (the limit drops
  /// the oldest first).
  var lazyDropped = -1
  /// The last group opened lazily.
  var lastLazy = -1
  /// The marks ``DocumentState/followMarks(_:in:recording:removed:)`` made
  /// for the last edit it recorded: its range and its piece's index.
  var lastMade: (added: _MarkRef?, piece: Int?) = (nil, nil)
  /// Whether the last edit recorded went in its storage's journal (its
  /// marks are made later: ``lastMade`` says nothing of it).
  var lastJournaled = false
  /// What ``DocumentState/historyFast(_:in:now:)`` decided for the keystroke
  /// being made.
  var fast = _FastStep(now: 0, opens: false, selection: nil)
  /// The text the person's keystroke removed, as the rope handed it back
  /// (kept with its room from one keystroke to the next).
  var keystrokeRemoved = _RemovedBytes()
  /// The storages whose journals are not empty.
  var journaled: Set<StorageID> = []
  /// The journals (see ``_Journal``): for each storage, the person's groups
  /// its tree has not taken yet — every edit of the storage since the
  /// tree's last one is in it, then in the pending hunk. The one the person
  /// types in is kept apart (``hotJournal``), found without a hash.
  var journals: [StorageID: _Journal] = [:]
  var hotJournal = _Journal()
  var hotStorage: StorageID? = nil

  /// Puts the pending hunk in its storage's journal if it is a lazy
  /// group's that is no longer open (read in place, not copied out);
  /// false, and nothing changes, if it is not. `keepingPlace`: the hunk is
  /// left where it was, for the caller to write the next one over it
  /// (a lazy hunk still, of the same storage).
  mutating func journalPending(keepingPlace: Bool = false) -> Bool {
    guard let storage = pending?.storage else { return false }
    return journalPending(in: storage, keepingPlace: keepingPlace)
  }

  /// ``journalPending(keepingPlace:)`` for a pending hunk known to be in
  /// storage `id`: the hunk is read where it is, not copied out.
  @inline(__always)
  mutating func journalPending(in id: StorageID, keepingPlace: Bool) -> Bool {
    guard pending?.isLazy == true, let action = pending?.action, personOpen?.action != action
    else { return false }
    let dropped = action <= lazyDropped
    makeHot(id)
    let cost = pending?.append(to: &hotJournal, dropped: dropped) ?? 0
    if !keepingPlace { pending = nil }
    typing.isLive = false
    if !dropped { bytes += cost }
    return true
  }

  /// Makes storage `id`'s journal the hot one (found without a hash).
  @inline(__always)
  mutating func makeHot(_ id: StorageID) {
    if hotStorage != id {
      if let old = hotStorage { journals[old] = hotJournal }
      hotJournal = journals.removeValue(forKey: id) ?? _Journal()
      hotStorage = id
    }
    // A journal with hunks is in `journaled` already.
    if hotJournal.isEmpty { journaled.insert(id) }
  }

  /// Appends an edit of no action to storage `id`'s journal.
  mutating func journalPlain(start: Int, removedLength: Int, inserted: Int, in id: StorageID) {
    makeHot(id)
    hotJournal.appendPlain(start: start, removedLength: removedLength, inserted: inserted)
  }

  /// Appends an origin's group (``_JournalHunk/isEager``) to storage
  /// `id`'s journal, and charges it.
  mutating func journalEager(_ hunk: _JournalHunk, in id: StorageID) {
    makeHot(id)
    bytes += hotJournal.append(hunk, dropped: false)
  }

  /// Storage `id`'s journal.
  func journal(of id: StorageID) -> _Journal? {
    hotStorage == id ? hotJournal : journals[id]
  }

  /// Changes storage `id`'s journal in place.
  mutating func withJournal<R>(_ id: StorageID, _ body: (inout _Journal) -> R) -> R? {
    if hotStorage == id { return body(&hotJournal) }
    guard journals[id] != nil else { return nil }
    return body(&journals[id, default: _Journal()])
  }

  /// Takes storage `id`'s journal out.
  mutating func takeJournal(_ id: StorageID) -> _Journal? {
    journaled.remove(id)
    if hotStorage == id {
      hotStorage = nil
      let journal = hotJournal
      hotJournal = _Journal()
      return journal
    }
    return journals.removeValue(forKey: id)
  }

  /// Makes ``typing`` say what the open group and the pending hunk say,
  /// if the person's next keystroke may go on with them without the plan:
  /// the open group is lazy, kept, and its hunk is the pending one.
  mutating func refreshTyping() {
    // (Field by field: neither is copied out.)
    guard let action = personOpen?.action, action > lazyDropped, pending?.action == action,
      pending?.isLazy == true, let isDeletion = personOpen?.isDeletion,
      let lastTime = personOpen?.lastTime, let start = pending?.start,
      let inserted = pending?.inserted, let storage = pending?.storage,
      personOpen?.storage == storage
    else {
      typing.isLive = false
      return
    }
    makeTypingLive(
      isDeletion: isDeletion, storage: storage, lastTime: lastTime, start: start,
      inserted: inserted)
  }

  /// Makes ``typing`` live with these scalars of the open group and its
  /// pending hunk.
  @inline(__always)
  mutating func makeTypingLive(
    isDeletion: Bool, storage: StorageID, lastTime: Int64, start: Int, inserted: Int
  ) {
    typing.isLive = true
    typing.isDeletion = isDeletion
    if typing.storage != storage { typing.storage = storage }
    typing.lastTime = lastTime
    typing.interval = intervalNanos
    typing.start = start
    typing.inserted = inserted
  }

  /// How many groups the histories keep (a preview's action is none
  /// until it is accepted).
  var groupCount: Int {
    actions.count + lazyCount - (previewAction.map { actions.contains($0) ? 1 : 0 } ?? 0)
  }

  /// The action that records the preview in the text, if any: on no
  /// stack (see `DocumentState.preview(_:candidate:)`).
  var previewAction: Int? = nil

  /// Whether action `a` is kept: in the table, or opened lazily and not
  /// dropped.
  func isKept(_ a: Int) -> Bool {
    actions.contains(a) || (a > lazyDropped && pending?.action == a && pending?.isLazy == true)
  }

  /// The time on the options' clock, in nanoseconds: every keystroke asks.
  ///
  /// Mutating only so that it is called on the histories in place: a
  /// method that is not, called from the document's mutating edit, is
  /// handed a copy of all the histories (hundreds of bytes, every
  /// keystroke).
  @inline(__always)
  mutating func now() -> Int64 {
    clockIsSystem ? HistoryOptions.systemNanoseconds() : Self.nanoseconds(options.clock())
  }

  /// `duration` in nanoseconds, saturated (a host's clock may say anything).
  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (sum, overflowSum) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    return overflowSum ? (scaled < 0 ? .min : .max) : sum
  }

  /// Where group `action` entered the history, in the order the groups
  /// did: its number, unless it entered later (``enteredLate``).
  func order(_ action: Int) -> Int {
    enteredLate.isEmpty ? action &* 2 : enteredLate[action] ?? action &* 2
  }

  /// Group `action`, made earlier, enters the history now: after every
  /// group numbered so far, before the next.
  mutating func entersNow(_ action: Int) {
    if action != nextAction - 1 { enteredLate[action] = nextAction &* 2 - 1 }
  }

  func open(_ party: _HistoryParty) -> _OpenGroup? {
    switch party {
    case .person: personOpen
    case .tool: nil
    case .origin(let name): originOpen[name]
    }
  }

  mutating func setOpen(_ party: _HistoryParty, _ group: _OpenGroup?) {
    switch party {
    case .person:
      setPersonOpen(group)
    case .tool: break
    case .origin(let name): originOpen[name] = group
    }
  }

  mutating func newAction(_ party: _HistoryParty) -> Int {
    let id = nextAction
    nextAction += 1
    var action = _HistoryAction(party: party)
    action.bytes = _HistoryAction.baseCost
    bytes += action.bytes
    actions[id] = action
    return id
  }
}

/// The person's typing run: a copy of the scalars of their open group and
/// its pending hunk that a keystroke reads to know it goes on with them,
/// kept together and out of the optionals (a read through an optional
/// struct copies it out, with its strings). Live only while the open group
/// is lazy, kept, and its hunk is the pending one; anything that changes the
/// open group, the pending hunk or the options makes it not live (each
/// place that does says so; observers on them would make every change a
/// call), and the keystroke then asks ``DocumentState/historyFast(_:in:now:)``,
/// which makes it live again.
struct _TypingRun: Sendable {
  var isLive = false
  var isDeletion = false
  var storage = StorageID("")
  var lastTime: Int64 = 0
  var interval: Int64 = 0
  var start = 0
  var inserted = 0

  /// Whether `edit` in storage `id` at `now` goes on with the run, as
  /// ``_PendingHunk/isContinued(by:)`` and the interval say.
  @inline(__always)
  func goesOn(_ edit: _EditStep, in id: StorageID, now: Int64) -> Bool {
    guard isLive, now &- lastTime <= interval, (edit.n == 0) == isDeletion, storage == id
    else { return false }
    return _PendingHunk.isContinued(start: start, inserted: inserted, by: edit)
  }
}

extension _History {
  // MARK: Changing the pending hunk and the person's open group
  //
  // (Only this file sets them: whatever changes them makes the typing run
  // not live, but for the keystroke that goes on with it.)

  /// Sets the pending hunk; the typing run is not live.
  mutating func setPending(_ hunk: _PendingHunk?) {
    typing.isLive = false
    pending = hunk
  }

  /// Changes the pending hunk in place, if there is one; the typing run is
  /// not live.
  mutating func updatePending(_ change: (inout _PendingHunk) -> Void) {
    typing.isLive = false
    Self.update(&pending, change)
  }

  /// Sets the person's open group; the typing run is not live.
  mutating func setPersonOpen(_ group: _OpenGroup?) {
    typing.isLive = false
    personOpen = group
  }

  /// Changes the person's open group in place, if there is one; the typing
  /// run is not live.
  mutating func updatePersonOpen(_ change: (inout _OpenGroup) -> Void) {
    typing.isLive = false
    Self.update(&personOpen, change)
  }

  /// Changes `value` in place, if there is one (taken out and put back:
  /// its buffers are not copied).
  @inline(__always)
  private static func update<Wrapped>(
    _ value: inout Wrapped?, _ change: (inout Wrapped) -> Void
  ) {
    guard var wrapped = value.take() else { return }
    change(&wrapped)
    value = wrapped
  }

  /// The pending hunk starts again as action `action`'s, with `edit`
  /// (the text it removed in ``keystrokeRemoved``), after the journal took
  /// it.
  mutating func restartPending(
    _ action: Int, _ edit: _EditStep, selection: _JournalSelection?
  ) {
    typing.isLive = false
    pending?.restart(action, edit, taking: &keystrokeRemoved, selection: selection)
  }

  /// The pending hunk takes a keystroke of its group (the text it removed
  /// in ``keystrokeRemoved``); the typing run is not live (until the
  /// caller makes it so).
  mutating func pendingTakesKeystroke(_ edit: _EditStep) {
    typing.isLive = false
    pending?.take(edit, removed: keystrokeRemoved)
  }

  /// The storage took a keystroke that goes on with the typing run
  /// (``_TypingRun/goesOn(_:in:now:)``): the open group's time and the
  /// pending hunk take it (with the text it removed, in
  /// ``keystrokeRemoved``), and so does the run.
  mutating func typingGoesOn(_ edit: _EditStep, now: Int64) {
    if edit.n > 0 {
      typingTypes(edit.n, now: now)
    } else {
      personOpen?.lastTime = now
      pendingTakesKeystroke(edit)
      refreshTyping()
    }
  }

  /// A lazy group `action` just opened with `edit` in storage `id`, its
  /// hunk the pending one: the typing run is that group, as
  /// ``refreshTyping()`` would read it back from the open group and the
  /// pending hunk (unless the history's limit dropped it at once).
  mutating func typingStarts(_ action: Int, _ edit: _EditStep, in id: StorageID, now: Int64) {
    guard action > lazyDropped, personOpen?.action == action else {
      typing.isLive = false
      return
    }
    makeTypingLive(
      isDeletion: edit.n == 0, storage: id, lastTime: now, start: edit.s, inserted: edit.n)
  }

  /// The common keystroke: `n` units typed on with the typing run.
  @inline(__always)
  mutating func typingTypes(_ n: Int, now: Int64) {
    personOpen?.lastTime = now
    pending?.inserted += n
    typing.inserted &+= n
    typing.lastTime = now
    typing.isLive = true
  }
}
