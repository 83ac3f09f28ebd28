import SummaryTrees

/// The storages of a document in order, with their lengths: maps a document
/// offset to a storage and an offset in it, and back, in O(log s) for s
/// storages.
///
/// A document offset counts UTF-16 code units from the start of the first
/// storage through the storages in order, as if their texts were
/// concatenated.
///
/// ```swift
/// var index = DocumentIndex()
/// try index.append("title", length: 6)
/// try index.append("body", length: 27)
/// try index.locate(8)               // (body, 2)
/// try index.start(of: "body")       // 6
/// try index.setLength(of: "title", to: 7)
/// ```
public struct DocumentIndex: Sendable {
  @usableFromInline var tree = SummaryTree<_StorageSlot>()
  /// The position of each storage in the order; rebuilt when storages are
  /// added, removed or moved (rare), so that a length update is O(log s).
  @usableFromInline var positions: [StorageID: Int] = [:]

  /// An empty index.
  public init() {}

  /// The number of storages.
  public var count: Int { tree.summary.count }

  /// The length of the whole document in UTF-16 code units.
  public var length: Int { tree.summary.length }

  /// The storage ids in document order.
  ///
  /// - Complexity: O(s)
  public var ids: [StorageID] { tree.map(\.id) }

  /// Whether the index holds a storage with this id.
  public func contains(_ id: StorageID) -> Bool { positions[id] != nil }

  /// The position (from 0) of a storage in document order.
  ///
  /// - Throws: ``DocumentIndexError/unknownStorage(_:)``.
  /// - Complexity: O(1)
  public func position(of id: StorageID) throws(DocumentIndexError) -> Int {
    guard let position = positions[id] else { throw .unknownStorage(id) }
    return position
  }

  /// The storage's length in UTF-16 code units.
  ///
  /// - Throws: ``DocumentIndexError/unknownStorage(_:)``.
  /// - Complexity: O(log s)
  public func length(of id: StorageID) throws(DocumentIndexError) -> Int {
    try slot(id).item.length
  }

  /// The document offset where the storage starts.
  ///
  /// - Throws: ``DocumentIndexError/unknownStorage(_:)``.
  /// - Complexity: O(log s)
  public func start(of id: StorageID) throws(DocumentIndexError) -> Int {
    try slot(id).prefix.length
  }

  func slot(_ id: StorageID) throws(DocumentIndexError) -> TreeLocation<_StorageSlot> {
    let position = try position(of: id)
    guard let hit = tree.find(_CountMetric.self, position, bias: .right) else {
      throw .unknownStorage(id)
    }
    return hit
  }

  /// The storage that holds document offset `offset`, and the offset in it.
  ///
  /// On the boundary between two storages, `.left` bias answers the end of
  /// the earlier one, `.right` the start of the later one (empty storages in
  /// between are passed over). The end of the document is in the last
  /// storage.
  ///
  /// - Throws: ``DocumentIndexError/offsetOutOfBounds(_:length:)`` unless
  ///   `0 <= offset <= length`, ``DocumentIndexError/empty`` without storages.
  /// - Complexity: O(log s)
  public func locate(
    _ offset: Int, bias: Bias = .right
  ) throws(DocumentIndexError) -> TextPosition {
    guard offset >= 0 && offset <= length else {
      throw .offsetOutOfBounds(offset, length: length)
    }
    guard let hit = tree.find(_LengthMetric.self, offset, bias: bias) else {
      throw .empty
    }
    return TextPosition(hit.item.id, offset - hit.prefix.length)
  }

  /// The document offset of `offset` in storage `id`.
  ///
  /// - Throws: ``DocumentIndexError/unknownStorage(_:)``, or
  ///   ``DocumentIndexError/offsetOutOfBounds(_:length:)`` unless `offset` is
  ///   within the storage.
  /// - Complexity: O(log s)
  public func documentOffset(
    of offset: Int, in id: StorageID
  ) throws(DocumentIndexError) -> Int {
    let hit = try slot(id)
    guard offset >= 0 && offset <= hit.item.length else {
      throw .offsetOutOfBounds(offset, length: hit.item.length)
    }
    return hit.prefix.length + offset
  }

  /// Inserts a storage at `position` (0 for the first, `count` for the end).
  ///
  /// - Throws: ``DocumentIndexError/duplicateStorage(_:)``,
  ///   ``DocumentIndexError/positionOutOfBounds(_:count:)``, or
  ///   ``DocumentIndexError/negativeLength(_:)``; the index is then unchanged.
  /// - Complexity: O(s) (positions are renumbered; adding storages is rare)
  public mutating func insert(
    _ id: StorageID, length: Int, at position: Int
  ) throws(DocumentIndexError) {
    guard positions[id] == nil else { throw .duplicateStorage(id) }
    guard position >= 0 && position <= count else {
      throw .positionOutOfBounds(position, count: count)
    }
    guard length >= 0 else { throw .negativeLength(length) }
    tree.insert(
      contentsOf: CollectionOfOne(_StorageSlot(id: id, length: length)), at: position,
      in: _CountMetric.self)
    renumber(from: position)
  }

  /// Appends a storage at the end of the document.
  ///
  /// - Throws: as ``insert(_:length:at:)``.
  /// - Complexity: O(log s)
  public mutating func append(_ id: StorageID, length: Int) throws(DocumentIndexError) {
    try insert(id, length: length, at: count)
  }

  /// Removes a storage.
  ///
  /// - Throws: ``DocumentIndexError/unknownStorage(_:)``.
  /// - Complexity: O(s)
  public mutating func remove(_ id: StorageID) throws(DocumentIndexError) {
    let position = try position(of: id)
    tree.replace(_CountMetric.self, position..<position + 1, with: EmptyCollection())
    positions[id] = nil
    renumber(from: position)
  }

  /// Moves a storage to `position` in the order of the other storages
  /// (0 for the first, `count - 1` for the last).
  ///
  /// - Throws: ``DocumentIndexError/unknownStorage(_:)`` or
  ///   ``DocumentIndexError/positionOutOfBounds(_:count:)``.
  /// - Complexity: O(s)
  public mutating func move(_ id: StorageID, to position: Int) throws(DocumentIndexError) {
    let length = try length(of: id)
    guard position >= 0 && position < count else {
      throw .positionOutOfBounds(position, count: count)
    }
    try remove(id)
    try insert(id, length: length, at: position)
  }

  /// Records a storage's new length after an edit.
  ///
  /// - Throws: ``DocumentIndexError/unknownStorage(_:)`` or
  ///   ``DocumentIndexError/negativeLength(_:)``.
  /// - Complexity: O(log s)
  public mutating func setLength(of id: StorageID, to length: Int) throws(DocumentIndexError) {
    let position = try position(of: id)
    guard length >= 0 else { throw .negativeLength(length) }
    setLength(at: position, to: length)
  }

  /// Records the new length of the storage at `position` (which the caller
  /// knows to hold a storage), without looking its id up.
  ///
  /// - Complexity: O(log s)
  mutating func setLength(at position: Int, to length: Int) {
    tree.updateItem(_CountMetric.self, at: position, bias: .right) {
      (slot: inout _StorageSlot, _: _CountAndLength) -> (Void, TreeItemChange<_StorageSlot>) in
      slot.length = length
      return ((), .keep)
    }
  }

  /// Calls `body` with each storage's id and position from `position` on,
  /// in order.
  func forEachID(from position: Int, _ body: (StorageID, Int) -> Void) {
    guard position < count else { return }
    var cursor = tree.cursor(_CountMetric.self, at: position, bias: .right)
    var p = position
    while let slot = cursor.item {
      body(slot.id, p)
      p += 1
      cursor.moveNext()
    }
  }

  mutating func renumber(from position: Int) {
    var positions = self.positions
    self.positions = [:]  // moved out, so that it is changed in place
    forEachID(from: position) { positions[$0] = $1 }
    self.positions = positions
  }

  /// Checks that positions and the tree agree; traps otherwise. Compiled in
  /// only with `-DENGINE_INTERNAL_CHECKS`.
  public func _invariantCheck() {
    #if ENGINE_INTERNAL_CHECKS
    tree._invariantCheck()
    precondition(positions.count == count, "positions out of step")
    for (p, slot) in tree.enumerated() {
      precondition(positions[slot.id] == p, "stale position")
    }
    #endif
  }
}

/// Why the document index refused a request; a refused request changes
/// nothing.
public enum DocumentIndexError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No storage has this id.
  case unknownStorage(StorageID)
  /// A storage with this id exists already.
  case duplicateStorage(StorageID)
  /// The document offset is outside `0...length`.
  case offsetOutOfBounds(Int, length: Int)
  /// The position is outside the order.
  case positionOutOfBounds(Int, count: Int)
  /// A storage length cannot be negative.
  case negativeLength(Int)
  /// The document has no storage.
  case empty

  public var description: String {
    switch self {
    case .unknownStorage(let id): "no storage is named '\(id)'"
    case .duplicateStorage(let id): "a storage named '\(id)' exists already"
    case .offsetOutOfBounds(let offset, let length):
      "document offset \(offset) is outside the document of \(length) UTF-16 units"
    case .positionOutOfBounds(let position, let count):
      "position \(position) is outside the order of \(count) storages"
    case .negativeLength(let length): "the length \(length) is negative"
    case .empty: "the document has no storage"
    }
  }
}

/// One storage in the index: its id and its length in UTF-16 code units.
@usableFromInline
struct _StorageSlot: TreeItem {
  @usableFromInline var id: StorageID
  @usableFromInline var length: Int

  @usableFromInline
  var summary: _CountAndLength { _CountAndLength(count: 1, length: length) }
}
