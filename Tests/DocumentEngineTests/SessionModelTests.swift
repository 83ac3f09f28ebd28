import Foundation
import Testing
import TextRope
import _EngineTestSupport

@testable import DocumentEngine

/// A reference model of the offset index: plain character arrays, edits
/// applied one by one, and Jupiter's client side written out — each writer
/// (the tool, each origin) keeps its own view of the text and a queue of the
/// edits it sent, and folds in the other writers' edits one at a time. The
/// engine does the server side (a bridge of unseen edits per request, a
/// composed map for the basis a context was made at); the two must agree on
/// every text, every landing place and every refusal.
@Suite struct SessionModelTests {
  /// One recorded edit, with its text.
  struct Record {
    var range: Range<Int>
    var text: [Character]
    var party: EditParty
    var isContinuation: Bool
  }

  /// A writer's side of Jupiter.
  struct Client {
    var party: EditParty
    /// How many records it has folded in (a storage version).
    var known: Int
    /// Its view: the text at `known` plus its pending edits.
    var view: [Character]
    /// Its edits not yet folded back, each in the frame of the view before
    /// it, with their text.
    var pending: [(operation: _Operation, text: [Character])] = []

    /// Folds in `records[known...]`; with `watch`, reports whether an edit
    /// of someone else touched the last pending edit.
    mutating func catchUp(_ records: [Record], watchLast: Bool = false) -> Bool {
      var touched = false
      while known < records.count {
        let record = records[known]
        known += 1
        if record.party == party {
          if !record.isContinuation && !pending.isEmpty { pending.removeFirst() }
          continue
        }
        var other = _Operation(record.range, length: record.text.count, party: record.party)
        for i in pending.indices {
          let mine = pending[i].operation
          if watchLast && i == pending.count - 1 {
            for piece in other.pieces.reversed() where mine.isTouched(by: piece) { touched = true }
          }
          pending[i].operation = mine.transformed(against: other)
          other = other.transformed(against: mine)
        }
        view = SessionModelTests.apply(other, text: record.text, to: view)
      }
      return touched
    }
  }

  static func apply(_ op: _Operation, text: [Character], to string: [Character]) -> [Character] {
    var result = string
    for (i, piece) in op.pieces.enumerated().reversed() {
      result.replaceSubrange(piece.range, with: i == 0 ? text : [])
    }
    return result
  }

  /// The model's server: the text and every record.
  struct Server {
    var text: [Character]
    var records: [Record] = []

    /// Applies a transformed operation as the engine does: pieces from the
    /// last, the first piece with the text.
    mutating func apply(_ op: _Operation, text new: [Character]) {
      for (i, piece) in op.pieces.enumerated().reversed() {
        let inserted = i == 0 ? new : []
        text.replaceSubrange(piece.range, with: inserted)
        records.append(
          Record(
            range: piece.range, text: inserted, party: op.party,
            isContinuation: i != op.pieces.count - 1))
      }
    }
  }

  /// Where a tracked range's bounds go through one edit: insertions at its
  /// start or end stay outside.
  static func track(_ r: Range<Int>, _ s: Int, _ e: Int, _ n: Int) -> Range<Int> {
    func start(_ p: Int) -> Int {
      p < s ? p : (p == s ? (e > s ? s : s + n) : (p < e ? s + n : p + n - (e - s)))
    }
    func end(_ p: Int) -> Int { p <= s ? p : (p < e ? s : p + n - (e - s)) }
    let a = start(r.lowerBound)
    return a..<max(a, end(r.upperBound))
  }

  @Test func randomInterleavingsAgreeWithTheModel() throws {
    let seed = TestSettings.seed("SessionModelTests.interleavings")
    var random = SeededRandom(seed: seed)
    for round in 0..<TestSettings.iterations(60) {
      try runRound(&random, label: "seed \(seed) round \(round)")
    }
  }

  func runRound(_ random: inout SeededRandom, label: String) throws {
    let initial = Array("ab\ncd\nefg\nhij\n")
    let document = Document(keepsAllChanges: true)
    try document.add("doc", text: Rope(String(initial)))
    var server = Server(text: initial)
    // The tool's context: the paragraphs "cd\nefg\n" (3..<10).
    try document.select([SelectionRange("doc", 4..<8)])
    let session = try document.startSession(scope: .userSelection)
    let context = session.contexts[0]
    #expect(context.storageRange == 3..<10, "\(label)")
    // The model's view of the context: bounds and, per context version,
    // the storage version and start.
    var bounds = context.storageRange
    var history: [(version: Int, start: Int, length: Int)] = [(0, 3, 7)]
    var tool = Client(party: .tool(1), known: 0, view: initial)
    var toolBasis = 0
    var origins = ["a", "b", "c"].prefix(Int.random(in: 1...3, using: &random)).map {
      Client(party: .origin($0), known: 0, view: initial)
    }
    var personLetter: UInt32 = 0x4E00
    var personChars: [(Character, version: Int)] = []
    let policyMerge = Bool.random(using: &random)

    for step in 0..<Int.random(in: 10...40, using: &random) {
      let place = "\(label) step \(step)"
      let choice = Int.random(in: 0..<10, using: &random)
      if choice < 4 {
        // The person types at the current version.
        let s = Int.random(in: 0...server.text.count, using: &random)
        let e = Int.random(in: s...min(server.text.count, s + 2), using: &random)
        var new: [Character] = []
        for _ in 0..<Int.random(in: 0...2, using: &random) {
          new.append(Character(Unicode.Scalar(personLetter) ?? "?"))
          personLetter += 1
        }
        if s == e && new.isEmpty {
          // A no-op makes no version and no event.
          let result = try document.edit("doc", range: s..<e, with: "")
          #expect(
            result.version.rawValue == server.records.count && result.events.isEmpty, "\(place)")
          continue
        }
        let op = _Operation(s..<e, length: new.count, party: .person)
        let result = try document.edit("doc", range: s..<e, with: String(new))
        server.apply(op, text: new)
        personChars += new.map { ($0, server.records.count) }
        #expect(result.range == s..<(s + new.count), "\(place)")
        let before = bounds
        bounds = Self.track(bounds, s, e, new.count)
        let changed =
          max(s, before.lowerBound) < min(e, before.upperBound)
          || (!new.isEmpty && bounds.lowerBound <= s && s + new.count <= bounds.upperBound)
        if changed { history.append((server.records.count, bounds.lowerBound, bounds.count)) }
        let editBefore = e <= before.lowerBound && !(s == e && new.isEmpty)
        let expectedEvents = changed || editBefore ? 1 : 0
        #expect(result.events.count == expectedEvents, "\(place) events \(result.events)")
      } else if choice < 7 {
        // An origin edits its own (maybe stale) view.
        let i = Int.random(in: 0..<origins.count, using: &random)
        if Bool.random(using: &random) { _ = origins[i].catchUp(server.records) }
        var client = origins[i]
        let s = Int.random(in: 0...client.view.count, using: &random)
        let e = Int.random(in: s...min(client.view.count, s + 2), using: &random)
        let name: String
        if case .origin(let n) = client.party { name = n } else { name = "?" }
        let new = Array(
          repeating: Character(name.uppercased()), count: Int.random(in: 0...2, using: &random))
        if s == e && new.isEmpty {
          // A no-op as the origin made it: no version, nothing recorded.
          let result = try document.edit(
            "doc", range: s..<e, with: "", origin: name, basis: StorageVersion(client.known))
          #expect(
            result.version.rawValue == server.records.count && result.events.isEmpty, "\(place)")
          continue
        }
        let op = _Operation(s..<e, length: new.count, party: client.party)
        let basis = client.known
        client.view = Self.apply(op, text: new, to: client.view)
        client.pending.append((op, new))
        // The server's result, as the client side computes it.
        var probe = client
        _ = probe.catchUp(server.records)
        let expected = try #require(probe.pending.last).operation
        let result = try document.edit(
          "doc", range: s..<e, with: String(new), origin: name, basis: StorageVersion(basis))
        let recordsBefore = server.records.count
        server.apply(expected, text: new)
        origins[i] = client
        let start = expected.pieces[0].range.lowerBound
        #expect(result.range == start..<(start + new.count), "\(place)")
        for (k, piece) in expected.pieces.reversed().enumerated() {
          let before = bounds
          bounds = Self.track(
            bounds, piece.range.lowerBound, piece.range.upperBound,
            piece == expected.pieces[0] ? new.count : 0)
          let n = piece == expected.pieces[0] ? new.count : 0
          let changed =
            max(piece.range.lowerBound, before.lowerBound)
            < min(piece.range.upperBound, before.upperBound)
            || (n > 0 && bounds.lowerBound <= piece.range.lowerBound
              && piece.range.lowerBound + n <= bounds.upperBound)
          if changed { history.append((recordsBefore + k + 1, bounds.lowerBound, bounds.count)) }
        }
      } else {
        // The tool replaces in its context, on a context version it saw.
        let toolBefore = tool
        if Bool.random(using: &random) {
          toolBasis = Int.random(in: toolBasis..<history.count, using: &random)
        }
        // The tool has seen the context version it names.
        _ = tool.catchUp(Array(server.records.prefix(history[toolBasis].version)))
        // On the current context version the range is relative to the
        // current context text: the tool's view is the current text.
        let current = toolBasis == history.count - 1
        if current { _ = tool.catchUp(server.records) }
        var client = tool
        let then =
          current
          ? (version: server.records.count, start: bounds.lowerBound, length: bounds.count)
          : history[toolBasis]
        // The context in the tool's view: its start then, its length then
        // plus the tool's own changes since.
        let ownDelta = client.pending.reduce(0) {
          $0 + $1.text.count - $1.operation.pieces.reduce(0) { $0 + $1.range.count }
        }
        let length = then.length + ownDelta
        let a = Int.random(in: 0...length, using: &random)
        let b = Int.random(in: a...min(length, a + 3), using: &random)
        let new = Array(repeating: Character("t"), count: Int.random(in: 0...2, using: &random))
        if a == b && new.isEmpty {
          // A no-op as the tool made it: no version, no context version.
          let basis = current ? nil : ContextVersion(toolBasis)
          if let result = try? document.replace(
            context: context.id, range: a..<a, with: "", basis: basis)
          {
            #expect(
              result.contextVersion.rawValue == history.count - 1 && result.events.isEmpty,
              "\(place)")
          }
          #expect(
            try document.content.storage("doc").version.rawValue == server.records.count,
            "\(place)")
          // It changed nothing the tool knows.
          tool = toolBefore
          continue
        }
        let op = _Operation((then.start + a)..<(then.start + b), length: new.count, party: .tool(1))
        client.view = Self.apply(op, text: new, to: client.view)
        client.pending.append((op, new))
        var probe = client
        let touched = probe.catchUp(server.records, watchLast: true)
        let expected = try #require(probe.pending.last).operation
        let basis = current && Bool.random(using: &random) ? nil : ContextVersion(toolBasis)
        let inside = expected.pieces.allSatisfy {
          $0.range.lowerBound >= bounds.lowerBound && $0.range.upperBound <= bounds.upperBound
        }
        do {
          let result = try document.replace(
            context: context.id, range: a..<b, with: String(new), basis: basis,
            policy: policyMerge ? .merge : .refuse)
          #expect(!touched || policyMerge, "\(place): the model refuses")
          #expect(inside, "\(place): lands outside the context")
          let personBefore = personChars.filter { server.text.contains($0.0) }
          server.apply(expected, text: new)
          tool = client
          let start = expected.pieces[0].range.lowerBound
          #expect(result.storageRange == start..<(start + new.count), "\(place)")
          // Nothing the person typed that the tool had not seen is lost.
          if !policyMerge {
            for (c, version) in personBefore where version > then.version {
              #expect(server.text.contains(c), "\(place): lost \(c)")
            }
          }
          let firstPieceEnd = bounds.upperBound
          var end = firstPieceEnd
          for (i, piece) in expected.pieces.enumerated() {
            end += (i == 0 ? new.count : 0) - piece.range.count
          }
          bounds = bounds.lowerBound..<end
          history.append((server.records.count, bounds.lowerBound, bounds.count))
          #expect(result.contextVersion.rawValue == history.count - 1, "\(place)")
          // A tool that wrote on the current text has seen it.
          if current { toolBasis = history.count - 1 }
        } catch {
          switch error {
          case .conflict:
            #expect(touched && !policyMerge, "\(place): the engine refuses, the model does not")
          case .outsideContext:
            #expect(!inside, "\(place): the engine says outside")
          default:
            Issue.record("\(place): \(error)")
          }
        }
      }
      let text = String(try document.content.storage("doc").text)
      #expect(text == String(server.text), "\(place)")
      if text != String(server.text) { return }
      let records = try document.content.storage("doc").changes.records
      #expect(records.map(\.range) == server.records.map(\.range), "\(place)")
      #expect(records.map(\.party) == server.records.map(\.party), "\(place)")
      let live = try document.liveContext(context.id)
      #expect(live.storageRange == bounds, "\(place)")
      #expect(live.contextVersion.rawValue == history.count - 1, "\(place)")
    }
    // Every origin that catches up sees the server's text.
    for var client in origins {
      _ = client.catchUp(server.records)
      #expect(String(client.view) == String(server.text), "\(label): \(client.party) diverged")
    }
  }
}
