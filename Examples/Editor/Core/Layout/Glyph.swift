import TextBoundaries

/// How the screen draws one grapheme cluster of the text: the characters
/// written for it and the columns they take.
///
/// A tab goes to the next multiple of ``tabWidth``; a control character
/// other than a tab is shown as a caret and a letter (`^A`); everything
/// else is itself, as wide as terminals draw it (``DisplayWidth``), at
/// least one column (a lone combining mark is drawn on a space).
public enum Glyph {
  /// The columns between tab stops.
  public static let tabWidth = 4

  /// The columns `character` takes when it starts at `column`.
  public static func columns(of character: Character, atColumn column: Int) -> Int {
    let utf8 = character.utf8
    guard let first = utf8.first else { return 1 }
    if first < 0x80 {
      // ASCII, or CR LF.
      if first == 0x09 { return tabWidth - column % tabWidth }
      if utf8.count == 1 && (first < 0x20 || first == 0x7F) { return 2 }
      return 1
    }
    if first == 0xC2 && utf8.count == 2, let second = utf8.last, second < 0xA0 {
      return 2  // C1 controls, shown as ^ and a character
    }
    return max(1, DisplayWidth.columns(ofCluster: character))
  }

  /// What is written for `character` when it starts at `column`.
  public static func text(of character: Character, atColumn column: Int) -> String {
    if let byte = character.asciiValue {
      if byte == 0x09 { return String(repeating: " ", count: tabWidth - column % tabWidth) }
      if byte < 0x20 { return "^" + String(UnicodeScalar(byte + 0x40)) }
      if byte == 0x7F { return "^?" }
      return String(character)
    }
    if character.isASCII {
      return " "  // CR LF inside a paragraph cannot happen; drawn as a space
    }
    if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 {
      if scalar.value < 0xA0 { return "^?" }
      if DisplayWidth.columns(ofCluster: character) == 0 { return " " + String(character) }
    }
    return String(character)
  }
}
