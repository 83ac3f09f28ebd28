import DocumentEngine
import Foundation

/// The REPL's face for people: short commands, readable answers.
public struct HumanMode {
  /// The engine the commands run on.
  public let engine: REPLEngine

  /// Human mode over `engine`.
  public init(engine: REPLEngine) {
    self.engine = engine
  }

  /// One command per line of `help`: usage, what it does, an example.
  static let commands: [(usage: String, summary: String, example: String)] = [
    ("help", "list the commands", "help"),
    ("storages", "list the storages in document order (also: ls)", "storages"),
    ("show NAME [OFFSET LENGTH]", "print a storage's text, or part of it", "show body 0 20"),
    ("add NAME TEXT", "add a storage holding TEXT (\\n, \\t, \\u{…} escapes)", "add note Hi\\n"),
    ("load FILE [NAME]", "add a UTF-8 file as a storage", "load notes.txt"),
    ("remove NAME", "remove a storage", "remove note"),
    (
      "edit NAME OFFSET LENGTH [TEXT]", "replace LENGTH units at OFFSET, as the person",
      "edit body 0 2 Yo"
    ),
    (
      "peer ORIGIN BASIS NAME OFFSET LENGTH [TEXT]",
      "an edit made by a peer on version BASIS", "peer alice 0 body 0 0 Hello "
    ),
    ("select NAME OFFSET LENGTH [, NAME OFFSET LENGTH …]", "set the selection", "select body 45 3"),
    ("select NAME OFFSET to NAME OFFSET", "select across storages", "select title 2 to body 6"),
    ("caret NAME OFFSET", "put the caret somewhere", "caret body 10"),
    ("visible NAME OFFSET LENGTH [, …]", "set the visible ranges", "visible body 70 10"),
    ("exclude NAME OFFSET LENGTH", "exclude a range from Writing Tools", "exclude body 0 4"),
    (
      "contexts [selection|full|visible] [N]",
      "start a session: the contexts of a scope (N more paragraphs around)", "contexts full"
    ),
    (
      "replace CONTEXT OFFSET LENGTH [basis=V] [merge] [TEXT]",
      "the tool replaces part of a context (CONTEXT: its number)", "replace 1 45 3 the"
    ),
    ("toolselect CONTEXT OFFSET LENGTH", "the tool selects part of a context", "toolselect 1 0 5"),
    (
      "state STATE", "inactive, noninteractive, interactiveResting or interactiveStreaming",
      "state interactiveResting"
    ),
    ("undo / redo", "undo or redo the session's last group of replacements", "undo"),
    ("revert", "put back the text of every intact replacement of the session", "revert"),
    ("end", "end the session", "end"),
    ("map NAME OFFSET FROM [-1|1]", "where OFFSET of version FROM is now", "map body 5 0"),
    ("locate OFFSET", "which storage a document offset falls in", "locate 30"),
    ("paragraph NAME OFFSET", "the paragraph holding an offset", "paragraph body 70"),
    ("graphemes NAME [OFFSET LENGTH]", "grapheme cluster boundaries", "graphemes body 180 20"),
    ("replay FILE [NAME]", "replay an editing trace (.json or .json.gz)", "replay trace.json.gz"),
    ("json REQUEST", "send one protocol request as JSON", "json {\"cmd\":\"storages\"}"),
    ("quit", "leave (also: exit, or end of input)", "quit"),
  ]

  static var help: String {
    var lines = ["Commands (offsets and lengths count UTF-16 units):"]
    for command in commands {
      lines.append("  \(command.usage)")
      lines.append("      \(command.summary); e.g. \(command.example)")
    }
    return lines.joined(separator: "\n")
  }

  /// Unescapes `\n`, `\r`, `\t`, `\\` and `\u{HEX}` in a typed text.
  static func unescape(_ text: String) -> String {
    var out = ""
    var scalars = Array(text.unicodeScalars)[...]
    while let c = scalars.popFirst() {
      guard c == "\\", let next = scalars.first else {
        out.unicodeScalars.append(c)
        continue
      }
      scalars.removeFirst()
      switch next {
      case "n": out += "\n"
      case "r": out += "\r"
      case "t": out += "\t"
      case "\\": out += "\\"
      case "u":
        if scalars.first == "{", let close = scalars.firstIndex(of: "}") {
          let hex = String(
            String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close]))
          if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
            out.unicodeScalars.append(scalar)
            scalars = scalars[scalars.index(after: close)...]
            continue
          }
        }
        out += "\\u"
      default:
        out += "\\"
        out.unicodeScalars.append(next)
      }
    }
    return out
  }

  /// Splits off `count` words; the rest of the line (after one space) is
  /// the text.
  static func words(_ line: Substring, _ count: Int) -> (words: [String], rest: String) {
    var words: [String] = []
    var rest = line[...]
    for _ in 0..<count {
      rest = rest.drop { $0 == " " }
      guard !rest.isEmpty else { break }
      let word = rest.prefix { $0 != " " }
      words.append(String(word))
      rest = rest.dropFirst(word.count)
    }
    if rest.first == " " { rest = rest.dropFirst() }
    return (words, String(rest))
  }

  func contextID(_ word: String) throws(REPLError) -> String {
    if let n = Int(word) {
      guard n >= 1 && n <= engine.contexts.count else {
        throw REPLError(
          "unknownContext", "no context \(n); 'contexts' lists them (\(engine.contexts.count) now)")
      }
      return engine.contexts[n - 1].id.uuidString
    }
    let matches = engine.contexts.filter { $0.id.uuidString.hasPrefix(word.uppercased()) }
    guard matches.count == 1 else { throw REPLError("unknownContext", "no context '\(word)'") }
    return matches[0].id.uuidString
  }

  func number(_ word: String, _ name: String) throws(REPLError) -> JSON {
    guard let n = Int(word) else { throw .badRequest("\(name) must be a number, not '\(word)'") }
    return .int(n)
  }

  func ranges(_ text: String) throws(REPLError) -> JSON {
    var items: [JSON] = []
    for part in text.split(separator: ",") {
      let w = part.split(separator: " ").map(String.init)
      guard w.count == 3 else { throw .badRequest("a range is NAME OFFSET LENGTH") }
      items.append(
        .object([
          ("storage", .string(w[0])), ("offset", try number(w[1], "OFFSET")),
          ("length", try number(w[2], "LENGTH")),
        ]))
    }
    return .array(items)
  }

  /// `NAME [OFFSET LENGTH]` as a storage field and an optional range.
  func storageAndRange(_ body: String, usage: String) throws(REPLError) -> [(String, JSON)] {
    let w = body.split(separator: " ").map(String.init)
    guard w.count == 1 || w.count == 3 else { throw .badRequest("usage: \(usage)") }
    var fields: [(String, JSON)] = [("storage", .string(w[0]))]
    if w.count == 3 {
      fields.append(
        (
          "range",
          .object([("offset", try number(w[1], "OFFSET")), ("length", try number(w[2], "LENGTH"))])
        ))
    }
    return fields
  }

  /// The protocol request for a command line, or nil for an empty line.
  func request(_ line: String) throws(REPLError) -> JSON? {
    let trimmed = line.drop { $0 == " " }
    let (head, _) = Self.words(trimmed, 1)
    guard let command = head.first else { return nil }
    let body = Self.words(trimmed, 1).rest
    func args(_ n: Int, _ usage: String) throws(REPLError) -> (words: [String], rest: String) {
      let split = Self.words(Substring(body), n)
      guard split.words.count == n else { throw .badRequest("usage: \(usage)") }
      return split
    }
    func cmd(_ name: String, _ fields: [(String, JSON)] = []) -> JSON {
      .object([("cmd", .string(name))] + fields)
    }
    switch command {
    case "help", "?": return cmd("help")
    case "storages", "ls": return cmd("storages")
    case "show":
      return cmd("text", try storageAndRange(body, usage: "show NAME [OFFSET LENGTH]"))
    case "add":
      let (w, rest) = try args(1, "add NAME TEXT")
      return cmd("add", [("storage", .string(w[0])), ("text", .string(Self.unescape(rest)))])
    case "load":
      let w = body.split(separator: " ").map(String.init)
      guard w.count == 1 || w.count == 2 else { throw .badRequest("usage: load FILE [NAME]") }
      let name = w.count == 2 ? w[1] : URL(fileURLWithPath: w[0]).lastPathComponent
      return cmd("add", [("storage", .string(name)), ("path", .string(w[0]))])
    case "remove":
      let (w, _) = try args(1, "remove NAME")
      return cmd("remove", [("storage", .string(w[0]))])
    case "edit":
      let (w, rest) = try args(3, "edit NAME OFFSET LENGTH [TEXT]")
      return cmd(
        "edit",
        [
          ("storage", .string(w[0])), ("offset", try number(w[1], "OFFSET")),
          ("length", try number(w[2], "LENGTH")), ("text", .string(Self.unescape(rest))),
        ])
    case "peer":
      let (w, rest) = try args(5, "peer ORIGIN BASIS NAME OFFSET LENGTH [TEXT]")
      return cmd(
        "edit",
        [
          ("origin", .string(w[0])), ("basis", try number(w[1], "BASIS")),
          ("storage", .string(w[2])),
          ("offset", try number(w[3], "OFFSET")), ("length", try number(w[4], "LENGTH")),
          ("text", .string(Self.unescape(rest))),
        ])
    case "select":
      let w = body.split(separator: " ").map(String.init)
      if w.count == 5 && w[2] == "to" {
        return cmd(
          "select",
          [
            (
              "from", .object([("storage", .string(w[0])), ("offset", try number(w[1], "OFFSET"))])
            ),
            ("to", .object([("storage", .string(w[3])), ("offset", try number(w[4], "OFFSET"))])),
          ])
      }
      return cmd("select", [("ranges", try ranges(body))])
    case "caret":
      let (w, _) = try args(2, "caret NAME OFFSET")
      return cmd("select", [("ranges", try ranges("\(w[0]) \(w[1]) 0"))])
    case "visible": return cmd("visible", [("ranges", try ranges(body))])
    case "exclude":
      let (w, _) = try args(3, "exclude NAME OFFSET LENGTH")
      return cmd(
        "exclude",
        [
          ("storage", .string(w[0])), ("offset", try number(w[1], "OFFSET")),
          ("length", try number(w[2], "LENGTH")),
        ])
    case "contexts":
      let w = body.split(separator: " ").map(String.init)
      let scopes = [
        "selection": "userSelection", "sel": "userSelection", "userSelection": "userSelection",
        "full": "fullDocument", "fullDocument": "fullDocument", "visible": "visibleArea",
        "visibleArea": "visibleArea",
      ]
      let scope = w.first.map { scopes[$0] ?? $0 } ?? "userSelection"
      var fields: [(String, JSON)] = [("scope", .string(scope))]
      if w.count > 1 { fields.append(("surroundingParagraphs", try number(w[1], "N"))) }
      return cmd("contexts", fields)
    case "replace":
      let (w, afterRange) = try args(3, "replace CONTEXT OFFSET LENGTH [basis=V] [merge] [TEXT]")
      var fields: [(String, JSON)] = [
        ("context", .string(try contextID(w[0]))), ("offset", try number(w[1], "OFFSET")),
        ("length", try number(w[2], "LENGTH")),
      ]
      var rest = Substring(afterRange)
      while true {
        let (option, after) = Self.words(rest, 1)
        guard let word = option.first else { break }
        if word.hasPrefix("basis=") {
          fields.append(("basis", try number(String(word.dropFirst(6)), "V")))
        } else if word == "merge" {
          fields.append(("policy", .string("merge")))
        } else {
          break
        }
        rest = Substring(after)
      }
      fields.append(("text", .string(Self.unescape(String(rest)))))
      return cmd("replace", fields)
    case "toolselect", "toolSelect":
      let (w, _) = try args(3, "toolselect CONTEXT OFFSET LENGTH")
      return cmd(
        "toolSelect",
        [
          ("context", .string(try contextID(w[0]))),
          (
            "ranges",
            .array([
              .object([
                ("offset", try number(w[1], "OFFSET")), ("length", try number(w[2], "LENGTH")),
              ])
            ])
          ),
        ])
    case "state":
      let (w, _) = try args(1, "state STATE")
      return cmd("state", [("state", .string(w[0]))])
    case "undo", "redo", "revert", "end", "quit": return cmd(command)
    case "exit": return cmd("quit")
    case "map":
      let w = body.split(separator: " ").map(String.init)
      guard w.count == 3 || w.count == 4 else {
        throw .badRequest("usage: map NAME OFFSET FROM [-1|1]")
      }
      var fields: [(String, JSON)] = [
        ("storage", .string(w[0])), ("offset", try number(w[1], "OFFSET")),
        ("from", try number(w[2], "FROM")),
      ]
      if w.count == 4 { fields.append(("assoc", try number(w[3], "assoc"))) }
      return cmd("map", fields)
    case "locate":
      let (w, _) = try args(1, "locate OFFSET")
      return cmd("locate", [("offset", try number(w[0], "OFFSET"))])
    case "paragraph":
      let (w, _) = try args(2, "paragraph NAME OFFSET")
      return cmd("paragraph", [("storage", .string(w[0])), ("offset", try number(w[1], "OFFSET"))])
    case "graphemes":
      return cmd("graphemes", try storageAndRange(body, usage: "graphemes NAME [OFFSET LENGTH]"))
    case "replay":
      let w = body.split(separator: " ").map(String.init)
      guard w.count == 1 || w.count == 2 else { throw .badRequest("usage: replay FILE [NAME]") }
      return cmd(
        "replay", [("path", .string(w[0])), ("storage", .string(w.count == 2 ? w[1] : "replay"))])
    case "json":
      do {
        return try JSONReader.parse(Array(body.utf8))
      } catch {
        throw .badRequest("\(error)")
      }
    default:
      throw .badRequest("unknown command '\(command)'; 'help' lists the commands")
    }
  }

  /// Runs one line; returns what to print, and whether to quit.
  public func run(_ line: String) -> (output: String, quit: Bool) {
    let request: JSON
    do throws(REPLError) {
      guard let made = try self.request(line) else { return ("", false) }
      request = made
    } catch {
      return ("error (\(error.code)): \(error.message)", false)
    }
    if request["cmd"] == .string("help") { return (Self.help, false) }
    let response = engine.handle(request)
    if response["ok"] != .bool(true) {
      let code =
        response["error"]?["code"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "?"
      let message =
        response["error"]?["message"].flatMap { if case .string(let s) = $0 { s } else { nil } }
        ?? ""
      return ("error (\(code)): \(message)", false)
    }
    let quit = request["cmd"] == .string("quit")
    return (format(request, response), quit)
  }

  // MARK: Formatting

  static func int(_ value: JSON?) -> Int {
    if case .int(let n)? = value { return n }
    return 0
  }

  static func string(_ value: JSON?) -> String {
    if case .string(let s)? = value { return s }
    return ""
  }

  static func range(_ value: JSON?) -> Range<Int> {
    let a = int(value?["offset"])
    return a..<(a + max(0, int(value?["length"])))
  }

  /// Text made visible: separators and controls as symbols.
  static func visible(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out += "⏎"
      case "\r": out += "␍"
      case "\t": out += "⇥"
      case "\u{2029}": out += "¶"
      case "\u{2028}": out += "↵"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A context's text with the selected part in ⟦ ⟧ (a caret as ‸) and
  /// excluded parts in ⟪ ⟫, broken into lines after each separator.
  static func marked(_ text: String, selected: Range<Int>, excluded: [Range<Int>]) -> String {
    var marks: [Int: String] = [:]
    func add(_ at: Int, _ mark: String) { marks[at, default: ""] += mark }
    for range in excluded {
      add(range.lowerBound, "⟪")
      add(range.upperBound, "⟫")
    }
    if selected.isEmpty {
      add(selected.lowerBound, "‸")
    } else {
      add(selected.lowerBound, "⟦")
      add(selected.upperBound, "⟧")
    }
    var out = ""
    var offset = 0
    for scalar in text.unicodeScalars {
      if let mark = marks[offset] { out += mark }
      out += visible(String(scalar))
      if scalar == "\n" || scalar == "\u{2029}" || (scalar == "\r") { out += "\n" }
      offset += scalar.utf16.count
    }
    if out.hasSuffix("\n") { out.removeLast() }
    if let mark = marks[offset] { out += mark }
    // A CR LF: one line break, after the LF.
    out = out.replacingOccurrences(of: "␍\n⏎", with: "␍⏎")
    return out
  }

  func contextNumber(_ id: String) -> String {
    if let i = engine.contexts.firstIndex(where: { $0.id.uuidString == id }) { return "[\(i + 1)]" }
    return "[\(id.prefix(8))]"
  }

  func events(_ value: JSON?) -> [String] {
    guard case .array(let items)? = value else { return [] }
    return items.map { event in
      let context = contextNumber(Self.string(event["context"]))
      if Self.string(event["kind"]) == "reflowed" { return "  event: context \(context) moved" }
      let r = Self.range(event["range"])
      return
        "  event: context \(context) text \(r.lowerBound)..<\(r.upperBound) is now "
        + "\"\(Self.visible(Self.string(event["text"])))\" (context version \(Self.int(event["contextVersion"])))"
    }
  }

  func format(_ request: JSON, _ response: JSON) -> String {
    let command = Self.string(request["cmd"])
    switch command {
    case "add":
      return
        "added \(Self.string(response["storage"])): \(Self.int(response["length"])) units, version 0"
    case "storages": return storages(response)
    case "text":
      return "\(Self.string(response["text"]))\n(version \(Self.int(response["version"])))"
    case "edit":
      let r = Self.range(response["range"])
      return
        ([
          "\(Self.string(request["storage"])) is now at version \(Self.int(response["version"])); "
            + "the new text is at \(r.lowerBound)..<\(r.upperBound)"
        ] + events(response["events"])).joined(separator: "\n")
    case "contexts": return contexts(response)
    case "replace":
      let r = Self.range(response["storageRange"])
      return
        ([
          "replaced: \(Self.string(response["storage"])) \(r.lowerBound)..<\(r.upperBound), "
            + "context version \(Self.int(response["contextVersion"]))"
        ] + events(response["events"])).joined(separator: "\n")
    case "toolSelect":
      guard case .array(let items)? = response["selection"] else { return "ok" }
      return "selected "
        + items.map {
          let r = Self.range($0)
          return "\(Self.string($0["storage"])) \(r.lowerBound)..<\(r.upperBound)"
        }.joined(separator: ", ")
    case "state": return "state: \(Self.string(response["state"]))"
    case "undo", "redo":
      let lines = events(response["events"])
      return lines.isEmpty
        ? "nothing to \(command)" : (["\(command) done"] + lines).joined(separator: "\n")
    case "revert":
      return
        (["reverted \(Self.int(response["reverted"])) replacement(s)"] + events(response["events"]))
        .joined(separator: "\n")
    case "end": return "session ended"
    case "map":
      let deleted = response["deleted"] == .bool(true) ? "yes" : "no"
      return
        "offset \(Self.int(request["offset"])) of version \(Self.int(request["from"])) is now "
        + "\(Self.int(response["offset"])) (the character on its side deleted: \(deleted))"
    case "locate":
      return
        "document offset \(Self.int(request["offset"])) is \(Self.string(response["storage"])) "
        + "offset \(Self.int(response["offset"]))"
    case "paragraph":
      let r = Self.range(response["range"])
      return
        "paragraph \(r.lowerBound)..<\(r.upperBound), contents end at \(Self.int(response["contentsEnd"]))"
    case "graphemes":
      guard case .array(let items)? = response["boundaries"] else { return "" }
      return "boundaries: " + items.map { String(Self.int($0)) }.joined(separator: " ")
    case "replay":
      let seconds: Double
      if case .double(let d)? = response["seconds"] { seconds = d } else { seconds = 0 }
      let matches = response["matches"] == .bool(true) ? "yes" : "NO"
      return
        "replayed \(Self.int(response["edits"])) edits into \(Self.string(response["storage"])) "
        + "in \(String(format: "%.3f", seconds)) s; the final text matches: \(matches)"
    case "quit": return "bye"
    default: return "ok"
    }
  }

  func storages(_ response: JSON) -> String {
    guard case .array(let items)? = response["storages"], !items.isEmpty else {
      return "no storages"
    }
    let content = engine.document.content
    return items.map { item in
      let name = Self.string(item["storage"])
      var preview = ""
      if let storage = try? content.storage(StorageID(name)) {
        let text = String((try? storage.text.slice(0..<min(storage.length, 40))) ?? .init())
        preview = Self.visible(text) + (storage.length > 40 ? "…" : "")
        if !storage.excludedRanges.isEmpty {
          preview +=
            "  (excluded: \(storage.excludedRanges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ")))"
        }
      }
      return
        "  \(name): \(Self.int(item["length"])) units, version \(Self.int(item["version"]))  \(preview)"
    }.joined(separator: "\n")
  }

  func contexts(_ response: JSON) -> String {
    guard case .array(let items)? = response["contexts"], !items.isEmpty else {
      return "no contexts (nothing selected, visible or non-empty for that scope)"
    }
    var lines: [String] = []
    for (i, item) in items.enumerated() {
      let r = Self.range(item["storageRange"])
      lines.append(
        "[\(i + 1)] \(Self.string(item["storage"])) \(r.lowerBound)..<\(r.upperBound), "
          + "version \(Self.int(item["version"]))")
      var excluded: [Range<Int>] = []
      if case .array(let e)? = item["excluded"] { excluded = e.map { Self.range($0) } }
      let text = Self.marked(
        Self.string(item["text"]), selected: Self.range(item["range"]), excluded: excluded)
      lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
    }
    lines.append("(⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)")
    return lines.joined(separator: "\n")
  }
}
