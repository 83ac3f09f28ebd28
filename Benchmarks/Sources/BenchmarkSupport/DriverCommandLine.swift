// What the replay drivers (TraceReplay, KeystrokeReplay) share on the
// command line: messages on the standard error, and the options they both
// take.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A driver's command line: its name (which prefixes every message) and its
/// usage (which follows every message about an option).
public struct DriverCommandLine: Sendable {
  public let program: String
  public let usage: String

  public init(program: String, usage: String) {
    self.program = program
    self.usage = usage
  }

  /// Writes `message` to the standard error.
  public func complain(_ message: String) {
    var line = "\(program): \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }

  /// Writes `message` to the standard error and exits with status 1.
  public func fail(_ message: String) -> Never {
    complain(message)
    exit(1)
  }

  /// The value of `option`: a positive integer, else the driver fails.
  public func positiveInt(_ text: String?, after option: String) -> Int {
    guard let text, let value = Int(text), value > 0 else {
      fail("\(option) takes a positive integer\n\(usage)")
    }
    return value
  }

  /// The value of `option`: a comma-separated list of `known` keys, else the
  /// driver fails.
  public func keys(_ text: String?, after option: String, known: [String]) -> [String] {
    guard let text else { fail("\(option) takes a list\n\(usage)") }
    let keys = text.split(separator: ",").map(String.init)
    for key in keys where !known.contains(key) {
      fail("unknown key \(key) for \(option) (known: \(known.joined(separator: ", ")))")
    }
    return keys
  }
}
