import Testing
import TextRope
import _EngineTestSupport

@testable import DocumentEngine

/// Suggestions, previews, accepts and rejects interleaved with the person's
/// edits, a tool's replacements and undo, against a plain model that keeps
/// every UTF-16 unit with its attribute (one key, `link`), every suggestion
/// mapped by the contract's rule one at a time (``TrackedRangeModel``), the
/// preview's replaced units, and the ignored kinds and texts.
@Suite struct ReviewModelTests {
  struct Unit: Equatable, CustomStringConvertible {
    var code: UInt16
    var link: String?
    var description: String { "\(code)\(link.map { "[\($0)]" } ?? "")" }
  }

  struct ModelSuggestion {
    var tracked: TrackedRangeModel
    var kind: String
    var candidates: [SuggestionCandidate]
    var preview: (candidate: Int, replaced: [Unit], point: PreviewPoint)?
  }

  /// Where the text a preview replaced goes back when its accept is
  /// undone: the point where the preview's text started, which text typed
  /// there since goes after (the history's rule for any deletion's point:
  /// a person's edit over it leaves it at the edit's start, before the new
  /// text); `unknown` once another's edit took it into the text it
  /// replaced (that edit's undo may bring it back: FuzzDocument's per-unit
  /// model follows that, this one does not check it).
  enum PreviewPoint: Equatable {
    case at(Int)
    case unknown
  }

  /// Whose edit it is, for the previews' points.
  enum Editor { case person, other }

  struct Model {
    var units: [Unit] = []
    var suggestions: [SuggestionID: ModelSuggestion] = [:]
    var previewed: SuggestionID?
    var ignored: Set<[String]> = []

    func string(_ r: Range<Int>) -> String {
      String(decoding: units[r].map(\.code), as: UTF16.self)
    }

    /// The link new plain text over `r` takes: the first unit it replaces,
    /// else the unit before, else (at the start) the unit after.
    func ruleLink(_ r: Range<Int>) -> String? {
      if !r.isEmpty { return units[r.lowerBound].link }
      if r.lowerBound > 0 { return units[r.lowerBound - 1].link }
      return units.first?.link
    }

    /// `candidate`'s units where it replaces `r`.
    func units(of candidate: SuggestionCandidate, replacing r: Range<Int>) -> [Unit] {
      let codes = Array(candidate.text.utf16)
      guard let runs = candidate.attributes else {
        let link = ruleLink(r)
        return codes.map { Unit(code: $0, link: link) }
      }
      var made = codes.map { Unit(code: $0, link: nil) }
      for run in runs {
        if case .link(let value) = run.attributes[.link] {
          for i in run.range { made[i].link = value }
        }
      }
      return made
    }

    /// Replaces `r` with `new`; every suggestion but `keeping` follows the
    /// edit by the contract's rule (`keeping` is put over the new units).
    ///
    /// - Returns: the suggestions the edit removed, sorted.
    mutating func edit(
      _ r: Range<Int>, _ new: [Unit], keeping: SuggestionID? = nil, by editor: Editor = .other
    ) -> [SuggestionID] {
      let (s, e, n) = (r.lowerBound, r.upperBound, new.count)
      units.replaceSubrange(r, with: new)
      var removed: [SuggestionID] = []
      for (id, suggestion) in suggestions {
        guard let preview = suggestion.preview, case .at(let p) = preview.point else { continue }
        let point: PreviewPoint
        if p < s || (p == s && (id == keeping || r.isEmpty || editor == .person)) {
          point = .at(p)
        } else if p > e || (p == e && r.isEmpty) {
          point = .at(p + n - (e - s))
        } else {
          point = editor == .person ? .at(s) : .unknown
        }
        suggestions[id]?.preview?.point = point
      }
      for (id, suggestion) in suggestions where id != keeping {
        let (mapped, _) = suggestion.tracked.mapped(s, e, n)
        if let mapped {
          suggestions[id]?.tracked = mapped
        } else {
          suggestions[id] = nil
          removed.append(id)
          if previewed == id { previewed = nil }
        }
      }
      if let keeping { suggestions[keeping]?.tracked.range = s..<(s + n) }
      return removed.sorted()
    }

    /// Before a preview or accept of `id`: takes back another's preview,
    /// or, if that would touch `id`'s text, leaves it as text and drops
    /// its suggestion.
    mutating func settleOther(before id: SuggestionID) -> [SuggestionID] {
      guard let other = previewed, other != id, let o = suggestions[other],
        let mine = suggestions[id]
      else { return [] }
      if let preview = o.preview,
        TrackedRangeModel.touches(
          mine.tracked.range, o.tracked.range.lowerBound, o.tracked.range.upperBound,
          preview.replaced.count)
      {
        suggestions[other] = nil
        previewed = nil
        return [other]
      }
      return takeBack(other)
    }

    /// Takes back the preview of `id`, if it has one.
    mutating func takeBack(_ id: SuggestionID) -> [SuggestionID] {
      if previewed == id { previewed = nil }
      guard let suggestion = suggestions[id], let preview = suggestion.preview else { return [] }
      suggestions[id]?.preview = nil
      return edit(suggestion.tracked.range, preview.replaced, keeping: id)
    }
  }

  static let pieces = ["a", "b", "é", "😀", "\u{2029}", "\r\n", " ", "e\u{301}", "🇫🇷", "z"]

  static func text(_ random: inout SeededRandom, max: Int = 4) -> String {
    (0..<Int.random(in: 0...max, using: &random)).map { _ in
      pieces[Int.random(in: 0..<pieces.count, using: &random)]
    }.joined()
  }

  /// A random offset of `units` that is not inside a surrogate pair.
  static func offset(_ units: [Unit], _ random: inout SeededRandom) -> Int {
    var p = Int.random(in: 0...units.count, using: &random)
    if p < units.count && UTF16.isTrailSurrogate(units[p].code) { p -= 1 }
    return p
  }

  static func range(_ units: [Unit], _ random: inout SeededRandom) -> Range<Int> {
    let a = offset(units, &random)
    let b = offset(units, &random)
    return min(a, b)..<max(a, b)
  }

  static func candidate(_ random: inout SeededRandom, _ i: Int) -> SuggestionCandidate {
    let text = self.text(&random, max: 3)
    switch Int.random(in: 0..<3, using: &random) {
    case 0: return SuggestionCandidate(text)
    case 1: return SuggestionCandidate(text, attributes: [])
    default:
      let n = text.utf16.count
      return SuggestionCandidate(
        text, attributes: n == 0 ? [] : [AttributeRun(0..<n, [.link: .link("c\(i)")])])
    }
  }

  /// The engine's units of storage "s".
  static func units(_ document: Document) throws -> [Unit] {
    let storage = try document.content.storage("s")
    var units = String(storage.text).utf16.map { Unit(code: $0, link: nil) }
    for run in storage.attributeRuns(in: 0..<storage.length) {
      if case .link(let value) = run.attributes[.link] {
        for i in run.range { units[i].link = value }
      }
    }
    return units
  }

  /// The model's suggestions as the engine lists them.
  static func listed(_ model: Model) -> [Suggestion] {
    model.suggestions.map { id, s in
      Suggestion(
        id: id, storage: "s", range: s.tracked.range, contextRange: nil,
        kind: .init(rawValue: s.kind),
        explanation: "x", candidates: s.candidates, previewed: s.preview?.candidate)
    }.sorted { ($0.range.lowerBound, $0.id) < ($1.range.lowerBound, $1.id) }
  }

  @Test func reviewAgreesWithThePerUnitModel() throws {
    let seed = TestSettings.seed("ReviewModelTests.reviewAgreesWithThePerUnitModel")
    var random = SeededRandom(seed: seed)
    for round in 0..<TestSettings.iterations(12) {
      let document = Document()
      var model = Model()
      let initial = (0..<8).map { _ in Self.text(&random) }.joined()
      try document.add(
        "s", text: Rope(initial),
        attributes: initial.unicodeScalars.first.map {
          [AttributeRun(0..<UTF16.width($0), [.link: .link("start")])]
        } ?? [])
      model.units = try Self.units(document)
      let session = try document.startSession(scope: .fullDocument)
      let context = try #require(session.contexts.first?.id)
      var log: [String] = []
      for step in 0..<150 {
        let place = "seed \(seed), round \(round), step \(step)"
        do {
          let ids = model.suggestions.keys.sorted()
          let pick = ids.isEmpty ? nil : ids[Int.random(in: 0..<ids.count, using: &random)]
          switch Int.random(in: 0..<12, using: &random) {
          case 0, 1:
            // The person.
            let r = Self.range(model.units, &random)
            let text = Self.text(&random, max: 2)
            let explicit = Int.random(in: 0..<3, using: &random)
            let attributes: [AttributeKey: AttributeValue]? =
              explicit == 0 ? nil : explicit == 1 ? [:] : [.link: .link("p")]
            log.append("edit \(r) \(text.debugDescription) \(String(describing: attributes))")
            let result = try document.edit("s", range: r, with: text, attributes: attributes)
            let link = attributes == nil ? model.ruleLink(r) : (explicit == 2 ? "p" : nil)
            let removed = model.edit(
              r, text.utf16.map { Unit(code: $0, link: link) }, by: .person)
            #expect(result.tracked.removed == removed, "\(place): \(log)")
          case 2, 3:
            // A checker.
            var r = Self.range(model.units, &random)
            if r.count > 6 && Int.random(in: 0..<8, using: &random) != 0 {
              // Mostly a word's length.
              var end = min(model.units.count, r.lowerBound + Int.random(in: 0...5, using: &random))
              if end < model.units.count && UTF16.isTrailSurrogate(model.units[end].code) {
                end -= 1
              }
              r = r.lowerBound..<max(r.lowerBound, end)
            }
            let kind = Bool.random(using: &random) ? "spelling" : "grammar"
            let candidates = (0..<Int.random(in: 0...3, using: &random)).map {
              Self.candidate(&random, $0)
            }
            log.append("suggest \(r) \(kind) \(candidates)")
            let proposed = ProposedSuggestion(
              r, kind: SuggestionKind(rawValue: kind), explanation: "x", candidates: candidates)
            if model.ignored.contains([kind, model.string(r)]) {
              #expect(
                throws: DocumentError.ignoredSuggestion(
                  kind: .init(rawValue: kind), text: model.string(r)), "\(place)"
              ) {
                try document.suggest([proposed], in: "s")
              }
            } else {
              let id = try document.suggest([proposed], in: "s")[0]
              model.suggestions[id] = ModelSuggestion(
                tracked: TrackedRangeModel(
                  local: UInt32(truncatingIfNeeded: id.rawValue), range: r,
                  rules: TrackingRules(onTouch: .remove), point: r.isEmpty),
                kind: kind, candidates: candidates, preview: nil)
            }
          case 4, 5:
            guard let id = pick, let suggestion = model.suggestions[id] else { continue }
            let candidate = Int.random(in: 0...suggestion.candidates.count, using: &random)
            log.append("preview \(id) \(candidate)")
            guard candidate < suggestion.candidates.count else {
              #expect(
                throws: DocumentError.invalidCandidate(
                  candidate, count: suggestion.candidates.count), "\(place)"
              ) {
                try document.preview(id, candidate: candidate)
              }
              break
            }
            let result = try document.preview(id, candidate: candidate)
            #expect(result.reason == .temporary)
            var removed: [SuggestionID] = []
            removed += model.settleOther(before: id)
            if let now = model.suggestions[id], now.preview?.candidate != candidate {
              let r = now.tracked.range
              let replaced = now.preview?.replaced ?? Array(model.units[r])
              let new = model.units(of: now.candidates[candidate], replacing: r)
              removed += model.edit(r, new, keeping: id)
              let point = model.suggestions[id]?.preview?.point ?? .at(r.lowerBound)
              model.suggestions[id]?.preview = (candidate, replaced, point)
            }
            model.previewed = id
            #expect(result.tracked.removed == removed.sorted(), "\(place): \(log)")
            #expect(result.storageRange == model.suggestions[id]?.tracked.range, "\(place): \(log)")
          case 6, 7:
            guard let id = pick, let suggestion = model.suggestions[id] else { continue }
            let named: Int? =
              Bool.random(using: &random)
              ? nil : Int.random(in: 0..<max(1, suggestion.candidates.count), using: &random)
            let chosen = named ?? suggestion.preview?.candidate ?? 0
            log.append("accept \(id) \(String(describing: named))")
            guard chosen < suggestion.candidates.count else {
              #expect(
                throws: DocumentError.invalidCandidate(chosen, count: suggestion.candidates.count),
                "\(place)"
              ) {
                try document.accept(id, candidate: named)
              }
              break
            }
            let result = try document.accept(id, candidate: named)
            #expect(result.reason == .accepted)
            let settled = model.settleOther(before: id)
            guard let now = model.suggestions[id] else {
              Issue.record("\(place): the suggestion went with another's preview")
              break
            }
            let r = now.tracked.range
            let original = now.preview?.replaced ?? Array(model.units[r])
            var landed = r
            if now.preview?.candidate != chosen {
              let new = model.units(of: now.candidates[chosen], replacing: r)
              _ = model.edit(r, new, keeping: id)
              landed = r.lowerBound..<(r.lowerBound + new.count)
            }
            model.suggestions[id] = nil
            if model.previewed == id { model.previewed = nil }
            #expect(result.storageRange == landed, "\(place): \(log)")
            _ = settled
            let accepted = Array(model.units[landed])
            #expect(try Self.units(document) == model.units, "\(place): \(log)")
            // Every accept can be undone, and redone, exactly, by the
            // history's rule: the text it replaced goes back at its point
            // (where its units start, or, after a preview, where the
            // preview's text started: before text typed there since), then
            // its units go (two edits; one if either is empty).
            let point: PreviewPoint = now.preview?.point ?? .at(landed.lowerBound)
            if case .at(let s) = point, Bool.random(using: &random) {
              log.append("undo")
              let undo = try document.undo()
              let l = landed.lowerBound
              let (o, a) = (original.count, accepted.count)
              #expect(
                undo.replacementCount == (o > 0 ? 1 : 0) + (a > 0 ? 1 : 0), "\(place): \(log)")
              _ = model.edit(s..<s, original)
              _ = model.edit((l + o)..<(l + o + a), [])
              #expect(try Self.units(document) == model.units, "\(place): \(log)")
              if Bool.random(using: &random) {
                log.append("redo")
                _ = try document.redo()
                _ = model.edit((l + o)..<(l + o), accepted)
                _ = model.edit(s..<(s + o), [])
              }
            }
          case 8:
            guard let id = pick, let suggestion = model.suggestions[id] else { continue }
            log.append("reject \(id)")
            let original =
              suggestion.preview.map { String(decoding: $0.replaced.map(\.code), as: UTF16.self) }
              ?? model.string(suggestion.tracked.range)
            let result = try document.reject(id)
            #expect(result.reason == .rejected)
            let removed = model.takeBack(id)
            #expect(result.tracked.removed == removed, "\(place): \(log)")
            model.suggestions[id] = nil
            model.ignored.insert([suggestion.kind, original])
          case 9:
            // The tool, in its context, undone now and then right away.
            guard let live = try? document.liveContext(context) else { continue }
            let inside = Array(model.units[live.storageRange])
            let local = Self.range(inside, &random)
            let base = live.storageRange.lowerBound
            let r = (base + local.lowerBound)..<(base + local.upperBound)
            let text = Self.text(&random, max: 2)
            log.append("replace \(r) \(text.debugDescription)")
            let original = Array(model.units[r])
            let result = try document.replace(context: context, range: local, with: text)
            #expect(result.reason == .noninteractive)
            let new = text.utf16.map { Unit(code: $0, link: model.ruleLink(r)) }
            let removed = model.edit(r, new)
            #expect(result.tracked.removed == removed, "\(place): \(log)")
            if !(r.isEmpty && text.isEmpty) && Bool.random(using: &random) {
              log.append("undo")
              _ = try document.undo()
              _ = model.edit(r.lowerBound..<(r.lowerBound + new.count), original)
            }
          default:
            // Hostile requests change nothing.
            let before = try Self.units(document)
            let listed = try document.suggestions(in: "s")
            let gone = TrackedRangeID(rawValue: (1 << 40) | 7)
            #expect(throws: DocumentError.unknownSuggestion(gone)) {
              try document.preview(gone, candidate: 0)
            }
            #expect(throws: DocumentError.unknownSuggestion(gone)) { try document.accept(gone) }
            #expect(throws: DocumentError.unknownSuggestion(gone)) { try document.reject(gone) }
            #expect(throws: DocumentError.self) {
              try document.suggest(
                [ProposedSuggestion(0..<(before.count + 1), kind: .spelling)], in: "s")
            }
            #expect(try Self.units(document) == before)
            #expect(try document.suggestions(in: "s") == listed)
          }
          #expect(try Self.units(document) == model.units, "\(place): \(log)")
          let listed = try document.suggestions(in: "s").map {
            var s = $0
            s.explanation = "x"
            return s
          }
          #expect(listed == Self.listed(model), "\(place): \(log)")
          if try Self.units(document) != model.units || listed != Self.listed(model) { return }
        } catch {
          Issue.record("\(place): \(error) after \(log.suffix(6))")
          return
        }
      }
    }
  }
}
