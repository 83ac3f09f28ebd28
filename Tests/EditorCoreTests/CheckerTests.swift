import DocumentEngine
import EditorCore
import Foundation
import Testing
import TextRope

/// The prose checker (`editor --checker COMMAND`): what it reads, how its
/// spans (code points of the text Python read with universal newlines,
/// from 1) map back to UTF-16 ranges of the cells, and what a checker that
/// fails costs (nothing).
struct CheckerTests {
  /// proselint in the virtual environment `.ci/setup` makes, or on the
  /// path given by `PROSELINT`.
  static let proselint: String? = {
    if let given = ProcessInfo.processInfo.environment["PROSELINT"] { return given }
    let path = FileManager.default.currentDirectoryPath + "/.venv-mcp/bin/proselint"
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }()

  /// proselint's JSON for spans `spans` (check path, span from 1,
  /// replacements).
  static func output(_ spans: [(String, Int, Int, String?)]) -> [UInt8] {
    let diagnostics = spans.map { path, start, end, replacement in
      """
      {"check_path":"\(path)","message":"About \(path).","pos":[1,1],\
      "replacements":\(replacement.map { "\"\($0)\"" } ?? "null"),"span":[\(start),\(end)]}
      """
    }
    let json =
      #"{"result":{"<stdin>":{"diagnostics":["# + diagnostics.joined(separator: ",") + "]}}}"
    return Array(json.utf8)
  }

  /// The span proselint gives `part`'s `occurrence`-th appearance in what
  /// the checker read (`"\n"` + input, code points; no CR in these texts).
  static func span(of part: String, in input: String, occurrence: Int = 0) -> (Int, Int) {
    let scalars = Array(input.unicodeScalars)
    let needle = Array(part.unicodeScalars)
    var found = -1
    var seen = 0
    for i in 0...(scalars.count - needle.count)
    where Array(scalars[i..<(i + needle.count)]) == needle {
      if seen == occurrence {
        found = i
        break
      }
      seen += 1
    }
    return (found + 1, found + 1 + needle.count)
  }

  /// The UTF-16 range of `part`'s `occurrence`-th appearance in `text`.
  static func utf16Range(of part: String, in text: String, occurrence: Int = 0) -> Range<Int> {
    let units = Array(text.utf16)
    let needle = Array(part.utf16)
    var seen = 0
    for i in 0...(units.count - needle.count) where Array(units[i..<(i + needle.count)]) == needle {
      if seen == occurrence { return i..<(i + needle.count) }
      seen += 1
    }
    return -1..<(-1)
  }

  @Test func spansMapToUTF16ThroughEmojiCJKAndLineSeparators() throws {
    let first = "It is very unique 👩‍👩‍👧 中文 and very unique."
    let second = "x\u{2028}very unique\u{0B}\u{0C}🇫🇷 very unique"
    let check = ProseCheck([
      (10..<(10 + first.utf16.count), first), (90..<(90 + second.utf16.count), second),
    ])
    let input = String(decoding: check.input, as: UTF8.self)
    #expect(input == first + "\n\n" + second + "\n")
    var spans: [(String, Int, Int, String?)] = []
    var expected: [Range<Int>] = []
    for (text, base, n) in [(first, 10, 2), (second, 90, 2)] {
      for k in 0..<n {
        let offset = text == first ? 0 : first.unicodeScalars.count + 2
        let (a, b) = Self.span(of: "very unique", in: text, occurrence: k)
        spans.append(("uncomparables", a + offset, b + offset, nil))
        let r = Self.utf16Range(of: "very unique", in: text, occurrence: k)
        expected.append((base + r.lowerBound)..<(base + r.upperBound))
      }
    }
    let findings = try check.findings(in: Self.output(spans)).get()
    #expect(findings.map(\.range) == expected)
    #expect(findings.allSatisfy { $0.kind == .grammar && $0.explanation == "About uncomparables." })
  }

  @Test func aCRLFIsOneCodePointAsPythonReadsIt() throws {
    let text = "a\r\nvery\rb 😀 very"
    let check = ProseCheck([(0..<text.utf16.count, text)])
    // Python reads "a\nvery\nb 😀 very": "very" at 2 and at 11 (from 0),
    // spans from 1 after proselint's leading newline.
    let findings = try check.findings(
      in: Self.output([("weasel_words.very", 3, 7, nil), ("weasel_words.very", 12, 16, "")])
    ).get()
    #expect(findings.map(\.range) == [3..<7, 13..<17])
    #expect(findings.map(\.kind) == [.style, .style])
    #expect(findings.map(\.candidates) == [[], [""]])
  }

  @Test func whatIsNotAFindingIsLeftOut() throws {
    let check = ProseCheck([(0..<3, "abc"), (5..<8, "def")])
    // Across the blank line between the paragraphs, empty, out of the
    // input, a span of one number: none of them.
    let findings = try check.findings(
      in: Self.output([("a", 2, 7, nil), ("b", 3, 3, nil), ("c", 40, 44, nil), ("d", 6, 8, "DE")])
    ).get()
    #expect(findings.map(\.range) == [5..<7])
    #expect(findings.first?.candidates == ["DE"])
    #expect(throws: ProseCheckError.self) { try check.findings(in: Array("garbage".utf8)).get() }
    #expect(throws: ProseCheckError.self) { try check.findings(in: []).get() }
  }

  /// An editor on one plain cell.
  func editor(_ text: String) throws -> Editor {
    let document = Document()
    try document.add("c0", text: Rope(text))
    let cell = Notebook.Cell(
      id: "c0", path: nil, format: .plain, title: "c0",
      savedVersion: try document.content.storage("c0").version)
    return Editor(notebook: Notebook(document: document, cells: [cell]), rows: 12, columns: 80)
  }

  func waitForTheChecker(_ e: Editor, timeout: Double = 30) {
    let deadline = ToolProcess.now() + timeout
    while ToolProcess.now() < deadline {
      e.pollChecker()
      if e.checkerStatus?.hasPrefix("checker: running") != true { return }
      usleep(10_000)
    }
  }

  @Test(arguments: [
    ("exit 3", "exited with status 3"),
    ("echo '{\"result\": 1}'", "not proselint's JSON"),
    ("head -c 100 /dev/zero", "not proselint's JSON"),
    ("sleep 20", "timed out"),
    ("/nonexistent/checker", "status 127"),
  ])
  func aCheckerThatFailsCostsNothing(_ command: String, _ why: String) throws {
    let text = "It is very unique.\n"
    let e = try editor(text)
    e.checkerCommand = command
    e.checkerTimeout = 1
    e.checkVisibleProse()
    e.perform(.insert("¡"))
    waitForTheChecker(e)
    #expect(e.checkerStatus?.contains(why) == true, "\(e.checkerStatus ?? "nil")")
    #expect(String(try e.document.content.storage("c0").text) == "¡" + text)
    #expect(try e.document.suggestions(in: "c0").isEmpty)
  }

  @Test(.enabled(if: CheckerTests.proselint != nil, "proselint is installed by .ci/setup"))
  func proselintsFindingsLandAtTheirUTF16Ranges() throws {
    let text = "Enter the PIN number 👩‍👩‍👧 中文 now.\r\nThe ATM machine 🇫🇷 is very unique.\n"
    let e = try editor(text)
    e.checkerCommand = "\(CheckerTests.proselint!) check -o json"
    e.checkVisibleProse()
    // The person types before the findings land: they are mapped.
    e.perform(.insert("« "))
    waitForTheChecker(e)
    #expect(e.checkerStatus?.hasPrefix("checker: ") == true)
    let now = "« " + text
    let suggestions = try e.document.suggestions(in: "c0")
    func at(_ part: String) -> Range<Int> { Self.utf16Range(of: part, in: now) }
    let pin = try #require(suggestions.first { $0.range == at("PIN number") })
    #expect(pin.kind == .style && pin.candidates.map(\.text) == ["PIN"])
    #expect(
      suggestions.contains { $0.range == at("ATM machine") && $0.candidates.map(\.text) == ["ATM"] }
    )
    #expect(suggestions.contains { $0.range == at("very unique") && $0.kind == .grammar })
    #expect(suggestions.contains { $0.range == at("very") && $0.kind == .style })
    // F7 from the start goes to "PIN number"; Enter accepts "PIN".
    e.perform(.move(.notebookStart, extend: false))
    e.perform(.nextSuggestion)
    e.perform(.acceptSuggestion)
    #expect(
      String(try e.document.content.storage("c0").text)
        == now.replacingOccurrences(of: "PIN number", with: "PIN"))
  }
}
