#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One Writing Tools operation: the contexts handed out for a scope. Asking
/// the document for contexts again ends the previous session.
public struct WritingSession: Sendable, Identifiable {
  /// A fresh identifier.
  public let id: UUID
  /// The scope the contexts were made for.
  public let scope: ContextScope
  /// The contexts, in document order.
  public let contexts: [WritingContext]
  /// What kind of text the tool may give back; its replacements'
  /// attributes are filtered by them.
  public let resultOptions: ResultOptions
}
