import DocumentEngine
import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What went wrong, with the task and operation where it was seen.
struct SoakFailure: Error, Sendable, CustomStringConvertible {
  let description: String
}

/// A storage that one task owns, and the model of its text.
struct Slot: Sendable {
  /// Its place in the document.
  let index: Int
  let id: StorageID
  /// Its text, as UTF-16 units.
  var model: [UInt16]
  /// The storage version the model is at.
  var version: Int
}

/// What a task did.
struct WorkerResult: Sendable {
  var task: Int
  var tally: Tally
  var slots: [Slot]
  /// Refusals by what refused them (`edit: invalidRange`, …).
  var refusals: [String: Int]
}

/// One edit as the mapping rules see it: `s..<e` replaced by `n` units.
struct Step {
  let s: Int
  let e: Int
  let n: Int

  /// ProseMirror's sequential rule (docs/OffsetIndex.md, "Mapping").
  func map(_ p: Int, assoc: Int) -> Int {
    if p < s { return p }
    if p > e { return p + n - (e - s) }
    if s == e { return assoc < 0 ? p : p + n }
    if p == s { return s }
    if p == e { return s + n }
    return assoc < 0 ? s : s + n
  }

  /// The latest place an insertion made at `p` can be transformed to: as
  /// `assoc +1`, except that at the start of a replaced range it goes after
  /// the new text (concurrent insertions at one point: the person first).
  func latest(_ p: Int) -> Int { p == s ? s + n : map(p, assoc: 1) }

  /// Where a context's start goes (text typed at it stays outside).
  func start(_ p: Int) -> Int {
    if p < s { return p }
    if p == s { return e > s ? s : s + n }
    if p < e { return s + n }
    return p + n - (e - s)
  }

  /// Where a context's end goes (text typed at it stays outside).
  func end(_ p: Int) -> Int {
    if p <= s { return p }
    if p < e { return s }
    return p + n - (e - s)
  }
}

/// The error's case name, for counting refusals (its `description` is a
/// sentence with the payload in it).
func caseName(_ error: DocumentError) -> String {
  switch error {
  case .unknownStorage: "unknownStorage"
  case .duplicateStorage: "duplicateStorage"
  case .invalidRange: "invalidRange"
  case .unknownContext: "unknownContext"
  case .noSession: "noSession"
  case .outsideContext: "outsideContext"
  case .conflict: "conflict"
  case .excluded: "excluded"
  case .staleVersion: "staleVersion"
  case .staleContextVersion: "staleContextVersion"
  case .invalidStateTransition: "invalidStateTransition"
  case .negativeCount: "negativeCount"
  case .invalidAttribute: "invalidAttribute"
  case .overlappingRuns: "overlappingRuns"
  case .unknownTrackedRange: "unknownTrackedRange"
  case .tooManyTrackedRanges: "tooManyTrackedRanges"
  case .unknownSuggestion: "unknownSuggestion"
  case .ignoredSuggestion: "ignoredSuggestion"
  case .invalidCandidate: "invalidCandidate"
  case .nothingToUndo: "nothingToUndo"
  case .nothingToRedo: "nothingToRedo"
  case .batchRefused(_, let error): "batchRefused(\(caseName(error)))"
  }
}

/// One task of the soak: it owns some storages, edits only those, and keeps
/// their models exact; task 0 also runs the Writing Tools sessions.
final class Worker {
  let task: Int
  let document: Document
  let options: Options
  var random: SoakRandom
  var slots: [Slot]
  let quota: Int
  var tally = Tally()
  var refusals: [String: Int] = [:]
  /// Every how many of its operations the task compares its storages.
  let checkShare: Int
  var nextCheck: Int

  /// Whether this is the history's task (its own document, the history
  /// recording: see History.swift).
  let keepsHistory: Bool
  /// Makes every suggestion's kind new (a rejected kind is ignored after).
  var serial = 0

  init(
    task: Int, document: Document, options: Options, slots: [Slot], quota: Int,
    keepsHistory: Bool = false
  ) {
    self.keepsHistory = keepsHistory
    self.task = task
    self.document = document
    self.options = options
    self.slots = slots
    self.quota = quota
    random = SoakRandom(seed: options.seed, stream: UInt64(task) + 1)
    checkShare =
      options.checkEvery > 0 ? max(1, (options.checkEvery + options.tasks - 1) / options.tasks) : 0
    nextCheck = checkShare
  }

  var result: WorkerResult {
    WorkerResult(task: task, tally: tally, slots: slots, refusals: refusals)
  }

  func run() async throws {
    var sinceYield = 0
    while tally.total < quota {
      sinceYield += 1
      if sinceYield == 32 {
        // Two cores and four tasks: let the others interleave.
        sinceYield = 0
        await Task.yield()
        try Task.checkCancellation()
      }
      let k = random.int(0...(slots.count - 1))
      if keepsHistory {
        try historyStep(k)
        continue
      }
      let roll = random.int(0...999)
      if task == 0 && roll < options.sessions && options.runs(.session) {
        try session(k)
        continue
      }
      switch random.int(0...999) {
      case 0..<48 where options.runs(.hostile): try hostile(k)
      case 48..<98 where options.runs(.origin): try origin(k)
      case 98..<113 where options.runs(.reads): try reads()
      default: _ = try personEdit(k, near: nil)
      }
      if checkShare > 0 && tally.total >= nextCheck {
        try checkAll("the periodic check")
        nextCheck = tally.total + checkShare
      }
    }
  }

  // MARK: Calls, timing, failures

  func failure(_ message: String) -> SoakFailure {
    SoakFailure(
      description: "task \(task), after \(tally.total) of its operations: \(message)")
  }

  /// Runs one engine call that must succeed, timed as `kind`.
  func call<R>(_ kind: Kind, _ what: @autoclosure () -> String, _ body: () throws -> R) throws -> R
  {
    let start = now()
    do {
      let result = try body()
      tally.add(kind, now() &- start)
      return result
    } catch {
      throw failure("\(what()): unexpected \(error)")
    }
  }

  /// Runs one engine call that may be refused; the caller records it.
  func attempt<R>(_ body: () throws -> R) throws -> (Result<R, DocumentError>, UInt64) {
    let start = now()
    do {
      let result = try body()
      return (.success(result), now() &- start)
    } catch let error as DocumentError {
      return (.failure(error), now() &- start)
    } catch {
      throw failure("a call threw \(error), not a DocumentError")
    }
  }

  /// Prints an engine call on storage `k` if it is the traced one.
  func trace(_ k: Int, _ line: @autoclosure () -> String) {
    guard let traced = options.trace, traced == slots[k].id.rawValue else { return }
    var stderr = StandardError()
    print("task \(task): \(line())", to: &stderr)
  }

  func refused(_ what: String, _ error: DocumentError) {
    refusals["\(what): \(caseName(error))", default: 0] += 1
  }

  func storage(_ k: Int) throws -> TextStorage {
    do {
      return try document.content.storage(slots[k].id)
    } catch {
      throw failure("storage \(slots[k].id) is gone: \(error)")
    }
  }

  // MARK: Checks

  /// Compares the text around `range` (storage `k`, now) with the model,
  /// and the storage's length and version.
  func spotCheck(_ k: Int, _ range: Range<Int>, _ what: @autoclosure () -> String) throws {
    guard options.runs(.spot) else { return }
    let count = slots[k].model.count
    let lo = slots[k].model.boundary(range.lowerBound - 16)
    var hi = min(count, max(lo, range.upperBound + 16))
    if !slots[k].model.isBoundary(hi) { hi += 1 }
    let storage = try storage(k)
    guard storage.length == count && storage.version.rawValue == slots[k].version else {
      throw failure(
        "\(what()): \(slots[k].id) has length \(storage.length), version \(storage.version);"
          + " the model \(count), \(slots[k].version)")
    }
    let slice: Rope
    do {
      slice = try storage.text.slice(lo..<hi)
    } catch {
      throw failure("\(what()): slicing \(slots[k].id) \(lo)..<\(hi) threw \(error)")
    }
    if let m = firstMismatch(slice, slots[k].model[lo..<hi]) {
      throw failure(
        "\(what()): \(slots[k].id) differs from its model at \(lo + m): engine \""
          + excerpt(Array(String(slice).utf16)) + "\", model \""
          + excerpt(slots[k].model[lo..<hi]) + "\" (from \(lo))")
    }
  }

  /// Compares the whole storage `k` with `expected` (its model if nil) and
  /// its version with `version` (the model's if nil).
  func fullCheck(
    _ k: Int, against expected: [UInt16]? = nil, version: Int? = nil,
    _ what: @autoclosure () -> String
  ) throws {
    let storage = try storage(k)
    let model = expected ?? slots[k].model
    let version = version ?? slots[k].version
    if let m = firstMismatch(storage.text, model[...]) {
      let text = Array(String(storage.text).utf16)
      throw failure(
        "\(what()): \(slots[k].id) (length \(text.count)) differs from the expected text (length"
          + " \(model.count)) at UTF-16 offset \(m): engine \""
          + excerpt(text[max(0, m - 20)..<min(text.count, m + 20)]) + "\", expected \""
          + excerpt(model[max(0, m - 20)..<min(model.count, m + 20)])
          + "\" (from \(max(0, m - 20)))"
      )
    }
    guard storage.version.rawValue == version else {
      throw failure(
        "\(what()): \(slots[k].id) is at version \(storage.version), expected \(version)")
    }
  }

  func checkAll(_ what: String) throws {
    for k in slots.indices { try fullCheck(k, what) }
  }

  // MARK: The person

  /// A random edit by the person (no origin, no basis), near `near` if
  /// given; nil if it was an empty edit (no version).
  @discardableResult
  func personEdit(_ k: Int, near: Range<Int>?, origin: String? = nil) throws -> Step? {
    let id = slots[k].id
    let count = slots[k].model.count
    let lo = slots[k].model.boundary(
      near.map { random.int(max(0, $0.lowerBound - 24)...min(count, $0.upperBound + 24)) }
        ?? random.int(0...count))
    var kind: Kind
    switch random.int(0...99) {
    case 0..<35: kind = .insert
    case 35..<60: kind = .delete
    case 60..<97: kind = .replace
    default: kind = .emptyEdit
    }
    var hi = lo
    if kind == .delete || kind == .replace {
      let length = random.percent(95) ? random.int(1...12) : random.int(1...100)
      hi = slots[k].model.boundary(lo + length)
      if hi == lo && kind == .delete { kind = .emptyEdit }
    }
    let (text, units) =
      kind == .insert || kind == .replace
      ? makeEditText(pieces: 4, random: &random) : ("", [])
    let before = slots[k].version
    let result = try call(kind, "edit \(id) \(lo)..<\(hi) with \(units.count) units") {
      try document.edit(id, range: lo..<hi, with: text, origin: origin)
    }
    trace(k, "try d.edit(\"\(id)\", range: \(lo)..<\(hi), with: \(literal(text)))  // \(result)")
    let noop = lo == hi && units.isEmpty
    let version = noop ? before : before + 1
    let landed = lo..<(lo + units.count)
    guard result.version.rawValue == version && result.range == landed else {
      throw failure(
        "edit \(id) \(lo)..<\(hi): version \(result.version), range \(result.range);"
          + " expected \(version), \(landed)")
    }
    slots[k].model.replaceSubrange(lo..<hi, with: units)
    slots[k].version = version
    try spotCheck(k, landed, "after edit \(lo)..<\(hi) with \(units.count) units")
    return noop ? nil : Step(s: lo, e: hi, n: units.count)
  }

  /// An edit or a query that must be refused and change nothing.
  func hostile(_ k: Int) throws {
    let id = slots[k].id
    let count = slots[k].model.count
    let version = slots[k].version
    let split = slots[k].model.surrogateSplit(from: random.int(0...count), limit: 4096)
    var range = 0..<0
    var text = random.percent(70) ? makeEditText(pieces: 2, random: &random).0 : ""
    var origin: String? = nil
    var basis: Int? = nil
    let pastEnd = count + random.int(1...8)
    let roll = random.int(0...9)
    switch roll {
    case 0:
      range = pastEnd..<(pastEnd + random.int(0...4))
    case 1:
      range = slots[k].model.boundary(count - random.int(0...8))..<pastEnd
    case 2:
      range = -random.int(1...8)..<slots[k].model.boundary(random.int(0...min(count, 8)))
    case 3, 4:
      let p = split ?? pastEnd
      switch random.int(0...2) {
      case 0: range = p..<p
      case 1: range = p..<max(p, slots[k].model.boundary(p + random.int(1...8)))
      default: range = min(p, slots[k].model.boundary(p - random.int(1...8)))..<p
      }
    case 5:
      // An empty edit: a no-op, but its offset is still checked.
      let p = random.pick([split ?? pastEnd, pastEnd, -random.int(1...3)])
      range = p..<p
      text = ""
    case 6:
      // An origin's edit on the current version, at an offset that is not.
      origin = "peer"
      basis = version
      let p = random.percent(50) ? (split ?? pastEnd) : pastEnd
      range = p..<p
    case 7:
      // An edit on a version the storage has not reached.
      origin = random.percent(50) ? "peer" : nil
      basis = version + random.int(1...1000)
      range = 0..<0
      if text.isEmpty { text = "x" }
    default:
      try hostileQuery(k)
      return
    }
    let (outcome, elapsed) = try attempt {
      try document.edit(
        id, range: range, with: text, origin: origin, basis: basis.map { StorageVersion($0) })
    }
    tally.add(.hostileEdit, elapsed)
    trace(
      k,
      "_ = try? d.edit(\"\(id)\", range: \(range), with: \(literal(text)), origin:"
        + " \(origin.map(literal) ?? "nil"), basis: \(basis.map(String.init) ?? "nil"))  // \(outcome)"
    )
    let what =
      "the bad edit \(id) \(range) (length \(count)) with \(text.utf16.count) units, origin"
      + " \(origin ?? "none"), basis \(basis.map(String.init) ?? "none")"
    switch outcome {
    case .success(let result): throw failure("\(what) was accepted: \(result)")
    case .failure(let error): refused("edit", error)
    }
    try spotCheck(
      k, max(0, min(count, range.lowerBound))..<max(0, min(count, range.lowerBound)), what)
  }

  /// A map from an offset or version that does not exist.
  func hostileQuery(_ k: Int) throws {
    let id = slots[k].id
    let count = slots[k].model.count
    let version = slots[k].version
    let (offset, from) =
      switch random.int(0...2) {
      case 0: (count + random.int(1...8), version)
      case 1: (-random.int(1...8), version)
      default: (0, version + random.int(1...1000))
      }
    let (outcome, elapsed) = try attempt {
      try document.map(
        offset, in: id, from: StorageVersion(from), bias: random.percent(50) ? .right : .left)
    }
    tally.add(.hostileQuery, elapsed)
    switch outcome {
    case .success(let mapped):
      throw failure("map(\(id), \(offset), from: \(from)) at version \(version) gave \(mapped)")
    case .failure(let error): refused("map", error)
    }
    try spotCheck(k, 0..<0, "after a bad map")
  }

  // MARK: Origins

  /// Pins the current version, lets the person edit, sends one or two
  /// insertions of a peer on the pinned version, and maps offsets from it.
  func origin(_ k: Int) throws {
    let id = slots[k].id
    let v = slots[k].version
    try call(.pin, "pin(\(id), version: \(v))") {
      try document.pin(id, version: StorageVersion(v))
    }
    trace(k, "try d.pin(\"\(id)\", version: \(v))")
    let count = slots[k].model.count
    let p = slots[k].model.boundary(random.int(0...count))
    let second = slots[k].model.boundary(random.int(0...count))
    let queries = mapQueries(slots[k].model)
    var steps: [Step] = []
    func mapped(_ p: Int) -> Int { steps.reduce(p) { $1.map($0, assoc: 1) } }
    for _ in 0..<random.int(0...4) {
      let here = mapped(p)
      if let step = try personEdit(k, near: random.percent(60) ? here..<here : nil) {
        steps.append(step)
      }
    }
    // The first insertion lands between the -1 and the latest mapping of p.
    let lower = steps.reduce(p) { $1.map($0, assoc: -1) }
    let upper = steps.reduce(p) { $1.latest($0) }
    let first = try peerInsert(k, at: p, basis: v, within: lower...upper)
    steps.append(first)
    if random.percent(40) {
      for _ in 0..<random.int(0...2) {
        let here = mapped(p)
        if let step = try personEdit(k, near: random.percent(60) ? here..<here : nil) {
          steps.append(step)
        }
      }
      // The peer's view: version v with its own first insertion at p.
      let offset =
        second < p || (second == p && random.percent(50)) ? second : second + first.n
      steps.append(try peerInsert(k, at: offset, basis: v, within: nil))
    }
    try checkMaps(k, queries, from: v, through: steps)
    try call(.unpin, "unpin") { document.unpin(id, version: StorageVersion(v)) }
    trace(k, "d.unpin(\"\(id)\", version: \(v))")
  }

  /// Offsets of `text` (a storage's text at some version) to map from that
  /// version: three anywhere, three in its first sixteenth (before most
  /// later edits), each with a random `assoc`.
  func mapQueries(_ text: [UInt16]) -> [(offset: Int, assoc: Int)] {
    (0..<6).map { i in
      let offset = text.boundary(random.int(0...(i < 3 ? text.count : text.count / 16)))
      return (offset, random.percent(50) ? 1 : -1)
    }
  }

  /// Maps each query from version `v` of storage `k` and checks the answer
  /// against ProseMirror's sequential rule through `steps`, every edit
  /// since `v` in order.
  func checkMaps(
    _ k: Int, _ queries: [(offset: Int, assoc: Int)], from v: Int, through steps: [Step]
  ) throws {
    let id = slots[k].id
    let count = slots[k].model.count
    for (offset, assoc) in queries {
      let result = try call(.map, "map(\(id), \(offset), from: \(v), assoc: \(assoc))") {
        try document.map(offset, in: id, from: StorageVersion(v), bias: assoc < 0 ? .left : .right)
      }
      let expected = steps.reduce(offset) { $1.map($0, assoc: assoc) }
      trace(k, "_ = try d.map(\(offset), in: \"\(id)\", from: \(v), assoc: \(assoc))  // \(result)")
      guard result.offset == expected else {
        let edits = steps.suffix(40).map { "\($0.s)..<\($0.e)→\($0.n)" }
        throw failure(
          "map(\(id), \(offset), from: \(v), assoc: \(assoc)) gave \(result.offset); the"
            + " sequential rule through the \(steps.count) edits since (the last:"
            + " \(edits)) gives \(expected)")
      }
      guard (0...count).contains(result.offset) && slots[k].model.isBoundary(result.offset)
      else {
        throw failure("map(\(id), \(offset), from: \(v)) gave \(result.offset), not a boundary")
      }
    }
  }

  /// A peer's insertion at `offset` of its view of version `basis`.
  func peerInsert(
    _ k: Int, at offset: Int, basis: Int, within bounds: ClosedRange<Int>?
  ) throws -> Step {
    let id = slots[k].id
    let (text, units) = makeEditText(pieces: 3, random: &random)
    let before = slots[k].version
    let what = "peer insertion of \(units.count) units at \(offset) on version \(basis) of \(id)"
    let result = try call(.peerInsert, what) {
      try document.edit(
        id, range: offset..<offset, with: text, origin: "peer", basis: StorageVersion(basis))
    }
    trace(
      k,
      "try d.edit(\"\(id)\", range: \(offset)..<\(offset), with: \(literal(text)), origin:"
        + " \"peer\", basis: \(basis))  // \(result)")
    let at = result.range.lowerBound
    guard result.version.rawValue == before + 1 && result.range.count == units.count else {
      throw failure("\(what): version \(result.version), range \(result.range)")
    }
    guard (0...slots[k].model.count).contains(at) && slots[k].model.isBoundary(at) else {
      throw failure("\(what) landed at \(at), not a boundary of the text")
    }
    if let bounds, !bounds.contains(at) {
      throw failure("\(what) landed at \(at), outside \(bounds) where the edits since put it")
    }
    slots[k].model.insert(contentsOf: units, at: at)
    slots[k].version = before + 1
    try spotCheck(k, result.range, "after the \(what)")
    return Step(s: at, e: at, n: units.count)
  }

  // MARK: Reads

  func reads() throws {
    let content = try call(.snapshot, "content") { document.content }
    var sum = 0
    for id in content.order {
      let storage: TextStorage
      let indexed: Int
      do {
        storage = try content.storage(id)
        indexed = try content.index.length(of: id)
      } catch {
        throw failure("snapshot: \(id) is in the order but not found: \(error)")
      }
      guard indexed == storage.length else {
        throw failure(
          "snapshot: the index says \(id) has \(indexed) units, its text \(storage.length)")
      }
      sum += storage.length
    }
    guard sum == content.index.length else {
      throw failure("snapshot: the storages hold \(sum) units, the index \(content.index.length)")
    }
    for slot in slots {
      guard let storage = try? content.storage(slot.id),
        storage.length == slot.model.count && storage.version.rawValue == slot.version
      else {
        throw failure("snapshot: \(slot.id) is not at the model's length and version")
      }
    }
    let offset = Int(random.next() % UInt64(content.index.length + 1))
    let hit = try call(.locate, "locate(\(offset))") { try content.locate(offset) }
    let back = try? content.index.documentOffset(of: hit.offset, in: hit.storage)
    guard back == offset else {
      throw failure(
        "locate(\(offset)) gave \(hit), which is document offset \(String(describing: back))")
    }
    if let own = slots.first(where: { $0.id == hit.storage }),
      !(0...own.model.count).contains(hit.offset)
    {
      throw failure("locate(\(offset)) gave \(hit), outside the storage")
    }
    // The live contexts of task 0's session, while it may end at any time:
    // up to two in this task's storages (their text must be the model's),
    // up to two in others'.
    let pick = Int(random.next() % 1024)
    guard let session = try call(.snapshot, "session", { document.session }) else { return }
    let mine = session.contexts.filter { context in slots.contains { $0.id == context.storage } }
    let others = session.contexts.filter { context in !slots.contains { $0.id == context.storage } }
    var chosen: [WritingContext] = []
    for i in 0..<min(2, mine.count) { chosen.append(mine[(pick + i) % mine.count]) }
    for i in 0..<min(2, others.count) { chosen.append(others[(pick + i) % others.count]) }
    for context in chosen {
      let (outcome, elapsed) = try attempt { try document.liveContext(context.id) }
      tally.add(.liveContext, elapsed)
      switch outcome {
      case .success(let live):
        guard live.text.utf16Count == live.storageRange.count else {
          throw failure("liveContext: \(live.text.utf16Count) units for \(live.storageRange)")
        }
        if let k = slots.firstIndex(where: { $0.id == live.storage }) {
          try checkLive(k, live)
        }
      case .failure(let error):
        switch error {
        case .noSession, .unknownContext: refused("liveContext", error)
        default: throw failure("liveContext threw \(error)")
        }
      }
    }
  }
}

/// `text` as a Swift string literal, every non-ASCII scalar escaped.
func literal(_ text: String) -> String {
  "\"" + text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + "\""
}
