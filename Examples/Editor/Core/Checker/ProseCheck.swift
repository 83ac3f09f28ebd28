import DocumentEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One run of a command-line prose checker (`editor --checker COMMAND`) on
/// paragraphs of one cell: what it reads, and how its findings map back.
///
/// The checker reads the paragraphs' text as UTF-8 on its standard input,
/// one blank line between paragraphs, and writes proselint's JSON
/// (`proselint check -o json`): `{"result": {NAME: {"diagnostics":
/// [{"check_path", "message", "span": [START, END], "replacements"}]}}}`.
/// A span counts code points, from 1, of the text as Python reads it with
/// universal newlines (a CR LF is one `\n`, a lone CR too); its line and
/// column (`pos`, which Python's `splitlines` also breaks at U+2028, U+2029,
/// VT, FF and more) are not used. Exit status 0 and 1 (found something)
/// are answers; anything else is a failure.
public struct ProseCheck: Sendable {
  /// One paragraph checked: where it is in the cell (UTF-16, at the
  /// version checked), its text, and where it starts in the checker's
  /// input (code points after universal newlines).
  public struct Piece: Sendable, Hashable {
    public var range: Range<Int>
    public var text: String
    public var start: Int
    public var count: Int
  }

  /// A finding, mapped to the cell (UTF-16, at the version checked).
  public struct Finding: Sendable, Hashable {
    public var range: Range<Int>
    public var kind: SuggestionKind
    public var explanation: String
    public var candidates: [String]
  }

  public private(set) var pieces: [Piece] = []
  /// What the checker reads.
  public private(set) var input: [UInt8] = []
  private var codePoints = 0

  /// A run on `paragraphs` (each a range of the cell and its text).
  public init(_ paragraphs: [(range: Range<Int>, text: String)]) {
    for (range, text) in paragraphs {
      if !pieces.isEmpty {
        input += Array("\n\n".utf8)
        codePoints += 2
      }
      let count = Self.readCount(text)
      pieces.append(Piece(range: range, text: text, start: codePoints, count: count))
      input += Array(text.utf8)
      codePoints += count
    }
    input.append(UInt8(ascii: "\n"))
  }

  /// How many code points `text` is once read with universal newlines.
  static func readCount(_ text: String) -> Int {
    var count = 0
    var afterCR = false
    for scalar in text.unicodeScalars {
      if !(afterCR && scalar == "\n") { count += 1 }
      afterCR = scalar == "\r"
    }
    return count
  }

  /// The UTF-16 offset in `text` of code point `k` of it as read with
  /// universal newlines (a CR LF's one code point starts at its CR; its
  /// end is after the LF).
  static func utf16Offset(ofReadPoint k: Int, in text: String) -> Int {
    var read = 0
    var utf16 = 0
    var afterCR = false
    for scalar in text.unicodeScalars {
      let joins = afterCR && scalar == "\n"
      if !joins {
        if read == k { return utf16 }
        read += 1
      }
      utf16 += scalar.utf16.count
      afterCR = scalar == "\r"
    }
    return utf16
  }

  /// The checker's output as findings in the cell, or why it is no answer.
  public func findings(in output: [UInt8]) -> Result<[Finding], ProseCheckError> {
    let decoded: Output
    do {
      decoded = try JSONDecoder().decode(Output.self, from: Data(output))
    } catch {
      return .failure(.notItsJSON(String(decoding: output.prefix(120), as: UTF8.self)))
    }
    var found: [Finding] = []
    for file in decoded.result.values {
      for diagnostic in file.diagnostics {
        guard diagnostic.span.count == 2, let finding = map(diagnostic) else { continue }
        found.append(finding)
      }
    }
    return .success(
      found.sorted {
        ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound)
      })
  }

  /// One diagnostic in the cell's offsets: nil if its span is not inside
  /// one paragraph (it crosses the blank line between two, or is out of
  /// the input).
  func map(_ diagnostic: Diagnostic) -> Finding? {
    // (From 1.)
    let start = diagnostic.span[0] - 1
    let end = diagnostic.span[1] - 1
    guard start >= 0, start < end,
      let piece = pieces.last(where: { $0.start <= start }),
      end <= piece.start + piece.count
    else { return nil }
    let lower = Self.utf16Offset(ofReadPoint: start - piece.start, in: piece.text)
    let upper = Self.utf16Offset(ofReadPoint: end - piece.start, in: piece.text)
    guard lower < upper else { return nil }
    return Finding(
      range: (piece.range.lowerBound + lower)..<(piece.range.lowerBound + upper),
      kind: Self.kind(of: diagnostic.checkPath), explanation: diagnostic.message,
      candidates: diagnostic.replacements?.list ?? [])
  }

  /// proselint's checks of grammar and words; the others are style.
  static let grammarChecks: Set<String> = [
    "lexical_illusions", "malapropisms", "mixed_metaphors", "mondegreens", "nonwords",
    "spelling", "uncomparables", "misc",
  ]

  static func kind(of checkPath: String) -> SuggestionKind {
    let family = checkPath.split(separator: ".").first.map(String.init) ?? checkPath
    return grammarChecks.contains(family) ? .grammar : .style
  }

  struct Output: Decodable {
    var result: [String: File]
  }

  struct File: Decodable {
    var diagnostics: [Diagnostic]
  }

  struct Diagnostic: Decodable {
    var checkPath: String
    var message: String
    var span: [Int]
    var replacements: Replacements?

    enum CodingKeys: String, CodingKey {
      case checkPath = "check_path"
      case message, span, replacements
    }
  }

  /// A replacement, or several.
  enum Replacements: Decodable {
    case one(String)
    case many([String])

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let one = try? container.decode(String.self) {
        self = .one(one)
      } else {
        self = .many(try container.decode([String].self))
      }
    }

    var list: [String] {
      switch self {
      case .one(let s): [s]
      case .many(let all): all
      }
    }
  }
}

/// Why a checker's run gave no findings.
public enum ProseCheckError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Its output is not proselint's JSON.
  case notItsJSON(String)

  public var description: String {
    switch self {
    case .notItsJSON(let start): "its output is not proselint's JSON: \(start)"
    }
  }
}
