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

/// Prints `message` if tracing is on.
@inline(__always)
public func trace(_ message: @autoclosure () -> String) {
  if Trace.enabled { print(message()) }
}
