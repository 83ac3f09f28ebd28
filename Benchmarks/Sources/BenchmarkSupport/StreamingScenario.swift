import DocumentEngine
import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The scenario of `Typing while a tool streams` (the suite's row 11), and
// its replays, shared by the benchmark and by `StreamingReplay`, the driver
// that prints the slowest keystrokes and replacements to profile them.
//
// A person types while a writing tool streams (issue 11): seph-blog1's
// 137,993 keystrokes typed at the start of a paragraph in the middle of
// 1 MB of text (one storage of a `Document`), inside the context of a
// live `userSelection` session (the selection covers where the typing
// starts); every 50 keystrokes the tool replaces a range of that
// context, on the context version it last saw (the one its previous
// replacement returned, or 0). Half the tool's ranges straddle the place
// the person was typing at when the tool last looked (a later keystroke
// there touches them: `.conflict`), half are anywhere in the context
// (moved through the keystrokes the tool had not seen: transformed).
//
// Each keystroke and each replacement is timed on its own with a clock
// (two clock reads around one call; their cost, tens of nanoseconds, is
// in every sample and in the baseline's alike); the samples of every
// iteration after the warm-up go into the metrics, whose percentiles are
// the latency of one keystroke (p50, p99, max). Keystrokes a second is
// the number of keystrokes over the time of the whole replay, the
// tool's replacements included.
//
// Nothing is lost: the outcome of every replacement is worked out
// beforehand by a plain model (a flat `[UInt16]` of the part of the
// storage that changes, the person's edits since the tool's basis
// walked one by one with `sequentialTransform`), and the replay checks
// that the engine refuses exactly the touched ones as `.conflict` and
// puts the others where the model does, and at the end that the storage
// is the model's text (outside the timed part).
//
// The tool's replacements keep the length of what they replace (a
// letter's case changed, anything else made "_"; never a surrogate or a
// paragraph separator), so that the trace's later keystrokes still land
// where the trace put them: the trace's ranges are its own, and a
// length-changing replacement before them would need the person's edits
// transformed too. The engine's path does not depend on the length.
//
// The baseline: the same keystrokes into a `Rope`, timed the same way,
// with the replacements the model accepts made at the place it gives.

/// Keystrokes between two replacements of the tool.
public let keystrokesPerReplacement = 50

/// One replacement of the tool, with the outcome the model works out.
public struct ToolReplacement: Sendable {
  /// How many keystrokes come before it.
  public let after: Int
  /// The range in the tool's view: the context's text at the version the
  /// tool last saw.
  public let range: Range<Int>
  /// The new text, as long as the range.
  public let text: String
  /// The storage range it replaces (and its text then holds); nil if a
  /// keystroke the tool had not seen touched its range (`.conflict`).
  public let landing: Range<Int>?
  /// How many keystrokes the tool had not seen.
  public let unseen: Int
}

/// The scenario, with every replacement's outcome worked out by the model.
public struct StreamingScenario: @unchecked Sendable {
  /// The keystrokes, as ranges of the storage.
  public let keystrokes: UTF16Trace
  /// The storage at the start.
  public let text: Rope
  public let selection: SelectionRange
  /// The context at the start, and at the end.
  public let context: Range<Int>
  public let endContext: Range<Int>
  public let replacements: [ToolReplacement]
  /// The storage's text at the end, by the model.
  public let end: String
  /// Replacements refused, and accepted after keystrokes they had not seen.
  public let conflicts: Int
  public let transformed: Int

  public init(trace name: String, seed: UInt64) throws {
    let base = Array(TextGenerator.string(byteCount: megabyte).utf16)
    // The typing goes in at the start of a paragraph near the middle.
    var m = base.count / 2
    while base[m - 1] != 0x0A { m += 1 }
    keystrokes = UTF16Trace(
      PreparedTrace(name: name), before: String(decoding: base[..<m], as: UTF16.self),
      after: String(decoding: base[m...], as: UTF16.self))
    text = Rope(keystrokes.start)
    let lower = scalarBoundary(in: text, atOrBefore: m - 20)
    let upper = scalarBoundary(in: text, atOrBefore: m + 20)
    selection = SelectionRange("body", lower..<upper)
    let document = Document()
    try document.add("body", text: text)
    try document.select([selection])
    context = try document.startSession(scope: .userSelection).contexts[0].storageRange
    precondition(
      context.lowerBound < m && m < context.upperBound, "the typing is not inside \(context)")

    // The model: the storage before the context and after it never change
    // (checked for every edit); `window` is the rest.
    let units = Array(keystrokes.start.utf16)
    let w0 = context.lowerBound
    let tailCount = units.count - context.upperBound
    var window = Array(units[w0..<context.upperBound])
    var length = units.count
    var now = context
    // What the tool last saw: the context's range and text, and where the
    // person was typing then; the keystrokes since.
    var seenContext = now
    var view = window
    var seenCursor = m
    var cursor = m
    var unseen: [IndexEdit] = []
    var rng = SplitMix64(seed: seed)
    var replacements: [ToolReplacement] = []
    var conflicts = 0
    var transformed = 0

    func replaceable(_ unit: UInt16) -> Bool {
      !(0xD800...0xDFFF).contains(unit) && unit != 0x0A && unit != 0x0D && unit != 0x2029
    }

    for i in 0..<keystrokes.count {
      if i > 0 && i % keystrokesPerReplacement == 0 {
        // The tool's range: a run of replaceable units in its view.
        let count = view.count
        var a: Int
        var want: Int
        if rng.below(2) == 0 {
          let c = seenCursor - seenContext.lowerBound
          a = max(0, c - 1 - rng.below(6))
          want = c - a + 1 + rng.below(4)
        } else {
          a = rng.below(count)
          want = 2 + rng.below(7)
        }
        while a < count && !replaceable(view[a]) { a += 1 }
        var b = a
        while b < count && b - a < want && replaceable(view[b]) { b += 1 }
        if a < b {
          // ASCII letters change case; anything else becomes "_".
          let text = String(
            decoding: view[a..<b].map { unit -> UInt16 in
              switch unit {
              case 0x61...0x7A: unit - 0x20
              case 0x41...0x5A: unit + 0x20
              default: 0x5F
              }
            }, as: UTF16.self)
          let start = seenContext.lowerBound
          let (mapped, touched) = sequentialTransform((start + a)..<(start + b), through: unseen)
          var landing: Range<Int>? = nil
          if touched {
            conflicts += 1
          } else {
            precondition(
              mapped.count == b - a && now.lowerBound <= mapped.lowerBound
                && mapped.upperBound <= now.upperBound,
              "an untouched range \(mapped) changed length or left the context \(now)")
            window.replaceSubrange(
              (mapped.lowerBound - w0)..<(mapped.upperBound - w0), with: text.utf16)
            landing = mapped
            if !unseen.isEmpty { transformed += 1 }
          }
          replacements.append(
            ToolReplacement(
              after: i, range: a..<b, text: text, landing: landing, unseen: unseen.count))
          if !touched {
            // The tool saw its own replacement: its view is the context now.
            seenContext = now
            view = Array(window[(now.lowerBound - w0)..<(now.upperBound - w0)])
            seenCursor = cursor
            unseen = []
          }
        }
      }
      // The person's keystroke.
      let r = keystrokes.ranges[i]
      let inserted = keystrokes.inserts[i].utf16
      precondition(
        r.lowerBound >= w0 && r.upperBound <= length - tailCount,
        "keystroke \(i) at \(r) is outside the part the model keeps")
      window.replaceSubrange((r.lowerBound - w0)..<(r.upperBound - w0), with: inserted)
      length += inserted.count - r.count
      let edit = IndexEdit(start: r.lowerBound, end: r.upperBound, inserted: inserted.count)
      // The context: its start goes after text typed at it, its end stays
      // before.
      let s = mapPoint(now.lowerBound, through: edit, assoc: 1)
      now = s..<max(s, mapPoint(now.upperBound, through: edit, assoc: -1))
      unseen.append(edit)
      cursor = r.lowerBound + inserted.count
    }
    endContext = now
    end = String(
      decoding: units[..<w0] + window + units[(units.count - tailCount)...], as: UTF16.self)
    self.replacements = replacements
    self.conflicts = conflicts
    self.transformed = transformed
    precondition(
      conflicts > 0 && transformed > 0 && conflicts < replacements.count,
      "a scenario without conflicts or without transformed replacements")
  }

  /// A fresh document with the session started and streaming.
  public func prepare() throws -> (Document, UUID) {
    let document = Document()
    try document.add("body", text: text)
    try document.select([selection])
    let context = try document.startSession(scope: .userSelection).contexts[0]
    precondition(context.storageRange == self.context)
    try document.setWritingToolsState(.interactiveResting)
    try document.setWritingToolsState(.interactiveStreaming)
    return (document, context.id)
  }
}

@inline(__always)
public func nanoseconds(_ duration: Duration) -> Int {
  let (seconds, attoseconds) = duration.components
  return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
}

/// Latencies of one replay, in nanoseconds.
public final class StreamingTimes: @unchecked Sendable {
  public var keystrokes: [Int]
  public var replacements: [Int]
  public var total = 0
  public init(_ scenario: StreamingScenario) {
    keystrokes = Array(repeating: 0, count: scenario.keystrokes.count)
    replacements = Array(repeating: 0, count: scenario.replacements.count)
  }
}

/// Replays the scenario into the document: each keystroke and replacement
/// timed, each replacement's outcome checked against the model's.
public func replay(
  _ scenario: StreamingScenario, into document: Document, context: UUID,
  times: StreamingTimes
) {
  let clock = ContinuousClock()
  let id = StorageID("body")
  let ranges = scenario.keystrokes.ranges
  let inserts = scenario.keystrokes.inserts
  let replacements = scenario.replacements
  var next = 0
  var basis: ContextVersion = 0
  let started = clock.now
  for i in 0..<ranges.count {
    while next < replacements.count && replacements[next].after == i {
      let replacement = replacements[next]
      var result: ReplacementResult? = nil
      var refusal: DocumentError? = nil
      let before = clock.now
      do {
        result = try document.replace(
          context: context, range: replacement.range, with: replacement.text, basis: basis)
      } catch {
        refusal = error
      }
      let elapsed = clock.now - before
      times.replacements[next] = nanoseconds(elapsed)
      if let landing = replacement.landing {
        guard let result, result.storageRange == landing else {
          fatalError(
            "replacement \(next) on basis \(basis): \(String(describing: result))"
              + " \(String(describing: refusal)); the model lands it at \(landing)")
        }
        basis = result.contextVersion
      } else {
        guard case .conflict = refusal else {
          fatalError(
            "replacement \(next) on basis \(basis) after \(replacement.unseen) unseen keystrokes:"
              + " \(String(describing: result)) \(String(describing: refusal)); the model says"
              + " a keystroke touched it")
        }
      }
      next += 1
    }
    let before = clock.now
    do {
      try document.edit(id, range: ranges[i], with: inserts[i])
    } catch {
      fatalError("keystroke \(i) at \(ranges[i]): \(error)")
    }
    times.keystrokes[i] = nanoseconds(clock.now - before)
  }
  times.total = nanoseconds(clock.now - started)
}

/// The baseline: the keystrokes into a rope, each timed, and the accepted
/// replacements where the model puts them.
public func replay(_ scenario: StreamingScenario, into rope: inout Rope, times: StreamingTimes) {
  let clock = ContinuousClock()
  let ranges = scenario.keystrokes.ranges
  let inserts = scenario.keystrokes.inserts
  let replacements = scenario.replacements
  var next = 0
  let started = clock.now
  do {
    for i in 0..<ranges.count {
      while next < replacements.count && replacements[next].after == i {
        if let landing = replacements[next].landing {
          let before = clock.now
          try rope.replace(landing, with: replacements[next].text)
          times.replacements[next] = nanoseconds(clock.now - before)
        }
        next += 1
      }
      let before = clock.now
      try rope.replace(ranges[i], with: inserts[i])
      times.keystrokes[i] = nanoseconds(clock.now - before)
    }
  } catch {
    fatalError("the rope refused an edit: \(error)")
  }
  times.total = nanoseconds(clock.now - started)
}
