import DocumentEngine

/// A text with its attribute runs: what a storage, a context or a
/// replacement holds as rich text, in one value.
///
/// `runs` are in UTF-16 units of `text` (NSRange-compatible), sorted,
/// not overlapping, each with at least one attribute; units no run covers
/// have none. Two attributed texts are equal when their texts are and their
/// runs cover the same units with the same attributes: the initializer joins
/// touching runs of equal attributes and drops empty ones, so that equality
/// compares content, not how the runs were cut.
public struct AttributedText: Hashable, Sendable, CustomStringConvertible {
  /// The text.
  public var text: String
  /// The runs of `text`'s attributes, maximal and in order.
  public private(set) var runs: [AttributeRun]

  /// A text with attributes given as runs in UTF-16 units of `text`.
  ///
  /// Runs may touch or repeat attributes; they are joined. They must be
  /// sorted, not overlapping and inside `text`: otherwise the result is
  /// ``AttributedText/Problem``.
  public init(_ text: String, runs: [AttributeRun] = []) throws(Problem) {
    let length = text.utf16.count
    var previousEnd = 0
    for run in runs {
      guard run.range.lowerBound >= previousEnd, run.range.upperBound <= length else {
        throw Problem(run: run.range, length: length)
      }
      previousEnd = run.range.upperBound
    }
    self.text = text
    self.runs = Self.joined(runs)
  }

  /// A text whose runs are known to be sorted, inside it and not
  /// overlapping.
  init(unchecked text: String, runs: [AttributeRun]) {
    self.text = text
    self.runs = Self.joined(runs)
  }

  /// A text whose runs are known to be sorted, inside it, not empty,
  /// with attributes, and maximal (no two touching runs alike).
  init(maximal text: String, runs: [AttributeRun]) {
    self.text = text
    self.runs = runs
  }

  /// Why runs were refused: one of them is out of order, overlaps the one
  /// before, or ends past the text's `length` UTF-16 units.
  public struct Problem: Error, Hashable, Sendable {
    /// The first run that was refused.
    public var run: Range<Int>
    /// The text's length in UTF-16 units.
    public var length: Int
  }

  /// The attributes of the UTF-16 unit at `offset` (none past the end).
  public func attributes(at offset: Int) -> [AttributeKey: AttributeValue] {
    var low = 0
    var high = runs.count
    while low < high {
      let middle = (low + high) / 2
      if runs[middle].range.upperBound <= offset {
        low = middle + 1
      } else {
        high = middle
      }
    }
    guard low < runs.count, runs[low].range.contains(offset) else { return [:] }
    return runs[low].attributes
  }

  /// The text, with each run's attributes after it in brackets: for
  /// messages and test failures.
  public var description: String {
    var result = "\"\(text)\""
    for run in runs {
      let attributes = run.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      result += " \(run.range)[\(attributes.joined(separator: ", "))]"
    }
    return result
  }

  /// `runs` without empty ones, touching runs of equal attributes joined.
  static func joined(_ runs: [AttributeRun]) -> [AttributeRun] {
    var result: [AttributeRun] = []
    result.reserveCapacity(runs.count)
    for run in runs where !run.range.isEmpty && !run.attributes.isEmpty {
      if let last = result.last, last.range.upperBound == run.range.lowerBound,
        last.attributes == run.attributes
      {
        result[result.count - 1].range = last.range.lowerBound..<run.range.upperBound
      } else {
        result.append(run)
      }
    }
    return result
  }
}

extension SuggestionCandidate {
  /// A candidate written in Markdown (a language model acting as
  /// reviewer): the attributed text it stands for
  /// (``AttributedText/init(markdown:)``). A candidate of one paragraph
  /// is inline text (no paragraph of its own): the paragraph's
  /// presentation intent is left out, so that it lands inside the
  /// paragraph it corrects.
  public init(markdown: String) {
    let read = AttributedText(markdown: markdown)
    let inline = !read.text.contains(where: \.isNewline)
    let runs = read.runs.compactMap { run -> AttributeRun? in
      guard inline else { return run }
      var attributes = run.attributes
      attributes[.presentationIntent] = nil
      return attributes.isEmpty ? nil : AttributeRun(run.range, attributes)
    }
    self.init(read.text, attributes: runs)
  }
}
