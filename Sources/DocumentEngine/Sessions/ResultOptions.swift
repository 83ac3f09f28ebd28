/// What kind of text a session's tool may give back (Apple's
/// `NSWritingToolsCoordinator` result options, `UIWritingToolsResultOptions`,
/// with the same bits): plain text, or rich text with lists, tables and
/// presentation intents. `list`, `table` and `presentationIntent` imply
/// `richText`.
///
/// A replacement's attributes are filtered by them
/// (docs/DESIGN.md, "Attributes"): under ``plainText`` alone they are
/// ignored; under ``richText`` the tool decides the inline presentation
/// intents and links of its text; with ``presentationIntent`` it also gives
/// block intents, keeping list components only with ``list`` and table
/// components only with ``table``. Every other key, the host's own
/// included, follows the edit rule: a tool cannot strip a host's font.
public struct ResultOptions: OptionSet, Hashable, Sendable {
  /// The bits.
  public let rawValue: Int

  /// The options whose bits are set in `rawValue`.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Plain text only (the default).
  public static let plainText = Self(rawValue: 1 << 0)
  /// Rich text: inline presentation intents and links.
  public static let richText = Self(rawValue: 1 << 1)
  /// Lists, in presentation intents.
  public static let list = Self(rawValue: 1 << 2)
  /// Tables, in presentation intents.
  public static let table = Self(rawValue: 1 << 3)
  /// Presentation intents: the blocks of the text.
  public static let presentationIntent = Self(rawValue: 1 << 4)

  /// Every option with its name, in the order of their bits.
  public static let named: [(name: String, option: Self)] = [
    ("plainText", .plainText), ("richText", .richText), ("list", .list), ("table", .table),
    ("presentationIntent", .presentationIntent),
  ]

  /// The option with this name, or nil.
  public init?(name: String) {
    guard let found = Self.named.first(where: { $0.name == name }) else { return nil }
    self = found.option
  }

  /// The names of the options set, in the order of their bits.
  public var names: [String] { Self.named.filter { contains($0.option) }.map(\.name) }

  /// Whether a block component the tool gives is kept: list components
  /// only with ``list``, table components only with ``table``.
  func keeps(_ component: PresentationIntent.Component) -> Bool {
    (!component.kind.isList || contains(.list)) && (!component.kind.isTable || contains(.table))
  }

  /// Whether the tool may give rich text (``richText``, or an option that
  /// implies it).
  public var allowsRichText: Bool {
    !isDisjoint(with: [.richText, .list, .table, .presentationIntent])
  }
}

extension _NewTextAttributes {
  /// The attributes a tool's replacement gives its text under `options`:
  /// nil (the edit rule for every key) unless the options allow rich text;
  /// otherwise the inline presentation intents and links of `runs` decide
  /// theirs, and with ``ResultOptions/presentationIntent`` the runs'
  /// block intents (without the list or table components the options do
  /// not allow; one left with none counts as none given) overlay the edit
  /// rule's. Every other key follows the edit rule.
  static func forReplacement(
    _ runs: [AttributeRun], options: ResultOptions, maximal: Bool = false
  ) -> Self? {
    guard options.allowsRichText else { return nil }
    let blocks = options.contains(.presentationIntent)
    let decided = Self.inlineKeys
    let overlaid: [AttributeKey] = blocks ? [.presentationIntent] : []
    if runs.allSatisfy({
      !$0.attributes.isEmpty && Self.keepsAsIs($0.attributes, blocks: blocks, options: options)
    }) {
      return _NewTextAttributes(
        runs: runs, decided: decided, overlaid: overlaid, areMaximal: maximal)
    }
    var kept: [AttributeRun] = []
    kept.reserveCapacity(runs.count)
    for run in runs {
      if Self.keepsAsIs(run.attributes, blocks: blocks, options: options) {
        if !run.attributes.isEmpty { kept.append(run) }
        continue
      }
      var attributes: [AttributeKey: AttributeValue] = [:]
      for key in Self.inlineKeys { attributes[key] = run.attributes[key] }
      if blocks, case .presentationIntent(let intent)? = run.attributes[.presentationIntent] {
        let components = intent.components.filter(options.keeps)
        if !components.isEmpty {
          attributes[.presentationIntent] = .presentationIntent(PresentationIntent(components))
        }
      }
      if !attributes.isEmpty { kept.append(AttributeRun(run.range, attributes)) }
    }
    return _NewTextAttributes(runs: kept, decided: decided, overlaid: overlaid)
  }

  /// The keys a rich-text replacement decides for its text: inline
  /// intents, links and images (with their titles), footnote references.
  static let inlineKeys: [AttributeKey] = [
    .inlinePresentationIntent, .link, .linkTitle, .imageURL, .imageTitle, .footnoteReference,
  ]

  /// Whether `options` keep every attribute of `attributes` as it is: only
  /// inline intents and links, and (with `blocks`) a block intent none of
  /// whose components the options leave out.
  static func keepsAsIs(
    _ attributes: [AttributeKey: AttributeValue], blocks: Bool, options: ResultOptions
  ) -> Bool {
    for (key, value) in attributes {
      if Self.inlineKeys.contains(key) { continue }
      guard blocks, key == .presentationIntent, case .presentationIntent(let intent) = value,
        !intent.components.isEmpty,
        intent.components.allSatisfy(options.keeps)
      else { return false }
    }
    return true
  }
}
