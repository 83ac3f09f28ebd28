import DocumentEngine
import DocumentMarkdown
import FuzzSupport

/// What every reading of Markdown must be, and the readings compared unit
/// by unit.
enum Reading {
  /// One UTF-16 unit of a reading with its attributes (identities left
  /// out: only the kinds of its block's components).
  struct Unit: Equatable {
    var unit: UInt16
    var inline: Int
    var link: String?
    var kinds: [PresentationIntent.Kind]?
  }

  /// Stops the run unless `text` is what the reader may give: runs sorted,
  /// not empty, inside the text, on scalar boundaries, maximal; only the
  /// well-known keys, each with its own kind of value (an inline intent of
  /// known bits, a presentation intent with components: a list item in a
  /// list, a cell in a row in a table, a leaf kind only innermost, header
  /// levels 1 to 6, no negative ordinal or index, a box only on an item,
  /// looseness only on a list); every unit in a block;
  /// every block but the last followed by its separator (LF, or a tab
  /// between cells of one row) that carries its intent; identities numbered
  /// from 1 in document order (the order in which they first appear,
  /// outermost first), each always with the same kind and inside the same
  /// parent.
  /// The text with its presentation intents' identities numbered anew in
  /// order of appearance, so that two readings of the same blocks compare
  /// equal whatever numbers they had.
  static func renumbered(_ text: AttributedText) -> AttributedText {
    var numbers: [Int: Int] = [:]
    let runs = text.runs.map { run -> AttributeRun in
      var attributes = run.attributes
      if case .presentationIntent(let intent)? = attributes[.presentationIntent] {
        attributes[.presentationIntent] = .presentationIntent(
          PresentationIntent(
            intent.components.map { component in
              if numbers[component.identity] == nil {
                numbers[component.identity] = numbers.count + 1
              }
              var renumbered = component
              renumbered.identity = numbers[component.identity] ?? 0
              return renumbered
            }))
      }
      return AttributeRun(run.range, attributes)
    }
    return (try? AttributedText(text.text, runs: runs)) ?? text
  }

  static func check(_ text: AttributedText, _ what: @autoclosure () -> String) {
    func fail(_ message: String) -> Never {
      oracleFailed("\(what()) is not well formed: \(message)\n  text: \(describe(text))")
    }
    let utf16 = Array(text.text.utf16)
    let length = utf16.count
    var previousEnd = 0
    var previous: AttributeRun?
    var covered = 0
    for run in text.runs {
      let range = run.range
      if range.isEmpty { fail("an empty run \(range)") }
      if range.lowerBound < previousEnd { fail("run \(range) is out of order or overlaps") }
      if range.upperBound > length { fail("run \(range) ends past the text (\(length))") }
      for bound in [range.lowerBound, range.upperBound] where bound < length {
        if (0xDC00...0xDFFF).contains(utf16[bound]) {
          fail("run \(range) cuts a surrogate pair at \(bound)")
        }
      }
      if run.attributes.isEmpty { fail("run \(range) has no attribute") }
      if let previous, previous.range.upperBound == range.lowerBound,
        previous.attributes == run.attributes
      {
        fail("runs \(previous.range) and \(range) touch with equal attributes")
      }
      for (key, value) in run.attributes {
        switch (key, value) {
        case (.inlinePresentationIntent, .inlinePresentationIntent(let intent)):
          if intent.isEmpty || !InlinePresentationIntent.all.isSuperset(of: intent) {
            fail("run \(range) has the inline intent \(intent.rawValue)")
          }
        case (.link, .link), (.imageURL, .link), (.linkTitle, .string), (.imageTitle, .string),
          (.footnoteReference, .string):
          break
        case (.presentationIntent, .presentationIntent(let intent)):
          if let problem = problem(of: intent) { fail("run \(range): \(problem)") }
          if range.lowerBound != covered {
            fail("units \(covered)..<\(range.lowerBound) are in no block")
          }
          covered = range.upperBound
        default:
          fail("run \(range) has \(key) = \(value)")
        }
      }
      previousEnd = range.upperBound
      previous = run
    }
    if covered != length { fail("units \(covered)..<\(length) are in no block") }

    // Blocks: separators and identities.
    let groups = blockGroups(text)
    var nextIdentity = 1
    var known: [Int: (kind: PresentationIntent.Kind, parent: Int)] = [:]
    for (number, group) in groups.enumerated() {
      let components = group.intent?.components ?? []
      if number < groups.count - 1 {
        let last = utf16[group.range.upperBound - 1]
        let isCell = components.last.map { if case .tableCell = $0.kind { true } else { false } }
        if !(last == 0x0A || (last == 0x09 && isCell == true)) {
          fail("the block at \(group.range) does not end with its separator")
        }
      }
      var parent = 0
      for component in components {
        if let seen = known[component.identity] {
          if seen.kind != component.kind || seen.parent != parent {
            fail(
              "identity \(component.identity) is \(seen.kind) in \(seen.parent) and \(component.kind) in \(parent)"
            )
          }
        } else {
          if component.identity != nextIdentity {
            fail(
              "identity \(component.identity) where \(nextIdentity) comes next in document order")
          }
          known[component.identity] = (component.kind, parent)
          nextIdentity += 1
        }
        parent = component.identity
      }
    }
  }

  /// Why `intent` is not one the reader may give, or nil.
  static func problem(of intent: PresentationIntent) -> String? {
    let components = intent.components
    if components.isEmpty { return "a presentation intent without components" }
    for (index, component) in components.enumerated() {
      let parent = index > 0 ? components[index - 1].kind : nil
      let innermost = index == components.count - 1
      switch component.kind {
      case .header(let level):
        if !(1...6).contains(level) { return "a header of level \(level)" }
        if !innermost { return "a header with something inside" }
      case .paragraph, .codeBlock, .thematicBreak:
        if !innermost { return "a \(component.kind.name) with something inside" }
      case .listItem(let ordinal):
        if ordinal < 0 { return "a list item numbered \(ordinal)" }
        if parent != .orderedList && parent != .unorderedList { return "a list item in no list" }
      case .orderedList, .unorderedList:
        if innermost { return "a list with no item" }
      case .tableHeaderRow, .tableRow:
        if case .tableRow(let index) = component.kind, index < 0 { return "row index \(index)" }
        guard case .table = parent else { return "a row in no table" }
      case .tableCell(let column):
        if column < 0 { return "column \(column)" }
        if !innermost { return "a cell with something inside" }
        if parent != .tableHeaderRow, !(parent.map(isBodyRow) ?? false) {
          return "a cell in no row"
        }
      case .table:
        if innermost { return "a table with no row" }
      case .blockQuote:
        break
      case .footnoteDefinition:
        if index > 0 {
          return "a footnote's definition inside a \(components[index - 1].kind.name)"
        }
      }
      if component.isChecked != nil, !component.kind.isListItem {
        return "a box on a \(component.kind.name)"
      }
      if component.isLoose, !component.kind.isListContainer {
        return "a loose \(component.kind.name)"
      }
    }
    return nil
  }

  static func isBodyRow(_ kind: PresentationIntent.Kind) -> Bool {
    if case .tableRow = kind { return true }
    return false
  }

  /// The stretches of equal presentation intent, in order.
  static func blockGroups(
    _ text: AttributedText
  ) -> [(intent: PresentationIntent?, range: Range<Int>)] {
    var groups: [(intent: PresentationIntent?, range: Range<Int>)] = []
    for run in text.runs {
      var intent: PresentationIntent?
      if case .presentationIntent(let value) = run.attributes[.presentationIntent] {
        intent = value
      }
      if let last = groups.last, last.intent == intent,
        last.range.upperBound == run.range.lowerBound
      {
        groups[groups.count - 1].range = last.range.lowerBound..<run.range.upperBound
      } else {
        groups.append((intent, run.range))
      }
    }
    return groups
  }

  /// Whether a paragraph or header of `text` holds a line break character
  /// (LF, CR, U+2029) that is neither its separator nor HTML: where the
  /// writer starts a new paragraph (its documented exception).
  static func hasLineBreakInParagraph(_ text: AttributedText) -> Bool {
    let utf16 = Array(text.text.utf16)
    let html =
      InlinePresentationIntent.inlineHTML.rawValue | InlinePresentationIntent.blockHTML.rawValue
    let groups = blockGroups(text)
    var runIndex = 0
    for (number, group) in groups.enumerated() {
      guard let kind = group.intent?.components.last?.kind else { continue }
      switch kind {
      case .paragraph, .header: break
      default: continue
      }
      for offset in group.range {
        let unit = utf16[offset]
        guard unit == 0x0A || unit == 0x0D || unit == 0x2029 else { continue }
        let isSeparator =
          unit == 0x0A && offset == group.range.upperBound - 1
          && (number < groups.count - 1 || group.range.count == 1)
        if isSeparator { continue }
        while text.runs[runIndex].range.upperBound <= offset { runIndex += 1 }
        var inline = 0
        if case .inlinePresentationIntent(let intent) = text.runs[runIndex].attributes[
          .inlinePresentationIntent]
        {
          inline = intent.rawValue
        }
        if inline & html == 0 { return true }
      }
    }
    return false
  }

  /// Whether a soft or hard break of `text` has emphasis, strong emphasis
  /// or strikethrough, and the unit before it other ones of them or
  /// another link.
  static func hasMarkChangeBeforeBreak(_ text: AttributedText) -> Bool {
    let marks =
      InlinePresentationIntent.emphasized.rawValue
      | InlinePresentationIntent.stronglyEmphasized.rawValue
      | InlinePresentationIntent.strikethrough.rawValue
    let breaks =
      InlinePresentationIntent.softBreak.rawValue | InlinePresentationIntent.lineBreak.rawValue
    let all = units(of: text)
    for offset in all.indices.dropFirst() where all[offset].inline & breaks != 0 {
      let own = all[offset].inline & marks
      if own != 0, own != all[offset - 1].inline & marks || all[offset].link != all[offset - 1].link
      {
        return true
      }
    }
    return false
  }

  /// Whether a paragraph or header of `text` starts or ends (before its
  /// separator) with a soft or hard break.
  static func hasBreakAtParagraphEdge(_ text: AttributedText) -> Bool {
    let breaks =
      InlinePresentationIntent.softBreak.rawValue | InlinePresentationIntent.lineBreak.rawValue
    let all = units(of: text)
    for group in blockGroups(text) {
      switch group.intent?.components.last?.kind {
      case .paragraph?, .header?: break
      default: continue
      }
      var last = group.range.upperBound - 1
      if all[last].unit == 0x0A, all[last].inline == 0, last > group.range.lowerBound { last -= 1 }
      if all[group.range.lowerBound].inline & breaks != 0 || all[last].inline & breaks != 0 {
        return true
      }
    }
    return false
  }

  /// The known finding about breaks that `text` runs into, if any:
  /// `link-break-edge` (a break with a link that a neighbour lacks),
  /// `html-after-break` (inline HTML right after a break),
  /// `consecutive-breaks` (two breaks in a row).
  static func breakFinding(_ text: AttributedText) -> String? {
    let breaks =
      InlinePresentationIntent.softBreak.rawValue | InlinePresentationIntent.lineBreak.rawValue
    let html = InlinePresentationIntent.inlineHTML.rawValue
    let all = units(of: text)
    for offset in all.indices where all[offset].inline & breaks != 0 {
      let previous = offset > 0 ? all[offset - 1] : nil
      let next = offset + 1 < all.count ? all[offset + 1] : nil
      if let link = all[offset].link, previous?.link != link || next?.link != link {
        return "link-break-edge"
      }
      if let next, next.inline & html != 0 { return "html-after-break" }
      if let next, next.inline & breaks != 0 { return "consecutive-breaks" }
    }
    return nil
  }

  /// The units of `text` with their attributes.
  static func units(of text: AttributedText) -> [Unit] {
    var result = text.text.utf16.map { Unit(unit: $0, inline: 0, link: nil, kinds: nil) }
    for run in text.runs {
      var inline = 0
      var link: String?
      var kinds: [PresentationIntent.Kind]?
      if case .inlinePresentationIntent(let intent) = run.attributes[.inlinePresentationIntent] {
        inline = intent.rawValue
      }
      if case .link(let url) = run.attributes[.link] { link = url }
      if case .presentationIntent(let intent) = run.attributes[.presentationIntent] {
        kinds = intent.components.map(\.kind)
      }
      for offset in run.range where offset < result.count {
        result[offset].inline = inline
        result[offset].link = link
        result[offset].kinds = kinds
      }
    }
    return result
  }

  /// Where `got` differs from `expected`, or nil. A link the reader adds
  /// to an email address (the autolink extension finds them in text, with
  /// `mailto:` or `xmpp:` before them or not) is not a difference.
  static func mismatch(expected: [Unit], got: [Unit]) -> String? {
    for offset in 0..<max(expected.count, got.count) {
      guard offset < expected.count, offset < got.count else {
        return "the reading has \(got.count) units, \(expected.count) meant"
      }
      var want = expected[offset]
      let have = got[offset]
      if want.link == nil, let url = have.link, url.contains("@") { want.link = url }
      if want != have {
        return "at unit \(offset): meant \(describe(want)), read \(describe(have))"
      }
    }
    return nil
  }

  static func describe(_ unit: Unit) -> String {
    var parts = [String(format16: unit.unit)]
    if unit.inline != 0 {
      parts.append(InlinePresentationIntent(rawValue: unit.inline).names.joined(separator: "+"))
    }
    if let link = unit.link { parts.append("link \(link.debugDescription)") }
    parts.append(unit.kinds.map { $0.map(short).joined(separator: " > ") } ?? "no block")
    return parts.joined(separator: ", ")
  }

  /// A block kind in a few characters.
  static func short(_ kind: PresentationIntent.Kind) -> String {
    switch kind {
    case .header(let level): "header\(level)"
    case .listItem(let ordinal): "item\(ordinal)"
    case .codeBlock(let language): "code" + (language.map { "(\($0.debugDescription))" } ?? "")
    case .table(let columns): "table(\(columns.map { String($0.rawValue.prefix(1)) }.joined()))"
    case .tableHeaderRow: "headerRow"
    case .tableRow(let index): "row\(index)"
    case .tableCell(let column): "cell\(column)"
    default: kind.name
    }
  }

  /// An attributed text in one line: its text, then each run's range and
  /// attributes (block components as kind#identity).
  static func describe(_ text: AttributedText) -> String {
    var result = text.text.debugDescription
    for run in text.runs {
      var parts: [String] = []
      for (key, value) in run.attributes.sorted(by: { $0.key < $1.key }) {
        switch value {
        case .inlinePresentationIntent(let intent):
          parts.append(intent.names.joined(separator: "+"))
        case .link(let url): parts.append("link \(url.debugDescription)")
        case .presentationIntent(let intent):
          parts.append(
            intent.components.map { "\(short($0.kind))#\($0.identity)" }.joined(separator: " > "))
        default: parts.append("\(key)=\(value)")
        }
      }
      result +=
        " \(run.range.lowerBound)..<\(run.range.upperBound)[\(parts.joined(separator: ", "))]"
    }
    return result
  }

  /// The first unit at which two attributed texts differ, described.
  static func difference(_ a: AttributedText, _ b: AttributedText) -> String {
    let left = units(of: a)
    let right = units(of: b)
    let identitiesA = identities(of: a)
    let identitiesB = identities(of: b)
    for offset in 0..<max(left.count, right.count) {
      guard offset < left.count, offset < right.count else {
        return "first difference: the texts have \(left.count) and \(right.count) units"
      }
      if left[offset] != right[offset] || identitiesA[offset] != identitiesB[offset] {
        return
          "first difference at unit \(offset): \(describe(left[offset])) \(identitiesA[offset]) vs \(describe(right[offset])) \(identitiesB[offset])"
      }
    }
    return "no difference unit by unit"
  }

  static func identities(of text: AttributedText) -> [[Int]] {
    var result = [[Int]](repeating: [], count: text.text.utf16.count)
    for run in text.runs {
      if case .presentationIntent(let intent) = run.attributes[.presentationIntent] {
        for offset in run.range where offset < result.count {
          result[offset] = intent.components.map(\.identity)
        }
      }
    }
    return result
  }
}

extension String {
  /// A UTF-16 unit as Swift would spell it in a string literal.
  init(format16 unit: UInt16) {
    if let scalar = Unicode.Scalar(unit) {
      self = String(scalar).debugDescription
    } else {
      self = "\\u{\(String(unit, radix: 16, uppercase: true))} (surrogate)"
    }
  }
}
