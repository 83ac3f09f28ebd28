// A soak test of the document engine (the reliability issue, "Soak"): random
// operations from several tasks on one large Document, checked against a
// plain model of every storage, with throughput and peak memory.
//
//   cd Benchmarks && swift build -c release --product Soak
//   .build/release/Soak --ops 20000 --megabytes 4     # a quick run
//   .build/release/Soak                               # 1,000,000 ops on 100 MB
//
// Each task owns a disjoint set of storages, so every storage's edits are
// serialized by its owner and its model stays exact while the tasks run
// concurrently on the shared Document.
import DocumentEngine
import TextRope

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum Soak {
  static func main() async {
    let options = Options.parse(CommandLine.arguments)
    let s = options.storages
    let t = options.tasks
    let skipped = options.skip.isEmpty ? "" : ", skipping \(options.skip.map(\.rawValue).sorted())"
    print(
      "Soak: seed \(options.seed), \(grouped(options.ops)) operations, \(options.megabytes) MB in"
        + " \(s) storages, \(t) tasks, check every \(options.checkEvery) ops\(skipped)")

    // The document: storage i holds about M/S megabytes, generated from its
    // own random stream, in parallel.
    let setupStart = now()
    let bytes = options.megabytes * 1_000_000 / s
    let seed = options.seed
    let made = await withTaskGroup(of: [(Int, Rope, [UInt16])].self) { group in
      for task in 0..<t {
        group.addTask {
          var out: [(Int, Rope, [UInt16])] = []
          for i in stride(from: task, to: s, by: t) {
            var random = SoakRandom(seed: seed, stream: 1_000_000 + UInt64(i))
            let (rope, model) = makeStorageText(bytes: bytes, random: &random)
            out.append((i, rope, model))
          }
          return out
        }
      }
      var all: [(Int, Rope, [UInt16])] = []
      for await part in group { all += part }
      return all.sorted { $0.0 < $1.0 }
    }
    let document = Document(keepsAllChanges: false)
    // The soak models undo of the session's groups only: the person's
    // typing is not recorded (HistoryModelTests and FuzzDocument model it).
    document.historyOptions = HistoryOptions(isEnabled: false)
    var slots: [Slot] = []
    for (i, rope, model) in made {
      let id = StorageID("s" + String(i).leftPadded(3))
      do {
        try document.add(id, text: rope)
      } catch {
        finish(options, failure: "adding \(id) threw \(error)", seconds: 0, tally: Tally())
      }
      slots.append(Slot(index: i, id: id, model: model, version: 0))
    }
    let ids = slots.map(\.id)
    // The history's task: its own document, the history recording, a few
    // small storages (see History.swift).
    let historyDocument = Document()
    var historySlots: [Slot] = []
    if options.runs(.history) {
      for i in 0..<4 {
        var random = SoakRandom(seed: seed, stream: 2_000_000 + UInt64(i))
        let (rope, model) = makeStorageText(bytes: min(bytes, 64_000), random: &random)
        let id = StorageID("h" + String(i))
        do {
          try historyDocument.add(id, text: rope)
        } catch {
          finish(options, failure: "adding \(id) threw \(error)", seconds: 0, tally: Tally())
        }
        historySlots.append(Slot(index: s + i, id: id, model: model, version: 0))
      }
    }
    let historyQuota = max(1, options.ops / (4 * t))
    let historyWork = historySlots
    let setupSeconds = seconds(now() &- setupStart)
    print(
      "setup: \(megabytes(document.content.storages.values.reduce(0) { $0 + $1.text.utf8Count }))"
        + " UTF-8, \(grouped(document.content.index.length)) UTF-16 units in \(s) storages,"
        + " \(fixed(setupSeconds, 1)) s, peak RSS so far \(peakRSS().map(megabytes) ?? "unknown")")

    // The run.
    let runStart = now()
    var results: [WorkerResult] = []
    do {
      results = try await withThrowingTaskGroup(of: WorkerResult.self) { group in
        for task in 0..<t {
          let owned = slots.filter { $0.index % t == task }
          let quota = options.ops / t + (task < options.ops % t ? 1 : 0)
          group.addTask {
            let worker = Worker(
              task: task, document: document, options: options, slots: owned, quota: quota)
            try await worker.run()
            return worker.result
          }
        }
        if !historyWork.isEmpty {
          group.addTask {
            let worker = Worker(
              task: t, document: historyDocument, options: options, slots: historyWork,
              quota: historyQuota, keepsHistory: true)
            try await worker.run()
            try worker.checkAll("the history task's last check")
            return worker.result
          }
        }
        var all: [WorkerResult] = []
        for try await result in group { all.append(result) }
        return all.sorted { $0.task < $1.task }
      }
    } catch {
      finish(
        options, failure: "\(error)", seconds: seconds(now() &- runStart), tally: Tally())
    }
    let runSeconds = seconds(now() &- runStart)
    var tally = Tally()
    var refusals: [String: Int] = [:]
    for result in results {
      tally.merge(result.tally)
      refusals.merge(result.refusals, uniquingKeysWith: +)
    }
    // (The history's task checked its own storages; the rest are the
    // shared document's.)
    results.removeAll { $0.task == t }

    // The final check: every storage against its model, in parallel.
    let checkStart = now()
    let content = document.content
    let mismatches = await withTaskGroup(of: [(Int, String)].self) { group in
      for result in results {
        group.addTask {
          var found: [(Int, String)] = []
          for slot in result.slots {
            guard let storage = try? content.storage(slot.id) else {
              found.append((slot.index, "\(slot.id) is missing"))
              continue
            }
            if let m = firstMismatch(storage.text, slot.model[...]) {
              let text = Array(String(storage.text).utf16)
              let from = max(0, m - 20)
              found.append(
                (
                  slot.index,
                  "\(slot.id) differs from its model at UTF-16 offset \(m) (lengths"
                    + " \(storage.length) and \(slot.model.count)): engine \""
                    + excerpt(text[from..<min(text.count, m + 20)]) + "\", model \""
                    + excerpt(slot.model[from..<min(slot.model.count, m + 20)]) + "\""
                ))
            } else if storage.version.rawValue != slot.version {
              found.append(
                (
                  slot.index,
                  "\(slot.id) is at version \(storage.version), the model \(slot.version)"
                ))
            }
          }
          return found
        }
      }
      var all: [(Int, String)] = []
      for await part in group { all += part }
      return all.sorted { $0.0 < $1.0 }
    }
    let checkSeconds = seconds(now() &- checkStart)
    var problems = mismatches.map(\.1)
    if content.order != ids { problems.append("the storage order changed") }
    let modelLength = results.reduce(0) { $0 + $1.slots.reduce(0) { $0 + $1.model.count } }
    if content.index.length != modelLength {
      problems.append("the index says \(content.index.length) units, the models \(modelLength)")
    }

    let utf8 = content.storages.values.reduce(0) { $0 + $1.text.utf8Count }
    report(
      options, tally: tally, refusals: refusals, setupSeconds: setupSeconds,
      runSeconds: runSeconds, checkSeconds: checkSeconds, utf8: utf8,
      utf16: content.index.length, problems: problems)
    exit(problems.isEmpty ? 0 : 1)
  }

  /// Prints the summary table (and the JSON line) and the result.
  static func report(
    _ options: Options, tally: Tally, refusals: [String: Int], setupSeconds: Double,
    runSeconds: Double, checkSeconds: Double, utf8: Int, utf16: Int, problems: [String]
  ) {
    let total = tally.total
    let engineSeconds = seconds(tally.nanoseconds.reduce(0, &+))
    print("")
    print(
      "kind".padded(30) + "ops".rightAligned(11) + "share".rightAligned(8) + "µs/op".rightAligned(9)
        + "ops/s".rightAligned(13))
    for kind in Kind.allCases where tally.counts[kind.rawValue] > 0 {
      let count = tally.counts[kind.rawValue]
      let time = seconds(tally.nanoseconds[kind.rawValue])
      print(
        kind.name.padded(30) + grouped(count).rightAligned(11)
          + (fixed(100 * Double(count) / Double(total), 1) + "%").rightAligned(8)
          + fixed(time * 1e6 / Double(count), 2).rightAligned(9)
          + grouped(Int(Double(count) / max(time, 1e-9))).rightAligned(13))
    }
    print(
      "total (in the engine)".padded(30) + grouped(total).rightAligned(11)
        + "100.0%".rightAligned(8)
        + fixed(engineSeconds * 1e6 / Double(max(total, 1)), 2).rightAligned(9)
        + grouped(Int(Double(total) / max(engineSeconds, 1e-9))).rightAligned(13))
    print(
      "total (wall clock, \(options.tasks) tasks)".padded(30) + grouped(total).rightAligned(11)
        + "".rightAligned(8) + "".rightAligned(9)
        + grouped(Int(Double(total) / max(runSeconds, 1e-9))).rightAligned(13))
    print("")
    print(
      "µs/op and per-kind ops/s: time inside the engine call, summed over the tasks;"
        + " the wall-clock rate includes the models, the checks and waiting for the lock.")
    if !refusals.isEmpty {
      print(
        "refusals: "
          + refusals.sorted { $0.key < $1.key }.map { "\($0.key) \(grouped($0.value))" }.joined(
            separator: ", "))
    }
    let rss = peakRSS()
    print(
      "wall time: \(fixed(setupSeconds + runSeconds + checkSeconds, 1)) s (setup"
        + " \(fixed(setupSeconds, 1)) s, run \(fixed(runSeconds, 1)) s, final check"
        + " \(fixed(checkSeconds, 1)) s)")
    print("peak RSS (VmHWM): \(rss.map(megabytes) ?? "unknown")")
    print(
      "final document: \(megabytes(utf8)) UTF-8, \(grouped(utf16)) UTF-16 units in"
        + " \(options.storages) storages")
    if problems.isEmpty {
      print("PASS: every storage equals its model (seed \(options.seed))")
    } else {
      print("FAIL: \(problems[0]) (seed \(options.seed))")
      for problem in problems.dropFirst().prefix(9) { print("      \(problem)") }
    }
    if options.json {
      var kinds: [String] = []
      for kind in Kind.allCases where tally.counts[kind.rawValue] > 0 {
        let count = tally.counts[kind.rawValue]
        let time = seconds(tally.nanoseconds[kind.rawValue])
        kinds.append(
          "\"\(kind.key)\":{\"ops\":\(count),\"seconds\":\(fixed(time, 6)),"
            + "\"opsPerSecond\":\(Int(Double(count) / max(time, 1e-9)))}")
      }
      let fields = [
        "\"result\":\"\(problems.isEmpty ? "PASS" : "FAIL")\"",
        "\"failure\":" + (problems.first.map(jsonString) ?? "null"),
        "\"seed\":\(options.seed)", "\"ops\":\(total)", "\"megabytes\":\(options.megabytes)",
        "\"storages\":\(options.storages)", "\"tasks\":\(options.tasks)",
        "\"checkEvery\":\(options.checkEvery)",
        "\"skip\":[\(options.skip.map { "\"\($0.rawValue)\"" }.sorted().joined(separator: ","))]",
        "\"setupSeconds\":\(fixed(setupSeconds, 3))", "\"runSeconds\":\(fixed(runSeconds, 3))",
        "\"checkSeconds\":\(fixed(checkSeconds, 3))",
        "\"opsPerSecond\":\(Int(Double(total) / max(runSeconds, 1e-9)))",
        "\"engineSeconds\":\(fixed(engineSeconds, 3))",
        "\"peakRSSBytes\":\(rss.map(String.init) ?? "null")", "\"finalUTF8Bytes\":\(utf8)",
        "\"finalUTF16Units\":\(utf16)", "\"kinds\":{\(kinds.joined(separator: ","))}",
        "\"refusals\":{"
          + refusals.sorted { $0.key < $1.key }.map { "\(jsonString($0.key)):\($0.value)" }
          .joined(separator: ",") + "}",
      ]
      print("{" + fields.joined(separator: ",") + "}")
    }
  }

  /// Reports a failure during the setup or the run and exits 1.
  static func finish(_ options: Options, failure: String, seconds: Double, tally: Tally) -> Never {
    print("FAIL: \(failure) (seed \(options.seed), after \(fixed(seconds, 1)) s)")
    var rerun =
      "rerun: Soak --seed \(options.seed) --ops \(options.ops) --megabytes \(options.megabytes)"
      + " --storages \(options.storages) --tasks \(options.tasks) --sessions \(options.sessions)"
      + " --check-every \(options.checkEvery)"
    if !options.skip.isEmpty {
      rerun += " --skip " + options.skip.map(\.rawValue).sorted().joined(separator: ",")
    }
    print(rerun + " (the failing task's operations are the same; add --trace <storage>)")
    if options.json {
      print(
        "{\"result\":\"FAIL\",\"failure\":\(jsonString(failure)),\"seed\":\(options.seed),"
          + "\"peakRSSBytes\":\(peakRSS().map(String.init) ?? "null")}")
    }
    exit(1)
  }
}

func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }

/// `x` with `digits` decimals.
func fixed(_ x: Double, _ digits: Int) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let scaled = Int((abs(x) * scale).rounded())
  let whole = scaled / Int(scale)
  let fraction = String(scaled % Int(scale)).leftPadded(digits)
  return (x < 0 && scaled != 0 ? "-" : "") + "\(whole)" + (digits > 0 ? ".\(fraction)" : "")
}

/// An integer with thousands separators.
func grouped(_ n: Int) -> String {
  let digits = String(abs(n))
  var out = ""
  for (i, c) in digits.enumerated() {
    if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
    out.append(c)
  }
  return (n < 0 ? "-" : "") + out
}

/// Bytes in decimal megabytes.
func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1e6, 1) + " MB" }

func jsonString(_ s: String) -> String {
  var out = "\""
  for scalar in s.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case _ where scalar.value < 0x20:
      out += "\\u" + String(scalar.value, radix: 16).leftPadded(4)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

extension String {
  /// Padded on the left with zeros to `width`.
  func leftPadded(_ width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }

  /// Padded on the right with spaces to `width`.
  func padded(_ width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }

  /// Padded on the left with spaces to `width`.
  func rightAligned(_ width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}
