import TextRope

/// The attributes an edit gives its new text: runs relative to the new
/// text. For each key the edit either decides it (where no run gives a
/// value, the unit has none), or overlays it (the edit rule's value, except
/// where a run gives one), or leaves it to the edit rule
/// (``AttributeRuns/replaceInheriting(_:withLength:)``).
struct _NewTextAttributes: Hashable, Sendable {
  /// The runs, relative to the new text, checked.
  var runs: [AttributeRun]
  /// The keys the runs decide; `nil`: every key.
  var decided: Set<AttributeKey>?
  /// The keys the runs overlay on the edit rule's values.
  var overlaid: Set<AttributeKey> = []

  /// Whether the runs decide `key`.
  func decides(_ key: AttributeKey) -> Bool { decided?.contains(key) ?? true }

  /// Whether the runs give values of `key`.
  func gives(_ key: AttributeKey) -> Bool { decides(key) || overlaid.contains(key) }

  /// New text of `length` units with exactly `attributes` (none if empty).
  static func uniform(_ attributes: [AttributeKey: AttributeValue], length: Int) -> Self {
    exactly(attributes.isEmpty || length == 0 ? [] : [AttributeRun(0..<length, attributes)])
  }

  /// New text with exactly the attributes of `runs`.
  static func exactly(_ runs: [AttributeRun]) -> Self {
    _NewTextAttributes(runs: runs, decided: nil)
  }
}

extension AttributeRun {
  /// Checks runs given for a text: each value is one its key takes, each
  /// run lies in the text and starts where the one before it ended or
  /// later, and its bounds are not inside a surrogate pair of `text`.
  ///
  /// - Throws: ``DocumentError/invalidAttribute(_:reason:)``,
  ///   ``DocumentError/overlappingRuns(_:)``, or
  ///   ``DocumentError/invalidRange(_:_:)`` (of storage `id`).
  static func check(_ runs: [AttributeRun], in text: Rope, of id: StorageID) throws(DocumentError) {
    var end = 0
    for run in runs {
      for (key, value) in run.attributes {
        if let reason = value.problem(under: key) { throw .invalidAttribute(key, reason: reason) }
      }
      guard run.range.lowerBound >= end else { throw .overlappingRuns(run.range) }
      do {
        _ = try text.utf8Range(of: run.range, in: .utf16)
      } catch {
        throw .invalidRange(id, error)
      }
      end = run.range.upperBound
    }
  }

  /// Checks a set of attributes: each value is one its key takes.
  ///
  /// - Throws: ``DocumentError/invalidAttribute(_:reason:)``.
  static func check(_ attributes: [AttributeKey: AttributeValue?]) throws(DocumentError) {
    for case (let key, let value?) in attributes {
      if let reason = value.problem(under: key) { throw .invalidAttribute(key, reason: reason) }
    }
  }
}

extension TextStorage {
  /// Moves the attribute runs with an edit already made to the text: the
  /// units in `range` were replaced by `newLength` new ones, which take
  /// `given`'s attributes for the keys it decides or overlays, and the edit
  /// rule's for the others (every key, without `given`).
  ///
  /// - Complexity: nothing for a storage without attributes; O(log r) when
  ///   nothing is given and the edit lies in one run (typing: one descent,
  ///   nothing allocated); O(log r + m) otherwise.
  mutating func followEdit(
    _ range: Range<Int>, newLength: Int, attributes given: _NewTextAttributes?
  ) {
    if parts.attributes == nil {
      // A storage that never had an attribute (the usual one): nothing to
      // follow, unless the edit gives some.
      guard let given, given.runs.contains(where: { !$0.attributes.isEmpty }) else { return }
      attributes = AttributeRuns(length: length - newLength + range.count)
    }
    let parts = own()
    _mustSucceed("moving attribute runs with an edit") { () throws(AttributeRunsError) in
      // Every key by the edit rule first (typing: that is all).
      try parts.attributes?.replaceInheriting(range, withLength: newLength)
      guard let given else { return }
      let new = range.lowerBound..<(range.lowerBound + newLength)
      // The keys the edit decides have no value where no run gives one.
      try parts.attributes?.modify(new) { set in
        guard var set else { return nil }
        if let decided = given.decided {
          for key in decided { set[key] = nil }
        } else {
          set = [:]
        }
        return set.isEmpty ? nil : set
      }
      for run in given.runs {
        let shifted =
          (new.lowerBound + run.range.lowerBound)..<(new.lowerBound + run.range.upperBound)
        try parts.attributes?.modify(shifted) { set in
          var set = set ?? [:]
          for (key, value) in run.attributes where given.gives(key) { set[key] = value }
          return set.isEmpty ? nil : set
        }
      }
    }
  }

  /// Sets attributes over `range` (checked): a value sets its key, `nil`
  /// removes it; other keys stay.
  mutating func setAttributes(_ values: [AttributeKey: AttributeValue?], in range: Range<Int>) {
    if range.isEmpty { return }
    if attributes == nil {
      guard values.values.contains(where: { $0 != nil }) else { return }
      attributes = AttributeRuns(length: length)
    }
    _mustSucceed("setting attributes over a checked range") { () throws(AttributeRunsError) in
      try attributes?.modify(range) { set in
        var set = set ?? [:]
        for (key, value) in values { set[key] = value }
        return set.isEmpty ? nil : set
      }
    }
  }
}
