// Replays the scenario of `Typing while a tool streams` (the suite's row 11:
// seph-blog1 typed into 1 MB inside a live session's context, the tool
// replacing a range of it every 50 keystrokes on the version it last saw)
// and prints each keystroke's and each replacement's latency — p50, p99,
// p99.9, max — and the slowest of each with where they fell. It is the
// driver to profile the row's tail with:
//
//   swift build -c release --product StreamingReplay
//   .build/release/StreamingReplay [--rounds N] [--slowest K] [--no-history]
//   perf record -g .build/release/StreamingReplay --rounds 5
//
// Every replacement's outcome and the final text are checked against the
// scenario's model, as in the benchmark.
import BenchmarkSupport
import DocumentEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
  usage: StreamingReplay [--rounds N] [--slowest K] [--no-history] [--seed S]
    --rounds N     replays (default 3); the percentiles are of all of them
    --slowest K    how many of the slowest keystrokes and replacements to show (default 8)
    --no-history   with the person's history off (HistoryOptions.isEnabled false)
    --seed S       the scenario's seed (default 11, the benchmark's)
    --max-groups N the history's limit in groups (default the engine's, 10,000; 0: none)
  """

let commandLine = DriverCommandLine(program: "StreamingReplay", usage: usage)

var rounds = 3
var slowest = 8
var history = true
var seed: UInt64 = 11
var maxGroups: Int? = nil
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--rounds": rounds = commandLine.positiveInt(arguments.popFirst(), after: argument)
  case "--slowest": slowest = commandLine.positiveInt(arguments.popFirst(), after: argument)
  case "--seed": seed = UInt64(commandLine.positiveInt(arguments.popFirst(), after: argument))
  case "--no-history": history = false
  case "--max-groups":
    guard let text = arguments.popFirst(), let n = Int(text), n >= 0 else {
      commandLine.fail("--max-groups needs a count\n\(usage)")
    }
    maxGroups = n
  case "-h", "--help":
    print(usage)
    exit(0)
  default: commandLine.fail("unknown argument \(argument)\n\(usage)")
  }
}

let scenario = try StreamingScenario(trace: "seph-blog1", seed: seed)
print(
  "seph-blog1 in 1 MB: \(scenario.keystrokes.count) keystrokes, "
    + "\(scenario.replacements.count) replacements (\(scenario.conflicts) refused, "
    + "\(scenario.transformed) transformed), history \(history ? "on" : "off")")

/// `value` nanoseconds, in the unit that reads best.
func duration(_ value: Int) -> String {
  if value >= 1_000_000 { return "\(Double(value / 10_000) / 100) ms" }
  if value >= 10_000 { return "\(value / 1000) µs" }
  if value >= 1000 { return "\(Double(value / 10) / 100) µs" }
  return "\(value) ns"
}

func percentiles(_ samples: [Int]) -> String {
  let sorted = samples.sorted()
  guard !sorted.isEmpty else { return "none" }
  func at(_ p: Double) -> String {
    duration(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
  }
  return "p50 \(at(0.5)), p99 \(at(0.99)), p99.9 \(at(0.999)), max \(duration(sorted.last ?? 0))"
}

var keystrokes: [Int] = []
var replacements: [Int] = []
for round in 0..<rounds {
  let (document, context) = try scenario.prepare()
  var options = document.historyOptions
  options.isEnabled = history
  if let maxGroups { options.maxGroups = maxGroups == 0 ? nil : maxGroups }
  document.historyOptions = options
  let times = StreamingTimes(scenario)
  replay(scenario, into: document, context: context, times: times)
  let storage = try document.content.storage("body")
  checkResult(String(storage.text), equals: scenario.end, "the storage after the replay")
  keystrokes += times.keystrokes
  replacements += times.replacements
  let rate = Double(times.keystrokes.count) * 1e9 / Double(max(1, times.total))
  print(
    "round \(round + 1): \(duration(times.total)), \(Int(rate)) keystrokes a second; "
      + "history \(document.historyGroupCount) groups, \(document.historyBytes) bytes")

  if round == rounds - 1 {
    // Where the slowest fell: a keystroke by its index and the replacement
    // before it; a replacement by its unseen keystrokes and outcome.
    let replacementBefore = { (keystroke: Int) -> Int? in
      scenario.replacements.lastIndex { $0.after <= keystroke }
    }
    print("slowest keystrokes of the last round:")
    for i in times.keystrokes.indices.sorted(by: { times.keystrokes[$0] > times.keystrokes[$1] })
      .prefix(slowest)
    {
      let r = replacementBefore(i)
      let since = r.map { i - scenario.replacements[$0].after } ?? i
      let outcome = r.map { scenario.replacements[$0].landing == nil ? "refused" : "landed" }
      print(
        "  #\(i) \(duration(times.keystrokes[i])): \(since) after replacement "
          + "\(r.map(String.init) ?? "-") (\(outcome ?? "none")), "
          + "at \(scenario.keystrokes.ranges[i])")
    }
    // The keystrokes past the row's p99 goal, by how long after a
    // replacement they came.
    var over = [0, 0, 0, 0]
    for (i, t) in times.keystrokes.enumerated() where t > 5000 {
      let since = replacementBefore(i).map { i - scenario.replacements[$0].after } ?? i
      over[since == 0 ? 0 : since == 1 ? 1 : since < 10 ? 2 : 3] += 1
    }
    print(
      "keystrokes over 5 µs in the last round: \(over.reduce(0, +)) (the first after a "
        + "replacement \(over[0]), the second \(over[1]), the 3rd to 10th \(over[2]), later \(over[3]))"
    )
    print("slowest replacements of the last round:")
    for i in times.replacements.indices.sorted(by: {
      times.replacements[$0] > times.replacements[$1]
    }).prefix(slowest) {
      let replacement = scenario.replacements[i]
      print(
        "  #\(i) \(duration(times.replacements[i])): after keystroke \(replacement.after), "
          + "\(replacement.unseen) unseen, "
          + (replacement.landing.map { "landed at \($0)" } ?? "refused"))
    }
  }
}
print("keystrokes: \(percentiles(keystrokes))")
print("replacements: \(percentiles(replacements))")
