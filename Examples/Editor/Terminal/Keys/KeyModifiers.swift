/// The modifier keys held with a key: Shift, Alt, Ctrl and Meta.
///
/// Terminals report them in two ways, and ``KeyDecoder`` reads both: as the
/// modifier parameter of an xterm sequence (`ESC [ 1 ; 5 D` is Ctrl-Left: the
/// parameter is one more than the sum of Shift 1, Alt 2, Ctrl 4 and Meta 8),
/// and as an `ESC` sent before a key (Alt, when the terminal's "meta sends
/// escape" is on, as it is by default in most).
public struct KeyModifiers: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8

  /// Modifiers from their bits: Shift 1, Alt 2, Ctrl 4, Meta 8 (xterm's
  /// order).
  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// The Shift key.
  public static let shift = KeyModifiers(rawValue: 1 << 0)
  /// The Alt key (Option on a Mac keyboard, when the terminal sends it as
  /// Meta).
  public static let alt = KeyModifiers(rawValue: 1 << 1)
  /// The Control key.
  public static let ctrl = KeyModifiers(rawValue: 1 << 2)
  /// The Meta (Super, Windows, Command) key, which few terminals report.
  public static let meta = KeyModifiers(rawValue: 1 << 3)

  /// The modifiers of an xterm modifier parameter (`5` in `ESC [ 1 ; 5 D`):
  /// one more than their bits. A missing parameter, 0 or 1 is none; bits
  /// above Meta (kitty's Hyper, Caps Lock, Num Lock) are left out.
  ///
  /// - Parameter parameter: the number, if the sequence has one.
  init(xtermParameter parameter: Int?) {
    guard let parameter, parameter > 1 else {
      self = []
      return
    }
    self.init(rawValue: UInt8(truncatingIfNeeded: parameter - 1) & 0x0F)
  }
}
