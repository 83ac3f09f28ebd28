import DocumentEngine
import TextRope

import struct _RopeModule.BigString

/// Inserts "x" at UTF-16 offset `offset` (one unit earlier if `offset` is
/// between the halves of a surrogate pair).
@inline(__always)
public func insertCharacter(in rope: inout Rope, atUTF16 offset: Int) {
  do {
    try rope.insert("x", at: offset)
  } catch RopeError.splitsSurrogatePair {
    do { try rope.insert("x", at: offset - 1) } catch {
      fatalError("insert at \(offset - 1): \(error)")
    }
  } catch {
    fatalError("insert at \(offset): \(error)")
  }
}

/// Deletes the scalar at UTF-16 offset `offset` (both halves of a surrogate
/// pair if `offset` is on either of them).
@inline(__always)
public func deleteScalar(in rope: inout Rope, atUTF16 offset: Int) {
  do {
    try rope.delete(offset..<offset + 1)
  } catch RopeError.splitsSurrogatePair(let at) {
    let range = at == offset ? offset - 1..<offset + 1 : offset..<offset + 2
    do { try rope.delete(range) } catch { fatalError("delete \(range): \(error)") }
  } catch {
    fatalError("delete at \(offset): \(error)")
  }
}

/// `insertCharacter(in:atUTF16:)` as the person's edit of storage `id`.
@inline(__always)
public func insertCharacter(in document: Document, _ id: StorageID, atUTF16 offset: Int) {
  do {
    try document.edit(id, range: offset..<offset, with: "x")
  } catch .invalidRange(_, .splitsSurrogatePair) {
    do { try document.edit(id, range: offset - 1..<offset - 1, with: "x") } catch {
      fatalError("insert at \(offset - 1): \(error)")
    }
  } catch {
    fatalError("insert at \(offset): \(error)")
  }
}

/// `deleteScalar(in:atUTF16:)` as the person's edit of storage `id`.
@inline(__always)
public func deleteScalar(in document: Document, _ id: StorageID, atUTF16 offset: Int) {
  do {
    try document.edit(id, range: offset..<offset + 1, with: "")
  } catch .invalidRange(_, .splitsSurrogatePair(let at)) {
    let range = at == offset ? offset - 1..<offset + 1 : offset..<offset + 2
    do { try document.edit(id, range: range, with: "") } catch {
      fatalError("delete \(range): \(error)")
    }
  } catch {
    fatalError("delete at \(offset): \(error)")
  }
}

/// Inserts "x" at UTF-16 offset `offset` of a `BigString`, or deletes the
/// scalar there (rounding an offset inside a surrogate pair down, as the
/// rope's edits do). No copy of `big` may be alive during the call: the edit
/// would copy the shared nodes.
@inline(__always)
public func editScalar(in big: inout BigString, insert: Bool, atUTF16 offset: Int) {
  let index = big.unicodeScalars.index(
    roundingDown: big.utf16.index(big.startIndex, offsetBy: offset))
  if insert {
    big.unicodeScalars.insert("x", at: index)
  } else {
    _ = big.unicodeScalars.remove(at: index)
  }
}

/// Single-character edits at random offsets of one text, alternating insert
/// and delete (so that the size stays about the same), kept across a
/// benchmark's iterations: edit k is at `offsets[next]`, `next` going round;
/// even k insert, odd k delete.
public final class SingleEdits<Text>: @unchecked Sendable {
  public var text: Text
  public let offsets: [Int]
  public var next = 0

  public init(_ text: Text, offsets: [Int]) {
    self.text = text
    self.offsets = offsets
  }

  /// Makes the next `count` edits with `edit` (given the text, whether to
  /// insert, and the UTF-16 offset).
  @inlinable @inline(__always)
  public func make(_ count: Int, _ edit: (inout Text, _ insert: Bool, _ offset: Int) -> Void) {
    var i = next
    for step in 0..<count {
      edit(&text, step & 1 == 0, offsets[i])
      i = i + 1 == offsets.count ? 0 : i + 1
    }
    next = i
  }
}

extension SingleEdits where Text == Rope {
  /// The next `count` edits of the rope.
  @inlinable @inline(__always)
  public func make(_ count: Int) {
    make(count) { rope, insert, offset in
      if insert {
        insertCharacter(in: &rope, atUTF16: offset)
      } else {
        deleteScalar(in: &rope, atUTF16: offset)
      }
    }
  }
}

extension SingleEdits where Text == BigString {
  /// The next `count` edits of the `BigString`.
  @inlinable @inline(__always)
  public func make(_ count: Int) {
    make(count) { big, insert, offset in editScalar(in: &big, insert: insert, atUTF16: offset) }
  }
}

extension SingleEdits where Text == Document {
  /// The next `count` edits of storage `id`, as the person's.
  @inlinable @inline(__always)
  public func make(_ count: Int, storage id: StorageID) {
    make(count) { document, insert, offset in
      if insert {
        insertCharacter(in: document, id, atUTF16: offset)
      } else {
        deleteScalar(in: document, id, atUTF16: offset)
      }
    }
  }
}
