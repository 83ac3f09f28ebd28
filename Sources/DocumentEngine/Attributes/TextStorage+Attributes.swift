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
  var decided: [AttributeKey]?
  /// The keys the runs overlay on the edit rule's values.
  var overlaid: [AttributeKey] = []
  /// Whether the runs are an ``AttributedText``'s, as it gave them:
  /// maximal (no two touching runs alike), none empty.
  var areMaximal = false

  /// Whether the runs decide `key`.
  func decides(_ key: AttributeKey) -> Bool { decided?.contains(key) ?? true }

  /// Whether the runs give values of `key`.
  func gives(_ key: AttributeKey) -> Bool { decides(key) || overlaid.contains(key) }

  /// Whether the runs give every key of `attributes`.
  func givesEvery(_ attributes: [AttributeKey: AttributeValue]) -> Bool {
    guard decided != nil else { return true }
    for key in attributes.keys where !gives(key) { return false }
    return true
  }

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
    // A text with as many scalars as UTF-16 units has no surrogate pair.
    let length = text.utf16Count
    let hasPairs = text.scalarCount != length
    let firstOff = runs.firstIndex { run in
      hasPairs
        ? (try? text.utf8Range(of: run.range, in: .utf16)) == nil
        : run.range.lowerBound < 0 || run.range.upperBound > length
    }
    try check(runs, firstOffScalars: firstOff, in: { text }, of: id)
  }

  /// Checks runs given for a text as the check against a rope does, with
  /// the text as a string (``firstRunOffScalars(_:in:)``: no rope is built
  /// unless a run is refused).
  static func check(_ runs: [AttributeRun], in text: String, of id: StorageID) throws(DocumentError)
  {
    try check(
      runs, firstOffScalars: firstRunOffScalars(runs, in: text), in: { Rope(text) }, of: id)
  }

  /// The checks in order, run by run: values, then order, then (at run
  /// `firstOff`, the first with a bound off the text's scalars) the rope's
  /// error for its range.
  private static func check(
    _ runs: [AttributeRun], firstOffScalars firstOff: Int?, in text: () -> Rope,
    of id: StorageID
  ) throws(DocumentError) {
    var end = 0
    for (index, run) in runs.enumerated() {
      for (key, value) in run.attributes {
        if let reason = value.problem(under: key) { throw .invalidAttribute(key, reason: reason) }
      }
      guard run.range.lowerBound >= end else { throw .overlappingRuns(run.range) }
      if index == firstOff {
        do {
          _ = try text().utf8Range(of: run.range, in: .utf16)
        } catch {
          throw .invalidRange(id, error)
        }
      }
      end = run.range.upperBound
    }
  }

  /// The index of the first run (in order, each starting at or after the
  /// one before ends) with a bound that is not on a scalar of `text`: inside
  /// a surrogate pair, before the start or past the end.
  static func firstRunOffScalars(_ runs: [AttributeRun], in text: String) -> Int? {
    var text = text
    return text.withUTF8 { bytes -> Int? in
      var byte = 0
      var unit = 0
      /// Walks to `bound`: whether it is a scalar's start (or the end).
      func reaches(_ bound: Int) -> Bool {
        while unit < bound && byte < bytes.count {
          let lead = bytes[byte]
          if lead < 0x80 {
            byte += 1
            unit += 1
          } else if lead < 0xE0 {
            byte += 2
            unit += 1
          } else if lead < 0xF0 {
            byte += 3
            unit += 1
          } else {
            // Four bytes: two UTF-16 units, with no bound between them.
            byte += 4
            unit += 2
          }
        }
        return unit == bound
      }
      for (index, run) in runs.enumerated() {
        guard reaches(run.range.lowerBound), reaches(run.range.upperBound) else { return index }
      }
      return nil
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
    parts.isAsSourceRead = false
    _mustSucceed("moving attribute runs with an edit") { () throws(AttributeRunsError) in
      // Every key by the edit rule first (typing: that is all).
      try parts.attributes?.replaceInheriting(range, withLength: newLength)
      guard let given else { return }
      let new = range.lowerBound..<(range.lowerBound + newLength)
      // The new units have one value now, the edit rule's: the runs are
      // laid over it in one pass.
      if newLength > 0, parts.attributes != nil {
        // What the units between the runs keep: the edit rule's value
        // without the keys the edit decides (every key, without
        // `decided`).
        var base: [AttributeKey: AttributeValue] = [:]
        if let decided = given.decided,
          let inherited = try parts.attributes?.value(at: new.lowerBound)
        {
          base = inherited.filter { !decided.contains($0.key) }
        }
        // Whether every run is laid as its own set: then maximal runs
        // stay maximal, and their pieces need no check for neighbours alike.
        var asGiven = base.isEmpty
        let pieces = Self.pieces(of: given.runs, length: newLength, gap: base) { run in
          // Nothing underneath and every key the run's: its own set, as is.
          if base.isEmpty, given.givesEvery(run.attributes) { return run.attributes }
          asGiven = false
          var set = base
          for (key, value) in run.attributes where given.gives(key) { set[key] = value }
          return set
        }
        if let pieces {
          try parts.attributes?.replace(
            new, withRuns: pieces, maximal: asGiven && given.areMaximal)
          return
        }
      }
      // Runs out of order or outside the new text (which the callers'
      // checks refuse): one by one, as they come. The keys the edit
      // decides have no value where no run gives one.
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

  /// Gives a storage that has no attributes yet those of `runs` (checked:
  /// see ``AttributeRun/check(_:in:of:)``), built in one pass: the units
  /// of each run take its attributes, equal neighbours merge, and the tree
  /// is built bottom-up; what ``setAttributes(_:in:)`` run by run gives.
  ///
  /// - Complexity: O(m) for m runs (run by run: O(m log m), a cut and a
  ///   join each).
  mutating func setAttributes(_ runs: [AttributeRun]) {
    assert(attributes == nil, "bulk attributes over existing ones")
    guard runs.contains(where: { !$0.range.isEmpty && !$0.attributes.isEmpty }) else { return }
    let length = self.length
    guard let pieces = Self.pieces(of: runs, length: length, gap: [:], \.attributes) else {
      // Runs that `check` refuses: as they come.
      for run in runs { setAttributes(run.attributes, in: run.range) }
      return
    }
    var built = AttributeRuns<[AttributeKey: AttributeValue]>(length: length)
    _mustSucceed("building checked attribute runs") { () throws(AttributeRunsError) in
      try built.replace(0..<length, withRuns: pieces)
    }
    attributes = built
  }

  /// The runs of a span of `length` units that `runs` (relative to it)
  /// describe: the units of each run take `value(run)`, those between
  /// runs `gap`; an empty set is no value. `nil` unless the runs are in
  /// order, not overlapping and inside the span.
  ///
  /// - Complexity: O(m) for m runs.
  static func pieces(
    of runs: [AttributeRun], length: Int, gap: [AttributeKey: AttributeValue],
    _ value: (AttributeRun) -> [AttributeKey: AttributeValue]
  ) -> [_AttributeRun<[AttributeKey: AttributeValue]>]? {
    let gap = gap.isEmpty ? nil : gap
    var pieces: [_AttributeRun<[AttributeKey: AttributeValue]>] = []
    pieces.reserveCapacity(2 * runs.count + 1)
    var end = 0
    for run in runs {
      guard run.range.lowerBound >= end, run.range.upperBound <= length else { return nil }
      if run.range.lowerBound > end {
        pieces.append(_AttributeRun(length: run.range.lowerBound - end, value: gap))
      }
      if !run.range.isEmpty {
        let set = value(run)
        pieces.append(_AttributeRun(length: run.range.count, value: set.isEmpty ? nil : set))
      }
      end = run.range.upperBound
    }
    if end < length { pieces.append(_AttributeRun(length: length - end, value: gap)) }
    return pieces
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
