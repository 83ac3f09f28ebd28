import Testing
import TextBoundaries
import TextRope
import _EngineTestSupport

/// One line of GraphemeBreakTest.txt: the text and its boundaries (UTF-16).
struct ConformanceCase: CustomTestStringConvertible, Sendable {
  var line: Int
  var scalars: [Unicode.Scalar]
  var boundaries: [Int]

  var text: String {
    var s = String.UnicodeScalarView()
    s.append(contentsOf: scalars)
    return String(s)
  }

  var testDescription: String { "line \(line)" }

  static func load() throws -> [ConformanceCase] {
    let path = TestData.directory + "/unicode/GraphemeBreakTest-15.0.0.txt"
    let content = try String(contentsOfFile: path, encoding: .utf8)
    var cases: [ConformanceCase] = []
    for (index, rawLine) in content.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line =
        rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      let tokens = line.split { $0 == " " || $0 == "\t" }
      guard !tokens.isEmpty else { continue }
      var scalars: [Unicode.Scalar] = []
      var boundaries: [Int] = []
      var offset = 0
      for token in tokens {
        switch token {
        case "÷": boundaries.append(offset)
        case "×": break
        default:
          guard let value = UInt32(token, radix: 16), let scalar = Unicode.Scalar(value) else {
            continue
          }
          scalars.append(scalar)
          offset += UTF16.width(scalar)
        }
      }
      guard !scalars.isEmpty else { continue }
      cases.append(ConformanceCase(line: index + 1, scalars: scalars, boundaries: boundaries))
    }
    return cases
  }
}

@Suite struct GraphemeConformanceTests {
  static let cases: [ConformanceCase] = (try? ConformanceCase.load()) ?? []

  @Test func allLinesAreLoaded() {
    #expect(Self.cases.count == 602)
  }

  @Test(arguments: cases)
  func conformance(_ test: ConformanceCase) throws {
    let rope = Rope(test.text)
    try expectBoundaries(of: rope, equal: test.boundaries)
    // The same text with a chunk boundary at every scalar boundary.
    var utf8 = 0
    for scalar in test.scalars.dropLast() {
      utf8 += UTF8.width(scalar)
      let bytes = Array(test.text.utf8)
      let cut = Rope._keepingChunkBoundary(
        try Rope(validating: bytes[..<utf8]), try Rope(validating: bytes[utf8...]))
      try expectBoundaries(of: cut, equal: test.boundaries)
    }
  }
}

/// Checks every boundary query of `rope` against the expected boundaries.
func expectBoundaries(
  of rope: Rope, equal expected: [Int], sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let clusters = GraphemeClusters(rope)
  let length = rope.utf16Count
  #expect(
    try clusters.boundaries(in: 0..<length) == expected, sourceLocation: sourceLocation)
  var offset = 0
  while offset <= length {
    if (try? rope.utf8Offset(of: offset, in: .utf16)) != nil {
      let isBoundary = expected.contains(offset)
      #expect(try clusters.isBoundary(offset) == isBoundary, sourceLocation: sourceLocation)
      #expect(
        try clusters.boundary(after: offset) == expected.first { $0 > offset },
        sourceLocation: sourceLocation)
      #expect(
        try clusters.boundary(before: offset) == expected.last { $0 < offset },
        sourceLocation: sourceLocation)
    }
    offset += 1
  }
}
