import Synchronization

/// A spell checker for one language, backed by Enchant 2 (and through it
/// Hunspell, Aspell, …), loaded at run time.
///
/// ```swift
/// do {
///   let checker = try SpellChecker(language: "en_US")
///   checker.isCorrect("recieve")                // false
///   checker.suggestions(for: "recieve").first   // "receive"
/// } catch {
///   print(error)  // e.g. "No spell checker: Enchant 2 could not be loaded …"
/// }
/// ```
///
/// Enchant is opened with `dlopen` (`libenchant-2.so.2`, then
/// `libenchant-2.so`) the first time it is needed, so the package builds and
/// the editor runs where it is absent: the initializer then throws
/// ``SpellingError/libraryMissing(tried:reason:)`` and the editor goes on
/// without spell checking.
///
/// ## Words
/// Splitting text into words is the caller's job (ICU word boundaries). What
/// the checker does with a word:
/// - A word that is empty, has no letters ("3.14", "—"), contains a decimal
///   digit ("mp3", "2nd", "H2O") or contains NUL is not looked up: it is
///   correct and has no suggestions.
/// - A word longer than ``maximumWordLength`` UTF-8 bytes (a URL, a hash) is
///   not looked up either: it is correct and has no suggestions.
/// - The curly apostrophe U+2019 is sent as the straight one ("don’t" is
///   checked as "don't"); suggestions for a word written with the curly one
///   come back with curly ones.
/// - Case is left to the dictionary: "Monday" and "MONDAY" are correct,
///   "monday" is not; an all-caps word is checked like any other.
/// - Words reach Enchant as UTF-8 with their byte length, never as
///   NUL-terminated strings.
///
/// ## Threads
/// Enchant dictionaries are not thread-safe: every call on one checker takes
/// its lock, so a checker can be shared between threads (the editor checks
/// off its main loop). Creating and freeing checkers is serialized
/// process-wide.
public final class SpellChecker: Sendable {
  /// The longest word, in UTF-8 bytes after straightening apostrophes, that
  /// is looked up; longer words count as correct.
  public static let maximumWordLength = 100

  /// The language tag of the dictionary, as Enchant describes it: the one
  /// asked for, normalized ("en_US" for "en-US"). Enchant may serve a tag
  /// it has no exact dictionary for with a more general one ("en_ZZ" with
  /// "en").
  public let language: String

  /// The Enchant provider serving the dictionary, such as "hunspell" or
  /// "aspell".
  public let provider: String

  private let dictionary: Mutex<_EnchantDictionary>

  /// Loads Enchant if needed and opens the dictionary for a language.
  ///
  /// - Parameter language: A language tag such as "en_US" (Enchant also
  ///   accepts "en-US").
  /// - Throws: ``SpellingError/libraryMissing(tried:reason:)`` or
  ///   ``SpellingError/entryPointMissing(name:library:)`` if Enchant 2 cannot
  ///   be used; ``SpellingError/noDictionary(language:available:)`` if no
  ///   dictionary serves `language`; ``SpellingError/enchant(_:)`` if Enchant
  ///   fails otherwise.
  /// - Complexity: Reads the dictionary from disk: milliseconds to a
  ///   fraction of a second. Create one checker and keep it.
  public init(language: String = "en_US") throws(SpellingError) {
    let library = try _EnchantLibrary.shared.get()
    let dictionary = try _EnchantDictionary(library: library, language: language)
    self.language = dictionary.language
    provider = dictionary.provider
    self.dictionary = Mutex(dictionary)
  }

  /// The languages that have a dictionary installed.
  ///
  /// - Returns: Language tags such as "en_US", sorted, without duplicates
  ///   (several providers may serve one language).
  /// - Throws: ``SpellingError/libraryMissing(tried:reason:)`` or
  ///   ``SpellingError/entryPointMissing(name:library:)`` if Enchant 2 cannot
  ///   be used; ``SpellingError/enchant(_:)`` if Enchant fails.
  /// - Complexity: Asks every provider to list its dictionaries.
  public static func availableLanguages() throws(SpellingError) -> [String] {
    try _EnchantDictionary.languages(library: _EnchantLibrary.shared.get())
  }

  /// Whether a word is spelled correctly.
  ///
  /// Words the checker does not look up (see "Words" above) are correct, as
  /// are words passed to ``ignore(_:)``. If Enchant reports an error for the
  /// word, it is treated as correct.
  ///
  /// - Parameter word: One word, as word segmentation gives it.
  /// - Returns: `false` only if the dictionary rejects the word.
  /// - Complexity: O(*n*) in the word's length, plus the dictionary lookup.
  public func isCorrect(_ word: String) -> Bool {
    guard let word = _SpellingWord(word) else { return true }
    return dictionary.withLock { $0.isCorrect(word.utf8) }
  }

  /// Corrections for a word, most likely first.
  ///
  /// - Parameters:
  ///   - word: One word, usually one that ``isCorrect(_:)`` rejected.
  ///   - limit: The most suggestions to return; zero or less gives none.
  /// - Returns: Enchant's suggestions in its order, without duplicates,
  ///   invalid UTF-8 from the library repaired, curly apostrophes restored
  ///   if `word` had one. Empty for words the checker does not look up.
  /// - Complexity: The provider's search, typically a few milliseconds; it
  ///   holds the checker's lock meanwhile.
  public func suggestions(for word: String, limit: Int = 8) -> [String] {
    guard limit > 0, let word = _SpellingWord(word) else { return [] }
    let candidates = dictionary.withLock { $0.suggestions(word.utf8) }
    var seen: Set<String> = []
    var result: [String] = []
    for candidate in candidates where result.count < limit {
      let suggestion = word.restyled(candidate)
      if !suggestion.isEmpty, seen.insert(suggestion).inserted {
        result.append(suggestion)
      }
    }
    return result
  }

  /// Accepts a word for the rest of this checker's life (Enchant's session
  /// list; nothing is written to disk).
  ///
  /// A word the checker does not look up is already correct; ignoring it
  /// does nothing.
  ///
  /// - Parameter word: The word to accept, in any apostrophe style.
  /// - Complexity: O(*n*) in the word's length.
  public func ignore(_ word: String) {
    guard let word = _SpellingWord(word) else { return }
    dictionary.withLock { $0.addToSession(word.utf8) }
  }

  /// Whether a word was accepted with ``ignore(_:)`` (or is in the user's
  /// personal Enchant word list).
  ///
  /// - Parameter word: The word to ask about.
  /// - Returns: `true` if Enchant has the word in its session or personal
  ///   list; `false` for words the checker does not look up.
  /// - Complexity: O(*n*) in the word's length.
  public func isIgnored(_ word: String) -> Bool {
    guard let word = _SpellingWord(word) else { return false }
    return dictionary.withLock { $0.isAdded(word.utf8) }
  }

  /// The positions of the misspelled words in a list, checked under one
  /// lock.
  ///
  /// - Parameter words: Words, as word segmentation gives them.
  /// - Returns: The indices into `words` of those ``isCorrect(_:)`` would
  ///   reject, ascending.
  /// - Complexity: O(*n*) in the total length, plus one lookup per word.
  public func misspellings(in words: [String]) -> [Int] {
    let prepared = words.enumerated().compactMap { index, word in
      _SpellingWord(word).map { (index, $0.utf8) }
    }
    guard !prepared.isEmpty else { return [] }
    return dictionary.withLock { dictionary in
      prepared.compactMap { index, utf8 in dictionary.isCorrect(utf8) ? nil : index }
    }
  }
}
