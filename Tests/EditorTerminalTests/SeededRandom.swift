#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fast, seedable generator (SplitMix64) for randomized tests, so that a
/// failure can be replayed from its printed seed.
struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The seed of a randomized test: `SEED` from the environment if set, else
  /// a fresh one; printed, so that a failing run can be repeated with
  /// `SEED=<n> swift test`.
  static func seed(_ testName: String) -> UInt64 {
    let seed: UInt64
    if let text = getenv("SEED").map({ String(cString: $0) }), let value = UInt64(text) {
      seed = value
    } else {
      seed = UInt64.random(in: 0...UInt64(UInt32.max))
    }
    print("\(testName): SEED=\(seed)")
    return seed
  }

  /// How many rounds a randomized test runs: `ITERATIONS` from the
  /// environment if set, else `defaultCount`.
  static func iterations(_ defaultCount: Int) -> Int {
    if let text = getenv("ITERATIONS").map({ String(cString: $0) }), let value = Int(text) {
      return value
    }
    return defaultCount
  }
}
