import EditorTerminal

/// Which command each key stands for.
///
/// | Keys | Command |
/// | --- | --- |
/// | text, a paste, Enter, Tab | typing |
/// | Backspace, Delete | delete a grapheme cluster (or the selection) |
/// | arrows | by grapheme cluster and by screen line |
/// | Ctrl-Left, Ctrl-Right (Alt too) | by word |
/// | Home, End | the screen line's start and end |
/// | Ctrl-A, Ctrl-E | the paragraph's start and end |
/// | Ctrl-Home, Ctrl-End | the notebook's start and end |
/// | Page Up, Page Down | a screen |
/// | Shift with any motion | selects |
/// | Ctrl-S, Ctrl-Q | save, quit |
/// | Ctrl-Z, Ctrl-Y (Ctrl-Shift-Z) | undo, redo |
/// | Ctrl-B | strong |
/// | F7, Tab on a suggestion, Enter on one, Esc | suggestions |
/// | Ctrl-R | run the writing tool |
public enum KeyBindings {
  /// The command for `event`, or nil for a key that does nothing.
  ///
  /// - Parameter onSuggestion: whether a suggestion is current (F7 went to
  ///   it): Tab, Enter and Esc then act on it.
  public static func command(for event: KeyEvent, onSuggestion: Bool = false) -> EditorCommand? {
    switch event {
    case .text(let text), .paste(let text):
      return .insert(text)
    case .unknown:
      return nil
    case .key(let key, let modifiers):
      let extend = modifiers.contains(.shift)
      let word = modifiers.contains(.ctrl) || modifiers.contains(.alt)
      switch key {
      case .enter:
        return onSuggestion ? .acceptSuggestion : .insert("\n")
      case .tab:
        return onSuggestion ? .previewNextCandidate : .insert("\t")
      case .escape:
        return onSuggestion ? .ignoreSuggestion : nil
      case .backspace: return .deleteBackward
      case .delete: return .deleteForward
      case .left: return .move(word ? .wordLeft : .left, extend: extend)
      case .right: return .move(word ? .wordRight : .right, extend: extend)
      case .up: return .move(.up, extend: extend)
      case .down: return .move(.down, extend: extend)
      case .home:
        return .move(modifiers.contains(.ctrl) ? .notebookStart : .lineStart, extend: extend)
      case .end:
        return .move(modifiers.contains(.ctrl) ? .notebookEnd : .lineEnd, extend: extend)
      case .pageUp: return .move(.pageUp, extend: extend)
      case .pageDown: return .move(.pageDown, extend: extend)
      case .f(7): return .nextSuggestion
      case .character(let c) where modifiers.contains(.ctrl):
        switch c.lowercased() {
        case "a": return .move(.paragraphStart, extend: extend)
        case "e": return .move(.paragraphEnd, extend: extend)
        case "s": return .save
        case "q": return .quit
        case "z": return extend ? .redo : .undo
        case "y": return .redo
        case "b": return .strong
        case "r": return .runTool
        default: return nil
        }
      default:
        return nil
      }
    }
  }
}
