#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A fast, seedable generator (SplitMix64) for randomized tests, so that a
/// failure can be replayed from its printed seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  public private(set) var state: UInt64

  /// A generator starting from `seed`.
  public init(seed: UInt64) {
    self.state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Settings of the randomized tests, overridable from the environment.
public enum TestSettings {
  /// The seed of a randomized test: `SEED` from the environment if set, else
  /// a fresh one. Printed, so that a failing run can be repeated with
  /// `SEED=<n> swift test`.
  public static func seed(_ testName: String) -> UInt64 {
    let seed: UInt64
    if let text = ProcessInfo.processInfo.environment["SEED"], let value = UInt64(text) {
      seed = value
    } else {
      seed = UInt64.random(in: 0...UInt64(UInt32.max))
    }
    print("\(testName): SEED=\(seed)")
    return seed
  }

  /// How many rounds a randomized test runs: `ITERATIONS` from the
  /// environment if set, else `defaultCount`.
  public static func iterations(_ defaultCount: Int) -> Int {
    if let text = ProcessInfo.processInfo.environment["ITERATIONS"], let value = Int(text) {
      return value
    }
    return defaultCount
  }
}

/// Files shipped with the tests (`Tests/Data`).
public enum TestData {
  /// The `Tests/Data` folder of this package.
  public static var directory: String {
    let thisFile = "\(#filePath)"
    var parts = thisFile.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(2)  // _EngineTestSupport/SeededRandom.swift
    return parts.joined(separator: "/") + "/Data"
  }

  /// The path of an editing trace shipped with the tests, by name
  /// (e.g. `"rustcode"`).
  public static func trace(_ name: String) -> String {
    "\(directory)/traces/\(name).json.gz"
  }

  /// The names of all editing traces shipped with the tests.
  public static let traceNames = [
    "seph-blog1", "rustcode", "sveltecomponent", "json-crdt-patch", "json-crdt-blog-post",
    "clownschool_flat", "friendsforever_flat",
  ]
}
