/// One replacement inside an operation: `range` (in the operation's
/// coordinates) replaced by `length` new units.
struct _Piece: Hashable, Sendable {
  var range: Range<Int>
  var length: Int
}

/// An operation as transformation sees it: replacements in one coordinate
/// space, in ascending order and disjoint, applied from the last to the first
/// (so that each piece's coordinates hold when it is applied). Only the
/// first piece of a transformed operation carries new text; the others are
/// parts of its deletion that a concurrent insertion split off.
struct _Operation: Hashable, Sendable {
  var pieces: [_Piece]
  var party: EditParty

  init(_ range: Range<Int>, length: Int, party: EditParty) {
    pieces = [_Piece(range: range, length: length)]
    self.party = party
  }

  init(pieces: [_Piece], party: EditParty) {
    self.pieces = pieces
    self.party = party
  }

  /// Transforms the operation so that it applies after `other` (a single
  /// replacement made concurrently by `otherParty`, in the same coordinates).
  ///
  /// The rules are two-party OT's (Jupiter, ot.js): a deletion that overlaps
  /// the other's counts the shared part once; an insertion inside a range the
  /// other deleted is kept (at the point the range collapsed to); an
  /// insertion of the other's strictly inside this operation's deletion is
  /// kept too (the deletion splits around it); two insertions at one place go
  /// in party order. A replacement (or deletion) that starts where the other
  /// only inserts stays whole, after the other's text, whatever the parties:
  /// an insertion at the start of a range does not touch it, and the
  /// replacement's text stays where its deleted text was (so that it can be
  /// undone in one piece).
  func transformed(
    against other: _Piece, by otherParty: EditParty
  ) -> _Operation {
    let s = other.range.lowerBound
    let e = other.range.upperBound
    let n = other.length
    let deleted = e - s
    // This operation goes after the other at a tie when its party comes later.
    let after = otherParty < party || otherParty == party
    func collapse(_ p: Int) -> Int { p <= s ? p : (p < e ? s : p - deleted) }
    var result: [_Piece] = []
    for piece in pieces {
      // At the other's insertion point, a piece that started strictly inside
      // the other's deleted range (or at its end) goes after the other's
      // text, whatever the parties: the other way round, the other's
      // deletion splits around it with its text first.
      let original = piece.range.lowerBound
      // An insertion where the other's deletion starts goes before the
      // other's text (the other stays whole: see above).
      let after =
        deleted > 0 && original > s && original <= e
        ? true : (deleted > 0 && original == s && piece.range.isEmpty ? false : after)
      let a = collapse(piece.range.lowerBound)
      let b = collapse(piece.range.upperBound)
      // Now insert `n` units at `s`.
      if n == 0 {
        result.append(_Piece(range: a..<b, length: piece.length))
      } else if b < s || (b == s && a < b) {
        result.append(_Piece(range: a..<b, length: piece.length))
      } else if a > s {
        result.append(_Piece(range: (a + n)..<(b + n), length: piece.length))
      } else if a < s {
        // The other's insertion falls strictly inside this deletion: keep it.
        result.append(_Piece(range: a..<s, length: piece.length))
        result.append(_Piece(range: (s + n)..<(b + n), length: 0))
      } else if a == b {
        // Both insert at `s`.
        let p = after ? s + n : s
        result.append(_Piece(range: p..<p, length: piece.length))
      } else if after || deleted == 0 {
        // This deletion starts where the other inserts: after the other's
        // text, whole (always, when the other only inserts).
        result.append(_Piece(range: (s + n)..<(b + n), length: piece.length))
      } else {
        // Both replace from `s` and this one goes first: its text, then the
        // other's, then the rest of its deletion.
        result.append(_Piece(range: s..<s, length: piece.length))
        result.append(_Piece(range: (s + n)..<(b + n), length: 0))
      }
    }
    // Drop pieces that do nothing, but keep the first (it says where the
    // text lands).
    var kept: [_Piece] = []
    for (i, piece) in result.enumerated()
    where i == 0 || !piece.range.isEmpty || piece.length > 0 {
      if let last = kept.last, last.range.upperBound == piece.range.lowerBound, piece.length == 0,
        !last.range.isEmpty || last.length > 0
      {
        kept[kept.count - 1].range = last.range.lowerBound..<piece.range.upperBound
      } else {
        kept.append(piece)
      }
    }
    return _Operation(pieces: kept, party: party)
  }

  /// ``transformed(against:by:)`` in place: without allocating when the
  /// operation is one piece and stays one (the usual case).
  mutating func transform(against other: _Piece, by otherParty: EditParty) {
    guard pieces.count == 1 else {
      self = transformed(against: other, by: otherParty)
      return
    }
    let piece = pieces[0]
    let s = other.range.lowerBound
    let e = other.range.upperBound
    let n = other.length
    let deleted = e - s
    let original = piece.range.lowerBound
    let after =
      (deleted > 0 && original > s && original <= e)
      || (!(deleted > 0 && original == s && piece.range.isEmpty)
        && (otherParty < party || otherParty == party))
    func collapse(_ p: Int) -> Int { p <= s ? p : (p < e ? s : p - deleted) }
    let a = collapse(piece.range.lowerBound)
    let b = collapse(piece.range.upperBound)
    let single: Range<Int>?
    if n == 0 || b < s || (b == s && a < b) {
      single = a..<b
    } else if a > s {
      single = (a + n)..<(b + n)
    } else if a == b {
      single = after ? (s + n)..<(s + n) : s..<s
    } else if a == s && (after || deleted == 0) {
      single = (s + n)..<(b + n)
    } else {
      single = nil
    }
    if let single {
      pieces[0].range = single
    } else {
      self = transformed(against: other, by: otherParty)
    }
  }

  /// Transforms the operation through every piece of `other` (applied from
  /// its last piece to its first).
  func transformed(against other: _Operation) -> _Operation {
    var result = self
    for piece in other.pieces.reversed() {
      result = result.transformed(against: piece, by: other.party)
    }
    return result
  }

  /// Whether `other` touches this operation's (first piece's) range, by the
  /// conflict rule: it deletes or replaces a unit inside it, or inserts
  /// strictly inside it; for an empty range, it deletes across the point.
  func isTouched(by other: _Piece) -> Bool {
    guard let first = pieces.first else { return false }
    let a = first.range.lowerBound
    let b = pieces.last?.range.upperBound ?? first.range.upperBound
    return _EditStep(other.range, insertedLength: other.length).touches(a..<b)
  }
}
