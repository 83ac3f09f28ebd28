/// Where a tool replacement landed.
public struct ReplacementResult: Hashable, Sendable {
  /// The storage it was applied to.
  public var storage: StorageID
  /// Where its text is now, in the storage (UTF-16).
  public var storageRange: Range<Int>
  /// The context's version after it.
  public var contextVersion: ContextVersion
  /// What the other live contexts heard (the replaced context hears nothing:
  /// the replacement is its own change).
  public var events: [DocumentEvent]
  /// The host's tracked ranges and the suggestions that the replacement
  /// touched and removed.
  public var tracked: TrackedChanges
  /// Why it was made: ``TextReplacementReason/interactive`` while the
  /// session is interactive, else ``TextReplacementReason/noninteractive``
  /// (the other contexts' events carry the same).
  public var reason: TextReplacementReason

  /// A result, as a replacement gives it.
  public init(
    storage: StorageID, storageRange: Range<Int>, contextVersion: ContextVersion,
    events: [DocumentEvent], tracked: TrackedChanges = TrackedChanges(),
    reason: TextReplacementReason = .noninteractive
  ) {
    self.reason = reason
    self.tracked = tracked
    self.storage = storage
    self.storageRange = storageRange
    self.contextVersion = contextVersion
    self.events = events
  }
}
