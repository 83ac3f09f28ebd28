/// Who made an edit: the person at the keyboard, a writing tool's session, or
/// a named origin (a sync peer, a second cursor).
///
/// When two concurrent edits insert at the same place, the one whose party
/// comes first in this order goes first: the person, then writing tools,
/// then origins in the byte order of their names.
public enum EditParty: Hashable, Sendable, Comparable {
  /// The person typing in the host (an edit without origin).
  case person
  /// The writing tool of one session (sessions are numbered in order).
  case tool(Int)
  /// A named origin.
  case origin(String)

  /// Whether this is the person (a test that copies nothing).
  @inline(__always)
  var isPerson: Bool {
    if case .person = self { return true }
    return false
  }

  var rank: Int {
    switch self {
    case .person: 0
    case .tool: 1
    case .origin: 2
    }
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.tool(let a), .tool(let b)): return a < b
    case (.origin(let a), .origin(let b)): return Array(a.utf8).lexicographicallyPrecedes(b.utf8)
    default: return lhs.rank < rhs.rank
    }
  }
}
