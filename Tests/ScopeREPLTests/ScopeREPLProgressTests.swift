import Foundation
import ScopeREPLCore
import Testing

/// A clock the test moves by hand, counting how often it is read.
final class ManualClock {
  var time = Duration.zero
  var reads = 0
  func now() -> Duration {
    reads += 1
    return time
  }
}

/// The progress of long work: throttled lines on a terminal, a summary at
/// the end, nothing at all in `--json` mode.
@Suite struct ScopeREPLProgressTests {
  /// A reporter on a manual clock writing into `written`.
  static func reporter(
    terminal: Bool = true, checkEvery: Int = 1, clock: ManualClock, written: Box
  ) -> ProgressReporter {
    ProgressReporter(
      isTerminal: terminal, interval: .milliseconds(100), checkEvery: checkEvery,
      now: clock.now, write: { written.value.append($0) })
  }

  final class Box: @unchecked Sendable {
    var value: [String] = []
  }

  @Test func linesAreThrottledAndShowDoneTotalAndRate() {
    let clock = ManualClock()
    let written = Box()
    let progress = Self.reporter(clock: clock, written: written)
    progress.begin("replaying t", total: 10_000, unit: .items("edits"))
    clock.time = .milliseconds(50)
    progress.update(1_000)
    #expect(written.value.isEmpty)
    clock.time = .milliseconds(100)
    progress.update(2_000)
    #expect(written.value == ["\rreplaying t: 2,000/10,000 edits (20%), 20,000 a second, 0.10 s"])
    clock.time = .milliseconds(150)
    progress.update(3_000)
    #expect(written.value.count == 1)
    clock.time = .milliseconds(1_000)
    progress.update(9_000)
    #expect(written.value.count == 2)
    // Padded to cover the longer line before it.
    #expect(written.value[1] == "\rreplaying t: 9,000/10,000 edits (90%), 9,000 a second, 1.00 s ")
    clock.time = .milliseconds(2_000)
    let summary = progress.end("replayed", done: 10_000)
    #expect(summary == "replayed 10,000 edits in 2.00 s, 5,000 a second")
    // The progress line is wiped before the summary is printed.
    let width = written.value[1].count - 1
    #expect(written.value.last == "\r" + String(repeating: " ", count: width) + "\r")
    #expect(progress.takeSummaries() == [summary])
    #expect(progress.takeSummaries().isEmpty)
  }

  @Test func bytesAreShownInMegabytes() {
    let clock = ManualClock()
    let written = Box()
    let progress = Self.reporter(clock: clock, written: written)
    progress.begin("loading big.txt", total: 5_000_000, unit: .bytes)
    clock.time = .seconds(1)
    progress.update(2_500_000)
    #expect(written.value == ["\rloading big.txt: 2.5/5.0 MB (50%), 2.5 MB/s, 1.00 s"])
    clock.time = .seconds(2)
    #expect(
      progress.end("loaded big.txt:", done: 5_000_000)
        == "loaded big.txt: 5.0 MB in 2.00 s, 2.5 MB/s")
  }

  @Test func theClockIsReadOnlyEveryCheckEverySteps() {
    let clock = ManualClock()
    let written = Box()
    let progress = Self.reporter(checkEvery: 4096, clock: clock, written: written)
    progress.begin("replaying t", total: 100_000, unit: .items("edits"))
    let before = clock.reads
    for n in 0..<100_000 {
      clock.time += .microseconds(10)
      progress.tick(n)
    }
    #expect(clock.reads - before == (100_000 + 4095) / 4096)
    // One line per 100 ms of the one second that went by, at most.
    #expect(written.value.count <= 10)
    #expect(!written.value.isEmpty)
  }

  @Test func notOnATerminalOnlyTheSummary() {
    let clock = ManualClock()
    let written = Box()
    let progress = Self.reporter(terminal: false, clock: clock, written: written)
    progress.begin("replaying t", total: 10, unit: .items("edits"))
    for n in 0..<10 {
      clock.time += .seconds(1)
      progress.update(n)
    }
    progress.end("replayed", done: 10)
    #expect(written.value.isEmpty)
    #expect(progress.takeSummaries() == ["replayed 10 edits in 10.00 s, 1 a second"])
  }

  @Test func numbersAreGrouped() {
    #expect(ProgressReporter.grouped(0) == "0")
    #expect(ProgressReporter.grouped(999) == "999")
    #expect(ProgressReporter.grouped(1_000) == "1,000")
    #expect(ProgressReporter.grouped(259_778) == "259,778")
    #expect(ProgressReporter.grouped(-1_234_567) == "-1,234,567")
  }

  /// A small trace of `count` one-letter insertions.
  static func trace(_ count: Int) throws -> URL {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("progress-trace-\(UUID().uuidString).json")
    let patches = (0..<count).map { "[\($0),0,\"a\"]" }.joined(separator: ",")
    let json =
      #"{"startContent":"","endContent":"\#(String(repeating: "a", count: count))","txns":"#
      + #"[{"time":"t","patches":[\#(patches)]}]}"#
    try Data(json.utf8).write(to: file)
    return file
  }

  @Test func theEngineReportsAReplay() throws {
    let file = try Self.trace(50)
    defer { try? FileManager.default.removeItem(at: file) }
    let clock = ManualClock()
    let written = Box()
    let engine = REPLEngine()
    engine.progress = ProgressReporter(
      isTerminal: true, interval: .zero, checkEvery: 10,
      now: {
        clock.time += .milliseconds(1)
        return clock.time
      }, write: { written.value.append($0) })
    let (output, _) = HumanMode(engine: engine).run("replay \(file.path) t")
    #expect(output.hasPrefix("replayed 50 edits into t in "))
    #expect(output.contains(" a second; the final text matches: yes"))
    #expect(written.value.contains { $0.hasPrefix("\rreplaying \(file.path): 10/50 edits (20%)") })
    #expect(written.value.last?.hasSuffix("\r") == true)
  }

  @Test func theEngineWithoutAReporterReportsNothing() throws {
    let file = try Self.trace(50)
    defer { try? FileManager.default.removeItem(at: file) }
    let engine = REPLEngine()
    let (response, _) = engine.handleLine(
      Array(#"{"cmd":"replay","path":"\#(file.path)","storage":"t"}"#.utf8))
    #expect(response.hasPrefix(#"{"ok":true"#))
    #expect(!response.contains("\n"))
  }

  /// Runs the program with `arguments` on `input`: its stdout and stderr.
  static func run(_ arguments: [String], input: String) throws -> (out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: REPL.path)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
  }

  @Test func jsonModeAnswersOneLineAndNothingElse() throws {
    let file = try Self.trace(10_000)
    defer { try? FileManager.default.removeItem(at: file) }
    let (out, err) = try Self.run(
      ["--json"], input: #"{"cmd":"replay","path":"\#(file.path)","storage":"t"}"# + "\n")
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty)
    #expect(lines[0].hasPrefix(#"{"ok":true"#))
    #expect(err.isEmpty)
  }

  @Test func humanModeOffATerminalPrintsSummariesOnly() throws {
    let trace = try Self.trace(10_000)
    defer { try? FileManager.default.removeItem(at: trace) }
    let big = FileManager.default.temporaryDirectory
      .appendingPathComponent("progress-big-\(UUID().uuidString).txt")
    try Data(String(repeating: "0123456789abcdef\n", count: 120_000).utf8).write(to: big)
    defer { try? FileManager.default.removeItem(at: big) }
    let (out, err) = try Self.run(
      [], input: "replay \(trace.path) t\nload \(big.path) big\nload \(big.path) again\n")
    let lines = out.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix("replayed 10,000 edits into t in ")
          && $0.hasSuffix(" a second; the final text matches: yes")
      })
    #expect(
      lines.contains { $0.hasPrefix("loaded \(big.path): 2.0 MB in ") && $0.hasSuffix(" MB/s") })
    #expect(!err.contains("\r"))
    // At start-up too, after --load.
    let (start, _) = try Self.run(["--load", big.path], input: "")
    #expect(start.contains("loaded \(big.path): 2.0 MB in "))
  }
}
