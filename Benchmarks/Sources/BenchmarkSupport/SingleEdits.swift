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
