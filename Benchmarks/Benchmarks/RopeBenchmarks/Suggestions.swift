import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import Foundation
import TextRope

// 15. Suggestions and bounded observers (issue 29), in one 10 MB storage of
//     prose in paragraphs of about 1.2 KB (8,500 of them), with 100,000
//     one-word suggestions, the first word at or after every 100th unit.
//     Each ratio is paired: one iteration does both sides back to back, so
//     that load that comes and goes hits both alike.
//     - a keystroke ("x" typed and deleted again, 1000 edits at random
//       places between the suggestions, so that the text and its
//       suggestions stay as they were) with the 100,000 suggestions, against
//       the same keystrokes with none;
//     - the suggestions of a 10-paragraph context (`startSession(scope:
//       .userSelection, surroundingParagraphs: 4)` around a selection over
//       two paragraphs), and of 10 paragraphs at random places of the
//       storage (`suggestions(in:overlapping:)`): time per call, and how
//       many it returns;
//     - adding 100,000 suggestions (one `suggest`, in random order), against
//       sorting their 100,000 ranges by lower bound;
//     - preview then reject of a one-word suggestion (made just before,
//       unmeasured) in a live session's context, against a tool replacement
//       of the same word (`replace(context:range:with:)`, undone after,
//       unmeasured);
//     - an observer that never reads (`events()`, the default limit),
//       1,000,000 keystrokes inside a live session's context: the heap grown
//       against the same keystrokes with no observer, after 4,096 (the limit
//       reached), 100,000 and 1,000,000 keystrokes;
//     - a live session's own memory (issue 46): the heap 1,000,000
//       keystrokes in its context grow, against the same keystrokes after
//       the session ended (no observer either way), per keystroke.

let suggestOverSort = BenchmarkMetric.custom(
  "suggest ÷ sort (×100)", polarity: .prefersSmaller, useScalingFactor: false)
let suggestMicroseconds = BenchmarkMetric.custom(
  "suggest, µs", polarity: .prefersSmaller, useScalingFactor: false)
let sortMicroseconds = BenchmarkMetric.custom(
  "sort, µs", polarity: .prefersSmaller, useScalingFactor: false)
let suggestionsReturned = BenchmarkMetric.custom(
  "suggestions returned", polarity: .prefersSmaller, useScalingFactor: false)
let withKeystrokeNanoseconds = BenchmarkMetric.custom(
  "with, ns a keystroke", polarity: .prefersSmaller, useScalingFactor: false)
let withoutKeystrokeNanoseconds = BenchmarkMetric.custom(
  "without, ns a keystroke", polarity: .prefersSmaller, useScalingFactor: false)
let reviewOverReplacement = BenchmarkMetric.custom(
  "preview and reject ÷ replacement (×100)", polarity: .prefersSmaller, useScalingFactor: false)
let reviewNanoseconds = BenchmarkMetric.custom(
  "preview and reject, ns", polarity: .prefersSmaller, useScalingFactor: false)
let replacementNanoseconds = BenchmarkMetric.custom(
  "replacement, ns", polarity: .prefersSmaller, useScalingFactor: false)
let observerBytesAtLimit = BenchmarkMetric.custom(
  "observer bytes at 4096 keystrokes", polarity: .prefersSmaller, useScalingFactor: false)
let observerBytesAt100K = BenchmarkMetric.custom(
  "observer bytes at 100000 keystrokes", polarity: .prefersSmaller, useScalingFactor: false)
let observerBytesAt1M = BenchmarkMetric.custom(
  "observer bytes at 1000000 keystrokes", polarity: .prefersSmaller, useScalingFactor: false)
let bytesPerBufferedEvent = BenchmarkMetric.custom(
  "bytes per buffered event", polarity: .prefersSmaller, useScalingFactor: false)
let sessionBytesPerKeystroke = BenchmarkMetric.custom(
  "live session, bytes a keystroke", polarity: .prefersSmaller, useScalingFactor: false)
let noSessionBytesAt1M = BenchmarkMetric.custom(
  "no session, bytes at 1000000 keystrokes", polarity: .prefersSmaller, useScalingFactor: false)
let sessionBytesAt1M = BenchmarkMetric.custom(
  "live session, bytes at 1000000 keystrokes", polarity: .prefersSmaller, useScalingFactor: false)
let eventStride = BenchmarkMetric.custom(
  "DocumentEvent stride", polarity: .prefersSmaller, useScalingFactor: false)
let eventLimit = BenchmarkMetric.custom(
  "event limit", polarity: .prefersSmaller, useScalingFactor: false)
let eventsMissed = BenchmarkMetric.custom(
  "events missed", polarity: .prefersSmaller, useScalingFactor: false)
let unobservedBytesAt1M = BenchmarkMetric.custom(
  "no observer, bytes at 1000000 keystrokes", polarity: .prefersSmaller, useScalingFactor: false)

private let body = StorageID("body")

/// About 10 MB of ASCII prose (UTF-16 offsets are byte offsets): sentences
/// of 17 words, paragraphs of 10 sentences (about 1.2 KB), ending with a
/// whole paragraph; and where each paragraph starts.
private let reviewText: (rope: Rope, bytes: [UInt8], paragraphStarts: [Int]) = {
  let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
    .map { Array($0.utf8) }
  var bytes: [UInt8] = []
  bytes.reserveCapacity(10 * megabyte + 2_000)
  var starts = [0]
  var i = 0
  while bytes.count < 10 * megabyte || i % 170 != 0 {
    bytes += words[i % words.count]
    if i % 170 == 169 {
      bytes += Array(".\n".utf8)
      starts.append(bytes.count)
    } else {
      bytes += Array(i % 17 == 16 ? ". ".utf8 : " ".utf8)
    }
    i += 1
  }
  starts.removeLast()  // the end of the text
  return (Rope(String(decoding: bytes, as: UTF8.self)), bytes, starts)
}()

@inline(__always)
private func isLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }

/// The first word that starts at or after `offset`.
private func word(from offset: Int, in bytes: [UInt8]) -> Range<Int> {
  var start = offset
  while start < bytes.count
    && !(isLetter(bytes[start]) && (start == 0 || !isLetter(bytes[start - 1])))
  {
    start += 1
  }
  var end = start
  while end < bytes.count && isLetter(bytes[end]) { end += 1 }
  return start..<end
}

/// 100,000 one-word ranges, the first word at or after every 100th unit:
/// each ends before 30 units past its hundred.
private let suggestionRanges = (0..<100_000).map { word(from: $0 * 100, in: reviewText.bytes) }

/// A checker's findings over `ranges`.
private func proposals(_ ranges: [Range<Int>], kind: SuggestionKind = .spelling)
  -> [ProposedSuggestion]
{
  ranges.map {
    ProposedSuggestion(
      $0, kind: kind, explanation: "Possible spelling mistake",
      candidates: [SuggestionCandidate("lorum")])
  }
}

/// Random offsets between the suggestions: 40 to 89 units past a hundred.
private func gapOffsets(count: Int, seed: UInt64) -> [Int] {
  var random = SplitMix64(seed: seed)
  return (0..<count).map { _ in random.below(100_000) * 100 + 40 + random.below(50) }
}

/// A document of the 10 MB storage, with the 100,000 suggestions or none.
private func reviewDocument(suggestions: Bool) throws -> Document {
  let document = Document()
  try document.add(body, text: reviewText.rope)
  if suggestions {
    let ids = try document.suggest(proposals(suggestionRanges), in: body)
    precondition(ids.count == suggestionRanges.count)
  }
  return document
}

/// Selects 20 units over the end of the paragraph in the middle of the
/// text and starts a `userSelection` session with 4 paragraphs more on
/// each side: a context of 10 paragraphs.
private func startTenParagraphSession(_ document: Document) throws -> WritingContext {
  let starts = reviewText.paragraphStarts
  let p = starts.count / 2
  try document.select([SelectionRange(body, (starts[p + 1] - 10)..<(starts[p + 1] + 10))])
  let session = try document.startSession(scope: .userSelection, surroundingParagraphs: 4)
  precondition(session.contexts.count == 1, "\(session.contexts.count) contexts")
  let context = session.contexts[0]
  precondition(
    context.storageRange == starts[p - 4]..<starts[p + 6],
    "context \(context.storageRange), paragraphs \(starts[p - 4])..<\(starts[p + 6])")
  return context
}

/// Keystrokes into storage "body" at `offsets` in turn: "x" typed, then
/// deleted again, so that the text (and its suggestions) stays as it was;
/// kept across a benchmark's iterations.
private final class Keystrokes: @unchecked Sendable {
  let document: Document
  let offsets: [Int]
  var next = 0
  /// Edits made so far.
  var made = 0

  init(_ document: Document, offsets: [Int]) {
    self.document = document
    self.offsets = offsets
  }

  /// The next `count` edits (an even number: each "x" deleted again).
  func make(_ count: Int) {
    precondition(count & 1 == 0)
    var i = next
    for step in 0..<count {
      let offset = offsets[i]
      do {
        if step & 1 == 0 {
          try document.edit(body, range: offset..<offset, with: "x")
        } else {
          try document.edit(body, range: offset..<(offset + 1), with: "")
          i = i + 1 == offsets.count ? 0 : i + 1
        }
      } catch {
        fatalError("keystroke at \(offset): \(error)")
      }
    }
    next = i
    made += count
  }

  /// Edits until `total` are made.
  func make(upTo total: Int) { make(total - made) }
}

/// The state of the preview-and-reject benchmark.
private final class ReviewState: @unchecked Sendable {
  let document: Document
  /// Words inside the context, between the suggestions (storage ranges).
  let words: [Range<Int>]
  var next = 0
  /// Makes every suggestion's kind new, so that no reject makes the next
  /// one ignored.
  var serial = 0

  init(_ document: Document, words: [Range<Int>]) {
    self.document = document
    self.words = words
  }
}

/// Heap growth of `keystrokes` inside a 10-paragraph context of a live
/// session, with an observer that never reads or none: after each count of
/// `checkpoints`, and the observer. Without `session`, the session ends
/// before the keystrokes (made at the same places).
private func observedGrowth(
  observing: Bool, checkpoints: [Int], seed: UInt64, session: Bool = true
) throws -> (growth: [Int], document: Document, events: DocumentEvents?) {
  let document = Document()
  try document.add(body, text: reviewText.rope)
  let context = try startTenParagraphSession(document)
  if !session { document.endSession() }
  let range = context.storageRange
  var random = SplitMix64(seed: seed)
  let offsets = (0..<(1 << 16)).map { _ in range.lowerBound + 1 + random.below(range.count - 2) }
  let keystrokes = Keystrokes(document, offsets: offsets)
  let events = observing ? document.events() : nil
  let before = heapBytesInUse()
  var growth: [Int] = []
  for total in checkpoints {
    keystrokes.make(upTo: total)
    growth.append(heapBytesInUse() - before)
  }
  return (growth, document, events)
}

func registerSuggestionBenchmarks() {
  let perThousand = configuration(
    metrics: [.wallClock, trackedOverNone, withKeystrokeNanoseconds, withoutKeystrokeNanoseconds],
    timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 1000)
  Benchmark("Suggestions ratio/keystroke, 100,000 suggestions in 10 MB", configuration: perThousand)
  {
    benchmark, state in
    let clock = ContinuousClock()
    let withTime = timed(clock) { state.0.make(1000) }
    let withoutTime = timed(clock) { state.1.make(1000) }
    benchmark.measurement(trackedOverNone, percent(withTime, of: withoutTime))
    benchmark.measurement(withKeystrokeNanoseconds, nanoseconds(withTime) / 1000)
    benchmark.measurement(withoutKeystrokeNanoseconds, nanoseconds(withoutTime) / 1000)
  } setup: { () -> (Keystrokes, Keystrokes) in
    let offsets = gapOffsets(count: 1 << 16, seed: 11)
    let suggested = Keystrokes(try reviewDocument(suggestions: true), offsets: offsets)
    let plain = Keystrokes(try reviewDocument(suggestions: false), offsets: offsets)
    // The keystrokes keep every suggestion.
    suggested.make(2000)
    let left = try suggested.document.suggestions(in: body).count
    precondition(left == suggestionRanges.count, "\(left) suggestions left")
    return (suggested, plain)
  }

  // 1000 queries an iteration.
  let perQuery = configuration(
    metrics: [.wallClock, suggestionsReturned], timeUnits: .nanoseconds, scalingFactor: .kilo,
    maxDuration: .seconds(3), maxIterations: 1000)
  Benchmark(
    "Suggestions/in a 10-paragraph context among 100,000 in 10 MB", configuration: perQuery
  ) { benchmark, state in
    let (document, context) = state
    var returned = 0
    for _ in benchmark.scaledIterations {
      let found = (try? document.suggestions(inContext: context)) ?? []
      returned += found.count
      blackHole(found)
    }
    benchmark.measurement(suggestionsReturned, returned / benchmark.scaledIterations.count)
  } setup: { () -> (Document, UUID) in
    let document = try reviewDocument(suggestions: true)
    let context = try startTenParagraphSession(document)
    let found = try document.suggestions(inContext: context.id)
    let expected = suggestionRanges.filter {
      context.storageRange.lowerBound <= $0.lowerBound
        && $0.upperBound <= context.storageRange.upperBound
    }
    precondition(found.map(\.range) == expected, "\(found.count) found, \(expected.count) expected")
    return (document, context.id)
  }

  Benchmark(
    "Suggestions/overlapping 10 paragraphs among 100,000 in 10 MB", configuration: perQuery
  ) { benchmark, state in
    let (document, ranges) = state
    var returned = 0
    var i = 0
    for _ in benchmark.scaledIterations {
      let found = (try? document.suggestions(in: body, overlapping: ranges[i])) ?? []
      i = i + 1 == ranges.count ? 0 : i + 1
      returned += found.count
      blackHole(found)
    }
    benchmark.measurement(suggestionsReturned, returned / benchmark.scaledIterations.count)
  } setup: { () -> (Document, [Range<Int>]) in
    let starts = reviewText.paragraphStarts
    let ranges = randomOffsets(count: 1000, below: starts.count - 10, seed: 13).map {
      starts[$0]..<starts[$0 + 10]
    }
    return (try reviewDocument(suggestions: true), ranges)
  }

  let perAdd = configuration(
    metrics: [.wallClock, suggestOverSort, suggestMicroseconds, sortMicroseconds],
    timeUnits: .milliseconds, maxDuration: .seconds(5), maxIterations: 30)
  Benchmark("Suggestions ratio/adding 100,000 against sorting them", configuration: perAdd) {
    benchmark, state in
    let (shuffled, ranges) = state
    let clock = ContinuousClock()
    let document = Document()
    do { try document.add(body, text: reviewText.rope) } catch { fatalError("\(error)") }
    let suggestTime = timed(clock) { (try? document.suggest(shuffled, in: body)) ?? [] }
    let sortTime = timed(clock) { ranges.sorted { $0.lowerBound < $1.lowerBound } }
    benchmark.measurement(suggestOverSort, percent(suggestTime, of: sortTime))
    benchmark.measurement(suggestMicroseconds, nanoseconds(suggestTime) / 1000)
    benchmark.measurement(sortMicroseconds, nanoseconds(sortTime) / 1000)
    blackHole(document)
  } setup: { () -> ([ProposedSuggestion], [Range<Int>]) in
    var random = SplitMix64(seed: 12)
    let shuffled = proposals(suggestionRanges).shuffled(using: &random)
    // All of them are added.
    let document = Document()
    try document.add(body, text: reviewText.rope)
    let added = try document.suggest(shuffled, in: body).count
    precondition(added == shuffled.count, "\(added) added")
    return (shuffled, shuffled.map(\.range))
  }

  // 50 of each an iteration, in a session started afresh (unmeasured).
  let perReview = configuration(
    metrics: [.wallClock, reviewOverReplacement, reviewNanoseconds, replacementNanoseconds],
    timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 1000)
  Benchmark(
    "Suggestions ratio/preview and reject against a tool replacement in 10 MB",
    configuration: perReview
  ) { benchmark, state in
    let document = state.document
    let count = 50
    let clock = ContinuousClock()
    var reviewTime = Duration.zero
    var replaceTime = Duration.zero
    do {
      let context = try startTenParagraphSession(document)
      let origin = context.storageRange.lowerBound
      for j in 0..<count {
        let word = state.words[state.next]
        state.next = state.next + 1 == state.words.count ? 0 : state.next + 1
        func review() -> Duration {
          let kind = SuggestionKind(rawValue: "spelling \(state.serial)")
          state.serial += 1
          let id: SuggestionID
          do {
            id = try document.suggest(
              [ProposedSuggestion(word, kind: kind, candidates: [SuggestionCandidate("lorum")])],
              in: body)[0]
          } catch { fatalError("\(error)") }
          return timed(clock) { () -> SuggestionResult in
            do {
              try document.preview(id, candidate: 0)
              return try document.reject(id)
            } catch { fatalError("\(error)") }
          }
        }
        func replace() -> Duration {
          let time = timed(clock) { () -> ReplacementResult in
            do {
              return try document.replace(
                context: context.id, range: (word.lowerBound - origin)..<(word.upperBound - origin),
                with: "lorum")
            } catch { fatalError("\(error)") }
          }
          do {
            let undone = try document.undo()
            precondition(undone.replacementCount == 1, "undo: \(undone)")
          } catch { fatalError("\(error)") }
          return time
        }
        // Each first in turn, so that neither always finds the word warm.
        if j & 1 == 0 {
          reviewTime += review()
          replaceTime += replace()
        } else {
          replaceTime += replace()
          reviewTime += review()
        }
      }
      // Everything went back.
      let now = try document.liveContext(context.id)
      precondition(now.storageRange == context.storageRange && now.text == context.text)
    } catch { fatalError("\(error)") }
    benchmark.measurement(reviewOverReplacement, percent(reviewTime, of: replaceTime))
    benchmark.measurement(reviewNanoseconds, nanoseconds(reviewTime) / count)
    benchmark.measurement(replacementNanoseconds, nanoseconds(replaceTime) / count)
  } setup: { () -> ReviewState in
    let document = try reviewDocument(suggestions: true)
    let context = try startTenParagraphSession(document)
    // Words 40 to 89 units past a hundred: between the suggestions.
    var words: [Range<Int>] = []
    var offset = context.storageRange.lowerBound
    while true {
      let w = word(from: offset, in: reviewText.bytes)
      guard w.upperBound < context.storageRange.upperBound else { break }
      if (40..<90).contains(w.lowerBound % 100) && w.upperBound % 100 >= w.lowerBound % 100 {
        words.append(w)
      }
      offset = w.upperBound
    }
    precondition(words.count > 100, "\(words.count) words")
    return ReviewState(document, words: words)
  }

  // One iteration: 1,000,000 keystrokes with no observer, then with one.
  let observer = configuration(
    metrics: [
      .wallClock, observerBytesAtLimit, observerBytesAt100K, observerBytesAt1M,
      bytesPerBufferedEvent, eventStride, eventLimit, eventsMissed, unobservedBytesAt1M,
    ],
    timeUnits: .milliseconds, warmupIterations: 0, maxDuration: .seconds(10), maxIterations: 2)
  Benchmark(
    "Suggestions/observer that never reads, 1,000,000 keystrokes in a live context",
    configuration: observer
  ) { benchmark, _ async in
    let limit = DocumentEvents.defaultLimit
    let checkpoints = [limit, 100_000, 1_000_000]
    do {
      // Whatever the first keystrokes allocate once for good.
      _ = try observedGrowth(observing: true, checkpoints: [10_000], seed: 14)
      let none = try observedGrowth(observing: false, checkpoints: checkpoints, seed: 15)
      let observed = try observedGrowth(observing: true, checkpoints: checkpoints, seed: 15)
      guard let events = observed.events else { fatalError("no observer") }
      precondition(events.limit == limit)
      let extra = zip(observed.growth, none.growth).map { max(0, $0 - $1) }
      // The observer has the first `limit` events, then the count of the others.
      var iterator = events.makeAsyncIterator()
      for k in 0..<limit {
        guard case .textUpdated = await iterator.next() else { fatalError("event \(k)") }
      }
      guard case .missed(let missed) = await iterator.next() else { fatalError("no .missed") }
      precondition(missed == 1_000_000 - limit, "\(missed) missed")
      benchmark.measurement(observerBytesAtLimit, extra[0])
      benchmark.measurement(observerBytesAt100K, extra[1])
      benchmark.measurement(observerBytesAt1M, extra[2])
      benchmark.measurement(bytesPerBufferedEvent, extra[0] / limit)
      benchmark.measurement(eventStride, MemoryLayout<DocumentEvent>.stride)
      benchmark.measurement(eventLimit, limit)
      benchmark.measurement(eventsMissed, missed)
      benchmark.measurement(unobservedBytesAt1M, max(0, none.growth[2]))
      blackHole(none.document)
      blackHole(observed.document)
    } catch {
      fatalError("\(error)")
    }
  } setup: {
    _ = reviewText
  }
  Benchmark(
    "Suggestions/live session's memory, 1,000,000 keystrokes in its context",
    configuration: configuration(
      metrics: [.wallClock, sessionBytesPerKeystroke, sessionBytesAt1M, noSessionBytesAt1M],
      timeUnits: .milliseconds, warmupIterations: 0, maxDuration: .seconds(10), maxIterations: 1)
  ) { benchmark in
    do {
      // Whatever the first keystrokes allocate once for good.
      _ = try observedGrowth(observing: false, checkpoints: [10_000], seed: 14)
      let none = try observedGrowth(
        observing: false, checkpoints: [1_000_000], seed: 16, session: false)
      let live = try observedGrowth(observing: false, checkpoints: [1_000_000], seed: 16)
      let extra = max(0, live.growth[0] - none.growth[0])
      benchmark.measurement(sessionBytesPerKeystroke, extra / 1_000_000)
      benchmark.measurement(sessionBytesAt1M, max(0, live.growth[0]))
      benchmark.measurement(noSessionBytesAt1M, max(0, none.growth[0]))
      blackHole(none.document)
      blackHole(live.document)
    } catch {
      fatalError("\(error)")
    }
  } setup: {
    _ = reviewText
  }
}
