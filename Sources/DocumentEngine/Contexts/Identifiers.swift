import Foundation

/// Random (version 4) UUIDs for contexts and sessions from a generator
/// seeded once from the system's random source: `UUID()` reads the kernel's
/// random source on every call (docs/benchmarks-history.main.md, "Contexts").
/// Identifiers need to be unique, not secret.
enum _Identifiers {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var state: UInt64 = UInt64.random(in: .min ... .max)
  nonisolated(unsafe) private static var stream: UInt64 = UInt64.random(in: .min ... .max) | 1

  private static func next() -> UInt64 {
    // SplitMix64 on a stream that starts at a random point.
    state &+= 0x9E37_79B9_7F4A_7C15 &* stream
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A fresh random UUID.
  static func make() -> UUID {
    lock.lock()
    let (high, low) = (next(), next())
    lock.unlock()
    return uuid(high, low)
  }

  /// `count` fresh random UUIDs, under one lock.
  static func make(count: Int) -> [UUID] {
    guard count > 0 else { return [] }
    var halves: [(UInt64, UInt64)] = []
    halves.reserveCapacity(count)
    lock.lock()
    for _ in 0..<count { halves.append((next(), next())) }
    lock.unlock()
    return halves.map { uuid($0.0, $0.1) }
  }

  /// The version 4 UUID of 128 random bits.
  private static func uuid(_ high: UInt64, _ low: UInt64) -> UUID {
    var bytes = (
      UInt8(truncatingIfNeeded: high >> 56), UInt8(truncatingIfNeeded: high >> 48),
      UInt8(truncatingIfNeeded: high >> 40), UInt8(truncatingIfNeeded: high >> 32),
      UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
      UInt8(truncatingIfNeeded: high >> 8), UInt8(truncatingIfNeeded: high),
      UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48),
      UInt8(truncatingIfNeeded: low >> 40), UInt8(truncatingIfNeeded: low >> 32),
      UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
      UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low)
    )
    bytes.6 = (bytes.6 & 0x0F) | 0x40  // version 4
    bytes.8 = (bytes.8 & 0x3F) | 0x80  // RFC 4122 variant
    return UUID(uuid: bytes)
  }
}
