import TextRope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Building the contexts a writing tool gets for a scope (docs/DESIGN.md,
// "Contexts"; docs/Contexts.md): from the storages, the selection and the
// visible ranges, without copying text.
extension DocumentContent {
  /// The position in document order of a position: its storage's start plus
  /// its offset.
  func documentOffset(_ position: TextPosition) throws(DocumentError) -> Int {
    let storage = try storage(position.storage)
    do {
      _ = try storage.text.utf8Offset(of: position.offset, in: .utf16)
    } catch {
      throw .invalidRange(position.storage, error)
    }
    return (try? index.documentOffset(of: position.offset, in: position.storage)) ?? 0
  }

  /// The selection with every position checked (storage known, offset in
  /// bounds and not inside a surrogate pair) and every range ordered.
  ///
  /// - Throws: ``DocumentError``.
  public func validated(_ selection: [SelectionRange]) throws(DocumentError) -> [SelectionRange] {
    var result: [SelectionRange] = []
    for range in selection {
      let a = try documentOffset(range.start)
      let b = try documentOffset(range.end)
      result.append(a <= b ? range : SelectionRange(from: range.end, to: range.start))
    }
    return result
  }

  /// A validated selection laid out by storage positions, so that the part
  /// of it in each storage is a few integer comparisons.
  struct SelectionLayout {
    /// The non-empty ranges: first and last storage positions, and offsets.
    var spans: [(first: Int, last: Int, start: Int, end: Int)] = []
    /// The first caret in each storage.
    var carets: [StorageID: Int] = [:]

    init(_ selection: [SelectionRange], _ index: DocumentIndex) {
      for range in selection {
        if range.isCaret {
          if carets[range.start.storage] == nil { carets[range.start.storage] = range.start.offset }
          continue
        }
        guard let first = try? index.position(of: range.start.storage),
          let last = try? index.position(of: range.end.storage)
        else { continue }
        spans.append((first, last, range.start.offset, range.end.offset))
      }
    }

    /// Whether any character is selected.
    var hasCharacters: Bool { !spans.isEmpty }

    /// The first caret in storage `id`, if any.
    func caret(in id: StorageID) -> Int? { carets.isEmpty ? nil : carets[id] }

    /// The hull of the selected characters in the storage at `position`
    /// (of `length` units), or nil.
    func hull(at position: Int, length: Int) -> Range<Int>? {
      if spans.isEmpty { return nil }
      var hull: Range<Int>? = nil
      for span in spans where span.first <= position && position <= span.last {
        let lower = span.first == position ? span.start : 0
        let upper = span.last == position ? span.end : length
        guard lower < upper else { continue }
        hull = hull.map { min($0.lowerBound, lower)..<max($0.upperBound, upper) } ?? lower..<upper
      }
      return hull
    }
  }

  /// The contexts a writing tool gets for `scope` (the contract in
  /// docs/DESIGN.md, "Contexts"), in document order.
  ///
  /// - Parameters:
  ///   - scope: which text to hand out.
  ///   - selection: the selection (ranges may span storages; empty ranges
  ///     are carets).
  ///   - visible: the visible range of each storage that has one.
  ///   - surroundingParagraphs: for `.userSelection`, how many more
  ///     paragraphs to include on each side (`Int.max`: all of them).
  /// - Throws: ``DocumentError`` for a selection or visible range that is
  ///   not valid in the document; ``DocumentError/negativeCount(_:)`` for a
  ///   negative `surroundingParagraphs`.
  /// - Complexity: O(s + log n + the paragraphs touched) for s storages; no
  ///   text is copied.
  public func contexts(
    for scope: ContextScope, selection: [SelectionRange],
    visible: [StorageID: Range<Int>] = [:], surroundingParagraphs: Int = 0
  ) throws(DocumentError) -> [WritingContext] {
    guard surroundingParagraphs >= 0 else { throw .negativeCount(surroundingParagraphs) }
    let layout = SelectionLayout(try validated(selection), index)
    var result: [WritingContext] = []
    if scope == .fullDocument {
      // Every storage by position, read from the entries without a lookup
      // or an index walk.
      var ordered: [TextStorage?] = Array(repeating: nil, count: index.count)
      for entry in entries.values { ordered[entry.position] = entry.storage }
      result.reserveCapacity(ordered.count)
      for (position, storage) in ordered.enumerated() {
        guard let storage, case let length = storage.length, length > 0 else { continue }
        let whole = 0..<length
        let selected =
          layout.hull(at: position, length: length)
          ?? layout.caret(in: storage.id).map { $0..<$0 } ?? whole
        result.append(context(storage, whole, selected: selected))
      }
      Self.identify(&result)
      return result
    }
    // Walk the storages in order, with their positions and lengths.
    var cursor = index.tree.cursorAtStart()
    var position = -1
    while let slot = cursor.item {
      cursor.moveNext()
      position += 1
      let id = slot.id
      switch scope {
      case .userSelection:
        if layout.hasCharacters {
          guard let hull = layout.hull(at: position, length: slot.length) else { continue }
          let storage = try storage(id)
          let bounds = try paragraphBounds(of: hull, in: storage, extra: surroundingParagraphs)
          result.append(context(storage, bounds, selected: hull))
        } else if let caret = layout.caret(in: id) {
          let storage = try storage(id)
          result.append(context(storage, 0..<storage.length, selected: caret..<caret))
        }
      case .fullDocument:
        break
      case .visibleArea:
        guard let shown = visible[id] else { continue }
        let storage = try storage(id)
        for offset in [shown.lowerBound, shown.upperBound] {
          do {
            _ = try storage.text.utf8Offset(of: offset, in: .utf16)
          } catch {
            throw .invalidRange(id, error)
          }
        }
        let bounds = try paragraphBounds(of: shown, in: storage, extra: 0)
        var selected = shown
        if let hull = layout.hull(at: position, length: slot.length), hull.overlaps(bounds) {
          selected = hull.clamped(to: bounds)
        } else if let caret = layout.caret(in: id),
          try Self.paragraph(of: caret, in: storage, isIn: bounds)
        {
          selected = caret..<caret
        }
        result.append(context(storage, bounds, selected: selected))
      }
    }
    Self.identify(&result)
    return result
  }

  /// Gives the contexts fresh identifiers, made in one go.
  static func identify(_ contexts: inout [WritingContext]) {
    let ids = _Identifiers.make(count: contexts.count)
    for i in contexts.indices { contexts[i].id = ids[i] }
  }

  /// The identifier a context holds until ``contexts(for:selection:visible:surroundingParagraphs:)``
  /// gives it a fresh one.
  static let placeholderID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

  /// `range` grown to whole paragraphs (the paragraph of its first character
  /// through the paragraph of its last; for an empty range, its paragraph),
  /// plus `extra` paragraphs on each side.
  func paragraphBounds(
    of range: Range<Int>, in storage: TextStorage, extra: Int
  ) throws(DocumentError) -> Range<Int> {
    let text = storage.text
    do {
      if extra == 0 {
        // The common case in two paragraph lookups.
        let first = try text.paragraph(containing: range.lowerBound).range
        if range.upperBound <= first.upperBound { return first.lowerBound..<first.upperBound }
        let last = try text.paragraph(containing: range.upperBound).range
        // A range that ends right after a separator ends in the paragraph
        // that separator closes: the last selected character decides.
        let end = last.lowerBound == range.upperBound ? range.upperBound : last.upperBound
        return first.lowerBound..<end
      }
      let first = try text.paragraphNumber(at: range.lowerBound)
      var last = try text.paragraphNumber(at: range.upperBound)
      // A range that ends right after a separator ends in the paragraph that
      // separator closes: the last selected character decides.
      if !range.isEmpty && last > first, try text.paragraphStart(last) == range.upperBound {
        last -= 1
      }
      // `extra` may be as large as Int.max: clamp before adding.
      let more = min(extra, text.paragraphCount)
      let start = try text.paragraphStart(max(0, first - more))
      let endNumber = last + more + 1
      let end =
        endNumber < text.paragraphCount ? try text.paragraphStart(endNumber) : text.utf16Count
      return start..<end
    } catch {
      throw .invalidRange(storage.id, error)
    }
  }

  /// Whether the paragraph a caret stands in lies in `bounds` (whole
  /// paragraphs): a caret right after a separator stands in the next
  /// paragraph, one at the end of a text without a final separator in the
  /// last.
  static func paragraph(
    of caret: Int, in storage: TextStorage, isIn bounds: Range<Int>
  ) throws(DocumentError) -> Bool {
    let start: Int
    do {
      start = try storage.text.paragraph(containing: caret).range.lowerBound
    } catch {
      throw .invalidRange(storage.id, error)
    }
    return bounds.lowerBound <= start
      && (start < bounds.upperBound || start == bounds.lowerBound)
  }

  /// A context of `bounds` of `storage`, with `selected` (storage
  /// coordinates) as its range.
  func context(
    _ storage: TextStorage, _ bounds: Range<Int>, selected: Range<Int>
  ) -> WritingContext {
    let text =
      bounds == 0..<storage.length ? storage.text : (try? storage.text.slice(bounds)) ?? Rope()
    let excluded = storage.excludedRanges(in: bounds).map {
      ($0.lowerBound - bounds.lowerBound)..<($0.upperBound - bounds.lowerBound)
    }
    let relative =
      (selected.lowerBound - bounds.lowerBound)..<(selected.upperBound - bounds.lowerBound)
    return WritingContext(
      id: Self.placeholderID, storage: storage.id, storageRange: bounds,
      version: storage.version,
      text: text,
      range: relative, excluded: excluded, attributes: storage.attributeRuns(in: bounds),
      resolvedRange: 0..<bounds.count, contextVersion: 0)
  }
}
