/// A small, fast, deterministic generator (SplitMix64), so that every run
/// edits the same offsets and generates the same text.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  var state: UInt64

  public init(seed: UInt64) {
    self.state = seed
  }

  @inline(__always)
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }

  /// A random value in `0..<bound` (slightly biased, which does not matter here).
  @inline(__always)
  public mutating func below(_ bound: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(bound).multipliedFullWidth(by: next())).high)
  }
}

/// `count` random offsets in `0..<bound`.
public func randomOffsets(count: Int, below bound: Int, seed: UInt64) -> [Int] {
  var rng = SplitMix64(seed: seed)
  return (0..<count).map { _ in rng.below(bound) }
}
