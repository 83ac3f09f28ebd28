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
    // Sometimes every storage gets a context, so that the other tasks' edits
    // move live contexts while this one replaces in its own.
    let scope: ContextScope = random.percent(15) ? .fullDocument : .userSelection
    let full = scope == .fullDocument
    let session = try call(full ? .startFullSession : .startSession, "startSession") {
      try document.startSession(scope: scope, surroundingParagraphs: paragraphs)
    }
    let found = session.contexts.filter { $0.storage == id }
    if full && count == 0 && found.isEmpty {
      // An empty storage gets no context of the whole document.
      try call(.endFullSession, "endSession") { document.endSession() }
      return
    }
    guard found.count == 1, let context = found.first,
      scope == .fullDocument || session.contexts.count == 1
    else {
      throw failure(
        "\(session.contexts.count) contexts (\(found.count) in \(id)) for \(scope) with the"
          + " selection \(id) \(lo)..<\(hi)")
    }
    trace(k, "try d.select([SelectionRange(\"\(id)\", \(lo)..<\(hi))])")
    trace(
      k,
      "let c = try d.startSession(scope: .\(scope), surroundingParagraphs: \(paragraphs))"
        + ".contexts.first { $0.storage == \"\(id)\" }!.id  // \(context.storageRange),"
        + " version \(context.version), text \(literal(String(context.text)))")
    try checkContext(k, context, selection: lo..<hi, scope: scope)
    if options.runs(.mixed) && random.percent(40) {
      try mixedBurst(k, context)
    } else {
      try toolBurst(k, context)
    }
    try call(full ? .endFullSession : .endSession, "endSession") { document.endSession() }
    trace(k, "d.endSession()")
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
  func checkContext(
    _ k: Int, _ context: WritingContext, selection: Range<Int>, scope: ContextScope
  ) throws {
    let model = slots[k].model
    let bounds = context.storageRange
    let start = bounds.lowerBound
    let end = bounds.upperBound
    guard
      context.storage == slots[k].id && context.version.rawValue == slots[k].version
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
    if scope == .fullDocument || selection.isEmpty {
      // The whole storage (for a caret, or every storage).
      guard bounds == 0..<model.count && context.range == selection else {
        throw failure("\(scope) \(selection): context \(bounds), range \(context.range)")
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
    try checkLive(k, live)
    return live
  }

  /// A live context of storage `k`, against the model.
  func checkLive(_ k: Int, _ live: LiveContext) throws {
    let range = live.storageRange
    guard
      live.storage == slots[k].id && 0 <= range.lowerBound
        && range.upperBound <= slots[k].model.count
    else {
      throw failure("liveContext: \(live.storage) \(range), length \(slots[k].model.count)")
    }
    // A big context (a whole storage) is compared at both ends.
    let parts =
      range.count <= 4096
      ? [0..<range.count]
      : [
        0..<slots[k].model.boundary(range.lowerBound + 512) - range.lowerBound,
        slots[k].model.boundary(range.upperBound - 512) - range.lowerBound..<range.count,
      ]
    for part in parts {
      let text: Rope
      do {
        text = part.count == range.count ? live.text : try live.text.slice(part)
      } catch {
        throw failure("liveContext: slicing its text at \(part) threw \(error)")
      }
      let model = slots[k].model[
        (range.lowerBound + part.lowerBound)..<(range.lowerBound + part.upperBound)]
      if let m = firstMismatch(text, model) {
        throw failure(
          "liveContext: the text of \(range) differs from the model at \(part.lowerBound + m)")
      }
    }
  }

  /// Applies a replacement that the engine made to the model: its text
  /// landed at `result.storageRange`, and it deleted as many units as the
  /// length says, which must be the units `replaced` (what the tool saw).
  ///
  /// A replacement on an older basis may be split into pieces (one version
  /// each) around a peer's insertion at its start: the tool's text goes
  /// before the peer's (party order), the deletion after it. Those are
  /// applied record by record from the storage's change log, and checked:
  /// the deleted pieces, in order, are what the tool saw; no piece is empty.
  ///
  /// - Returns: the edits made, for the mapping rule.
  func applyReplacement(
    _ k: Int, _ result: ReplacementResult, _ units: [UInt16], replaced: ArraySlice<UInt16>,
    lengthBefore: Int, expectedStart: Int?, what: @autoclosure () -> String
  ) throws -> [Step] {
    let storage = try storage(k)
    let n = units.count
    let lo = result.storageRange.lowerBound
    let deleted = lengthBefore + n - storage.length
    let noop = replaced.isEmpty && units.isEmpty
    let made = storage.version.rawValue - slots[k].version
    guard result.storage == slots[k].id && result.storageRange.count == n else {
      throw failure("\(what()): \(result.storage) \(result.storageRange); expected \(n) units")
    }
    if made > 1 && expectedStart == nil {
      return try applyPieces(k, storage, result, units, replaced: replaced, what: what())
    }
    let version = slots[k].version + (noop ? 0 : 1)
    guard storage.version.rawValue == version else {
      throw failure(
        "\(what()): \(result.storage) \(result.storageRange), version \(storage.version);"
          + " expected version \(version)")
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
    return noop ? [] : [Step(s: lo, e: lo + deleted, n: n)]
  }

  /// A replacement that transformation split into pieces, applied from the
  /// records it made (the pieces from the last to the first; the first
  /// carries the text).
  func applyPieces(
    _ k: Int, _ storage: TextStorage, _ result: ReplacementResult, _ units: [UInt16],
    replaced: ArraySlice<UInt16>, what: @autoclosure () -> String
  ) throws -> [Step] {
    let records: ArraySlice<ChangeRecord>
    do {
      records = try storage.changes.records(since: StorageVersion(slots[k].version))
    } catch {
      throw failure("\(what()): the records since \(slots[k].version) are gone: \(error)")
    }
    let pieces = records.map { "\($0.range)→\($0.insertedLength)" }.joined(separator: ", ")
    var deleted: [[UInt16]] = []
    var steps: [Step] = []
    for (j, record) in records.enumerated() {
      let range = record.range
      let inserted = j == records.count - 1 ? units : []
      guard
        range.lowerBound >= 0 && range.upperBound <= slots[k].model.count
          && slots[k].model.isBoundary(range.lowerBound)
          && slots[k].model.isBoundary(range.upperBound)
          && record.insertedLength == inserted.count
      else {
        throw failure("\(what()): split into the pieces \(pieces), which do not apply")
      }
      deleted.append(Array(slots[k].model[range]))
      slots[k].model.replaceSubrange(range, with: inserted)
      steps.append(Step(s: range.lowerBound, e: range.upperBound, n: inserted.count))
    }
    slots[k].version = storage.version.rawValue
    refusals["replace split into pieces (applied)", default: 0] += 1
    guard deleted.reversed().joined().elementsEqual(replaced),
      records.last?.range.lowerBound == result.storageRange.lowerBound
    else {
      throw failure(
        "\(what()): split into the pieces \(pieces), landing at \(result.storageRange), which"
          + " delete \"" + excerpt(Array(deleted.reversed().joined())) + "\"; the tool saw \""
          + excerpt(replaced) + "\"")
    }
    if records.contains(where: { $0.range.isEmpty && $0.insertedLength == 0 }) {
      throw failure(
        "ENGINE DEFECT: \(what()) was split into the pieces \(pieces), one of them empty: a"
          + " version that changes nothing, and `storageRange` \(result.storageRange) is not"
          + " where it deleted (rerun with --skip session-peer to leave out the peer's"
          + " insertions in sessions)")
    }
    try spotCheck(k, result.storageRange, "after the \(what())")
    return steps
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
    case 3: basis = live.contextVersion.rawValue + random.int(1...100)
    default:
      let start = live.storageRange.lowerBound
      guard
        let p = slots[k].model.surrogateSplit(from: start + random.int(0...length), limit: 512),
        p < live.storageRange.upperBound
      else { return }
      range = (p - start)..<(p - start)
    }
    let (outcome, elapsed) = try attempt {
      try document.replace(
        context: context, range: range, with: "tool", basis: basis.map { ContextVersion($0) })
    }
    tally.add(.toolHostile, elapsed)
    trace(
      k,
      "_ = try? d.replace(context: \(context == live.id ? "c" : "UUID()"), range: \(range), with:"
        + " \"tool\", basis: \(basis.map(String.init) ?? "nil"))  // \(outcome)")
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
    let queries = mapQueries(startText)
    var steps: [Step] = []
    var applied = 0
    var groups = 0
    var state = WritingToolsState.inactive
    var groupHasReplacements = false
    var last: Range<Int>? = nil
    func setState(_ next: WritingToolsState) throws {
      try call(.setState, "setState(\(next))") { try document.setWritingToolsState(next) }
      trace(k, "try d.setWritingToolsState(.\(next))")
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
      let basis: ContextVersion? = random.percent(50) ? nil : live.contextVersion
      let lengthBefore = slots[k].model.count
      let what = "replacement \(a)..<\(b) of context \(live.storageRange) by \(units.count) units"
      let result = try call(.toolReplace, what) {
        try document.replace(context: context.id, range: a..<b, with: text, basis: basis)
      }
      trace(
        k,
        "try d.replace(context: c, range: \(a)..<\(b), with: \(literal(text)), basis:"
          + " \(basis.map(String.init(describing:)) ?? "nil"))  // \(result.storageRange),"
          + " context version \(result.contextVersion)")
      steps += try applyReplacement(
        k, result, units, replaced: slots[k].model[(start + a)..<(start + b)],
        lengthBefore: lengthBefore, expectedStart: start + a, what: what)
      if a != b || !units.isEmpty {
        applied += 1
        if state == .interactiveStreaming { groupHasReplacements = true } else { groups += 1 }
      }
      last = a..<(a + units.count)
    }
    if state == .interactiveStreaming { try setState(.interactiveResting) }
    // The context pinned the version it was made at: map from it.
    try checkMaps(k, queries, from: context.version.rawValue, through: steps)
    guard applied > 0 && options.runs(.undo) else { return }
    let roll = random.int(0...9)
    let version = slots[k].version
    if roll < 4 {
      let beforeUndo = slots[k].model
      let what = "\(groups) groups of \(applied) replacements in \(context.storageRange)"
      for _ in 0..<groups { _ = try call(.undo, "undo") { try document.undo() } }
      trace(k, "for _ in 0..<\(groups) { _ = try d.undo() }")
      try fullCheck(k, against: startText, version: version + applied, "after undoing \(what)")
      for _ in 0..<groups { _ = try call(.redo, "redo") { try document.redo() } }
      trace(k, "for _ in 0..<\(groups) { _ = try d.redo() }")
      try fullCheck(k, against: beforeUndo, version: version + 2 * applied, "after redoing \(what)")
      slots[k].version = version + 2 * applied
      if random.percent(50) {
        for _ in 0..<groups { _ = try call(.undo, "undo") { try document.undo() } }
        trace(k, "for _ in 0..<\(groups) { _ = try d.undo() }")
        try fullCheck(
          k, against: startText, version: version + 3 * applied, "after undoing \(what) again")
        slots[k].model = startText
        slots[k].version = version + 3 * applied
      }
    } else if roll < 7 {
      let reverted = try call(.revert, "revert") { try document.revert() }.replacementCount
      trace(k, "_ = try d.revert()  // reverted \(reverted)")
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
    // The storage as the context was made (a version the context pinned),
    // and every edit since.
    let startText = slots[k].model
    let queries = mapQueries(startText)
    var steps: [Step] = []
    var peerSent = false
    for _ in 0..<random.int(4...30) {
      if random.percent(8) { try toolHostile(k, try live(k, context.id)) }
      let roll = random.int(0...99)
      if roll < 50 || (roll < 58 && !peerSent && options.runs(.sessionPeer)) {
        let step: Step?
        if roll < 50 {
          step = try personEdit(k, near: range)
        } else {
          // A peer's insertion made on the version the context was made at:
          // after the person's and the tool's text at one point.
          peerSent = true
          let near = random.int(
            max(
              0, context.storageRange.lowerBound - 8)...min(
                startText.count, context.storageRange.upperBound + 8))
          let p = startText.boundary(near)
          let lower = steps.reduce(p) { $1.map($0, assoc: -1) }
          let upper = steps.reduce(p) { $1.latest($0) }
          step = try peerInsert(
            k, at: p, basis: context.version.rawValue, within: lower...upper)
        }
        if let step {
          steps.append(step)
          let start = step.start(range.lowerBound)
          range = start..<max(start, step.end(range.upperBound))
        }
        let live = try live(k, context.id)
        guard live.storageRange == range else {
          throw failure(
            "after the edit \(step.map { "\($0.s)..<\($0.e)→\($0.n)" } ?? "none")"
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
      trace(
        k,
        "_ = try? d.replace(context: c, range: \(a)..<\(b), with: \(literal(text)), basis:"
          + " \(basis))  // \(outcome)")
      switch outcome {
      case .success(let result):
        tally.add(.toolReplace, elapsed)
        steps += try applyReplacement(
          k, result, units, replaced: view[a..<b], lengthBefore: lengthBefore,
          expectedStart: nil, what: what)
        view.replaceSubrange(a..<b, with: units)
        range = try live(k, context.id).storageRange
      case .failure(let error):
        switch error {
        case .conflict, .outsideContext:
          tally.add(.toolRefused, elapsed)
          refused("replace on an older basis", error)
        default: throw failure("\(what): \(error)")
        }
        let storage = try storage(k)
        guard storage.version.rawValue == versionBefore && storage.length == lengthBefore else {
          throw failure("\(what) was refused (\(error)) but changed the storage")
        }
      }
    }
    try checkMaps(k, queries, from: context.version.rawValue, through: steps)
  }
}
