import CEngineICU
import TextRope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread_mutex_t`. (The thread sanitizer follows pthread
/// mutexes; on Linux it does not see the futex under `Synchronization.Mutex`
/// and reports races that are not there.)
final class _Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock<R>(_ body: (inout Value) -> R) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body(&value)
  }
}

/// Which rules an ICU break iterator follows.
enum _BreakerKind: Hashable, Sendable {
  /// Grapheme clusters (UBRK_CHARACTER).
  case characters
  /// Words (UBRK_WORD), with the rules of a locale ("" for the root).
  case words(locale: String)
}

/// An ICU break iterator, owned by one user at a time.
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
/// and compiles its rules), taking one from the pool costs a lock. Each kind
/// keeps its own idle iterators.
enum _BreakerPool {
  static let idle = _Locked<[_BreakerKind: [_Breaker]]>([:])
  /// The most idle iterators kept of one kind.
  static let keep = 8
  /// The most idle iterators kept of all kinds together (word iterators of
  /// many locales).
  static let keepInAll = 32

  /// A break iterator lent out and set to a rope's text; give it back with
  /// ``release()``.
  struct Lease {
    let kind: _BreakerKind
    let breaker: _Breaker
    let source: _RopeTextSource

    func release() {
      withExtendedLifetime(source) {}
      give(breaker, kind: kind)
    }
  }

  /// Lends a break iterator of `kind` set to `rope`'s text.
  static func lease(
    _ kind: _BreakerKind = .characters, over rope: Rope
  ) throws(BoundaryError) -> Lease {
    guard rope.utf16Count <= Int(Int32.max) else {
      throw .textTooLong(utf16Count: rope.utf16Count)
    }
    let breaker = try take(kind)
    let source = _RopeTextSource(rope: rope)
    var message = [CChar](repeating: 0, count: 256)
    let ok = engine_breaker_set_text(
      breaker.raw, Unmanaged.passUnretained(source).toOpaque(), Int64(rope.utf16Count),
      Int32(Rope.maxChunkUTF8Count), _RopeTextSource.fill, &message, message.count)
    guard ok else {
      give(breaker, kind: kind)
      throw .icuUnavailable(_message(message))
    }
    return Lease(kind: kind, breaker: breaker, source: source)
  }

  /// Runs `body` with a break iterator of `kind` set to `rope`'s text.
  static func withBreaker<R>(
    _ kind: _BreakerKind = .characters, over rope: Rope,
    _ body: (OpaquePointer) throws(BoundaryError) -> R
  ) throws(BoundaryError) -> R {
    let lease = try lease(kind, over: rope)
    defer { lease.release() }
    return try body(lease.breaker.raw)
  }

  /// Runs `body` with a break iterator of `kind` set to the UTF-16 of
  /// `text`, held in one contiguous buffer.
  static func withBreaker<R>(
    _ kind: _BreakerKind, overContiguous text: String,
    _ body: (OpaquePointer) throws(BoundaryError) -> R
  ) throws(BoundaryError) -> R {
    let units = Array(text.utf16)
    guard units.count <= Int(Int32.max) else { throw .textTooLong(utf16Count: units.count) }
    let breaker = try take(kind)
    defer { give(breaker, kind: kind) }
    var message = [CChar](repeating: 0, count: 256)
    return try units.withUnsafeBufferPointer { buffer throws(BoundaryError) -> R in
      guard
        engine_breaker_set_utf16(
          breaker.raw, buffer.baseAddress, Int32(buffer.count), &message, message.count)
      else { throw .icuUnavailable(_message(message)) }
      return try body(breaker.raw)
    }
  }

  static func take(_ kind: _BreakerKind) throws(BoundaryError) -> _Breaker {
    if let breaker = idle.withLock({ $0[kind]?.popLast() }) { return breaker }
    var message = [CChar](repeating: 0, count: 512)
    let raw: OpaquePointer?
    switch kind {
    case .characters: raw = engine_breaker_open_characters(&message, message.count)
    case .words(let locale): raw = engine_breaker_open_words(locale, &message, message.count)
    }
    guard let raw else { throw .icuUnavailable(_message(message)) }
    return _Breaker(raw: raw)
  }

  static func give(_ breaker: _Breaker, kind: _BreakerKind) {
    idle.withLock { idle in
      let all = idle.values.reduce(0) { $0 + $1.count }
      if idle[kind, default: []].count < keep && all < keepInAll {
        idle[kind, default: []].append(breaker)
      }
    }
  }
}

/// The text ICU reads: a rope snapshot, served a chunk at a time in UTF-16.
///
/// ICU walks forward, but a query that starts near a chunk's start backs up
/// into the chunk before, then comes forward again: the last few chunks
/// served are kept in UTF-16, so that going back and forth costs a copy, not
/// a seek and a transcoding.
final class _RopeTextSource {
  let rope: Rope
  /// Recently served chunks: their UTF-16 start and their UTF-16 units.
  var recent: [(start: Int, units: [UInt16])] = []

  init(rope: Rope) {
    self.rope = rope
  }

  /// The chunk holding UTF-16 offset `index` in UTF-16, and its start.
  func chunk(at index: Int, forward: Bool) -> (start: Int, units: [UInt16]) {
    for entry in recent {
      let end = entry.start + entry.units.count
      if forward ? (entry.start <= index && index < end) : (entry.start < index && index <= end) {
        return entry
      }
    }
    guard let (chunk, prefix) = rope.chunk(at: index, in: .utf16, preferEarlier: !forward) else {
      return (0, [])
    }
    let units = chunk.utf8.withUnsafeBufferPointer { bytes in
      [UInt16](unsafeUninitializedCapacity: chunk.summary.utf16) { buffer, count in
        count = _UTF8Scalar.transcodeToUTF16(bytes, into: buffer)
      }
    }
    let entry = (start: prefix.utf16, units: units)
    if recent.count == 3 { recent.removeFirst() }
    recent.append(entry)
    return entry
  }

  /// The `engine_text_fill` callback: the chunk holding `index`, in UTF-16.
  static let fill: engine_text_fill = { context, index, forward, buffer, capacity, start in
    guard let context, let buffer, let start else { return 0 }
    let source = Unmanaged<_RopeTextSource>.fromOpaque(context).takeUnretainedValue()
    let (chunkStart, units) = source.chunk(at: Int(index), forward: forward)
    let count = min(units.count, Int(capacity))
    units.withUnsafeBufferPointer { source in
      if let base = source.baseAddress { buffer.update(from: base, count: count) }
    }
    start.pointee = Int64(chunkStart)
    return Int32(count)
  }
}
