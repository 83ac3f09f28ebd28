/// UTF-8 bytes kept in room that is reused: the bytes are the first
/// ``count`` of the room, and what lies past them means nothing. Writing
/// makes no array while the room suffices; emptying keeps the room.
///
/// The rope writes an edit's removed bytes in one
/// (``Rope/replace(_:in:with:removedUTF8:)``); the document's history keeps
/// a keystroke's deleted text in one, and joins a backspace's in front.
///
/// What another module calls on a keystroke takes or gives whole rooms and
/// raw pointers, not closures: a generic method is not specialized across
/// modules here.
package struct UTF8Room: Sendable {
  private var room: [UInt8] = []
  /// How many bytes it holds.
  package private(set) var count = 0

  package init() {}

  /// A room holding `bytes`, of their size.
  package init(_ bytes: some Sequence<UInt8>) {
    room = Array(bytes)
    count = room.count
  }

  /// How many bytes it can hold before it grows.
  package var capacity: Int { room.count }

  /// Calls `body` with the bytes.
  package func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    room.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<count])) }
  }

  /// Makes it empty, keeping its room if that is at most `limit` bytes.
  package mutating func removeAll(keepingRoomUpTo limit: Int = .max) {
    count = 0
    if room.count > limit { room = [] }
  }

  /// Copies the bytes to `destination`, which has room for ``count``.
  ///
  /// Mutating only so that a caller holding the room in place hands it
  /// over without retaining its storage for the call.
  package mutating func copyBytes(to destination: UnsafeMutablePointer<UInt8>) {
    room.withUnsafeBufferPointer { source in
      if let from = source.baseAddress { destination.update(from: from, count: count) }
    }
  }

  /// Inserts the bytes of `other` at `offset` (`0...count`).
  package mutating func insert(contentsOf other: UTF8Room, at offset: Int) {
    other.room.withUnsafeBufferPointer {
      insert(UnsafeBufferPointer(rebasing: $0[..<other.count]), at: offset)
    }
  }

  /// Inserts `bytes` at `offset` (`0...count`), moving the bytes after it;
  /// the room grows (at least doubling) if it must.
  package mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
    replaceSubrange(offset..<offset, with: bytes)
  }

  /// Replaces the bytes in `range` (within `0..<count`) with `bytes`,
  /// moving the bytes after it; the room grows (at least doubling) if it
  /// must.
  package mutating func replaceSubrange(_ range: Range<Int>, with bytes: UnsafeBufferPointer<UInt8>)
  {
    let end = count - range.count + bytes.count
    if room.count < end {
      room.append(contentsOf: repeatElement(0, count: max(end, 2 * room.count) - room.count))
    }
    let old = count
    room.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      // (`copyMemory` copies overlapping bytes as `memmove` does.)
      if range.upperBound < old && range.count != bytes.count {
        UnsafeMutableRawPointer(base + range.lowerBound + bytes.count)
          .copyMemory(from: base + range.upperBound, byteCount: old - range.upperBound)
      }
      if let from = bytes.baseAddress {
        UnsafeMutableRawPointer(base + range.lowerBound).copyMemory(
          from: from, byteCount: bytes.count)
      }
    }
    count = end
  }

  /// Drops the last `k` bytes (the room stays).
  package mutating func removeLast(_ k: Int) { count -= k }

  /// The byte at `i` (within `0..<count`).
  package subscript(i: Int) -> UInt8 { room[i] }

  /// Appends `bytes`.
  package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    insert(bytes, at: count)
  }
}

extension UTF8Room: _RemovedTextSink {
  static var keeps: Bool { true }
  mutating func keep(utf8 bytes: UnsafeBufferPointer<UInt8>) { append(bytes) }
}
