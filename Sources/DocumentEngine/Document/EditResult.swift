/// What an edit did.
public struct EditResult: Hashable, Sendable {
  /// The storage's version after the edit (after its last piece, if
  /// transformation split it).
  public var version: StorageVersion
  /// Where the new text landed, in current coordinates (UTF-16).
  public var range: Range<Int>
  /// Where the new text landed, in the unit the edit's range was given in
  /// (``Document/edit(_:range:in:with:attributes:)``): ``range`` converted, so that a
  /// caller working in UTF-8 or scalars needs no conversion of its own. The
  /// same as ``range`` for an edit in UTF-16.
  public var unitRange: Range<Int>
  /// What the live contexts heard, in order.
  public var events: [DocumentEvent]
  /// The host's tracked ranges that the edit touched and removed.
  public var tracked: TrackedChanges

  /// A result, as an edit gives it.
  public init(
    version: StorageVersion, range: Range<Int>, unitRange: Range<Int>? = nil,
    events: [DocumentEvent], tracked: TrackedChanges = TrackedChanges()
  ) {
    self.tracked = tracked
    self.version = version
    self.range = range
    self.unitRange = unitRange ?? range
    self.events = events
  }
}
