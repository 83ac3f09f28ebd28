extension String {
  /// The text of `rope`.
  ///
  /// - Complexity: O(n)
  public init(_ rope: Rope) {
    let count = rope.utf8Count
    self.init(unsafeUninitializedCapacity: count) { buffer in
      var written = 0
      rope.withChunkBytes { bytes in
        guard let base = bytes.baseAddress, let target = buffer.baseAddress else { return }
        (target + written).initialize(from: base, count: bytes.count)
        written += bytes.count
      }
      return written
    }
  }
}

extension Rope: Equatable {
  /// Whether the two ropes hold the same text (however it is chunked).
  ///
  /// - Complexity: O(n)
  public static func == (lhs: Rope, rhs: Rope) -> Bool {
    if lhs.tree.isIdentical(to: rhs.tree) { return true }
    if lhs.summary != rhs.summary { return false }
    var other = rhs.tree.makeIterator()
    var pending = ArraySlice<UInt8>()
    for chunk in lhs.tree {
      var mine = chunk.bytes[...]
      while !mine.isEmpty {
        if pending.isEmpty {
          guard let next = other.next() else { return false }
          pending = next.bytes[...]
        }
        let n = min(mine.count, pending.count)
        if mine.prefix(n) != pending.prefix(n) { return false }
        mine = mine.dropFirst(n)
        pending = pending.dropFirst(n)
      }
    }
    return true
  }
}

extension Rope: Hashable {
  /// Hashes the text (independently of how it is chunked).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(utf8Count)
    // Feed the hasher fixed-size blocks, so chunking cannot change the hash.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
      var filled = 0
      withChunkBytes { bytes in
        for byte in bytes {
          block[filled] = byte
          filled += 1
          if filled == 64 {
            hasher.combine(bytes: UnsafeRawBufferPointer(block))
            filled = 0
          }
        }
      }
      hasher.combine(
        bytes: UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: block[..<filled])))
    }
  }
}

extension Rope: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) {
    self.init(value)
  }
}

extension Rope: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { String(self) }

  public var debugDescription: String {
    "Rope(\(String(self).debugDescription), \(summary))"
  }
}
