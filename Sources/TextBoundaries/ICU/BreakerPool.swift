import CEngineICU
import Synchronization
import TextRope

/// An ICU grapheme break iterator, owned by one user at a time.
final class _Breaker: @unchecked Sendable {
  let raw: OpaquePointer

  init(raw: OpaquePointer) {
    self.raw = raw
  }

  deinit {
    engine_breaker_close(raw)
  }
}

/// Break iterators kept for reuse: opening one costs microseconds (ICU loads
/// and compiles its rules), taking one from the pool costs a lock.
enum _BreakerPool {
  static let idle = Mutex<[_Breaker]>([])
  static let keep = 8

  /// A break iterator lent out and set to a rope's text; give it back with
  /// ``release()``.
  struct Lease {
    let breaker: _Breaker
    let source: _RopeTextSource

    func release() {
      withExtendedLifetime(source) {}
      give(breaker)
    }
  }

  /// Lends a break iterator set to `rope`'s text.
  static func lease(over rope: Rope) throws(BoundaryError) -> Lease {
    guard rope.utf16Count <= Int(Int32.max) else {
      throw .textTooLong(utf16Count: rope.utf16Count)
    }
    let breaker = try take()
    let source = _RopeTextSource(rope: rope)
    var message = [CChar](repeating: 0, count: 256)
    let ok = engine_breaker_set_text(
      breaker.raw, Unmanaged.passUnretained(source).toOpaque(), Int64(rope.utf16Count),
      Int32(Rope.maxChunkUTF8Count), _RopeTextSource.fill, &message, message.count)
    guard ok else {
      give(breaker)
      throw .icuUnavailable(_message(message))
    }
    return Lease(breaker: breaker, source: source)
  }

  /// Runs `body` with a break iterator set to `rope`'s text.
  static func withBreaker<R>(
    over rope: Rope, _ body: (OpaquePointer) throws(BoundaryError) -> R
  ) throws(BoundaryError) -> R {
    let lease = try lease(over: rope)
    defer { lease.release() }
    return try body(lease.breaker.raw)
  }

  static func take() throws(BoundaryError) -> _Breaker {
    if let breaker = idle.withLock({ $0.popLast() }) { return breaker }
    var message = [CChar](repeating: 0, count: 512)
    guard let raw = engine_breaker_open_characters(&message, message.count) else {
      throw .icuUnavailable(_message(message))
    }
    return _Breaker(raw: raw)
  }

  static func give(_ breaker: _Breaker) {
    idle.withLock {
      if $0.count < keep { $0.append(breaker) }
    }
  }
}

/// The text ICU reads: a rope snapshot, served a chunk at a time in UTF-16.
final class _RopeTextSource {
  let rope: Rope

  init(rope: Rope) {
    self.rope = rope
  }

  /// The `engine_text_fill` callback: the chunk holding `index`, in UTF-16.
  static let fill: engine_text_fill = { context, index, forward, buffer, capacity, start in
    guard let context, let buffer, let start else { return 0 }
    let source = Unmanaged<_RopeTextSource>.fromOpaque(context).takeUnretainedValue()
    let cursor = source.rope.chunkCursor(at: Int(index), in: .utf16, preferEarlier: !forward)
    guard let chunk = cursor.chunk else {
      start.pointee = 0
      return 0
    }
    start.pointee = Int64(cursor.start.utf16)
    var written = 0
    let limit = Int(capacity)
    chunk.utf8.withUnsafeBufferPointer { bytes in
      if chunk.summary.utf16 == bytes.count {  // ASCII
        for i in 0..<min(bytes.count, limit) { buffer[i] = UInt16(bytes[i]) }
        written = min(bytes.count, limit)
        return
      }
      var i = 0
      while i < bytes.count && written < limit {
        let (scalar, length) = _UTF8Scalar.decode(bytes, at: i)
        i += length
        if scalar < 0x1_0000 {
          buffer[written] = UInt16(scalar)
          written += 1
        } else if written + 1 < limit {
          let v = scalar - 0x1_0000
          buffer[written] = UInt16(0xD800 + (v >> 10))
          buffer[written + 1] = UInt16(0xDC00 + (v & 0x3FF))
          written += 2
        } else {
          break
        }
      }
    }
    return Int32(written)
  }
}
