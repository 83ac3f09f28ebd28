import SummaryTrees

/// One recorded edit of a storage: `range` (UTF-16, in the version before
/// it) replaced by `insertedLength` units, by `party`.
public struct ChangeRecord: Hashable, Sendable {
  /// The replaced range, in the coordinates of the version before the edit.
  public var range: Range<Int>
  /// The length of the new text.
  public var insertedLength: Int
  /// Who made the edit.
  public var party: EditParty
  /// For the first record of an operation that transformation applied in
  /// pieces: the operation as its party made it (in its own view), which
  /// later transformations against that party need. `nil` when the record is
  /// the operation as made, or a later piece (`isContinuation`).
  var original: _Operation?
  /// Whether the record is a later piece of the previous record's operation.
  var isContinuation: Bool
  /// The version the operation was made on (for `original`).
  var basis: StorageVersion

  init(
    range: Range<Int>, insertedLength: Int, party: EditParty, original: _Operation? = nil,
    basis: StorageVersion = 0, isContinuation: Bool = false
  ) {
    self.range = range
    self.insertedLength = insertedLength
    self.party = party
    self.original = original
    self.basis = basis
    self.isContinuation = isContinuation
  }

  var piece: _Piece { _Piece(range: range, length: insertedLength) }

  /// Whether it is a person's edit as made, not a piece of one: all a
  /// packed row says.
  var isPlain: Bool {
    _RecordInfo.isPlain(
      party: party, hasOriginal: original != nil, basis: basis, isContinuation: isContinuation)
  }
}

/// What a record that is not a person's plain edit says besides its packed
/// row (see ``ChangeLog``).
struct _RecordExtra: Sendable {
  /// The record's place among every record the log ever had.
  var serial: Int
  var party: EditParty
  var original: _Operation?
  var basis: StorageVersion
  var isContinuation: Bool

  init(serial: Int, _ record: ChangeRecord) {
    self.serial = serial
    party = record.party
    original = record.original
    basis = record.basis
    isContinuation = record.isContinuation
  }
}

/// What a change record says besides its range and length: passed down an
/// edit's path by reference, so that the record is made only where it is
/// kept (a copy of a record goes through its party's and its original
/// operation's value witnesses).
struct _RecordInfo {
  var party: EditParty = .person
  var original: _Operation? = nil
  var basis: StorageVersion = 0
  var isContinuation = false

  /// A person's edit.
  static var person: _RecordInfo { _RecordInfo() }

  /// Whether the record is a person's edit as made (``ChangeRecord/isPlain``).
  var isPlain: Bool {
    Self.isPlain(
      party: party, hasOriginal: original != nil, basis: basis, isContinuation: isContinuation)
  }

  /// The one rule of a plain record: a person's edit as made, not a piece
  /// of one, with no original operation and no basis (all a packed row
  /// says).
  @inline(__always)
  static func isPlain(
    party: EditParty, hasOriginal: Bool, basis: StorageVersion, isContinuation: Bool
  ) -> Bool {
    party.isPerson && !hasOriginal && basis == 0 && !isContinuation
  }

  /// The record of an edit of `range` to `insertedLength` units.
  func record(_ range: Range<Int>, insertedLength: Int) -> ChangeRecord {
    ChangeRecord(
      range: range, insertedLength: insertedLength, party: party, original: original,
      basis: basis, isContinuation: isContinuation)
  }
}

/// Why a change-index question could not be answered.
public enum ChangeLogError: Error, Hashable, Sendable {
  /// The version is newer than the storage, or older than the history kept.
  case unknownVersion(StorageVersion, oldest: StorageVersion, current: StorageVersion)
  /// A party's basis went back: it named a version older than the basis of
  /// an edit it had already sent.
  case basisWentBack(StorageVersion, last: StorageVersion)
}

/// The change index of one storage: its edits since the oldest version
/// anyone can still refer to, and composed maps (``ChangeMap``) from the
/// versions that are mapped from often — each live context's version, each
/// version a caller pins — to now, so that mapping from them is O(log m).
///
/// A version that is not pinned is mapped by composing its later edits on
/// the spot (O(k log k) for k edits); the last few such maps are kept.
///
/// History is dropped by ``trim()``: every record older than the oldest
/// pinned version goes. With nothing pinned, only the current version
/// remains.
public struct ChangeLog: Sendable {
  /// The log's state, in one object: copying a storage (a snapshot) then
  /// costs one reference, and an edit copies the state only if a snapshot
  /// shares it.
  ///
  /// The state changes only through `own()`, which makes it this log's alone
  /// first, so its fields need no run-time exclusivity checks.
  final class State: @unchecked Sendable {
    @exclusivity(unchecked) var oldestVersion: StorageVersion
    /// The records, packed: each a row of its range's start and count,
    /// its inserted length (doubled, plus one if it has an extra) and the
    /// text length before it (implied). Appended to on every edit while
    /// history is kept (a live session, a pinned version): a person's
    /// keystroke takes one 64-bit word, and no append copies more than a
    /// segment (see `_EditRows`).
    @exclusivity(unchecked) var rows = _EditRows()
    /// What the records that are not a person's plain edits say besides
    /// their rows (party, original operation, basis, continuation), by
    /// serial, in order.
    @exclusivity(unchecked) var extras = _SegmentedArray<_RecordExtra>()
    /// Records ever dropped from the front: record `i`'s serial is
    /// `dropped + i`.
    @exclusivity(unchecked) var dropped = 0
    @exclusivity(unchecked) var length: Int
    @exclusivity(unchecked) var lastOriginVersion: StorageVersion = 0
    @exclusivity(unchecked) var lastEdit: [EditParty: StorageVersion] = [:]
    @exclusivity(unchecked) var pins: [StorageVersion: _PinCount] = [:]
    @exclusivity(unchecked) var maps: [StorageVersion: ChangeMap] = [:]
    @exclusivity(unchecked) var recent: [StorageVersion] = []

    init(version: StorageVersion, length: Int) {
      oldestVersion = version
      self.length = length
    }

    /// Notes that `party` made the edit that led to `version` (the person's
    /// edits need no note: ``hasEdits(by:after:)`` is false for the person).
    func noteEdit(by party: EditParty, at version: StorageVersion) {
      guard !party.isPerson else { return }
      if case .origin = party { lastOriginVersion = version }
      lastEdit[party] = version
    }

    func copy() -> State {
      let state = State(version: oldestVersion, length: length)
      state.rows = rows
      state.extras = extras
      state.dropped = dropped
      state.lastOriginVersion = lastOriginVersion
      state.lastEdit = lastEdit
      state.pins = pins
      state.maps = maps
      state.recent = recent
      return state
    }

    /// How many records there are.
    var count: Int { rows.count }

    /// Appends `record`, made on a text of `lengthBefore` units.
    func append(_ record: ChangeRecord, lengthBefore: Int) {
      let hasExtra = !record.isPlain
      if hasExtra { extras.append(_RecordExtra(serial: dropped + rows.count, record)) }
      rows.append(
        _PackedRows.Row(
          record.range.lowerBound, record.range.count,
          record.insertedLength &<< 1 | (hasExtra ? 1 : 0), lengthBefore))
    }

    /// The index in ``extras`` of the first extra of record `i` or later.
    func firstExtra(atOrAfter i: Int) -> Int {
      let serial = dropped + i
      return extras.partitioningIndex { $0.serial >= serial }
    }

    /// Calls `body` with each record from `start` on — its piece, party,
    /// extra (nil for a person's plain edit), text length before it and
    /// index — until `body` returns false.
    @inline(__always)
    func forEachRecord(
      from start: Int,
      _ body: (_Piece, EditParty, _RecordExtra?, Int, Int) throws -> Bool
    ) rethrows {
      var e = firstExtra(atOrAfter: start)
      try rows.forEach(from: start) { row, index in
        let piece = _Piece(range: row.a..<(row.a &+ row.b), length: row.c &>> 1)
        if row.c & 1 == 0 { return try body(piece, .person, nil, row.d, index) }
        let extra = extras[e]
        e &+= 1
        return try body(piece, extra.party, extra, row.d, index)
      }
    }

    /// The records from `start` on, whole.
    func records(from start: Int) -> [ChangeRecord] {
      var result: [ChangeRecord] = []
      result.reserveCapacity(Swift.max(0, count - start))
      forEachRecord(from: start) { piece, party, extra, _, _ in
        result.append(
          ChangeRecord(
            range: piece.range, insertedLength: piece.length, party: party,
            original: extra?.original, basis: extra?.basis ?? 0,
            isContinuation: extra?.isContinuation ?? false))
        return true
      }
      return result
    }

    /// Drops the first `k` records.
    func removeFirst(_ k: Int) {
      rows.removeFirst(k)
      dropped += k
      let e = firstExtra(atOrAfter: 0)
      if e > 0 { extras.removeFirst(e) }
    }

    /// Drops every record.
    func removeAll() {
      dropped += rows.count
      rows.removeAll(keepingCapacity: true)
      extras.removeAll(keepingCapacity: true)
    }
  }

  var state: State

  /// Makes the state this value's own before a change.
  mutating func own() -> State {
    if !isKnownUniquelyReferenced(&state) { state = state.copy() }
    return state
  }

  /// The version the first record starts from.
  public internal(set) var oldestVersion: StorageVersion {
    get { state.oldestVersion }
    set { own().oldestVersion = newValue }
  }
  /// The records, oldest first: `records[i]` takes version
  /// `oldestVersion + i` to the next.
  ///
  /// - Complexity: O(n): the log keeps them in segments, and this copies
  ///   them into one array.
  public var records: [ChangeRecord] { state.records(from: 0) }
  /// The current text length. In a ``TextStorage`` it is also the rope's
  /// UTF-16 count; the log keeps its own because it works without the text
  /// (a log used on its own, a map composed from any version, the lengths
  /// before each record all start from it), and the storage's invariant
  /// check compares the two.
  public internal(set) var length: Int {
    get { state.length }
    set { own().length = newValue }
  }
  /// The version after the last edit by a named origin (0 if none).
  public internal(set) var lastOriginVersion: StorageVersion {
    get { state.lastOriginVersion }
    set { own().lastOriginVersion = newValue }
  }
  /// Pinned versions with their pin counts (every holder's).
  ///
  /// - Complexity: O(p) for p pinned versions.
  public var pins: [StorageVersion: Int] { state.pins.mapValues(\.total) }
  /// Composed maps by base version.
  var maps: [StorageVersion: ChangeMap] {
    get { state.maps }
    _modify { yield &own().maps }
  }
  /// Unpinned versions whose maps are kept, least recently used first.
  var recent: [StorageVersion] {
    get { state.recent }
    _modify { yield &own().recent }
  }
  static let recentLimit = 4

  /// The log of a text of `length` units at `version`.
  public init(version: StorageVersion = 0, length: Int) {
    state = State(version: version, length: length)
  }

  /// The current version.
  public var currentVersion: StorageVersion { oldestVersion + state.count }

  /// Whether `party` (not the person) made an edit after `version`.
  func hasEdits(by party: EditParty, after version: StorageVersion) -> Bool {
    !party.isPerson && (state.lastEdit[party] ?? 0) > version
  }

  /// Records one edit made in the current version: `range` replaced by
  /// `insertedLength` units, by `party`. (A ``Document`` records its edits
  /// itself; this is for a log used on its own.)
  ///
  /// - Complexity: O(p log m) for p kept maps, amortized O(1) otherwise.
  public mutating func record(
    _ range: Range<Int>, insertedLength: Int, party: EditParty = .person
  ) {
    record(ChangeRecord(range: range, insertedLength: insertedLength, party: party))
  }

  /// Records one edit (made in the current version) and brings every kept
  /// map up to date.
  ///
  /// - Complexity: O(p log m) for p kept maps.
  mutating func record(_ record: consuming ChangeRecord) {
    // One ownership check for the whole update; the state is then borrowed
    // (this value holds it throughout), not retained.
    if !isKnownUniquelyReferenced(&state) { state = state.copy() }
    let version = currentVersion.next
    Unmanaged.passUnretained(state)._withUnsafeGuaranteedRef { state in
      let piece = record.piece
      state.append(record, lengthBefore: state.length)
      state.length += piece.length - piece.range.count
      state.noteEdit(by: record.party, at: version)
      guard !state.maps.isEmpty else { return }
      // Each map is changed in place, where it lies in the dictionary: no
      // lookup, and nothing else holds the map, so its trees are not copied.
      var i = state.maps.values.startIndex
      while i != state.maps.values.endIndex {
        state.maps.values[i].record(piece.range, insertedLength: piece.length)
        state.maps.values.formIndex(after: &i)
      }
    }
  }

  /// Checks the log: one length per record, each record inside the text it
  /// edited and the lengths in step with the records, pins and kept maps
  /// on versions the log holds, each kept map from its version's text to
  /// the current one (and well formed), the recent maps kept and within
  /// their limit. Traps on a violation. Compiled in only with
  /// `-DENGINE_INTERNAL_CHECKS`; a no-op otherwise.
  ///
  /// - Complexity: O(r + m) for the last r ≤ 256 records and kept maps of
  ///   m sections in all; maps of over 4,096 sections have only their
  ///   lengths checked, so that the check stays cheap enough to run after
  ///   every edit.
  public func _invariantCheck() {
    #if ENGINE_INTERNAL_CHECKS
    let count = state.count
    let checked = max(0, count - 256)
    var flagged = 0
    var expected: Int? = nil
    state.forEachRecord(from: checked) { piece, _, extra, before, _ in
      if let expected { precondition(before == expected, "lengths out of step with the records") }
      precondition(
        piece.range.lowerBound >= 0 && piece.range.upperBound <= before && piece.length >= 0,
        "a record outside its text")
      if extra != nil { flagged += 1 }
      expected = before + piece.length - piece.range.count
      return true
    }
    if let expected {
      precondition(expected == state.length, "lengths out of step with the records")
    }
    // One extra for each flagged record, in order, none outside the log.
    let firstChecked = state.firstExtra(atOrAfter: checked)
    precondition(state.extras.count - firstChecked == flagged, "an extra per flagged record")
    for i in max(firstChecked, 1)..<max(state.extras.count, 1) {
      precondition(state.extras[i - 1].serial < state.extras[i].serial, "extras out of order")
    }
    precondition(
      state.extras.isEmpty
        || (state.extras[0].serial >= state.dropped
          && state.extras[state.extras.count - 1].serial < state.dropped + count),
      "an extra outside the log")
    for (version, count) in state.pins {
      precondition(
        count.caller >= 0 && count.session >= 0 && count.total > 0, "a pin counted zero")
      precondition(version >= oldestVersion && version <= currentVersion, "a pin outside the log")
    }
    for (version, map) in state.maps {
      precondition(version >= oldestVersion && version <= currentVersion, "a map outside the log")
      precondition(map.oldLength == length(at: version), "a map from another text")
      precondition(map.newLength == state.length, "a map behind the log")
      if map.sectionCount <= 4096 { map._invariantCheck() }
    }
    precondition(state.recent.count <= Self.recentLimit, "too many recent maps")
    for version in state.recent {
      precondition(state.maps[version] != nil, "a recent map not kept")
    }
    #endif
  }

  /// Records an edit of `range` to `insertedLength` units, by the party
  /// and with the details `info` gives. With nothing pinned and no map kept
  /// and without `keepingChanges`, that is only a new version and length:
  /// no record is kept, or even made.
  ///
  /// - Complexity: O(1) with nothing pinned; as ``record(_:)`` and
  ///   ``trim()`` otherwise.
  mutating func record(
    _ range: Range<Int>, insertedLength: Int, info: borrowing _RecordInfo, keepingChanges: Bool
  ) {
    if keepingChanges || !self.state.pins.isEmpty || !self.state.maps.isEmpty {
      if self.state.maps.isEmpty, info.isPlain {
        // A person's keystroke with no map to bring up to date (a live
        // session's, a pinned version's): its row, and nothing else — no
        // record is made.
        let state = own()
        state.rows.append(
          _PackedRows.Row(range.lowerBound, range.count, insertedLength &<< 1, state.length))
        state.length += insertedLength - range.count
      } else {
        // (No reference to the state is held here: `record` finds it
        // this value's own, and copies nothing.)
        record(info.record(range, insertedLength: insertedLength))
      }
      if !keepingChanges { trim() }
      return
    }
    let state = own()
    let version = currentVersion.next
    if state.count > 0 { state.removeAll() }
    state.oldestVersion = version
    state.length += insertedLength - range.count
    state.noteEdit(by: info.party, at: version)
  }

  /// ``record(_:insertedLength:info:keepingChanges:)`` for the person's
  /// keystrokes a typing run held back: each an insertion of `lengths[i]`
  /// units where the one before ended, the first at `start` (a negative
  /// length: a deletion of as many units before that point). The rows are
  /// appended in one go when the log keeps them and has no map to bring up
  /// to date (a live session's keystrokes); otherwise one by one.
  mutating func recordTyped(from start: Int, lengths: [Int], keepingChanges: Bool) {
    guard keepingChanges, state.maps.isEmpty else {
      var at = start
      for n in lengths {
        let range = n >= 0 ? at..<at : (at + n)..<at
        record(range, insertedLength: max(n, 0), info: .person, keepingChanges: keepingChanges)
        at += n
      }
      return
    }
    let state = own()
    var at = start
    var length = state.length
    for n in lengths {
      // (The row an insertion or a deletion at the point makes in `record`.)
      state.rows.append(
        n >= 0 ? _PackedRows.Row(at, 0, n &<< 1, length) : _PackedRows.Row(at + n, -n, 0, length))
      length += n
      at += n
    }
    state.length = length
  }

  /// The records after `version`, oldest first.
  ///
  /// - Throws: ``ChangeLogError/unknownVersion(_:oldest:current:)``.
  /// - Complexity: O(k) for the k records after `version`.
  public func records(since version: StorageVersion) throws(ChangeLogError)
    -> ArraySlice<ChangeRecord>
  {
    try check(version)
    return ArraySlice(state.records(from: version - oldestVersion))
  }

  func check(_ version: StorageVersion) throws(ChangeLogError) {
    guard version >= oldestVersion && version <= currentVersion else {
      throw .unknownVersion(version, oldest: oldestVersion, current: currentVersion)
    }
  }

  /// Keeps the history since `version` until as many ``unpin(_:)`` calls;
  /// with `composing`, also a composed map from `version` to now, kept up to
  /// date with every edit, so that mapping from it is O(log m) from the
  /// start. (Without, the map is composed at the first mapping from the
  /// version and then kept while it is pinned.)
  ///
  /// - Throws: ``ChangeLogError/unknownVersion(_:oldest:current:)``.
  public mutating func pin(_ version: StorageVersion, composing: Bool = false)
    throws(ChangeLogError)
  {
    try pin(version, composing: composing, for: .caller)
  }

  /// ``pin(_:composing:)`` for `holder`, whose pins only its own
  /// ``unpin(_:for:)`` undoes.
  mutating func pin(
    _ version: StorageVersion, composing: Bool, for holder: _PinHolder
  ) throws(ChangeLogError) {
    try check(version)
    own().pins[version, default: _PinCount()].add(1, for: holder)
    if composing && maps[version] == nil {
      maps[version] = composedMap(from: version)
      recent.removeAll { $0 == version }
    }
  }

  /// Undoes one ``pin(_:composing:)``; the history it held is dropped by
  /// the next ``trim()``. A version with no pin of the caller's (only a
  /// session's) keeps its pins.
  public mutating func unpin(_ version: StorageVersion) {
    unpin(version, for: .caller)
  }

  /// Undoes one pin of `holder`'s; a version `holder` did not pin is left
  /// alone.
  mutating func unpin(_ version: StorageVersion, for holder: _PinHolder) {
    guard var count = state.pins[version], count[holder] > 0 else { return }
    count.add(-1, for: holder)
    if count.total > 0 {
      own().pins[version] = count
    } else {
      own().pins[version] = nil
      if !recent.contains(version) { maps[version] = nil }
    }
  }

  /// Drops the records older than the oldest pinned version (all of them if
  /// nothing is pinned), and the unpinned maps from before it.
  public mutating func trim() {
    let keep = state.pins.keys.min() ?? currentVersion
    guard keep > oldestVersion else { return }
    let dropped = keep - oldestVersion
    let state = own()
    state.removeFirst(dropped)
    oldestVersion = keep
    for key in Array(maps.keys) where key < keep { maps[key] = nil }
    recent.removeAll { $0 < keep }
  }

  /// The text length at `version` (a version the log holds).
  ///
  /// - Complexity: O(1)
  func length(at version: StorageVersion) -> Int {
    let i = version - oldestVersion
    return i < state.count ? state.rows[i].d : length
  }

  /// A fresh composed map of the edits since `version`.
  func composedMap(from version: StorageVersion) -> ChangeMap {
    var map = ChangeMap(length: length(at: version))
    // From the packed rows, as the transformation loop reads them: no
    // record is made.
    state.rows.forEach(from: version - oldestVersion) { row, _ in
      map.record(row.a..<(row.a &+ row.b), insertedLength: row.c &>> 1)
      return true
    }
    return map
  }

  /// The composed map from `version` to now: the kept one, or a new one that
  /// is then kept among the recent maps.
  mutating func map(from version: StorageVersion) throws(ChangeLogError) -> ChangeMap {
    try check(version)
    if let map = maps[version] {
      if state.pins[version] == nil, let i = recent.firstIndex(of: version) {
        recent.remove(at: i)
        recent.append(version)
      }
      return map
    }
    let map = composedMap(from: version)
    maps[version] = map
    // A pinned version keeps its map; others join the recent ones.
    if state.pins[version] != nil { return map }
    recent.append(version)
    if recent.count > Self.recentLimit {
      maps[recent.removeFirst()] = nil
    }
    return map
  }

  /// Where `offset` of `version` is now, by ProseMirror's sequential rule
  /// (see ``ChangeMap``).
  ///
  /// - Throws: ``ChangeLogError/unknownVersion(_:oldest:current:)``.
  /// - Complexity: O(log m) from a kept map; O(k log k) to compose one.
  public mutating func map(
    _ offset: Int, from version: StorageVersion, bias: Bias = .right
  ) throws(ChangeLogError) -> MappedOffset {
    if version == currentVersion {
      try check(version)
      return MappedOffset(offset: min(max(offset, 0), length), deleted: false)
    }
    return try map(from: version).map(offset, bias: bias)
  }

  /// Whether any edit since `version` touched `range` (of that version): see
  /// ``ChangeMap/touches(_:)``.
  public mutating func touches(_ range: Range<Int>, since version: StorageVersion)
    throws(ChangeLogError)
    -> Bool
  {
    if version == currentVersion {
      try check(version)
      return false
    }
    return try map(from: version).touches(range)
  }

  /// The operation transformed from `version` to now through the composed
  /// map kept from `version`, where that gives what transformation would:
  /// a single nonempty range that no edit since touched, with no origin's
  /// edit since. Untouched, a range's bounds go where transformation takes
  /// them whoever made the edits (its start after text inserted at it, its
  /// end before): the map's `.right` and `.left` mappings. `nil` otherwise,
  /// or without a kept map.
  ///
  /// - Complexity: O(log m)
  func mappedThroughKeptMap(_ operation: _Operation, from version: StorageVersion) -> _Operation? {
    guard operation.pieces.count == 1, !operation.pieces[0].range.isEmpty,
      state.lastOriginVersion <= version, let map = state.maps[version]
    else { return nil }
    let range = operation.pieces[0].range
    guard !map.touches(range) else { return nil }
    let a = map.map(range.lowerBound, bias: .right).offset
    let b = max(a, map.map(range.upperBound, bias: .left).offset)
    return _Operation(a..<b, length: operation.pieces[0].length, party: operation.party)
  }

  /// Transforms an operation made by a party on `version` plus its own later
  /// edits into the current version, Jupiter-style, noting whether any edit
  /// it had not seen touched it.
  ///
  /// The server side of Jupiter needs the party's view at `version`: its own
  /// edits that the server applied after `version`, in the form they had in
  /// the party's view then. The log replays the party's side from the
  /// earliest basis those edits need: its edits enter a queue when the party
  /// sent them (at their basis), every other edit is transformed past the
  /// queue and the queue past it, and its own edits leave the queue when the
  /// server applied them. Without own edits after `version` that is plain
  /// transformation through every edit since.
  ///
  /// When the log keeps a composed map from `version` and the answer is the
  /// map's (see ``mappedThroughKeptMap(_:from:)``), it maps instead: the
  /// caller never needs to know which maps are kept.
  ///
  /// - Throws: ``ChangeLogError``.
  /// - Complexity: O(log m) through a kept map; O(k) for k records since
  ///   `version` without own edits after it; O(k'·q) for the k' records since the replay starts and a
  ///   queue of up to q edits otherwise.
  func transform(
    _ operation: _Operation, from version: StorageVersion
  ) throws(ChangeLogError) -> (operation: _Operation, touched: Bool) {
    try check(version)
    let state = self.state
    let count = state.count
    let party = operation.party
    if !hasEdits(by: party, after: version) {
      if let mapped = mappedThroughKeptMap(operation, from: version) { return (mapped, false) }
      // Nothing of the party's in flight (the usual case): transform through
      // every edit since, in place.
      var result = operation
      var touched = false
      do {
        var i = version - oldestVersion
        if result.pieces.count == 1 {
          // One range (the usual case): kept in locals, the edits decoded
          // from the packed rows one after the other.
          var range = result.pieces[0].range
          let length = result.pieces[0].length
          var split = false
          state.forEachRecord(from: i) { other, by, _, _, index in
            if !touched {
              touched = _EditStep(other.range, insertedLength: other.length).touches(range)
            }
            let (moved, second) = _Operation.transform(
              _Piece(range: range, length: length), of: party, against: other, by: by)
            guard second == nil else {
              // Split by the edit: the rest goes the general way.
              result.pieces[0].range = range
              result.transform(against: other, by: by)
              split = true
              i = index + 1
              return false
            }
            range = moved.range
            return true
          }
          if !split {
            result.pieces[0].range = range
            i = count
          }
        }
        state.forEachRecord(from: i) { piece, by, _, _, _ in
          if !touched && result.isTouched(by: piece) { touched = true }
          result.transform(against: piece, by: by)
          return true
        }
      }
      return (result, touched)
    }
    var start = version
    if !party.isPerson {
      // The replay starts where the party's oldest edit still in flight at
      // `version` was made (a party's records all have extras).
      var e = state.extras.count
      while e > 0 {
        e -= 1
        let extra = state.extras[e]
        guard extra.serial - state.dropped >= start - oldestVersion else { break }
        guard extra.party == party && !extra.isContinuation else { continue }
        if extra.basis > version { throw .basisWentBack(version, last: extra.basis) }
        start = min(start, extra.basis)
      }
      try check(start)
    }
    var queue: [_Operation] = []
    var touched = false
    var waiting = operation
    var known = start
    let next = start - oldestVersion
    // The party's own edits after `start`, in the order it sent them.
    var sent: [(basis: StorageVersion, operation: _Operation)] = []
    if !party.isPerson {
      state.forEachRecord(from: next) { piece, by, extra, _, _ in
        if let extra, by == party, !extra.isContinuation {
          sent.append(
            (
              extra.basis,
              extra.original ?? _Operation(piece.range, length: piece.length, party: party)
            ))
        }
        return true
      }
    }
    var nextSent = 0
    var added = false
    func enqueue() {
      while nextSent < sent.count && sent[nextSent].basis == known {
        queue.append(sent[nextSent].operation)
        nextSent += 1
      }
      if known == version && !added {
        queue.append(waiting)
        added = true
      }
    }
    enqueue()
    state.forEachRecord(from: next) { piece, by, extra, _, _ in
      known = known.next
      defer { enqueue() }
      if by == party && party != .person {
        let isContinuation = extra?.isContinuation ?? false
        if !isContinuation && !queue.isEmpty && !(added && queue.count == 1) {
          queue.removeFirst()
        }
        return true
      }
      if queue.count == 1 {
        // Only one edit to bring along (the usual case): in place.
        if added && !touched && queue[0].isTouched(by: piece) { touched = true }
        queue[0].transform(against: piece, by: by)
        return true
      }
      var other = _Operation(piece.range, length: piece.length, party: by)
      for i in queue.indices {
        let mine = queue[i]
        if added && i == queue.count - 1 && !touched {
          for piece in other.pieces where mine.isTouched(by: piece) { touched = true }
        }
        queue[i] = mine.transformed(against: other)
        // The other edit, past this one, for the edits queued after it.
        if i < queue.count - 1 { other = other.transformed(against: mine) }
      }
      return true
    }
    waiting = queue.last ?? waiting
    return (waiting, touched)
  }
}

/// Who holds a pin of a version: the document's caller
/// (``Document/pin(_:version:)``, or a log used on its own) or a Writing
/// Tools session (for its contexts' versions). Each unpins only its own
/// pins, so that no caller drops the history a session needs.
enum _PinHolder: Hashable, Sendable {
  case caller
  case session
}

/// How many pins each holder has on one version.
struct _PinCount: Hashable, Sendable {
  var caller = 0
  var session = 0

  /// Every holder's pins.
  var total: Int { caller + session }

  /// `holder`'s pins.
  subscript(holder: _PinHolder) -> Int {
    switch holder {
    case .caller: caller
    case .session: session
    }
  }

  /// Adds `count` (negative: removes) to `holder`'s pins.
  mutating func add(_ count: Int, for holder: _PinHolder) {
    switch holder {
    case .caller: caller += count
    case .session: session += count
    }
  }
}
