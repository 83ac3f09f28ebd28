import Foundation
import Testing
import _EngineTestSupport

/// The REPL driven as other programs drive it: through a pipe.
enum REPL {
  static var path: String {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
      .appendingPathComponent("scope-repl").path
  }

  /// Starts the REPL with `arguments`, its stdin and stdout on pipes.
  static func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    return (process, stdin, stdout)
  }

  /// Runs the REPL with `arguments` on `input`; returns its stdout lines and
  /// exit status.
  static func run(_ arguments: [String], input: [UInt8]) throws -> (lines: [String], status: Int32)
  {
    let (process, stdin, stdout) = try start(arguments)
    // Write on another thread: a long input would fill the pipe.
    let writer = Thread {
      stdin.fileHandleForWriting.write(Data(input))
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: output, as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return (lines, process.terminationStatus)
  }

  /// Runs the REPL (human mode, piped) on `input` and expects it to exit
  /// with 0 and print `expected`, line by line (each mismatch named by its
  /// line number); returns the lines it printed.
  @discardableResult
  static func expectTranscript(input: String, expected: String) throws -> [String] {
    let (lines, status) = try run([], input: Array(input.utf8))
    #expect(status == 0)
    let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init).dropLast()
    #expect(lines.count == wanted.count)
    for (i, (got, want)) in zip(lines, wanted).enumerated() {
      #expect(got == want, "line \(i + 1)")
    }
    return lines
  }

  /// Sends JSON requests (one per line); returns the parsed responses.
  static func json(_ requests: [String], arguments: [String] = []) throws -> [[String: Any]] {
    let input = requests.map { $0 + "\n" }.joined()
    let (lines, status) = try run(["--json"] + arguments, input: Array(input.utf8))
    #expect(status == 0)
    return try lines.map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
      return try #require(object as? [String: Any], "not an object: \(line)")
    }
  }
}

func code(_ response: [String: Any]) -> String? {
  (response["error"] as? [String: Any])?["code"] as? String
}

func range(_ value: Any?) -> Range<Int>? {
  guard let object = value as? [String: Any], let offset = object["offset"] as? Int,
    let length = object["length"] as? Int
  else { return nil }
  return offset..<(offset + length)
}

@Suite struct ScopeREPLJSONTests {
  @Test func theExampleOfTheProtocol() throws {
    let first = try REPL.json([
      #"{"cmd":"add","storage":"title","text":"Draft\n"}"#,
      #"{"cmd":"add","storage":"body","text":"One two.\nThree fuor.\nFive.\n"}"#,
      #"{"cmd":"select","ranges":[{"storage":"body","offset":15,"length":4}]}"#,
      #"{"cmd":"contexts","scope":"userSelection"}"#,
    ])
    #expect(first.count == 4)
    #expect(first[0]["ok"] as? Bool == true)
    #expect(first[0]["storage"] as? String == "title")
    #expect(first[0]["length"] as? Int == 6)
    #expect(first[0]["version"] as? Int == 0)
    #expect(first[1]["length"] as? Int == 27)
    #expect(first[2]["ok"] as? Bool == true)
    let contexts = try #require(first[3]["contexts"] as? [[String: Any]])
    #expect(contexts.count == 1)
    let context = contexts[0]
    let id = try #require(context["id"] as? String)
    #expect(UUID(uuidString: id) != nil)
    #expect(context["storage"] as? String == "body")
    #expect(range(context["storageRange"]) == 9..<21)
    #expect(context["text"] as? String == "Three fuor.\n")
    #expect(range(context["range"]) == 6..<10)
    #expect((context["excluded"] as? [Any])?.isEmpty == true)
    #expect(context["version"] as? Int == 0)
    #expect(context["contextVersion"] as? Int == 0)

    // The rest needs the context's id: run the whole session again with it
    // read from the first run's output shape (ids are fresh per run).
    let script = [
      #"{"cmd":"add","storage":"title","text":"Draft\n"}"#,
      #"{"cmd":"add","storage":"body","text":"One two.\nThree fuor.\nFive.\n"}"#,
      #"{"cmd":"select","ranges":[{"storage":"body","offset":15,"length":4}]}"#,
      #"{"cmd":"contexts","scope":"userSelection"}"#,
      #"{"cmd":"edit","storage":"body","offset":0,"length":0,"text":"Zero. "}"#,
      #"{"cmd":"replace","context":"$1","offset":6,"length":4,"text":"four"}"#,
      #"{"cmd":"text","storage":"body"}"#,
    ]
    let responses = try Interactive.run(script)
    let contextID = try #require(
      ((responses[3]["contexts"] as? [[String: Any]])?.first?["id"]) as? String)
    let edit = responses[4]
    #expect(edit["version"] as? Int == 1)
    #expect(range(edit["range"]) == 0..<6)
    let events = try #require(edit["events"] as? [[String: Any]])
    #expect(events.count == 1)
    #expect(events[0]["kind"] as? String == "reflowed")
    #expect(events[0]["context"] as? String == contextID)
    let replace = responses[5]
    #expect(replace["ok"] as? Bool == true)
    #expect(replace["storage"] as? String == "body")
    #expect(range(replace["storageRange"]) == 21..<25)
    #expect(replace["contextVersion"] as? Int == 1)
    #expect((replace["events"] as? [Any])?.isEmpty == true)
    #expect(responses[6]["text"] as? String == "Zero. One two.\nThree four.\nFive.\n")
  }

  @Test func everyErrorCode() throws {
    let directory = FileManager.default.temporaryDirectory
    let latin1 = directory.appendingPathComponent("latin1-\(UUID().uuidString).txt")
    try Data([0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: latin1)
    defer { try? FileManager.default.removeItem(at: latin1) }
    let script: [(String, String)] = [
      (#"{"cmd":"add","storage":"body","text":"a😀b\nsecond line\n"}"#, "ok"),
      (#"{"cmd":"fly"}"#, "badRequest"),
      (#"{"storage":"body"}"#, "badRequest"),
      (#"{"cmd":"text","storage":7}"#, "badRequest"),
      (#"{"cmd":"text","storage":"nope"}"#, "unknownStorage"),
      (#"{"cmd":"edit","storage":"body","offset":99,"length":0,"text":"x"}"#, "outOfRange"),
      (#"{"cmd":"edit","storage":"body","offset":2,"length":0,"text":"x"}"#, "splitsSurrogatePair"),
      (#"{"cmd":"replace","context":"$1","offset":0,"length":1,"text":"x"}"#, "noSession"),
      (#"{"cmd":"undo"}"#, "nothingToUndo"),
      (#"{"cmd":"add","storage":"f","path":"/nonexistent/file.txt"}"#, "io"),
      (#"{"cmd":"add","storage":"f","path":"\#(latin1.path)"}"#, "invalidUTF8"),
      (#"{"cmd":"map","storage":"body","offset":0,"from":5}"#, "staleVersion"),
      (#"{"cmd":"exclude","storage":"body","offset":0,"length":1}"#, "ok"),
      (#"{"cmd":"select","ranges":[{"storage":"body","offset":5,"length":3}]}"#, "ok"),
      (#"{"cmd":"contexts","scope":"fullDocument"}"#, "ok"),
      (#"{"cmd":"replace","context":"$1","offset":0,"length":1,"text":"x"}"#, "excluded"),
      (
        #"{"cmd":"replace","context":"12345678-0000-0000-0000-000000000000","offset":0,"length":1,"text":"x"}"#,
        "unknownContext"
      ),
      (
        #"{"cmd":"replace","context":"not-an-id","offset":0,"length":1,"text":"x"}"#,
        "unknownContext"
      ),
      (#"{"cmd":"replace","context":"$1","offset":5,"length":99,"text":"x"}"#, "outOfRange"),
      (#"{"cmd":"edit","storage":"body","offset":6,"length":1,"text":"E"}"#, "ok"),
      (#"{"cmd":"replace","context":"$1","offset":5,"length":3,"text":"x","basis":0}"#, "conflict"),
      (
        #"{"cmd":"replace","context":"$1","offset":5,"length":3,"text":"x","basis":7}"#,
        "staleVersion"
      ),
      (#"{"cmd":"state","state":"interactiveStreaming"}"#, "invalidState"),
      (#"{"cmd":"end"}"#, "ok"),
      (#"{"cmd":"replace","context":"$1","offset":5,"length":1,"text":"x"}"#, "noSession"),
      (#"{"cmd":"untrack","ids":[1]}"#, "unknownTracked"),
      (
        #"{"cmd":"track","storage":"body","ranges":[{"offset":0,"length":2}]}"#,
        "splitsSurrogatePair"
      ),
    ]
    let responses = try Interactive.run(script.map(\.0))
    for ((request, expected), response) in zip(script, responses) {
      let got = response["ok"] as? Bool == true ? "ok" : code(response) ?? "?"
      #expect(got == expected, "\(request)")
      if got != "ok" {
        let message = (response["error"] as? [String: Any])?["message"] as? String
        #expect(message?.isEmpty == false)
      }
    }
    // A line that is not UTF-8.
    let (lines, status) = try REPL.run(["--json"], input: [0x7B, 0xFF, 0x7D, 0x0A])
    #expect(status == 0)
    #expect(lines.count == 1)
    #expect(lines.first?.contains("\"invalidUTF8\"") == true)
  }

  @Test func garbageNeverStopsItNorChangesTheDocument() throws {
    let seed = TestSettings.seed("ScopeREPL.garbage")
    var random = SeededRandom(seed: seed)
    var input: [UInt8] = Array(
      (#"{"cmd":"add","storage":"body","text":"Hello, wörld 👋\n"}"# + "\n").utf8)
    let lines = [
      "", "   ", "{", "}", "[]", "null", "42", "\"cmd\"", #"{"cmd":}"#, #"{"cmd":"edit""#,
      #"{"cmd":"edit","storage":"body","offset":"1","length":0,"text":"x"}"#,
      #"{"cmd":"edit","storage":"body","offset":1.5,"length":0,"text":"x"}"#,
      #"{"cmd":"edit","storage":"body","offset":99999999999999999999999,"length":0,"text":"x"}"#,
      #"{"cmd":"edit","storage":"body","offset":9223372036854775807,"length":9223372036854775807,"text":"x"}"#,
      #"{"cmd":"edit","storage":"body","offset":-1,"length":0,"text":"x"}"#,
      #"{"cmd":"edit","storage":"body","offset":0,"length":-3,"text":"x"}"#,
      #"{"cmd":"edit","storage":"body","offset":0,"length":0,"text":7}"#,
      #"{"cmd":"edit","storage":"body","offset":true,"length":0,"text":"x"}"#,
      #"{"cmd":"text","storage":"body","range":{"offset":3,"length":1e308}}"#,
      #"{"cmd":"select","ranges":"body"}"#, #"{"cmd":"select","ranges":[1,2]}"#,
      #"{"cmd":"contexts","scope":"everything"}"#,
      #"{"cmd":"map","storage":"body","offset":0,"from":-1}"#,
      #"{"cmd":"text","storage":"body","unit":"bytes"}"#,
      #"{"cmd":"add","storage":"body","text":"again"}"#,
      #"{"cmd":"edit","storage":"body","offset":0,"length":0,"text":"\ud800"}"#,
      String(repeating: "[", count: 10000),
    ]
    var count = lines.count
    for line in lines { input += Array((line + "\n").utf8) }
    for _ in 0..<200 {
      var bytes = (0..<Int.random(in: 1...40, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      bytes.removeAll { $0 == 0x0A }
      input += bytes + [0x0A]
      count += 1
    }
    input += Array((#"{"cmd":"text","storage":"body"}"# + "\n").utf8)
    input += Array((#"{"cmd":"storages"}"# + "\n").utf8)
    let (output, status) = try REPL.run(["--json"], input: input)
    #expect(status == 0, "seed \(seed)")
    #expect(output.count == count + 3, "seed \(seed): one line per input line")
    for (i, line) in output.dropFirst().prefix(count).enumerated() {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["ok"] as? Bool == false, "seed \(seed): input \(i) gave \(line)")
      #expect(object.flatMap(code) != nil)
    }
    let text =
      try JSONSerialization.jsonObject(with: Data(output[count + 1].utf8)) as? [String: Any]
    #expect(text?["text"] as? String == "Hello, wörld 👋\n")
    #expect(text?["version"] as? Int == 0)
  }

  @Test func unitsSessionsMappingAndTheRest() throws {
    let script = [
      #"{"cmd":"add","storage":"a","text":"Title\n"}"#,
      #"{"cmd":"add","storage":"b","text":"héllo wörld\nsecond 👋 line\nthird\n"}"#,
      #"{"cmd":"add","storage":"z","text":"first\n","after":"a"}"#,
      #"{"cmd":"storages"}"#,
      #"{"cmd":"text","storage":"b","range":{"offset":1,"length":4},"unit":"scalar"}"#,
      #"{"cmd":"text","storage":"b","range":{"offset":1,"length":2},"unit":"utf8"}"#,
      #"{"cmd":"locate","offset":8}"#,
      #"{"cmd":"paragraph","storage":"b","offset":14}"#,
      #"{"cmd":"graphemes","storage":"b","range":{"offset":19,"length":4}}"#,
      #"{"cmd":"select","from":{"storage":"a","offset":2},"to":{"storage":"b","offset":3}}"#,
      #"{"cmd":"contexts","scope":"userSelection"}"#,
      #"{"cmd":"visible","ranges":[{"storage":"b","offset":14,"length":2}]}"#,
      #"{"cmd":"contexts","scope":"visibleArea"}"#,
      #"{"cmd":"select","ranges":[{"storage":"b","offset":14,"length":2}]}"#,
      #"{"cmd":"contexts","scope":"userSelection","surroundingParagraphs":1}"#,
      #"{"cmd":"state","state":"interactiveResting"}"#,
      #"{"cmd":"state","state":"interactiveStreaming"}"#,
      #"{"cmd":"replace","context":"$1","offset":12,"length":6,"text":"2nd"}"#,
      #"{"cmd":"replace","context":"$1","offset":0,"length":5,"text":"Hello"}"#,
      #"{"cmd":"state","state":"interactiveResting"}"#,
      #"{"cmd":"toolSelect","context":"$1","ranges":[{"offset":0,"length":5}]}"#,
      #"{"cmd":"undo"}"#,
      #"{"cmd":"text","storage":"b"}"#,
      #"{"cmd":"redo"}"#,
      #"{"cmd":"edit","storage":"b","offset":0,"length":0,"text":">"}"#,
      #"{"cmd":"revert"}"#,
      #"{"cmd":"text","storage":"b"}"#,
      #"{"cmd":"map","storage":"b","offset":13,"from":0}"#,
      #"{"cmd":"map","storage":"b","offset":0,"from":0,"assoc":-1}"#,
      #"{"cmd":"map","storage":"b","offset":28,"from":0}"#,
      #"{"cmd":"edit","storage":"b","offset":1,"length":0,"text":"P","origin":"peer","basis":0}"#,
      #"{"cmd":"remove","storage":"z"}"#,
      #"{"cmd":"storages"}"#,
      #"{"cmd":"quit"}"#,
      #"{"cmd":"storages"}"#,
    ]
    let r = try Interactive.run(script)
    #expect(r.count == script.count - 1, "nothing after quit")
    for (i, response) in r.enumerated() {
      #expect(response["ok"] as? Bool == true, "\(script[i]): \(response)")
    }
    let order = (r[3]["storages"] as? [[String: Any]])?.compactMap { $0["storage"] as? String }
    #expect(order == ["a", "z", "b"])
    #expect(r[4]["text"] as? String == "éllo")
    #expect(r[5]["text"] as? String == "é")
    #expect(r[6]["storage"] as? String == "z")
    #expect(r[6]["offset"] as? Int == 2)
    #expect(range(r[7]["range"]) == 12..<27)
    #expect(r[7]["contentsEnd"] as? Int == 26)
    #expect(r[8]["boundaries"] as? [Int] == [19, 21, 22, 23])
    // Across storages: "a" from offset 2, the middle storage whole, "b" to 3.
    let spanning = try #require(r[10]["contexts"] as? [[String: Any]])
    #expect(spanning.compactMap { $0["storage"] as? String } == ["a", "z", "b"])
    #expect(range(spanning[0]["range"]) == 2..<6)
    #expect(range(spanning[2]["range"]) == 0..<3)
    let visible = try #require((r[12]["contexts"] as? [[String: Any]])?.first)
    #expect(range(visible["storageRange"]) == 12..<27)
    let around = try #require((r[14]["contexts"] as? [[String: Any]])?.first)
    #expect(range(around["storageRange"]) == 0..<33)
    #expect(r[17]["contextVersion"] as? Int == 1)
    #expect(r[20]["selection"] as? [[String: Any]] != nil)
    #expect((r[21]["events"] as? [Any])?.count == 2, "one undo group for the streaming phase")
    #expect(r[22]["text"] as? String == "héllo wörld\nsecond 👋 line\nthird\n")
    #expect(r[25]["reverted"] as? Int == 2)
    #expect(r[26]["text"] as? String == ">héllo wörld\nsecond 👋 line\nthird\n")
    // "e" of "second" went with the replacements; the end of what replaced
    // it, after the ">" typed at the start.
    #expect(r[27]["offset"] as? Int == 19)
    #expect(r[27]["deleted"] as? Bool == true)
    #expect(r[28]["offset"] as? Int == 0)
    #expect(r[29]["offset"] as? Int == 29)
    #expect(r[29]["deleted"] as? Bool == false)
    // The peer typed inside "héllo", which was replaced concurrently: its
    // text goes after the word (an insertion inside a replaced range lands
    // after the replacement's text).
    #expect(range(r[30]["range"]) == 6..<7)
  }

  @Test func aTraceThatDoesNotApplyChangesNothing() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("bad-trace-\(UUID().uuidString).json")
    let json =
      #"{"startContent":"ab","endContent":"abc","txns":[{"time":"t","patches":[[2,0,"c"],[9,0,"x"]]}]}"#
    try Data(json.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let r = try REPL.json([
      #"{"cmd":"replay","path":"\#(file.path)","storage":"t"}"#, #"{"cmd":"storages"}"#,
    ])
    #expect(code(r[0]) == "outOfRange")
    #expect((r[1]["storages"] as? [Any])?.isEmpty == true)
  }

  // With the internal checks compiled in, the REPL checks the whole rope
  // after every edit: the full traces are replayed by the plain build only.
  #if ENGINE_INTERNAL_CHECKS
  static let replayed: [String] = []
  #else
  static let replayed = TestData.traceNames
  #endif

  @Test(arguments: replayed)
  func replayEveryTrace(name: String) throws {
    let r = try REPL.json([
      #"{"cmd":"replay","path":"\#(TestData.trace(name))","storage":"trace"}"#,
      #"{"cmd":"replay","path":"/nonexistent.json.gz","storage":"other"}"#,
    ])
    #expect(r[0]["ok"] as? Bool == true)
    #expect(r[0]["matches"] as? Bool == true)
    #expect((r[0]["edits"] as? Int ?? 0) > 10000)
    #expect(r[0]["seconds"] is Double)
    #expect(code(r[1]) == "io")
  }
}

/// Runs a script in which `$1` stands for the first context id of the
/// latest `contexts` response, feeding it one line at a time.
enum Interactive {
  static func run(_ script: [String]) throws -> [[String: Any]] {
    let (process, stdin, stdout) = try REPL.start(["--json"])
    var reader = stdout.fileHandleForReading
    var pending = Data()
    func readLine() -> String? {
      while true {
        if let newline = pending.firstIndex(of: 0x0A) {
          let line = pending[pending.startIndex..<newline]
          pending = pending[(newline + 1)...]
          return String(decoding: line, as: UTF8.self)
        }
        let chunk = reader.availableData
        if chunk.isEmpty { return nil }
        pending.append(chunk)
      }
    }
    var responses: [[String: Any]] = []
    var contextID = "00000000-0000-0000-0000-000000000000"
    for line in script {
      stdin.fileHandleForWriting.write(
        Data((line.replacingOccurrences(of: "$1", with: contextID) + "\n").utf8))
      guard let answer = readLine() else { break }
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
      if let contexts = object["contexts"] as? [[String: Any]],
        let id = contexts.first?["id"] as? String
      {
        contextID = id
      }
      responses.append(object)
      if line.contains(#""cmd":"quit""#) { break }
    }
    try? stdin.fileHandleForWriting.close()
    reader = stdout.fileHandleForReading
    _ = reader.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return responses
  }
}
