import TextRope

/// One edit of a batch (see ``Document/apply(_:)``): the person's edit of a
/// range in UTF-16 or another unit, or an edit of an origin on an older
/// version.
public struct DocumentEdit: Hashable, Sendable {
  /// The storage edited.
  public var storage: StorageID
  /// The replaced range, in ``unit``.
  public var range: Range<Int>
  /// The unit of ``range``.
  public private(set) var unit: TextUnit
  /// The new text.
  public var text: String
  /// The attributes of the new text (`[:]`: none); `nil`: those the edit
  /// rule gives it (see ``Document/edit(_:range:with:attributes:origin:basis:)``).
  public var attributes: [AttributeKey: AttributeValue]?
  /// Who made it (`nil` for the person); only for an edit in UTF-16.
  public private(set) var origin: String?
  /// The storage version it was made on (`nil` for the current one); only
  /// for an edit in UTF-16.
  public private(set) var basis: StorageVersion?

  /// An edit of `range` (UTF-16), as ``Document/edit(_:range:with:attributes:origin:basis:)``
  /// takes it.
  public init(
    _ storage: StorageID, range: Range<Int>, with text: String,
    attributes: [AttributeKey: AttributeValue]? = nil, origin: String? = nil,
    basis: StorageVersion? = nil
  ) {
    self.storage = storage
    self.range = range
    self.unit = .utf16
    self.text = text
    self.attributes = attributes
    self.origin = origin
    self.basis = basis
  }

  /// The person's edit of `range` in `unit`, as
  /// ``Document/edit(_:range:in:with:attributes:)`` takes it.
  public init(
    _ storage: StorageID, range: Range<Int>, in unit: TextUnit, with text: String,
    attributes: [AttributeKey: AttributeValue]? = nil
  ) {
    self.storage = storage
    self.range = range
    self.unit = unit
    self.text = text
    self.attributes = attributes
  }
}
