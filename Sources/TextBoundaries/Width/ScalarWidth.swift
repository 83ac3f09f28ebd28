import CEngineICU

/// What one scalar brings to the columns of the grapheme cluster it starts
/// or joins: the classes ``DisplayWidth`` is computed from.
enum _ScalarWidth: UInt8, Sendable {
  /// No column: a control, a nonspacing or enclosing mark, a format
  /// character, a variation selector, a Hangul medial vowel or final
  /// consonant.
  case zero = 0
  /// One column.
  case narrow = 1
  /// Two columns: East Asian Wide or Fullwidth, or Emoji_Presentation.
  case wide = 2
  /// One column alone, two as the base of an emoji sequence (with U+FE0F, a
  /// skin tone or U+20E3): Emoji but not Emoji_Presentation ("©", "❤",
  /// digits).
  case narrowEmoji = 3

  /// The columns of the scalar alone.
  @inline(__always)
  var columns: Int {
    switch self {
    case .zero: 0
    case .narrow, .narrowEmoji: 1
    case .wide: 2
    }
  }

  /// The class of scalar `value`: ASCII without a lookup, planes 0 and 1
  /// (where nearly all text and emoji live) from a table built on first
  /// use, the other planes from ICU.
  @inline(__always)
  static func of(_ value: UInt32) -> _ScalarWidth {
    if value < 0x7F {
      if value < 0x20 { return .zero }
      // Digits, "#" and "*" are emoji as keycap bases ("1️⃣").
      return (0x30...0x39).contains(value) || value == 0x23 || value == 0x2A
        ? .narrowEmoji : .narrow
    }
    if value < 0x1_0000 { return Plane.basic[value] }
    if value < 0x2_0000 { return Plane.supplementary[value] }
    return classify(value)
  }

  /// The class of scalar `value` from its Unicode properties: ICU's, or
  /// Swift's without ICU (which then knows no East Asian width: wide
  /// characters count as narrow).
  static func classify(_ value: UInt32) -> _ScalarWidth {
    // C0 and C1 controls and DEL: the caller handles tabs and line breaks.
    if value < 0x20 || (0x7F...0x9F).contains(value) { return .zero }
    // SOFT HYPHEN is a format character that terminals draw as a hyphen.
    if value == 0xAD { return .narrow }
    // Hangul medial vowels and final consonants (Jungseong, Jongseong) join
    // the leading consonant's two columns.
    if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return .zero }
    let category = engine_icu_general_category(value)
    guard category >= 0 else { return classifyWithoutICU(value) }
    switch category {
    case ENGINE_CATEGORY_NONSPACING_MARK, ENGINE_CATEGORY_ENCLOSING_MARK, ENGINE_CATEGORY_FORMAT,
      ENGINE_CATEGORY_CONTROL:
      return .zero
    default:
      break
    }
    if engine_icu_has_property(value, ENGINE_PROPERTY_VARIATION_SELECTOR) { return .zero }
    let eastAsianWidth = engine_icu_east_asian_width(value)
    if eastAsianWidth == ENGINE_EAST_ASIAN_WIDTH_WIDE
      || eastAsianWidth == ENGINE_EAST_ASIAN_WIDTH_FULLWIDTH
      || engine_icu_has_property(value, ENGINE_PROPERTY_EMOJI_PRESENTATION)
    {
      return .wide
    }
    return engine_icu_has_property(value, ENGINE_PROPERTY_EMOJI) ? .narrowEmoji : .narrow
  }

  /// ``classify(_:)`` from Swift's own Unicode properties, for a process
  /// without ICU.
  static func classifyWithoutICU(_ value: UInt32) -> _ScalarWidth {
    guard let properties = Unicode.Scalar(value)?.properties else { return .narrow }
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return .zero
    default: break
    }
    if properties.isVariationSelector { return .zero }
    if properties.isEmojiPresentation { return .wide }
    return properties.isEmoji ? .narrowEmoji : .narrow
  }

  /// The classes of one plane's 65,536 code points, two bits each (16 KB),
  /// built on first use (a few milliseconds of ICU lookups) and read
  /// without a lock afterwards.
  struct Plane: Sendable {
    /// The Basic Multilingual Plane: every script in common use, CJK.
    static let basic = Plane(0)
    /// The Supplementary Multilingual Plane: emoji, historic scripts,
    /// mathematical letters.
    static let supplementary = Plane(1)

    let base: UInt32
    let bits: [UInt8]

    init(_ plane: UInt32) {
      base = plane << 16
      var bits = [UInt8](repeating: 0, count: 0x1_0000 / 4)
      for offset in 0..<UInt32(0x1_0000) {
        let width = _ScalarWidth.classify(base + offset)
        bits[Int(offset >> 2)] |= width.rawValue << ((offset & 3) * 2)
      }
      self.bits = bits
    }

    /// The class of `value`, a code point of this plane.
    @inline(__always)
    subscript(value: UInt32) -> _ScalarWidth {
      let offset = value &- base
      assert(offset < 0x1_0000)
      let raw = (bits[Int(offset >> 2)] >> ((offset & 3) * 2)) & 3
      return _ScalarWidth(rawValue: raw) ?? .narrow
    }
  }
}
