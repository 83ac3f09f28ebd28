/// One edit as positions see it: `s..<e` replaced by `n` units. It holds the
/// two rules that everything following an edit shares, written once:
///
/// - **Where a range of the session's goes** (``start(_:)``, ``end(_:)``,
///   ``range(_:)``): its start goes after text inserted at it, its end stays
///   before, so that text typed right at either edge stays outside; a start
///   inside the replaced text goes after the new text, an end inside it to
///   its start, and a range whose start would pass its end is empty at the
///   start. The tracked ranges (``_TrackedRanges``) follow edits by the same
///   rule, for each end's own association; the session uses these to place
///   its replacements through its own edits.
/// - **Whether the edit touches a range** (``touches(_:)``, the conflict
///   rule of docs/DESIGN.md, "Replacements, edits and versions"): it replaces a unit inside the range,
///   or its new text lands strictly inside it; an empty range is touched
///   when the edit deletes across it. Transformation (``_Operation``) and
///   conflict checks use it; ``ChangeMap/touches(_:)`` answers the same
///   question for many edits composed.
struct _EditStep: Hashable, Sendable {
  /// The replaced range's start.
  let s: Int
  /// The replaced range's end.
  let e: Int
  /// The new text's length.
  let n: Int

  init(_ range: Range<Int>, insertedLength: Int) {
    s = range.lowerBound
    e = range.upperBound
    n = insertedLength
  }

  /// How much the edit changes the text's length.
  var delta: Int { n - (e - s) }

  /// Whether the edit changes nothing: an empty range replaced by empty
  /// text. Such an edit is still checked, but makes no version.
  var changesNothing: Bool { s == e && n == 0 }

  /// Where the start of a tracked range goes.
  func start(_ p: Int) -> Int {
    if p < s { return p }
    if p == s { return e > s ? s : s + n }
    if p < e { return s + n }
    return p + delta
  }

  /// Where the end of a tracked range goes.
  func end(_ p: Int) -> Int {
    if p <= s { return p }
    if p < e { return s }
    return p + delta
  }

  /// Where a tracked range goes, never inverted.
  func range(_ r: Range<Int>) -> Range<Int> {
    let a = start(r.lowerBound)
    return a..<max(a, end(r.upperBound))
  }

  /// Whether the edit changes text inside `r`: it replaces a unit of it, or
  /// its new text lands strictly inside it. Never true for an empty `r`.
  func changesText(in r: Range<Int>) -> Bool {
    if s < e && s < r.upperBound && r.lowerBound < e && !r.isEmpty { return true }
    return n > 0 && r.lowerBound < s && s < r.upperBound
  }

  /// The conflict rule: ``changesText(in:)``, and for an empty `r`, whether
  /// the edit deletes across it.
  func touches(_ r: Range<Int>) -> Bool {
    r.isEmpty ? s < r.lowerBound && r.lowerBound < e : changesText(in: r)
  }
}
