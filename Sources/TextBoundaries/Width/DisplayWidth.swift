/// How many terminal columns text takes, as terminals that lay out grapheme
/// clusters (kitty, WezTerm, and xterm and VTE for the common cases) draw it.
///
/// A scalar takes 2 columns if it is East Asian Wide or Fullwidth (ICU's
/// `UCHAR_EAST_ASIAN_WIDTH`: CJK, kana, Hangul syllables, fullwidth forms)
/// or an emoji presented as one (`Emoji_Presentation`); none if it is a
/// nonspacing or enclosing mark, a format character (U+200D ZERO WIDTH
/// JOINER, U+FEFF), a variation selector, a Hangul medial vowel or final
/// consonant (U+1160 to U+11FF, U+D7B0 to U+D7FF), or a control; 1
/// otherwise. A grapheme cluster takes the columns of its first scalar,
/// except that an emoji sequence (a flag, a keycap, an emoji with U+FE0F or
/// a skin tone, a ZWJ sequence) takes 2.
///
/// ```swift
/// DisplayWidth.columns(of: "abc")                  // 3
/// DisplayWidth.columns(of: "日本語")                // 6
/// DisplayWidth.columns(ofCluster: "e\u{301}")      // 1
/// DisplayWidth.columns(ofCluster: "❤\u{FE0F}")     // 2
/// DisplayWidth.columns(ofCluster: "👨‍👩‍👧")            // 2
/// DisplayWidth.columns(of: "🇫🇷 ok")               // 5
/// ```
///
/// Controls take no column: a tab, a line break or an escape is the
/// caller's to lay out (expand tabs to the next stop, start a new row,
/// draw `^[`), before or instead of asking here.
///
/// Terminals that draw one code point at a time (xterm, VTE, by `wcwidth`)
/// agree on everything but emoji sequences and spacing marks: they draw a
/// ZWJ family as its members side by side, and give a spacing mark (a
/// Devanagari vowel sign, general category Mc) a column of its own. Here a
/// cluster is one glyph, as kitty and WezTerm draw it.
///
/// ASCII is answered without a lookup. Other scalars come from tables of
/// planes 0 and 1 built from ICU's properties on first use (a few
/// milliseconds each), so that an editor can ask for every visible
/// character on every frame. Without ICU, Swift's Unicode properties stand
/// in, and East Asian Wide characters take 1 column.
public enum DisplayWidth {
  /// The columns one scalar takes on its own: 0, 1 or 2.
  ///
  /// Marks, format characters, variation selectors and Hangul medial and
  /// final jamo take none (they join the cell of the scalar before them),
  /// and so do C0 and C1 controls, tab and line feed included: the caller
  /// handles them. U+00AD SOFT HYPHEN, a format character, takes 1, as
  /// terminals draw it.
  ///
  /// - Parameter scalar: a Unicode scalar.
  /// - Returns: 2 for East Asian Wide or Fullwidth and `Emoji_Presentation`
  ///   scalars, 0 for the zero-width ones, 1 otherwise.
  /// - Complexity: O(1): no lookup for ASCII, a table lookup for planes 0
  ///   and 1, a few ICU property lookups for the others.
  @inline(__always)
  public static func columns(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value < 0x20 ? 0 : 1 }
    return _ScalarWidth.of(value).columns
  }

  /// The columns one grapheme cluster takes: 0, 1 or 2.
  ///
  /// - 2 for an emoji sequence: an emoji with U+FE0F ("❤️"), a skin tone
  ///   ("👋🏽") or U+20E3 (the keycap "1️⃣"), a ZWJ sequence ("👨‍👩‍👧"), a
  ///   flag (two regional indicators, each `Emoji_Presentation`);
  /// - 2 if its first scalar is wide (a Hangul syllable made of jamo,
  ///   "ᄀ\u{1161}\u{11A8}", takes the columns of its leading consonant);
  /// - otherwise the columns of its first scalar: a letter with combining
  ///   marks takes 1, a CR LF pair 0.
  ///
  /// A cluster led by scalars that take no column takes the columns of the
  /// first one that does (U+0600 ARABIC NUMBER SIGN before a digit: 1). A
  /// lone combining mark (at the start of the text or after a control)
  /// takes 0, as `wcwidth` has it: terminals put it on the cell before, or
  /// drop it. An editor that wants it seen draws it on a space or U+25CC
  /// DOTTED CIRCLE, which then takes the column.
  ///
  /// - Parameter cluster: one grapheme cluster (a `Character`'s worth of
  ///   text; for more, use ``columns(of:)-(StringProtocol)``).
  /// - Returns: 0, 1 or 2.
  /// - Complexity: O(k) for a cluster of k scalars.
  public static func columns(ofCluster cluster: some StringProtocol) -> Int {
    _columns(ofClusterScalars: cluster.unicodeScalars)
  }

  /// The columns one grapheme cluster takes: 0, 1 or 2, as
  /// ``columns(ofCluster:)-(StringProtocol)`` counts them.
  ///
  /// - Parameter cluster: a character.
  /// - Returns: 0, 1 or 2.
  /// - Complexity: O(k) for a cluster of k scalars.
  public static func columns(ofCluster cluster: Character) -> Int {
    if let ascii = cluster.asciiValue, cluster.utf8.count == 1 {
      return ascii < 0x20 || ascii == 0x7F ? 0 : 1
    }
    return _columns(ofClusterScalars: cluster.unicodeScalars)
  }

  /// The columns `text` takes: the sum of the columns of its grapheme
  /// clusters (as Swift's `Character` finds them).
  ///
  /// - Parameter text: text without tabs or line breaks, such as one row of
  ///   a line (they take no column: the caller lays them out).
  /// - Returns: the columns.
  /// - Complexity: O(n); printable ASCII is counted without looking at
  ///   clusters.
  public static func columns(of text: some StringProtocol) -> Int {
    let ascii = text.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.allSatisfy { (0x20..<0x7F).contains($0) } ? bytes.count : nil
    }
    if let count = ascii ?? nil { return count }
    var total = 0
    for character in text {
      total += columns(ofCluster: character)
    }
    return total
  }

  /// The columns of the cluster made of `scalars`.
  static func _columns(ofClusterScalars scalars: some Sequence<Unicode.Scalar>) -> Int {
    var iterator = scalars.makeIterator()
    guard let first = iterator.next() else { return 0 }
    switch _ScalarWidth.of(first.value) {
    case .wide:
      return 2
    case .narrow:
      return 1
    case .narrowEmoji:
      // An emoji presentation sequence, a skin tone, a keycap, or a ZWJ
      // joining another emoji.
      var afterJoiner = false
      while let scalar = iterator.next() {
        switch scalar.value {
        case 0xFE0F, 0x20E3, 0x1F3FB...0x1F3FF: return 2
        case 0x200D: afterJoiner = true
        default:
          if afterJoiner {
            let width = _ScalarWidth.of(scalar.value)
            if width == .wide || width == .narrowEmoji { return 2 }
          }
          afterJoiner = false
        }
      }
      return 1
    case .zero:
      // Prepended marks, or a lone mark: the first scalar with columns.
      while let scalar = iterator.next() {
        let width = _ScalarWidth.of(scalar.value)
        if width != .zero { return width == .wide ? 2 : 1 }
      }
      return 0
    }
  }
}
