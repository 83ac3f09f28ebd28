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

  /// `text` with `runs` (UTF-16, relative to `text`) and `marks` (more
  /// text to put at offsets, after the closing marks of the runs there and
  /// before their opening ones) marked.
  func render(_ text: String, runs: [AttributeRun], marks: [Int: String] = [:]) -> String {
    let transitions = self.transitions(runs)
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

  /// The marks of the runs, by offset.
  private func transitions(_ runs: [AttributeRun]) -> [Int: Transition] {
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
    for run in runs where !run.range.isEmpty {
      if run.range.lowerBound != previousEnd {
        move(to: previousEnd, [])
        previousBlock = nil
      }
      let block = run.attributes[.presentationIntent]
      if let block, block != previousBlock, case .presentationIntent(let intent) = block {
        result[run.range.lowerBound, default: Transition()].prefix = Self.prefix(intent)
      }
      previousBlock = block
      move(to: run.range.lowerBound, marks(run.attributes))
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
