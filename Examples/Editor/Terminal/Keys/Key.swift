/// A key that is not text: Enter, an arrow, a function key, or a character
/// key pressed with Ctrl or Alt.
///
/// A ``KeyEvent/key(_:_:)`` pairs it with the ``KeyModifiers`` held.
public enum Key: Hashable, Sendable {
  /// Enter (Return): `0x0D`, or `0x0A` (Ctrl-J).
  case enter
  /// Tab: `0x09` (Ctrl-I).
  case tab
  /// Shift-Tab: `ESC [ Z`. Its Shift is part of the key, not a modifier.
  case backTab
  /// Backspace: `0x7F`, or `0x08` (Ctrl-H).
  case backspace
  /// Delete (forward delete): `ESC [ 3 ~`.
  case delete
  /// Escape: a lone `0x1B`, once the input has paused after it.
  case escape
  /// The Up arrow.
  case up
  /// The Down arrow.
  case down
  /// The Left arrow.
  case left
  /// The Right arrow.
  case right
  /// Home.
  case home
  /// End.
  case end
  /// Page Up.
  case pageUp
  /// Page Down.
  case pageDown
  /// Insert.
  case insert
  /// The function key F*n* (1 to 12 on most keyboards; terminals that send
  /// F13 to F20 for Shift-F1 to Shift-F8 report those numbers).
  case f(Int)
  /// A character key with Ctrl or Alt: Ctrl-S is `character("s")` with
  /// ``KeyModifiers/ctrl`` (a letter with Ctrl is always lowercase),
  /// Alt-x is `character("x")` with ``KeyModifiers/alt``, Ctrl-Space is
  /// `character(" ")` with ``KeyModifiers/ctrl``.
  case character(Character)
}
