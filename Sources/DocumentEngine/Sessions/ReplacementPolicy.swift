/// What to do with a tool replacement that an edit it had not seen touched.
public enum ReplacementPolicy: String, Hashable, Sendable, CaseIterable {
  /// Refuse it with ``DocumentError/conflict(context:)``: the person's text
  /// wins.
  case refuse
  /// Apply it anyway, transformed through the edits it had not seen.
  case merge
}
