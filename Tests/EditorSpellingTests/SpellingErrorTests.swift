import EditorSpelling
import Testing

@Suite struct SpellingErrorTests {
  @Test func availableLanguagesIncludeEnglish() throws {
    let languages = try SpellChecker.availableLanguages()
    #expect(languages.contains("en_US"), "\(languages)")
    #expect(languages == languages.sorted())
    #expect(Set(languages).count == languages.count)
  }

  @Test(arguments: ["xx_YY", "", "en\u{0}US", "not a tag", String(repeating: "x", count: 5_000)])
  func unknownLanguageNamesTheAvailableOnes(_ language: String) throws {
    #expect(try SpellChecker.availableLanguages().contains("en_US"))
    do {
      _ = try SpellChecker(language: language)
      Issue.record("expected an error for \(language.debugDescription)")
    } catch .noDictionary(let requested, let available) {
      #expect(requested == language)
      #expect(available.contains("en_US"))
      let message = SpellingError.noDictionary(language: requested, available: available)
        .description
      #expect(message.contains("en_US"))
    } catch {
      Issue.record("expected noDictionary, got \(error)")
    }
  }

  @Test func unknownLanguageMessage() {
    let error = SpellingError.noDictionary(language: "xx_YY", available: ["de_DE", "en_US"])
    #expect(error.description.contains("\"xx_YY\""))
    #expect(error.description.contains("de_DE, en_US"))
    let none = SpellingError.noDictionary(language: "xx_YY", available: [])
    #expect(none.description.contains("hunspell-en-us"))
  }

  @Test func missingLibraryMessageSaysHowToInstall() {
    let error = SpellingError.libraryMissing(
      tried: ["libenchant-2.so.2", "libenchant-2.so"], reason: "cannot open shared object file")
    #expect(error.description.contains("libenchant-2.so.2, libenchant-2.so"))
    #expect(error.description.contains("cannot open shared object file"))
    #expect(error.description.contains("apt-get install libenchant-2-2 hunspell-en-us"))
  }

  @Test func otherMessages() {
    let missing = SpellingError.entryPointMissing(
      name: "enchant_dict_check", library: "libenchant-2.so.2")
    #expect(missing.description.contains("enchant_dict_check"))
    #expect(SpellingError.enchant("bad tag").description.contains("bad tag"))
  }
}
