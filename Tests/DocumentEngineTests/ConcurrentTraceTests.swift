import EditingTraces
import Foundation
import Testing
import TextRope
import _EngineTestSupport

@testable import DocumentEngine

/// Real concurrent typing through origin-tagged edits.
///
/// `friendsforever_flat` (two people typing at once) and `clownschool_flat`
/// (three) are shipped linearized: each edit positioned in the text right
/// before it. The replay gives each edit back to an author (the one whose
/// last edit was nearest) and lets each author see the others' edits only
/// when it syncs, every few of its own edits. An edit is then sent as its
/// author made it: positioned in the version it had seen plus its own later
/// edits, found through character identities, and checked with the client
/// side of Jupiter to land where the trace has it (when an author could not
/// have made it without seeing more, it syncs first). The engine must
/// transform every edit to the trace's exact final text.
@Suite struct ConcurrentTraceTests {
  /// An author: its view of the text (as character identities) and the
  /// edits it sent that the server has not echoed yet.
  struct Author {
    var name: String
    var known: Int
    var view: [Int]
    var pending: [(operation: _Operation, ids: [Int], basis: Int)] = []
    var lastPosition = 0
    var unsynced = 0
  }

  struct Record {
    var range: Range<Int>
    var ids: [Int]
    var party: EditParty
    var isContinuation: Bool
  }

  static func apply(_ op: _Operation, ids: [Int], to view: inout [Int]) {
    for (i, piece) in op.pieces.enumerated().reversed() {
      guard piece.range.upperBound <= view.count else {
        Issue.record("\(op) past the view's end \(view.count)")
        return
      }
      view.replaceSubrange(piece.range, with: i == 0 ? ids : [])
    }
  }

  /// Folds the server's records into an author's view (Jupiter's client).
  static func catchUp(_ author: inout Author, _ records: [Record], from offset: Int) {
    let party = EditParty.origin(author.name)
    while author.known - offset < records.count {
      let record = records[author.known - offset]
      author.known += 1
      if record.party == party {
        if !record.isContinuation && !author.pending.isEmpty { author.pending.removeFirst() }
        continue
      }
      var other = _Operation(record.range, length: record.ids.count, party: record.party)
      for i in author.pending.indices {
        let mine = author.pending[i].operation
        author.pending[i].operation = mine.transformed(against: other)
        other = other.transformed(against: mine)
      }
      apply(other, ids: record.ids, to: &author.view)
    }
  }

  func replay(_ name: String, authors count: Int, seed: UInt64) throws -> (edits: Int, stale: Int) {
    let trace = try EditingTrace(contentsOf: TestData.trace(name))
    var random = SeededRandom(seed: seed)
    let document = Document()
    try document.add("doc", text: Rope(trace.startContent))
    var serverIDs = Array(0..<trace.startContent.utf16.count)
    var nextID = serverIDs.count
    var records: [Record] = []
    var offset = 0  // the version of records[0]
    var authors = (0..<count).map {
      Author(name: ["ann", "bob", "cyd"][$0], known: 0, view: serverIDs)
    }
    // Each author pins the oldest version it may still name: its basis, or
    // that of its oldest edit in flight.
    func needed(_ author: Author) -> Int { author.pending.first?.basis ?? author.known }
    for _ in authors.indices { try document.pin("doc", version: 0) }
    var stale = 0
    var edits = 0
    // With the internal checks compiled in, every edit checks the whole
    // rope: a prefix of the trace keeps that fast.
    #if ENGINE_INTERNAL_CHECKS
    let defaultLimit = 1500
    #else
    let defaultLimit = trace.patches.count
    #endif
    let limit = Int(ProcessInfo.processInfo.environment["TRACE_LIMIT"] ?? "") ?? defaultLimit
    for patch in trace.patches.prefix(limit) {
      let text = Array(patch.insert.utf16)
      let position = patch.position
      let linear = position..<(position + patch.deleteCount)
      // The author: the one whose last edit is nearest.
      var a = 0
      for i in authors.indices
      where abs(authors[i].lastPosition - position) < abs(authors[a].lastPosition - position) {
        a = i
      }
      var author = authors[a]
      let party = EditParty.origin(author.name)
      let ids = (0..<text.count).map { nextID + $0 }
      nextID += text.count
      // Sync every few edits.
      author.unsynced += 1
      if author.unsynced > Int.random(in: 1...12, using: &random) {
        Self.catchUp(&author, records, from: offset)
        author.unsynced = 0
      }
      // The edit in the author's view, found by identities.
      var candidate: _Operation? = nil
      let deleted = Array(serverIDs[linear])
      if let first = deleted.first {
        if let i = author.view.firstIndex(of: first), i + deleted.count <= author.view.count,
          Array(author.view[i..<(i + deleted.count)]) == deleted
        {
          candidate = _Operation(i..<(i + deleted.count), length: text.count, party: party)
        }
      } else if position == 0 {
        candidate = _Operation(0..<0, length: text.count, party: party)
      } else if let i = author.view.firstIndex(of: serverIDs[position - 1]) {
        candidate = _Operation((i + 1)..<(i + 1), length: text.count, party: party)
      }
      // Check with the client side that it lands where the trace has it.
      var lands = false
      if let candidate {
        var probe = author
        probe.pending.append((candidate, ids, probe.known))
        Self.apply(candidate, ids: ids, to: &probe.view)
        Self.catchUp(&probe, records, from: offset)
        lands = probe.pending.last?.operation.pieces == [_Piece(range: linear, length: text.count)]
      }
      let basis: Int
      let op: _Operation
      if let candidate, lands {
        basis = author.known
        op = candidate
      } else {
        Self.catchUp(&author, records, from: offset)
        basis = author.known
        op = _Operation(linear, length: text.count, party: party)
      }
      let version = offset + records.count
      if basis < version { stale += 1 }
      let result = try document.edit(
        "doc", range: op.pieces[0].range, with: String(decoding: text, as: UTF16.self),
        origin: author.name, basis: StorageVersion(basis))
      #expect(result.range == position..<(position + text.count), "\(name) edit \(edits)")
      edits += 1
      author.pending.append((op, ids, basis))
      Self.apply(op, ids: ids, to: &author.view)
      author.lastPosition = position + text.count
      guard linear.upperBound <= serverIDs.count else {
        Issue.record("\(name) edit \(edits): \(linear) past \(serverIDs.count)")
        return (edits, stale)
      }
      serverIDs.replaceSubrange(linear, with: ids)
      records.append(Record(range: linear, ids: ids, party: party, isContinuation: false))
      // Pins follow what the authors have seen; older records go.
      let before = needed(authors[a])
      authors[a] = author
      if needed(author) != before {
        try document.pin("doc", version: StorageVersion(needed(author)))
        document.unpin("doc", version: StorageVersion(before))
      }
      let oldest = authors.map(needed).min() ?? version
      if oldest > offset {
        records.removeFirst(oldest - offset)
        offset = oldest
      }
    }
    let final = String(try document.content.storage("doc").text)
    if limit == trace.patches.count { #expect(final == trace.endContent, "\(name)") }
    return (edits, stale)
  }

  @Test(arguments: [("friendsforever_flat", 2), ("clownschool_flat", 3)])
  func concurrentTracesReachTheirFinalText(name: String, authors: Int) throws {
    let seed = TestSettings.seed("ConcurrentTraceTests.\(name)")
    let (edits, stale) = try replay(name, authors: authors, seed: seed)
    print("\(name): \(edits) edits, \(stale) on an older version than the server's")
    // Most edits really are concurrent.
    #expect(stale * 2 > edits)
  }
}
