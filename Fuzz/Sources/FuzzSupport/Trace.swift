#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tracing for reproducing a finding: with `FUZZ_TRACE=1` in the
/// environment, the targets print each operation they decode (as the Swift
/// call it makes, where they can) and its outcome.
public enum Trace {
  /// Whether `FUZZ_TRACE` is set.
  public static let enabled: Bool = getenv("FUZZ_TRACE") != nil
}

/// Findings to steer around while exploring: `FUZZ_AVOID=a,b` makes the
/// decoders stop generating the inputs that reach the known findings named
/// (see each target for the names). The oracles stay as they are; the
/// inputs change. For exploring past a known defect until it is fixed, never
/// for CI.
public enum Avoid {
  /// The names in `FUZZ_AVOID`.
  public static let names: Set<String> = {
    guard let value = getenv("FUZZ_AVOID") else { return [] }
    return Set(String(cString: value).split(separator: ",").map(String.init))
  }()

  /// Whether `name` is to be avoided.
  public static func contains(_ name: String) -> Bool { names.contains(name) }
}

/// Prints `message` to standard error (unbuffered: the trace must survive
/// a trap) if tracing is on.
@inline(__always)
public func trace(_ message: @autoclosure () -> String) {
  guard Trace.enabled else { return }
  var line = message() + "\n"
  line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
