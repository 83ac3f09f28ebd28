import TextRope

/// A trace's patches as UTF-16 ranges and texts, converted once (outside any
/// measurement) by replaying it into a rope: what an editor hands the engine
/// (`NSRange`s), where the trace gives positions in Unicode scalars.
///
/// The trace may be typed between two texts of its own, `before` and
/// `after`: the ranges are then those of the whole text, so that the same
/// edits can be made in a bigger storage (a context around the typing, a
/// document of 1 MB).
public struct UTF16Trace: @unchecked Sendable {
  public let name: String
  /// The text before the first edit: `before`, the trace's start, `after`.
  public let start: String
  /// The text after the last edit: `before`, the trace's end, `after`.
  public let end: String
  /// Each edit's replaced range (UTF-16) in the text the edits before it
  /// left.
  public let ranges: [Range<Int>]
  /// Each edit's new text.
  public let inserts: [String]
  /// The UTF-16 length of `before`: where the trace's own text starts.
  public let offset: Int

  public var count: Int { ranges.count }

  /// Converts `trace`, typed between `before` and `after`, and checks that
  /// the edits give the trace's end (between the same texts).
  public init(_ trace: PreparedTrace, before: String = "", after: String = "") {
    let start = before + trace.startContent + after
    var rope = Rope(start)
    let shift = before.unicodeScalars.count
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(trace.patchCount)
    do {
      for i in 0..<trace.patchCount {
        let lower = shift + trace.positions[i]
        let scalars = lower..<lower + trace.deleteCounts[i]
        ranges.append(try rope.convert(scalars, from: .unicodeScalars, to: .utf16))
        try rope.replace(scalars, in: .unicodeScalars, with: trace.inserts[i])
      }
    } catch {
      fatalError("\(trace.name): \(error)")
    }
    self.name = trace.name
    self.start = start
    self.end = before + trace.endContent + after
    self.ranges = ranges
    self.inserts = trace.inserts
    self.offset = before.utf16.count
    checkResult(String(rope), equals: end, "UTF-16 conversion of \(trace.name)")
  }
}

/// The paragraphs the document benchmarks type a trace between (the same
/// text for every structure), so that a selection from the first to the
/// last gives a context around everything the trace types.
public let paragraphBeforeTrace = "The paragraph before the trace.\n"
public let paragraphAfterTrace = "\nThe paragraph after the trace.\n"
