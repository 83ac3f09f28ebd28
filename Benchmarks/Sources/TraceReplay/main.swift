// Replays editing traces into the rope, swift-collections' BigString and a
// flat [UInt8], timed the way the Rust peers (../shared/peers/src/main.rs)
// time ropey, crop and jumprope, and prints one JSON line per trace in their
// shape, so that the two can be put side by side:
//
//   swift build -c release --product TraceReplay
//   .build/release/TraceReplay [--rounds N] [--bigstring-rounds N]
//       [--structures rope,buffered,bigstring,flat] TRACE_NAME_OR_PATH...
//
// A trace is a name in Tests/Data/traces (`seph-blog1`) or the path of a
// `.json[.gz]` file. As in the peers: the start content (if any) is the first
// patch, inserted at 0 into an empty structure; `total_s` is a new structure,
// every patch, the final String and freeing the structure; `edits_s` is the
// new structure and every patch alone; rounds are interleaved across the
// structures and the best of each is kept. Every final text is checked byte
// for byte against the trace's endContent: a mismatch is reported on stderr
// and the exit status is 1.
import BenchmarkSupport
import TextRope

import struct _RopeModule.BigString

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock (what Rust's `Instant` reads).
@inline(__always)
func now() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
}

/// The patches of a trace as the peers see them: the start content, if not
/// empty, as a first insertion at 0.
struct Replay {
  let name: String
  let positions: [Int]
  let deleteCounts: [Int]
  let inserts: [String]
  let insertsUTF8: [[UInt8]]
  let endContent: String
  let ascii: Bool

  var count: Int { positions.count }

  init(_ trace: PreparedTrace) {
    let start = trace.startContent.isEmpty ? 0 : 1
    name = trace.name
    positions = Array(repeating: 0, count: start) + trace.positions
    deleteCounts = Array(repeating: 0, count: start) + trace.deleteCounts
    inserts = (start == 1 ? [trace.startContent] : []) + trace.inserts
    insertsUTF8 = (start == 1 ? [Array(trace.startContent.utf8)] : []) + trace.insertsUTF8
    endContent = trace.endContent
    ascii = insertsUTF8.allSatisfy { $0.allSatisfy { $0 < 0x80 } }
  }
}

@inline(never)
func replayRope(_ r: Replay, edits: inout UInt64) -> String {
  let start = now()
  var rope = Rope()
  applyPatches(r.positions, r.deleteCounts, r.inserts, to: &rope, trace: r.name)
  edits = now() - start
  return String(rope)
}

@inline(never)
func replayBuffered(_ r: Replay, edits: inout UInt64) -> String {
  let start = now()
  var buffered = BufferedRope()
  applyPatches(r.positions, r.deleteCounts, r.inserts, to: &buffered, trace: r.name)
  let rope = buffered.flushed()
  edits = now() - start
  return String(rope)
}

@inline(never)
func replayBigString(_ r: Replay, edits: inout UInt64) -> String {
  let start = now()
  var big = BigString()
  applyPatches(r.positions, r.deleteCounts, r.inserts, to: &big)
  edits = now() - start
  return String(big)
}

@inline(never)
func replayFlat(_ r: Replay, edits: inout UInt64) -> String {
  let start = now()
  var flat = FlatText([])
  applyPatches(r.positions, r.deleteCounts, r.insertsUTF8, to: &flat)
  edits = now() - start
  return String(decoding: flat.bytes, as: UTF8.self)
}

struct Structure {
  let key: String
  let label: String
  let run: (Replay, inout UInt64) -> String
}

let allStructures = [
  Structure(key: "rope", label: "Rope", run: replayRope),
  Structure(key: "buffered", label: "BufferedRope", run: replayBuffered),
  Structure(key: "bigstring", label: "BigString", run: replayBigString),
  Structure(key: "flat", label: "flat [UInt8]", run: replayFlat),
]

/// The first byte at which `actual` and `expected` differ, or nil.
func firstDifference(_ actual: String, _ expected: String) -> Int? {
  if actual.utf8.elementsEqual(expected.utf8) { return nil }
  let a = Array(actual.utf8)
  let e = Array(expected.utf8)
  return (0..<min(a.count, e.count)).first(where: { a[$0] != e[$0] }) ?? min(a.count, e.count)
}

func seconds(_ nanoseconds: UInt64) -> String {
  "\(Double(nanoseconds) / 1e9)"
}

func jsonString(_ s: String) -> String {
  var out = "\""
  for scalar in s.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case _ where scalar.value < 0x20:
      out +=
        "\\u00" + (scalar.value < 0x10 ? "0" : "")
        + String(scalar.value, radix: 16)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

// MARK: - Command line

let usage = """
  usage: TraceReplay [--rounds N] [--bigstring-rounds N] [--structures rope,buffered,bigstring,flat]
                     TRACE_NAME_OR_PATH...
    --rounds N            replays of each structure, best kept (default 5)
    --bigstring-rounds N  replays of BigString (default: as --rounds); it is much slower
    --structures LIST     which structures to replay (default rope,buffered,bigstring,flat)
  A trace is a name in Tests/Data/traces (seph-blog1) or a .json[.gz] path.
  """

let commandLine = DriverCommandLine(program: "TraceReplay", usage: usage)
func complain(_ message: String) { commandLine.complain(message) }
func fail(_ message: String) -> Never { commandLine.fail(message) }

var rounds = 5
var bigStringRounds: Int? = nil
var structureKeys = allStructures.map(\.key)
var traceArguments: [String] = []

var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--rounds": rounds = commandLine.positiveInt(arguments.popFirst(), after: argument)
  case "--bigstring-rounds":
    bigStringRounds = commandLine.positiveInt(arguments.popFirst(), after: argument)
  case "--structures":
    structureKeys = commandLine.keys(
      arguments.popFirst(), after: argument, known: allStructures.map(\.key))
  case "-h", "--help":
    print(usage)
    exit(0)
  case _ where argument.hasPrefix("-"): fail("unknown option \(argument)\n\(usage)")
  default: traceArguments.append(argument)
  }
}
if traceArguments.isEmpty { fail("no trace given\n\(usage)") }
let structures = allStructures.filter { structureKeys.contains($0.key) }

func isFile(_ path: String) -> Bool {
  var info = stat()
  return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
}

func load(_ argument: String) -> PreparedTrace {
  if argument.contains("/") || argument.hasSuffix(".json") || argument.hasSuffix(".gz") {
    guard isFile(argument) else { fail("no trace file at \(argument)") }
    return PreparedTrace(path: argument)
  }
  let path = tracesDirectory + "/" + argument + ".json.gz"
  guard isFile(path) else { fail("no trace named \(argument) (looked for \(path))") }
  return PreparedTrace(name: argument)
}

// MARK: - Replays

var mismatches = 0
for argument in traceArguments {
  let replay = Replay(load(argument))
  let roundsOf = structures.map {
    $0.key == "bigstring" ? min(bigStringRounds ?? rounds, rounds) : rounds
  }
  var bestTotal = [UInt64](repeating: .max, count: structures.count)
  var bestEdits = [UInt64](repeating: .max, count: structures.count)
  var ok = [Bool](repeating: true, count: structures.count)
  for round in 0..<rounds {
    for (i, structure) in structures.enumerated() where round < roundsOf[i] {
      var edits: UInt64 = 0
      let start = now()
      let result = structure.run(replay, &edits)
      let total = now() - start
      bestTotal[i] = min(bestTotal[i], total)
      bestEdits[i] = min(bestEdits[i], edits)
      if let at = firstDifference(result, replay.endContent) {
        if ok[i] {
          complain(
            "\(replay.name): \(structure.label) result differs from endContent"
              + " (\(result.utf8.count) vs \(replay.endContent.utf8.count) bytes,"
              + " first difference at byte \(at))")
          mismatches += 1
        }
        ok[i] = false
      }
    }
  }
  var parts = [
    "\"trace\": \(jsonString(replay.name))", "\"patches\": \(replay.count)",
    "\"rounds\": \(rounds)", "\"ascii\": \(replay.ascii)",
  ]
  for (i, structure) in structures.enumerated() {
    let ownRounds = roundsOf[i] == rounds ? "" : ", \"rounds\": \(roundsOf[i])"
    parts.append(
      "\"\(structure.key)\": {\"total_s\": \(seconds(bestTotal[i])),"
        + " \"edits_s\": \(seconds(bestEdits[i])), \"ok\": \(ok[i])\(ownRounds)}")
  }
  print("{" + parts.joined(separator: ", ") + "}")
  fflush(nil)
}
if mismatches > 0 {
  fail("\(mismatches) replay(s) did not give the trace's endContent")
}
