// Replays an editing trace one keystroke at a time through each layer of
// the engine — the bare `Rope`, the `BufferedRope` in front of it,
// `DocumentContent`, `Document` (`unbuffered`: with the person's typing
// not held back; `reading`, `reading-unbuffered`: read after every
// keystroke), and `Document` with a live `userSelection` session over the
// whole trace —
// and prints each layer's time a keystroke and its ratio to the rope's, on
// the thread's CPU clock, best of the rounds. It is the driver to profile
// the keystroke with (the suite's `Document edit ratio/…` benchmarks give
// the published numbers):
//
//   swift build -c release --product KeystrokeReplay
//   .build/release/KeystrokeReplay [--rounds N] [--layers rope,buffered,content,document,unbuffered,reading,reading-unbuffered,live] TRACE...
//   perf record -g .build/release/KeystrokeReplay --rounds 20 --layers live seph-blog1
//   .build/release/KeystrokeReplay --layers live --latency seph-blog1   # the tail
//
// The trace is typed between two short paragraphs of its own, as in
// `Document edit/…`, in UTF-16 ranges (converted once, before any clock
// starts). Every layer's final text is checked against the trace's end.
import BenchmarkSupport
@_spi(Benchmarks) import DocumentEngine
import TextRope

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let id = StorageID("body")

/// One layer: a name, and a replay that returns its time and final text.
struct Layer {
  let key: String
  let replay: (UTF16Trace) throws -> (nanoseconds: UInt64, text: String)
}

let layers = [
  Layer(key: "rope") { trace in
    var rope = Rope(trace.start)
    let start = threadTime()
    applyEdits(trace, to: &rope)
    return (threadTime() - start, String(rope))
  },
  Layer(key: "buffered") { trace in
    // The rope with typing buffered in front of it (issue 48's layer), in
    // the document's unit, UTF-16: what a storage would hold.
    var text = BufferedRope(Rope(trace.start))
    let start = threadTime()
    do {
      for i in 0..<trace.ranges.count {
        try text.replace(trace.ranges[i], with: trace.inserts[i])
      }
    } catch {
      fatalError("\(trace.name): an edit failed on the buffered rope: \(error)")
    }
    let rope = text.flushed()
    return (threadTime() - start, String(rope))
  },
  Layer(key: "content") { trace in
    var content = DocumentContent()
    try content.add(id, text: Rope(trace.start))
    let start = threadTime()
    applyEdits(trace, to: &content, storage: id)
    return (threadTime() - start, String(try content.storage(id).text))
  },
  Layer(key: "document") { trace in try replayDocument(trace) },
  // `Document` with the person's typing not held back (every keystroke the
  // usual path): the layer `document` beside what the buffer saves.
  Layer(key: "unbuffered") { trace in try replayDocument(trace, buffering: false) },
  // `Document` read after every keystroke (a host that redraws from a
  // snapshot each time): every held keystroke is applied at once.
  Layer(key: "reading") { trace in try replayDocument(trace, reading: true) },
  Layer(key: "reading-unbuffered") { trace in
    try replayDocument(trace, buffering: false, reading: true)
  },
  Layer(key: "live") { trace in
    let document = try documentWithLiveContext(trace, id)
    let start = threadTime()
    applyEdits(trace, to: document, storage: id)
    return (threadTime() - start, String(try document.content.storage(id).text))
  },
]

/// The trace replayed into a `Document` without a session: its time and
/// final text. `buffering`: the person's typing held back (the default);
/// `reading`: each edit followed by a read of the document's content (its
/// storage's length, from the snapshot).
func replayDocument(
  _ trace: UTF16Trace, buffering: Bool = true, reading: Bool = false
) throws -> (nanoseconds: UInt64, text: String) {
  let document = Document()
  document.buffersTyping = buffering
  try document.add(id, text: Rope(trace.start))
  let start = threadTime()
  if reading {
    var lengths = 0
    for i in 0..<trace.ranges.count {
      try document.edit(id, range: trace.ranges[i], with: trace.inserts[i])
      lengths &+= try document.content.storage(id).length
    }
    if lengths == 42 { print("") }
  } else {
    applyEdits(trace, to: document, storage: id)
  }
  return (threadTime() - start, String(try document.content.storage(id).text))
}

/// Times every keystroke of the live layer on its own (monotonic clock)
/// and prints the slowest ones, with where they fell: the engine's tail.
func printLatencies(_ trace: UTF16Trace) throws {
  let document = try documentWithLiveContext(trace, id)
  var samples = [UInt64](repeating: 0, count: trace.count)
  var clock = timespec()
  for i in 0..<trace.count {
    clock_gettime(CLOCK_MONOTONIC, &clock)
    let start = UInt64(clock.tv_sec) &* 1_000_000_000 &+ UInt64(clock.tv_nsec)
    try document.edit(id, range: trace.ranges[i], with: trace.inserts[i])
    clock_gettime(CLOCK_MONOTONIC, &clock)
    samples[i] = UInt64(clock.tv_sec) &* 1_000_000_000 &+ UInt64(clock.tv_nsec) &- start
  }
  let sorted = samples.sorted()
  let slowest = samples.indices.sorted { samples[$0] > samples[$1] }.prefix(5)
  print(
    "\(trace.name) live, each keystroke: p50 \(sorted[sorted.count / 2]) ns,"
      + " p99 \(sorted[sorted.count * 99 / 100]) ns, max \(sorted[sorted.count - 1]) ns;"
      + " slowest at keystrokes "
      + slowest.map { "\($0) (\(samples[$0] / 1000) µs)" }.joined(separator: ", "))
}

let usage = """
  usage: KeystrokeReplay [--rounds N] [--layers rope,buffered,content,document,unbuffered,reading,reading-unbuffered,live] [--latency] TRACE...
    --rounds N     replays of each layer, best kept (default 5)
    --layers LIST  which layers to replay (default all; rope is the ratios' base)
    --latency      also time every keystroke of one live replay: p50, p99, max, where
  A trace is a name in Tests/Data/traces (seph-blog1).
  """

let commandLine = DriverCommandLine(program: "KeystrokeReplay", usage: usage)
func fail(_ message: String) -> Never { commandLine.fail(message) }

var rounds = 5
var latency = false
var keys = layers.map(\.key)
var names: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--rounds": rounds = commandLine.positiveInt(arguments.popFirst(), after: argument)
  case "--layers":
    keys = commandLine.keys(arguments.popFirst(), after: argument, known: layers.map(\.key))
  case "--latency": latency = true
  case "-h", "--help":
    print(usage)
    exit(0)
  case _ where argument.hasPrefix("-"): fail("unknown option \(argument)\n\(usage)")
  default: names.append(argument)
  }
}
if names.isEmpty { fail("no trace named\n\(usage)") }

for name in names {
  let trace = UTF16Trace(
    PreparedTrace(name: name), before: paragraphBeforeTrace, after: paragraphAfterTrace)
  var best: [String: UInt64] = [:]
  for _ in 0..<rounds {
    for layer in layers where keys.contains(layer.key) {
      let (time, text) = try layer.replay(trace)
      if text != trace.end { fail("\(name): the \(layer.key) replay ends with another text") }
      best[layer.key] = min(best[layer.key] ?? .max, time)
    }
  }
  var line = "\(name): \(trace.count) keystrokes, best of \(rounds)"
  for layer in layers {
    guard let time = best[layer.key] else { continue }
    let perKeystroke = Double(time) / Double(trace.count)
    line += "; \(layer.key) \(Int(perKeystroke.rounded())) ns"
    if layer.key != "rope", let rope = best["rope"] {
      let hundredths = (Double(time) / Double(rope) * 100).rounded()
      line +=
        " (\(Int(hundredths) / 100).\(Int(hundredths) % 100 < 10 ? "0" : "")\(Int(hundredths) % 100)×)"
    }
  }
  print(line)
  if latency { try printLatencies(trace) }
}
