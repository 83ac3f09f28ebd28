import DocumentEngine
import DocumentMarkdown
import EditingTraces
import Foundation
import TextBoundaries
import TextRope

/// The REPL's engine: runs a ``Command`` on its document and returns a
/// ``Reply``; both faces of the REPL (``handleLine(_:)-([UInt8])`` for the
/// JSON protocol, ``HumanMode`` for people) go through ``run(_:)``.
public final class REPLEngine {
  /// The document the commands act on; by default one that keeps every
  /// storage's whole history, so that `map` and `basis` may name any
  /// version.
  public let document: Document
  /// How big the files that `add`, `--load` and `replay` read may be.
  public var limits: REPLLimits
  /// Where the progress of long work (`replay`, `add` of a file) goes:
  /// human mode's reporter; `nil` (the `--json` mode) for none.
  public var progress: ProgressReporter? = nil

  /// An engine on an empty document.
  public init(limits: REPLLimits = REPLLimits()) {
    self.document = Document(keepsAllChanges: true)
    self.limits = limits
  }

  /// An engine on `document`, which its owner edits too (the editor's,
  /// for the agents it serves).
  public init(document: Document, limits: REPLLimits = REPLLimits()) {
    self.document = document
    self.limits = limits
  }

  /// The current session's contexts in order: what human mode numbers from
  /// 1.
  public var contextIDs: [UUID] { document.session?.contexts.map(\.id) ?? [] }

  /// Runs `command` on the document.
  ///
  /// - Returns: what it did.
  /// - Throws: ``REPLError`` with the protocol's code; nothing changed.
  public func run(_ command: Command) throws(REPLError) -> Reply {
    do {
      return try execute(command)
    } catch {
      throw REPLError(error)
    }
  }

  private func execute(_ command: Command) throws -> Reply {
    switch command {
    case .add(let id, let source, let after, let unit, let attributes):
      let text: Rope
      switch source {
      case .text(let string): text = Rope(string)
      case .markdown(let markdown):
        try document.add(id, markdown: markdown, after: after)
        return .added(StorageInfo(try document.content.storage(id), unit: unit))
      case .file(let path):
        text = try Loading.load(path, maxBytes: limits.maxFileBytes, progress: progress)
      }
      try document.add(id, text: text, after: after, attributes: attributes)
      return .added(StorageInfo(try document.content.storage(id), unit: unit))
    case .remove(let id):
      try document.remove(id)
      return .ok
    case .storages(let unit):
      let content = document.content
      return .storages(
        content.order.compactMap { id in
          (try? content.storage(id)).map { StorageInfo($0, unit: unit) }
        })
    case .text(let id, let range, let unit, _, _, .markdown?):
      let storage = try document.content.storage(id)
      guard let range else { return .markdown(storage.markdown, version: storage.version) }
      // A part is written as its attributed text is (no source of its own).
      let utf16 = try self.utf16(range, in: unit, of: id)
      return .markdown(storage.attributedText(in: utf16).markdown, version: storage.version)
    case .text(let id, let range, let unit, let listsAttributes, let listsTracked, nil):
      let storage = try document.content.storage(id)
      let part = try range.map { (range) throws(DocumentError) in
        try onText(id) { (text) throws(RopeError) in try text.slice(range, in: unit) }
      }
      // Runs are asked for only in UTF-16 (Command(json:) sees to it), so
      // `range` is the part's UTF-16 range.
      let runs =
        listsAttributes ? storage.attributeRuns(in: range ?? 0..<storage.length) : nil
      let tracked = try listsTracked ? trackedRanges(of: id, in: range, unit: unit) : nil
      let suggestions = try listsTracked ? suggestions(of: id, in: range, unit: unit) : nil
      return .text(
        String(part ?? storage.text), version: storage.version, attributes: runs, tracked: tracked,
        suggestions: suggestions)
    case .edit(let edit):
      let result = try document.edit(edit)
      return .edited(
        edit.storage, version: result.version, range: result.unitRange, events: result.events,
        tracked: result.tracked)
    case .select(.ranges(let spans), let unit):
      try document.select(
        try spans.map { (span) throws(DocumentError) in
          SelectionRange(span.storage, try utf16(span.range, in: unit, of: span.storage))
        })
      return .ok
    case .select(.span(let from, let to), let unit):
      let start = try utf16(from.offset..<from.offset, in: unit, of: from.storage).lowerBound
      let end = try utf16(to.offset..<to.offset, in: unit, of: to.storage).lowerBound
      try document.select([
        SelectionRange(from: TextPosition(from.storage, start), to: TextPosition(to.storage, end))
      ])
      return .ok
    case .visible(let spans, let unit):
      var visible: [StorageID: Range<Int>] = [:]
      for span in spans {
        visible[span.storage] = try utf16(span.range, in: unit, of: span.storage)
      }
      try document.setVisible(visible)
      return .ok
    case .exclude(let span, let unit):
      let range = try utf16(span.range, in: unit, of: span.storage)
      try document.setExcluded(true, in: span.storage, range: range)
      return .ok
    case .setAttributes(let span, let changes, let unit):
      let range = try utf16(span.range, in: unit, of: span.storage)
      try document.setAttributes(changes, in: span.storage, range: range)
      return .attributesSet(
        span.storage, range: span.range, version: try document.content.storage(span.storage).version
      )
    case .track(let id, let ranges, let unit, let kind, let rules):
      // Each range is checked (and converted) before any is tracked.
      let utf16Ranges = try ranges.map { (range) throws(DocumentError) in
        try utf16(range, in: unit, of: id)
      }
      let ids = try document.track(utf16Ranges, in: id, kind: kind, rules: rules)
      return .tracking(id, ranges: ranges, ids: ids)
    case .tracked(let id, let range, let unit, let kind):
      let part = try range.map { (range) throws(DocumentError) in
        try utf16(range, in: unit, of: id)
      }
      let found =
        try part.map { (part) throws(DocumentError) in
          try document.trackedRanges(in: id, overlapping: part, kind: kind)
        } ?? allTrackedRanges(of: id, kind: kind)
      return .trackedRanges(
        id,
        try found.map {
          (tracked) throws(DocumentError) in
          var inUnit = tracked
          inUnit.range = try document.content.convert(tracked.range, in: id, from: .utf16, to: unit)
          return TrackedRangeInfo(
            inUnit,
            text: try onText(id) { (text) throws(RopeError) in
              try text.slice(tracked.range)
            })
        })
    case .untrack(let ids):
      try document.untrack(ids)
      return .untracked(ids)
    case .suggest(let target, let range, let kind, let explanation, let candidates):
      let proposed = [
        ProposedSuggestion(
          range, kind: kind, explanation: explanation, candidates: candidates.map(Self.candidate))
      ]
      let ids =
        switch target {
        case .storage(let id): try document.suggest(proposed, in: id)
        case .context(let context): try document.suggest(proposed, inContext: context)
        }
      return .suggested(try info(try document.suggestion(ids[0])))
    case .suggestions(let target, let range):
      let found =
        switch target {
        case .storage(let id): try document.suggestions(in: id, overlapping: range)
        case .context(let context): try document.suggestions(inContext: context)
        }
      return .suggestions(
        target, try found.map { (suggestion) throws(DocumentError) in try info(suggestion) })
    case .preview(let id, let candidate):
      return try reviewed(id, try document.preview(id, candidate: candidate))
    case .accept(let id, let candidate):
      return try reviewed(id, try document.accept(id, candidate: candidate))
    case .reject(let id):
      return try reviewed(id, try document.reject(id))
    case .contexts(let scope, let surroundingParagraphs, let resultOptions, let format):
      if surroundingParagraphs > 0 && scope != .userSelection {
        throw REPLError.badRequest("'surroundingParagraphs' is for the userSelection scope")
      }
      return .contexts(
        try document.startSession(
          scope: scope, surroundingParagraphs: surroundingParagraphs, resultOptions: resultOptions
        ).contexts, format: format)
    case .replace(let context, let range, .text(let text, let attributes), let basis, let policy):
      return .replaced(
        try document.replace(
          context: context, range: range, with: text, attributes: attributes, basis: basis,
          policy: policy))
    case .replace(let context, let range, .markdown(let markdown), let basis, let policy):
      let (result, landed) = try document.replace(
        context: context, range: range, markdown: markdown, basis: basis, policy: policy)
      return .replaced(result, text: landed.text)
    case .toolSelect(let context, let ranges):
      return .toolSelected(spans(of: try document.toolSelect(context: context, ranges: ranges)))
    case .state(let state):
      try document.setWritingToolsState(state)
      return .state(state)
    case .undo(let origin, let unit):
      var result = try document.undo(origin: origin)
      result.selection = spans(of: result.selection, in: unit)
      return .undone(result)
    case .redo(let origin, let unit):
      var result = try document.redo(origin: origin)
      result.selection = spans(of: result.selection, in: unit)
      return .redone(result)
    case .closeGroup(let origin):
      document.closeGroup(origin: origin)
      return .groupClosed(origin: origin)
    case .revert: return .reverted(try document.revert())
    case .end:
      guard document.session != nil else { throw DocumentError.noSession }
      document.endSession()
      return .ended
    case .map(let id, let offset, let version, let bias):
      return .mapped(
        offset: offset, from: version,
        to: try document.map(offset, in: id, from: version, bias: bias))
    case .locate(let offset):
      return .located(offset: offset, at: try document.content.locate(offset))
    case .paragraph(let id, let offset, let unit):
      let paragraph = try onText(id) { (text) throws(RopeError) in
        try text.paragraph(containing: offset, in: unit)
      }
      return .paragraph(paragraph.range, contentsEnd: paragraph.contentsEnd)
    case .graphemes(let id, let range, let unit):
      let text = try document.content.storage(id).text
      let part = try range.map { (range) throws(DocumentError) in
        try utf16(range, in: unit, of: id)
      }
      let whole = part ?? 0..<text.utf16Count
      var boundaries = try text.graphemeClusters.boundaries(in: whole)
      // The range's own ends are always listed.
      if boundaries.first != whole.lowerBound { boundaries.insert(whole.lowerBound, at: 0) }
      if boundaries.last != whole.upperBound { boundaries.append(whole.upperBound) }
      return .graphemes(
        try boundaries.map { (boundary) throws(RopeError) in
          try text.convert(boundary, from: .utf16, to: unit)
        })
    case .replay(let path, let id): return try replay(path, into: id)
    case .quit: return .quit
    }
  }

  /// A selection as the protocol writes it, each range inside one
  /// storage and in `unit`: a range that spans storages becomes its part
  /// in each (the first from its start to the storage's end, those between
  /// whole, the last from its start to the range's end), in document
  /// order.
  ///
  /// The document's selection is on scalar boundaries: a range it gives
  /// converts to any unit (one that would not stays in UTF-16, rather than
  /// refuse an undo that is done).
  private func spans(
    of selection: [SelectionRange], in unit: TextUnit = .utf16
  ) -> [SelectionRange] {
    let content = document.content
    let split = selection.flatMap { range -> [SelectionRange] in
      guard range.start.storage != range.end.storage,
        let first = content.order.firstIndex(of: range.start.storage),
        let last = content.order.firstIndex(of: range.end.storage), first < last
      else { return [range] }
      return content.order[first...last].map { id in
        let start = id == range.start.storage ? range.start.offset : 0
        let end =
          id == range.end.storage
          ? range.end.offset : ((try? content.storage(id).length) ?? start)
        return SelectionRange(id, start..<max(start, end))
      }
    }
    guard unit != .utf16 else { return split }
    return split.map { range in
      let id = range.start.storage
      let utf16 = range.start.offset..<max(range.start.offset, range.end.offset)
      guard let converted = try? content.convert(utf16, in: id, from: .utf16, to: unit) else {
        return range
      }
      return SelectionRange(id, converted)
    }
  }

  /// A candidate as the document takes it: text with its runs (plain
  /// text without), or the text and runs that Markdown stands for.
  private static func candidate(_ given: Command.Replacement) -> SuggestionCandidate {
    switch given {
    case .text(let text, let attributes): SuggestionCandidate(text, attributes: attributes)
    case .markdown(let markdown): SuggestionCandidate(markdown: markdown)
    }
  }

  /// A suggestion and its text now.
  private func info(_ suggestion: Suggestion) throws(DocumentError) -> SuggestionInfo {
    SuggestionInfo(
      suggestion,
      text: try onText(suggestion.storage) { (text) throws(RopeError) in
        try text.slice(suggestion.range)
      })
  }

  /// The reply to a preview, an accept or a reject of suggestion `id`:
  /// the result, and the text now at its `storageRange`.
  private func reviewed(
    _ id: SuggestionID, _ result: SuggestionResult
  ) throws(DocumentError) -> Reply {
    let text = try onText(result.storage) { (text) throws(RopeError) in
      try text.slice(result.storageRange)
    }
    return .reviewed(id, result, text: String(text))
  }

  /// The suggestions over storage `id`'s text, or over its part `range`
  /// (in `unit`), each cut to that text and relative to it (UTF-16, as
  /// attribute runs are): what `show` marks.
  private func suggestions(
    of id: StorageID, in range: Range<Int>?, unit: TextUnit
  ) throws(DocumentError) -> [Suggestion] {
    guard let range else { return try document.suggestions(in: id) }
    let part = try utf16(range, in: unit, of: id)
    return try document.suggestions(in: id, overlapping: part).map { (suggestion) in
      var cut = suggestion
      let start = max(suggestion.range.lowerBound, part.lowerBound)
      let end = max(start, min(suggestion.range.upperBound, part.upperBound))
      cut.range = (start - part.lowerBound)..<(end - part.lowerBound)
      return cut
    }
  }

  /// `body` on storage `id`'s text; an offset the rope refuses is the
  /// document's `invalidRange` of that storage.
  private func onText<Result>(
    _ id: StorageID, _ body: (Rope) throws(RopeError) -> Result
  ) throws(DocumentError) -> Result {
    let text = try document.content.storage(id).text
    do {
      return try body(text)
    } catch {
      throw .invalidRange(id, error)
    }
  }

  /// `range` (in `unit`) of storage `id`'s text as UTF-16, both bounds
  /// checked: in bounds, not inside a scalar or a surrogate pair.
  private func utf16(
    _ range: Range<Int>, in unit: TextUnit, of id: StorageID
  ) throws(DocumentError) -> Range<Int> {
    try document.content.convert(range, in: id, from: unit, to: .utf16)
  }

  /// Every host's tracked range of storage `id` (of kind `kind` if there
  /// is one), in position order, ties by id.
  ///
  /// `Document.trackedRanges(in:)` leaves out an empty range at the end of
  /// a text that is not empty (it asks for those overlapping `0..<length`,
  /// which an empty range at `length` does not): they are asked for apart,
  /// as those touching the end.
  private func allTrackedRanges(
    of id: StorageID, kind: String? = nil
  ) throws(DocumentError) -> [TrackedRange] {
    let length = try document.content.storage(id).length
    var all = try document.trackedRanges(in: id, kind: kind)
    let known = Set(all.map(\.id))
    let atEnd = try document.trackedRanges(in: id, overlapping: length..<length, kind: kind)
      .filter { !known.contains($0.id) }
    guard !atEnd.isEmpty else { return all }
    all += atEnd
    all.sort { ($0.range.lowerBound, $0.id) < ($1.range.lowerBound, $1.id) }
    return all
  }

  /// The host's tracked ranges over storage `id`'s text, or over its part
  /// `range` (in `unit`), each cut to that text and relative to it (UTF-16,
  /// as attribute runs are): what `show` marks.
  private func trackedRanges(
    of id: StorageID, in range: Range<Int>?, unit: TextUnit
  ) throws(DocumentError) -> [TrackedRange] {
    guard let range else { return try allTrackedRanges(of: id) }
    let part = try utf16(range, in: unit, of: id)
    return try document.trackedRanges(in: id, overlapping: part).map { (tracked) in
      var cut = tracked
      let start = max(tracked.range.lowerBound, part.lowerBound)
      let end = max(start, min(tracked.range.upperBound, part.upperBound))
      cut.range = (start - part.lowerBound)..<(end - part.lowerBound)
      return cut
    }
  }

  /// Replays the trace at `path` into a new storage `id`, one
  /// ``Document/edit(_:range:in:with:attributes:)`` per patch; if a patch does not
  /// apply, the storage goes again.
  private func replay(_ path: String, into id: StorageID) throws -> Reply {
    let trace: EditingTrace
    do {
      trace = try EditingTrace(contentsOf: path, limits: limits.trace)
    } catch {
      throw REPLError(error, path: path)
    }
    try document.add(id, text: Rope(trace.startContent))
    let clock = ContinuousClock()
    let start = clock.now
    let progress = self.progress
    progress?.begin("replaying \(path)", total: trace.patches.count, unit: .items("edits"))
    for (n, patch) in trace.patches.enumerated() {
      // Looks at the clock only every few thousand edits.
      progress?.tick(n)
      do throws(DocumentError) {
        // Trace positions count scalars, and a trace's patches end before
        // Int.max: the document converts them.
        try document.edit(
          id, range: patch.position..<(patch.position + patch.deleteCount), in: .unicodeScalars,
          with: patch.insert)
      } catch {
        // A refused request changes nothing: the half-replayed storage goes.
        try? document.remove(id)
        progress?.cancel()
        throw REPLError(
          REPLError.code(of: error),
          "edit \(n) of the trace (delete \(patch.deleteCount) at \(patch.position)) does not "
            + "apply: \(error)")
      }
    }
    let elapsed = (clock.now - start).components
    progress?.cancel()
    let final = String(try document.content.storage(id).text)
    return .replayed(
      id, edits: trace.patches.count,
      seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18,
      matches: final == trace.endContent)
  }
}
