import EditingTraces

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An editing trace with its patches flattened into plain arrays, ready to
/// replay without touching `EditingTrace` in the measured loop.
public struct PreparedTrace: @unchecked Sendable {
  public let name: String
  public let startContent: String
  public let endContent: String
  /// Scalar positions.
  public let positions: [Int]
  /// Scalars deleted.
  public let deleteCounts: [Int]
  /// Text inserted.
  public let inserts: [String]
  /// Text inserted, as UTF-8 (for the flat baseline).
  public let insertsUTF8: [[UInt8]]

  public var patchCount: Int { positions.count }

  /// Loads the shipped trace `name` from ``tracesDirectory``.
  public init(name: String) {
    self.init(path: tracesDirectory + "/" + name + ".json.gz")
  }
}

/// `Tests/Data/traces` of the engine package (or `$ROPE_TRACES_DIR`).
public var tracesDirectory: String {
  if let custom = getenv("ROPE_TRACES_DIR") { return String(cString: custom) }
  // .../Benchmarks/Sources/BenchmarkSupport/Traces.swift -> package root
  var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(4)
  return parts.joined(separator: "/") + "/Tests/Data/traces"
}

/// Fails loudly unless `actual` is exactly (byte for byte) `expected`.
public func checkResult(_ actual: String, equals expected: String, _ what: String) {
  if !actual.utf8.elementsEqual(expected.utf8) {
    let a = Array(actual.utf8)
    let e = Array(expected.utf8)
    let firstDiff =
      (0..<min(a.count, e.count)).first(where: { a[$0] != e[$0] }) ?? min(a.count, e.count)
    fatalError(
      "\(what): result differs from endContent (\(a.count) vs \(e.count) bytes, first difference at byte \(firstDiff))"
    )
  }
}
