import DocumentEngine
import DocumentMarkdown

extension Reply {
  /// The protocol's response: `"ok": true`, then the reply's fields in the
  /// order PROTOCOL.md lists them.
  public var json: JSON {
    .object([("ok", .bool(true))] + fields)
  }

  private var fields: [(String, JSON)] {
    switch self {
    case .ok, .ended, .quit, .groupClosed: []
    case .added(let storage): Self.fields(storage)
    case .storages(let storages):
      [("storages", .array(storages.map { .object(Self.fields($0)) }))]
    case .text(let text, let version, let runs, _, _):
      [("text", .string(text)), ("version", .int(version.rawValue))]
        + (runs.map { [("attributes", AttributesJSON.json($0))] } ?? [])
    case .markdown(let markdown, let version):
      [("markdown", .string(markdown)), ("version", .int(version.rawValue))]
    case .edited(_, let version, let range, let events, let tracked):
      [
        ("version", .int(version.rawValue)), ("range", Self.json(range)),
        ("events", Self.json(events)),
      ] + Self.fields(tracked)
    case .tracking(_, _, let ids): [("ids", Self.json(ids))]
    case .trackedRanges(_, let ranges):
      [
        (
          "ranges",
          .array(
            ranges.map {
              .object([
                ("id", .int($0.range.id.rawValue)), ("offset", .int($0.range.range.lowerBound)),
                ("length", .int($0.range.range.count)), ("kind", .string($0.range.kind)),
              ])
            })
        )
      ]
    case .untracked: []
    case .attributesSet(_, _, let version): [("version", .int(version.rawValue))]
    case .contexts(let contexts, let format):
      [("contexts", .array(contexts.map { Self.json($0, format: format) }))]
    case .suggested(let info): [("id", .int(info.suggestion.id.rawValue))]
    case .suggestions(_, let suggestions):
      [("suggestions", .array(suggestions.map { Self.json($0.suggestion) }))]
    case .reviewed(_, let result, _):
      [
        ("storage", .string(result.storage.rawValue)),
        ("storageRange", Self.json(result.storageRange)),
        ("reason", .string(result.reason.rawValue)), ("events", Self.json(result.events)),
      ] + Self.fields(result.tracked)
    case .replaced(let result, let text):
      [
        ("storage", .string(result.storage.rawValue)),
        ("storageRange", Self.json(result.storageRange)),
        ("contextVersion", .int(result.contextVersion.rawValue)),
        ("reason", .string(result.reason.rawValue)), ("events", Self.json(result.events)),
      ] + Self.fields(result.tracked) + (text.map { [("text", .string($0))] } ?? [])
    case .toolSelected(let selection): [("selection", Self.json(selection))]
    case .state(let state): [("state", .string(state.rawValue))]
    // `touched` and `removed` come right after `events`, as in every
    // change's response, then `restored` (when it brought any back);
    // `selection` last.
    case .undone(let result), .redone(let result):
      [("events", Self.json(result.events))] + Self.fields(result.tracked)
        + (result.restored.isEmpty ? [] : [("restored", Self.json(result.restored))])
        + [("selection", Self.json(result.selection))]
    case .reverted(let result):
      [("reverted", .int(result.replacementCount)), ("events", Self.json(result.events))]
        + Self.fields(result.tracked)
    case .mapped(_, _, let mapped):
      [("offset", .int(mapped.offset)), ("deleted", .bool(mapped.deleted))]
    case .located(_, let position):
      [("storage", .string(position.storage.rawValue)), ("offset", .int(position.offset))]
    case .paragraph(let range, let contentsEnd):
      [("range", Self.json(range)), ("contentsEnd", .int(contentsEnd))]
    case .graphemes(let boundaries): [("boundaries", .array(boundaries.map(JSON.int)))]
    case .replayed(let storage, let edits, let seconds, let matches):
      [
        ("storage", .string(storage.rawValue)), ("edits", .int(edits)),
        ("seconds", .double(seconds)),
        ("matches", .bool(matches)),
      ]
    }
  }

  private static func fields(_ storage: StorageInfo) -> [(String, JSON)] {
    [
      ("storage", .string(storage.id.rawValue)), ("length", .int(storage.length)),
      ("version", .int(storage.version.rawValue)),
    ]
  }

  /// `touched` and `removed`, each left out when it is empty: the host's
  /// tracked ranges a change touched (kept) or removed.
  private static func fields(_ tracked: TrackedChanges) -> [(String, JSON)] {
    (tracked.touched.isEmpty ? [] : [("touched", json(tracked.touched))])
      + (tracked.removed.isEmpty ? [] : [("removed", json(tracked.removed))])
  }

  /// A selection: each range (inside one storage) as its `storage`,
  /// `offset` and `length`.
  private static func json(_ selection: [SelectionRange]) -> JSON {
    .array(
      selection.map {
        .object([
          ("storage", .string($0.start.storage.rawValue)), ("offset", .int($0.start.offset)),
          ("length", .int($0.end.offset - $0.start.offset)),
        ])
      })
  }

  private static func json(_ ids: [TrackedRangeID]) -> JSON {
    .array(ids.map { .int($0.rawValue) })
  }

  private static func json(_ range: Range<Int>) -> JSON {
    .object([("offset", .int(range.lowerBound)), ("length", .int(range.count))])
  }

  /// A suggestion's fields: its range in the context asked about, else in
  /// its storage; its candidates, each with its runs (`[]` for plain
  /// text); and, while one is previewed, which.
  private static func json(_ suggestion: Suggestion) -> JSON {
    let range = suggestion.contextRange ?? suggestion.range
    return .object(
      [
        ("id", .int(suggestion.id.rawValue)), ("offset", .int(range.lowerBound)),
        ("length", .int(range.count)), ("kind", .string(suggestion.kind.rawValue)),
        ("explanation", .string(suggestion.explanation)),
        (
          "candidates",
          .array(
            suggestion.candidates.map {
              .object([
                ("text", .string($0.text)),
                ("attributes", AttributesJSON.json($0.attributes ?? [])),
              ])
            })
        ),
      ] + (suggestion.previewed.map { [("previewed", .int($0))] } ?? []))
  }

  /// A context's fields, and with a `format` the context written in it.
  private static func json(_ context: WritingContext, format: ContextFormat?) -> JSON {
    let written: [(String, JSON)] =
      switch format {
      case nil: []
      case .markdown: [("markdown", .string(context.markdown))]
      }
    return .object(
      [
        ("id", .string(context.id.uuidString)), ("storage", .string(context.storage.rawValue)),
        ("storageRange", json(context.storageRange)), ("text", .string(String(context.text))),
        ("range", json(context.range)), ("excluded", .array(context.excluded.map(json))),
        ("version", .int(context.version.rawValue)),
        ("contextVersion", .int(context.contextVersion.rawValue)),
        ("attributes", AttributesJSON.json(context.attributes)),
      ] + written)
  }

  private static func json(_ events: [DocumentEvent]) -> JSON {
    .array(
      events.map { event in
        switch event {
        case .textUpdated(let context, let range, let text, let version, let reason):
          .object([
            ("kind", .string("textUpdated")), ("context", .string(context.uuidString)),
            ("range", json(range)), ("text", .string(text)),
            ("contextVersion", .int(version.rawValue)), ("reason", .string(reason.name)),
          ])
        case .missed(let count):
          .object([("kind", .string("missed")), ("count", .int(count))])
        case .reflowed(let context, _):
          .object([("kind", .string("reflowed")), ("context", .string(context.uuidString))])
        // Results carry their tracked ranges in `touched` and `removed`;
        // only observers hear this event.
        case .tracked(let changes):
          .object([
            ("kind", .string("tracked")),
            ("touched", .array(changes.touched.map { .int($0.rawValue) })),
            ("removed", .array(changes.removed.map { .int($0.rawValue) })),
          ])
        }
      })
  }
}

extension REPLError {
  /// The protocol's failure response: `"ok": false` and the error's code
  /// and message.
  public var json: JSON {
    .object([
      ("ok", .bool(false)),
      ("error", .object([("code", .string(code)), ("message", .string(message))])),
    ])
  }
}
