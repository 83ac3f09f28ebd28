/// The states of a Writing Tools session (Apple's
/// `NSWritingToolsCoordinator.State`).
public enum WritingToolsState: String, Hashable, Sendable, CaseIterable {
  /// Writing Tools is not acting on the text.
  case inactive
  /// Writing Tools works in its own panel; the text changes only when the
  /// person accepts.
  case noninteractive
  /// Writing Tools works in the text, waiting.
  case interactiveResting
  /// Writing Tools is streaming replacements into the text.
  case interactiveStreaming

  /// Whether a session may go from this state to `next`: inactive →
  /// noninteractive | interactiveResting ⇄ interactiveStreaming, and back to
  /// inactive from any. Staying in a state is allowed.
  public func canMove(to next: Self) -> Bool {
    if next == self || next == .inactive { return true }
    switch self {
    case .inactive: return next == .noninteractive || next == .interactiveResting
    case .noninteractive: return false
    case .interactiveResting: return next == .interactiveStreaming
    case .interactiveStreaming: return next == .interactiveResting
    }
  }
}
