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
  var contextVersion: ContextVersion = 0
  /// For each context version: the storage version at which the context
  /// reached it, and where its text was then.
  var history: [(version: StorageVersion, start: Int, length: Int)]
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
  mutating func followReplacements(throughOthersEdit edge: _EditStep, in id: StorageID) {
    var ends: Set<Int>? = nil
    for i in replacements.indices where replacements[i].storage == id && replacements[i].intact {
      let old = replacements[i].range
      if edge.changesText(in: old) {
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
