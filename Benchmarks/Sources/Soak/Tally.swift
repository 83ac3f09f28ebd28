#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kinds of engine calls the soak makes; each call is one operation.
enum Kind: Int, CaseIterable, Sendable {
  case insert
  case delete
  case replace
  case emptyEdit
  case hostileEdit
  case hostileQuery
  case pin
  case peerInsert
  case map
  case unpin
  case select
  case startSession
  case startFullSession
  case setState
  case toolReplace
  case toolRefused
  case toolHostile
  case liveContext
  case undo
  case redo
  case revert
  case endSession
  case endFullSession
  case snapshot
  case locate
  case track
  case trackedRange
  case suggest
  case preview
  case reject
  case accept

  var name: String {
    switch self {
    case .insert: "insert"
    case .delete: "delete"
    case .replace: "replace"
    case .emptyEdit: "empty edit"
    case .hostileEdit: "hostile edit (refused)"
    case .hostileQuery: "hostile map (refused)"
    case .pin: "pin"
    case .peerInsert: "peer insert (basis)"
    case .map: "map"
    case .unpin: "unpin"
    case .select: "select"
    case .startSession: "startSession (selection)"
    case .startFullSession: "startSession (fullDocument)"
    case .setState: "setState"
    case .toolReplace: "tool replace (applied)"
    case .toolRefused: "tool replace (refused)"
    case .toolHostile: "tool replace (bad input)"
    case .liveContext: "liveContext"
    case .undo: "undo"
    case .redo: "redo"
    case .revert: "revert"
    case .endSession: "endSession (selection)"
    case .endFullSession: "endSession (fullDocument)"
    case .snapshot: "content snapshot"
    case .locate: "locate"
    case .track: "track (history task)"
    case .trackedRange: "trackedRange"
    case .suggest: "suggest"
    case .preview: "preview"
    case .reject: "reject"
    case .accept: "accept"
    }
  }

  /// The name in the JSON line.
  var key: String {
    switch self {
    case .insert: "insert"
    case .delete: "delete"
    case .replace: "replace"
    case .emptyEdit: "emptyEdit"
    case .hostileEdit: "hostileEdit"
    case .hostileQuery: "hostileQuery"
    case .pin: "pin"
    case .peerInsert: "peerInsert"
    case .map: "map"
    case .unpin: "unpin"
    case .select: "select"
    case .startSession: "startSession"
    case .startFullSession: "startFullSession"
    case .setState: "setState"
    case .toolReplace: "toolReplace"
    case .toolRefused: "toolRefused"
    case .toolHostile: "toolHostile"
    case .liveContext: "liveContext"
    case .undo: "undo"
    case .redo: "redo"
    case .revert: "revert"
    case .endSession: "endSession"
    case .endFullSession: "endFullSession"
    case .snapshot: "snapshot"
    case .locate: "locate"
    case .track: "track"
    case .trackedRange: "trackedRange"
    case .suggest: "suggest"
    case .preview: "preview"
    case .reject: "reject"
    case .accept: "accept"
    }
  }
}

/// Operation counts and the time spent in the engine calls, by kind.
struct Tally: Sendable {
  var counts = [Int](repeating: 0, count: Kind.allCases.count)
  var nanoseconds = [UInt64](repeating: 0, count: Kind.allCases.count)

  var total: Int { counts.reduce(0, +) }

  mutating func add(_ kind: Kind, _ elapsed: UInt64) {
    counts[kind.rawValue] += 1
    nanoseconds[kind.rawValue] &+= elapsed
  }

  mutating func merge(_ other: Tally) {
    for i in counts.indices {
      counts[i] += other.counts[i]
      nanoseconds[i] &+= other.nanoseconds[i]
    }
  }
}

/// A monotonic clock in nanoseconds.
func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The peak resident set size (VmHWM) in bytes, or nil where
/// /proc/self/status is missing.
func peakRSS() -> Int? {
  guard let file = fopen("/proc/self/status", "r") else { return nil }
  defer { fclose(file) }
  var line = [CChar](repeating: 0, count: 256)
  while fgets(&line, Int32(line.count), file) != nil {
    let text = String(
      decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if text.hasPrefix("VmHWM:") {
      let digits = text.filter(\.isNumber)
      return Int(digits).map { $0 * 1024 }
    }
  }
  return nil
}
