import DocumentEngine
import TextRope

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

// Single-character edits at random offsets, alternating insert and delete
// (so that the size stays about the same): one loop per structure. Edit k
// is at `offsets[next]`, `next` going round; even k insert, odd k delete.

/// Makes `count` single-character edits in a rope.
public func makeSingleEdits(
  _ count: Int, in rope: inout Rope, offsets: [Int], next: inout Int
) {
  var i = next
  for step in 0..<count {
    let offset = offsets[i]
    i = i + 1 == offsets.count ? 0 : i + 1
    if step & 1 == 0 {
      insertCharacter(in: &rope, atUTF16: offset)
    } else {
      deleteScalar(in: &rope, atUTF16: offset)
    }
  }
  next = i
}

/// Makes `count` single-character edits in storage `id` of a document.
public func makeSingleEdits(
  _ count: Int, in document: Document, _ id: StorageID, offsets: [Int], next: inout Int
) {
  var i = next
  for step in 0..<count {
    let offset = offsets[i]
    i = i + 1 == offsets.count ? 0 : i + 1
    if step & 1 == 0 {
      insertCharacter(in: document, id, atUTF16: offset)
    } else {
      deleteScalar(in: document, id, atUTF16: offset)
    }
  }
  next = i
}
