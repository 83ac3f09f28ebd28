/// A place in a document: a storage and a UTF-16 offset in it.
public struct TextPosition: Hashable, Sendable {
  /// The storage.
  public var storage: StorageID
  /// The UTF-16 offset in the storage's text.
  public var offset: Int

  /// A position.
  public init(_ storage: StorageID, _ offset: Int) {
    self.storage = storage
    self.offset = offset
  }
}

/// One range of a selection, from `start` to `end` (in document order after
/// ``DocumentContent/validated(_:)``); it may span storages. An empty range
/// is a caret.
public struct SelectionRange: Hashable, Sendable {
  /// Where the range starts.
  public var start: TextPosition
  /// Where the range ends.
  public var end: TextPosition

  /// A range from `start` to `end`.
  public init(from start: TextPosition, to end: TextPosition) {
    self.start = start
    self.end = end
  }

  /// A range inside one storage.
  public init(_ storage: StorageID, _ range: Range<Int>) {
    self.start = TextPosition(storage, range.lowerBound)
    self.end = TextPosition(storage, range.upperBound)
  }

  /// A caret.
  public init(caret position: TextPosition) {
    self.start = position
    self.end = position
  }

  /// Whether the range is a caret.
  public var isCaret: Bool { start == end }
}
