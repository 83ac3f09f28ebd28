extension KeyParser {
  /// What a sequence means: a key with modifiers, or a printable character
  /// (the keypad in application mode; kitty's and xterm's reports of a
  /// character key with at most Shift).
  enum Decoded: Equatable {
    case key(Key, KeyModifiers)
    case character(Unicode.Scalar)

    /// The unit of a sequence of `length` bytes that means this, with Alt
    /// added if an ESC came first.
    func unit(length: Int, alt: Bool) -> Unit {
      switch self {
      case .key(let key, let modifiers):
        return .event(.key(key, alt ? modifiers.union(.alt) : modifiers), length: length)
      case .character(let scalar) where alt:
        return .event(.key(.character(Character(scalar)), .alt), length: length)
      case .character(let scalar):
        return .scalar(scalar, length: length, valid: true)
      }
    }
  }

  /// The meaning of `ESC [ parameters final`, or nil if it is no key.
  static func controlSequenceKey(final: UInt8, parameters: [Int?]) -> Decoded? {
    let first = parameters.first ?? nil
    let modifiers = KeyModifiers(xtermParameter: parameters.count > 1 ? parameters[1] : nil)
    switch final {
    case UInt8(ascii: "A"): return .key(.up, modifiers)
    case UInt8(ascii: "B"): return .key(.down, modifiers)
    case UInt8(ascii: "C"): return .key(.right, modifiers)
    case UInt8(ascii: "D"): return .key(.left, modifiers)
    case UInt8(ascii: "H"): return .key(.home, modifiers)
    case UInt8(ascii: "F"): return .key(.end, modifiers)
    case UInt8(ascii: "P")...UInt8(ascii: "S"):
      return .key(.f(Int(final) - 0x4F), modifiers)
    case UInt8(ascii: "Z"):
      return .key(.backTab, modifiers.subtracting(.shift))
    case UInt8(ascii: "a")...UInt8(ascii: "d") where parameters.isEmpty:
      return .key(arrow(final - UInt8(ascii: "a")), .shift)  // rxvt's Shift-arrows.
    case UInt8(ascii: "~") where first == 27 && parameters.count >= 3:
      return codePointKey(parameters[2], modifiers: modifiers)  // xterm's modifyOtherKeys.
    case UInt8(ascii: "~"):
      return tildeKey(first).map { .key($0, modifiers) }
    case UInt8(ascii: "^"):
      return tildeKey(first).map { .key($0, modifiers.union(.ctrl)) }
    case UInt8(ascii: "@"):
      return tildeKey(first).map { .key($0, modifiers.union([.ctrl, .shift])) }
    case UInt8(ascii: "$"):
      return tildeKey(first).map { .key($0, modifiers.union(.shift)) }
    case UInt8(ascii: "u"):
      return codePointKey(first, modifiers: modifiers)  // kitty's keyboard protocol.
    default:
      return nil
    }
  }

  /// The meaning of `ESC O parameters final`, or nil if it is no key.
  static func singleShiftKey(final: UInt8, parameters: [Int?]) -> Decoded? {
    // ESC O 1 ; 5 P or ESC O 5 P.
    let modifiers = KeyModifiers(
      xtermParameter: parameters.count > 1 ? parameters[1] : parameters.first ?? nil)
    switch final {
    case UInt8(ascii: "A"): return .key(.up, modifiers)
    case UInt8(ascii: "B"): return .key(.down, modifiers)
    case UInt8(ascii: "C"): return .key(.right, modifiers)
    case UInt8(ascii: "D"): return .key(.left, modifiers)
    case UInt8(ascii: "H"): return .key(.home, modifiers)
    case UInt8(ascii: "F"): return .key(.end, modifiers)
    case UInt8(ascii: "P")...UInt8(ascii: "S"):
      return .key(.f(Int(final) - 0x4F), modifiers)
    case UInt8(ascii: "M"):
      return .key(.enter, modifiers)  // The keypad's Enter.
    case UInt8(ascii: "a")...UInt8(ascii: "d"):
      return .key(arrow(final - UInt8(ascii: "a")), .ctrl)  // rxvt's Ctrl-arrows.
    case UInt8(ascii: "X"):
      return .character("=")
    case UInt8(ascii: "j")...UInt8(ascii: "y"):
      // The keypad: * + , - . / and the digits.
      return .character(Unicode.Scalar(final - UInt8(ascii: "j") + UInt8(ascii: "*")))
    default:
      return nil
    }
  }

  /// Up, Down, Right, Left for 0, 1, 2, 3 (the order of `A` to `D`).
  private static func arrow(_ index: UInt8) -> Key {
    switch index {
    case 0: .up
    case 1: .down
    case 2: .right
    default: .left
    }
  }

  /// The key of `ESC [ number ~` (VT220, rxvt, the Linux console), or nil.
  private static func tildeKey(_ number: Int?) -> Key? {
    switch number {
    case 1, 7: .home
    case 2: .insert
    case 3: .delete
    case 4, 8: .end
    case 5: .pageUp
    case 6: .pageDown
    case .some(let n) where (11...15).contains(n): .f(n - 10)
    case .some(let n) where (17...21).contains(n): .f(n - 11)
    case .some(let n) where (23...26).contains(n): .f(n - 12)
    case .some(let n) where (28...29).contains(n): .f(n - 13)
    case .some(let n) where (31...34).contains(n): .f(n - 14)
    default: nil
    }
  }

  /// The key of a Unicode code point with modifiers (kitty's `ESC [ c ; m u`,
  /// xterm's `ESC [ 27 ; m ; c ~`), or nil for a code point that is no key
  /// (kitty's private-use codes for keys such as Caps Lock among them).
  private static func codePointKey(_ codePoint: Int?, modifiers: KeyModifiers) -> Decoded? {
    guard let codePoint, let scalar = Unicode.Scalar(UInt32(clamping: codePoint)) else {
      return nil
    }
    switch codePoint {
    case 13: return .key(.enter, modifiers)
    case 9: return .key(.tab, modifiers)
    case 8, 127: return .key(.backspace, modifiers)
    case 27: return .key(.escape, modifiers)
    case 0..<32, 0x80..<0xA0, 0xE000...0xF8FF: return nil
    default:
      if modifiers.isSubset(of: .shift) { return .character(scalar) }
      if modifiers.contains(.ctrl), case .key(let key, _) = KeyEvent.ctrl(Character(scalar)) {
        return .key(key, modifiers)  // An ASCII letter made lowercase.
      }
      return .key(.character(Character(scalar)), modifiers)
    }
  }
}
