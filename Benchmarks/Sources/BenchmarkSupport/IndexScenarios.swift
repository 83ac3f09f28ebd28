import DocumentEngine
import TextRope

// The edit sequences and scenarios of the offset index benchmarks (the
// suite's OffsetIndex group and the unseen-edits sweep), each with the naive
// baseline that answers the same question by walking the edits one at a time.

/// One edit in the coordinates of the text just before it: `start..<end`
/// replaced by `inserted` units.
public struct IndexEdit: Sendable {
  public var start: Int
  public var end: Int
  public var inserted: Int

  public var range: Range<Int> { start..<end }

  public init(start: Int, end: Int, inserted: Int) {
    self.start = start
    self.end = end
    self.inserted = inserted
  }
}

/// `count` typing-like edits at random places of a text of `length` units:
/// half insert one unit, 40 % delete one, 10 % replace 1–8 units with 0–8.
public func typingEdits(count: Int, length: Int, seed: UInt64) -> [IndexEdit] {
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
public typealias EditSequence = (length: Int, edits: [IndexEdit])

/// The last `count` patches of an editing trace, in Unicode scalars, with
/// the scalar length of the text they start from (the trace's start content
/// with the earlier patches made). The base is not empty even for a trace
/// that starts from nothing, so that mapping from it means something.
public func traceEdits(_ name: String, last count: Int) -> EditSequence {
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
public func mapPoint(_ p: Int, through edit: IndexEdit, assoc: Int) -> Int {
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
public func sequentialMap(_ offset: Int, assoc: Int, through edits: [IndexEdit]) -> MappedOffset {
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
public func sequentialTransform(
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
public func sequentialOriginTransform(_ range: Range<Int>, through edits: [IndexEdit]) -> Range<Int>
{
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
public func isScalarBoundary(_ offset: Int, in rope: Rope) -> Bool {
  offset >= 0 && offset <= rope.utf16Count
    && (try? rope.utf8Offset(of: offset, in: .utf16)) != nil
}

/// The last scalar boundary of `rope` at or before `offset`.
public func scalarBoundary(in rope: Rope, atOrBefore offset: Int) -> Int {
  var p = offset
  while !isScalarBoundary(p, in: rope) { p -= 1 }
  return p
}

/// Makes a person's edit: "x" inserted for `inserted` 1, a deletion for 0;
/// false if the document refused it (an offset inside a surrogate pair).
public func personEdit(_ document: Document, _ edit: IndexEdit) -> Bool {
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
public func makeEdits(
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
public struct ReplacementScenario: Sendable {
  public let text: Rope
  public let selection: SelectionRange
  public let edits: [IndexEdit]
  /// The tool's range, relative to the context's text at version 0.
  public let toolRange: Range<Int>
  /// The same range in the storage at the start.
  public let storageRange: Range<Int>
  /// Where the replacement lands in the storage (checked by the engine and
  /// by the baseline).
  public let landing: Int

  public init(editCount: Int, seed: UInt64) throws {
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
    // The first edit is inside the context, so that even one edit makes
    // basis 0 an old version.
    var first = true
    edits = makeEdits(editCount, in: document, tracked: &tracked, length: length, seed: seed) {
      t, length, rng in
      let zone = first ? 2 : rng.below(3)
      first = false
      switch zone {
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
  public func prepare() throws -> (Document, WritingContext) {
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
public struct OriginEditScenario: Sendable {
  public let text: Rope
  public let edits: [IndexEdit]
  /// The origin's range, in version 0.
  public let range: Range<Int>
  /// Where its text lands now.
  public let landing: Int

  public init(editCount: Int, seed: UInt64) throws {
    text = Rope(TextGenerator.string(byteCount: megabyte))
    let length = text.utf16Count
    var p = length / 2
    while !(isScalarBoundary(p, in: text) && isScalarBoundary(p + 1, in: text)) { p -= 1 }
    range = p..<(p + 1)
    let document = Document(keepsAllChanges: true)
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
  ///
  /// With `keepingMap`, the origin's basis (version 0) is pinned and mapped
  /// from after the first edit, as a peer that maps its positions does: the
  /// log then keeps a composed map from version 0 and brings it up to date
  /// at every later edit, and the origin's edit is mapped through it instead
  /// of transformed through every edit since.
  public func prepare(keepingMap: Bool = false) throws -> Document {
    let document = Document(keepsAllChanges: true)
    try document.add("body", text: text)
    if keepingMap { try document.pin("body", version: 0) }
    for (k, edit) in edits.enumerated() {
      guard personEdit(document, edit) else { fatalError("edit \(edit) refused on replay") }
      if keepingMap && k == 0 { _ = try document.map(range.lowerBound, in: "body", from: 0) }
    }
    return document
  }
}
