/// A text with its attribute runs: the engine's one shape for rich text.
///
/// What a context hands a tool (``WritingContext/attributedText``), what a
/// replacement puts in (``Document/replace(context:range:with:basis:policy:)``)
/// and gives back as landed, what a storage holds in a range
/// (``TextStorage/attributedText(in:)``), what undo puts back, and what
/// DocumentMarkdown reads from and writes as Markdown.
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
  package init(unchecked text: String, runs: [AttributeRun]) {
    self.text = text
    self.runs = Self.joined(runs)
  }

  /// A text whose runs are known to be sorted, inside it, not empty,
  /// with attributes, and maximal (no two touching runs alike).
  package init(maximal text: String, runs: [AttributeRun]) {
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
    let low = runs.firstRun(endingAfter: offset)
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
  package static func joined(_ runs: [AttributeRun]) -> [AttributeRun] {
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

extension AttributedText {
  // MARK: Pieces of text (what undo and the session keep)

  /// No text.
  static let empty = AttributedText(maximal: "", runs: [])

  /// The text's length in UTF-16 units.
  var length: Int { text.utf16.count }

  /// The texts one after the other, with their runs.
  static func concatenated(_ parts: some Sequence<AttributedText>) -> AttributedText {
    var text = ""
    var runs: [AttributeRun] = []
    var offset = 0
    for part in parts {
      text += part.text
      for run in part.runs {
        let shifted = AttributeRun(
          (run.range.lowerBound + offset)..<(run.range.upperBound + offset), run.attributes)
        if let last = runs.last, last.range.upperBound == shifted.range.lowerBound,
          last.attributes == shifted.attributes
        {
          runs[runs.count - 1].range = last.range.lowerBound..<shifted.range.upperBound
        } else {
          runs.append(shifted)
        }
      }
      offset += part.length
    }
    return AttributedText(maximal: text, runs: runs)
  }

  /// Puts `other` after this text.
  mutating func append(_ other: AttributedText) {
    if !other.runs.isEmpty || !runs.isEmpty {
      self = .concatenated([self, other])
      return
    }
    text += other.text
  }

  /// Puts `other` before this text.
  mutating func prepend(_ other: AttributedText) {
    if !other.runs.isEmpty || !runs.isEmpty {
      self = .concatenated([other, self])
      return
    }
    text = other.text + text
  }

  /// The part in `range` (UTF-16, on scalar boundaries).
  func slice(_ range: Range<Int>) -> AttributedText {
    let utf16 = text.utf16
    let a =
      utf16.index(utf16.startIndex, offsetBy: max(0, range.lowerBound), limitedBy: utf16.endIndex)
      ?? utf16.endIndex
    let b =
      utf16.index(a, offsetBy: max(0, range.count), limitedBy: utf16.endIndex) ?? utf16.endIndex
    let part = String(utf16[a..<b]) ?? String(decoding: Array(utf16[a..<b]), as: UTF16.self)
    var runs: [AttributeRun] = []
    for run in self.runs {
      let lo = max(run.range.lowerBound, range.lowerBound)
      let hi = min(run.range.upperBound, range.upperBound)
      if lo < hi {
        runs.append(
          AttributeRun((lo - range.lowerBound)..<(hi - range.lowerBound), run.attributes))
      }
    }
    return AttributedText(maximal: part, runs: runs)
  }
}

extension TextStorage {
  /// The text of `range` (UTF-16) with its attribute runs, relative to it;
  /// the range is clamped to the storage.
  public func attributedText(in range: Range<Int>) -> AttributedText {
    let start = min(max(0, range.lowerBound), length)
    let clamped = start..<min(max(start, range.upperBound), length)
    return AttributedText(
      maximal: text.string(in: clamped), runs: attributeRuns(in: clamped))
  }
}

extension WritingContext {
  /// The context's text with its attribute runs: what the host puts into
  /// the context's attributed string.
  public var attributedText: AttributedText {
    AttributedText(unchecked: String(text), runs: attributes)
  }
}

extension [AttributeRun] {
  /// The index of the first run that ends after `offset` (`count` if none
  /// does), in runs in order: the run holding `offset`, or the next one.
  ///
  /// - Complexity: O(log r) for r runs.
  package func firstRun(endingAfter offset: Int) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].range.upperBound <= offset {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}
