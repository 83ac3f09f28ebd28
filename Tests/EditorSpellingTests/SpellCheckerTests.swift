import EditorSpelling
import Testing

/// The en_US checker every test uses, failing (not skipping) with the fix
/// when Enchant or the dictionary is missing.
func englishChecker() throws -> SpellChecker {
  do {
    return try SpellChecker(language: "en_US")
  } catch {
    Issue.record(
      "These tests need Enchant 2 and an en_US dictionary (run .ci/setup): \(error)")
    throw error
  }
}

@Suite struct SpellCheckerTests {
  @Test(arguments: ["hello", "receive", "the", "don't", "editor", "checking", "I", "a"])
  func correctWords(_ word: String) throws {
    #expect(try englishChecker().isCorrect(word))
  }

  @Test(arguments: [("recieve", "receive"), ("teh", "the"), ("speling", "spelling")])
  func misspellingsAndTheirCorrection(_ word: String, _ expected: String) throws {
    let checker = try englishChecker()
    #expect(!checker.isCorrect(word))
    let suggestions = checker.suggestions(for: word)
    #expect(suggestions.contains(expected), "\(suggestions)")
    #expect(suggestions.count <= 8)
    #expect(Set(suggestions).count == suggestions.count)
  }

  @Test func suggestionLimit() throws {
    let checker = try englishChecker()
    #expect(checker.suggestions(for: "teh", limit: 0).isEmpty)
    #expect(checker.suggestions(for: "teh", limit: -1).isEmpty)
    #expect(checker.suggestions(for: "teh", limit: 1).count == 1)
    let many = checker.suggestions(for: "teh", limit: 1000)
    #expect(many.count > 8)
    #expect(Set(many).count == many.count)
  }

  @Test(arguments: ["don\u{2019}t", "isn\u{2019}t", "you\u{2019}re", "don't"])
  func curlyApostrophes(_ word: String) throws {
    #expect(try englishChecker().isCorrect(word))
  }

  @Test func curlyApostropheComesBackInSuggestions() throws {
    let checker = try englishChecker()
    #expect(!checker.isCorrect("doesn\u{2019}"))
    let curly = checker.suggestions(for: "dosn\u{2019}t", limit: 20)
    #expect(curly.contains("doesn\u{2019}t"), "\(curly)")
    #expect(!curly.contains { $0.contains("'") }, "\(curly)")
    let straight = checker.suggestions(for: "dosn't", limit: 20)
    #expect(straight.contains("doesn't"), "\(straight)")
  }

  @Test(arguments: [
    ("Monday", true), ("MONDAY", true), ("monday", false), ("London", true),
    ("Hello", true), ("HELLO", true), ("RECIEVE", false), ("Teh", false),
  ])
  func capitalization(_ word: String, _ correct: Bool) throws {
    #expect(try englishChecker().isCorrect(word) == correct)
  }

  @Test(arguments: [
    "3.14", "42", "\u{2014}", "...", "!", "'", "\u{2019}", " ", "1,000", "mp3", "2nd", "H2O",
    "x86_64", "\u{0663}\u{0664}",
  ])
  func wordsWithoutLettersOrWithDigitsAreCorrect(_ word: String) throws {
    let checker = try englishChecker()
    #expect(checker.isCorrect(word))
    #expect(checker.suggestions(for: word).isEmpty)
  }

  @Test func emptyString() throws {
    let checker = try englishChecker()
    #expect(checker.isCorrect(""))
    #expect(checker.suggestions(for: "").isEmpty)
    #expect(!checker.isIgnored(""))
    checker.ignore("")
    #expect(checker.misspellings(in: [""]).isEmpty)
  }

  @Test(arguments: [
    String(repeating: "q", count: 10_000), String(repeating: "\u{E9}", count: 10_000),
    String(repeating: "teh", count: 34),
  ])
  func longWordsAreNotLookedUp(_ word: String) throws {
    let checker = try englishChecker()
    #expect(word.utf8.count > SpellChecker.maximumWordLength)
    #expect(checker.isCorrect(word))
    #expect(checker.suggestions(for: word).isEmpty)
  }

  @Test func wordsUpToTheLimitAreLookedUp() throws {
    let word = String(repeating: "teh", count: 33)
    #expect(word.utf8.count <= SpellChecker.maximumWordLength)
    #expect(try !englishChecker().isCorrect(word))
  }

  @Test(arguments: ["teh\u{0}", "\u{0}", "re\u{0}cieve", "hello\u{0}teh"])
  func wordsWithNULAreNotLookedUp(_ word: String) throws {
    let checker = try englishChecker()
    #expect(checker.isCorrect(word))
    #expect(checker.suggestions(for: word).isEmpty)
    #expect(checker.misspellings(in: [word, "teh"]) == [1])
  }

  @Test func ignoreMakesAWordCorrect() throws {
    let checker = try englishChecker()
    #expect(!checker.isCorrect("Zorbulax"))
    #expect(!checker.isIgnored("Zorbulax"))
    checker.ignore("Zorbulax")
    #expect(checker.isCorrect("Zorbulax"))
    #expect(checker.isIgnored("Zorbulax"))
    // The session belongs to this checker only.
    #expect(try !englishChecker().isCorrect("Zorbulax"))
  }

  @Test func ignoreStraightensApostrophes() throws {
    let checker = try englishChecker()
    #expect(!checker.isCorrect("zorb\u{2019}lax"))
    checker.ignore("zorb\u{2019}lax")
    #expect(checker.isCorrect("zorb'lax"))
    #expect(checker.isCorrect("zorb\u{2019}lax"))
    #expect(checker.isIgnored("zorb'lax"))
  }

  @Test func misspellingsInABatch() throws {
    let checker = try englishChecker()
    let words = ["I", "recieve", "teh", "3.14", "", "letter", "speling", "don\u{2019}t"]
    #expect(checker.misspellings(in: words) == [1, 2, 6])
    #expect(checker.misspellings(in: []).isEmpty)
  }

  @Test func describesItsDictionary() throws {
    let checker = try englishChecker()
    #expect(checker.language == "en_US")
    #expect(!checker.provider.isEmpty)
  }
}
