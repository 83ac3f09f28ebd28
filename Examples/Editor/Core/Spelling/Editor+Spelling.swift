import DocumentEngine
import TextRope

extension Editor {
  // MARK: - Checking

  /// Sends the visible paragraphs that changed since they were checked to
  /// the spell checker (when the person pauses). Each job's version is
  /// pinned until its findings land, so that they can be mapped through
  /// the edits made meanwhile.
  public func checkVisibleSpelling() {
    guard let spelling else { return }
    var jobs: [Int: [Range<Int>]] = [:]
    for (cell, range, _) in changedVisibleParagraphs(since: &checkedParagraphs) {
      jobs[cell, default: []].append(range)
    }
    for (cell, paragraphs) in jobs {
      guard let storage = storage(cell) else { continue }
      do {
        try document.pin(storage.id, version: storage.version)
      } catch {
        continue
      }
      spelling.check(paragraphs, of: storage.text, storage: storage.id, version: storage.version)
    }
  }

  /// The visible paragraphs that are not in `seen` (by cell, start and
  /// text) — each once, added to it — with their cell, their range (without
  /// the separator) and their text; of one cell only if `cell` is given.
  func changedVisibleParagraphs(
    since seen: inout Set<CheckedParagraph>, in cell: Int? = nil
  ) -> [(cell: Int, range: Range<Int>, text: String)] {
    var found: [(cell: Int, range: Range<Int>, text: String)] = []
    var lines: Set<Int> = []
    for line in shownLines() {
      guard case .text(let c, let start, _) = line, notebook.cells.indices.contains(c),
        cell == nil || cell == c
      else { continue }
      guard lines.insert(c &* 1_000_003 &+ start).inserted else { continue }
      let layout = paragraph(c, containing: start)
      guard !layout.text.isEmpty else { continue }
      let checked = CheckedParagraph(storage: id(c), start: start, text: layout.text)
      guard !seen.contains(checked) else { continue }
      if seen.count > 100_000 { seen.removeAll() }
      seen.insert(checked)
      found.append((c, start..<(start + layout.contentsLength), layout.text))
    }
    return found
  }

  /// Lands the spell checker's findings as suggestions: each mapped from
  /// the version it was checked at to the text now, unless the person
  /// changed that word since; a word already suggested there, or ignored,
  /// is not suggested again.
  ///
  /// - Returns: whether anything landed (the screen must be drawn again).
  @discardableResult
  public func landSpelling() -> Bool {
    guard let spelling else { return false }
    var landed = false
    for result in spelling.takeResults() {
      defer { document.unpin(result.storage, version: result.version) }
      for finding in result.findings {
        guard
          let range = foundNow(
            finding.range, in: result.storage, from: result.version, kind: .spelling)
        else { continue }
        let proposal = ProposedSuggestion(
          range, kind: .spelling, explanation: "Possible spelling mistake",
          candidates: finding.candidates.map { SuggestionCandidate($0) })
        // An ignored word is refused: nothing to land.
        if (try? document.suggest([proposal], in: result.storage)) != nil { landed = true }
      }
    }
    return landed
  }

  /// Where a checker's finding at `range` of `version` is now, if it is to
  /// land as a suggestion of `kind`: not if the person changed its text
  /// since, nor if a suggestion of that kind (and `explanation`, if given)
  /// is there already.
  func foundNow(
    _ range: Range<Int>, in id: StorageID, from version: StorageVersion, kind: SuggestionKind,
    explanation: String? = nil
  ) -> Range<Int>? {
    guard
      let touched = try? document.isTouched(range, in: id, since: version), !touched,
      let lower = try? document.map(range.lowerBound, in: id, from: version),
      let upper = try? document.map(range.upperBound, in: id, from: version, bias: .left),
      lower.offset < upper.offset
    else { return nil }
    let now = lower.offset..<upper.offset
    let existing = (try? document.suggestions(in: id, overlapping: now)) ?? []
    let there = existing.contains {
      $0.range == now && $0.kind == kind && (explanation == nil || $0.explanation == explanation)
    }
    return there ? nil : now
  }

  /// The suggestions of every cell, in the notebook's order.
  func allSuggestions() -> [(cell: Int, suggestion: Suggestion)] {
    var all: [(Int, Suggestion)] = []
    for cell in notebook.cells.indices {
      for suggestion in (try? document.suggestions(in: id(cell))) ?? [] {
        all.append((cell, suggestion))
      }
    }
    return all
  }

  // MARK: - Reviewing

  /// Goes to the next suggestion after the selection's start (around to
  /// the first), selects it, and shows its candidates.
  func nextSuggestion() {
    let all = allSuggestions()
    guard !all.isEmpty else {
      message = spelling == nil ? "No spell checker" : "No suggestions"
      currentSuggestion = nil
      return
    }
    let from = selection.start
    let next =
      all.first { Position(cell: $0.cell, offset: $0.suggestion.range.lowerBound) > from }
      ?? all[0]
    currentSuggestion = next.suggestion.id
    previewIndex = nil
    select(next.cell, next.suggestion.range)
    describe(next.suggestion)
  }

  /// Previews the current suggestion's next candidate in place.
  func previewNextCandidate() {
    guard let current = currentSuggestion,
      let suggestion = try? document.suggestion(current), !suggestion.candidates.isEmpty,
      let cell = notebook.cells.firstIndex(where: { $0.id == suggestion.storage })
    else {
      currentSuggestion = nil
      return
    }
    let next = ((previewIndex ?? -1) + 1) % suggestion.candidates.count
    do {
      let result = try document.preview(current, candidate: next)
      previewIndex = next
      select(cell, result.storageRange)
      if let now = try? document.suggestion(current) { describe(now) }
    } catch {
      message = "\(error)"
      currentSuggestion = nil
    }
  }

  /// Accepts the current suggestion (the previewed candidate, else the
  /// first): one group of the document's history.
  func acceptSuggestion() {
    guard let current = currentSuggestion,
      let suggestion = try? document.suggestion(current),
      let cell = notebook.cells.firstIndex(where: { $0.id == suggestion.storage })
    else { return }
    currentSuggestion = nil
    do {
      let result = try document.accept(current, candidate: previewIndex)
      head = Position(cell: cell, offset: result.storageRange.upperBound)
      anchor = head
      syncSelection()
    } catch {
      message = "\(error)"
    }
    previewIndex = nil
  }

  /// Ignores the current suggestion: rejected (a preview is taken back),
  /// its word ignored for the document and in the checker's session, and
  /// the same word's other suggestions rejected too.
  func ignoreSuggestion() {
    guard let current = currentSuggestion,
      let suggestion = try? document.suggestion(current),
      let cell = notebook.cells.firstIndex(where: { $0.id == suggestion.storage })
    else { return }
    currentSuggestion = nil
    previewIndex = nil
    do {
      let result = try document.reject(current)
      let word = (try? text(cell).string(result.storageRange)) ?? ""
      if !word.isEmpty {
        spelling?.checker.ignore(word)
        for (other, s) in allSuggestions() where s.kind == .spelling {
          if (try? text(other).string(s.range)) == word { _ = try? document.reject(s.id) }
        }
      }
      head = Position(cell: cell, offset: result.storageRange.upperBound)
      anchor = head
      syncSelection()
      message = word.isEmpty ? nil : "Ignoring “\(word)”"
    } catch {
      message = "\(error)"
    }
  }

  /// Selects `range` of `cell`.
  func select(_ cell: Int, _ range: Range<Int>) {
    anchor = Position(cell: cell, offset: range.lowerBound)
    head = Position(cell: cell, offset: range.upperBound)
    syncSelection()
    scrollToCaret()
  }

  /// Says in the status line what the suggestion proposes.
  func describe(_ suggestion: Suggestion) {
    let candidates = suggestion.candidates.enumerated().map { i, candidate in
      i == previewIndex ? "[\(candidate.text)]" : candidate.text
    }
    message =
      candidates.isEmpty
      ? "\(suggestion.explanation): no candidates — Esc ignores"
      : "\(candidates.joined(separator: ", ")) — Tab previews, Enter accepts, Esc ignores"
  }
}
