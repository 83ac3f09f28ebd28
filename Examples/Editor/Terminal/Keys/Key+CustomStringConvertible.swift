extension Key: CustomStringConvertible {
  /// The key's name as printed on a keyboard: `"Enter"`, `"PageUp"`, `"F7"`,
  /// `"Shift-Tab"` (``backTab``), `"Space"`; a character key is the
  /// character itself.
  public var description: String {
    switch self {
    case .enter: "Enter"
    case .tab: "Tab"
    case .backTab: "Shift-Tab"
    case .backspace: "Backspace"
    case .delete: "Delete"
    case .escape: "Escape"
    case .up: "Up"
    case .down: "Down"
    case .left: "Left"
    case .right: "Right"
    case .home: "Home"
    case .end: "End"
    case .pageUp: "PageUp"
    case .pageDown: "PageDown"
    case .insert: "Insert"
    case .f(let number): "F\(number)"
    case .character(" "): "Space"
    case .character(let character): String(character)
    }
  }
}
