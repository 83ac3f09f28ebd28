#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parts of the soak that `--skip` can leave out (to let the rest run
/// when one of them finds an engine defect).
enum Part: String, CaseIterable, Sendable {
  /// Edits that must be refused (out of bounds, inside a surrogate pair).
  case hostile
  /// Pinned versions, origin-tagged insertions on them, and `map`.
  case origin
  /// Writing Tools sessions (task 0).
  case session
  /// In sessions: undo, redo and revert of the tool's replacements.
  case undo
  /// In sessions: the person editing while the tool replaces on an older
  /// context version.
  case mixed
  /// In mixed sessions: a peer's insertion on the version the context was
  /// made at.
  case sessionPeer = "session-peer"
  /// Snapshot, locate and live-context queries.
  case reads
  /// The comparison of the text around every edit with the model.
  case spot
  /// The history's task: a second document with the history recording,
  /// every group undone and redone right after and checked (the person's,
  /// a peer's, a tool's after its session ended, with tracked ranges put
  /// back).
  case history
}

struct Options: Sendable {
  var ops = 1_000_000
  var megabytes = 100
  var storages = 100
  var tasks = 4
  var seed = UInt64.random(in: 0...999_999)
  var checkEvery = 0
  /// Per mille of task 0's steps that run a Writing Tools session.
  var sessions = 20
  var json = false
  /// A storage whose engine calls are printed to standard error, as Swift.
  var trace: String? = nil
  var skip: Set<Part> = []

  static let usage = """
    usage: Soak [--ops N] [--megabytes M] [--storages S] [--tasks T] [--seed N]
                [--check-every K] [--sessions P] [--skip PART,…] [--json]
                [--trace ID]

    Runs N random operations (default 1,000,000) from T tasks (default 4) on
    one Document of M decimal megabytes (default 100) in S storages (default
    100), each storage owned by one task and mirrored by a plain UTF-16 model,
    and compares every storage with its model at the end (and after about
    every K operations, if K > 0). Exits 1 if they differ.

    --seed N        the run's seed (printed; default random); task t and
                    storage i draw from their own streams of it
    --sessions P    per mille of task 0's steps that run a Writing Tools
                    session of 1 to 30 operations (default 20)
    --skip PART,…   leave out: \(Part.allCases.map(\.rawValue).joined(separator: ", "))
    --json          also print one machine-readable line
    --trace ID      print the engine calls on storage ID (s000, s001, …) to
                    standard error, as Swift, to reduce a failure
    """

  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var i = 1
    func value(_ name: String) -> String {
      i += 1
      guard i < arguments.count else { fail("\(name) needs a value") }
      return arguments[i]
    }
    func number(_ name: String, minimum: Int) -> Int {
      let text = value(name).replacingUnderscores()
      guard let n = Int(text), n >= minimum else {
        fail("\(name) needs an integer >= \(minimum), not \(text)")
      }
      return n
    }
    while i < arguments.count {
      let argument = arguments[i]
      switch argument {
      case "--ops": options.ops = number(argument, minimum: 1)
      case "--megabytes": options.megabytes = number(argument, minimum: 1)
      case "--storages": options.storages = number(argument, minimum: 1)
      case "--tasks": options.tasks = number(argument, minimum: 1)
      case "--seed":
        let text = value(argument)
        guard let seed = UInt64(text) else { fail("--seed needs an unsigned integer") }
        options.seed = seed
      case "--check-every": options.checkEvery = number(argument, minimum: 0)
      case "--sessions": options.sessions = min(1000, number(argument, minimum: 0))
      case "--json": options.json = true
      case "--trace": options.trace = value(argument)
      case "--skip":
        for name in value(argument).split(separator: ",") {
          guard let part = Part(rawValue: String(name)) else { fail("unknown part \(name)") }
          options.skip.insert(part)
        }
      case "-h", "--help":
        print(usage)
        exit(0)
      default: fail("unknown argument \(argument)")
      }
      i += 1
    }
    if options.tasks > options.storages {
      fail("--tasks must not exceed --storages (each task owns at least one storage)")
    }
    return options
  }

  func runs(_ part: Part) -> Bool { !skip.contains(part) }
}

private func fail(_ message: String) -> Never {
  var stderr = StandardError()
  print("Soak: \(message)\n\n\(Options.usage)", to: &stderr)
  exit(2)
}

extension String {
  fileprivate func replacingUnderscores() -> String { filter { $0 != "_" } }
}

/// Standard error, for `print(_:to:)`.
struct StandardError: TextOutputStream {
  mutating func write(_ string: String) { writeToStandardError(string) }
}

private func writeToStandardError(_ string: String) {
  var string = string
  string.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
