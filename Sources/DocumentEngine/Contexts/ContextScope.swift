/// The scopes a writing tool asks contexts for (Apple's
/// `NSWritingToolsCoordinator.ContextScope`).
public enum ContextScope: String, Sendable, Hashable, CaseIterable {
  /// The selection and the paragraphs around it.
  case userSelection
  /// Every non-empty storage, whole.
  case fullDocument
  /// The visible ranges, grown to paragraphs.
  case visibleArea
}
