import TextRope

extension ModelUnit {
  /// The rope's name for this unit.
  public var rope: TextUnit {
    switch self {
    case .utf8: .utf8
    case .utf16: .utf16
    case .scalars: .unicodeScalars
    }
  }
}

/// The error the rope must throw for an offset the model says is bad.
public func expectedError(_ offset: Int, _ unit: ModelUnit, _ model: TextModel) -> RopeError? {
  switch model.classify(offset, unit) {
  case .boundary: return nil
  case .outOfBounds:
    return .offsetOutOfBounds(offset: offset, unit: unit.rope, count: model.count(unit))
  case .inside:
    return unit == .utf8
      ? .splitsScalar(utf8Offset: offset) : .splitsSurrogatePair(utf16Offset: offset)
  }
}

/// Whether `error` is one the rope may throw for `bounds` (the error of one
/// of the bad bounds).
public func isValidError(_ error: RopeError, _ bounds: [Int], _ unit: ModelUnit, _ model: TextModel)
  -> Bool
{
  bounds.contains { expectedError($0, unit, model) == error }
}

/// Compares everything cheap about the rope with the model.
public func check(_ rope: Rope, _ model: TextModel, _ what: @autoclosure () -> String) {
  trace("checked after \(what()): \(model.string.debugDescription)")
  rope._invariantCheck()
  let text = String(rope)
  expect(
    text == model.string,
    "\(what()): text \(text.debugDescription) != model \(model.string.debugDescription)")
  expect(rope.utf8Count == model.utf8.count, "\(what()): utf8Count")
  expect(rope.utf16Count == model.utf16.count, "\(what()): utf16Count")
  expect(rope.scalarCount == model.scalars.count, "\(what()): scalarCount")
  expect(rope.isEmpty == model.scalars.isEmpty, "\(what()): isEmpty")
  expect(
    rope.paragraphSeparatorCount == model.separators.count,
    "\(what()): paragraphSeparatorCount \(rope.paragraphSeparatorCount) != \(model.separators.count)"
  )
  expect(rope.paragraphCount == model.paragraphCount, "\(what()): paragraphCount")
  let summary = rope.summary
  expect(
    summary
      == TextSummary(
        utf8: model.utf8.count, utf16: model.utf16.count, scalars: model.scalars.count,
        paragraphSeparators: model.separators.count), "\(what()): summary \(summary)")
  for unit in ModelUnit.allCases {
    expect(rope.count(in: unit.rope) == model.count(unit), "\(what()): count(in:)")
  }
}
