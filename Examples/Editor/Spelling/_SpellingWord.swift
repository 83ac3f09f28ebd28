/// A word prepared for Enchant: the rules of ``SpellChecker`` applied, the
/// curly apostrophe straightened, as UTF-8 bytes.
struct _SpellingWord {
  /// The bytes to send (never empty, no NUL, at most
  /// ``SpellChecker/maximumWordLength``).
  let utf8: [UInt8]
  /// Whether the word was written with U+2019, so suggestions get it back.
  let hadCurlyApostrophe: Bool

  /// Prepares `word`, or returns nil if it is not to be looked up (and so
  /// counts as correct): empty, containing NUL, without letters, containing
  /// a decimal digit, or longer than ``SpellChecker/maximumWordLength``
  /// bytes once straightened.
  init?(_ word: String) {
    var hasLetter = false
    var hadCurly = false
    for scalar in word.unicodeScalars {
      switch scalar {
      case "\u{0}": return nil
      case "\u{2019}": hadCurly = true
      default:
        if scalar.properties.numericType == .decimal { return nil }
        if scalar.properties.isAlphabetic { hasLetter = true }
      }
    }
    guard hasLetter else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(word.utf8.count)
    for scalar in word.unicodeScalars {
      if scalar == "\u{2019}" {
        bytes.append(UInt8(ascii: "'"))
      } else {
        UTF8.encode(scalar) { bytes.append($0) }
      }
      if bytes.count > SpellChecker.maximumWordLength { return nil }
    }
    utf8 = bytes
    hadCurlyApostrophe = hadCurly
  }

  /// A suggestion written the way the word was: straight apostrophes curled
  /// if the word had a curly one.
  func restyled(_ suggestion: String) -> String {
    guard hadCurlyApostrophe, suggestion.contains("'") else { return suggestion }
    return String(suggestion.map { $0 == "'" ? "\u{2019}" : $0 })
  }
}
