#if canImport(Glibc)
import Glibc
#endif

/// Why driving the editor failed; a test that throws it fails with its
/// description (which shows the screen when a wait ran out).
enum EndToEndError: Error, CustomStringConvertible {
  /// A system call failed.
  case system(String, errno: Int32)
  /// What was waited for did not happen in time; the screen and the end of
  /// the output as they were then.
  case timedOut(String, screen: String, output: String)
  /// The editor did not exit in time (it was killed).
  case didNotExit(screen: String)
  /// The editor binary is not beside the test bundle.
  case noBinary(String)

  var description: String {
    switch self {
    case .system(let call, let code):
      "\(call) failed: \(String(cString: strerror(code)))"
    case .timedOut(let what, let screen, let output):
      "timed out waiting for \(what)\n--- screen ---\n\(screen)\n--- last output ---\n\(output)"
    case .didNotExit(let screen):
      "the editor did not exit in time (killed)\n--- screen ---\n\(screen)"
    case .noBinary(let path):
      "no editor binary at \(path) (build with --build-tests: the tests depend on `editor`)"
    }
  }
}
