import DocumentEngine
import Foundation
import TextRope

extension Command {
  /// Human mode's commands, for `help` and for usage errors: the words, what
  /// they do, an example.
  static let humanForms: [(usage: String, summary: String, example: String)] = [
    ("help", "list the commands", "help"),
    ("storages", "list the storages in document order (also: ls)", "storages"),
    ("show NAME [OFFSET LENGTH]", "print a storage's text, or part of it", "show body 0 20"),
    ("add NAME TEXT", "add a storage holding TEXT (\\n, \\t, \\u{…} escapes)", "add note Hi\\n"),
    (
      "add-md NAME MARKDOWN", "add a storage read from Markdown, its source kept",
      "add-md note # Hi\\n\\n* one\\n"
    ),
    (
      "markdown NAME", "print a storage as Markdown (the source of unchanged blocks kept)",
      "markdown note"
    ),
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
    ("bold NAME OFFSET LENGTH", "make a range strong (its only inline intent)", "bold body 3 4"),
    (
      "italic NAME OFFSET LENGTH", "make a range emphasized (its only inline intent)",
      "italic body 8 6"
    ),
    (
      "link NAME OFFSET LENGTH URL", "make a range a link",
      "link body 8 6 https://www.visitlisboa.com"
    ),
    (
      "header NAME OFFSET LENGTH LEVEL", "make a range a header block of level 1 to 6",
      "header title 0 17 1"
    ),
    (
      "plain NAME OFFSET LENGTH", "remove the inline intents, link and block of a range",
      "plain body 0 64"
    ),
    (
      "attr NAME OFFSET LENGTH KEY=VALUE …",
      "set attributes: a VALUE as the protocol writes it (JSON, no spaces) or a bare word; "
        + "intent names with commas; KEY= removes the key",
      "attr body 0 7 inlinePresentationIntent=code,strikethrough font=Menlo size=12"
    ),
    (
      "track NAME OFFSET LENGTH [OFFSET LENGTH …] [kind=KIND] [expand=E] [bias=B] [onTouch=R]",
      "track ranges of a storage for the host: they follow every edit (E: none, before, after or "
        + "both; B, for an empty range: left or right; R, when an edit touches its text: keep or "
        + "remove); show marks them",
      "track body 45 3 kind=spelling onTouch=remove"
    ),
    (
      "tracked NAME [OFFSET LENGTH] [kind=KIND]",
      "list the tracked ranges of a storage, or those overlapping a range (an empty one: "
        + "touching the point)",
      "tracked body"
    ),
    (
      "untrack ID [ID …]", "stop tracking ranges (IDs as track and tracked give them)",
      "untrack 8589934593"
    ),
    (
      "suggest NAME|@CONTEXT OFFSET LENGTH KIND [CANDIDATE | CANDIDATE …] [# EXPLANATION]",
      "a checker's suggestion over a range of a storage, or of a context's text (@1: context 1), "
        + "of KIND (spelling, grammar, style or any word), with the candidates it proposes "
        + "(\\| is a bar in one); show marks it",
      "suggest body 45 3 spelling the | tea # Possible spelling mistake"
    ),
    (
      "suggest-md NAME|@CONTEXT OFFSET LENGTH KIND [MARKDOWN | MARKDOWN …] [# EXPLANATION]",
      "the same, each candidate in Markdown (a text and its attributes)",
      "suggest-md body 3 4 style **left** | _left_"
    ),
    (
      "suggestions NAME [OFFSET LENGTH]",
      "list the suggestions of a storage, or those overlapping a range, with their candidates "
        + "by index",
      "suggestions body"
    ),
    (
      "suggestions @CONTEXT", "list the suggestions inside a context (offsets in its text)",
      "suggestions @1"
    ),
    (
      "preview ID N", "put candidate N of a suggestion into the text for the person to see",
      "preview 8589934593 0"
    ),
    (
      "accept ID [N]", "accept candidate N of a suggestion (else the previewed one, else 0)",
      "accept 8589934593"
    ),
    (
      "reject ID",
      "reject a suggestion (its preview taken back): the same kind over the same text is "
        + "ignored from then on",
      "reject 8589934593"
    ),
    (
      "contexts [selection|full|visible] [N] [OPTION …]",
      "start a session: the contexts of a scope (N more paragraphs around); OPTIONs say what the "
        + "tool may give back (plainText, richText, list, table, presentationIntent), and "
        + "markdown shows each context as Markdown too",
      "contexts full richText markdown"
    ),
    (
      "replace CONTEXT OFFSET LENGTH [basis=V] [merge] [TEXT]",
      "the tool replaces part of a context (CONTEXT: its number)", "replace 1 45 3 the"
    ),
    (
      "replace-md CONTEXT OFFSET LENGTH [basis=V] [merge] [MARKDOWN]",
      "the tool replaces part of a context with Markdown (\\n escapes for its line breaks); "
        + "the session's OPTIONs say which of its attributes land",
      "replace-md 1 45 3 **the**"
    ),
    ("toolselect CONTEXT OFFSET LENGTH", "the tool selects part of a context", "toolselect 1 0 5"),
    (
      "state STATE", "inactive, noninteractive, interactiveResting or interactiveStreaming",
      "state interactiveResting"
    ),
    (
      "undo [ORIGIN]",
      "undo the last group: the person's typing, a session's replacements or an accepted "
        + "suggestion, with or without a session; with ORIGIN, that peer's last group of edits",
      "undo"
    ),
    (
      "redo [ORIGIN]", "redo the last undone group (of ORIGIN's edits with ORIGIN)",
      "redo alice"
    ),
    (
      "closeGroup [ORIGIN]",
      "end the person's (or ORIGIN's) undo group here: the next edit starts a new one",
      "closeGroup"
    ),
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

  /// The command a line of human mode asks for. Offsets and lengths count
  /// UTF-16 units; a text runs from one space after the last number to the
  /// end of the line, with `\n`, `\r`, `\t`, `\\` and `\u{…}` escapes.
  ///
  /// - Parameter contexts: the current session's contexts in order, which
  ///   a command names by number from 1 or by the start of their id.
  /// - Throws: `badRequest` for an unknown command or words that do not fit
  ///   its usage, `unknownContext` for a context number or id that names
  ///   none, as ``init(jsonLine:)`` for `json REQUEST`.
  public init(words line: String, contexts: [UUID]) throws(REPLError) {
    var words = _Words(rest: line[...])
    guard let name = words.next() else { throw .badRequest("no command; 'help' lists them") }
    let usage = REPLError.badRequest(
      "usage: "
        + Self.humanForms.map(\.usage).filter {
          // `closegroup` and `toolselect` are also spelt with a capital.
          $0.lowercased().hasPrefix(name.lowercased() + " ") || $0.lowercased() == name.lowercased()
        }
        .joined(separator: " or "))
    switch name {
    case "storages", "ls": self = .storages(unit: .utf16)
    case "show":
      let id = try words.storage(usage)
      self = .text(id, range: try words.optionalRange(usage), unit: .utf16)
    case "add":
      self = .add(try words.storage(usage), .text(words.text()), after: nil, unit: .utf16)
    case "add-md":
      self = .add(try words.storage(usage), .markdown(words.text()), after: nil, unit: .utf16)
    case "markdown":
      self = .text(try words.storage(usage), range: nil, unit: .utf16, format: .markdown)
    case "load":
      let path = try words.word(usage)
      let id = words.next() ?? URL(fileURLWithPath: path).lastPathComponent
      self = .add(StorageID(id), .file(path: path), after: nil, unit: .utf16)
    case "remove": self = .remove(try words.storage(usage))
    case "edit":
      let span = try words.span(usage)
      self = .edit(DocumentEdit(span.storage, range: span.range, in: .utf16, with: words.text()))
    case "peer":
      let origin = try words.word(usage)
      let basis = StorageVersion(try words.number("BASIS", usage))
      let span = try words.span(usage)
      self = .edit(
        DocumentEdit(
          span.storage, range: span.range, with: words.text(), origin: origin, basis: basis))
    case "select":
      var across = words
      if let from = try? across.place(usage), across.next() == "to",
        let to = try? across.place(usage), across.next() == nil
      {
        words = across
        self = .select(.span(from: from, to: to), unit: .utf16)
      } else {
        self = .select(.ranges(try words.spans()), unit: .utf16)
      }
    case "caret":
      let place = try words.place(usage)
      let caret = StorageSpan(place.storage, place.offset..<place.offset)
      self = .select(.ranges([caret]), unit: .utf16)
    case "visible": self = .visible(try words.spans(), unit: .utf16)
    case "exclude": self = .exclude(try words.span(usage), unit: .utf16)
    case "track":
      let id = try words.storage(usage)
      var ranges: [Range<Int>] = []
      var kind = "host"
      var rules = TrackingRules()
      while let word = words.next() {
        guard let equals = word.firstIndex(of: "=") else {
          let offset = try _Words.number(word, "OFFSET")
          ranges.append(
            try Command.range(offset: offset, length: try words.number("LENGTH", usage)))
          continue
        }
        let value = String(word[word.index(after: equals)...])
        switch word[..<equals] {
        case "kind": kind = value
        case "expand": rules.expand = try Self.named(value, "expand")
        case "bias": rules.bias = try Self.bias(named: value)
        case "onTouch", "ontouch": rules.onTouch = try Self.named(value, "onTouch")
        default: throw .badRequest("unknown option '\(word)' (kind=, expand=, bias=, onTouch=)")
        }
      }
      guard !ranges.isEmpty else { throw usage }
      self = .track(id, ranges: ranges, unit: .utf16, kind: kind, rules: rules)
    case "tracked":
      let id = try words.storage(usage)
      var range: Range<Int>? = nil
      var kind: String? = nil
      if let word = words.next() {
        if word.hasPrefix("kind=") {
          kind = String(word.dropFirst(5))
        } else {
          let offset = try _Words.number(word, "OFFSET")
          range = try Command.range(offset: offset, length: try words.number("LENGTH", usage))
          if let word = words.next() {
            guard word.hasPrefix("kind=") else { throw usage }
            kind = String(word.dropFirst(5))
          }
        }
      }
      self = .tracked(id, range: range, unit: .utf16, kind: kind)
    case "untrack":
      var ids: [TrackedRangeID] = []
      while let word = words.next() {
        ids.append(TrackedRangeID(rawValue: try _Words.number(word, "ID")))
      }
      guard !ids.isEmpty else { throw usage }
      self = .untrack(ids)
    case "suggest", "suggest-md":
      let target = try Self.reviewTarget(try words.word(usage), in: contexts)
      let range = try words.range(usage)
      let kind = SuggestionKind(rawValue: try words.word(usage))
      let (texts, explanation) = _Words.candidates(words.text(escaped: false))
      self = .suggest(
        target, range: range, kind: kind, explanation: explanation,
        candidates: texts.map { name == "suggest" ? .text($0) : .markdown($0) })
    case "suggestions":
      let target = try Self.reviewTarget(try words.word(usage), in: contexts)
      let range = try words.optionalRange(usage)
      if case .context = target, range != nil { throw usage }
      self = .suggestions(target, range: range)
    case "preview":
      let id = SuggestionID(rawValue: try words.number("ID", usage))
      self = .preview(id, candidate: try words.number("N", usage))
    case "accept":
      let id = SuggestionID(rawValue: try words.number("ID", usage))
      let candidate = try words.next().map { (n) throws(REPLError) in try _Words.number(n, "N") }
      self = .accept(id, candidate: candidate)
    case "reject": self = .reject(SuggestionID(rawValue: try words.number("ID", usage)))
    case "bold", "italic":
      let intent: InlinePresentationIntent = name == "bold" ? .stronglyEmphasized : .emphasized
      self = .setAttributes(
        try words.span(usage), [.inlinePresentationIntent: .inlinePresentationIntent(intent)],
        unit: .utf16)
    case "link":
      let span = try words.span(usage)
      self = .setAttributes(span, [.link: .link(try words.word(usage))], unit: .utf16)
    case "header":
      let span = try words.span(usage)
      let level = try words.number("LEVEL", usage)
      // The block's identity is where it starts: two headers set apart
      // are two blocks.
      let header = PresentationIntent.Component(
        .header(level: level), identity: span.range.lowerBound)
      self = .setAttributes(
        span, [.presentationIntent: .presentationIntent(PresentationIntent([header]))],
        unit: .utf16)
    case "plain":
      self = .setAttributes(
        try words.span(usage),
        [.inlinePresentationIntent: .none, .link: .none, .presentationIntent: .none], unit: .utf16)
    case "attr":
      let span = try words.span(usage)
      var changes: [AttributeKey: AttributeValue?] = [:]
      while let word = words.next() {
        let (key, value) = try Self.attribute(word)
        changes[key] = value
      }
      guard !changes.isEmpty else { throw usage }
      self = .setAttributes(span, changes, unit: .utf16)
    case "contexts":
      let scopes = [
        "selection": "userSelection", "sel": "userSelection", "full": "fullDocument",
        "visible": "visibleArea",
      ]
      func isOption(_ word: String) -> Bool {
        ResultOptions(name: word) != nil || ContextFormat(rawValue: word) != nil
      }
      // SCOPE and N may be left out before the options.
      var word = words.next()
      var scope = "userSelection"
      if let given = word, !isOption(given) {
        scope = scopes[given] ?? given
        word = words.next()
      }
      let known =
        "a result option (\(ResultOptions.named.map(\.name).joined(separator: ", "))) or a "
        + "format (\(ContextFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
      var extra = 0
      if let given = word, !isOption(given) {
        guard let n = Int(given) else {
          throw .badRequest("'\(given)' is neither a number (N) nor an option: \(known)")
        }
        extra = n
        word = words.next()
      }
      var options: ResultOptions? = nil
      var format: ContextFormat? = nil
      while let given = word {
        if let option = ResultOptions(name: given) {
          options = (options ?? []).union(option)
        } else if let written = ContextFormat(rawValue: given) {
          format = written
        } else {
          throw .badRequest("unknown option '\(given)': \(known)")
        }
        word = words.next()
      }
      self = .contexts(
        try Self.named(scope, "scope"), surroundingParagraphs: extra,
        resultOptions: options ?? .plainText, format: format)
    case "replace", "replace-md":
      let context = try Self.context(try words.word(usage), in: contexts)
      let range = try words.range(usage)
      var basis: ContextVersion? = nil
      var policy = ReplacementPolicy.refuse
      while true {
        var option = words
        guard let word = option.next() else { break }
        if word.hasPrefix("basis=") {
          basis = ContextVersion(try _Words.number(String(word.dropFirst(6)), "V"))
        } else if word == "merge" {
          policy = .merge
        } else {
          break
        }
        words = option
      }
      let text = words.text()
      self = .replace(
        context: context, range: range,
        with: name == "replace" ? .text(text) : .markdown(text), basis: basis, policy: policy)
    case "toolselect", "toolSelect":
      let context = try Self.context(try words.word(usage), in: contexts)
      self = .toolSelect(context: context, ranges: [try words.range(usage)])
    case "state": self = .state(try Self.named(try words.word(usage), "state"))
    case "undo": self = .undo(origin: words.next())
    case "redo": self = .redo(origin: words.next())
    case "closeGroup", "closegroup": self = .closeGroup(origin: words.next())
    case "revert": self = .revert
    case "end": self = .end
    case "quit", "exit": self = .quit
    case "map":
      let place = try words.place(usage)
      let from = StorageVersion(try words.number("FROM", usage))
      let assoc = try words.next().map { (n) throws(REPLError) in try _Words.number(n, "assoc") }
      self = .map(
        place.storage, offset: place.offset, from: from, bias: try Self.bias(assoc: assoc))
    case "locate": self = .locate(offset: try words.number("OFFSET", usage))
    case "paragraph":
      let place = try words.place(usage)
      self = .paragraph(place.storage, offset: place.offset, unit: .utf16)
    case "graphemes":
      let id = try words.storage(usage)
      self = .graphemes(id, range: try words.optionalRange(usage), unit: .utf16)
    case "replay":
      let path = try words.word(usage)
      let id = words.next() ?? "replay"
      self = .replay(path: path, storage: StorageID(id))
    case "json": self = try Command(jsonLine: Array(words.text(escaped: false).utf8))
    default: throw .badRequest("unknown command '\(name)'; 'help' lists the commands")
    }
    // Every word is used.
    try words.end(usage)
  }

  /// The attribute that `KEY=VALUE` sets, or removes (`nil`) when VALUE is
  /// empty or `null`: VALUE is read as JSON when it is JSON, else taken as
  /// a string; an inline presentation intent may also be names separated
  /// by commas.
  ///
  /// - Throws: `badRequest` for a word without `=` or a value its key does
  ///   not take.
  static func attribute(_ word: String) throws(REPLError) -> (AttributeKey, AttributeValue?) {
    guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
      throw .badRequest("an attribute is KEY=VALUE, not '\(word)'")
    }
    let key = AttributeKey(rawValue: String(word[..<equals]))
    let text = String(word[word.index(after: equals)...])
    var value = (try? JSONReader.parse(Array(text.utf8))) ?? .string(text)
    if text.isEmpty || value == .null { return (key, nil) }
    if key == .inlinePresentationIntent, case .string(let names) = value {
      value = .array(names.split(separator: ",").map { .string(String($0)) })
    }
    return (key, try AttributesJSON.value(value, for: key, at: key.rawValue))
  }

  /// What a review command's first word names: a context as `@N` (its
  /// number) or `@ID` (the start of its id), else a storage.
  static func reviewTarget(
    _ word: String, in contexts: [UUID]
  ) throws(REPLError) -> ReviewTarget {
    guard word.hasPrefix("@") else { return .storage(StorageID(word)) }
    return .context(try context(String(word.dropFirst()), in: contexts))
  }

  /// The context that `word` names: its number in `contexts` (from 1), or
  /// the start of its id.
  static func context(_ word: String, in contexts: [UUID]) throws(REPLError) -> UUID {
    if let n = Int(word) {
      guard n >= 1 && n <= contexts.count else {
        throw REPLError(
          "unknownContext", "no context \(n); 'contexts' lists them (\(contexts.count) now)")
      }
      return contexts[n - 1]
    }
    let matches = contexts.filter { $0.uuidString.hasPrefix(word.uppercased()) }
    guard matches.count == 1 else { throw REPLError("unknownContext", "no context '\(word)'") }
    return matches[0]
  }
}

/// The words of a line of human mode, read one at a time.
private struct _Words {
  /// What is left of the line.
  var rest: Substring

  /// The next word (up to a space), or nil at the end of the line.
  mutating func next() -> String? {
    rest = rest.drop { $0 == " " }
    guard !rest.isEmpty else { return nil }
    let word = rest.prefix { $0 != " " }
    rest = rest.dropFirst(word.count)
    return String(word)
  }

  /// The rest of the line after one space, unescaped unless `escaped` is
  /// false.
  mutating func text(escaped: Bool = true) -> String {
    let text = rest.first == " " ? rest.dropFirst() : rest
    rest = ""
    return escaped ? Self.unescape(text) : String(text)
  }

  /// Throws `usage` unless the line has no more words.
  mutating func end(_ usage: REPLError) throws(REPLError) {
    guard next() == nil else { throw usage }
  }

  mutating func word(_ usage: REPLError) throws(REPLError) -> String {
    guard let word = next() else { throw usage }
    return word
  }

  static func number(_ word: String, _ name: String) throws(REPLError) -> Int {
    guard let n = Int(word) else { throw .badRequest("\(name) must be a number, not '\(word)'") }
    return n
  }

  mutating func number(_ name: String, _ usage: REPLError) throws(REPLError) -> Int {
    try Self.number(try word(usage), name)
  }

  mutating func storage(_ usage: REPLError) throws(REPLError) -> StorageID {
    StorageID(try word(usage))
  }

  /// `OFFSET LENGTH`.
  mutating func range(_ usage: REPLError) throws(REPLError) -> Range<Int> {
    let offset = try number("OFFSET", usage)
    return try Command.range(offset: offset, length: try number("LENGTH", usage))
  }

  /// `[OFFSET LENGTH]` at the end of the line.
  mutating func optionalRange(_ usage: REPLError) throws(REPLError) -> Range<Int>? {
    rest.allSatisfy { $0 == " " } ? nil : try range(usage)
  }

  /// `NAME OFFSET`.
  mutating func place(_ usage: REPLError) throws(REPLError) -> TextPosition {
    let id = try storage(usage)
    return TextPosition(id, try number("OFFSET", usage))
  }

  /// `NAME OFFSET LENGTH`.
  mutating func span(_ usage: REPLError) throws(REPLError) -> StorageSpan {
    let id = try storage(usage)
    return StorageSpan(id, try range(usage))
  }

  /// `NAME OFFSET LENGTH [, NAME OFFSET LENGTH …]`, the rest of the line.
  mutating func spans() throws(REPLError) -> [StorageSpan] {
    let usage = REPLError.badRequest("a range is NAME OFFSET LENGTH")
    let spans = try rest.split(separator: ",").map { (part) throws(REPLError) in
      var words = _Words(rest: part)
      let span = try words.span(usage)
      try words.end(usage)
      return span
    }
    rest = ""
    return spans
  }

  /// A suggestion's candidates and explanation as typed:
  /// `CANDIDATE | CANDIDATE … # EXPLANATION`, each part unescaped and
  /// without the one space either side of a `|` or of the `#`; `\|` is a
  /// bar in a candidate. Nothing before the `#` is no candidate; nothing
  /// between two bars, an empty one (a deletion).
  static func candidates(_ raw: String) -> (candidates: [String], explanation: String) {
    var text = Substring(raw)
    var explanation = ""
    if text == "#" || text.hasPrefix("# ") {
      explanation = unescape(text.dropFirst(2))
      text = ""
    } else if let mark = text.range(of: " # ") {
      explanation = unescape(text[mark.upperBound...])
      text = text[..<mark.lowerBound]
    } else if text.hasSuffix(" #") {
      text = text.dropLast(2)
    }
    guard !text.isEmpty else { return ([], explanation) }
    var parts = [""]
    var scalars = text.unicodeScalars[...]
    while let c = scalars.popFirst() {
      if c == "\\", scalars.first == "|" {
        scalars.removeFirst()
        parts[parts.count - 1].unicodeScalars.append("|")
      } else if c == "\\", let next = scalars.popFirst() {
        parts[parts.count - 1].unicodeScalars.append(contentsOf: [c, next])
      } else if c == "|" {
        parts.append("")
      } else {
        parts[parts.count - 1].unicodeScalars.append(c)
      }
    }
    let candidates = parts.enumerated().map { (i, part) in
      var part = Substring(part)
      if i > 0, part.hasPrefix(" ") { part = part.dropFirst() }
      if i < parts.count - 1, part.hasSuffix(" ") { part = part.dropLast() }
      return unescape(part)
    }
    return (candidates, explanation)
  }

  /// Unescapes `\n`, `\r`, `\t`, `\\` and `\u{HEX}` in a typed text.
  static func unescape(_ text: Substring) -> String {
    var out = ""
    var scalars = text.unicodeScalars[...]
    while let c = scalars.popFirst() {
      guard c == "\\", let next = scalars.popFirst() else {
        out.unicodeScalars.append(c)
        continue
      }
      switch next {
      case "n": out += "\n"
      case "r": out += "\r"
      case "t": out += "\t"
      case "\\": out += "\\"
      case "u":
        if scalars.first == "{", let close = scalars.firstIndex(of: "}"),
          let value = UInt32(
            String(scalars[scalars.index(after: scalars.startIndex)..<close]), radix: 16),
          let scalar = Unicode.Scalar(value)
        {
          out.unicodeScalars.append(scalar)
          scalars = scalars[scalars.index(after: close)...]
        } else {
          out += "\\u"
        }
      default:
        out += "\\"
        out.unicodeScalars.append(next)
      }
    }
    return out
  }
}
