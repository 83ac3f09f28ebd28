import TextRope

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
    @exclusivity(unchecked) var exclusions: AttributeRuns<Bool>
    @exclusivity(unchecked) var attributes: [AttributeKey: AttributeRuns<AttributeValue>]
    @exclusivity(unchecked) var changes: ChangeLog

    init(
      id: StorageID, text: Rope, exclusions: AttributeRuns<Bool>,
      attributes: [AttributeKey: AttributeRuns<AttributeValue>], changes: ChangeLog
    ) {
      self.id = id
      self.text = text
      self.exclusions = exclusions
      self.attributes = attributes
      self.changes = changes
    }

    func copy() -> Parts {
      Parts(
        id: id, text: text, exclusions: exclusions, attributes: attributes,
        changes: changes)
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
      id: id, text: text, exclusions: AttributeRuns(length: text.utf16Count),
      attributes: [:], changes: ChangeLog(version: 0, length: text.utf16Count))
  }

  /// The client's name for the storage.
  public var id: StorageID { parts.id }

  /// The text.
  public internal(set) var text: Rope {
    _read { yield parts.text }
    _modify { yield &own().text }
  }

  /// Bumped by one by every edit; 0 when the storage was added: the change
  /// index's current version.
  public var version: StorageVersion { parts.changes.currentVersion }

  /// The units excluded from Writing Tools (`excludeFromWritingTools`).
  public internal(set) var exclusions: AttributeRuns<Bool> {
    _read { yield parts.exclusions }
    _modify { yield &own().exclusions }
  }

  /// The text's attributes (rich text), as runs by key: every UTF-16 unit
  /// has at most one value per key. A key is here once a unit has had a
  /// value for it. Edits carry them by the rule of
  /// `NSMutableAttributedString` (see ``AttributeRuns/replaceInheriting(_:withLength:)``);
  /// ``attributeRuns(in:)`` reads them as runs of every key.
  public internal(set) var attributes: [AttributeKey: AttributeRuns<AttributeValue>] {
    _read { yield parts.attributes }
    _modify { yield &own().attributes }
  }

  /// The change index: the edits since the oldest version still referred
  /// to, and composed maps from the versions mapped from often.
  public internal(set) var changes: ChangeLog {
    _read { yield parts.changes }
    _modify { yield &own().changes }
  }

  /// The length in UTF-16 code units.
  public var length: Int { parts.text.utf16Count }

  /// Checks that the parts agree: the attribute runs and the change index
  /// cover the text's length. Traps on a violation. Compiled in only with
  /// `-DENGINE_INTERNAL_CHECKS`; a no-op otherwise.
  public func _invariantCheck() {
    #if ENGINE_INTERNAL_CHECKS
    precondition(exclusions.length == length, "exclusion runs out of step with the text")
    exclusions._invariantCheck()
    for (_, runs) in attributes {
      precondition(runs.length == length, "attribute runs out of step with the text")
      runs._invariantCheck()
    }
    changes._invariantCheck()
    precondition(changes.length == length, "change index out of step with the text")
    #endif
  }

  /// The attributes of `range` of the text, as maximal runs of every key
  /// (two neighbours never have equal attributes; units with no attribute
  /// are left out), in order, relative to `range.lowerBound`.
  ///
  /// - Complexity: O(k log r + m) for k keys and m runs in the range.
  public func attributeRuns(in range: Range<Int>) -> [AttributeRun] {
    let range =
      max(0, range.lowerBound)..<max(max(0, range.lowerBound), min(range.upperBound, length))
    if attributes.isEmpty || range.isEmpty { return [] }
    // Every key's runs in the range, then a sweep over their bounds.
    var perKey: [(key: AttributeKey, runs: [(range: Range<Int>, value: AttributeValue)])] = []
    var bounds: Set<Int> = [range.lowerBound, range.upperBound]
    for (key, runs) in attributes {
      let inside = runs.runs(in: range)
      if inside.isEmpty { continue }
      perKey.append((key, inside))
      for run in inside {
        bounds.insert(run.range.lowerBound)
        bounds.insert(run.range.upperBound)
      }
    }
    if perKey.isEmpty { return [] }
    let cuts = bounds.sorted()
    var next = Array(repeating: 0, count: perKey.count)
    var result: [AttributeRun] = []
    for (a, b) in zip(cuts, cuts.dropFirst()) {
      var set: [AttributeKey: AttributeValue] = [:]
      for k in perKey.indices {
        let runs = perKey[k].runs
        while next[k] < runs.count && runs[next[k]].range.upperBound <= a { next[k] += 1 }
        if next[k] < runs.count && runs[next[k]].range.lowerBound <= a {
          set[perKey[k].key] = runs[next[k]].value
        }
      }
      let local = (a - range.lowerBound)..<(b - range.lowerBound)
      if set.isEmpty { continue }
      if let last = result.last, last.attributes == set, last.range.upperBound == local.lowerBound {
        result[result.count - 1].range = last.range.lowerBound..<local.upperBound
      } else {
        result.append(AttributeRun(local, set))
      }
    }
    return result
  }

  /// The excluded ranges, in order.
  public var excludedRanges: [Range<Int>] {
    exclusions.runs(in: 0..<length).filter(\.value).map(\.range)
  }
}
