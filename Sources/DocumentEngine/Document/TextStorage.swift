import TextRope

/// One text storage of a document (a title, a body, a cell): its text, a
/// version that every edit bumps by one, and its attribute runs.
///
/// A storage is a value: a copy is a snapshot (O(1)) that later edits of the
/// document never change.
public struct TextStorage: Sendable {
  /// The client's name for the storage.
  public let id: StorageID
  /// The text.
  public internal(set) var text: Rope
  /// Bumped by one by every edit; 0 when the storage was added.
  public internal(set) var version: Int
  /// The units excluded from Writing Tools (`excludeFromWritingTools`).
  public internal(set) var exclusions: AttributeRuns<Bool>
  /// Other attributes, carried as opaque values by key (e.g. presentation
  /// intents); they follow edits like the exclusion does.
  public internal(set) var attributes: [String: AttributeRuns<String>]
  /// The change index: the edits since the oldest version still referred
  /// to, and composed maps from the versions mapped from often.
  public internal(set) var changes: ChangeLog

  /// A storage holding `text`, at version 0, without attributes.
  public init(id: StorageID, text: Rope) {
    self.id = id
    self.text = text
    self.version = 0
    self.exclusions = AttributeRuns(length: text.utf16Count)
    self.attributes = [:]
    self.changes = ChangeLog(version: 0, length: text.utf16Count)
  }

  /// The length in UTF-16 code units.
  public var length: Int { text.utf16Count }

  /// The excluded ranges, in order.
  public var excludedRanges: [Range<Int>] {
    exclusions.runs(in: 0..<length).filter(\.value).map(\.range)
  }
}
