/// What the person pressed at the terminal, as ``KeyDecoder`` reads it from
/// the bytes the terminal sends.
///
/// Text and pastes carry their characters; every other key is a ``Key`` with
/// the ``KeyModifiers`` held:
///
/// ```swift
/// switch event {
/// case .text(let text), .paste(let text): insert(text)
/// case .key(.left, []): moveLeft()
/// case .key(.left, .shift): extendLeft()
/// case .key(.left, .ctrl): moveWordLeft()
/// case .ctrl("s"): save()
/// case .key(.f(1), _): help()
/// default: break
/// }
/// ```
///
/// `.ctrl("s")` in a `case` matches through `==` (it is a static function,
/// not a case), as does any other event value.
public enum KeyEvent: Hashable, Sendable {
  /// Characters typed. Consecutive printable characters that arrive in one
  /// read come as one event (`"abc"`, or a whole grapheme cluster such as an
  /// emoji sequence, or many characters when text arrives faster than it is
  /// read); a character split between two reads is put together first.
  /// Never empty; holds no C0 control character and no DEL (those are
  /// keys); bytes of invalid UTF-8 are U+FFFD.
  case text(String)
  /// Text pasted while bracketed paste was on: everything between
  /// `ESC [ 200 ~` and `ESC [ 201 ~`, escapes and control characters
  /// included, with CR LF and CR made `"\n"`. A long paste may come as several
  /// events in a row (see ``KeyDecoder/maxPasteChunkBytes``).
  case paste(String)
  /// A key that is not text, with the modifiers held.
  case key(Key, KeyModifiers = [])
  /// An escape sequence the decoder does not know (a mouse report, a reply
  /// to a query, a key of an unusual terminal), as its bytes; also the first
  /// ``KeyDecoder/maxSequenceBytes`` bytes of a sequence that grew longer.
  case unknown([UInt8])

  /// Ctrl and a character key: `ctrl("s")` is Ctrl-S, what the terminal
  /// sends as `0x13`.
  ///
  /// - Parameter character: the key; an ASCII letter is made lowercase.
  /// - Returns: `.key(.character(character), .ctrl)`.
  public static func ctrl(_ character: Character) -> KeyEvent {
    guard let ascii = character.asciiValue, (0x41...0x5A).contains(ascii) else {
      return .key(.character(character), .ctrl)
    }
    return .key(.character(Character(Unicode.Scalar(ascii + 0x20))), .ctrl)
  }
}
