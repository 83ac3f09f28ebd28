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
  public var events: [DocumentEvent] {
    get {
      switch _events {
      case .none: []
      case .one(let event): [event]
      case .many(let events): events
      }
    }
    set { _events = _Events(newValue) }
  }
  /// The host's tracked ranges that the edit touched and removed.
  public var tracked: TrackedChanges

  /// The events, kept without an array for the usual keystroke's one (a
  /// caller that never reads them allocates none).
  var _events: _Events

  /// A result, as an edit gives it.
  public init(
    version: StorageVersion, range: Range<Int>, unitRange: Range<Int>? = nil,
    events: [DocumentEvent], tracked: TrackedChanges = TrackedChanges()
  ) {
    self.init(
      version: version, range: range, unitRange: unitRange, events: _Events(events),
      tracked: tracked)
  }

  init(
    version: StorageVersion, range: Range<Int>, unitRange: Range<Int>? = nil,
    events: _Events, tracked: TrackedChanges = TrackedChanges()
  ) {
    self.tracked = tracked
    self.version = version
    self.range = range
    self.unitRange = unitRange ?? range
    self._events = events
  }

  public static func == (a: EditResult, b: EditResult) -> Bool {
    a.version == b.version && a.range == b.range && a.unitRange == b.unitRange
      && a.tracked == b.tracked && a.events == b.events
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(version)
    hasher.combine(range)
    hasher.combine(unitRange)
    hasher.combine(events)
    hasher.combine(tracked)
  }
}

/// A result's events: none, one, or an array of them.
enum _Events: Sendable {
  case none
  case one(DocumentEvent)
  case many([DocumentEvent])

  init(_ events: [DocumentEvent]) {
    switch events.count {
    case 0: self = .none
    case 1: self = .one(events[0])
    default: self = .many(events)
    }
  }
}
