import TextRope

// Tracked ranges at the content layer: the host's (public), and the
// engine's own followers (internal: contexts, marks…), all in the
// storage's one `_TrackedRanges`.

extension DocumentContent {
  /// The host's tracked ranges of a storage that overlap `range` (all of
  /// them for `nil`), of kind `kind` (any for `nil`), in position order
  /// (equal starts by id). A range overlaps if it has a unit in `range`
  /// or is empty inside it; for an empty `range`, if it contains or
  /// touches the point.
  ///
  /// ```swift
  /// let underlines = try content.trackedRanges(in: "body", overlapping: visible, kind: "spelling")
  /// ```
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/invalidRange(_:_:)``.
  /// - Complexity: O(log n + k log k) for k returned.
  public func trackedRanges(
    in id: StorageID, overlapping range: Range<Int>? = nil, kind: String? = nil
  ) throws(DocumentError) -> [TrackedRange] {
    let storage: TextStorage
    if let range {
      storage = try checked(range, in: id)
    } else {
      storage = try self.storage(id)
    }
    let tracked = storage.tracked
    var kindIndex: UInt16? = nil
    if let kind {
      guard let i = tracked.kindIndexIfAny(kind) else { return [] }
      kindIndex = i
    }
    var found: [TrackedRange] = []
    let host = _TrackedRole.host.mask
    func add(_ item: _TrackedItem, _ r: Range<Int>) {
      if let kindIndex, item.kind != kindIndex { return }
      found.append(
        TrackedRange(
          id: storage.trackedID(item.local), storage: id, range: r,
          kind: tracked.kindName(item), rules: item.rules))
    }
    if let range {
      tracked.forEach(overlapping: range, roles: host, add)
    } else {
      // All of them: an empty range at the very end too.
      tracked.forEach(meeting: 0...storage.length, roles: host, add)
    }
    // The tree orders equal starts by their rule, then by age; the
    // contract by id.
    found.sort { ($0.range.lowerBound, $0.id) < ($1.range.lowerBound, $1.id) }
    return found
  }

  /// The host's tracked range with this id, where it is now.
  ///
  /// - Throws: ``DocumentError/unknownTrackedRange(_:)``.
  /// - Complexity: O(log n)
  public func trackedRange(_ id: TrackedRangeID) throws(DocumentError) -> TrackedRange {
    guard let storageID = serials[id.serial], let storage = storageIfAny(storageID),
      let (item, prefix) = storage.tracked.locate(id.local), item.role == .host
    else { throw .unknownTrackedRange(id) }
    let start = prefix.span + item.delta
    return TrackedRange(
      id: id, storage: storageID, range: start..<(start + item.length),
      kind: storage.tracked.kindName(item), rules: item.rules)
  }

  /// Tracks `ranges` of a storage for the host: each follows every later
  /// edit by `rules` (see ``TrackingRules``), all of kind `kind`.
  ///
  /// - Returns: their ids, in the order given.
  /// - Throws: ``DocumentError/unknownStorage(_:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` (a range out of bounds or
  ///   with an end inside a surrogate pair), or
  ///   ``DocumentError/tooManyTrackedRanges``; nothing is tracked then.
  /// - Complexity: O(m log n) for m ranges, or O(n + m log m) when many
  ///   are added at once.
  public mutating func track(
    _ ranges: [Range<Int>], in id: StorageID, kind: String = "host",
    rules: TrackingRules = TrackingRules()
  ) throws(DocumentError) -> [TrackedRangeID] {
    let locals = try track(ranges, in: id, role: .host, kind: kind, rules: rules)
    let serial = try storage(id).serial
    return locals.map { TrackedRangeID(serial: serial, local: $0) }
  }

  /// Tracks `ranges` of a storage in `role` (checked first, unless the
  /// caller did: all or none).
  ///
  /// - Returns: their numbers in the storage.
  mutating func track(
    _ ranges: [Range<Int>], in id: StorageID, role: _TrackedRole, kind: String = "",
    rules: TrackingRules, checked: Bool = false
  ) throws(DocumentError) -> [UInt32] {
    guard let slot = entries.index(forKey: id) else { throw .unknownStorage(id) }
    if !checked { try checkOffsets(ranges, in: entries.values[slot].storage) }
    var tracked = entries.values[slot].storage.tracked
    let kindIndex: UInt16
    let locals: Range<UInt32>
    do {
      kindIndex = role == .host ? try tracked.intern(kind) : 0
      locals = try tracked.newLocals(ranges.count)
    } catch {
      throw .tooManyTrackedRanges
    }
    var batch: [(range: Range<Int>, local: UInt32, flags: UInt16, kind: UInt16)] = []
    batch.reserveCapacity(ranges.count)
    for (range, local) in zip(ranges, locals) {
      // The engine's followers but the selection's points are ranges that
      // expand at neither end even when empty (their rule of old); a
      // suggestion is a tracked range as the host's are.
      let point = range.isEmpty && (role.isReported || role == .selection)
      batch.append((range, local, _TrackedItem.flags(rules, empty: point, role: role), kindIndex))
    }
    // The storage's own copy is dropped first, so that the tree is changed
    // in place.
    entries.values[slot].storage.tracked = _TrackedRanges()
    tracked.insert(contentsOf: batch)
    entries.values[slot].storage.tracked = tracked
    _invariantCheck(id)
    return batch.map(\.local)
  }

  /// Checks that every range's ends are offsets of the storage's text: in
  /// bounds, and (where the text has surrogate pairs at all) not inside
  /// one.
  func checkOffsets(_ ranges: [Range<Int>], in storage: TextStorage) throws(DocumentError) {
    let length = storage.length
    let pairs = storage.text.utf16Count != storage.text.scalarCount
    for range in ranges {
      guard range.lowerBound >= 0 && range.upperBound <= length else {
        throw .invalidRange(
          storage.id,
          .offsetOutOfBounds(
            offset: range.lowerBound < 0 ? range.lowerBound : range.upperBound, unit: .utf16,
            count: length))
      }
      if pairs {
        do {
          _ = try storage.text.utf8Range(of: range, in: .utf16)
        } catch {
          throw .invalidRange(storage.id, error)
        }
      }
    }
  }

  /// Stops tracking the host's ranges with these ids.
  ///
  /// - Throws: ``DocumentError/unknownTrackedRange(_:)`` for the first id
  ///   that names no host range; nothing is removed then.
  /// - Complexity: O(m log n) for m ids.
  public mutating func untrack(_ ids: [TrackedRangeID]) throws(DocumentError) {
    var storages: [StorageID] = []
    for id in ids {
      guard let storageID = serials[id.serial], let storage = storageIfAny(storageID),
        let (item, _) = storage.tracked.locate(id.local), item.role == .host
      else { throw .unknownTrackedRange(id) }
      storages.append(storageID)
    }
    for (id, storageID) in zip(ids, storages) {
      untrack(id.local, in: storageID)
    }
  }

  /// Stops tracking range number `local` of a storage (whatever its role).
  mutating func untrack(_ local: UInt32, in id: StorageID) {
    guard let slot = entries.index(forKey: id) else { return }
    entries.values[slot].storage.tracked.remove(local)
  }

  /// The serial of storage `id` (``TextStorage/serial``): without a
  /// lookup for the storage edited last.
  func serial(of id: StorageID) -> Int? {
    if let last = lastEdited, last.id == id { return entries.values[last.slot].storage.serial }
    return entries[id]?.storage.serial
  }

  /// Where range number `local` of a storage is now.
  func trackedRange(_ local: UInt32, in id: StorageID) -> Range<Int>? {
    storageIfAny(id)?.tracked.range(local)
  }

  /// Puts range number `local` of a storage at `range` (checked).
  mutating func moveTracked(_ local: UInt32, in id: StorageID, to range: Range<Int>) {
    guard let slot = entries.index(forKey: id) else { return }
    entries.values[slot].storage.tracked.move(local, to: range)
  }

  /// Takes range number `local` of a storage out of the tree, so that an
  /// edit the engine makes over its text neither moves nor removes it;
  /// ``reattachTracked(_:in:at:)`` puts it back.
  ///
  /// - Returns: its item (rules, kind), or `nil` if it is not tracked.
  mutating func detachTracked(_ local: UInt32, in id: StorageID) -> _TrackedItem? {
    guard let slot = entries.index(forKey: id),
      let (item, _) = entries.values[slot].storage.tracked.locate(local)
    else { return nil }
    entries.values[slot].storage.tracked.remove(local)
    return item
  }

  /// Puts a range taken out by ``detachTracked(_:in:)`` back, over `range`
  /// (checked by the caller), under its number.
  mutating func reattachTracked(_ item: _TrackedItem, in id: StorageID, at range: Range<Int>) {
    guard let slot = entries.index(forKey: id) else { return }
    entries.values[slot].storage.tracked.insert(
      range, local: item.local, flags: item.flags, kind: item.kind)
  }
}

// What the front asks of the state about the host's ranges (the front only
// locks and delegates).
extension DocumentState {
  /// See ``Document/track(_:in:kind:rules:)``.
  mutating func track(
    _ ranges: [Range<Int>], in id: StorageID, kind: String, rules: TrackingRules
  ) throws(DocumentError) -> [TrackedRangeID] {
    try content.track(ranges, in: id, kind: kind, rules: rules)
  }

  /// See ``Document/untrack(_:)``.
  mutating func untrack(_ ids: [TrackedRangeID]) throws(DocumentError) {
    try content.untrack(ids)
  }

  /// See ``Document/trackedRanges(in:overlapping:kind:)``.
  func trackedRanges(
    in id: StorageID, overlapping range: Range<Int>?, kind: String?
  ) throws(DocumentError) -> [TrackedRange] {
    try content.trackedRanges(in: id, overlapping: range, kind: kind)
  }

  /// See ``Document/trackedRange(_:)``.
  func trackedRange(_ id: TrackedRangeID) throws(DocumentError) -> TrackedRange {
    try content.trackedRange(id)
  }

  /// The text and attributes of `range` of storage `id`.
  func attributedText(of id: StorageID, in range: Range<Int>) throws(DocumentError)
    -> AttributedText
  {
    try content.storage(id).attributedText(in: range)
  }
}
