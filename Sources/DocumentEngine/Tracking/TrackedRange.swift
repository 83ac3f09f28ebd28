import SummaryTrees

/// The id of a tracked range: unique in its document for the document's
/// life (an id is never given twice, and a storage added again under the
/// same name starts with new ids).
public struct TrackedRangeID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The number, as the REPL's protocol writes it (below 2^53, so that a
  /// JSON reader that keeps numbers as doubles reads it exactly).
  public let rawValue: Int

  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// The id of local number `local` in the storage of serial `serial`.
  init(serial: Int, local: UInt32) {
    rawValue = serial << 32 | Int(local)
  }

  /// The serial of the storage it belongs to.
  var serial: Int { rawValue >> 32 }
  /// Its number in that storage.
  var local: UInt32 { UInt32(truncatingIfNeeded: rawValue) }

  public var description: String { String(rawValue) }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What the ends of a tracked range do with text inserted exactly at them.
public enum TrackedExpansion: String, Hashable, Sendable, CaseIterable {
  /// Neither end takes the new text (a spelling underline, a link-like
  /// comment).
  case none
  /// The start takes text inserted at it.
  case before
  /// The end takes text typed at it (a bold-like comment).
  case after
  /// Both ends take it.
  case both
}

/// What an edit that touches a tracked range's text does to it.
public enum TrackedTouchRule: String, Hashable, Sendable, CaseIterable {
  /// It stays, moved (and the edit's result names it as touched).
  case keep
  /// It is gone (a finding about text that changed is stale; the edit's
  /// result names it as removed).
  case remove
}

/// How a range follows edits: its ends' rule for text inserted at them,
/// and what becomes of it when an edit touches its text.
public struct TrackingRules: Hashable, Sendable {
  /// For a range that is not empty when it is added.
  public var expand: TrackedExpansion
  /// For a range that is empty when it is added (a caret, a bookmark):
  /// `.left` stays before text inserted at it, `.right` goes after it.
  public var bias: Bias
  public var onTouch: TrackedTouchRule

  public init(
    expand: TrackedExpansion = .none, bias: Bias = .left, onTouch: TrackedTouchRule = .keep
  ) {
    self.expand = expand
    self.bias = bias
    self.onTouch = onTouch
  }
}

/// A range of a storage that follows every edit of its text (see the
/// *Tracked ranges* article).
public struct TrackedRange: Hashable, Sendable, Identifiable {
  public var id: TrackedRangeID
  public var storage: StorageID
  /// Where it is now (UTF-16).
  public var range: Range<Int>
  /// The host's name for what it is (`"spelling"`, `"comment"`…).
  public var kind: String
  public var rules: TrackingRules

  public init(
    id: TrackedRangeID, storage: StorageID, range: Range<Int>, kind: String, rules: TrackingRules
  ) {
    self.id = id
    self.storage = storage
    self.range = range
    self.kind = kind
    self.rules = rules
  }
}

/// The host's tracked ranges that one edit touched (they stay, moved) and
/// removed (their rule was `.remove`), each sorted: what a host checks
/// again.
public struct TrackedChanges: Hashable, Sendable {
  // Empty lists are kept as `nil`: every keystroke's result holds one of
  // these, and most name nothing (no reference to count).
  private var _touched: [TrackedRangeID]?
  private var _removed: [TrackedRangeID]?

  /// The ranges whose text the edit touched; they stay, moved.
  public var touched: [TrackedRangeID] {
    get { _touched ?? [] }
    set { _touched = newValue.isEmpty ? nil : newValue }
  }
  /// The ranges the edit removed (their rule was `.remove`).
  public var removed: [TrackedRangeID] {
    get { _removed ?? [] }
    set { _removed = newValue.isEmpty ? nil : newValue }
  }

  public init(touched: [TrackedRangeID] = [], removed: [TrackedRangeID] = []) {
    _touched = touched.isEmpty ? nil : touched
    _removed = removed.isEmpty ? nil : removed
  }

  public var isEmpty: Bool { _touched == nil && _removed == nil }

  mutating func merge(_ other: TrackedChanges) {
    if other.isEmpty { return }
    touched = Array(Set(touched + other.touched).subtracting(other.removed)).sorted()
    removed = Array(Set(removed + other.removed)).sorted()
  }
}
