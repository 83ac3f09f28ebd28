import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A context of the current session, followed through every edit.
struct _LiveContext: Sendable {
  let id: UUID
  let storage: StorageID
  /// Where its text is now in the storage.
  var range: Range<Int>
  var contextVersion = 0
  /// For each context version: the storage version at which the context
  /// reached it, and where its text was then.
  var history: [(version: Int, start: Int, length: Int)]
}

/// A replacement the session made, followed through later edits so that undo
/// and revert can put the original text back.
///
/// Undo and redo go back exactly through the session's own edits: when a
/// replacement (or its undo or redo) swaps the text of its range, the ends
/// of the other replacements that fall in that range collapse onto it, and
/// their places inside it are kept in ``collapsed``; the next swap of the
/// same replacement puts them back there. So undoing the session's edits in
/// reverse order gives back every range, and every text, exactly.
struct _Replacement: Sendable {
  let storage: StorageID
  /// The context it was made in.
  let context: UUID
  /// Where its text is now.
  var range: Range<Int>
  let oldText: String
  let newText: String
  /// False once an edit of someone else touched its text, or its storage
  /// was removed: it is then left alone (and no longer followed).
  var intact: Bool
  /// True while its original text is back (undone or reverted).
  var undone = false
  /// The ends of other replacements that its last swap collapsed, by
  /// ``_SessionState/endKey(_:isUpper:)``, with their offsets from the start
  /// of the text that swap replaced.
  var collapsed: [Int: Int] = [:]
  /// The later replacements that changed part of its text: it can go back
  /// only while each of them is undone.
  var coveredBy: [Int] = []
}

/// Who causes an edit, for what it does to the session's own records.
enum _Actor: Equatable {
  /// The person or an origin: events for every context, and it breaks the
  /// replacements it touches.
  case other
  /// The session's tool, replacing in its context: that context hears
  /// nothing (the caller updates it).
  case tool(UUID)
  /// The session undoing, redoing or reverting its replacement `index`
  /// (the caller updates that replacement).
  case session(Int)
}

/// The live part of a Writing Tools session.
struct _SessionState: Sendable {
  let session: WritingSession
  let party: EditParty
  var state: WritingToolsState = .inactive
  var contexts: [_LiveContext]
  var replacements: [_Replacement] = []
  var undoStack: [[Int]] = []
  var redoStack: [[Int]] = []
  /// The replacements of the streaming phase under way.
  var streamingGroup: [Int]? = nil
  var marks: [Mark] = []
  var nextMark = 1
  /// The storage version after the tool's last replacement, by storage.
  var lastReplacement: [StorageID: Int] = [:]
  /// The ends that the tool's replacement being applied collapsed (see
  /// ``_Replacement/collapsed``), until it is recorded.
  var pendingCollapsed: [Int: Int] = [:]

  /// The key of an end of replacement `index` in a ``_Replacement/collapsed``
  /// table.
  static func endKey(_ index: Int, isUpper: Bool) -> Int { 2 * index + (isUpper ? 1 : 0) }

  /// Forgets everything about a storage that was removed: its contexts,
  /// marks and replacements belong to that life of the storage, not to one
  /// added later under the same id.
  mutating func forget(_ id: StorageID) {
    contexts.removeAll { $0.storage == id }
    marks.removeAll { $0.storage == id }
    for i in replacements.indices where replacements[i].storage == id {
      replacements[i].intact = false
    }
    lastReplacement[id] = nil
  }

  /// Closes the streaming phase's undo group.
  mutating func closeGroup() {
    if let group = streamingGroup, !group.isEmpty { undoStack.append(group) }
    streamingGroup = nil
  }
}

/// Where positions go through one edit (`s..<e` replaced by `n` units) when
/// they bound a tracked range: the start goes after an insertion at it, the
/// end stays before one, so that text typed right at either edge stays
/// outside.
struct _EdgeMapping {
  let s: Int
  let e: Int
  let n: Int

  func start(_ p: Int) -> Int {
    if p < s { return p }
    if p == s { return e > s ? s : s + n }
    if p < e { return s + n }
    return p + n - (e - s)
  }

  func end(_ p: Int) -> Int {
    if p <= s { return p }
    if p < e { return s }
    return p + n - (e - s)
  }

  /// The range mapped, never inverted.
  func range(_ r: Range<Int>) -> Range<Int> {
    let a = start(r.lowerBound)
    return a..<max(a, end(r.upperBound))
  }

  /// Whether the edit changes text inside `r`: it replaces a unit of it, or
  /// its new text lands inside it.
  func touches(_ r: Range<Int>) -> Bool {
    if max(s, r.lowerBound) < min(e, r.upperBound) { return true }
    let mapped = range(r)
    return n > 0 && mapped.lowerBound <= s && s + n <= mapped.upperBound
  }
}

extension _SessionState {
  /// Follows the intact replacements of storage `id` through an edit of the
  /// person or an origin: a replacement whose text it touches is theirs now
  /// (no longer intact).
  ///
  /// Where the edit inserts at the point of a replacement that left no text
  /// (a deletion), its text goes back before the insertion if the point ends
  /// its context or another replacement (whose text it was part of), else
  /// after it, as at the start of any range.
  mutating func followReplacements(throughOthersEdit edge: _EdgeMapping, in id: StorageID) {
    var ends: Set<Int>? = nil
    for i in replacements.indices where replacements[i].storage == id && replacements[i].intact {
      let old = replacements[i].range
      if edge.touches(old) {
        replacements[i].intact = false
        continue
      }
      if old.isEmpty && edge.s == edge.e && old.lowerBound == edge.s {
        if ends == nil {
          // Computed once, and only for such an insertion.
          var found = Set(
            contexts.filter { $0.storage == id }.map(\.range.upperBound))
          for r in replacements where r.storage == id && r.intact && !r.range.isEmpty {
            found.insert(r.range.upperBound)
          }
          ends = found
        }
        if ends?.contains(edge.s) == true { continue }
      }
      replacements[i].range = edge.range(old)
    }
  }

  /// Follows the intact replacements of storage `id` through one of the
  /// session's own edits: a new replacement (`swapped` nil) or the swap of
  /// replacement `swapped`. Ends inside the edited range collapse onto it
  /// and are remembered; those that the previous swap of the same
  /// replacement collapsed go back where they were.
  mutating func followReplacements(through edge: _EdgeMapping, in id: StorageID, swapped: Int?) {
    let restoring = swapped.map { replacements[$0].collapsed } ?? [:]
    let newIndex = replacements.count
    var collapsed: [Int: Int] = [:]
    for i in replacements.indices
    where replacements[i].storage == id && replacements[i].intact && i != swapped {
      let old = replacements[i].range
      if swapped == nil && edge.touches(old) { replacements[i].coveredBy.append(newIndex) }
      var lower = edge.start(old.lowerBound)
      var upper = edge.end(old.upperBound)
      for (end, isUpper) in [(old.lowerBound, false), (old.upperBound, true)]
      where edge.s <= end && end <= edge.e {
        let key = Self.endKey(i, isUpper: isUpper)
        collapsed[key] = end - edge.s
        if let offset = restoring[key] {
          let back = edge.s + min(offset, edge.n)
          if isUpper { upper = back } else { lower = back }
        }
      }
      replacements[i].range = lower..<max(lower, upper)
    }
    if let swapped {
      replacements[swapped].collapsed = collapsed
    } else {
      pendingCollapsed = collapsed
    }
  }
}

extension Document.State {
  /// Applies one storage edit and everything that follows from it: the
  /// change record, the live contexts (with their events), the session's
  /// replacements and marks, the selection and visible ranges.
  ///
  /// - Throws: ``DocumentError``; nothing changes.
  mutating func apply(
    _ id: StorageID, _ range: Range<Int>, _ text: String, record: ChangeRecord, actor: _Actor
  ) throws(DocumentError) -> (version: Int, events: [DocumentEvent]) {
    let version = try content.edit(id, range: range, with: text, record: record)
    let edge = _EdgeMapping(s: range.lowerBound, e: range.upperBound, n: record.insertedLength)
    var events: [DocumentEvent] = []
    if var live = session {
      // Moved out, so that the session's arrays are changed in place (a
      // context's history grows with every edit inside it).
      session = nil
      // The context whose text the session's own edit changes, and the
      // replacement swapped back or forth (undo, redo, revert).
      var owner: UUID? = nil
      var swapped: Int? = nil
      switch actor {
      case .other: break
      case .tool(let context): owner = context
      case .session(let index):
        owner = live.replacements[index].context
        swapped = index
      }
      if owner == nil {
        live.followReplacements(throughOthersEdit: edge, in: id)
      } else {
        live.followReplacements(through: edge, in: id, swapped: swapped)
      }
      for i in live.contexts.indices where live.contexts[i].storage == id {
        let old = live.contexts[i].range
        if owner == live.contexts[i].id
          && (swapped == nil || (old.lowerBound <= edge.s && edge.e <= old.upperBound))
        {
          // Its own text changed: the context grows or shrinks with it.
          live.contexts[i].range = old.lowerBound..<(old.upperBound + edge.n - range.count)
          if swapped != nil {
            // Undo and redo are edits the tool hears about.
            live.contexts[i].contextVersion += 1
            let now = live.contexts[i].range
            live.contexts[i].history.append((version, now.lowerBound, now.count))
            events.append(
              .textUpdated(
                context: live.contexts[i].id,
                range: (edge.s - old.lowerBound)..<(edge.e - old.lowerBound), text: text,
                contextVersion: live.contexts[i].contextVersion))
          }
          continue
        }
        let new = edge.range(old)
        live.contexts[i].range = new
        if edge.touches(old) {
          let lo = max(edge.s, old.lowerBound)
          let hi = max(lo, min(edge.e, old.upperBound))
          let inside = edge.n > 0 && new.lowerBound <= edge.s && edge.s + edge.n <= new.upperBound
          live.contexts[i].contextVersion += 1
          live.contexts[i].history.append((version, new.lowerBound, new.count))
          events.append(
            .textUpdated(
              context: live.contexts[i].id, range: (lo - old.lowerBound)..<(hi - old.lowerBound),
              text: inside ? text : "", contextVersion: live.contexts[i].contextVersion))
        } else if edge.e <= old.lowerBound && !(edge.e == edge.s && edge.n == 0) {
          events.append(.reflowed(context: live.contexts[i].id))
        }
      }
      for i in live.marks.indices where live.marks[i].storage == id {
        live.marks[i].range = edge.range(live.marks[i].range)
      }
      session = live
    }
    // In place: the selection is rarely empty, and a keystroke should not
    // allocate a new one.
    for i in selection.indices {
      let selected = selection[i]
      var mapped = selected
      if selected.isCaret {
        if selected.start.storage == id {
          let p = edge.start(selected.start.offset)
          mapped = SelectionRange(caret: TextPosition(id, p))
        }
        selection[i] = mapped
        continue
      }
      if selected.start.storage == id { mapped.start.offset = edge.start(selected.start.offset) }
      if selected.end.storage == id { mapped.end.offset = edge.end(selected.end.offset) }
      if mapped.start.storage == mapped.end.storage && mapped.end.offset < mapped.start.offset {
        mapped.end.offset = mapped.start.offset
      }
      selection[i] = mapped
    }
    if let shown = visible[id] { visible[id] = edge.range(shown) }
    if !keepsAllHistory && session == nil {
      try? content.withChanges(id) { (log) throws(DocumentError) in log.trim() }
    }
    return (version, events)
  }

  /// Applies a transformed operation, its pieces from the last to the first;
  /// the first piece carries `text`, the first applied record `original`.
  mutating func apply(
    _ id: StorageID, _ operation: _Operation, text: String, original: _Operation?,
    basis: Int, actor: _Actor
  ) throws(DocumentError) -> (version: Int, events: [DocumentEvent]) {
    var events: [DocumentEvent] = []
    var version = 0
    let count = operation.pieces.count
    for (i, piece) in operation.pieces.enumerated().reversed() {
      let record = ChangeRecord(
        range: piece.range, insertedLength: i == 0 ? text.utf16.count : 0,
        party: operation.party, original: i == count - 1 ? original : nil, basis: basis,
        isContinuation: i != count - 1)
      let result = try apply(id, piece.range, i == 0 ? text : "", record: record, actor: actor)
      version = result.version
      events += result.events
    }
    return (version, events)
  }

  /// Checks that every piece of `operation` has its bounds on scalar
  /// boundaries of the storage's current text.
  func checkBounds(_ operation: _Operation, in id: StorageID) throws(DocumentError) {
    let storage = try content.storage(id)
    for piece in operation.pieces {
      for offset in [piece.range.lowerBound, piece.range.upperBound] {
        do {
          _ = try storage.text.utf8Offset(of: offset, in: .utf16)
        } catch {
          throw .invalidRange(id, error)
        }
      }
    }
  }

  /// How much a party's own edits since `version` changed a storage's
  /// length (the person's view has no own edits: 0).
  func ownDelta(
    of id: StorageID, since version: Int, party: EditParty
  ) throws(DocumentError) -> Int {
    let log = try content.storage(id).changes
    guard log.hasEdits(by: party, after: version) else {
      // Still check that the version is known.
      do {
        try log.check(version)
      } catch {
        throw .staleVersion(version)
      }
      return 0
    }
    let records: ArraySlice<ChangeRecord>
    do {
      records = try log.records(since: version)
    } catch {
      throw .staleVersion(version)
    }
    guard party != .person else { return 0 }
    return records.reduce(0) {
      $0 + ($1.party == party ? $1.insertedLength - $1.range.count : 0)
    }
  }

  /// The length of a party's view of a storage: the storage at `version`
  /// plus the party's own edits since.
  func viewLength(
    of id: StorageID, at version: Int, party: EditParty
  ) throws(DocumentError) -> Int {
    let delta = try ownDelta(of: id, since: version, party: party)
    return try content.storage(id).changes.length(at: version) + delta
  }

}
