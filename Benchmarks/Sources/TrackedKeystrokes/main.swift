// Random single-character keystrokes (insert and delete in turn) in a 1 MB
// storage with tracked ranges, beside the same keystrokes without them, on
// the thread's CPU clock, best of the rounds: the driver to profile the
// tracked-range rows of the suite with (`Tracked ranges ratio/…` give the
// published numbers).
//
//   swift build -c release --product TrackedKeystrokes
//   .build/release/TrackedKeystrokes [--rounds N] [--ranges N] [--run K] host|marks|none
//   perf record -g .build/release/TrackedKeystrokes --rounds 50 host
//
// `host`: the host's ranges (no session); `marks`: a `fullDocument` session
// live, the ranges its underline marks (the baseline has the session too);
// `none`: the baseline alone. Ranges are 5 units long, one every 10.
// `--run K`: K keystroke pairs (a character typed, then deleted) at each
// random place before the next, as typing stays at the caret (default 1:
// every keystroke at a new place).
import BenchmarkSupport
import DocumentEngine
import TextRope

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let (rounds, count, mode, run) = {
  var rounds = 20
  var count = 100_000
  var run = 1
  var mode = "host"
  var arguments = CommandLine.arguments.dropFirst()
  while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds": rounds = arguments.popFirst().flatMap { Int($0) } ?? rounds
    case "--ranges": count = arguments.popFirst().flatMap { Int($0) } ?? count
    case "--run": run = max(1, arguments.popFirst().flatMap { Int($0) } ?? run)
    default: mode = argument
    }
  }
  return (rounds, count, mode, run)
}()
guard ["host", "marks", "none"].contains(mode) else {
  print("usage: TrackedKeystrokes [--rounds N] [--ranges N] [--run K] host|marks|none")
  exit(1)
}

let id = StorageID("body")
let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
let prose = {
  var prose = ""
  var w = 0
  while prose.utf8.count < megabyte {
    prose += words[w % words.count] + (w % 17 == 16 ? ".\n" : " ")
    w += 1
  }
  return prose
}()
let ranges = (0..<count).map { ($0 * 10)..<($0 * 10 + 5) }
let offsets = randomOffsets(count: (1 << 16) / run, below: megabyte - 10_000, seed: 5).flatMap {
  repeatElement($0, count: 2 * run)
}

func document(tracked: Bool, mode: String) throws -> Document {
  let document = Document()
  try document.add(id, text: Rope(prose))
  if mode == "marks" {
    let session = try document.startSession(scope: .fullDocument)
    if tracked {
      try document.mark(context: session.contexts[0].id, ranges: ranges, as: .underline("x"))
    }
  } else if mode == "host" && tracked {
    try document.track(ranges, in: id, kind: "spelling")
  }
  return document
}

func replay(_ document: Document) -> UInt64 {
  let edits = SingleEdits(document, offsets: offsets)
  let start = threadTime()
  edits.make(offsets.count, storage: id)
  return threadTime() - start
}

var best: (with: UInt64, without: UInt64) = (.max, .max)
for _ in 0..<rounds {
  let with = try document(tracked: mode != "none", mode: mode)
  let without = try document(tracked: false, mode: mode)
  best.with = min(best.with, replay(with))
  best.without = min(best.without, replay(without))
}
let n = UInt64(offsets.count)
print(
  "\(mode), \(count) ranges: \(best.with / n) ns a keystroke, without \(best.without / n) ns,"
    + " ratio \(Double(best.with) / Double(best.without))")
