import DocumentEngine
import Foundation
import TextRope

extension Command {
  /// The command that one line of the `--json` protocol (its bytes, without
  /// the newline) asks for.
  ///
  /// - Throws: `invalidUTF8` for a line that is not UTF-8, `badRequest` for
  ///   one that is not JSON, else as ``init(json:)``.
  public init(jsonLine bytes: [UInt8]) throws(REPLError) {
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw REPLError("invalidUTF8", "the line is not UTF-8")
    }
    let json: JSON
    do {
      json = try JSONReader.parse(bytes)
    } catch {
      throw .badRequest(error.description)
    }
    try self.init(json: json)
  }

  /// The command that a request of the protocol asks for. Fields the
  /// protocol does not name are ignored (it allows more); `null` is an
  /// absent field.
  ///
  /// - Throws: `badRequest` for a request that is not an object, an unknown
  ///   `cmd`, `unit`, scope, state, policy, format, `expand`, `bias` or
  ///   `onTouch`, a missing field or one
  ///   of the wrong type (an attribute's value among them), a `replace`
  ///   or a suggestion's candidate with both `text` and `markdown` or with
  ///   `markdown` and `attributes`, a `suggest` or `suggestions` with both
  ///   `storage` and `context` (or `suggestions` of a context with a
  ///   `range`), and a `unit` other than `utf16` where offsets are relative
  ///   to a context, an older version or the whole document, or where
  ///   attribute runs are given or asked for (runs count UTF-16 units, and
  ///   so do suggestions, whose candidates carry runs);
  ///   `outOfRange` for an offset and length that make no range;
  ///   `unknownContext` for a context id that is not a UUID.
  public init(json: JSON) throws(REPLError) {
    let request = try _Fields(json)
    let cmd = try request.string("cmd")
    let unit = try request.unit()
    func utf16Only(_ reason: String) throws(REPLError) {
      guard unit == .utf16 else {
        throw .badRequest("'\(cmd)' counts UTF-16 units (\(reason)): 'unit' must be utf16")
      }
    }
    switch cmd {
    case "add":
      let source: Source
      if let path = try request.optionalString("path") {
        source = .file(path: path)
      } else if let markdown = try request.optionalString("markdown") {
        guard try request.optionalString("text") == nil else {
          throw .badRequest("'add' takes 'text' or 'markdown', not both")
        }
        source = .markdown(markdown)
      } else {
        source = .text(try request.string("text"))
      }
      let after = try request.optionalString("after").map { StorageID($0) }
      let attributes = try request.runs("attributes")
      if attributes != nil { try utf16Only("attribute runs") }
      if attributes != nil, case .markdown = source {
        throw .badRequest("'add' with 'markdown' takes no 'attributes' (the Markdown has its own)")
      }
      self = .add(
        try request.storage(), source, after: after, unit: unit, attributes: attributes ?? [])
    case "remove": self = .remove(try request.storage())
    case "storages": self = .storages(unit: unit)
    case "text":
      let (id, range) = (try request.storage(), try request.range("range"))
      let attributes = try request.optionalBool("attributes") ?? false
      if attributes { try utf16Only("attribute runs") }
      let format = try request.optionalString("format").map {
        (name) throws(REPLError) -> ContextFormat in try Self.named(name, "format")
      }
      if attributes, format != nil {
        throw .badRequest("'text' with 'format' takes no 'attributes' (the Markdown has its own)")
      }
      self = .text(id, range: range, unit: unit, attributes: attributes, format: format)
    case "edit":
      let (span, text) = (try request.span(), try request.string("text"))
      let origin = try request.optionalString("origin")
      let basis = try request.optionalInt("basis").map { StorageVersion($0) }
      // A set of attributes has no offsets: any unit goes.
      let attributes = try request.attributes("attributes")
      if origin == nil && basis == nil {
        self = .edit(
          DocumentEdit(
            span.storage, range: span.range, in: unit, with: text, attributes: attributes))
      } else {
        try utf16Only("an edit with an origin or a basis")
        self = .edit(
          DocumentEdit(
            span.storage, range: span.range, with: text, attributes: attributes, origin: origin,
            basis: basis))
      }
    case "select":
      if let spans = try request.optionalArray("ranges", Self.span) {
        self = .select(.ranges(spans), unit: unit)
      } else {
        let from = try request.object("from").place()
        self = .select(.span(from: from, to: try request.object("to").place()), unit: unit)
      }
    case "visible":
      self = .visible(try request.array("ranges", Self.span), unit: unit)
    case "exclude": self = .exclude(try request.span(), unit: unit)
    case "setAttributes":
      self = .setAttributes(try request.span(), try request.changes("attributes"), unit: unit)
    case "track":
      let id = try request.storage()
      let ranges = try request.array("ranges", Self.range)
      self = .track(
        id, ranges: ranges, unit: unit, kind: try request.optionalString("kind") ?? "host",
        rules: try request.trackingRules())
    case "tracked":
      self = .tracked(
        try request.storage(), range: try request.range("range"), unit: unit,
        kind: try request.optionalString("kind"))
    case "untrack": self = .untrack(try request.trackedIDs("ids"))
    case "suggest":
      try utf16Only("a suggestion's offsets, as its candidates' runs")
      let target = try request.reviewTarget()
      self = .suggest(
        target, range: try request.range(),
        kind: SuggestionKind(rawValue: try request.string("kind")),
        explanation: try request.optionalString("explanation") ?? "",
        candidates: try request.candidates("candidates"))
    case "suggestions":
      try utf16Only("a suggestion's offsets, as its candidates' runs")
      let target = try request.reviewTarget()
      let range = try request.range("range")
      if case .context = target, range != nil {
        throw .badRequest("'range' goes with 'storage': a context's suggestions are all of it")
      }
      self = .suggestions(target, range: range)
    case "preview":
      self = .preview(try request.suggestion(), candidate: try request.int("candidate"))
    case "accept":
      self = .accept(try request.suggestion(), candidate: try request.optionalInt("candidate"))
    case "reject": self = .reject(try request.suggestion())
    case "contexts":
      try utf16Only("a context's offsets")
      self = .contexts(
        try Self.named(try request.string("scope"), "scope"),
        surroundingParagraphs: try request.optionalInt("surroundingParagraphs") ?? 0,
        resultOptions: try request.resultOptions("resultOptions") ?? .plainText,
        format: try request.optionalString("format").map {
          (name) throws(REPLError) -> ContextFormat in try Self.named(name, "format")
        })
    case "replace":
      try utf16Only("a context's offsets")
      let policy = try request.optionalString("policy").map {
        (name) throws(REPLError) -> ReplacementPolicy in try Self.named(name, "policy")
      }
      self = .replace(
        context: try request.context(), range: try request.range(),
        with: try request.replacement(),
        basis: try request.optionalInt("basis").map { ContextVersion($0) },
        policy: policy ?? .refuse)
    case "toolSelect":
      try utf16Only("a context's offsets")
      self = .toolSelect(
        context: try request.context(), ranges: try request.array("ranges", Self.range))
    case "state": self = .state(try Self.named(try request.string("state"), "state"))
    case "undo": self = .undo(origin: try request.optionalString("origin"), unit: unit)
    case "redo": self = .redo(origin: try request.optionalString("origin"), unit: unit)
    case "closeGroup": self = .closeGroup(origin: try request.optionalString("origin"))
    case "revert": self = .revert
    case "end": self = .end
    case "map":
      try utf16Only("offsets of an older version")
      self = .map(
        try request.storage(), offset: try request.int("offset"),
        from: StorageVersion(try request.int("from")),
        bias: try Self.bias(assoc: try request.optionalInt("assoc")))
    case "locate":
      try utf16Only("document offsets")
      self = .locate(offset: try request.int("offset"))
    case "paragraph":
      self = .paragraph(try request.storage(), offset: try request.int("offset"), unit: unit)
    case "graphemes":
      self = .graphemes(try request.storage(), range: try request.range("range"), unit: unit)
    case "replay": self = .replay(path: try request.string("path"), storage: try request.storage())
    case "quit": self = .quit
    default: throw .badRequest("unknown cmd '\(cmd)'")
    }
  }

  private static func span(_ fields: _Fields) throws(REPLError) -> StorageSpan {
    try fields.span()
  }

  private static func range(_ fields: _Fields) throws(REPLError) -> Range<Int> {
    try fields.range()
  }
}

/// The fields of a request, or of an object inside one, read with errors
/// that name the field.
private struct _Fields {
  let json: JSON
  /// Where the object is in the request (`ranges[0].`), before its keys.
  let path: String

  init(_ json: JSON, path: String = "") throws(REPLError) {
    guard case .object = json else {
      throw .badRequest(
        path.isEmpty ? "a request must be a JSON object" : "'\(path.dropLast())' must be an object")
    }
    self.json = json
    self.path = path
  }

  /// The value of `key` read by `read`, or nil if it is absent or null.
  func optional<Value>(
    _ key: String, _ kind: String, _ read: (JSON) -> Value?
  ) throws(REPLError) -> Value? {
    guard let value = json[key], value != .null else { return nil }
    guard let typed = read(value) else { throw .badRequest("'\(path)\(key)' must be \(kind)") }
    return typed
  }

  func required<Value>(
    _ key: String, _ kind: String, _ read: (JSON) -> Value?
  ) throws(REPLError) -> Value {
    guard let value = try optional(key, kind, read) else {
      throw .badRequest("missing field '\(path)\(key)'")
    }
    return value
  }

  func optionalString(_ key: String) throws(REPLError) -> String? {
    try optional(key, "a string") { if case .string(let s) = $0 { s } else { nil } }
  }

  func string(_ key: String) throws(REPLError) -> String {
    try required(key, "a string") { if case .string(let s) = $0 { s } else { nil } }
  }

  /// An integer; `1.0` and `1e3` are integers too, `1.5` and `1e300` are
  /// not.
  static func integer(_ value: JSON) -> Int? {
    switch value {
    case .int(let n): n
    case .double(let d): Int(exactly: d)
    default: nil
    }
  }

  func optionalBool(_ key: String) throws(REPLError) -> Bool? {
    try optional(key, "a boolean") { if case .bool(let b) = $0 { b } else { nil } }
  }

  /// Whether the object has `key`, with a value other than `null`.
  func has(_ key: String) -> Bool {
    json[key] != nil && json[key] != .null
  }

  /// A replacement's `text` and its `attributes`, or its `markdown`.
  ///
  /// - Throws: `badRequest` for neither, both, or `markdown` with
  ///   `attributes` (Markdown carries its own).
  func replacement() throws(REPLError) -> Command.Replacement {
    guard let markdown = try optionalString("markdown") else {
      return .text(try string("text"), attributes: try runs("attributes"))
    }
    if has("text") {
      throw .badRequest("give '\(path)text' or '\(path)markdown', not both")
    }
    if has("attributes") {
      throw .badRequest(
        "'\(path)attributes' goes with '\(path)text': '\(path)markdown' carries its own")
    }
    return .markdown(markdown)
  }

  /// The candidates of a suggestion at `key`: each a string (plain text),
  /// or an object with `text` and optional `attributes`, or `markdown`
  /// (see ``replacement()``).
  ///
  /// - Throws: `badRequest` for a missing array, or an item that is none
  ///   of these.
  func candidates(_ key: String) throws(REPLError) -> [Command.Replacement] {
    let items = try required(key, "an array of candidates") { (value) -> [JSON]? in
      if case .array(let items) = value { items } else { nil }
    }
    return try items.enumerated().map { (i, item) throws(REPLError) -> Command.Replacement in
      switch item {
      case .string(let text): return .text(text)
      case .object: return try _Fields(item, path: "\(path)\(key)[\(i)].").replacement()
      default:
        throw .badRequest(
          "'\(path)\(key)[\(i)]' must be a string or an object with 'text' or 'markdown'")
      }
    }
  }

  /// `storage` or `context`, one of them: what a review command is about.
  func reviewTarget() throws(REPLError) -> Command.ReviewTarget {
    guard has("context") else { return .storage(try storage()) }
    if has("storage") {
      throw .badRequest("give '\(path)storage' or '\(path)context', not both")
    }
    return .context(try context())
  }

  /// `suggestion`, a suggestion's id (an integer).
  func suggestion() throws(REPLError) -> SuggestionID {
    SuggestionID(rawValue: try int("suggestion"))
  }

  /// The attribute runs at `key` (see ``AttributesJSON``), if there are any.
  func runs(_ key: String) throws(REPLError) -> [AttributeRun]? {
    guard let value = json[key], value != .null else { return nil }
    return try AttributesJSON.runs(value, at: path + key)
  }

  /// The set of attributes at `key`, if there is one.
  func attributes(_ key: String) throws(REPLError) -> [AttributeKey: AttributeValue]? {
    guard let value = json[key], value != .null else { return nil }
    return try AttributesJSON.attributes(value, at: path + key)
  }

  /// The attributes to set (a value) or remove (`null`) at `key`.
  func changes(_ key: String) throws(REPLError) -> [AttributeKey: AttributeValue?] {
    guard let value = json[key], value != .null else {
      throw .badRequest("missing field '\(path)\(key)'")
    }
    return try AttributesJSON.changes(value, at: path + key)
  }

  /// The result options named at `key`, if there are any.
  func resultOptions(_ key: String) throws(REPLError) -> ResultOptions? {
    let names = try optional(key, "an array of result options") { (value) -> [JSON]? in
      if case .array(let items) = value { items } else { nil }
    }
    guard let names else { return nil }
    var options = ResultOptions()
    for (i, item) in names.enumerated() {
      guard case .string(let name) = item else {
        throw .badRequest("'\(path)\(key)[\(i)]' must be a result option name")
      }
      guard let option = ResultOptions(name: name) else {
        let all = ResultOptions.named.map(\.name).joined(separator: ", ")
        throw .badRequest("unknown result option '\(name)' (\(all))")
      }
      options.formUnion(option)
    }
    return options
  }

  /// A tracked range's rules: `expand` (`none`, `before`, `after`,
  /// `both`), `bias` (`left`, `right`) and `onTouch` (`keep`, `remove`),
  /// each its default when absent.
  func trackingRules() throws(REPLError) -> TrackingRules {
    var rules = TrackingRules()
    if let name = try optionalString("expand") {
      rules.expand = try Command.named(name, "expand")
    }
    if let name = try optionalString("bias") { rules.bias = try Command.bias(named: name) }
    if let name = try optionalString("onTouch") {
      rules.onTouch = try Command.named(name, "onTouch")
    }
    return rules
  }

  /// The tracked range ids at `key`: an array of integers.
  func trackedIDs(_ key: String) throws(REPLError) -> [TrackedRangeID] {
    let items = try required(key, "an array of ids") { (value) -> [JSON]? in
      if case .array(let items) = value { items } else { nil }
    }
    return try items.enumerated().map { (i, item) throws(REPLError) in
      guard let n = Self.integer(item) else {
        throw .badRequest("'\(path)\(key)[\(i)]' must be an integer that fits in 64 bits")
      }
      return TrackedRangeID(rawValue: n)
    }
  }

  func optionalInt(_ key: String) throws(REPLError) -> Int? {
    try optional(key, "an integer that fits in 64 bits", Self.integer)
  }

  func int(_ key: String) throws(REPLError) -> Int {
    try required(key, "an integer that fits in 64 bits", Self.integer)
  }

  /// The object at `key`.
  func object(_ key: String) throws(REPLError) -> _Fields {
    let value = try required(key, "an object") { if case .object = $0 { $0 } else { nil } }
    return try _Fields(value, path: "\(path)\(key).")
  }

  /// The array at `key`, each item an object read by `read`; nil if there
  /// is none.
  func optionalArray<Item>(
    _ key: String, _ read: (_Fields) throws(REPLError) -> Item
  ) throws(REPLError) -> [Item]? {
    let items = try optional(key, "an array") { if case .array(let a) = $0 { a } else { nil } }
    return try items?.enumerated().map { (i, item) throws(REPLError) in
      try read(try _Fields(item, path: "\(path)\(key)[\(i)]."))
    }
  }

  func array<Item>(
    _ key: String, _ read: (_Fields) throws(REPLError) -> Item
  ) throws(REPLError) -> [Item] {
    guard let items = try optionalArray(key, read) else {
      throw .badRequest("missing field '\(path)\(key)'")
    }
    return items
  }

  func storage() throws(REPLError) -> StorageID { StorageID(try string("storage")) }

  /// `offset` and `length` as a range.
  func range() throws(REPLError) -> Range<Int> {
    try Command.range(offset: try int("offset"), length: try int("length"))
  }

  /// The range in the object at `key`, if there is one.
  func range(_ key: String) throws(REPLError) -> Range<Int>? {
    guard has(key) else { return nil }
    return try object(key).range()
  }

  /// `storage`, `offset` and `length`.
  func span() throws(REPLError) -> StorageSpan { StorageSpan(try storage(), try range()) }

  /// `storage` and `offset`.
  func place() throws(REPLError) -> TextPosition { TextPosition(try storage(), try int("offset")) }

  /// `context`, a context id.
  func context() throws(REPLError) -> UUID {
    let text = try string("context")
    guard let id = UUID(uuidString: text) else {
      throw REPLError("unknownContext", "no context of the current session has the id '\(text)'")
    }
    return id
  }

  /// `unit`: `utf16` (the default), `scalar` or `utf8`.
  func unit() throws(REPLError) -> TextUnit {
    switch try optionalString("unit") {
    case nil, "utf16": return .utf16
    case "scalar", "scalars": return .unicodeScalars
    case "utf8": return .utf8
    case let other?: throw .badRequest("unknown unit '\(other)' (utf16, scalar or utf8)")
    }
  }
}
