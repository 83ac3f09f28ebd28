/// Picking units from the input.
extension FuzzInput {
  /// A unit, UTF-16 (the engine's public unit) half of the time.
  public mutating func unit() -> ModelUnit {
    switch byte() % 4 {
    case 0: .utf8
    case 1: .scalars
    default: .utf16
    }
  }
}
