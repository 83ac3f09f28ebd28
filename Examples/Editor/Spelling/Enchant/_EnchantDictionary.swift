/// An Enchant broker and the one dictionary it serves, freed together when
/// the value is destroyed.
///
/// Not thread-safe (Enchant dictionaries are not): ``SpellChecker`` keeps it
/// behind a lock. Creating and freeing go through
/// ``_EnchantLibrary/lifecycle``. Words arrive as UTF-8 bytes with their
/// length, never as NUL-terminated strings.
struct _EnchantDictionary: ~Copyable {
  private let library: _EnchantLibrary
  private let broker: OpaquePointer
  private let dict: OpaquePointer
  /// The dictionary's language tag, as Enchant describes it.
  let language: String
  /// The name of the Enchant provider (backend) serving the dictionary.
  let provider: String

  /// Opens a broker and requests the dictionary for `language`.
  ///
  /// - Parameters:
  ///   - library: The loaded Enchant library.
  ///   - language: A language tag such as `en_US`.
  /// - Throws: ``SpellingError/noDictionary(language:available:)`` if no
  ///   provider has the language; ``SpellingError/enchant(_:)`` if Enchant
  ///   fails otherwise.
  init(library: _EnchantLibrary, language: String) throws(SpellingError) {
    // An empty tag or one with NUL is never passed as a C string.
    let passable = !language.isEmpty && !language.utf8.contains(0)
    let opened = try _EnchantLibrary.lifecycle.withLock {
      _ throws(SpellingError) -> (OpaquePointer, OpaquePointer, _Description) in
      guard let broker = library.brokerInit() else {
        throw .enchant("could not create a broker (enchant_broker_init failed)")
      }
      if passable, let dict = language.withCString({ library.requestDict(broker, $0) }) {
        return (broker, dict, Self.describe(dict, library: library))
      }
      let exists = passable && language.withCString { library.dictExists(broker, $0) } != 0
      let error = library.brokerError(broker).map { _string($0) } ?? ""
      let available = Self.languages(broker, library: library)
      library.brokerFree(broker)
      if exists, !error.isEmpty { throw .enchant(error) }
      throw .noDictionary(language: language, available: available)
    }
    self.library = library
    broker = opened.0
    dict = opened.1
    self.language = opened.2.language.isEmpty ? language : opened.2.language
    provider = opened.2.provider
  }

  deinit {
    _EnchantLibrary.lifecycle.withLock { _ in
      library.freeDict(broker, dict)
      library.brokerFree(broker)
    }
  }

  /// The language tags of every installed dictionary, sorted, without
  /// duplicates.
  ///
  /// - Parameter library: The loaded Enchant library.
  /// - Returns: Tags such as `en_US`.
  /// - Throws: ``SpellingError/enchant(_:)`` if no broker can be created.
  static func languages(library: _EnchantLibrary) throws(SpellingError) -> [String] {
    try _EnchantLibrary.lifecycle.withLock { _ throws(SpellingError) -> [String] in
      guard let broker = library.brokerInit() else {
        throw .enchant("could not create a broker (enchant_broker_init failed)")
      }
      defer { library.brokerFree(broker) }
      return languages(broker, library: library)
    }
  }

  /// Whether Enchant accepts the word (its session list included). An error
  /// from the provider counts as correct: what cannot be checked is not
  /// flagged.
  func isCorrect(_ word: [UInt8]) -> Bool {
    let result = word.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { library.check(dict, $0.baseAddress, $0.count) }
    }
    return result <= 0
  }

  /// Enchant's suggestions for the word, in its order, invalid UTF-8
  /// repaired; the list Enchant returns is freed.
  func suggestions(_ word: [UInt8]) -> [String] {
    var count = 0
    let list = word.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) {
        library.suggest(dict, $0.baseAddress, $0.count, &count)
      }
    }
    guard let list else { return [] }
    defer { library.freeStringList(dict, list) }
    var result: [String] = []
    result.reserveCapacity(count)
    for index in 0..<max(count, 0) {
      guard let suggestion = list[index] else { break }
      result.append(_string(suggestion))
    }
    return result
  }

  /// Adds the word to this dictionary's session list (not to any file).
  func addToSession(_ word: [UInt8]) {
    word.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) {
        library.addToSession(dict, $0.baseAddress, $0.count)
      }
    }
  }

  /// Whether the word is in the session list or the user's personal list.
  func isAdded(_ word: [UInt8]) -> Bool {
    word.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) {
        library.isAdded(dict, $0.baseAddress, $0.count) != 0
      }
    }
  }

  private struct _Description {
    var language = ""
    var provider = ""
  }

  private static func describe(_ dict: OpaquePointer, library: _EnchantLibrary) -> _Description {
    var description = _Description()
    withUnsafeMutablePointer(to: &description) { pointer in
      library.describe(
        dict,
        { tag, provider, _, _, context in
          guard let context else { return }
          let description = context.assumingMemoryBound(to: _Description.self)
          description.pointee.language = tag.map { _string($0) } ?? ""
          description.pointee.provider = provider.map { _string($0) } ?? ""
        },
        UnsafeMutableRawPointer(pointer))
    }
    return description
  }

  private static func languages(_ broker: OpaquePointer, library: _EnchantLibrary) -> [String] {
    var tags: Set<String> = []
    withUnsafeMutablePointer(to: &tags) { pointer in
      library.listDicts(
        broker,
        { tag, _, _, _, context in
          guard let tag, let context else { return }
          context.assumingMemoryBound(to: Set<String>.self).pointee.insert(_string(tag))
        },
        UnsafeMutableRawPointer(pointer))
    }
    return tags.sorted()
  }
}
