import DocumentEngine
import DocumentMarkdown
import Foundation
import TextRope

extension Reply {
  /// The reply as text for a person: a line or a few, separators and
  /// controls shown as symbols, contexts with their parts marked.
  ///
  /// - Parameters:
  ///   - contexts: the current session's contexts in order, so that events
  ///     name a context by its number (as `replace 1 …` does).
  ///   - styled: whether the output goes to a terminal, which shows
  ///     attributes with ANSI styles; otherwise they are marked with text
  ///     (see ``MarkedText``), and the output is the same on every run.
  public func text(numbering contexts: [UUID], styled: Bool = false) -> String {
    func name(_ context: UUID) -> String {
      contexts.firstIndex(of: context).map { "[\($0 + 1)]" } ?? "[\(context.uuidString.prefix(8))]"
    }
    func lines(
      _ first: String, _ events: [DocumentEvent], _ tracked: TrackedChanges = TrackedChanges()
    ) -> String {
      ([first] + events.map { "  event: " + Self.text($0, $0.context.map(name) ?? "") }
        + Self.lines(tracked))
        .joined(separator: "\n")
    }
    switch self {
    case .ok: return "ok"
    case .added(let storage):
      return "added \(storage.id): \(storage.length) units, version \(storage.version)"
    case .storages(let storages):
      if storages.isEmpty { return "no storages" }
      return storages.map(Self.line).joined(separator: "\n")
    case .text(let text, let version, let runs, let tracked, let suggestions):
      let (tracked, suggestions) = (tracked ?? [], suggestions ?? [])
      let (marks, numbered) = MarkedText.rangeMarks(
        tracked: tracked, suggestions: suggestions, styled: styled)
      let marked = MarkedText(styled: styled, symbols: false).render(
        text, runs: runs ?? [], marks: marks, underlined: tracked.map(\.range),
        curly: suggestions.map(\.range))
      return "\(marked)\n(version \(version)"
        + "\(Self.note(tracked, suggestions, numbered, styled: styled)))"
    case .markdown(let markdown, let version):
      return "\(markdown)\n(version \(version))"
    case .edited(let id, let version, let range, let events, let tracked):
      return lines(
        "\(id) is now at version \(version); the new text is at \(Self.text(range))", events,
        tracked)
    case .tracking(let id, let ranges, let ids):
      if ids.isEmpty { return "tracked nothing" }
      return zip(ranges, ids).map { "tracked \(id) \(Self.text($0)) as \($1)" }
        .joined(separator: "\n")
    case .trackedRanges(let id, let ranges):
      if ranges.isEmpty { return "no tracked ranges in \(id)" }
      return ranges.map(Self.line).joined(separator: "\n")
    case .untracked(let ids):
      if ids.isEmpty { return "untracked nothing" }
      return "untracked " + ids.map(\.description).joined(separator: ", ")
    case .suggested(let info):
      let suggestion = info.suggestion
      return "suggested \(suggestion.id) in \(suggestion.storage): "
        + Self.line(info, styled: styled)
    case .suggestions(let target, let suggestions):
      if suggestions.isEmpty {
        switch target {
        case .storage(let id): return "no suggestions in \(id)"
        case .context(let context): return "no suggestions in context \(name(context))"
        }
      }
      return suggestions.map { "  \($0.suggestion.id) " + Self.line($0, styled: styled) }
        .joined(separator: "\n")
    case .reviewed(let id, let result, let text):
      let verb =
        switch result.reason {
        case .temporary: "previewing"
        case .accepted: "accepted"
        case .rejected: "rejected"
        case .interactive, .noninteractive: "replaced"
        }
      return lines(
        "\(verb) \(id): \(result.storage) \(Self.text(result.storageRange)) "
          + "\(result.reason == .rejected ? "is" : "is now") \"\(Self.visible(text))\"",
        result.events, result.tracked)
    case .attributesSet(let id, let range, let version):
      return "set the attributes of \(id) \(Self.text(range)); \(id) stays at version \(version)"
    case .contexts(let contexts, let format):
      return Self.text(contexts, format: format, styled: styled)
    case .replaced(let result, let text):
      return lines(
        "replaced: \(result.storage) \(Self.text(result.storageRange)), "
          + "context version \(result.contextVersion)"
          + (text.map { "; the Markdown's text: \"\(Self.visible($0))\"" } ?? ""), result.events,
        result.tracked)
    case .toolSelected(let selection):
      return "selected "
        + selection.map { "\($0.start.storage) \($0.start.offset)..<\($0.end.offset)" }
        .joined(separator: ", ")
    case .state(let state): return "state: \(state.rawValue)"
    // With nothing to undo or redo the engine throws: a reply is always
    // something done, even outside every live context (no event).
    case .undone(let result):
      return lines("undo done" + Self.text(result.selection), result.events, result.tracked)
        + Self.restoredLine(result.restored)
    case .redone(let result):
      return lines("redo done" + Self.text(result.selection), result.events, result.tracked)
        + Self.restoredLine(result.restored)
    case .groupClosed(let origin):
      return (origin.map { "\($0)'s" } ?? "the person's")
        + " undo group is closed: the next edit starts a new one"
    case .reverted(let result):
      return lines(
        "reverted \(result.replacementCount) replacement(s)", result.events, result.tracked)
    case .ended: return "session ended"
    case .mapped(let offset, let from, let mapped):
      return
        "offset \(offset) of version \(from) is now \(mapped.offset) "
        + "(the character on its side deleted: \(mapped.deleted ? "yes" : "no"))"
    case .located(let offset, let position):
      return "document offset \(offset) is \(position.storage) offset \(position.offset)"
    case .paragraph(let range, let contentsEnd):
      return "paragraph \(Self.text(range)), contents end at \(contentsEnd)"
    case .graphemes(let boundaries):
      return "boundaries: " + boundaries.map(String.init).joined(separator: " ")
    case .replayed(let id, let edits, let seconds, let matches):
      return
        "replayed \(ProgressReporter.grouped(edits)) edits into \(id) in "
        + "\(String(format: "%.3f", seconds)) s, \(Self.rate(edits, seconds)); "
        + "the final text matches: \(matches ? "yes" : "NO")"
    case .quit: return "bye"
    }
  }

  /// `count` in `seconds` as "633,605 a second".
  private static func rate(_ count: Int, _ seconds: Double) -> String {
    guard seconds > 0 else { return "– a second" }
    return "\(ProgressReporter.grouped(Int((Double(count) / seconds).rounded()))) a second"
  }

  private static func text(_ range: Range<Int>) -> String {
    "\(range.lowerBound)..<\(range.upperBound)"
  }

  /// The selection after an undo or a redo (each range inside one
  /// storage), after a semicolon: `; the caret is at body 12`, `; the
  /// selection is body 3..<7`; nothing without a selection.
  private static func text(_ selection: [SelectionRange]) -> String {
    switch selection.count {
    case 0: return ""
    case 1 where selection[0].isCaret:
      return "; the caret is at \(selection[0].start.storage) \(selection[0].start.offset)"
    default:
      return "; the selection is "
        + selection.map { "\($0.start.storage) \($0.start.offset)..<\($0.end.offset)" }
        .joined(separator: ", ")
    }
  }

  private static func text(_ event: DocumentEvent, _ context: String) -> String {
    switch event {
    case .reflowed: "context \(context) moved"
    case .tracked(let changes):
      "tracked ranges touched \(changes.touched.map(\.description).joined(separator: ", ")),"
        + " removed \(changes.removed.map(\.description).joined(separator: ", "))"
    case .textUpdated(_, let range, let text, let version, let reason):
      "context \(context) text \(self.text(range)) is now \"\(visible(text))\" "
        + "(context version \(version), \(reason.name))"
    case .missed(let count): "\(count) events missed"
    }
  }

  /// The host's tracked ranges that a change touched and removed, a line
  /// for each list that is not empty.
  /// The tracked ranges an undo or redo brought back, as a line of its
  /// own (nothing when none).
  private static func restoredLine(_ restored: [TrackedRangeID]) -> String {
    restored.isEmpty
      ? "" : "\n  tracked ranges restored: " + restored.map(\.description).joined(separator: ", ")
  }

  private static func lines(_ tracked: TrackedChanges) -> [String] {
    (tracked.touched.isEmpty
      ? []
      : ["  tracked ranges touched: " + tracked.touched.map(\.description).joined(separator: ", ")])
      + (tracked.removed.isEmpty
        ? []
        : [
          "  tracked ranges removed: " + tracked.removed.map(\.description).joined(separator: ", ")
        ])
  }

  /// What `show` says after the version about the tracked ranges and the
  /// suggestions it marks: how many, how, and which the numbered ones are.
  private static func note(
    _ tracked: [TrackedRange], _ suggestions: [Suggestion], _ numbered: [TrackedRangeID],
    styled: Bool
  ) -> String {
    var note = ""
    if !tracked.isEmpty {
      note += "; tracked: \(tracked.count) range\(tracked.count == 1 ? "" : "s") "
      if styled {
        note += "underlined"
        if tracked.contains(where: \.range.isEmpty) { note += ", an empty one as ⟦⟧" }
      } else {
        note += "in ⟦ ⟧"
      }
    }
    if !suggestions.isEmpty {
      note += "; suggestions: \(suggestions.count) "
      if styled {
        note += "with a red curly underline"
        if suggestions.contains(where: \.range.isEmpty) { note += ", an empty one as ⦃⦄" }
      } else {
        note += "in ⦃ ⦄"
      }
    }
    for (n, id) in numbered.enumerated() {
      note += ", \(MarkedText.subscripted(n + 1)) is \(id)"
    }
    return note
  }

  /// A tracked range on one line: its id, kind, range, first 40 units,
  /// and its rules where they are not the defaults (as `track` takes them).
  private static func line(_ info: TrackedRangeInfo) -> String {
    let tracked = info.range
    var line =
      "  \(tracked.id) \(tracked.kind) \(text(tracked.range)) \"\(visible(prefix(info.text)))\""
    let rules = tracked.rules
    if rules.expand != .none { line += " expand=\(rules.expand.rawValue)" }
    if rules.bias == .right { line += " bias=right" }
    if rules.onTouch != .keep { line += " onTouch=\(rules.onTouch.rawValue)" }
    return line
  }

  /// A suggestion on one line (after its id): its kind, range (in the
  /// context asked about, else in its storage), first 40 units, each
  /// candidate by index (its attributes marked as `show` marks them), the
  /// one previewed, and the explanation.
  private static func line(_ info: SuggestionInfo, styled: Bool) -> String {
    let suggestion = info.suggestion
    var line =
      "\(suggestion.kind) \(text(suggestion.contextRange ?? suggestion.range)) "
      + "\"\(visible(prefix(info.text)))\" → "
    if suggestion.candidates.isEmpty {
      line += "no candidates"
    } else {
      line += suggestion.candidates.enumerated().map { (i, candidate) in
        let marked = MarkedText(styled: styled, symbols: false).render(
          candidate.text, runs: candidate.attributes ?? [])
        return "\(i) \"\(visible(marked))\""
      }.joined(separator: ", ")
    }
    if let previewed = suggestion.previewed { line += " (previewing \(previewed))" }
    if !suggestion.explanation.isEmpty { line += " — \(visible(suggestion.explanation))" }
    return line
  }

  /// The first 40 units of a text (39 if the 40th starts a surrogate
  /// pair), and `…` if it goes on.
  private static func prefix(_ rope: Rope) -> String {
    let end = min(rope.utf16Count, 40)
    let start = (try? rope.slice(0..<end)) ?? (try? rope.slice(0..<(end - 1))) ?? Rope()
    return String(start) + (rope.utf16Count > 40 ? "…" : "")
  }

  /// A storage on one line: its length, version, first 40 units and
  /// excluded ranges.
  private static func line(_ storage: StorageInfo) -> String {
    let rope = storage.text
    let end = min(rope.utf16Count, 40)
    // One unit less if the 40th is the first half of a surrogate pair.
    let start = (try? rope.slice(0..<end)) ?? (try? rope.slice(0..<(end - 1))) ?? Rope()
    var line =
      "  \(storage.id): \(storage.length) units, version \(storage.version)  "
      + visible(String(start)) + (rope.utf16Count > 40 ? "…" : "")
    if !storage.excluded.isEmpty {
      line += "  (excluded: \(storage.excluded.map(text).joined(separator: ", ")))"
    }
    return line
  }

  /// The contexts, numbered from 1, each text with the selected part in
  /// ⟦ ⟧ (a caret as ‸), excluded parts in ⟪ ⟫ and attributes marked (see
  /// ``MarkedText``), broken into lines after each separator; with the
  /// `markdown` format, then the context written as Markdown, as it is.
  private static func text(
    _ contexts: [WritingContext], format: ContextFormat?, styled: Bool
  ) -> String {
    if contexts.isEmpty {
      return "no contexts (nothing selected, visible or non-empty for that scope)"
    }
    var lines: [String] = []
    for (i, context) in contexts.enumerated() {
      lines.append(
        "[\(i + 1)] \(context.storage) \(text(context.storageRange)), version \(context.version)")
      let marked = MarkedText(styled: styled, symbols: true).render(
        String(context.text), runs: context.attributes,
        marks: marks(selected: context.range, excluded: context.excluded))
      lines += marked.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
      if format == .markdown {
        lines.append("    as Markdown:")
        var markdown = context.markdown[...]
        if markdown.hasSuffix("\n") { markdown = markdown.dropLast() }
        lines += markdown.split(separator: "\n", omittingEmptySubsequences: false).map {
          $0.isEmpty ? "" : "      " + $0
        }
      }
    }
    lines.append("(⟦ ⟧ the part to act on, ‸ the caret, ⟪ ⟫ excluded, ⏎ ␍ ¶ separators)")
    if contexts.contains(where: { !$0.attributes.isEmpty }) {
      lines.append(
        styled
          ? "(\u{1B}[1mstrong\u{1B}[22m, \u{1B}[3memphasized\u{1B}[23m, \u{1B}[36mcode\u{1B}[39m, "
            + "\u{1B}[9mstruck\u{1B}[29m, \u{1B}[4mlink\u{1B}[24m⟨url⟩, # header, - item, > quote, "
            + "{key=value}…{/key} other attributes)"
          : "(**strong**, _emphasized_, `code`, ~~struck~~, [link](url), # header, - item, "
            + "> quote, {key=value}…{/key} other attributes)")
    }
    return lines.joined(separator: "\n")
  }

  /// The marks of a context's selected part and excluded parts, by offset.
  private static func marks(selected: Range<Int>, excluded: [Range<Int>]) -> [Int: String] {
    var marks: [Int: String] = [:]
    for range in excluded {
      marks[range.lowerBound, default: ""] += "⟪"
      marks[range.upperBound, default: ""] += "⟫"
    }
    if selected.isEmpty {
      marks[selected.lowerBound, default: ""] += "‸"
    } else {
      marks[selected.lowerBound, default: ""] += "⟦"
      marks[selected.upperBound, default: ""] += "⟧"
    }
    return marks
  }

  /// Text made visible: separators and tabs as symbols.
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
}

extension REPLError {
  /// The error as text for a person: `error (code): message`, and what to
  /// do about a missing session.
  public var text: String {
    "error (\(code)): \(message)" + (code == "noSession" ? "; 'contexts' starts one" : "")
  }
}
