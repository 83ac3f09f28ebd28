import DocumentEngine
import EditingTraces
import Foundation
import TextBoundaries
import TextRope

/// A refused request: its protocol code and a message for people.
public struct REPLError: Error, Sendable {
  /// The protocol's error code (`badRequest`, `outOfRange`, `io`,
  /// `tooLarge`…).
  public var code: String
  /// What went wrong, for people.
  public var message: String

  /// An error with `code` and `message`.
  public init(_ code: String, _ message: String) {
    self.code = code
    self.message = message
  }

  /// A `badRequest` error.
  public static func badRequest(_ message: String) -> REPLError {
    REPLError("badRequest", message)
  }
}

/// The engine calls behind both faces of the REPL: one request (a JSON
/// object) in, one response out. A refused request changes nothing.
public final class REPLEngine {
  /// The document the requests act on; it keeps every storage's whole
  /// history.
  public let document = Document(keepsAllHistory: true)
  /// How big the files that `add`, `--load` and `replay` read may be.
  public var limits: REPLLimits
  /// The contexts of the current session, in order (for human mode's
  /// numbers).
  private(set) var contexts: [WritingContext] = []
  /// Where `load` progress goes (stderr on a terminal), if anywhere.
  public var progress: ((String) -> Void)? = nil

  /// An engine on an empty document.
  public init(limits: REPLLimits = REPLLimits()) {
    self.limits = limits
  }

  /// Handles one request; never throws.
  public func handle(_ request: JSON) -> JSON {
    do {
      var fields = try respond(to: request)
      fields.insert(("ok", .bool(true)), at: 0)
      return .object(fields)
    } catch {
      return Self.failure(error)
    }
  }

  /// One line of the `--json` protocol in (its bytes, without the
  /// newline), its one response line out (without a newline): a line that
  /// is not UTF-8 is answered `invalidUTF8`, one that is not JSON
  /// `badRequest`, any other goes to ``handle(_:)``. `quit` is true for an
  /// accepted `quit` request, after which the program stops reading.
  public func handleLine(_ bytes: [UInt8]) -> (response: String, quit: Bool) {
    guard String(validating: bytes, as: UTF8.self) != nil else {
      let error = REPLError("invalidUTF8", "the line is not UTF-8")
      return (JSONWriter.write(Self.failure(error)), false)
    }
    let request: JSON
    do {
      request = try JSONReader.parse(bytes)
    } catch {
      return (JSONWriter.write(Self.failure(.badRequest("\(error)"))), false)
    }
    let response = handle(request)
    let quit = request["cmd"] == .string("quit") && response["ok"] == .bool(true)
    return (JSONWriter.write(response), quit)
  }

  /// One line from a ``LineReader`` in, its one response line out: a line
  /// that was too long is answered `tooLarge`, any other as by
  /// ``handleLine(_:)-([UInt8])``.
  public func handleLine(_ line: LineReader.Line) -> (response: String, quit: Bool) {
    switch line {
    case .line(let bytes): return handleLine(bytes)
    case .tooLong(let count, let limit):
      return (JSONWriter.write(Self.failure(Self.lineTooLong(count, limit))), false)
    }
  }

  /// The error for a line of `count` bytes over the line length `limit`.
  public static func lineTooLong(_ count: Int, _ limit: Int) -> REPLError {
    REPLError(
      "tooLarge",
      "the line has \(count) bytes, over the line length limit of \(limit) bytes; it was "
        + "skipped (raise the limit with --max-line-bytes)")
  }

  /// The response that refuses a request with `error`.
  public static func failure(_ error: REPLError) -> JSON {
    .object([
      ("ok", .bool(false)),
      ("error", .object([("code", .string(error.code)), ("message", .string(error.message))])),
    ])
  }

  // MARK: Reading requests

  struct Request {
    let json: JSON

    func field(_ key: String) -> JSON? {
      guard let value = json[key], value != .null else { return nil }
      return value
    }

    func string(_ key: String) throws(REPLError) -> String {
      guard let value = field(key) else { throw .badRequest("missing field '\(key)'") }
      guard case .string(let s) = value else { throw .badRequest("'\(key)' must be a string") }
      return s
    }

    func optionalString(_ key: String) throws(REPLError) -> String? {
      guard field(key) != nil else { return nil }
      return try string(key)
    }

    func int(_ key: String) throws(REPLError) -> Int {
      guard let value = field(key) else { throw .badRequest("missing field '\(key)'") }
      return try Self.int(value, key)
    }

    func optionalInt(_ key: String) throws(REPLError) -> Int? {
      guard field(key) != nil else { return nil }
      return try int(key)
    }

    static func int(_ value: JSON, _ key: String) throws(REPLError) -> Int {
      switch value {
      case .int(let n): return n
      case .double(let d):
        guard d == d.rounded(), let n = Int(exactly: d) else {
          throw .badRequest("'\(key)' must be an integer that fits in 64 bits")
        }
        return n
      default: throw .badRequest("'\(key)' must be an integer")
      }
    }

    func array(_ key: String) throws(REPLError) -> [JSON] {
      guard let value = field(key) else { throw .badRequest("missing field '\(key)'") }
      guard case .array(let items) = value else { throw .badRequest("'\(key)' must be an array") }
      return items
    }

    func object(_ key: String) throws(REPLError) -> Request {
      guard let value = field(key) else { throw .badRequest("missing field '\(key)'") }
      guard case .object = value else { throw .badRequest("'\(key)' must be an object") }
      return Request(json: value)
    }

    func unit() throws(REPLError) -> TextUnit {
      switch try optionalString("unit") {
      case nil, "utf16": return .utf16
      case "scalar", "scalars": return .unicodeScalars
      case "utf8": return .utf8
      case let other?: throw .badRequest("unknown unit '\(other)' (utf16, scalar or utf8)")
      }
    }
  }

  // MARK: Errors

  static func error(_ error: DocumentError) -> REPLError {
    switch error {
    case .unknownStorage(let id): return REPLError("unknownStorage", "no storage '\(id)'")
    case .duplicateStorage(let id):
      return REPLError("duplicateStorage", "a storage '\(id)' exists already")
    case .invalidRange(let id, let rope): return Self.error(rope, in: id)
    case .unknownContext(let id): return REPLError("unknownContext", "no live context \(id)")
    case .noSession: return REPLError("noSession", "no session: ask for contexts first")
    case .outsideContext(let range, let length):
      return REPLError(
        "outOfRange",
        "range \(range.lowerBound)..<\(range.upperBound) runs past the context (length \(length))")
    case .conflict:
      return REPLError(
        "conflict", "an edit the tool had not seen touched the range; nothing was replaced")
    case .excluded(let range):
      return REPLError(
        "excluded",
        "range \(range.lowerBound)..<\(range.upperBound) touches text excluded from Writing Tools")
    case .staleVersion(let version):
      return REPLError("staleVersion", "version \(version) is not known")
    case .staleContextVersion(let version):
      return REPLError("staleVersion", "context version \(version) is not known")
    case .batchRefused(_, let inner):
      return Self.error(inner)
    case .invalidStateTransition(let from, let to):
      return REPLError("invalidState", "cannot go from \(from.rawValue) to \(to.rawValue)")
    case .negativeCount(let count):
      return REPLError("badRequest", "the count \(count) must not be negative")
    }
  }

  static func error(_ error: RopeError, in id: StorageID? = nil) -> REPLError {
    let place = id.map { " in '\($0)'" } ?? ""
    switch error {
    case .offsetOutOfBounds(let offset, _, let count):
      return REPLError("outOfRange", "offset \(offset) is out of bounds\(place) (length \(count))")
    case .paragraphOutOfBounds(let number, let count):
      return REPLError("outOfRange", "paragraph \(number) is out of bounds\(place) (\(count))")
    case .splitsSurrogatePair(let offset):
      return REPLError("splitsSurrogatePair", "offset \(offset) splits a surrogate pair\(place)")
    case .splitsScalar(let offset):
      return REPLError("outOfRange", "UTF-8 offset \(offset) splits a scalar\(place)")
    case .invalidUTF8(let offset):
      return REPLError("invalidUTF8", "invalid UTF-8 at byte \(offset)")
    }
  }

  // MARK: Conversions

  func storage(_ id: String) throws(REPLError) -> TextStorage {
    do {
      return try document.content.storage(StorageID(id))
    } catch {
      throw Self.error(error)
    }
  }

  /// A range in `unit` of a storage, as UTF-16.
  func utf16Range(
    _ offset: Int, _ length: Int, in text: Rope, unit: TextUnit, id: String
  ) throws(REPLError) -> Range<Int> {
    guard length >= 0 else { throw .badRequest("'length' must not be negative") }
    guard offset >= 0, offset <= Int.max - length else {
      throw REPLError("outOfRange", "offset \(offset) is out of bounds in '\(id)'")
    }
    do {
      let a = try text.convert(offset, from: unit, to: .utf16)
      let b = try text.convert(offset + length, from: unit, to: .utf16)
      // Bounds inside a surrogate pair are errors, not rounded.
      _ = try text.utf8Offset(of: a, in: .utf16)
      _ = try text.utf8Offset(of: b, in: .utf16)
      return a..<b
    } catch {
      throw Self.error(error, in: StorageID(id))
    }
  }

  func offset(_ utf16: Int, in text: Rope, unit: TextUnit) -> Int {
    unit == .utf16 ? utf16 : ((try? text.convert(utf16, from: .utf16, to: unit)) ?? utf16)
  }

  func rangeJSON(_ range: Range<Int>, in text: Rope? = nil, unit: TextUnit = .utf16) -> JSON {
    guard let text, unit != .utf16 else {
      return .object([("offset", .int(range.lowerBound)), ("length", .int(range.count))])
    }
    let a = offset(range.lowerBound, in: text, unit: unit)
    let b = offset(range.upperBound, in: text, unit: unit)
    return .object([("offset", .int(a)), ("length", .int(b - a))])
  }

  func eventsJSON(_ events: [DocumentEvent]) -> JSON {
    .array(
      events.map { event in
        switch event {
        case .textUpdated(let context, let range, let text, let version):
          return .object([
            ("kind", .string("textUpdated")), ("context", .string(context.uuidString)),
            ("range", rangeJSON(range)), ("text", .string(text)),
            ("contextVersion", .int(version.rawValue)),
          ])
        case .reflowed(let context, _):
          return .object([("kind", .string("reflowed")), ("context", .string(context.uuidString))])
        }
      })
  }

  func contextID(_ request: Request) throws(REPLError) -> UUID {
    let text = try request.string("context")
    guard let id = UUID(uuidString: text) else {
      throw REPLError("unknownContext", "no live context '\(text)'")
    }
    return id
  }

  func position(_ request: Request) throws(REPLError) -> TextPosition {
    let id = try request.string("storage")
    let text = try storage(id).text
    let unit = try request.unit()
    let range = try utf16Range(try request.int("offset"), 0, in: text, unit: unit, id: id)
    return TextPosition(StorageID(id), range.lowerBound)
  }

  func selectionRanges(_ items: [JSON], unit: TextUnit) throws(REPLError) -> [SelectionRange] {
    var result: [SelectionRange] = []
    for item in items {
      guard case .object = item else { throw .badRequest("each range must be an object") }
      let r = Request(json: item)
      let id = try r.string("storage")
      let text = try storage(id).text
      let range = try utf16Range(
        try r.int("offset"), try r.int("length"), in: text, unit: unit, id: id)
      result.append(SelectionRange(StorageID(id), range))
    }
    return result
  }

  // MARK: Commands

  func respond(to json: JSON) throws(REPLError) -> [(String, JSON)] {
    guard case .object = json else { throw REPLError.badRequest("a request must be a JSON object") }
    let request = Request(json: json)
    let command = try request.string("cmd")
    // A unit, where given, must be one the protocol knows.
    _ = try request.unit()
    do {
      switch command {
      case "add": return try add(request)
      case "remove":
        try document.remove(StorageID(try request.string("storage")))
        return []
      case "storages":
        let content = document.content
        return [
          (
            "storages",
            .array(
              content.order.compactMap { id in
                guard let storage = try? content.storage(id) else { return nil }
                return .object([
                  ("storage", .string(id.rawValue)), ("length", .int(storage.length)),
                  ("version", .int(storage.version.rawValue)),
                ])
              })
          )
        ]
      case "text":
        let id = try request.string("storage")
        let storage = try storage(id)
        var range = 0..<storage.length
        if request.field("range") != nil {
          let r = try request.object("range")
          range = try utf16Range(
            try r.int("offset"), try r.int("length"), in: storage.text, unit: try request.unit(),
            id: id)
        }
        let text = (try? storage.text.slice(range)).map(String.init) ?? ""
        return [("text", .string(text)), ("version", .int(storage.version.rawValue))]
      case "edit": return try edit(request)
      case "select":
        let unit = try request.unit()
        if request.field("ranges") != nil {
          try document.select(try selectionRanges(try request.array("ranges"), unit: unit))
        } else {
          let from = try position(try request.object("from"))
          let to = try position(try request.object("to"))
          try document.select([SelectionRange(from: from, to: to)])
        }
        return []
      case "visible":
        var visible: [StorageID: Range<Int>] = [:]
        for range in try selectionRanges(try request.array("ranges"), unit: try request.unit()) {
          visible[range.start.storage] = range.start.offset..<range.end.offset
        }
        try document.setVisible(visible)
        return []
      case "exclude":
        let id = try request.string("storage")
        let range = try utf16Range(
          try request.int("offset"), try request.int("length"), in: try storage(id).text,
          unit: try request.unit(), id: id)
        try document.setExcluded(true, StorageID(id), range: range)
        return []
      case "contexts": return try contextsCommand(request)
      case "replace": return try replace(request)
      case "toolSelect":
        var ranges: [Range<Int>] = []
        for item in try request.array("ranges") {
          guard case .object = item else {
            throw REPLError.badRequest("each range must be an object")
          }
          let r = Request(json: item)
          let offset = try r.int("offset")
          let length = try r.int("length")
          guard length >= 0, offset >= 0, offset <= Int.max - length else {
            throw REPLError("outOfRange", "range \(offset), \(length) is not in the context")
          }
          ranges.append(offset..<(offset + length))
        }
        let selection = try document.toolSelect(context: try contextID(request), ranges: ranges)
        return [
          (
            "selection",
            .array(
              selection.map {
                .object([
                  ("storage", .string($0.start.storage.rawValue)),
                  ("offset", .int($0.start.offset)),
                  ("length", .int($0.end.offset - $0.start.offset)),
                ])
              })
          )
        ]
      case "state":
        let name = try request.string("state")
        guard let state = WritingToolsState(rawValue: name) else {
          throw REPLError.badRequest(
            "unknown state '\(name)' (inactive, noninteractive, interactiveResting, "
              + "interactiveStreaming)")
        }
        try document.setState(state)
        return [("state", .string(state.rawValue))]
      case "undo": return [("events", eventsJSON(try document.undo()))]
      case "redo": return [("events", eventsJSON(try document.redo()))]
      case "revert":
        let reverted = try document.revert()
        return [("reverted", .int(reverted.reverted)), ("events", eventsJSON(reverted.events))]
      case "end":
        guard document.session != nil else { throw REPLError("noSession", "no session to end") }
        document.endSession()
        contexts = []
        return []
      case "map":
        let id = try request.string("storage")
        let assoc = try request.optionalInt("assoc") ?? 1
        guard assoc == 1 || assoc == -1 else {
          throw REPLError.badRequest("'assoc' must be -1 or 1")
        }
        let mapped = try document.map(
          StorageID(id), try request.int("offset"), from: StorageVersion(try request.int("from")),
          bias: assoc < 0 ? .left : .right)
        return [("offset", .int(mapped.offset)), ("deleted", .bool(mapped.deleted))]
      case "locate":
        let offset = try request.int("offset")
        do {
          let position = try document.content.locate(offset)
          return [("storage", .string(position.storage.rawValue)), ("offset", .int(position.offset))]
        } catch {
          throw REPLError("outOfRange", "document offset \(offset) is out of bounds")
        }
      case "paragraph":
        let id = try request.string("storage")
        let text = try storage(id).text
        let unit = try request.unit()
        let at = try utf16Range(try request.int("offset"), 0, in: text, unit: unit, id: id)
        do {
          let (range, contentsEnd) = try text.paragraph(containing: at.lowerBound)
          return [
            ("range", rangeJSON(range, in: text, unit: unit)),
            ("contentsEnd", .int(offset(contentsEnd, in: text, unit: unit))),
          ]
        } catch {
          throw Self.error(error, in: StorageID(id))
        }
      case "graphemes": return try graphemes(request)
      case "replay": return try replay(request)
      case "quit": return []
      default: throw REPLError.badRequest("unknown cmd '\(command)'")
      }
    } catch let error as DocumentError {
      throw Self.error(error)
    } catch let error as REPLError {
      throw error
    } catch {
      throw REPLError("badRequest", "\(error)")
    }
  }

  func add(_ request: Request) throws(REPLError) -> [(String, JSON)] {
    let id = try request.string("storage")
    let after = try request.optionalString("after").map { StorageID($0) }
    let text: Rope
    if let path = try request.optionalString("path") {
      text = try Loading.load(path, maxBytes: limits.maxFileBytes, progress: progress)
    } else {
      text = Rope(try request.string("text"))
    }
    do throws(DocumentError) {
      try document.add(StorageID(id), text: text, after: after)
    } catch {
      throw Self.error(error)
    }
    return [("storage", .string(id)), ("length", .int(text.utf16Count)), ("version", .int(0))]
  }

  func edit(_ request: Request) throws(REPLError) -> [(String, JSON)] {
    let id = try request.string("storage")
    let storage = try storage(id)
    let unit = try request.unit()
    let basis = try request.optionalInt("basis")
    let origin = try request.optionalString("origin")
    let offset = try request.int("offset")
    let length = try request.int("length")
    let text = try request.string("text")
    guard length >= 0, offset >= 0, offset <= Int.max - length else {
      throw REPLError("outOfRange", "range \(offset), \(length) is out of bounds in '\(id)'")
    }
    // Other units convert in the current text (an edit on an older basis is
    // given in UTF-16).
    var range = offset..<(offset + length)
    if unit != .utf16 {
      range = try utf16Range(offset, length, in: storage.text, unit: unit, id: id)
    }
    do {
      let result = try document.edit(
        StorageID(id), range: range, with: text, origin: origin, basis: basis.map { StorageVersion($0) })
      let now = (try? document.content.storage(StorageID(id)).text) ?? Rope()
      return [
        ("version", .int(result.version.rawValue)),
        ("range", rangeJSON(result.range, in: now, unit: unit)),
        ("events", eventsJSON(result.events)),
      ]
    } catch {
      throw Self.error(error)
    }
  }

  func contextsCommand(_ request: Request) throws(REPLError) -> [(String, JSON)] {
    let name = try request.string("scope")
    guard let scope = ContextScope(rawValue: name) else {
      throw .badRequest("unknown scope '\(name)' (userSelection, fullDocument, visibleArea)")
    }
    let extra = try request.optionalInt("surroundingParagraphs") ?? 0
    guard extra >= 0 else { throw .badRequest("'surroundingParagraphs' must not be negative") }
    if extra > 0 && scope != .userSelection {
      throw .badRequest("'surroundingParagraphs' is for the userSelection scope")
    }
    do {
      let session = try document.startSession(scope: scope, surroundingParagraphs: extra)
      contexts = session.contexts
      return [("contexts", .array(contexts.map(contextJSON)))]
    } catch {
      throw Self.error(error)
    }
  }

  func contextJSON(_ context: WritingContext) -> JSON {
    .object([
      ("id", .string(context.id.uuidString)), ("storage", .string(context.storage.rawValue)),
      ("storageRange", rangeJSON(context.storageRange)), ("text", .string(String(context.text))),
      ("range", rangeJSON(context.range)),
      ("excluded", .array(context.excluded.map { rangeJSON($0) })),
      ("version", .int(context.version.rawValue)),
      ("contextVersion", .int(context.contextVersion.rawValue)),
    ])
  }

  func replace(_ request: Request) throws(REPLError) -> [(String, JSON)] {
    let id = try contextID(request)
    let offset = try request.int("offset")
    let length = try request.int("length")
    let text = try request.string("text")
    let basis = try request.optionalInt("basis")
    let policyName = try request.optionalString("policy") ?? "refuse"
    guard let policy = ReplacementPolicy(rawValue: policyName) else {
      throw .badRequest("unknown policy '\(policyName)' (refuse or merge)")
    }
    guard length >= 0, offset >= 0, offset <= Int.max - length else {
      throw REPLError("outOfRange", "range \(offset), \(length) is not in the context")
    }
    do {
      let result = try document.replace(
        context: id, range: offset..<(offset + length), with: text,
        basis: basis.map { ContextVersion($0) }, policy: policy)
      return [
        ("storage", .string(result.storage.rawValue)),
        ("storageRange", rangeJSON(result.storageRange)),
        ("contextVersion", .int(result.contextVersion.rawValue)),
        ("events", eventsJSON(result.events)),
      ]
    } catch {
      throw Self.error(error)
    }
  }

  func graphemes(_ request: Request) throws(REPLError) -> [(String, JSON)] {
    let id = try request.string("storage")
    let text = try storage(id).text
    let unit = try request.unit()
    var range = 0..<text.utf16Count
    if request.field("range") != nil {
      let r = try request.object("range")
      range = try utf16Range(try r.int("offset"), try r.int("length"), in: text, unit: unit, id: id)
    }
    do {
      var boundaries = try text.graphemeClusters.boundaries(in: range)
      // The range's own ends are always listed.
      if boundaries.first != range.lowerBound { boundaries.insert(range.lowerBound, at: 0) }
      if boundaries.last != range.upperBound { boundaries.append(range.upperBound) }
      return [("boundaries", .array(boundaries.map { .int(offset($0, in: text, unit: unit)) }))]
    } catch {
      switch error {
      case .invalidOffset(let rope): throw Self.error(rope, in: StorageID(id))
      case .icuUnavailable(let message): throw REPLError("icuUnavailable", message)
      case .textTooLong: throw REPLError("outOfRange", "\(error)")
      }
    }
  }

  func replay(_ request: Request) throws(REPLError) -> [(String, JSON)] {
    let path = try request.string("path")
    let id = StorageID(try request.string("storage"))
    let trace: EditingTrace
    do {
      trace = try EditingTrace(contentsOf: path, limits: limits.trace)
    } catch {
      throw Self.error(error, path: path)
    }
    do {
      try document.add(id, text: Rope(trace.startContent))
    } catch {
      throw Self.error(error)
    }
    var edits = 0
    let clock = ContinuousClock()
    let start = clock.now
    do throws(REPLError) {
      for patch in trace.patches {
        // Trace positions count scalars: the document converts them. The
        // range is made only if its end does not overflow.
        let outOfRange = {
          let count = (try? self.document.content.storage(id).text.scalarCount) ?? 0
          return REPLError(
            "outOfRange",
            "edit \(edits) of the trace (delete \(patch.deleteCount) at \(patch.position)) "
              + "is out of bounds (length \(count) scalars)")
        }
        guard patch.position >= 0, patch.deleteCount >= 0,
          patch.deleteCount <= Int.max - patch.position
        else { throw outOfRange() }
        do {
          try document.edit(
            id, range: patch.position..<(patch.position + patch.deleteCount),
            in: .unicodeScalars, with: patch.insert)
        } catch .invalidRange(_, .offsetOutOfBounds) {
          throw outOfRange()
        } catch {
          throw REPLError("badRequest", "edit \(edits) of the trace does not apply: \(error)")
        }
        edits += 1
      }
    } catch {
      // A refused request changes nothing: the half-replayed storage goes.
      try? document.remove(id)
      throw error
    }
    let seconds = clock.now - start
    let final = String((try? document.content.storage(id).text) ?? Rope())
    let components = seconds.components
    return [
      ("storage", .string(id.rawValue)), ("edits", .int(edits)),
      (
        "seconds",
        .double(Double(components.seconds) + Double(components.attoseconds) / 1e18)
      ),
      ("matches", .bool(final == trace.endContent)),
    ]
  }

  static func error(_ error: EditingTrace.Failure, path: String) -> REPLError {
    switch error {
    case .fileTooLarge(_, let size, let limit):
      return REPLError(
        "tooLarge",
        "the trace '\(path)' has \(size) bytes, over the file size limit of \(limit) bytes "
          + "(raise it with --max-file-bytes)")
    case .inflatedTooLarge(_, let limit):
      return REPLError(
        "tooLarge",
        "the trace '\(path)' has more than \(limit) bytes of JSON text (inflated, for a .gz), "
          + "over the limit (raise it with --max-inflated-bytes)")
    case .invalidPatch:
      return REPLError("outOfRange", "the trace '\(path)' has a patch out of range: \(error)")
    case .io, .notARegularFile, .gzip, .json:
      return REPLError("io", "cannot read the trace '\(path)': \(error)")
    }
  }
}
