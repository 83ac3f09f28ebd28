/// How the host shows a range a writing tool marked.
public enum MarkKind: Hashable, Sendable {
  /// Hidden while an animation plays over it.
  case hidden
  /// Underlined as a proofreading suggestion (the label says which).
  case underline(String)
}

/// A range a writing tool asked the host to hide or underline, mapped to its
/// storage and kept mapped through later edits.
public struct Mark: Hashable, Sendable, Identifiable {
  /// A number unique in the session.
  public var id: Int
  /// The storage.
  public var storage: StorageID
  /// Where it is now (UTF-16).
  public var range: Range<Int>
  /// How to show it.
  public var kind: MarkKind
}
