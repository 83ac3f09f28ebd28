import ScopeREPLCore

/// One command of the REPL's JSON protocol served to agents as an MCP tool
/// (`../shared/PROTOCOL.md`, *The same commands over the Model Context
/// Protocol*): the tool's name is the command's `cmd`, its arguments the
/// request's other fields, described by ``inputSchema``.
public struct AgentTool: Sendable {
  /// The command's name (`replace`, `suggest`…).
  public let name: String
  /// What the tool does, for the agent to act on.
  public let description: String
  /// The JSON schema of its arguments (an object schema).
  public let inputSchema: JSON

  init(
    _ name: String, _ description: String, _ properties: [(String, JSON)], required: [String] = []
  ) {
    self.name = name
    self.description = description
    var schema: [(String, JSON)] = [
      ("type", .string("object")), ("properties", .object(properties)),
    ]
    if !required.isEmpty { schema.append(("required", .array(required.map { .string($0) }))) }
    schema.append(("additionalProperties", .bool(false)))
    inputSchema = .object(schema)
  }
}

// MARK: - The schemas' parts

private func string(_ description: String) -> JSON {
  .object([("type", .string("string")), ("description", .string(description))])
}

private func strings(_ values: [String], _ description: String) -> JSON {
  .object([
    ("type", .string("string")), ("enum", .array(values.map { .string($0) })),
    ("description", .string(description)),
  ])
}

private func integer(_ description: String, minimum: Int? = 0) -> JSON {
  var fields: [(String, JSON)] = [("type", .string("integer"))]
  if let minimum { fields.append(("minimum", .int(minimum))) }
  fields.append(("description", .string(description)))
  return .object(fields)
}

private func boolean(_ description: String) -> JSON {
  .object([("type", .string("boolean")), ("description", .string(description))])
}

private let rangeSchema: JSON = .object([
  ("type", .string("object")),
  (
    "properties",
    .object([
      ("offset", integer("Where the range starts.")),
      ("length", integer("How many units it spans.")),
    ])
  ),
  ("required", .array([.string("offset"), .string("length")])),
  ("additionalProperties", .bool(false)),
])

private func range(_ description: String) -> JSON {
  guard case .object(var fields) = rangeSchema else { return rangeSchema }
  fields.append(("description", .string(description)))
  return .object(fields)
}

private func array(_ items: JSON, _ description: String) -> JSON {
  .object([
    ("type", .string("array")), ("items", items), ("description", .string(description)),
  ])
}

private let unit = strings(
  ["utf16", "scalar", "utf8"],
  "The unit of offsets and lengths: UTF-16 code units (the default), Unicode scalars or UTF-8 bytes."
)

private let attributeSet: JSON = .object([
  ("type", .string("object")),
  (
    "description",
    .string(
      "A set of attributes {KEY: VALUE}: inlinePresentationIntent (an array of names: "
        + "emphasized, stronglyEmphasized, code, strikethrough…), link (a URL string), "
        + "presentationIntent (an array of components, outermost first), or any key of the "
        + "host's with a string, integer or boolean.")
  ),
])

private let runs = array(
  .object([
    ("type", .string("object")),
    (
      "properties",
      .object([
        ("offset", integer("Where the run starts, relative to its text.")),
        ("length", integer("How many UTF-16 units it spans.")),
        ("attributes", attributeSet),
      ])
    ),
    ("required", .array([.string("offset"), .string("length"), .string("attributes")])),
  ]),
  "Attribute runs over the text, in order, not overlapping (UTF-16 offsets).")

private let offset = integer("Where the range starts.")
private let length = integer("How many units the range spans (0: a point).")
private let storage = string("A storage's id (see storages).")
private let context = string("A context's id, from the last contexts call.")

private let candidate: JSON = .object([
  (
    "description",
    .string(
      "A candidate: a string, or {\"text\": …, \"attributes\": [runs]}, or {\"markdown\": …}.")
  )
])

extension AgentTool {
  /// The tools an agent may call: the protocol's commands that read or
  /// change the document. Not served: what is the person's or the host's
  /// (`select`, `visible`, `exclude`, `closeGroup`), what reads files
  /// (`replay`; `add` takes `text` or `markdown` only) and `quit`.
  public static let all: [AgentTool] = [
    AgentTool(
      "storages", "Lists the document's storages in order, with their lengths and versions.",
      [("unit", unit)]),
    AgentTool(
      "text",
      "Reads a storage's text (or a part of it) and its version; with format \"markdown\", the "
        + "storage as Markdown (the source of unchanged blocks kept); with attributes true, "
        + "its attribute runs too.",
      [
        ("storage", storage), ("range", range("A part of the storage (default: all of it).")),
        ("unit", unit),
        ("format", strings(["markdown"], "Read the text as Markdown.")),
        ("attributes", boolean("Also list the text's attribute runs (UTF-16 only).")),
      ], required: ["storage"]),
    AgentTool(
      "add",
      "Adds a storage with the given text, or read from Markdown (its source kept), after "
        + "another storage or at the end.",
      [
        ("storage", string("The new storage's id.")), ("text", string("Its plain text.")),
        ("markdown", string("Its text as GitHub-flavoured Markdown (instead of text).")),
        ("after", string("The storage it goes after (default: the last).")),
        ("attributes", runs), ("unit", unit),
      ], required: ["storage"]),
    AgentTool("remove", "Removes a storage.", [("storage", storage)], required: ["storage"]),
    AgentTool(
      "edit",
      "Edits a storage as this agent (an origin of its own, with its own undo history): "
        + "replaces offset..offset+length with text. With basis (a version of the storage the "
        + "agent read), the range is in that version's coordinates and is mapped through what "
        + "changed since, or refused as a conflict if someone's edit touched it.",
      [
        ("storage", storage), ("offset", offset), ("length", length),
        ("text", string("The new text.")),
        ("basis", integer("The storage version the offsets refer to (default: the current).")),
        ("attributes", attributeSet), ("unit", unit),
        ("origin", string("This agent's own origin (any other is refused).")),
      ], required: ["storage", "offset", "length", "text"]),
    AgentTool(
      "setAttributes",
      "Sets attributes over a storage range (null removes a key); the text does not change.",
      [
        ("storage", storage), ("offset", offset), ("length", length),
        ("attributes", attributeSet), ("unit", unit),
      ], required: ["storage", "offset", "length", "attributes"]),
    AgentTool(
      "contexts",
      "Starts a Writing Tools session on a scope and returns its contexts: their text, the "
        + "storage range each covers, the selection inside them, and their versions. Refused "
        + "(busy) while another tool's session streams.",
      [
        (
          "scope",
          strings(
            ["userSelection", "fullDocument", "visibleArea"],
            "The selection and its paragraphs, the whole document, or the visible area.")
        ),
        ("surroundingParagraphs", integer("Paragraphs around the selection (userSelection).")),
        (
          "resultOptions",
          array(
            strings(
              ["plainText", "richText", "list", "table", "presentationIntent"],
              "What the tool answers with."), "What the tool answers with (default plainText).")
        ),
        ("format", strings(["markdown"], "Also give each context's text as Markdown.")),
      ], required: ["scope"]),
    AgentTool(
      "replace",
      "Replaces a range of a context's text (context-relative offsets) with text, attributed "
        + "text or Markdown. With basis (the context version the agent last saw), the range is "
        + "mapped through the person's edits since, or refused as a conflict if one touched it.",
      [
        ("context", context), ("offset", offset), ("length", length),
        ("text", string("The new text.")),
        ("markdown", string("The new text as Markdown (instead of text).")),
        ("attributes", runs),
        ("basis", integer("The context version the offsets refer to (default: the current).")),
        (
          "policy",
          strings(["refuse", "merge"], "What to do when an edit touched the range (refuse).")
        ),
      ], required: ["context", "offset", "length"]),
    AgentTool(
      "toolSelect", "Maps context-relative ranges to the storage ranges they cover.",
      [("context", context), ("ranges", array(rangeSchema, "Context-relative ranges."))],
      required: ["context", "ranges"]),
    AgentTool(
      "state",
      "Moves the session's Writing Tools state (all replacements of one interactiveStreaming "
        + "phase form one undo group).",
      [
        (
          "state",
          strings(
            ["inactive", "noninteractive", "interactiveResting", "interactiveStreaming"],
            "The new state.")
        )
      ], required: ["state"]),
    AgentTool(
      "revert",
      "Puts back the original text of every replacement of the session still intact; the "
        + "person's edits stay.", []),
    AgentTool("end", "Ends the session (its replacements stay, and stay undoable).", []),
    AgentTool(
      "undo",
      "Takes back this agent's last group of edits, selectively: text others typed since "
        + "stays.",
      [("origin", string("This agent's own origin (any other is refused).")), ("unit", unit)]),
    AgentTool(
      "redo", "Gives back what this agent's last undo took.",
      [("origin", string("This agent's own origin (any other is refused).")), ("unit", unit)]),
    AgentTool(
      "map",
      "Maps an offset of an older version of a storage to the current text (and whether its "
        + "text was deleted).",
      [
        ("storage", storage), ("offset", integer("The offset in version 'from'.")),
        ("from", integer("The version the offset refers to.")),
        (
          "assoc",
          integer("-1: stay before text inserted at it; 1 (default): go after.", minimum: -1)
        ),
      ], required: ["storage", "offset", "from"]),
    AgentTool(
      "locate", "Finds the storage and local offset of a document offset.",
      [("offset", integer("A UTF-16 offset in the whole document."))], required: ["offset"]),
    AgentTool(
      "paragraph", "The paragraph around an offset: its range (separator included).",
      [("storage", storage), ("offset", integer("An offset in the storage.")), ("unit", unit)],
      required: ["storage", "offset"]),
    AgentTool(
      "graphemes", "The grapheme cluster boundaries of a storage or a part of it.",
      [("storage", storage), ("range", range("A part of the storage.")), ("unit", unit)],
      required: ["storage"]),
    AgentTool(
      "track",
      "Tracks ranges of a storage (comments, anchors): they move with the text; returns their "
        + "ids.",
      [
        ("storage", storage), ("ranges", array(rangeSchema, "The ranges to track.")),
        ("kind", string("A kind of your choosing (default \"host\").")),
        (
          "expand",
          strings(["none", "before", "after", "both"], "Which ends take text typed at them.")
        ),
        (
          "bias", strings(["left", "right"], "Where an empty range goes when text is typed at it.")
        ),
        (
          "onTouch",
          strings(["keep", "remove"], "Whether an edit that touches a range removes it.")
        ),
        ("unit", unit),
      ], required: ["storage", "ranges"]),
    AgentTool(
      "tracked", "Lists a storage's tracked ranges (those overlapping a range, of a kind).",
      [
        ("storage", storage), ("range", range("Only those overlapping it.")),
        ("kind", string("Only those of this kind.")), ("unit", unit),
      ], required: ["storage"]),
    AgentTool(
      "untrack", "Stops tracking ranges by id.",
      [("ids", array(integer("A tracked range's id."), "The ids."))], required: ["ids"]),
    AgentTool(
      "suggest",
      "Proposes a suggestion the person reviews (spelling, grammar, style…) over a storage "
        + "range, or a context range (context-relative), with candidates to replace it.",
      [
        ("storage", storage), ("context", context), ("offset", offset), ("length", length),
        ("kind", string("spelling, grammar, style or any string.")),
        ("explanation", string("Why, for the person.")),
        ("candidates", array(candidate, "What could replace the range.")),
      ], required: ["offset", "length", "kind"]),
    AgentTool(
      "suggestions",
      "Lists the open suggestions of a context (context-relative) or of a storage (in a range).",
      [("context", context), ("storage", storage), ("range", range("Only those in it (storage)."))]
    ),
    AgentTool(
      "preview", "Shows a suggestion's candidate in the text, temporarily.",
      [
        ("suggestion", integer("The suggestion's id.")),
        ("candidate", integer("The candidate's index.")),
      ],
      required: ["suggestion", "candidate"]),
    AgentTool(
      "accept",
      "Accepts a suggestion: its candidate replaces the text, as one undo group of the "
        + "document's history.",
      [
        ("suggestion", integer("The suggestion's id.")),
        ("candidate", integer("The candidate's index (default: the previewed one, else 0).")),
      ],
      required: ["suggestion"]),
    AgentTool(
      "reject", "Rejects a suggestion (the same kind and text is not suggested again).",
      [("suggestion", integer("The suggestion's id."))], required: ["suggestion"]),
  ]

  /// The tool named `name`, if agents may call it.
  public static func named(_ name: String) -> AgentTool? {
    all.first { $0.name == name }
  }
}
