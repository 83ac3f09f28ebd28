/// The name of an attribute of a storage's text: one of the well-known keys
/// that mirror Foundation's attributed-string keys
/// (``inlinePresentationIntent``, ``link``, ``presentationIntent``,
/// ``imageURL``) or that Markdown needs besides them (``linkTitle``,
/// ``imageTitle``), or any other name, which is the host's own (a font, a
/// colour, a comment id).
///
/// A host on Apple's platforms converts each well-known key one to one:
/// `inlinePresentationIntent` to `NSAttributedString.Key.inlinePresentationIntent`
/// (`AttributeScopes.FoundationAttributes.InlinePresentationIntentAttribute`),
/// `link` to `.link`, `presentationIntent` to `.presentationIntent`; its own
/// keys to the keys it uses.
public struct AttributeKey: RawRepresentable, Hashable, Comparable, Sendable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The key's name.
  public var rawValue: String

  /// The key named `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The key named `value`.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// Foundation's `inlinePresentationIntent`: emphasis, code, strikethrough
  /// and breaks (an ``InlinePresentationIntent``).
  public static let inlinePresentationIntent: AttributeKey = "inlinePresentationIntent"
  /// Foundation's `link`: a URL, as a string.
  public static let link: AttributeKey = "link"
  /// Foundation's `presentationIntent`: the block the text belongs to (a
  /// ``PresentationIntent``).
  public static let presentationIntent: AttributeKey = "presentationIntent"
  /// Foundation's `imageURL`: the text is an image's description (its alt
  /// text; an image without one is U+FFFC, the attachment character),
  /// the value the image's URL, as a string (a ``AttributeValue/link(_:)``).
  public static let imageURL: AttributeKey = "imageURL"
  /// The title of an image (Markdown's `![alt](url "title")`), a string;
  /// with ``imageURL``.
  public static let imageTitle: AttributeKey = "imageTitle"
  /// The title of a link (Markdown's `[text](url "title")`), a string;
  /// with ``link``.
  public static let linkTitle: AttributeKey = "linkTitle"
  /// A footnote reference (Markdown's `[^label]`), a string: the label of
  /// the footnote's definition (a
  /// ``PresentationIntent/Kind/footnoteDefinition(label:)`` block). The
  /// text is the label, as the reference spells it. Foundation has no such
  /// key.
  public static let footnoteReference: AttributeKey = "footnoteReference"

  /// The well-known keys, in the order they are listed.
  public static let wellKnown: [AttributeKey] = [
    .inlinePresentationIntent, .link, .presentationIntent, .imageURL, .imageTitle, .linkTitle,
    .footnoteReference,
  ]

  /// Whether the key is one of the host's own (not well known).
  public var isHostKey: Bool { !Self.wellKnown.contains(self) }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    Array(lhs.rawValue.utf8).lexicographicallyPrecedes(rhs.rawValue.utf8)
  }

  /// The name.
  public var description: String { rawValue }
}

/// The inline presentation intents of a run of text: Foundation's
/// `InlinePresentationIntent`, with the same raw values, so that a host
/// converts it with `InlinePresentationIntent(rawValue:)`.
public struct InlinePresentationIntent: OptionSet, Hashable, Sendable {
  /// The bits, as Foundation numbers them.
  public let rawValue: Int

  /// The intents whose bits are set in `rawValue`.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Emphasis (italic), Markdown `*text*`.
  public static let emphasized = Self(rawValue: 1)
  /// Strong emphasis (bold), Markdown `**text**`.
  public static let stronglyEmphasized = Self(rawValue: 2)
  /// Code (Markdown's backticks).
  public static let code = Self(rawValue: 4)
  /// Strikethrough, Markdown `~~text~~`.
  public static let strikethrough = Self(rawValue: 32)
  /// A soft line break (shown as a space).
  public static let softBreak = Self(rawValue: 64)
  /// A hard line break.
  public static let lineBreak = Self(rawValue: 128)
  /// Inline HTML.
  public static let inlineHTML = Self(rawValue: 256)
  /// Block HTML.
  public static let blockHTML = Self(rawValue: 512)

  /// Every intent with its name, in the order of their bits.
  public static let named: [(name: String, intent: Self)] = [
    ("emphasized", .emphasized), ("stronglyEmphasized", .stronglyEmphasized), ("code", .code),
    ("strikethrough", .strikethrough), ("softBreak", .softBreak), ("lineBreak", .lineBreak),
    ("inlineHTML", .inlineHTML), ("blockHTML", .blockHTML),
  ]

  /// Every bit that names an intent.
  public static let all = Self(rawValue: named.reduce(0) { $0 | $1.intent.rawValue })

  /// The names of the intents set, in the order of their bits.
  public var names: [String] { Self.named.filter { contains($0.intent) }.map(\.name) }

  /// The intent with this name, or nil.
  public init?(name: String) {
    guard let found = Self.named.first(where: { $0.name == name }) else { return nil }
    self = found.intent
  }
}

/// The block a run of text belongs to: Foundation's `PresentationIntent`, as
/// its components from the outermost to the innermost (a list item's
/// paragraph is `[unorderedList, listItem, paragraph]`).
///
/// Each component has a kind and an identity, an integer that tells two
/// blocks of one kind apart (two paragraphs in a row have different
/// identities). A host on Apple's platforms builds Foundation's value from
/// the outermost component in: `intent = PresentationIntent(kind, identity:
/// identity, parent: intent)` for each component in order.
public struct PresentationIntent: Hashable, Sendable {
  /// How a table column aligns its cells (Foundation's
  /// `PresentationIntent.TableColumn.Alignment`).
  public enum ColumnAlignment: String, Hashable, Sendable, CaseIterable {
    case left
    case center
    case right
  }

  /// The kind of a block, with its parameter (Foundation's
  /// `PresentationIntent.Kind`).
  public enum Kind: Hashable, Sendable {
    /// A paragraph.
    case paragraph
    /// A header of level 1 to 6.
    case header(level: Int)
    /// A numbered list; its items are `listItem`s.
    case orderedList
    /// A bulleted list; its items are `listItem`s.
    case unorderedList
    /// An item of a list, numbered from 1.
    case listItem(ordinal: Int)
    /// A code block, with the language its fence names, if any.
    case codeBlock(languageHint: String?)
    /// A block quote.
    case blockQuote
    /// A thematic break (a horizontal rule).
    case thematicBreak
    /// A table, with the alignment of each column.
    case table(columns: [ColumnAlignment])
    /// A table's header row.
    case tableHeaderRow
    /// A table's row (its index among the body rows, from 0).
    case tableRow(rowIndex: Int)
    /// A cell of a row (its column, from 0).
    case tableCell(columnIndex: Int)
    /// A footnote's definition (Markdown's `[^label]: …`), with its label:
    /// the blocks inside are the note. Always outermost: a definition
    /// belongs to the document, wherever its references are. Foundation has
    /// no such kind.
    case footnoteDefinition(label: String)

    /// The kind's name, as the REPL's protocol spells it.
    public var name: String {
      switch self {
      case .paragraph: "paragraph"
      case .header: "header"
      case .orderedList: "orderedList"
      case .unorderedList: "unorderedList"
      case .listItem: "listItem"
      case .codeBlock: "codeBlock"
      case .blockQuote: "blockQuote"
      case .thematicBreak: "thematicBreak"
      case .table: "table"
      case .tableHeaderRow: "tableHeaderRow"
      case .tableRow: "tableRow"
      case .tableCell: "tableCell"
      case .footnoteDefinition: "footnoteDefinition"
      }
    }

    /// Whether the kind belongs to lists (kept by a tool only under the
    /// `list` result option).
    public var isList: Bool {
      switch self {
      case .orderedList, .unorderedList, .listItem: true
      default: false
      }
    }

    /// Whether `label` can label a footnote: not empty, without spaces,
    /// tabs, line breaks or `]` (what cmark-gfm reads in `[^label]`).
    public static func isFootnoteLabel(_ label: String) -> Bool {
      !label.isEmpty
        && !label.unicodeScalars.contains {
          $0 == "]" || $0 == "[" || $0.value <= 0x20 || $0 == "\u{7F}" || $0 == "\u{2028}"
            || $0 == "\u{2029}" || $0 == "\u{85}"
        }
    }

    /// Whether the kind is a list: ordered or not.
    public var isListContainer: Bool {
      switch self {
      case .orderedList, .unorderedList: true
      default: false
      }
    }

    /// Whether the kind is a list item.
    public var isListItem: Bool {
      if case .listItem = self { return true }
      return false
    }

    /// Whether the kind belongs to tables (kept by a tool only under the
    /// `table` result option).
    public var isTable: Bool {
      switch self {
      case .table, .tableHeaderRow, .tableRow, .tableCell: true
      default: false
      }
    }
  }

  /// One level of the block's nesting.
  public struct Component: Hashable, Sendable {
    /// What the block is.
    public var kind: Kind
    /// What tells this block apart from others of its kind.
    public var identity: Int
    /// For a list item with a box (a GitHub task list's `- [ ]`), whether
    /// it is checked; nil for an item without one and for every other
    /// kind. Foundation has no such property: a host shows the box itself.
    public var isChecked: Bool?
    /// For a list, whether it is loose: its items are parted by blank
    /// lines, and Markdown renders each item's text as a paragraph; false
    /// for a tight list and for every other kind. Foundation has no such
    /// property either.
    public var isLoose: Bool

    /// A component.
    public init(_ kind: Kind, identity: Int, isChecked: Bool? = nil, isLoose: Bool = false) {
      self.kind = kind
      self.identity = identity
      self.isChecked = isChecked
      self.isLoose = isLoose
    }
  }

  /// The components, outermost first.
  public var components: [Component]

  /// An intent of these components, outermost first.
  public init(_ components: [Component]) {
    self.components = components
  }
}

/// The value of one attribute of a run of text.
///
/// The well-known keys take their own kind of value
/// (``AttributeKey/inlinePresentationIntent`` an
/// ``inlinePresentationIntent(_:)``, ``AttributeKey/link`` a ``link(_:)``,
/// ``AttributeKey/presentationIntent`` a ``presentationIntent(_:)``); a
/// host's own key takes a ``string(_:)``, an ``integer(_:)`` or a
/// ``boolean(_:)``. ``DocumentContent`` refuses any other pairing with
/// ``DocumentError/invalidAttribute(_:reason:)``.
public enum AttributeValue: Hashable, Sendable {
  /// A host's string.
  case string(String)
  /// A host's integer.
  case integer(Int)
  /// A host's Boolean.
  case boolean(Bool)
  /// Foundation's inline presentation intents.
  case inlinePresentationIntent(InlinePresentationIntent)
  /// A link's URL.
  case link(String)
  /// Foundation's presentation intent: the block.
  case presentationIntent(PresentationIntent)

  /// Why this value may not stand under `key`, or nil if it may.
  func problem(under key: AttributeKey) -> String? {
    switch (key, self) {
    case (.inlinePresentationIntent, .inlinePresentationIntent(let intent)):
      return InlinePresentationIntent.all.isSuperset(of: intent) && !intent.isEmpty
        ? nil : "an inline presentation intent names no known intent"
    case (.link, .link), (.imageURL, .link), (.imageTitle, .string), (.linkTitle, .string):
      return nil
    case (.footnoteReference, .string(let label)):
      return PresentationIntent.Kind.isFootnoteLabel(label)
        ? nil : "a footnote's label is not empty and has no space, line break or ']'"
    case (.footnoteReference, _):
      return "the key '\(key)' takes a string"
    case (.presentationIntent, .presentationIntent(let intent)):
      return intent.problem
    case (.inlinePresentationIntent, _), (.link, _), (.presentationIntent, _), (.imageURL, _):
      return "the key '\(key)' takes a value of its own kind"
    case (.imageTitle, _), (.linkTitle, _):
      return "the key '\(key)' takes a string"
    case (_, .string), (_, .integer), (_, .boolean):
      return nil
    default:
      return "a host key takes a string, an integer or a Boolean"
    }
  }
}

extension PresentationIntent {
  /// Why this intent is not well formed, or nil if it is: it has at least
  /// one component, a header's level is 1 to 6, a list item's ordinal and
  /// the row and column indices are not negative.
  var problem: String? {
    if components.isEmpty { return "a presentation intent has no component" }
    for component in components {
      switch component.kind {
      case .header(let level) where !(1...6).contains(level):
        return "a header's level is 1 to 6, not \(level)"
      case .listItem(let ordinal) where ordinal < 0:
        return "a list item's ordinal is not negative"
      case .tableRow(let index) where index < 0:
        return "a table row's index is not negative"
      case .tableCell(let index) where index < 0:
        return "a table cell's column is not negative"
      case .footnoteDefinition(let label):
        if !PresentationIntent.Kind.isFootnoteLabel(label) {
          return "a footnote's label is not empty and has no space, line break or ']'"
        }
        if component != components.first {
          return "a footnote's definition is outermost"
        }
      default: break
      }
      if component.isChecked != nil, !component.kind.isListItem {
        return "only a list item has a box to check"
      }
      if component.isLoose, !component.kind.isListContainer {
        return "only a list is loose or tight"
      }
    }
    return nil
  }
}

/// A run of text with its attributes: what a storage, a context or a
/// replacement holds as attributed text. `range` is in UTF-16 units of the
/// text the runs describe; `attributes` has every key with a value there.
public struct AttributeRun: Hashable, Sendable {
  /// The units the run covers.
  public var range: Range<Int>
  /// Every attribute of those units, by key.
  public var attributes: [AttributeKey: AttributeValue]

  /// A run.
  public init(_ range: Range<Int>, _ attributes: [AttributeKey: AttributeValue]) {
    self.range = range
    self.attributes = attributes
  }
}
