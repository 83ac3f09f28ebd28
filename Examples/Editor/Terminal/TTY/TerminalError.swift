#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``Terminal`` operation failed.
public enum TerminalError: Error, Hashable, Sendable {
  /// The file descriptor is not a terminal (standard input redirected from
  /// a file or a pipe).
  case notATerminal(descriptor: Int32)
  /// Another ``Terminal`` of this process is in raw mode: the signal
  /// handlers restore one terminal, so only one may be raw at a time.
  case anotherTerminalIsRaw
  /// The input ended: the terminal hung up (its window closed) or standard
  /// input reached its end.
  case endOfInput
  /// A system call failed with `errno`.
  case systemCall(String, errno: Int32)
}

extension TerminalError: CustomStringConvertible {
  /// What went wrong, in a sentence fragment.
  public var description: String {
    switch self {
    case .notATerminal(let descriptor):
      "file descriptor \(descriptor) is not a terminal"
    case .anotherTerminalIsRaw:
      "another terminal of this process is in raw mode"
    case .endOfInput:
      "the terminal's input ended"
    case .systemCall(let name, let code):
      "\(name) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
  }
}
