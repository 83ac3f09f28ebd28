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

  init(
    range: Range<Int>, insertedLength: Int, party: EditParty, original: _Operation? = nil,
    isContinuation: Bool = false
  ) {
    self.range = range
    self.insertedLength = insertedLength
    self.party = party
    self.original = original
    self.isContinuation = isContinuation
  }

  var piece: _Piece { _Piece(range: range, length: insertedLength) }
}

/// Why a change-index question could not be answered.
public enum ChangeLogError: Error, Hashable, Sendable {
  /// The version is newer than the storage, or older than the history kept.
  case unknownVersion(Int, oldest: Int, current: Int)
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
  /// The version the first record starts from.
  public private(set) var oldestVersion: Int
  /// The records, oldest first: `records[i]` takes version
  /// `oldestVersion + i` to the next.
  public private(set) var records: [ChangeRecord] = []
  /// The text length at `oldestVersion`.
  var oldestLength: Int
  /// The current text length.
  public private(set) var length: Int
  /// Pinned versions with their pin counts.
  public private(set) var pins: [Int: Int] = [:]
  /// Composed maps by base version.
  var maps: [Int: ChangeMap] = [:]
  /// Unpinned versions whose maps are kept, least recently used first.
  var recent: [Int] = []
  static let recentLimit = 4

  /// The log of a text of `length` units at `version`.
  public init(version: Int = 0, length: Int) {
    oldestVersion = version
    oldestLength = length
    self.length = length
  }

  /// The current version.
  public var currentVersion: Int { oldestVersion + records.count }

  /// Records one edit (made in the current version) and brings every kept
  /// map up to date.
  ///
  /// - Complexity: O(p log m) for p kept maps.
  mutating func record(_ record: ChangeRecord) {
    records.append(record)
    length += record.insertedLength - record.range.count
    for key in maps.keys {
      maps[key]?.record(record.range, insertedLength: record.insertedLength)
    }
  }

  /// The records after `version`, oldest first.
  ///
  /// - Throws: ``ChangeLogError/unknownVersion(_:oldest:current:)``.
  public func records(since version: Int) throws(ChangeLogError) -> ArraySlice<ChangeRecord> {
    try check(version)
    return records[(version - oldestVersion)...]
  }

  func check(_ version: Int) throws(ChangeLogError) {
    guard version >= oldestVersion && version <= currentVersion else {
      throw .unknownVersion(version, oldest: oldestVersion, current: currentVersion)
    }
  }

  /// Keeps a composed map from `version` to now (and the history it needs)
  /// until as many ``unpin(_:)`` calls.
  ///
  /// - Throws: ``ChangeLogError/unknownVersion(_:oldest:current:)``.
  public mutating func pin(_ version: Int) throws(ChangeLogError) {
    try check(version)
    pins[version, default: 0] += 1
    recent.removeAll { $0 == version }
    if maps[version] == nil { maps[version] = composedMap(from: version) }
  }

  /// Undoes one ``pin(_:)``; the history it held is dropped by the next
  /// ``trim()``.
  public mutating func unpin(_ version: Int) {
    guard let count = pins[version] else { return }
    if count > 1 {
      pins[version] = count - 1
    } else {
      pins[version] = nil
      maps[version] = nil
    }
  }

  /// Drops the records older than the oldest pinned version (all of them if
  /// nothing is pinned), and the unpinned maps from before it.
  public mutating func trim() {
    let keep = pins.keys.min() ?? currentVersion
    guard keep > oldestVersion else { return }
    var lengthAtKeep = oldestLength
    for record in records[..<(keep - oldestVersion)] {
      lengthAtKeep += record.insertedLength - record.range.count
    }
    records.removeFirst(keep - oldestVersion)
    oldestVersion = keep
    oldestLength = lengthAtKeep
    for key in Array(maps.keys) where key < keep { maps[key] = nil }
    recent.removeAll { $0 < keep }
  }

  /// The text length at `version`.
  func length(at version: Int) -> Int {
    var result = oldestLength
    for record in records[..<(version - oldestVersion)] {
      result += record.insertedLength - record.range.count
    }
    return result
  }

  /// A fresh composed map of the edits since `version`.
  func composedMap(from version: Int) -> ChangeMap {
    var map = ChangeMap(length: length(at: version))
    for record in records[(version - oldestVersion)...] {
      map.record(record.range, insertedLength: record.insertedLength)
    }
    return map
  }

  /// The composed map from `version` to now: the kept one, or a new one that
  /// is then kept among the recent maps.
  mutating func map(from version: Int) throws(ChangeLogError) -> ChangeMap {
    try check(version)
    if let map = maps[version] {
      if pins[version] == nil, let i = recent.firstIndex(of: version) {
        recent.remove(at: i)
        recent.append(version)
      }
      return map
    }
    let map = composedMap(from: version)
    maps[version] = map
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
    _ offset: Int, from version: Int, assoc: Int = 1
  ) throws(ChangeLogError) -> MappedOffset {
    if version == currentVersion {
      try check(version)
      return MappedOffset(offset: min(max(offset, 0), length), deleted: false)
    }
    return try map(from: version).map(offset, assoc: assoc)
  }

  /// Whether any edit since `version` touched `range` (of that version): see
  /// ``ChangeMap/touches(_:)``.
  public mutating func touches(_ range: Range<Int>, since version: Int) throws(ChangeLogError)
    -> Bool
  {
    if version == currentVersion {
      try check(version)
      return false
    }
    return try map(from: version).touches(range)
  }

  /// Transforms an operation made by `party` on `version` plus its own later
  /// edits into the current version (Jupiter-style), noting whether any edit
  /// it had not seen touched it.
  ///
  /// - Complexity: O(k + u·o) for k records since `version`, u of them by
  ///   other parties and o by `party`.
  func transform(
    _ operation: _Operation, from version: Int
  ) throws(ChangeLogError) -> (operation: _Operation, touched: Bool) {
    let history = try records(since: version)
    // `bridge` takes the party's view to the current text: the edits of the
    // others it has not seen, transformed past its own.
    var bridge: [_Operation] = []
    var index = history.startIndex
    let party = operation.party
    while index < history.endIndex {
      let record = history[index]
      index += 1
      if record.party != party || party == .person {
        bridge.append(_Operation(record.range, length: record.insertedLength, party: record.party))
        continue
      }
      // One of the party's own operations (all its pieces).
      var own =
        record.original
        ?? _Operation(
          record.range, length: record.insertedLength, party: party)
      while index < history.endIndex && history[index].isContinuation { index += 1 }
      if bridge.isEmpty { continue }
      for i in bridge.indices {
        let other = bridge[i]
        bridge[i] = other.transformed(against: own)
        own = own.transformed(against: other)
      }
    }
    var result = operation
    var touched = false
    for other in bridge {
      for piece in other.pieces.reversed() {
        if !touched && result.isTouched(by: piece) { touched = true }
        result = result.transformed(against: piece, by: other.party)
      }
    }
    return (result, touched)
  }
}
