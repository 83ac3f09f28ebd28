import SummaryTrees
import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The storages of a document, in order, and the index that maps document
/// offsets to them.
///
/// `DocumentContent` is a value: a copy is a snapshot of every storage
/// (O(1)), which other threads can read while the document goes on changing.
public struct DocumentContent: Sendable {
  /// A storage with its position in document order, so that an edit finds
  /// both with one lookup.
  ///
  /// The position is also the ``DocumentIndex``'s (which answers
  /// ``DocumentIndex/position(of:)`` on its own); the copy here earns its
  /// keep on the two hottest paths: a keystroke finds its storage and its
  /// index slot with one hash lookup (none in a run of keystrokes, through
  /// ``lastEdited``), and `fullDocument` orders every storage without a
  /// lookup per storage (docs/benchmarks.md: `Document edit ratio/…` and
  /// `Contexts/full document of 10,000 storages`). Every change of order
  /// renumbers both (``renumber(from:)``), and the invariant check compares
  /// them.
  struct _Entry: Sendable {
    var storage: TextStorage
    var position: Int
  }

  /// The storages by id, each with its position in ``index``.
  var entries: [StorageID: _Entry] = [:]
  /// The storage edited last and where it lies in ``entries``, so that a run
  /// of keystrokes in one storage needs no hashing. A dictionary's index
  /// stays valid through copies and value changes; it is dropped whenever a
  /// storage is added or removed (which may move the others in the table).
  var lastEdited: (id: StorageID, slot: Dictionary<StorageID, _Entry>.Index)? = nil
  /// The order and lengths of the storages.
  public private(set) var index = DocumentIndex()
  /// The storages by serial (``TextStorage/serial``): what a tracked
  /// range's id names.
  var serials: [Int: StorageID] = [:]
  /// The next storage's serial.
  var nextSerial = 1

  /// The storages by id.
  ///
  /// - Complexity: O(s): a new dictionary; ``storage(_:)`` finds one storage
  ///   in O(1).
  public var storages: [StorageID: TextStorage] { entries.mapValues(\.storage) }

  /// An empty document.
  public init() {}

  /// The storage ids in document order.
  ///
  /// - Complexity: O(s)
  public var order: [StorageID] { index.ids }

  /// The storage with this id.
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)``.
  public func storage(_ id: StorageID) throws(DocumentError) -> TextStorage {
    guard let entry = entries[id] else { throw .unknownStorage(id) }
    return entry.storage
  }

  /// The storage with this id, or `nil`.
  func storageIfAny(_ id: StorageID) -> TextStorage? { entries[id]?.storage }

  /// The text of `range` of storage `id` with its attribute runs (relative
  /// to it), read where the storage lies: no copy of the storage.
  mutating func attributedText(
    of id: StorageID, in range: Range<Int>
  ) -> AttributedText {
    guard let slot = slot(of: id) else { return .empty }
    return Self.read(&entries.values[slot].storage, range)
  }

  /// Where storage `id` lies in the dictionary (one lookup, none for the
  /// storage edited last), so that it is read or edited in place.
  @inline(__always)
  mutating func slot(of id: StorageID) -> Dictionary<StorageID, _Entry>.Index? {
    if let last = lastEdited, last.id == id { return last.slot }
    guard let found = entries.index(forKey: id) else { return nil }
    lastEdited = (id, found)
    return found
  }

  private static func read(_ storage: inout TextStorage, _ range: Range<Int>) -> AttributedText {
    storage.attributedText(in: range)
  }

  /// Brings the entries' positions in step with the index from `position`
  /// on (after storages were added, removed or moved).
  mutating func renumber(from position: Int) {
    index.forEachID(from: position) { id, p in entries[id]?.position = p }
  }

  /// `range` of storage `id`'s text, given in `unit`, in `target` units:
  /// what a caller that counts UTF-8 bytes or scalars needs to pass a range
  /// to an API that takes UTF-16, or to read one it gave back.
  ///
  /// ```swift
  /// let utf16 = try content.convert(3..<4, in: "body", from: .unicodeScalars, to: .utf16)
  /// ```
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)``, or
  ///   ``DocumentError/invalidRange(_:_:)`` for a bound out of bounds or
  ///   inside a scalar (UTF-8) or a surrogate pair (UTF-16).
  /// - Complexity: O(log n)
  public func convert(
    _ range: Range<Int>, in id: StorageID, from unit: TextUnit, to target: TextUnit
  ) throws(DocumentError) -> Range<Int> {
    guard let storage = entries[id]?.storage else { throw .unknownStorage(id) }
    do {
      return try storage.text.convert(range, from: unit, to: target)
    } catch {
      throw .invalidRange(id, error)
    }
  }

  /// Adds a storage at the end, or right after storage `after`, with the
  /// attributes of its text.
  ///
  /// - Parameters:
  ///   - id: the storage's name, new in the document.
  ///   - text: its text.
  ///   - after: the storage it goes after; `nil` for the end.
  ///   - attributes: runs over `text` (UTF-16), in order and not
  ///     overlapping; units no run covers have no attribute.
  ///   - source: what the text was read from, kept with the storage for
  ///     its writer (``TextStorage/source``); nil for none.
  /// - Throws: ``DocumentError/duplicateStorage(_:)``,
  ///   ``DocumentError/unknownStorage(_:)`` (for `after`), or for the
  ///   runs ``DocumentError/invalidAttribute(_:reason:)``,
  ///   ``DocumentError/overlappingRuns(_:)`` and
  ///   ``DocumentError/invalidRange(_:_:)``; nothing changes.
  /// - Complexity: O(s) (adding storages is rare), plus O(m log n) to
  ///   check m runs and O(m) to build them (in one pass).
  public mutating func add(
    _ id: StorageID, text: Rope, after: StorageID? = nil, attributes: [AttributeRun] = [],
    source: (any StorageSource)? = nil
  ) throws(DocumentError) {
    guard entries[id] == nil else { throw .duplicateStorage(id) }
    try AttributeRun.check(attributes, in: text, of: id)
    guard nextSerial < 1 << 21 else { throw .tooManyTrackedRanges }
    var position = index.count
    if let after {
      guard let p = try? index.position(of: after) else { throw .unknownStorage(after) }
      position = p + 1
    }
    do {
      try index.insert(id, length: text.utf16Count, at: position)
    } catch {
      throw .duplicateStorage(id)
    }
    lastEdited = nil
    var storage = TextStorage(id: id, text: text)
    storage.parts.serial = nextSerial
    serials[nextSerial] = id
    nextSerial += 1
    storage.setAttributes(attributes)
    storage.parts.source = source
    storage.parts.isAsSourceRead = source != nil
    entries[id] = _Entry(storage: storage, position: position)
    renumber(from: position + 1)
    _invariantCheck(id)
  }

  /// Checks the content around storage `id` (or only the index, for `nil`
  /// or a removed storage): as many storages as the index orders, and the
  /// storage's parts and index entry agree on its length. Traps on a
  /// violation. Compiled in only with `-DENGINE_INTERNAL_CHECKS`; a no-op
  /// otherwise.
  public func _invariantCheck(_ id: StorageID? = nil) {
    #if ENGINE_INTERNAL_CHECKS
    precondition(index.count == entries.count, "index and storages out of step")
    if let id, let entry = entries[id] {
      let storage = entry.storage
      precondition(storage.id == id, "storage under another id")
      storage._invariantCheck()
      precondition(
        (try? index.length(of: id)) == storage.length, "index length out of step with the text")
      precondition((try? index.position(of: id)) == entry.position, "a stale position")
    }
    #endif
  }

  /// Removes a storage.
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)``.
  /// - Complexity: O(s)
  public mutating func remove(_ id: StorageID) throws(DocumentError) {
    guard let entry = entries[id] else { throw .unknownStorage(id) }
    _mustSucceed("removing a storage from the index") { () throws(DocumentIndexError) in
      try index.remove(id)
    }
    lastEdited = nil
    entries[id] = nil
    serials[entry.storage.serial] = nil
    renumber(from: entry.position)
    _invariantCheck()
  }

  /// Moves a storage to the start (`after` nil) or right after another.
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)``.
  /// - Complexity: O(s)
  public mutating func move(_ id: StorageID, after: StorageID?) throws(DocumentError) {
    guard let entry = entries[id] else { throw .unknownStorage(id) }
    var position = 0
    if let after {
      guard after != id, let p = try? index.position(of: after) else {
        throw .unknownStorage(after)
      }
      let own = (try? index.position(of: id)) ?? 0
      position = p < own ? p + 1 : p
    }
    _mustSucceed("moving a storage in the index") { () throws(DocumentIndexError) in
      try index.move(id, to: position)
    }
    renumber(from: min(position, entry.position))
    _invariantCheck(id)
  }

  /// Replaces `range` (UTF-16) of a storage's text with `text`; bumps the
  /// storage's version, records the edit in its change index and moves its
  /// attribute runs with the edit. An empty range replaced by empty text is
  /// a no-op: its offset is checked, and it makes no version.
  ///
  /// - Returns: the storage's new version.
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/invalidRange(_:_:)``; nothing changes.
  /// - Complexity: O(log n + m) in the storage, O(log s) in the index, plus
  ///   O(log h) for each composed map its change index keeps.
  @discardableResult
  public mutating func edit(
    _ id: StorageID, range: Range<Int>, with text: String
  ) throws(DocumentError) -> StorageVersion {
    if _EditStep(range, insertedLength: text.utf16.count).changesNothing {
      // A no-op: its offset is still checked, and it makes no version.
      return try checked(range, in: id).version
    }
    var report: [_TrackedChange] = []
    var unused = _RemovedBytes()
    return try edit(
      id, range: range, with: text, insertedLength: text.utf16.count, info: .person,
      keepingChanges: false, report: &report, capturing: false, removed: &unused)
  }

  /// Edits a storage and records the edit (`insertedLength` is `text`'s
  /// UTF-16 length) with `info` in its change index; without
  /// `keepingChanges`, the history no pin needs is dropped (see
  /// ``ChangeLog/record(_:insertedLength:info:keepingChanges:)``). The new
  /// text takes `attributes` (checked) for the keys they decide, and the
  /// edit rule's for the others. With `capturing`, the text the edit
  /// removed, with its runs, goes in `removed` (the history keeps it; its
  /// room is reused): the rope hands it back from the edit's own descent.
  mutating func edit(
    _ id: StorageID, range: Range<Int>, with text: String, insertedLength: Int,
    info: borrowing _RecordInfo, keepingChanges: Bool, attributes: _NewTextAttributes? = nil,
    report: inout [_TrackedChange], capturing: Bool, removed: inout _RemovedBytes
  ) throws(DocumentError) -> StorageVersion {
    // One lookup finds the storage and its position in the index; the
    // storage is edited where it lies in the dictionary, so its rope's nodes
    // stay uniquely held.
    guard let slot = slot(of: id) else { throw .unknownStorage(id) }
    let (version, length) = try Self.edit(
      &entries.values[slot].storage, range: range, with: text, insertedLength: insertedLength,
      info: info, keepingChanges: keepingChanges, attributes: attributes, report: &report,
      capturing: capturing, removed: &removed)
    index.setLength(at: entries.values[slot].position, to: length)
    _invariantCheck(id)
    return version
  }

  /// Edits one storage in place; returns its new version and length.
  static func edit(
    _ storage: inout TextStorage, range: Range<Int>, with text: String, insertedLength: Int,
    info: borrowing _RecordInfo, keepingChanges: Bool, attributes: _NewTextAttributes?,
    report: inout [_TrackedChange], capturing: Bool, removed: inout _RemovedBytes
  ) throws(DocumentError) -> (version: StorageVersion, length: Int) {
    do {
      if capturing {
        // The runs first: the edit changes them.
        removed.removeAll()
        if !range.isEmpty && storage.attributes != nil {
          removed.runs = storage.attributeRuns(in: range)
        }
        try storage.text.replace(range, with: text, removedUTF8: &removed.utf8)
      } else {
        try storage.text.replace(range, with: text)
      }
    } catch {
      throw .invalidRange(storage.id, error)
    }
    storage.followExclusions(range, newLength: insertedLength)
    storage.followEdit(range, newLength: insertedLength, attributes: attributes)
    storage.changes.record(
      range, insertedLength: insertedLength, info: info, keepingChanges: keepingChanges)
    storage.followTracked(_EditStep(range, insertedLength: insertedLength), report: &report)
    return (storage.version, storage.length)
  }

  /// The person's keystrokes that a typing run held back (see
  /// `_TypingBuffer`): `utf8`, typed at `start` one keystroke after another,
  /// each where the one before ended (`lengths`: each one's UTF-16
  /// length, negative for a backspace; `total` their sum). The text, its runs, its exclusions and its tracked ranges
  /// take them as one insertion (where the keystrokes one by one would
  /// have taken them); the change log takes one row a keystroke, so that
  /// each keystroke's version is one of its versions.
  mutating func insertTyped(
    _ id: StorageID, at start: Int, utf8: [UInt8], lengths: [Int], total: Int,
    keepingChanges: Bool, report: inout [_TrackedChange]
  ) {
    guard let slot = slot(of: id) else { return }
    let point = start..<start
    let text = String(decoding: utf8, as: UTF8.self)
    _mustSucceed("inserting the typed text") { () throws(RopeError) in
      try entries.values[slot].storage.text.replace(point, with: text)
    }
    entries.values[slot].storage.followExclusions(point, newLength: total)
    entries.values[slot].storage.followEdit(point, newLength: total, attributes: nil)
    entries.values[slot].storage.changes.recordTyped(
      from: start, lengths: lengths, keepingChanges: keepingChanges)
    entries.values[slot].storage.followTracked(
      _EditStep(point, insertedLength: total), report: &report)
    index.setLength(at: entries.values[slot].position, to: entries.values[slot].storage.length)
    _invariantCheck(id)
  }

  /// Runs `body` on a storage's change index.
  mutating func withChanges<R>(
    _ id: StorageID, _ body: (inout ChangeLog) throws(DocumentError) -> R
  ) throws(DocumentError) -> R {
    // Changed where it lies in the dictionary (one lookup, no copy).
    guard let slot = entries.index(forKey: id) else { throw .unknownStorage(id) }
    defer { _invariantCheck(id) }
    return try body(&entries.values[slot].storage.changes)
  }

  /// Marks `range` (UTF-16) of a storage as excluded from Writing Tools, or
  /// clears the mark.
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/invalidRange(_:_:)``.
  public mutating func setExcluded(
    _ excluded: Bool, in id: StorageID, range: Range<Int>
  ) throws(DocumentError) {
    _ = try checked(range, in: id)
    entries[id]?.storage.setExcluded(excluded, in: range)
    _invariantCheck(id)
  }

  /// Sets attributes over `range` (UTF-16) of a storage: each value sets its
  /// key there, `nil` removes the key; other keys stay. The text does not
  /// change, and no version is made.
  ///
  /// ```swift
  /// try content.setAttributes([.inlinePresentationIntent: .inlinePresentationIntent(.stronglyEmphasized)],
  ///   in: "body", range: 4..<9)
  /// ```
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)``,
  ///   ``DocumentError/invalidRange(_:_:)`` or
  ///   ``DocumentError/invalidAttribute(_:reason:)``; nothing changes.
  /// - Complexity: O(k (log r + m)) for k keys.
  public mutating func setAttributes(
    _ attributes: [AttributeKey: AttributeValue?], in id: StorageID, range: Range<Int>
  ) throws(DocumentError) {
    _ = try checked(range, in: id)
    try AttributeRun.check(attributes)
    entries[id]?.storage.setAttributes(attributes, in: range)
    _invariantCheck(id)
  }

  /// The storage `id`, after checking that both ends of `range` (UTF-16)
  /// are offsets of its text: in bounds, not inside a surrogate pair.
  ///
  /// - Throws: ``DocumentError/unknownStorage(_:)`` or
  ///   ``DocumentError/invalidRange(_:_:)``.
  /// - Complexity: O(log n)
  func checked(_ range: Range<Int>, in id: StorageID) throws(DocumentError) -> TextStorage {
    guard let storage = entries[id]?.storage else { throw .unknownStorage(id) }
    do {
      _ = try storage.text.utf8Range(of: range, in: .utf16)
    } catch {
      throw .invalidRange(id, error)
    }
    return storage
  }

  /// The storage and offset at document offset `offset` (see
  /// ``DocumentIndex/locate(_:bias:)``).
  ///
  /// - Throws: ``DocumentIndexError``.
  /// - Complexity: O(log s)
  public func locate(
    _ offset: Int, bias: Bias = .right
  ) throws(DocumentIndexError) -> TextPosition {
    try index.locate(offset, bias: bias)
  }
}

/// Runs `body`, which cannot fail while the document's invariants hold (its
/// input was checked before it). With `-DENGINE_INTERNAL_CHECKS` a failure
/// traps, naming `what`, so tests and fuzzers find the broken invariant;
/// otherwise it is ignored rather than crash an editor.
@inline(__always)
func _mustSucceed<E: Error>(_ what: @autoclosure () -> String, _ body: () throws(E) -> Void) {
  do {
    try body()
  } catch {
    #if ENGINE_INTERNAL_CHECKS
    preconditionFailure("\(what()): \(error)")
    #endif
  }
}
