/// The bytes a terminal (xterm) sends for keys.
enum Keys {
  /// The modifiers of a key, as xterm numbers them in `ESC [ 1 ; m X`
  /// (`m` is 1 plus their sum).
  struct Modifiers: OptionSet {
    let rawValue: Int
    static let shift = Modifiers(rawValue: 1)
    static let alt = Modifiers(rawValue: 2)
    static let ctrl = Modifiers(rawValue: 4)
  }

  /// An arrow, Home or End: the final byte of its sequence.
  enum Motion: Character {
    case up = "A"
    case down = "B"
    case right = "C"
    case left = "D"
    case home = "H"
    case end = "F"
  }

  /// Text as typed (UTF-8).
  static func text(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// Ctrl and a letter: the control byte (Ctrl-Q is 0x11).
  static func ctrl(_ letter: Character) -> [UInt8] {
    guard let ascii = letter.lowercased().first?.asciiValue, (0x61...0x7A).contains(ascii) else {
      return []
    }
    return [ascii - 0x60]
  }

  /// Ctrl-Shift and a letter, as the kitty keyboard protocol sends it
  /// (`ESC [ 101 ; 6 u` for Ctrl-Shift-E): a control byte cannot carry
  /// Shift.
  static func ctrlShift(_ letter: Character) -> [UInt8] {
    guard let ascii = letter.lowercased().first?.asciiValue else { return [] }
    return Array("\u{1B}[\(ascii);6u".utf8)
  }

  /// An arrow, Home or End with `modifiers`: `ESC [ D`, or
  /// `ESC [ 1 ; 6 D` for Ctrl-Shift-Left.
  static func key(_ motion: Motion, _ modifiers: Modifiers = []) -> [UInt8] {
    let final = String(motion.rawValue)
    if modifiers.isEmpty { return Array("\u{1B}[\(final)".utf8) }
    return Array("\u{1B}[1;\(1 + modifiers.rawValue)\(final)".utf8)
  }

  /// `count` times the same key.
  static func times(_ count: Int, _ key: [UInt8]) -> [UInt8] {
    Array([[UInt8]](repeating: key, count: count).joined())
  }

  static let enter: [UInt8] = [0x0D]
  /// Esc alone: the editor takes it as Esc once no other byte follows for a
  /// moment, so wait for its effect before sending more.
  static let escape: [UInt8] = [0x1B]
  static let backspace: [UInt8] = [0x7F]
  static let f7: [UInt8] = Array("\u{1B}[18~".utf8)
}
