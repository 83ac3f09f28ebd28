/// xoshiro256** seeded through SplitMix64: fast, and the same sequence on
/// every platform for one seed and one stream (a task, a storage).
struct SoakRandom: RandomNumberGenerator {
  private var a: UInt64
  private var b: UInt64
  private var c: UInt64
  private var d: UInt64

  init(seed: UInt64, stream: UInt64) {
    var x = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
    a = Self.splitMix(&x)
    b = Self.splitMix(&x)
    c = Self.splitMix(&x)
    d = Self.splitMix(&x)
  }

  private static func splitMix(_ x: inout UInt64) -> UInt64 {
    x &+= 0x9E37_79B9_7F4A_7C15
    var z = x
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func next() -> UInt64 {
    let result = ((b &* 5) << 7 | (b &* 5) >> 57) &* 9
    let t = b << 17
    c ^= a
    d ^= b
    b ^= c
    a ^= d
    c ^= t
    d = d << 45 | d >> 19
    return result
  }

  /// A uniform integer in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// True with probability `percent` / 100.
  mutating func percent(_ percent: Int) -> Bool { int(0...99) < percent }

  /// A uniform element of a non-empty array.
  mutating func pick<T>(_ array: [T]) -> T { array[int(0...(array.count - 1))] }
}
