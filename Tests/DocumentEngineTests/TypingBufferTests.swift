import Testing
import TextRope
import _EngineTestSupport

@_spi(Benchmarks) @testable import DocumentEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The person's typing held back (`_TypingBuffer`) against the same calls
/// made the usual way: two documents take the same random calls — typing
/// runs at a caret (emoji, flags, combining marks, CR LF, U+2029), jumps,
/// backspaces, edits elsewhere, the host's ranges at and around the caret,
/// sessions whose contexts begin and end there, a tool's replacements,
/// undo and redo, attributes, exclusions, a peer's edits on old versions,
/// reads in between — one with typing held back, one without. Every
/// call's result (the versions, the ranges, the events, the errors) and,
/// now and then, everything a host can read must be the same.
@Suite struct TypingBufferTests {
  final class ManualClock: @unchecked Sendable {
    var now: Duration = .zero
  }

  /// One of the two documents, and what the test knows of it.
  final class Side {
    let document: Document
    /// The session's contexts, in the order handed out (their ids differ
    /// between the two documents: results name them by index).
    var contexts: [UUID] = []
    var known: [UUID] = []

    init(_ document: Document) { self.document = document }

    /// `value`'s description, each context named by its index.
    func normalized(_ value: Any) -> String {
      var text = String(describing: value)
      for (i, id) in known.enumerated() {
        text = text.replacingOccurrences(of: id.uuidString, with: "context#\(i)")
      }
      return text
    }
  }

  static let pieces = [
    "a", "b", " ", "e\u{301}", "😀", "👨‍👩‍👧", "🇫🇷", "\r", "\n", "\r\n", "\u{2029}", "ß", "é", "中",
    "xy", "\u{0301}",
  ]

  static func text(_ random: inout SeededRandom) -> String {
    var text = ""
    for _ in 0..<Int.random(in: 1...2, using: &random) {
      text += pieces[Int.random(in: 0..<pieces.count, using: &random)]
    }
    return text
  }

  static let storages: [StorageID] = ["a", "b"]

  func makeSides(
    _ clock: ManualClock, maxGroups: Int? = 10_000, recording: Bool = true
  ) throws -> (Side, Side) {
    func make(_ buffering: Bool) throws -> Side {
      let document = Document()
      document.historyOptions = HistoryOptions(
        isEnabled: recording, maxGroups: maxGroups, clock: { clock.now })
      document.buffersTyping = buffering
      try document.add("a", text: Rope("One 😀 two.\nThree e\u{301} four.\r\nFive.\u{2029}Six"))
      try document.add("b", text: Rope("Seven 🇫🇷.\nEight"))
      return Side(document)
    }
    return (try make(true), try make(false))
  }

  /// Everything a host reads of the document, with contexts by index.
  func digest(_ side: Side) -> String {
    let document = side.document
    var lines: [String] = []
    let content = document.content
    for id in Self.storages {
      guard let storage = try? content.storage(id) else { continue }
      lines.append("\(id): \(String(storage.text).debugDescription) v\(storage.version.rawValue)")
      lines.append("  runs \(storage.attributeRuns(in: 0..<storage.length))")
      lines.append("  excluded \(storage.excludedRanges)")
      lines.append("  tracked \((try? document.trackedRanges(in: id)) ?? [])")
      lines.append(
        "  touched since 0 \((try? document.isTouched(0..<storage.length, in: id, since: StorageVersion(rawValue: 0))).map { "\($0)" } ?? "-")"
      )
    }
    lines.append("selection \(document.selection)")
    for (i, id) in side.contexts.enumerated() {
      if let live = try? document.liveContext(id) {
        lines.append(
          "context \(i): \(live.storageRange) v\(live.contextVersion.rawValue) \(String(live.text).debugDescription)"
        )
      } else {
        lines.append("context \(i): gone")
      }
    }
    return side.normalized(lines.joined(separator: "\n"))
  }

  @Test func heldTypingMatchesTheUsualPath() throws {
    let seed = TestSettings.seed("heldTypingMatchesTheUsualPath")
    var random = SeededRandom(seed: seed)
    var heldRuns = 0
    defer { #expect(heldRuns > 0, "no keystroke was held back") }
    for round in 0..<TestSettings.iterations(40) {
      let clock = ManualClock()
      // A small limit now and then: the groups a keystroke opens drop
      // the oldest.
      let maxGroups = Bool.random(using: &random) ? Int.random(in: 1...6, using: &random) : 10_000
      // And the history off now and then.
      let recording = Int.random(in: 0..<6, using: &random) != 0
      let (held, plain) = try makeSides(clock, maxGroups: maxGroups, recording: recording)
      var caret: (StorageID, Int) = ("a", 4)
      var versions: [StorageVersion] = []
      for step in 0..<300 {
        let place = "seed \(seed), round \(round), step \(step)"
        var what = ""
        /// Makes the call on both and checks that they answer alike.
        func both<R>(_ name: String, _ call: (Side) throws(DocumentError) -> R) {
          what = name
          let a: String
          let b: String
          do { a = held.normalized(try call(held)) } catch { a = "error \(error)" }
          do { b = plain.normalized(try call(plain)) } catch { b = "error \(error)" }
          #expect(a == b, "\(place): \(name)")
        }
        let roll = Int.random(in: 0..<100, using: &random)
        let (id, at) = caret
        switch roll {
        case 0..<45:
          // Typing on at the caret.
          let text = Self.text(&random)
          both("type \(text.debugDescription) at \(at) of \(id)") { side throws(DocumentError) in
            try side.document.edit(id, range: at..<at, with: text)
          }
          caret = (id, at + text.utf16.count)
          if Int.random(in: 0..<4, using: &random) == 0 {
            // (A read: the run stays open.)
            if held.document.readingState({ $0.held.isOpen }) { heldRuns += 1 }
          }
        case 45..<50:
          let k = Int.random(in: 1...2, using: &random)
          let lower = max(0, at - k)
          both("backspace \(lower)..<\(at) of \(id)") { side throws(DocumentError) in
            try side.document.edit(id, range: lower..<at, with: "")
          }
          caret = (id, lower)
        case 50..<52:
          // A jump to where a context begins or ends.
          if let context = held.contexts.randomElement(using: &random),
            let live = try? held.document.liveContext(context)
          {
            caret = (
              live.storage,
              Bool.random(using: &random)
                ? live.storageRange.lowerBound : live.storageRange.upperBound
            )
          }
        case 52..<56:
          // A jump (perhaps into a surrogate pair: typing there is refused).
          let storage = Self.storages[Int.random(in: 0..<2, using: &random)]
          let length = (try? held.document.content.storage(storage).length) ?? 0
          caret = (storage, Int.random(in: 0...length, using: &random))
        case 56..<60:
          let length = (try? held.document.content.storage(id).length) ?? 0
          let lower = Int.random(in: 0...length, using: &random)
          let upper = min(length, lower + Int.random(in: 0...3, using: &random))
          let text = Self.text(&random)
          both("edit \(lower)..<\(upper) of \(id)") { side throws(DocumentError) in
            try side.document.edit(id, range: lower..<upper, with: text)
          }
        case 60..<64:
          // A range of the host's at, before or after the caret.
          let lower = max(0, at - Int.random(in: 0...2, using: &random))
          let upper = at + Int.random(in: 0...2, using: &random)
          let rules = TrackingRules(
            expand: [.none, .before, .after, .both][Int.random(in: 0..<4, using: &random)],
            bias: Bool.random(using: &random) ? .left : .right,
            onTouch: Bool.random(using: &random) ? .keep : .remove)
          both("track \(lower)..<\(upper) of \(id)") { side throws(DocumentError) in
            try side.document.track([lower..<upper], in: id, kind: "comment", rules: rules)
          }
        case 64..<66:
          let ranges = (try? held.document.trackedRanges(in: id)) ?? []
          if let range = ranges.randomElement(using: &random) {
            both("untrack \(range.id)") { side throws(DocumentError) in
              try side.document.untrack([range.id])
            }
          }
        case 66..<71:
          // A session whose context may begin or end at the caret.
          let lower = max(0, at - Int.random(in: 0...3, using: &random))
          let upper = at + Int.random(in: 0...3, using: &random)
          let scope: ContextScope = Bool.random(using: &random) ? .userSelection : .fullDocument
          let paragraphs = Int.random(in: 0...1, using: &random)
          both("session over \(lower)..<\(upper) of \(id)") { side throws(DocumentError) in
            try side.document.select([SelectionRange(id, lower..<upper)])
            let session = try side.document.startSession(
              scope: scope, surroundingParagraphs: paragraphs)
            side.contexts = session.contexts.map(\.id)
            side.known += side.contexts
            return session.contexts.map { "\($0.storage) \($0.range)" }
          }
        case 71..<73:
          both("end session") { side throws(DocumentError) in
            side.document.endSession()
            side.contexts = []
          }
        case 73..<77:
          // A tool's replacement in a context.
          let index = Int.random(in: 0..<4, using: &random)
          let lower = Int.random(in: 0...6, using: &random)
          let upper = lower + Int.random(in: 0...3, using: &random)
          let text = Bool.random(using: &random) ? "" : Self.text(&random)
          both("replace \(lower)..<\(upper) in context \(index)") { side throws(DocumentError) in
            guard index < side.contexts.count else { return "none" }
            return
              "\(try side.document.replace(context: side.contexts[index], range: lower..<upper, with: text))"
          }
        case 77..<81:
          both("undo") { side throws(DocumentError) in try side.document.undo() }
        case 81..<83:
          both("redo") { side throws(DocumentError) in try side.document.redo() }
        case 83..<85:
          both("close group") { side throws(DocumentError) in side.document.closeGroup() }
        case 85..<88:
          clock.now += .seconds(Int.random(in: 1...3, using: &random))
        case 88..<90:
          let length = (try? held.document.content.storage(id).length) ?? 0
          let lower = Int.random(in: 0...length, using: &random)
          let upper = min(length, lower + Int.random(in: 0...4, using: &random))
          let value: AttributeValue? =
            Bool.random(using: &random) ? .inlinePresentationIntent(.stronglyEmphasized) : nil
          both("bold \(lower)..<\(upper)") { side throws(DocumentError) in
            try side.document.setAttributes(
              [.inlinePresentationIntent: value], in: id, range: lower..<upper)
          }
        case 90..<91:
          let length = (try? held.document.content.storage(id).length) ?? 0
          let lower = Int.random(in: 0...length, using: &random)
          let upper = min(length, lower + Int.random(in: 0...4, using: &random))
          let excluded = Bool.random(using: &random)
          both("exclude \(lower)..<\(upper)") { side throws(DocumentError) in
            try side.document.setExcluded(excluded, in: id, range: lower..<upper)
          }
        case 91..<94:
          // A peer's edit on an older version.
          guard let basis = versions.randomElement(using: &random) else { break }
          let lower = Int.random(in: 0...8, using: &random)
          let upper = lower + Int.random(in: 0...2, using: &random)
          let text = Self.text(&random)
          both("peer \(lower)..<\(upper) at \(basis)") { side throws(DocumentError) in
            try side.document.edit(
              id, range: lower..<upper, with: text, origin: "peer", basis: basis)
          }
        case 94..<95:
          both("type in scalars") { side throws(DocumentError) in
            let scalar = try side.document.content.convert(
              at..<at, in: id, from: .utf16, to: .unicodeScalars)
            return try side.document.edit(id, range: scalar, in: .unicodeScalars, with: "s")
          }
        case 95..<97:
          both("map from an old version") { side throws(DocumentError) in
            try side.document.map(at, in: id, from: versions.first ?? StorageVersion(rawValue: 0))
          }
        default:
          let a = digest(held)
          let b = digest(plain)
          #expect(a == b, "\(place): the documents differ")
          if a != b { return }
        }
        if Int.random(in: 0..<20, using: &random) == 0,
          let version = try? held.document.content.storage(id).version
        {
          versions.append(version)
        }
        _ = what
      }
      let a = digest(held)
      let b = digest(plain)
      #expect(a == b, "seed \(seed), round \(round): the documents differ at the end")
      if a != b { return }
    }
  }

  /// A run of keystrokes in a live context: each gets its version and its
  /// event at once, the storage takes the text when it is read.
  @Test(arguments: [true, false])
  func aRunInALiveContextIsHeldAndGivesEachKeystrokeItsEvent(_ buffering: Bool) throws {
    let document = Document()
    document.buffersTyping = buffering
    try document.add("body", text: Rope("One two.\nThree.\n"))
    try document.select([SelectionRange("body", 0..<8)])
    let session = try document.startSession(scope: .userSelection)
    let context = session.contexts[0].id
    let cut = session.contexts[0].range
    #expect(cut == 0..<8)
    try document.edit("body", range: 3..<3, with: "!")
    var versions: [Int] = []
    for (i, c) in "abc😀".enumerated() {
      let at = 4 + i
      let result = try document.edit("body", range: at..<at, with: String(c))
      versions.append(result.version.rawValue)
      #expect(
        result.events == [
          .textUpdated(
            context: context, range: at..<at, text: String(c),
            contextVersion: ContextVersion(rawValue: i + 2))
        ])
    }
    #expect(versions == [2, 3, 4, 5])
    #expect(document.readingState { $0.held.isOpen } == buffering)
    #expect(String(try document.content.storage("body").text) == "One!abc😀 two.\nThree.\n")
    let live = try document.liveContext(context)
    #expect(live.storageRange == 0..<15)
    #expect(live.contextVersion == ContextVersion(rawValue: 5))
    // Every version stays a version a tool may name: after "a" then, after
    // "abc😀" now.
    let mapped = try document.map(5, in: "body", from: StorageVersion(rawValue: 2))
    #expect(mapped.offset == 9)
  }
}

extension TypingBufferTests {
  /// Typing at each edge of a live context, at the edge of a host's range
  /// of every rule, and right after a peer's edit: the same results and
  /// the same document held back or not.
  @Test func typingAtTheEdgesMatchesTheUsualPath() throws {
    for rules in [
      TrackingRules(), TrackingRules(expand: .both), TrackingRules(bias: .right),
      TrackingRules(onTouch: .remove), TrackingRules(expand: .after, onTouch: .remove),
    ] {
      for edge in 0..<4 {
        let clock = ManualClock()
        let (held, plain) = try makeSides(clock)
        var results: [[String]] = []
        for side in [held, plain] {
          var lines: [String] = []
          let document = side.document
          try document.select([SelectionRange("a", 4..<6)])
          let session = try document.startSession(scope: .userSelection)
          side.contexts = session.contexts.map(\.id)
          side.known = side.contexts
          let live = try document.liveContext(side.contexts[0])
          var at =
            switch edge {
            case 0: live.storageRange.lowerBound
            case 1: live.storageRange.upperBound
            case 2: 6
            default: 4
            }
          if edge >= 2 {
            lines.append("\(try document.track([4..<6], in: "a", rules: rules))")
          }
          for text in ["x", "😀", "y", "e\u{301}", "z"] {
            lines.append(side.normalized(try document.edit("a", range: at..<at, with: text)))
            at += text.utf16.count
          }
          lines.append(digest(side))
          results.append(lines)
        }
        #expect(results[0] == results[1], "edge \(edge), \(rules)")
      }
    }
  }
}

extension TypingBufferTests {
  /// A backspace over held text opens the person's deletion group, which
  /// records the selection before it: where the held text put it (a
  /// selection that starts at the run's start went along with it). Undo
  /// gives it back as the usual path does.
  @Test func aBackspaceOverHeldTextRecordsTheSelectionWhereTheTextPutIt() throws {
    let clock = ManualClock()
    let (held, plain) = try makeSides(clock)
    var results: [[String]] = []
    for side in [held, plain] {
      let document = side.document
      var lines: [String] = []
      try document.edit("a", range: 4..<4, with: "-")
      try document.select([SelectionRange("a", 5..<7)])
      for (i, text) in ["x", "y", "z"].enumerated() {
        lines.append("\(try document.edit("a", range: (5 + i)..<(5 + i), with: text))")
      }
      lines.append("\(try document.edit("a", range: 7..<8, with: ""))")
      lines.append("\(try document.edit("a", range: 6..<7, with: ""))")
      lines.append("\(document.selection)")
      lines.append("\(try document.undo())")
      lines.append("\(try document.undo())")
      lines.append(digest(side))
      results.append(lines)
    }
    #expect(results[0] == results[1])
    // The selection before the deletion group: 5..<7 with "xyz" typed at
    // its start, which went along (8..<10).
    let undone = results[0][6]
    #expect(undone.contains("offset: 8)") && undone.contains("offset: 10)"), "\(undone)")
  }
}

extension TypingBufferTests {
  /// A host that reads after every keystroke gains nothing from typing held
  /// back: after a few such reads the keystrokes go the usual way for a
  /// while, then a run may open again.
  @Test func readingAfterEveryKeystrokePausesTheRuns() throws {
    let document = Document()
    try document.add("body", text: Rope("One two.\n"))
    var at = 3
    func type(reading: Bool) throws {
      try document.edit("body", range: at..<at, with: "x")
      at += 1
      if reading { _ = try document.content.storage("body").length }
    }
    for _ in 0..<8 { try type(reading: true) }
    #expect(document.readingState { $0.held.pause > 0 && !$0.held.isOpen })
    for _ in 0..<_TypingBuffer.pauseLength { try type(reading: false) }
    try type(reading: false)
    try type(reading: false)
    #expect(document.readingState { $0.held.isOpen })
    #expect(
      String(try document.content.storage("body").text)
        == "One" + String(repeating: "x", count: 8 + _TypingBuffer.pauseLength + 2) + " two.\n")
  }
}

extension TypingBufferTests {
  /// Four tasks type runs (with backspaces) into storages of their own of
  /// one document while two read it (snapshots, the selection): every
  /// keystroke lands, each storage ends as its typist typed it (run under
  /// the thread sanitizer in CI).
  @Test func concurrentTypingAndReadingKeepEveryKeystroke() async throws {
    let document = Document()
    let typists = 4
    for i in 0..<typists { try document.add(StorageID("s\(i)"), text: Rope("start\n")) }
    let expected = await withTaskGroup(of: (Int, [UInt16]).self) { group in
      for i in 0..<typists {
        group.addTask {
          let id = StorageID("s\(i)")
          var model = Array("start\n".utf16)
          var random = SeededRandom(seed: UInt64(i + 1))
          var at = 5
          for _ in 0..<2_000 {
            if Int.random(in: 0..<8, using: &random) == 0, at > 0 {
              // A backspace over one character (both halves of a pair).
              let k = (0xDC00...0xDFFF).contains(model[at - 1]) ? 2 : 1
              _ = try? document.edit(id, range: (at - k)..<at, with: "")
              model.removeSubrange((at - k)..<at)
              at -= k
            } else {
              let text = ["a", "é", "😀", " "][Int.random(in: 0..<4, using: &random)]
              _ = try? document.edit(id, range: at..<at, with: text)
              model.insert(contentsOf: Array(text.utf16), at: at)
              at += text.utf16.count
            }
          }
          return (i, model)
        }
      }
      for _ in 0..<2 {
        group.addTask {
          var total = 0
          for _ in 0..<500 {
            let content = document.content
            for i in 0..<typists {
              total &+= (try? content.storage(StorageID("s\(i)")).length) ?? 0
            }
            total &+= document.selection.count
          }
          return (-1, [UInt16(truncatingIfNeeded: total)])
        }
      }
      var texts: [Int: [UInt16]] = [:]
      for await (i, text) in group where i >= 0 { texts[i] = text }
      return texts
    }
    for i in 0..<typists {
      let text = String(try document.content.storage(StorageID("s\(i)")).text)
      #expect(Array(text.utf16) == expected[i])
    }
  }
}
