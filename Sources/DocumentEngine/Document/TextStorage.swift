import TextRope

/// What a storage's text was read from (a file's source), kept with the
/// storage for the module that reads and writes that format: see
/// ``TextStorage/source``.
public protocol StorageSource: Sendable {}

/// One text storage of a document (a title, a body, a cell): its text, a
/// version that every edit bumps by one, and its attribute runs.
///
/// A storage is a value: a copy is a snapshot (O(1)) that later edits of the
/// document never change. Its parts live in one copy-on-write object, so
/// that a copy costs one reference however many parts there are.
///
/// Each fact is kept once: the version is the change index's current
/// version. The length (UTF-16) is the rope's; the attribute runs and the
/// change index each hold it too, as the length of what they describe (a
/// run tree's summary, the length that maps and transformation start
/// from), and are checked against it (`_invariantCheck()`): each is a
/// structure of its own that works without the text.
public struct TextStorage: Sendable {
  // The parts change only through `own()`, which makes them this value's
  // alone first; accesses to them are therefore checked statically, with the
  // value that owns them, and need no run-time exclusivity checks.
  final class Parts: @unchecked Sendable {
    let id: StorageID
    @exclusivity(unchecked) var text: Rope
    /// `nil` while no unit was ever excluded (the usual storage): an edit
    /// then has no runs to move.
    @exclusivity(unchecked) var exclusions: AttributeRuns<Bool>?
    @exclusivity(unchecked) var attributes: AttributeRuns<[AttributeKey: AttributeValue]>?
    @exclusivity(unchecked) var changes: ChangeLog
    /// Every position that follows the text's edits (docs/DESIGN.md,
    /// *Tracked ranges*).
    @exclusivity(unchecked) var tracked: _TrackedRanges
    /// The storage's number in its document, given once when it is added:
    /// the high part of its tracked ranges' ids (0 outside a document).
    @exclusivity(unchecked) var serial: Int
    /// What the text was read from, kept for its writer (see
    /// ``TextStorage/source``).
    @exclusivity(unchecked) var source: (any StorageSource)?
    /// Whether the text and its attributes are as they were when the source
    /// was given: cleared by any change of either (see
    /// ``TextStorage/isAsSourceRead``).
    @exclusivity(unchecked) var isAsSourceRead = false

    init(
      id: StorageID, text: Rope, exclusions: AttributeRuns<Bool>?,
      attributes: AttributeRuns<[AttributeKey: AttributeValue]>?, changes: ChangeLog,
      tracked: _TrackedRanges = _TrackedRanges(), serial: Int = 0,
      source: (any StorageSource)? = nil
    ) {
      self.id = id
      self.text = text
      self.exclusions = exclusions
      self.attributes = attributes
      self.changes = changes
      self.tracked = tracked
      self.serial = serial
      self.source = source
    }

    func copy() -> Parts {
      let parts = Parts(
        id: id, text: text, exclusions: exclusions, attributes: attributes,
        changes: changes, tracked: tracked, serial: serial, source: source)
      parts.isAsSourceRead = isAsSourceRead
      return parts
    }
  }

  var parts: Parts

  /// Makes the parts this value's own before a change.
  mutating func own() -> Parts {
    if !isKnownUniquelyReferenced(&parts) { parts = parts.copy() }
    return parts
  }

  /// A storage holding `text`, at version 0, without attributes.
  public init(id: StorageID, text: Rope) {
    parts = Parts(
      id: id, text: text, exclusions: nil,
      attributes: nil, changes: ChangeLog(version: 0, length: text.utf16Count))
  }

  /// The client's name for the storage.
  public var id: StorageID { parts.id }

  /// What the storage's text was read from, kept with it so that a writer
  /// gives back the source of what did not change (DocumentMarkdown keeps
  /// a Markdown file's blocks so: docs/DESIGN.md, *A Markdown file keeps
  /// its form*); nil for a storage added from text.
  ///
  /// The engine keeps it with the storage, in every snapshot, and drops it
  /// with the storage; it never reads it and does not follow edits with
  /// it: the writer compares it with the text as it is now.
  public internal(set) var source: (any StorageSource)? {
    _read { yield parts.source }
    _modify {
      let parts = own()
      yield &parts.source
      parts.isAsSourceRead = parts.source != nil
    }
  }

  /// Whether the text and its attributes are what they were when the
  /// storage got its ``source``: no edit (even one undone since) and no
  /// attribute set. A writer may then give the source back as it is,
  /// without comparing its blocks with the text. False without a source.
  public var isAsSourceRead: Bool { parts.isAsSourceRead }

  /// The text.
  public internal(set) var text: Rope {
    _read { yield parts.text }
    _modify {
      let parts = own()
      parts.isAsSourceRead = false
      yield &parts.text
    }
  }

  /// Bumped by one by every edit; 0 when the storage was added: the change
  /// index's current version.
  public var version: StorageVersion { parts.changes.currentVersion }

  /// The units excluded from Writing Tools (`excludeFromWritingTools`).
  public var exclusions: AttributeRuns<Bool> {
    parts.exclusions ?? AttributeRuns(length: length)
  }

  /// The excluded ranges within `range` (in bounds), in order.
  func excludedRanges(in range: Range<Int>) -> [Range<Int>] {
    guard let exclusions = parts.exclusions else { return [] }
    return exclusions.runs(in: range).filter(\.value).map(\.range)
  }

  /// Marks the units of `range` (checked) excluded or not.
  mutating func setExcluded(_ excluded: Bool, in range: Range<Int>) {
    if parts.exclusions == nil {
      // Nothing was excluded yet: including changes nothing.
      guard excluded, !range.isEmpty else { return }
      own().exclusions = AttributeRuns(length: length)
    }
    _mustSucceed("marking a checked range excluded") { () throws(AttributeRunsError) in
      try own().exclusions?.set(excluded ? true : nil, in: range)
    }
  }

  /// Moves the exclusions with an edit the text already took.
  mutating func followExclusions(_ range: Range<Int>, newLength: Int) {
    guard parts.exclusions != nil else { return }
    // The rope took the range, so the runs (as long as the text) take it.
    _mustSucceed("moving the exclusions with an edit") { () throws(AttributeRunsError) in
      try own().exclusions?.replace(range, withLength: newLength)
    }
  }

  /// The text's attributes (rich text): runs of attribute sets, every
  /// UTF-16 unit with at most one value per key and equal neighbours one
  /// run; `nil` until a unit first has an attribute, so that a storage
  /// without attributes pays nothing for them. One tree for every key, so
  /// that an edit follows them all with one descent. Edits carry them by
  /// the rule of `NSMutableAttributedString` (see
  /// ``AttributeRuns/replaceInheriting(_:withLength:)``);
  /// ``attributeRuns(in:)`` reads them.
  var attributes: AttributeRuns<[AttributeKey: AttributeValue]>? {
    _read { yield parts.attributes }
    _modify {
      let parts = own()
      parts.isAsSourceRead = false
      yield &parts.attributes
    }
  }

  /// The change index: the edits since the oldest version still referred
  /// to, and composed maps from the versions mapped from often.
  public internal(set) var changes: ChangeLog {
    _read { yield parts.changes }
    _modify { yield &own().changes }
  }

  /// The length in UTF-16 code units.
  public var length: Int { parts.text.utf16Count }

  /// The tracked ranges: every position that follows the text's edits.
  var tracked: _TrackedRanges {
    _read { yield parts.tracked }
    _modify { yield &own().tracked }
  }

  /// The storage's number in its document (see ``Parts/serial``).
  var serial: Int { parts.serial }

  /// The id of tracked range number `local`.
  func trackedID(_ local: UInt32) -> TrackedRangeID {
    TrackedRangeID(serial: parts.serial, local: local)
  }

  /// Moves the tracked ranges with an edit the text already took; `report`
  /// gets those the edit did more than shift.
  mutating func followTracked(_ step: _EditStep, report: inout [_TrackedChange]) {
    guard !parts.tracked.isEmpty else { return }
    own().tracked.edit(step, report: &report)
  }

  /// Checks that the parts agree: the attribute runs and the change index
  /// cover the text's length. Traps on a violation. Compiled in only with
  /// `-DENGINE_INTERNAL_CHECKS`; a no-op otherwise.
  public func _invariantCheck() {
    #if ENGINE_INTERNAL_CHECKS
    if let exclusions = parts.exclusions {
      precondition(exclusions.length == length, "exclusion runs out of step with the text")
      exclusions._invariantCheck()
    }
    if let attributes {
      precondition(attributes.length == length, "attribute runs out of step with the text")
      attributes._invariantCheck()
      for run in attributes.runs(in: 0..<length) {
        precondition(!run.value.isEmpty, "an empty attribute set stored as a value")
      }
    }
    changes._invariantCheck()
    precondition(changes.length == length, "change index out of step with the text")
    parts.tracked._invariantCheck(length: length)
    #endif
  }

  /// The attributes of `range` of the text, as maximal runs of every key
  /// (two neighbours never have equal attributes; units with no attribute
  /// are left out), in order, relative to `range.lowerBound`.
  ///
  /// - Complexity: O(log r + m) for m runs in the range.
  public func attributeRuns(in range: Range<Int>) -> [AttributeRun] {
    guard let attributes else { return [] }
    let start = max(0, range.lowerBound)
    var runs: [AttributeRun] = []
    attributes.forEachRun(in: start..<max(start, min(range.upperBound, length))) {
      runs.append(AttributeRun(($0.lowerBound - start)..<($0.upperBound - start), $1))
    }
    return runs
  }

  /// The excluded ranges, in order.
  public var excludedRanges: [Range<Int>] {
    excludedRanges(in: 0..<length)
  }
}
