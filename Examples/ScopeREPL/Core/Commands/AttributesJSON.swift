import DocumentEngine

/// The protocol's attributes (PROTOCOL.md, *Attributes*), read from requests
/// and written in responses.
///
/// A set of attributes is an object `{KEY: VALUE, …}`; runs are an array of
/// `{"offset": O, "length": L, "attributes": {…}}`, UTF-16 and relative to
/// the text they describe. Written, an object's keys come in a fixed order:
/// a set's keys by name (the byte order of ``AttributeKey``), a run's
/// `offset`, `length`, `attributes`, a component's `kind`, `identity`, then
/// its kind's parameter (`level`, `ordinal`, `languageHint` when there is
/// one, `columns`, `rowIndex`, `column` or `label`), then `checked` for a task list
/// item and `loose` for a loose list; inline presentation intents in
/// the order of their bits. Read, a request's values may come in any order
/// of keys and of intent names; fields the protocol does not name are
/// ignored.
public enum AttributesJSON {
  // MARK: Writing

  /// Runs as the protocol writes them.
  public static func json(_ runs: [AttributeRun]) -> JSON {
    .array(
      runs.map { run in
        .object([
          ("offset", .int(run.range.lowerBound)), ("length", .int(run.range.count)),
          ("attributes", json(run.attributes)),
        ])
      })
  }

  /// A set of attributes, its keys by name.
  public static func json(_ attributes: [AttributeKey: AttributeValue]) -> JSON {
    .object(attributes.sorted { $0.key < $1.key }.map { ($0.key.rawValue, json($0.value)) })
  }

  /// One value.
  public static func json(_ value: AttributeValue) -> JSON {
    switch value {
    case .string(let string): .string(string)
    case .integer(let integer): .int(integer)
    case .boolean(let boolean): .bool(boolean)
    case .inlinePresentationIntent(let intent): .array(intent.names.map(JSON.string))
    case .link(let url): .string(url)
    case .presentationIntent(let intent): .array(intent.components.map(json))
    }
  }

  private static func json(_ component: PresentationIntent.Component) -> JSON {
    var fields: [(String, JSON)] = [
      ("kind", .string(component.kind.name)), ("identity", .int(component.identity)),
    ]
    switch component.kind {
    case .header(let level): fields.append(("level", .int(level)))
    case .listItem(let ordinal): fields.append(("ordinal", .int(ordinal)))
    case .codeBlock(let hint?): fields.append(("languageHint", .string(hint)))
    case .table(let columns):
      fields.append(("columns", .array(columns.map { .string($0.rawValue) })))
    case .tableRow(let index): fields.append(("rowIndex", .int(index)))
    case .tableCell(let index): fields.append(("column", .int(index)))
    case .footnoteDefinition(let label): fields.append(("label", .string(label)))
    case .paragraph, .orderedList, .unorderedList, .codeBlock(nil), .blockQuote, .thematicBreak,
      .tableHeaderRow:
      break
    }
    if let checked = component.isChecked { fields.append(("checked", .bool(checked))) }
    if component.isLoose { fields.append(("loose", .bool(true))) }
    return .object(fields)
  }

  // MARK: Reading

  /// The runs `json` gives, checked for their shape only: the values are
  /// of their keys' kinds, each range can be made. Whether the runs are in
  /// order, apart and inside their text is for the document to say.
  ///
  /// - Parameter path: where `json` is in the request (`attributes`), for
  ///   messages.
  /// - Throws: `badRequest` for a value of the wrong type, an unknown kind
  ///   or name; `outOfRange` for a negative offset, or an offset and length
  ///   that make no range.
  public static func runs(_ json: JSON, at path: String) throws(REPLError) -> [AttributeRun] {
    guard case .array(let items) = json else { throw .badRequest("'\(path)' must be an array") }
    var runs: [AttributeRun] = []
    for (i, item) in items.enumerated() {
      let here = "\(path)[\(i)]"
      guard case .object = item else { throw .badRequest("'\(here)' must be an object") }
      let offset = try integer(item["offset"], at: "\(here).offset")
      let length = try integer(item["length"], at: "\(here).length")
      guard let set = item["attributes"], set != .null else {
        throw .badRequest("missing field '\(here).attributes'")
      }
      // A run before the start of its text is out of it, as one past its end.
      guard offset >= 0 else {
        throw REPLError("outOfRange", "the run '\(here)' starts before its text, at \(offset)")
      }
      runs.append(
        AttributeRun(
          try Command.range(offset: offset, length: length),
          try attributes(set, at: "\(here).attributes")))
    }
    return runs
  }

  /// The set of attributes `json` gives; a key whose value is `null` is
  /// absent.
  ///
  /// - Throws: `badRequest` as ``runs(_:at:)``.
  public static func attributes(
    _ json: JSON, at path: String
  ) throws(REPLError) -> [AttributeKey: AttributeValue] {
    try changes(json, at: path).compactMapValues { $0 }
  }

  /// The changes `json` asks for: each key with its value, or `nil` (the
  /// request's `null`) to remove the key.
  ///
  /// - Throws: `badRequest` as ``runs(_:at:)``.
  public static func changes(
    _ json: JSON, at path: String
  ) throws(REPLError) -> [AttributeKey: AttributeValue?] {
    guard case .object(let fields) = json else { throw .badRequest("'\(path)' must be an object") }
    var changes: [AttributeKey: AttributeValue?] = [:]
    for (name, value) in fields {
      let key = AttributeKey(rawValue: name)
      changes[key] =
        value == .null ? .some(nil) : try self.value(value, for: key, at: "\(path).\(name)")
    }
    return changes
  }

  /// The value `json` gives for `key`: the well-known keys take their own
  /// kind, any other key a string, an integer or a Boolean.
  ///
  /// - Throws: `badRequest` for a value of another type, an unknown intent
  ///   name, kind or column alignment.
  public static func value(
    _ json: JSON, for key: AttributeKey, at path: String
  ) throws(REPLError) -> AttributeValue {
    switch key {
    case .inlinePresentationIntent:
      guard case .array(let items) = json else {
        throw .badRequest("'\(path)' must be an array of inline presentation intent names")
      }
      var intent = InlinePresentationIntent()
      for (i, item) in items.enumerated() {
        guard case .string(let name) = item else {
          throw .badRequest("'\(path)[\(i)]' must be an inline presentation intent name")
        }
        guard let named = InlinePresentationIntent(name: name) else {
          let names = InlinePresentationIntent.named.map(\.name).joined(separator: ", ")
          throw .badRequest("unknown inline presentation intent '\(name)' (\(names))")
        }
        intent.formUnion(named)
      }
      return .inlinePresentationIntent(intent)
    case .link, .imageURL:
      guard case .string(let url) = json else { throw .badRequest("'\(path)' must be a string") }
      return .link(url)
    case .linkTitle, .imageTitle, .footnoteReference:
      guard case .string(let title) = json else {
        throw .badRequest("'\(path)' must be a string")
      }
      return .string(title)
    case .presentationIntent:
      guard case .array(let items) = json else {
        throw .badRequest("'\(path)' must be an array of components")
      }
      var components: [PresentationIntent.Component] = []
      for (i, item) in items.enumerated() {
        components.append(try component(item, at: "\(path)[\(i)]"))
      }
      return .presentationIntent(PresentationIntent(components))
    default:
      switch json {
      case .string(let string): return .string(string)
      case .bool(let boolean): return .boolean(boolean)
      case .int(let integer): return .integer(integer)
      case .double(let double):
        if let integer = Int(exactly: double) { return .integer(integer) }
      default: break
      }
      throw .badRequest("'\(path)' must be a string, an integer that fits in 64 bits or a boolean")
    }
  }

  /// The kinds of components, by name, for messages.
  private static let kindNames = [
    "paragraph", "header", "orderedList", "unorderedList", "listItem", "codeBlock", "blockQuote",
    "thematicBreak", "table", "tableHeaderRow", "tableRow", "tableCell", "footnoteDefinition",
  ]

  private static func component(
    _ json: JSON, at path: String
  ) throws(REPLError) -> PresentationIntent.Component {
    guard case .object = json else { throw .badRequest("'\(path)' must be an object") }
    guard case .string(let kind)? = json["kind"] else {
      throw json["kind"] == nil || json["kind"] == .null
        ? .badRequest("missing field '\(path).kind'")
        : .badRequest("'\(path).kind' must be a string")
    }
    let identity = try integer(json["identity"], at: "\(path).identity")
    func parameter(_ name: String) throws(REPLError) -> Int {
      try integer(json[name], at: "\(path).\(name)")
    }
    let made: PresentationIntent.Kind
    switch kind {
    case "paragraph": made = .paragraph
    case "header": made = .header(level: try parameter("level"))
    case "orderedList": made = .orderedList
    case "unorderedList": made = .unorderedList
    case "listItem": made = .listItem(ordinal: try parameter("ordinal"))
    case "codeBlock":
      switch json["languageHint"] {
      case nil, .null?: made = .codeBlock(languageHint: nil)
      case .string(let hint)?: made = .codeBlock(languageHint: hint)
      default: throw .badRequest("'\(path).languageHint' must be a string")
      }
    case "blockQuote": made = .blockQuote
    case "thematicBreak": made = .thematicBreak
    case "table": made = .table(columns: try columns(json["columns"], at: "\(path).columns"))
    case "tableHeaderRow": made = .tableHeaderRow
    case "tableRow": made = .tableRow(rowIndex: try parameter("rowIndex"))
    case "tableCell": made = .tableCell(columnIndex: try parameter("column"))
    case "footnoteDefinition":
      guard case .string(let label)? = json["label"] else {
        throw json["label"] == nil || json["label"] == .null
          ? .badRequest("missing field '\(path).label'")
          : .badRequest("'\(path).label' must be a string")
      }
      made = .footnoteDefinition(label: label)
    default:
      throw .badRequest(
        "unknown presentation intent kind '\(kind)' (\(kindNames.joined(separator: ", ")))")
    }
    var isChecked: Bool?
    switch json["checked"] {
    case nil, .null?: break
    case .bool(let checked)?: isChecked = checked
    default: throw .badRequest("'\(path).checked' must be a boolean")
    }
    if isChecked != nil, !made.isListItem {
      throw .badRequest("'\(path).checked' is a list item's (a task list's box)")
    }
    var isLoose = false
    switch json["loose"] {
    case nil, .null?: break
    case .bool(let loose)?: isLoose = loose
    default: throw .badRequest("'\(path).loose' must be a boolean")
    }
    if isLoose, !made.isListContainer {
      throw .badRequest("'\(path).loose' is a list's (its items parted by blank lines)")
    }
    return PresentationIntent.Component(
      made, identity: identity, isChecked: isChecked, isLoose: isLoose)
  }

  private static func columns(
    _ json: JSON?, at path: String
  ) throws(REPLError) -> [PresentationIntent.ColumnAlignment] {
    guard let json, json != .null else { throw .badRequest("missing field '\(path)'") }
    guard case .array(let items) = json else {
      throw .badRequest("'\(path)' must be an array of alignments")
    }
    var columns: [PresentationIntent.ColumnAlignment] = []
    for (i, item) in items.enumerated() {
      guard case .string(let name) = item else {
        throw .badRequest("'\(path)[\(i)]' must be an alignment (left, center, right)")
      }
      guard let alignment = PresentationIntent.ColumnAlignment(rawValue: name) else {
        throw .badRequest("unknown column alignment '\(name)' (left, center, right)")
      }
      columns.append(alignment)
    }
    return columns
  }

  /// A required integer field (the protocol's rule: `1.0` is one, `1.5`
  /// is not).
  private static func integer(_ json: JSON?, at path: String) throws(REPLError) -> Int {
    guard let json, json != .null else { throw .badRequest("missing field '\(path)'") }
    switch json {
    case .int(let n): return n
    case .double(let d):
      if let n = Int(exactly: d) { return n }
    default: break
    }
    throw .badRequest("'\(path)' must be an integer that fits in 64 bits")
  }
}
