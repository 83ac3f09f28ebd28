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

  /// Where one piece goes when `other`, a single replacement made
  /// concurrently by `otherParty` in the same coordinates, is applied
  /// before it: the one case analysis of transformation, which every
  /// transformation (``transformed(against:by:)``, ``transform(against:by:)``,
  /// the loops of ``ChangeLog/transform(_:from:)``) goes through.
  ///
  /// The rules are two-party OT's (Jupiter, ot.js): a deletion that overlaps
  /// the other's counts the shared part once; an insertion inside a range the
  /// other deleted is kept (at the point the range collapsed to); an
  /// insertion of the other's strictly inside this piece's deletion is kept
  /// too (the deletion splits around it: a `second` piece); two insertions at
  /// one place go in party order. A replacement (or deletion) that starts
  /// where the other only inserts stays whole, after the other's text,
  /// whatever the parties: an insertion at the start of a range does not
  /// touch it, and the replacement's text stays where its deleted text was
  /// (so that it can be undone in one piece).
  ///
  /// - Parameters:
  ///   - piece: a piece of an operation of `party`.
  ///   - otherParty: read only where a tie needs it (two insertions, or two
  ///     replacements, at one place).
  /// - Returns: the piece in the coordinates after `other`, and the rest of
  ///   its deletion when `other`'s text split it (`nil` otherwise).
  @inline(__always)
  static func transform(
    _ piece: _Piece, of party: EditParty, against other: _Piece,
    by otherParty: @autoclosure () -> EditParty
  ) -> (first: _Piece, second: _Piece?) {
    let s = other.range.lowerBound
    let e = other.range.upperBound
    let n = other.length
    let deleted = e - s
    func collapse(_ p: Int) -> Int { p <= s ? p : (p < e ? s : p - deleted) }
    let a = collapse(piece.range.lowerBound)
    let b = collapse(piece.range.upperBound)
    // Whether this piece goes after the other's text where both are at `s`.
    func goesAfter() -> Bool {
      let original = piece.range.lowerBound
      // A piece that started strictly inside the other's deleted range (or
      // at its end) goes after the other's text, whatever the parties.
      if deleted > 0 && original > s && original <= e { return true }
      // An insertion where the other's deletion starts goes before the
      // other's text (the other stays whole: see above).
      if deleted > 0 && original == s && piece.range.isEmpty { return false }
      // Otherwise the later party goes after.
      let other = otherParty()
      return other < party || other == party
    }
    if n == 0 || b < s || (b == s && a < b) {
      // Before the other's insertion point (or it inserts nothing).
      return (_Piece(range: a..<b, length: piece.length), nil)
    }
    if a > s {
      return (_Piece(range: (a + n)..<(b + n), length: piece.length), nil)
    }
    if a < s {
      // The other's insertion falls strictly inside this deletion: keep it.
      return (
        _Piece(range: a..<s, length: piece.length), _Piece(range: (s + n)..<(b + n), length: 0)
      )
    }
    if a == b {
      // Both insert at `s`.
      let p = goesAfter() ? s + n : s
      return (_Piece(range: p..<p, length: piece.length), nil)
    }
    if deleted == 0 || goesAfter() {
      // This deletion starts where the other inserts: after the other's
      // text, whole (always, when the other only inserts).
      return (_Piece(range: (s + n)..<(b + n), length: piece.length), nil)
    }
    // Both replace from `s` and this one goes first: its text, then the
    // other's, then the rest of its deletion.
    return (_Piece(range: s..<s, length: piece.length), _Piece(range: (s + n)..<(b + n), length: 0))
  }

  /// Transforms the operation so that it applies after `other` (a single
  /// replacement made concurrently by `otherParty`, in the same
  /// coordinates): each piece by ``transform(_:of:against:by:)``, then the
  /// pieces that do nothing dropped.
  func transformed(
    against other: _Piece, by otherParty: EditParty
  ) -> _Operation {
    var result: [_Piece] = []
    for piece in pieces {
      let (first, second) = Self.transform(piece, of: party, against: other, by: otherParty)
      result.append(first)
      if let second { result.append(second) }
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
    let (first, second) = Self.transform(pieces[0], of: party, against: other, by: otherParty)
    if second == nil {
      pieces[0] = first
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
