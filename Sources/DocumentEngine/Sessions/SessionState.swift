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
  /// For each context version: the storage version at which the context
  /// reached it, and where its text was then.
  var history: [(version: StorageVersion, start: Int, length: Int)]

  /// The context's version: one for each entry of its history after the
  /// first.
  var contextVersion: ContextVersion { ContextVersion(history.count - 1) }

  /// Moves the context to its next version, reached at storage `version`
  /// with its text at ``range``.
  mutating func advance(at version: StorageVersion) {
    history.append((version, range.lowerBound, range.count))
  }
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

/// The session's intact replacements by storage, in blocks of up to
/// ``blockSize`` in the order of their starts, each with the span its
/// replacements cover and a shift pending for all of them: so that a
/// keystroke looks only at the replacements near it (see
/// ``_SessionState/followReplacements(throughOthersEdit:in:)``) instead of
/// walking every replacement the session ever made.
///
/// A replacement's text is at its `range` plus its block's `pending`.
struct _TrackedReplacements: Sendable {
  static let blockSize = 32

  struct Block: Sendable {
    /// Indices into the session's replacements.
    var members: [Int] = []
    /// The lowest start and highest end of the members' ranges, without
    /// `pending`.
    var low = Int.max
    var high = Int.min
    /// A shift that every member's range still has to take.
    var pending = 0

    mutating func add(_ index: Int, _ range: Range<Int>) {
      members.append(index)
      low = min(low, range.lowerBound - pending)
      high = max(high, range.upperBound - pending)
    }
  }

  var blocks: [StorageID: [Block]] = [:]
  /// For each storage, how many of the session's replacements its blocks
  /// have taken in (those made later are new to it).
  var scanned: [StorageID: Int] = [:]
}

/// The live part of a Writing Tools session.
struct _SessionState: Sendable {
  let session: WritingSession
  let party: EditParty
  var state: WritingToolsState = .inactive
  var contexts: [_LiveContext]
  var replacements: [_Replacement] = []
  /// The intact replacements in blocks, for keystrokes.
  var tracked = _TrackedReplacements()
  var undoStack: [[Int]] = []
  var redoStack: [[Int]] = []
  /// The replacements of the streaming phase under way.
  var streamingGroup: [Int]? = nil
  var marks: [Mark] = []
  var nextMark = 1
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
    tracked.blocks[id] = nil
    tracked.scanned[id] = replacements.count
  }

  /// Closes the streaming phase's undo group.
  mutating func closeGroup() {
    if let group = streamingGroup, !group.isEmpty { undoStack.append(group) }
    streamingGroup = nil
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
  ///
  /// Only the blocks of ``tracked`` whose span meets the edit are looked at
  /// one replacement at a time; a block entirely after it only adds the
  /// edit's change of length to its pending shift, and one entirely before
  /// it is passed over.
  ///
  /// - Complexity: O(R/B + B·t) for R intact replacements in blocks of B,
  ///   t of the blocks meeting the edit.
  mutating func followReplacements(throughOthersEdit edge: _EditStep, in id: StorageID) {
    // No replacement to follow (the usual keystroke): no lookup either.
    guard !tracked.blocks.isEmpty, let slot = tracked.blocks.index(forKey: id) else { return }
    // Moved out and back where it lies, so that it is changed in place.
    var blocks: [_TrackedReplacements.Block] = []
    swap(&blocks, &tracked.blocks.values[slot])
    defer { swap(&blocks, &tracked.blocks.values[slot]) }
    let delta = edge.delta
    var ends: Set<Int>? = nil
    for b in blocks.indices where !blocks[b].members.isEmpty {
      let pending = blocks[b].pending
      if blocks[b].high + pending < edge.s { continue }
      if blocks[b].low + pending > edge.e {
        blocks[b].pending += delta
        continue
      }
      // The block meets the edit: each of its replacements in turn; those
      // the edit touched leave the block (kept ones are moved down in place).
      blocks[b].pending = 0
      var kept = 0
      var low = Int.max
      var high = Int.min
      for k in blocks[b].members.indices {
        let i = blocks[b].members[k]
        var old = replacements[i].range
        if pending != 0 { old = (old.lowerBound + pending)..<(old.upperBound + pending) }
        replacements[i].range = old
        if edge.changesText(in: old) {
          replacements[i].intact = false
          continue
        }
        var new = edge.range(old)
        if old.isEmpty && edge.s == edge.e && old.lowerBound == edge.s {
          if ends == nil { ends = rangeEnds(in: id, blocks: blocks) }
          if ends?.contains(edge.s) == true { new = old }
        }
        replacements[i].range = new
        blocks[b].members[kept] = i
        kept += 1
        low = min(low, new.lowerBound)
        high = max(high, new.upperBound)
      }
      blocks[b].members.removeLast(blocks[b].members.count - kept)
      blocks[b].low = low
      blocks[b].high = high
    }
  }

  /// The ends of storage `id`'s contexts and of its intact replacements
  /// that have text, where they are now (pending shifts included).
  func rangeEnds(in id: StorageID, blocks: [_TrackedReplacements.Block]) -> Set<Int> {
    var found = Set(contexts.filter { $0.storage == id }.map(\.range.upperBound))
    for block in blocks {
      for i in block.members where replacements[i].intact && !replacements[i].range.isEmpty {
        found.insert(replacements[i].range.upperBound + block.pending)
      }
    }
    return found
  }

  /// Writes every pending shift of ``tracked`` into the replacements'
  /// ranges, so that each intact replacement's `range` is where its text is
  /// now. Everything but a keystroke's ``followReplacements(throughOthersEdit:in:)``
  /// reads ranges only after this.
  ///
  /// - Complexity: O(R) when a shift is pending, O(s) otherwise.
  mutating func settleReplacements() {
    for id in Array(tracked.blocks.keys) {
      guard var blocks = tracked.blocks.removeValue(forKey: id) else { continue }
      for b in blocks.indices where blocks[b].pending != 0 {
        let pending = blocks[b].pending
        for i in blocks[b].members {
          let r = replacements[i].range
          replacements[i].range = (r.lowerBound + pending)..<(r.upperBound + pending)
        }
        blocks[b].low += pending
        blocks[b].high += pending
        blocks[b].pending = 0
      }
      tracked.blocks[id] = blocks
    }
  }

  /// Groups the intact replacements of storage `id` into blocks again, in
  /// the order of their starts, after the session's own edit changed their
  /// ranges (``settleReplacements()`` first): so that each block spans one
  /// stretch of the text, and a keystroke meets one or two of them.
  ///
  /// The order is the blocks' order before (the session's own edits keep
  /// it, but for the ends an edit collapsed), plus the replacements made
  /// since, put in place by insertion.
  ///
  /// - Complexity: O(R + d) for d displacements (O(R) plus the new
  ///   replacements' moves, usually).
  mutating func regroupReplacements(in id: StorageID) {
    var order: [Int] = []
    for block in tracked.blocks[id] ?? [] {
      for i in block.members where replacements[i].intact { order.append(i) }
    }
    for i in (tracked.scanned[id] ?? 0)..<replacements.count
    where replacements[i].storage == id && replacements[i].intact {
      order.append(i)
    }
    tracked.scanned[id] = replacements.count
    // Insertion sort by start: nearly sorted already.
    if order.count > 1 {
      for k in 1..<order.count {
        let i = order[k]
        let start = replacements[i].range.lowerBound
        var j = k
        while j > 0 && replacements[order[j - 1]].range.lowerBound > start {
          order[j] = order[j - 1]
          j -= 1
        }
        order[j] = i
      }
    }
    var blocks: [_TrackedReplacements.Block] = []
    blocks.reserveCapacity(
      (order.count + _TrackedReplacements.blockSize - 1) / _TrackedReplacements.blockSize)
    var block = _TrackedReplacements.Block()
    for i in order {
      if block.members.count == _TrackedReplacements.blockSize {
        blocks.append(block)
        block = _TrackedReplacements.Block()
      }
      block.add(i, replacements[i].range)
    }
    if !block.members.isEmpty { blocks.append(block) }
    tracked.blocks[id] = blocks.isEmpty ? nil : blocks
  }

  /// Follows the intact replacements of storage `id` through one of the
  /// session's own edits: a new replacement (`swapped` nil) or the swap of
  /// replacement `swapped`. Ends inside the edited range collapse onto it
  /// and are remembered; those that the previous swap of the same
  /// replacement collapsed go back where they were.
  mutating func followReplacements(through edge: _EditStep, in id: StorageID, swapped: Int?) {
    let restoring = swapped.map { replacements[$0].collapsed } ?? [:]
    let newIndex = replacements.count
    var collapsed: [Int: Int] = [:]
    for i in replacements.indices
    where replacements[i].storage == id && replacements[i].intact && i != swapped {
      let old = replacements[i].range
      if swapped == nil && edge.changesText(in: old) { replacements[i].coveredBy.append(newIndex) }
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
