/// The units a model offset can be in (the rope's `TextUnit`, without
/// depending on the rope).
public enum ModelUnit: CaseIterable, Sendable {
  case utf8
  case utf16
  case scalars
}

/// What an offset is in a model's text.
public enum ModelOffset: Equatable, Sendable {
  /// A scalar boundary: the boundary before scalar `index`.
  case boundary(Int)
  /// Negative or past the end.
  case outOfBounds
  /// Inside a scalar (between the halves of a surrogate pair, or inside a
  /// scalar's UTF-8 bytes).
  case inside
}

/// The obvious model of a text: its scalars, with every count, offset and
/// paragraph worked out from scratch after each change.
public struct TextModel: Equatable, Sendable {
  /// The text.
  public private(set) var scalars: [Unicode.Scalar] = []
  /// The text as a string.
  public private(set) var string = ""
  /// The UTF-16 code units.
  public private(set) var utf16: [UInt16] = []
  /// The UTF-8 bytes.
  public private(set) var utf8: [UInt8] = []
  /// For each scalar boundary (0...scalars.count), its UTF-8 offset.
  public private(set) var utf8Bounds: [Int] = [0]
  /// For each scalar boundary, its UTF-16 offset.
  public private(set) var utf16Bounds: [Int] = [0]
  /// The paragraph separators as scalar ranges (CR LF is one).
  public private(set) var separators: [Range<Int>] = []

  /// A model of `string`.
  public init(_ string: String = "") {
    scalars = Array(string.unicodeScalars)
    update()
  }

  /// A model of `scalars`.
  public init(scalars: [Unicode.Scalar]) {
    self.scalars = scalars
    update()
  }

  public static func == (lhs: TextModel, rhs: TextModel) -> Bool { lhs.scalars == rhs.scalars }

  private mutating func update() {
    var s = String.UnicodeScalarView()
    s.append(contentsOf: scalars)
    string = String(s)
    utf16 = Array(string.utf16)
    utf8 = Array(string.utf8)
    utf8Bounds = [0]
    utf16Bounds = [0]
    utf8Bounds.reserveCapacity(scalars.count + 1)
    utf16Bounds.reserveCapacity(scalars.count + 1)
    separators = []
    for (i, scalar) in scalars.enumerated() {
      utf8Bounds.append(utf8Bounds[i] + UTF8.width(scalar))
      utf16Bounds.append(utf16Bounds[i] + UTF16.width(scalar))
      switch scalar {
      case "\n":
        if i > 0 && scalars[i - 1] == "\r" {
          separators.append((i - 1)..<(i + 1))
        } else {
          separators.append(i..<(i + 1))
        }
      case "\u{2029}":
        separators.append(i..<(i + 1))
      case "\r":
        if i + 1 >= scalars.count || scalars[i + 1] != "\n" { separators.append(i..<(i + 1)) }
      default:
        break
      }
    }
  }

  /// The length in `unit`.
  public func count(_ unit: ModelUnit) -> Int {
    switch unit {
    case .utf8: utf8.count
    case .utf16: utf16.count
    case .scalars: scalars.count
    }
  }

  /// The offset in `unit` of scalar boundary `index`.
  public func offset(ofBoundary index: Int, in unit: ModelUnit) -> Int {
    switch unit {
    case .utf8: utf8Bounds[index]
    case .utf16: utf16Bounds[index]
    case .scalars: index
    }
  }

  /// What `offset` (in `unit`) is.
  public func classify(_ offset: Int, _ unit: ModelUnit) -> ModelOffset {
    guard offset >= 0 && offset <= count(unit) else { return .outOfBounds }
    let bounds: [Int]
    switch unit {
    case .scalars: return .boundary(offset)
    case .utf8: bounds = utf8Bounds
    case .utf16: bounds = utf16Bounds
    }
    // The first boundary at or after `offset`.
    var low = 0
    var high = bounds.count - 1
    while low < high {
      let mid = (low + high) / 2
      if bounds[mid] < offset { low = mid + 1 } else { high = mid }
    }
    return bounds[low] == offset ? .boundary(low) : .inside
  }

  /// The scalar boundary index of `offset` in `unit`, if it is one.
  public func boundary(_ offset: Int, _ unit: ModelUnit) -> Int? {
    if case .boundary(let i) = classify(offset, unit) { return i }
    return nil
  }

  /// The offsets in `unit` that fall inside a scalar (for UTF-16: between
  /// the halves of surrogate pairs), plus those between CR and LF; at most
  /// `limit` of them, spread over the text.
  public func interestingOffsets(_ unit: ModelUnit, limit: Int = 64) -> [Int] {
    var result: [Int] = []
    for (i, scalar) in scalars.enumerated() {
      let width: Int
      switch unit {
      case .utf8: width = UTF8.width(scalar)
      case .utf16: width = UTF16.width(scalar)
      case .scalars: width = 1
      }
      let start = offset(ofBoundary: i, in: unit)
      for inner in 1..<max(1, width) { result.append(start + inner) }
      if scalar == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n" {
        result.append(offset(ofBoundary: i + 1, in: unit))
      }
    }
    if result.count <= limit { return result }
    let step = result.count / limit + 1
    return stride(from: 0, to: result.count, by: step).map { result[$0] }
  }

  /// Replaces the scalars between boundaries `range`.
  public mutating func replace(scalarRange range: Range<Int>, with text: String) {
    scalars.replaceSubrange(range, with: Array(text.unicodeScalars))
    update()
  }

  /// The model of the text between scalar boundaries `range`.
  public func slice(scalarRange range: Range<Int>) -> TextModel {
    TextModel(scalars: Array(scalars[range]))
  }

  /// The number of the paragraph at scalar boundary `index`: how many
  /// separators end at or before it.
  public func paragraphNumber(atBoundary index: Int) -> Int {
    var low = 0
    var high = separators.count
    while low < high {
      let mid = (low + high) / 2
      if separators[mid].upperBound <= index { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The number of paragraphs (one more than the separators).
  public var paragraphCount: Int { separators.count + 1 }

  /// The scalar boundary where paragraph `number` starts.
  public func paragraphStart(_ number: Int) -> Int {
    number == 0 ? 0 : separators[number - 1].upperBound
  }

  /// The paragraph holding scalar boundary `index` as `NSString` answers
  /// it: its range (with the separator) and where its contents end.
  public func paragraph(atBoundary index: Int) -> (range: Range<Int>, contentsEnd: Int) {
    let number = paragraphNumber(atBoundary: index)
    let start = paragraphStart(number)
    if number < separators.count {
      let separator = separators[number]
      return (start..<separator.upperBound, separator.lowerBound)
    }
    return (start..<scalars.count, scalars.count)
  }
}
