import DocumentEngine
import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whether a UTF-16 unit ends a paragraph (LF, CR, U+2029).
private func isSeparator(_ unit: UInt16) -> Bool { unit == 0x0A || unit == 0x0D || unit == 0x2029 }

extension Worker {
  /// A Writing Tools session on storage `k` (task 0 only: a document has one
  /// session at a time): a selection, its context, then a burst of the tool
  /// alone (with undo, redo or revert) or of the tool and the person.
  func session(_ k: Int) throws {
    let id = slots[k].id
    let count = slots[k].model.count
    let lo = slots[k].model.boundary(random.int(0...count))
    let hi = random.percent(5) ? lo : slots[k].model.boundary(lo + random.int(1...300))
    try call(.select, "select \(id) \(lo)..<\(hi)") {
      try document.select([SelectionRange(id, lo..<hi)])
    }
    let paragraphs = random.int(0...2)
    let session = try call(.startSession, "startSession") {
      try document.startSession(scope: .userSelection, surroundingParagraphs: paragraphs)
    }
    guard session.contexts.count == 1, let context = session.contexts.first else {
      throw failure("\(session.contexts.count) contexts for the selection \(id) \(lo)..<\(hi)")
    }
    try checkContext(k, context, selection: lo..<hi)
    if options.runs(.mixed) && random.percent(40) {
      try mixedBurst(k, context)
    } else {
      try toolBurst(k, context)
    }
    try call(.endSession, "endSession") { document.endSession() }
    if random.percent(10) {
      // A replacement after the session ended.
      let (outcome, elapsed) = try attempt {
        try document.replace(context: context.id, range: 0..<0, with: "late")
      }
      tally.add(.toolHostile, elapsed)
      guard case .failure(.noSession) = outcome else {
        throw failure("a replacement after endSession gave \(outcome), not noSession")
      }
      refused("replace", .noSession)
      try spotCheck(k, 0..<0, "after a replacement after endSession")
    }
  }

  /// The context of a one-storage selection: the storage, version, text,
  /// paragraph bounds, and where the selection is in it.
  func checkContext(_ k: Int, _ context: WritingContext, selection: Range<Int>) throws {
    let model = slots[k].model
    let bounds = context.storageRange
    let start = bounds.lowerBound
    let end = bounds.upperBound
    guard
      context.storage == slots[k].id && context.version == slots[k].version
        && context.contextVersion == 0
    else {
      throw failure(
        "context for \(slots[k].id) at \(slots[k].version): \(context.storage),"
          + " version \(context.version), context version \(context.contextVersion)")
    }
    guard 0 <= start && end <= model.count else {
      throw failure("context range \(bounds) outside \(slots[k].id) (length \(model.count))")
    }
    if let m = firstMismatch(context.text, model[bounds]) {
      throw failure("context text of \(slots[k].id) \(bounds) differs from the model at \(m)")
    }
    if selection.isEmpty {
      // A caret: the whole storage.
      guard bounds == 0..<model.count && context.range == selection else {
        throw failure("caret \(selection.lowerBound): context \(bounds), range \(context.range)")
      }
      return
    }
    let expected = (selection.lowerBound - start)..<(selection.upperBound - start)
    guard start <= selection.lowerBound && selection.upperBound <= end,
      context.range == expected
    else {
      throw failure(
        "selection \(selection) of \(slots[k].id): context \(bounds), range \(context.range)")
    }
    let startsParagraph =
      start == 0
      || (isSeparator(model[start - 1]) && !(model[start - 1] == 0x0D && model[start] == 0x0A))
    let endsParagraph =
      end == model.count
      || (isSeparator(model[end - 1]) && !(model[end - 1] == 0x0D && model[end] == 0x0A))
    guard startsParagraph && endsParagraph else {
      throw failure(
        "context \(bounds) of \(slots[k].id) is not on paragraph bounds: \""
          + excerpt(model[max(0, start - 3)..<min(model.count, start + 3)]) + "\" … \""
          + excerpt(model[max(0, end - 3)..<min(model.count, end + 3)]) + "\"")
    }
  }

  /// The live context, checked against the model.
  func live(_ k: Int, _ context: UUID) throws -> LiveContext {
    let live = try call(.liveContext, "liveContext") { try document.liveContext(context) }
    let range = live.storageRange
    guard
      live.storage == slots[k].id && 0 <= range.lowerBound
        && range.upperBound <= slots[k].model.count
    else {
      throw failure("liveContext: \(live.storage) \(range), length \(slots[k].model.count)")
    }
    if let m = firstMismatch(live.text, slots[k].model[range]) {
      throw failure("liveContext: the text of \(range) differs from the model at \(m)")
    }
    return live
  }

  /// Applies a replacement that the engine made to the model: its text
  /// landed at `result.storageRange`, and it deleted as many units as the
  /// length says, which must be the units `replaced` (what the tool saw).
  func applyReplacement(
    _ k: Int, _ result: ReplacementResult, _ units: [UInt16], replaced: ArraySlice<UInt16>,
    lengthBefore: Int, expectedStart: Int?, what: @autoclosure () -> String
  ) throws {
    let storage = try storage(k)
    let n = units.count
    let lo = result.storageRange.lowerBound
    let deleted = lengthBefore + n - storage.length
    let noop = replaced.isEmpty && units.isEmpty
    let version = slots[k].version + (noop ? 0 : 1)
    guard
      result.storage == slots[k].id && result.storageRange.count == n
        && storage.version == version
    else {
      throw failure(
        "\(what()): \(result.storage) \(result.storageRange), version \(storage.version);"
          + " expected \(n) units, version \(version)")
    }
    guard
      deleted >= 0 && lo >= 0 && lo + deleted <= lengthBefore
        && slots[k].model.isBoundary(lo) && slots[k].model.isBoundary(lo + deleted)
    else {
      throw failure("\(what()): landed at \(result.storageRange) deleting \(deleted) units")
    }
    if let expectedStart, lo != expectedStart {
      throw failure("\(what()): landed at \(lo), expected \(expectedStart)")
    }
    guard slots[k].model[lo..<(lo + deleted)].elementsEqual(replaced) else {
      throw failure(
        "\(what()): it replaced \"" + excerpt(slots[k].model[lo..<(lo + deleted)])
          + "\" at \(lo), but the tool saw \"" + excerpt(replaced) + "\"")
    }
    slots[k].model.replaceSubrange(lo..<(lo + deleted), with: units)
    slots[k].version = version
    try spotCheck(k, result.storageRange, "after the \(what())")
  }

  /// A replacement of the tool that must be refused and change nothing.
  func toolHostile(_ k: Int, _ live: LiveContext) throws {
    let length = live.storageRange.count
    var context = live.id
    var range = 0..<0
    var basis: Int? = nil
    switch random.int(0...4) {
    case 0: range = (length + 1)..<(length + 1 + random.int(0...4))
    case 1: range = -random.int(1...4)..<0
    case 2: context = UUID()
    case 3: basis = live.contextVersion + random.int(1...100)
    default:
      let start = live.storageRange.lowerBound
      guard
        let p = slots[k].model.surrogateSplit(from: start + random.int(0...length), limit: 512),
        p < live.storageRange.upperBound
      else { return }
      range = (p - start)..<(p - start)
    }
    let (outcome, elapsed) = try attempt {
      try document.replace(context: context, range: range, with: "tool", basis: basis)
    }
    tally.add(.toolHostile, elapsed)
    switch outcome {
    case .success(let result):
      throw failure(
        "the bad replacement \(range), basis \(String(describing: basis)) gave \(result)")
    case .failure(let error): refused("replace", error)
    }
    try spotCheck(k, live.storageRange, "after a bad replacement")
  }

  /// The tool alone: replacements on the current context text, in groups,
  /// then undo of every group (and redo), or revert, or nothing.
  func toolBurst(_ k: Int, _ context: WritingContext) throws {
    let startText = slots[k].model
    var applied = 0
    var groups = 0
    var state = WritingToolsState.inactive
    var groupHasReplacements = false
    var last: Range<Int>? = nil
    func setState(_ next: WritingToolsState) throws {
      try call(.setState, "setState(\(next))") { try document.setState(next) }
      if state == .interactiveStreaming && next != .interactiveStreaming && groupHasReplacements {
        groups += 1
      }
      if next == .interactiveStreaming && state != .interactiveStreaming {
        groupHasReplacements = false
      }
      state = next
    }
    for _ in 0..<random.int(1...20) {
      if random.percent(25) {
        if state == .interactiveStreaming {
          try setState(.interactiveResting)
        } else {
          if state == .inactive { try setState(.interactiveResting) }
          try setState(.interactiveStreaming)
        }
      }
      let live = try live(k, context.id)
      if random.percent(5) { try toolHostile(k, live) }
      let start = live.storageRange.lowerBound
      let length = live.storageRange.count
      var a: Int
      var b: Int
      if let last, random.percent(40) {
        // Over, inside or beside the previous replacement.
        a = last.lowerBound + random.int(-4...4)
        b = max(a, last.upperBound + random.int(-4...4))
      } else {
        a = random.int(0...length)
        b = a + (random.percent(30) ? 0 : random.int(1...40))
      }
      a = slots[k].model.boundary(start + min(max(a, 0), length)) - start
      b = slots[k].model.boundary(start + min(max(b, 0), length)) - start
      var (text, units) =
        random.percent(20) ? ("", []) : makeEditText(pieces: 3, random: &random)
      if a == b && units.isEmpty && random.percent(90) {
        (text, units) = makeEditText(pieces: 2, random: &random)
      }
      let basis: Int? = random.percent(50) ? nil : live.contextVersion
      let lengthBefore = slots[k].model.count
      let what = "replacement \(a)..<\(b) of context \(live.storageRange) by \(units.count) units"
      let result = try call(.toolReplace, what) {
        try document.replace(context: context.id, range: a..<b, with: text, basis: basis)
      }
      try applyReplacement(
        k, result, units, replaced: slots[k].model[(start + a)..<(start + b)],
        lengthBefore: lengthBefore, expectedStart: start + a, what: what)
      if a != b || !units.isEmpty {
        applied += 1
        if state == .interactiveStreaming { groupHasReplacements = true } else { groups += 1 }
      }
      last = a..<(a + units.count)
    }
    if state == .interactiveStreaming { try setState(.interactiveResting) }
    guard applied > 0 && options.runs(.undo) else { return }
    let roll = random.int(0...9)
    let version = slots[k].version
    if roll < 4 {
      let beforeUndo = slots[k].model
      let what = "\(groups) groups of \(applied) replacements in \(context.storageRange)"
      for _ in 0..<groups { _ = try call(.undo, "undo") { try document.undo() } }
      try fullCheck(k, against: startText, version: version + applied, "after undoing \(what)")
      for _ in 0..<groups { _ = try call(.redo, "redo") { try document.redo() } }
      try fullCheck(k, against: beforeUndo, version: version + 2 * applied, "after redoing \(what)")
      slots[k].version = version + 2 * applied
      if random.percent(50) {
        for _ in 0..<groups { _ = try call(.undo, "undo") { try document.undo() } }
        try fullCheck(
          k, against: startText, version: version + 3 * applied, "after undoing \(what) again")
        slots[k].model = startText
        slots[k].version = version + 3 * applied
      }
    } else if roll < 7 {
      let reverted = try call(.revert, "revert") { try document.revert() }.reverted
      let what = "reverting \(applied) replacements in \(context.storageRange)"
      try fullCheck(k, against: startText, version: version + applied, "after \(what)")
      guard reverted == applied else {
        throw failure("\(what): revert says it reverted \(reverted)")
      }
      slots[k].model = startText
      slots[k].version = version + applied
    }
  }

  /// The person edits the context's storage while the tool replaces on an
  /// older context version (its view: that version plus its own
  /// replacements); replacements that an unseen edit touched are refused.
  func mixedBurst(_ k: Int, _ context: WritingContext) throws {
    var view = Array(String(context.text).utf16)
    var basis = context.contextVersion
    var range = context.storageRange
    for _ in 0..<random.int(4...30) {
      if random.percent(8) { try toolHostile(k, try live(k, context.id)) }
      if random.percent(50) {
        let step = try personEdit(k, near: range)
        if let step {
          let start = step.start(range.lowerBound)
          range = start..<max(start, step.end(range.upperBound))
        }
        let live = try live(k, context.id)
        guard live.storageRange == range else {
          throw failure(
            "after the person's edit \(step.map { "\($0.s)..<\($0.e)→\($0.n)" } ?? "none")"
              + " the context is at \(live.storageRange), expected \(range)")
        }
        continue
      }
      if random.percent(15) {
        // The tool catches up.
        let live = try live(k, context.id)
        view = Array(String(live.text).utf16)
        basis = live.contextVersion
      }
      let a = view.boundary(random.int(0...view.count))
      let b = view.boundary(a + (random.percent(30) ? 0 : random.int(1...30)))
      var (text, units) =
        random.percent(20) ? ("", []) : makeEditText(pieces: 3, random: &random)
      if a == b && units.isEmpty { (text, units) = makeEditText(pieces: 2, random: &random) }
      let lengthBefore = slots[k].model.count
      let versionBefore = slots[k].version
      let what =
        "replacement \(a)..<\(b) by \(units.count) units on context version \(basis)"
        + " (view length \(view.count))"
      let (outcome, elapsed) = try attempt {
        try document.replace(context: context.id, range: a..<b, with: text, basis: basis)
      }
      switch outcome {
      case .success(let result):
        tally.add(.toolReplace, elapsed)
        try applyReplacement(
          k, result, units, replaced: view[a..<b], lengthBefore: lengthBefore,
          expectedStart: nil, what: what)
        view.replaceSubrange(a..<b, with: units)
        range = try live(k, context.id).storageRange
      case .failure(let error):
        switch error {
        case .conflict, .outsideContext:
          tally.add(.toolRefused, elapsed)
          refused("replace", error)
        default: throw failure("\(what): \(error)")
        }
        let storage = try storage(k)
        guard storage.version == versionBefore && storage.length == lengthBefore else {
          throw failure("\(what) was refused (\(error)) but changed the storage")
        }
      }
    }
  }
}
