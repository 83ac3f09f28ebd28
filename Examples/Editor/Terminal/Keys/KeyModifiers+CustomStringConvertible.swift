extension KeyModifiers: CustomStringConvertible {
  /// The modifiers as people write them before a key, each followed by a
  /// dash, in the order Ctrl, Alt, Shift, Meta (`"Ctrl-Shift-"`); empty for
  /// none.
  public var description: String {
    var text = ""
    if contains(.ctrl) { text += "Ctrl-" }
    if contains(.alt) { text += "Alt-" }
    if contains(.shift) { text += "Shift-" }
    if contains(.meta) { text += "Meta-" }
    return text
  }
}
