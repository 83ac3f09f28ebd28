import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A live context as it is now.
public struct LiveContext: Sendable, Identifiable {
  /// The context's identifier.
  public var id: UUID
  /// The storage.
  public var storage: StorageID
  /// Where its text is now in the storage (UTF-16).
  public var storageRange: Range<Int>
  /// Its version: 0 when made, one more for each change of its text.
  public var contextVersion: ContextVersion
  /// Its text now (a rope snapshot).
  public var text: Rope
}
