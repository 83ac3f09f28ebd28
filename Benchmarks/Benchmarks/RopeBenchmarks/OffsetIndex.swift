import Benchmark
import BenchmarkSupport
import DocumentEngine
import TextRope

// 9. The offset index (issue 5). Each engine benchmark runs beside a naive
//    baseline that answers the same question from a plain array of the edits,
//    walked one edit at a time (ProseMirror's `Mapping`, two-party OT without
//    an index):
//    - map an offset through 100,000 composed edits (`ChangeMap.map`);
//    - record 100,000 edits into a `ChangeLog`, with one composed pin and
//      with none (appending to an array is the baseline);
//    - a tool replacement on context version 0 after 10,000 edits it has not
//      seen (`Document.replace(context:range:with:basis:)`);
//    - an origin's edit on a version 1,000 edits old
//      (`Document.edit(_:range:with:origin:basis:)`).
//    Every setup checks that the engine and the baseline give the same answer.

/// One edit in the coordinates of the text just before it: `start..<end`
/// replaced by `inserted` units.
struct IndexEdit: Sendable {
  var start: Int
  var end: Int
  var inserted: Int

  var range: Range<Int> { start..<end }
}

/// `count` typing-like edits at random places of a text of `length` units:
/// half insert one unit, 40 % delete one, 10 % replace 1–8 units with 0–8.
func typingEdits(count: Int, length: Int, seed: UInt64) -> [IndexEdit] {
  var rng = SplitMix64(seed: seed)
  var length = length
  var edits: [IndexEdit] = []
  edits.reserveCapacity(count)
  for _ in 0..<count {
    let kind = rng.below(10)
    let edit: IndexEdit
    if kind < 5 || length < 8 {
      let p = rng.below(length + 1)
      edit = IndexEdit(start: p, end: p, inserted: 1)
    } else if kind < 9 {
      let p = rng.below(length)
      edit = IndexEdit(start: p, end: p + 1, inserted: 0)
    } else {
      let deleted = 1 + rng.below(8)
      let p = rng.below(length - deleted + 1)
      edit = IndexEdit(start: p, end: p + deleted, inserted: rng.below(9))
    }
    length += edit.inserted - (edit.end - edit.start)
    edits.append(edit)
  }
  return edits
}

/// Edits of a text of `length` units, in order.
typealias EditSequence = (length: Int, edits: [IndexEdit])

/// The last `count` patches of an editing trace, in Unicode scalars, with
/// the scalar length of the text they start from (the trace's start content
/// with the earlier patches made). The base is not empty even for a trace
/// that starts from nothing, so that mapping from it means something.
func traceEdits(_ name: String, last count: Int) -> EditSequence {
  let trace = PreparedTrace(name: name)
  let edits = (0..<trace.patchCount).map { i in
    IndexEdit(
      start: trace.positions[i], end: trace.positions[i] + trace.deleteCounts[i],
      inserted: trace.inserts[i].unicodeScalars.count)
  }
  let first = max(0, edits.count - count)
  var length = trace.startContent.unicodeScalars.count
  for edit in edits[..<first] { length += edit.inserted - (edit.end - edit.start) }
  return (length, Array(edits[first...]))
}

/// Where `p` goes through one edit, by ProseMirror's rule (`StepMap.map`):
/// before the edit it stays, after it it shifts; at a pure insertion `assoc`
/// decides; in a replaced range the start stays, the end goes to the end of
/// the new text, an interior position to the `assoc` side.
@inline(__always)
func mapPoint(_ p: Int, through edit: IndexEdit, assoc: Int) -> Int {
  let s = edit.start
  let e = edit.end
  if p < s { return p }
  if p > e { return p + edit.inserted - (e - s) }
  let side = s == e ? assoc : (p == s ? -1 : (p == e ? 1 : assoc))
  return side < 0 ? s : s + edit.inserted
}

/// The baseline of mapping: `offset` mapped through every edit in turn, with
/// ProseMirror's `deleted` (the unit on the `assoc` side was replaced by some
/// edit on the way).
func sequentialMap(_ offset: Int, assoc: Int, through edits: [IndexEdit]) -> MappedOffset {
  var p = offset
  var deleted = false
  for edit in edits {
    if p < edit.start { continue }
    if p <= edit.end && (assoc < 0 ? p != edit.start : p != edit.end) { deleted = true }
    p = mapPoint(p, through: edit, assoc: assoc)
  }
  return MappedOffset(offset: p, deleted: deleted)
}

/// The baseline of a tool replacement on an old basis: the range moved
/// through every edit in turn as the composed map moves it (start with
/// `assoc` +1, end with −1), with the conflict check at each edit (a unit of
/// the range replaced, or an insertion strictly inside it; for an empty range,
/// a deletion across it).
func sequentialTransform(
  _ range: Range<Int>, through edits: [IndexEdit]
) -> (range: Range<Int>, touched: Bool) {
  var a = range.lowerBound
  var b = range.upperBound
  var touched = false
  for edit in edits {
    let s = edit.start
    let e = edit.end
    if a == b {
      if s < a && a < e { touched = true }
    } else if (s < e && s < b && a < e) || (edit.inserted > 0 && a < s && s < b) {
      touched = true
    }
    a = mapPoint(a, through: edit, assoc: 1)
    b = max(a, mapPoint(b, through: edit, assoc: -1))
  }
  return (a..<b, touched)
}

/// The baseline of an origin's edit on an old basis: two-party OT of one
/// range against every edit in turn, without pieces (the other's deletion
/// collapses the range, its insertion shifts it; at a tie the person's text
/// goes first).
func sequentialOriginTransform(_ range: Range<Int>, through edits: [IndexEdit]) -> Range<Int> {
  var a = range.lowerBound
  var b = range.upperBound
  for edit in edits {
    let s = edit.start
    let e = edit.end
    let n = edit.inserted
    a = a <= s ? a : (a < e ? s : a - (e - s))
    b = b <= s ? b : (b < e ? s : b - (e - s))
    if n == 0 || b < s || (b == s && a < b) { continue }
    if a >= s {
      a += n
      b += n
    } else {
      b += n
    }
  }
  return a..<b
}

/// Whether `offset` is a scalar boundary of `rope` (UTF-16), in bounds.
func isScalarBoundary(_ offset: Int, in rope: Rope) -> Bool {
  offset >= 0 && offset <= rope.utf16Count
    && (try? rope.utf8Offset(of: offset, in: .utf16)) != nil
}

/// The last scalar boundary of `rope` at or before `offset`.
func scalarBoundary(in rope: Rope, atOrBefore offset: Int) -> Int {
  var p = offset
  while !isScalarBoundary(p, in: rope) { p -= 1 }
  return p
}

/// Makes a person's edit: "x" inserted for `inserted` 1, a deletion for 0;
/// false if the document refused it (an offset inside a surrogate pair).
func personEdit(_ document: Document, _ edit: IndexEdit) -> Bool {
  do {
    try document.edit("body", range: edit.range, with: edit.inserted == 1 ? "x" : "")
    return true
  } catch {
    return false
  }
}

/// Generates `count` one-unit edits (an "x" inserted or a unit deleted, at
/// random) at random places of zones of `document`'s storage "body", makes
/// them, and keeps `tracked` positions up to date. `zone` gives the place of
/// one edit from the tracked positions, the length and a random number
/// generator; it must keep a margin of two units from every tracked position,
/// so that no edit is at one.
func makeEdits(
  _ count: Int, in document: Document, tracked: inout [Int], length: Int, seed: UInt64,
  zone: (_ tracked: [Int], _ length: Int, _ rng: inout SplitMix64) -> Int
) -> [IndexEdit] {
  var rng = SplitMix64(seed: seed)
  var length = length
  var edits: [IndexEdit] = []
  var refused = 0
  while edits.count < count {
    let p = zone(tracked, length, &rng)
    let insert = rng.below(2) == 0
    let edit = IndexEdit(start: p, end: insert ? p : p + 1, inserted: insert ? 1 : 0)
    guard personEdit(document, edit) else {
      refused += 1
      precondition(refused < 10 * count, "too many refused edits")
      continue
    }
    for k in tracked.indices {
      if insert && p < tracked[k] { tracked[k] += 1 }
      if !insert && p + 1 <= tracked[k] { tracked[k] -= 1 }
    }
    length += insert ? 1 : -1
    edits.append(edit)
  }
  return edits
}

/// A tool replacement on context version 0 after `count` person edits the
/// tool has not seen, none touching its range: a third before the context, a
/// third after it, a third inside it on either side of the range (so the
/// context's version moves on and basis 0 is an old one).
struct ReplacementScenario: Sendable {
  let text: Rope
  let selection: SelectionRange
  let edits: [IndexEdit]
  /// The tool's range, relative to the context's text at version 0.
  let toolRange: Range<Int>
  /// The same range in the storage at the start.
  let storageRange: Range<Int>
  /// Where the replacement lands in the storage (checked by the engine and
  /// by the baseline).
  let landing: Int

  init(editCount: Int, seed: UInt64) throws {
    text = Rope(TextGenerator.string(byteCount: megabyte))
    let length = text.utf16Count
    // About 2,000 units selected in the middle; the context is the
    // paragraphs around them.
    let lower = scalarBoundary(in: text, atOrBefore: length / 2 - 1000)
    let upper = scalarBoundary(in: text, atOrBefore: length / 2 + 1000)
    selection = SelectionRange("body", lower..<upper)
    let document = Document()
    try document.add("body", text: text)
    try document.select([selection])
    let context = try document.startSession(scope: .userSelection).contexts[0]
    let x = scalarBoundary(in: context.text, atOrBefore: context.storageRange.count / 2)
    let y = scalarBoundary(in: context.text, atOrBefore: x + 6)
    toolRange = x..<y
    let start = context.storageRange.lowerBound
    storageRange = (start + x)..<(start + y)
    // Context start, range start, range end, context end.
    var tracked = [start, start + x, start + y, context.storageRange.upperBound]
    edits = makeEdits(editCount, in: document, tracked: &tracked, length: length, seed: seed) {
      t, length, rng in
      switch rng.below(3) {
      case 0: return rng.below(t[0] - 3)
      case 1: return t[3] + 2 + rng.below(length - t[3] - 3)
      default:
        return rng.below(2) == 0
          ? t[0] + 2 + rng.below(t[1] - t[0] - 5) : t[2] + 2 + rng.below(t[3] - t[2] - 5)
      }
    }
    let (mapped, touched) = sequentialTransform(storageRange, through: edits)
    precondition(!touched && mapped.lowerBound == tracked[1], "baseline: \(mapped), \(tracked)")
    landing = tracked[1]
    let contextVersion = try document.liveContext(context.id).contextVersion
    precondition(contextVersion > 0, "no edit inside the context: basis 0 is the current version")
    let result = try document.replace(context: context.id, range: toolRange, with: "word", basis: 0)
    precondition(result.storageRange.lowerBound == landing, "engine landed at \(result)")
  }

  /// A fresh document with the session started and every edit made.
  func prepare() throws -> (Document, WritingContext) {
    let document = Document()
    try document.add("body", text: text)
    try document.select([selection])
    let context = try document.startSession(scope: .userSelection).contexts[0]
    for edit in edits where !personEdit(document, edit) {
      fatalError("edit \(edit) refused on replay")
    }
    return (document, context)
  }
}

/// An origin's edit (one unit replaced) on version 0 after `count` person
/// edits it has not seen, none touching its range, half before it and half
/// after, in a document that keeps all history.
struct OriginEditScenario: Sendable {
  let text: Rope
  let edits: [IndexEdit]
  /// The origin's range, in version 0.
  let range: Range<Int>
  /// Where its text lands now.
  let landing: Int

  init(editCount: Int, seed: UInt64) throws {
    text = Rope(TextGenerator.string(byteCount: megabyte))
    let length = text.utf16Count
    var p = length / 2
    while !(isScalarBoundary(p, in: text) && isScalarBoundary(p + 1, in: text)) { p -= 1 }
    range = p..<(p + 1)
    let document = Document(keepsAllHistory: true)
    try document.add("body", text: text)
    var tracked = [p, p + 1]
    edits = makeEdits(editCount, in: document, tracked: &tracked, length: length, seed: seed) {
      t, length, rng in
      rng.below(2) == 0 ? rng.below(t[0] - 3) : t[1] + 2 + rng.below(length - t[1] - 3)
    }
    let mapped = sequentialOriginTransform(range, through: edits)
    precondition(mapped.lowerBound == tracked[0], "baseline: \(mapped), \(tracked)")
    landing = tracked[0]
    let result = try document.edit("body", range: range, with: "y", origin: "peer", basis: 0)
    precondition(result.range.lowerBound == landing, "engine landed at \(result.range)")
  }

  /// A fresh document with every edit made.
  func prepare() throws -> Document {
    let document = Document(keepsAllHistory: true)
    try document.add("body", text: text)
    for edit in edits where !personEdit(document, edit) {
      fatalError("edit \(edit) refused on replay")
    }
    return document
  }
}

func registerOffsetIndexBenchmarks() {
  registerMappingBenchmarks()
  registerRecordingBenchmarks()
  registerReplacementBenchmarks()
}

/// The edit sequences of the mapping and recording benchmarks: 100,000
/// random typing-like edits of 1 MB, and the last 100,000 of the 137,993
/// patches of seph-blog1 (real typing: mostly runs of adjacent one-scalar
/// edits), from the text of its first 37,993.
private let editSources: [(name: String, make: @Sendable () -> EditSequence)] = [
  ("100,000 random edits", { (megabyte, typingEdits(count: 100_000, length: megabyte, seed: 5)) }),
  ("seph-blog1 last 100,000 patches", { traceEdits("seph-blog1", last: 100_000) }),
]

private func registerMappingBenchmarks() {
  let perMap = configuration(
    timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 2000)
  let perSequentialMap = configuration(
    timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 2000)
  let offsetCount = 1 << 16

  for source in editSources {
    // Mapping alternates bias .right and .left (the baseline's assoc +1
    // and −1) over pre-generated random offsets of the base version.
    Benchmark("OffsetIndex/map, \(source.name)/ChangeMap", configuration: perMap) {
      benchmark, state in
      let (map, offsets, next) = state
      var i = next.value
      var sum = 0
      for _ in benchmark.scaledIterations {
        let mapped = map.map(offsets[i], bias: i & 1 == 0 ? .right : .left)
        sum &+= mapped.offset &+ (mapped.deleted ? 1 : 0)
        i = (i + 1) & (offsetCount - 1)
      }
      next.value = i
      blackHole(sum)
    } setup: { () -> (ChangeMap, [Int], Box<Int>) in
      let (length, edits) = source.make()
      var map = ChangeMap(length: length)
      for edit in edits { map.record(edit.range, insertedLength: edit.inserted) }
      let offsets = randomOffsets(count: offsetCount, below: length + 1, seed: 55)
      for (i, offset) in offsets.prefix(200).enumerated() {
        let assoc = i & 1 == 0 ? 1 : -1
        let engine = map.map(offset, bias: assoc < 0 ? .left : .right)
        let naive = sequentialMap(offset, assoc: assoc, through: edits)
        precondition(
          engine == naive, "\(offset), \(assoc): ChangeMap \(engine), sequential \(naive)")
      }
      return (map, offsets, Box(0))
    }

    Benchmark("OffsetIndex/map, \(source.name)/sequential", configuration: perSequentialMap) {
      benchmark, state in
      let (edits, offsets, next) = state
      var i = next.value
      var sum = 0
      for _ in benchmark.scaledIterations {
        let mapped = sequentialMap(offsets[i], assoc: i & 1 == 0 ? 1 : -1, through: edits)
        sum &+= mapped.offset &+ (mapped.deleted ? 1 : 0)
        i = (i + 1) & (offsetCount - 1)
      }
      next.value = i
      blackHole(sum)
    } setup: { () -> ([IndexEdit], [Int], Box<Int>) in
      let (length, edits) = source.make()
      return (edits, randomOffsets(count: offsetCount, below: length + 1, seed: 55), Box(0))
    }
  }
}

private func registerRecordingBenchmarks() {
  // One iteration records the whole sequence into a fresh log or map (made
  // before the measurement, freed after it); divide by 100,000 for the time
  // an edit. With a composed map an iteration takes seconds, so there is no
  // warm-up iteration and only a few samples.
  let perSlowSequence = configuration(
    timeUnits: .microseconds, warmupIterations: 0, maxDuration: .seconds(40), maxIterations: 20)
  let perSequence = configuration(
    timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 200)

  for source in editSources {
    for composing in [true, false] {
      let kind = composing ? "ChangeLog, composed pin" : "ChangeLog, no pin"
      Benchmark(
        "OffsetIndex/record, \(source.name)/\(kind)",
        configuration: composing ? perSlowSequence : perSequence
      ) { benchmark, state in
        let (length, edits) = state
        var log = ChangeLog(version: 0, length: length)
        if composing {
          do { try log.pin(0, composing: true) } catch { fatalError("\(error)") }
        }
        benchmark.startMeasurement()
        for edit in edits {
          log.record(edit.range, insertedLength: edit.inserted, party: .person)
        }
        benchmark.stopMeasurement()
        precondition(log.currentVersion.rawValue == edits.count)
        blackHole(log)
      } setup: {
        source.make()
      }
    }

    // The composed map alone, to tell its cost from the log's.
    Benchmark(
      "OffsetIndex/record, \(source.name)/ChangeMap alone", configuration: perSlowSequence
    ) { benchmark, state in
      let (length, edits) = state
      var map = ChangeMap(length: length)
      benchmark.startMeasurement()
      for edit in edits {
        map.record(edit.range, insertedLength: edit.inserted)
      }
      benchmark.stopMeasurement()
      blackHole(map)
    } setup: {
      source.make()
    }

    Benchmark("OffsetIndex/record, \(source.name)/array", configuration: perSequence) {
      benchmark, state in
      let (_, edits) = state
      var log: [(Range<Int>, Int)] = []
      benchmark.startMeasurement()
      for edit in edits {
        log.append((edit.range, edit.inserted))
      }
      benchmark.stopMeasurement()
      precondition(log.count == edits.count)
      blackHole(log)
    } setup: {
      source.make()
    }
  }
}

private func registerReplacementBenchmarks() {
  // One replacement (or origin edit) an iteration, each on a fresh document:
  // after its first replacement on basis 0, a tool's next one takes the
  // slower path, and after an origin's first edit it has an edit in flight.
  // Building the document and making the edits happens before
  // `startMeasurement()`.
  let perReplacement = configuration(
    timeUnits: .nanoseconds, maxDuration: .seconds(30), maxIterations: 300)
  let perTransform = configuration(
    timeUnits: .nanoseconds, maxDuration: .seconds(3), maxIterations: 2000)

  Benchmark(
    "OffsetIndex/replace on basis 0, 10,000 unseen edits/Document", configuration: perReplacement
  ) { benchmark, scenario in
    let document: Document
    let context: WritingContext
    do { (document, context) = try scenario.prepare() } catch { fatalError("\(error)") }
    benchmark.startMeasurement()
    let result: ReplacementResult
    do {
      result = try document.replace(
        context: context.id, range: scenario.toolRange, with: "word", basis: 0)
    } catch { fatalError("\(error)") }
    benchmark.stopMeasurement()
    precondition(result.storageRange.lowerBound == scenario.landing)
    blackHole(document)
  } setup: {
    try ReplacementScenario(editCount: 10_000, seed: 3)
  }

  Benchmark(
    "OffsetIndex/replace on basis 0, 10,000 unseen edits/sequential", configuration: perTransform
  ) { benchmark, scenario in
    for _ in benchmark.scaledIterations {
      let (range, touched) = sequentialTransform(scenario.storageRange, through: scenario.edits)
      blackHole(range.lowerBound &+ range.upperBound &+ (touched ? 1 : 0))
    }
  } setup: {
    try ReplacementScenario(editCount: 10_000, seed: 3)
  }

  Benchmark(
    "OffsetIndex/origin edit on basis 0, 1,000 unseen edits/Document", configuration: perReplacement
  ) { benchmark, scenario in
    let document: Document
    do { document = try scenario.prepare() } catch { fatalError("\(error)") }
    benchmark.startMeasurement()
    let result: EditResult
    do {
      result = try document.edit(
        "body", range: scenario.range, with: "y", origin: "peer", basis: 0)
    } catch { fatalError("\(error)") }
    benchmark.stopMeasurement()
    precondition(result.range.lowerBound == scenario.landing)
    blackHole(document)
  } setup: {
    try OriginEditScenario(editCount: 1000, seed: 4)
  }

  Benchmark(
    "OffsetIndex/origin edit on basis 0, 1,000 unseen edits/sequential", configuration: perTransform
  ) { benchmark, scenario in
    for _ in benchmark.scaledIterations {
      let range = sequentialOriginTransform(scenario.range, through: scenario.edits)
      blackHole(range.lowerBound &+ range.upperBound)
    }
  } setup: {
    try OriginEditScenario(editCount: 1000, seed: 4)
  }
}
