// The records of suggestions, ignored suggestions and accepted
// suggestions, beside their tracked ranges (see DocumentState+Review.swift).

/// A suggestion's record: what it proposes, and its preview.
struct _SuggestionRecord: Sendable {
  let storage: StorageID
  let local: UInt32
  let kind: SuggestionKind
  let explanation: String
  let candidates: [SuggestionCandidate]
  /// While a candidate is previewed: which, and the text it replaced,
  /// with its attributes (what a reject puts back).
  var preview: (candidate: Int, replaced: AttributedText)? = nil
  /// With the history recording: the action that recorded the preview's
  /// edits (on no stack). Its piece holds the text the preview replaced,
  /// with the marks that were in it: taking the preview back puts them
  /// back where they were, and an accept makes the action its group.
  var previewAction: Int? = nil
}

/// The suggestions' records: for each storage (by serial), an array
/// indexed by the number of the suggestion's tracked range, so that a
/// checker's full pass and a view's query find each record without hashing
/// its id.
struct _SuggestionTables: Sendable {
  var tables: [Int: [_SuggestionRecord?]] = [:]
  /// How many records there are.
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// The record of suggestion `id`.
  subscript(id: SuggestionID) -> _SuggestionRecord? {
    get {
      guard let table = tables[id.serial], Int(id.local) < table.count else { return nil }
      return table[Int(id.local)]
    }
    set {
      let i = Int(id.local)
      if newValue == nil && (tables[id.serial]?.count ?? 0) <= i { return }
      var change = 0
      update(serial: id.serial, upTo: i + 1) { table in
        change = (newValue == nil ? 0 : 1) - (table[i] == nil ? 0 : 1)
        table[i] = newValue
      }
      count += change
    }
  }

  /// The table of storage `serial` (records by number), if it has any.
  func table(_ serial: Int) -> [_SuggestionRecord?]? { tables[serial] }

  /// Changes the table of storage `serial` in place, grown to `size`
  /// numbers at least; `body` keeps ``count`` right for what it sets.
  mutating func update(
    serial: Int, upTo size: Int, _ body: (inout [_SuggestionRecord?]) -> Void
  ) {
    tables[serial, default: []].withGrowth(to: size, body)
  }

  /// Adds `n` to the count (a bulk ``update(serial:upTo:_:)`` that set `n`
  /// records where there were none).
  mutating func added(_ n: Int) { count += n }

  /// Forgets the records of storage `serial`.
  mutating func forget(serial: Int) {
    guard let table = tables.removeValue(forKey: serial) else { return }
    count -= table.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
  }
}

extension Array where Element == _SuggestionRecord? {
  /// Grows to `size` elements at least (with `nil`), then runs `body`.
  fileprivate mutating func withGrowth(to size: Int, _ body: (inout Self) -> Void) {
    if count < size { append(contentsOf: repeatElement(nil, count: size - count)) }
    body(&self)
  }
}

/// A rejected suggestion's kind and text: the same is refused later.
struct _IgnoredSuggestion: Hashable, Sendable {
  var kind: String
  var text: String
}

/// An accepted suggestion, for undo and redo: its text is tracked range
/// `local` (role `.accepted`, removed when someone else's edit touches it:
/// it then stays as it is).
struct _AcceptedSuggestion: Sendable {
  let storage: StorageID
  let local: UInt32
  /// The text it replaced, with its attributes.
  let original: AttributedText
  /// The text it put in, with its attributes.
  let accepted: AttributedText
  var undone = false
  /// False once its storage was removed.
  var alive = true
}
