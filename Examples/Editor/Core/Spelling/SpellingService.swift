import Dispatch
import DocumentEngine
import EditorSpelling
import Synchronization
import TextBoundaries
import TextRope

/// Checks paragraphs' spelling off the editor's loop, and hands back what
/// it found for the loop to land as suggestions.
///
/// A job is a snapshot of a cell's text (a rope: copying it copies no
/// text), the storage version it was taken at, and the paragraphs to check.
/// The worker cuts them into words at ICU's word boundaries, asks Enchant,
/// and leaves each misspelling with Enchant's candidates, in the offsets of
/// that version; ``Editor/landSpelling()`` maps them to the text as it is
/// by then, and drops those whose text the person has changed since.
public final class SpellingService: Sendable {
  /// One misspelled word, in the offsets of the version checked.
  public struct Finding: Hashable, Sendable {
    /// The word's range (UTF-16).
    public var range: Range<Int>
    /// The word as it was.
    public var word: String
    /// Enchant's candidates, best first.
    public var candidates: [String]
  }

  /// What one job found.
  public struct Result: Sendable {
    /// The storage checked.
    public var storage: StorageID
    /// The version its offsets belong to.
    public var version: StorageVersion
    /// The paragraphs checked (their findings replace any before).
    public var paragraphs: [Range<Int>]
    /// The misspellings in them.
    public var findings: [Finding]
  }

  /// The checker, shared with the worker.
  public let checker: SpellChecker
  private let queue = DispatchQueue(label: "editor.spelling")
  private let results = Mutex<[Result]>([])
  private let pending = Mutex<Int>(0)

  /// A service that checks with `checker`.
  public init(checker: SpellChecker) {
    self.checker = checker
  }

  /// Whether jobs are still being worked on.
  public var isBusy: Bool { pending.withLock { $0 > 0 } }

  /// Checks `paragraphs` of `text` (storage `id` at `version`) in the
  /// background.
  public func check(
    _ paragraphs: [Range<Int>], of text: Rope, storage id: StorageID, version: StorageVersion
  ) {
    pending.withLock { $0 += 1 }
    let checker = self.checker
    queue.async { [self] in
      let findings = Self.findings(in: paragraphs, of: text, checker: checker)
      results.withLock {
        $0.append(Result(storage: id, version: version, paragraphs: paragraphs, findings: findings))
      }
      pending.withLock { $0 -= 1 }
    }
  }

  /// The results finished since the last call.
  public func takeResults() -> [Result] {
    results.withLock { taken in
      defer { taken = [] }
      return taken
    }
  }

  /// The misspelled words of `paragraphs` of `text`.
  static func findings(
    in paragraphs: [Range<Int>], of text: Rope, checker: SpellChecker
  ) -> [Finding] {
    let boundaries = WordBoundaries(text)
    var found: [Finding] = []
    for paragraph in paragraphs {
      guard let words = try? boundaries.words(in: paragraph) else { continue }
      let strings = words.map { (try? text.string($0)) ?? "" }
      for i in checker.misspellings(in: strings) {
        found.append(
          Finding(
            range: words[i], word: strings[i],
            candidates: checker.suggestions(for: strings[i], limit: 6)))
      }
    }
    return found
  }
}
