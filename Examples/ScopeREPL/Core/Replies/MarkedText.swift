import DocumentEngine

/// A text for a person with marks in it: the attribute runs of the text
/// (bold, italic, links, headers…), and other marks at offsets (the
/// selection and excluded parts of a context).
///
/// Without `styled`, each run is marked with text, as Markdown would
/// write it: `**strong**`, `_emphasized_`, `` `code` ``,
/// `~~strikethrough~~`, `[text](url)`, any other inline intent as
/// `{name}…{/name}` and a host's key as `{key=value}…{/key}` (the value
/// as the protocol writes it); a block starts with its marker: `# ` (one
/// `#` a level) for a header, `- ` or `N. ` for a list item, `> ` for a
/// quote, ```` ``` ```` for a code block. With `styled` (a terminal), strong
/// text is bold, emphasized text italic, code cyan, strikethrough struck
/// and a link underlined with its URL after it in `⟨ ⟩`, with ANSI
/// escapes that are reset at each line break and set again after it; the
/// other marks stay text. Marks nest: where a run ends inside another,
/// only the marks that change close and open.
///
/// The host's tracked ranges and the suggestions are marked apart from the
/// runs (see ``rangeMarks(tracked:suggestions:styled:)``): without
/// `styled`, each tracked range in `⟦ ⟧` and each suggestion in `⦃ ⦄`;
/// with it, a tracked range's text underlined and a suggestion's with a
/// red curly underline (a plain one on a terminal that has no curly
/// underline; where the two overlap, the curly one).
struct MarkedText {
  /// Whether the marks are a terminal's styles.
  var styled: Bool
  /// Whether separators and tabs show as symbols (⏎ ␍ ¶ ↵ ⇥) with a line
  /// break after each separator; otherwise the text is written as it is.
  var symbols: Bool

  private struct Mark: Hashable {
    let open: String
    let close: String
  }

  /// What to write at a boundary of the runs: the closing marks of the
  /// marks that end or are interrupted there, the opening marks of those
  /// that start or go on, and the opening marks of those that go on past
  /// it (for a terminal's line break between the two).
  private struct Transition {
    var close = ""
    var kept = ""
    var open = ""
    var prefix = ""
  }

  /// How a stretch of text is underlined: a tracked range's plain line, or
  /// a suggestion's curly one.
  private enum Underline: Hashable {
    case plain
    case curly
  }

  /// A stretch of text with one set of attributes, underlined or not.
  private struct Segment {
    var range: Range<Int>
    var attributes: [AttributeKey: AttributeValue]
    var underline: Underline?
  }

  /// `text` with `runs` (UTF-16, relative to `text`) and `marks` (more
  /// text to put at offsets, after the closing marks of the runs there and
  /// before their opening ones) marked, and with `styled` the text of the
  /// ranges `underlined` (UTF-16, relative to `text`) underlined, and that
  /// of the ranges `curly` with a red curly underline (which wins where
  /// they overlap).
  func render(
    _ text: String, runs: [AttributeRun], marks: [Int: String] = [:],
    underlined: [Range<Int>] = [], curly: [Range<Int>] = []
  ) -> String {
    let transitions = self.transitions(
      Self.segments(runs, underlined: styled ? underlined : [], curly: styled ? curly : []))
    var out = ""
    var offset = 0
    // The opening marks of the marks open here, for a terminal's line break.
    var active = ""
    var closed: Int? = nil
    let scalars = Array(text.unicodeScalars)
    for (i, scalar) in scalars.enumerated() {
      let here = transitions[offset]
      if closed != offset { out += here?.close ?? "" }
      out += marks[offset] ?? ""
      out += here?.prefix ?? ""
      out += here?.open ?? ""
      if let here { active = here.kept + here.open }
      offset += scalar.utf16.count
      let next = i + 1 < scalars.count ? scalars[i + 1] : nil
      let breaks =
        symbols
        ? scalar == "\n" || scalar == "\u{2029}" || (scalar == "\r" && next != "\n")
        : scalar == "\n"
      if !breaks {
        out += symbols ? Reply.visible(String(scalar)) : String(scalar)
        continue
      }
      // The marks that end at the break close before it.
      if symbols { out += Reply.visible(String(scalar)) }
      if let after = transitions[offset] {
        out += after.close
        closed = offset
        active = after.kept
      }
      out += styled && !active.isEmpty ? "\u{1B}[0m" : ""
      out += "\n"
      out += styled ? active : ""
    }
    if symbols && out.hasSuffix("\n") { out.removeLast() }
    if closed != offset { out += transitions[offset]?.close ?? "" }
    out += marks[offset] ?? ""
    return out
  }

  /// The union of `ranges`, in order, the empty ones left out.
  private static func union(_ ranges: [Range<Int>]) -> [Range<Int>] {
    var union: [Range<Int>] = []
    for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = union.last, range.lowerBound <= last.upperBound {
        union[union.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        union.append(range)
      }
    }
    return union
  }

  /// The runs as stretches of text, cut where an underlined range starts
  /// or ends (the gaps between runs that are underlined among them).
  private static func segments(
    _ runs: [AttributeRun], underlined: [Range<Int>], curly: [Range<Int>]
  ) -> [Segment] {
    // The underlined text: each kind's union, in order.
    let plain = union(underlined)
    let curly = union(curly)
    let runs = runs.filter { !$0.range.isEmpty }
    guard !plain.isEmpty || !curly.isEmpty else {
      return runs.map { Segment(range: $0.range, attributes: $0.attributes, underline: nil) }
    }
    let cuts = Set(runs.flatMap { [$0.range.lowerBound, $0.range.upperBound] })
      .union((plain + curly).flatMap { [$0.lowerBound, $0.upperBound] }).sorted()
    var segments: [Segment] = []
    var (r, p, c) = (0, 0, 0)
    for (start, end) in zip(cuts, cuts.dropFirst()) {
      while r < runs.count && runs[r].range.upperBound <= start { r += 1 }
      while p < plain.count && plain[p].upperBound <= start { p += 1 }
      while c < curly.count && curly[c].upperBound <= start { c += 1 }
      let run = r < runs.count && runs[r].range.lowerBound <= start ? runs[r] : nil
      let underline: Underline? =
        c < curly.count && curly[c].lowerBound <= start
        ? .curly : p < plain.count && plain[p].lowerBound <= start ? .plain : nil
      if run == nil && underline == nil { continue }
      segments.append(
        Segment(range: start..<end, attributes: run?.attributes ?? [:], underline: underline))
    }
    return segments
  }

  /// The marks of the segments, by offset.
  private func transitions(_ segments: [Segment]) -> [Int: Transition] {
    var result: [Int: Transition] = [:]
    var stack: [Mark] = []
    var previousEnd = 0
    var previousBlock: AttributeValue? = nil
    func move(to offset: Int, _ wanted: [Mark]) {
      var transition = result[offset] ?? Transition()
      let keep = zip(stack, wanted).prefix { $0 == $1 }.count
      for mark in stack[keep...].reversed() { transition.close += mark.close }
      stack.removeLast(stack.count - keep)
      transition.kept = stack.map(\.open).joined()
      for mark in wanted[keep...] {
        transition.open += mark.open
        stack.append(mark)
      }
      result[offset] = transition
    }
    for run in segments where !run.range.isEmpty {
      if run.range.lowerBound != previousEnd {
        move(to: previousEnd, [])
        previousBlock = nil
      }
      let block = run.attributes[.presentationIntent]
      if let block, block != previousBlock, case .presentationIntent(let intent) = block {
        result[run.range.lowerBound, default: Transition()].prefix = Self.prefix(intent)
      }
      previousBlock = block
      var wanted = marks(run.attributes)
      if let underline = run.underline {
        // Innermost, so that it opens again after anything that closes
        // outside it; inside a link, whose close ends the underline, it
        // leaves the link's own underline when it closes.
        let inLink = if case .link? = run.attributes[.link] { true } else { false }
        switch underline {
        case .plain:
          wanted.append(Mark(open: "\u{1B}[4m", close: inLink ? "" : "\u{1B}[24m"))
        case .curly:
          // A plain underline first, for a terminal that has no curly one
          // (it ignores the rest); then curly (4:3), red (58:5:1).
          wanted.append(
            Mark(
              open: "\u{1B}[4m\u{1B}[4:3m\u{1B}[58:5:1m",
              close: inLink ? "\u{1B}[59m\u{1B}[4m" : "\u{1B}[59m\u{1B}[24m"))
        }
      }
      move(to: run.range.lowerBound, wanted)
      previousEnd = run.range.upperBound
    }
    move(to: previousEnd, [])
    return result
  }

  /// The marks of a set of attributes, outermost first: the link, the
  /// inline intents in the order of their bits, the host's keys by name.
  private func marks(_ attributes: [AttributeKey: AttributeValue]) -> [Mark] {
    var marks: [Mark] = []
    if case .link(let url)? = attributes[.link] {
      marks.append(
        styled
          ? Mark(open: "\u{1B}[4m", close: "\u{1B}[24m⟨\(url)⟩")
          : Mark(open: "[", close: "](\(url))"))
    }
    if case .inlinePresentationIntent(let intent)? = attributes[.inlinePresentationIntent] {
      for (name, bit) in InlinePresentationIntent.named where intent.contains(bit) {
        marks.append(mark(name))
      }
    }
    for (key, value) in attributes.sorted(by: { $0.key < $1.key }) where key.isHostKey {
      let text = JSONWriter.write(AttributesJSON.json(value))
      marks.append(Mark(open: "{\(key)=\(text)}", close: "{/\(key)}"))
    }
    return marks
  }

  /// The mark of an inline intent.
  private func mark(_ name: String) -> Mark {
    switch (name, styled) {
    case ("stronglyEmphasized", false): Mark(open: "**", close: "**")
    case ("stronglyEmphasized", true): Mark(open: "\u{1B}[1m", close: "\u{1B}[22m")
    case ("emphasized", false): Mark(open: "_", close: "_")
    case ("emphasized", true): Mark(open: "\u{1B}[3m", close: "\u{1B}[23m")
    case ("code", false): Mark(open: "`", close: "`")
    case ("code", true): Mark(open: "\u{1B}[36m", close: "\u{1B}[39m")
    case ("strikethrough", false): Mark(open: "~~", close: "~~")
    case ("strikethrough", true): Mark(open: "\u{1B}[9m", close: "\u{1B}[29m")
    default: Mark(open: "{\(name)}", close: "{/\(name)}")
    }
  }

  /// The text marks of the host's tracked ranges and of the suggestions
  /// (UTF-16, relative to the text), by offset, for
  /// ``render(_:runs:marks:underlined:curly:)``: without `styled`, each
  /// tracked range in `⟦ ⟧` and each suggestion in `⦃ ⦄`; with it, only
  /// the empty ones (the others are underlined). At an offset the ranges
  /// that end there close (the innermost first, suggestions before tracked
  /// ranges), then the empty ones there show, then the ranges that start
  /// there open (the outermost first, tracked ranges before suggestions),
  /// so that ranges inside others nest. Ranges of one kind that cross (one
  /// starts inside the other and ends after it) could not be told from
  /// nested ones: their brackets carry a number, `⟦₁ … ⟧₁`, the tracked
  /// ranges' first.
  ///
  /// - Returns: the marks, and the ids of the numbered ranges, number 1
  ///   first.
  static func rangeMarks(
    tracked: [TrackedRange], suggestions: [Suggestion] = [], styled: Bool
  ) -> (marks: [Int: String], numbered: [TrackedRangeID]) {
    let host = brackets(
      tracked.map { ($0.id, $0.range) }, open: "⟦", close: "⟧", styled: styled, numbered: 0)
    let review = brackets(
      suggestions.map { ($0.id, $0.range) }, open: "⦃", close: "⦄", styled: styled,
      numbered: host.numbered.count)
    var marks: [Int: String] = [:]
    let offsets = Set(host.closes.keys).union(host.empties.keys).union(host.opens.keys)
      .union(review.closes.keys).union(review.empties.keys).union(review.opens.keys)
    for offset in offsets {
      marks[offset] =
        (review.closes[offset] ?? "") + (host.closes[offset] ?? "")
        + (host.empties[offset] ?? "") + (review.empties[offset] ?? "")
        + (host.opens[offset] ?? "") + (review.opens[offset] ?? "")
    }
    return (marks, host.numbered + review.numbered)
  }

  /// The brackets of one kind of ranges, by offset: those that close,
  /// the empty ranges, those that open (the empty ones only with
  /// `styled`); the ranges that cross another numbered from `numbered` + 1.
  private static func brackets(
    _ ranges: [(id: TrackedRangeID, range: Range<Int>)], open: String, close: String,
    styled: Bool, numbered first: Int
  ) -> (
    closes: [Int: String], empties: [Int: String], opens: [Int: String],
    numbered: [TrackedRangeID]
  ) {
    let sorted = ranges.filter { !$0.range.isEmpty }.sorted {
      ($0.range.lowerBound, -$0.range.upperBound, $0.id)
        < ($1.range.lowerBound, -$1.range.upperBound, $1.id)
    }
    // The ranges that cross another: an open one that starts before a
    // range and ends inside it.
    var crossing = Set<Int>()
    if !styled {
      var started: [Int] = []
      for (i, range) in sorted.enumerated() {
        started.removeAll { sorted[$0].range.upperBound <= range.range.lowerBound }
        for j in started
        where sorted[j].range.lowerBound < range.range.lowerBound
          && sorted[j].range.upperBound < range.range.upperBound
        {
          crossing.formUnion([i, j])
        }
        started.append(i)
      }
    }
    let numbered = crossing.sorted()
    var labels: [Int: String] = [:]
    for (n, i) in numbered.enumerated() { labels[i] = subscripted(first + n + 1) }
    var closes: [Int: String] = [:]
    var empties: [Int: String] = [:]
    var opens: [Int: String] = [:]
    if !styled {
      for (i, range) in sorted.enumerated() {
        opens[range.range.lowerBound, default: ""] += open + (labels[i] ?? "")
      }
      for (i, range) in sorted.enumerated().reversed() {
        closes[range.range.upperBound, default: ""] += close + (labels[i] ?? "")
      }
    }
    for range in ranges where range.range.isEmpty {
      empties[range.range.lowerBound, default: ""] += open + close
    }
    return (closes, empties, opens, numbered.map { sorted[$0].id })
  }

  /// `n` in subscript digits.
  static func subscripted(_ n: Int) -> String {
    let digits = Array("₀₁₂₃₄₅₆₇₈₉")
    return String(String(n).compactMap { $0.wholeNumberValue.map { digits[$0] } })
  }

  /// The marker a block starts with: one for each component that has one.
  static func prefix(_ intent: PresentationIntent) -> String {
    var prefix = ""
    var parent: PresentationIntent.Kind? = nil
    for component in intent.components {
      switch component.kind {
      case .header(let level): prefix += String(repeating: "#", count: max(1, min(level, 6))) + " "
      case .listItem(let ordinal): prefix += parent == .orderedList ? "\(ordinal). " : "- "
      case .blockQuote: prefix += "> "
      case .codeBlock(let hint): prefix += "```" + (hint ?? "") + " "
      default: break
      }
      parent = component.kind
    }
    return prefix
  }
}
