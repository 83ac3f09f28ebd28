/// Why the spell checker cannot be used, or cannot use a language.
///
/// The editor shows ``description`` and goes on without spell checking.
public enum SpellingError: Error, CustomStringConvertible, Sendable, Hashable {
  /// Enchant 2 could not be loaded: none of the library names in `tried` opened;
  /// `reason` is what the dynamic loader said about the last one.
  case libraryMissing(tried: [String], reason: String)
  /// The library opened, but it lacks the entry point `name` (it is not
  /// Enchant 2, or too old).
  case entryPointMissing(name: String, library: String)
  /// No installed dictionary serves `language`; `available` lists those that
  /// do (sorted, possibly empty).
  case noDictionary(language: String, available: [String])
  /// Enchant itself reported a failure, in its own words.
  case enchant(String)

  /// A sentence saying what went wrong and, where it helps, how to fix it.
  public var description: String {
    switch self {
    case .libraryMissing(let tried, let reason):
      let names = tried.joined(separator: ", ")
      return "No spell checker: Enchant 2 could not be loaded (tried \(names): \(reason)). "
        + "Install it with `apt-get install libenchant-2-2 hunspell-en-us`."
    case .entryPointMissing(let name, let library):
      return "No spell checker: \(library) has no entry point \(name); "
        + "it is not Enchant 2 (install libenchant-2-2)."
    case .noDictionary(let language, let available):
      let installed =
        available.isEmpty
        ? "no dictionaries are installed (e.g. `apt-get install hunspell-en-us`)"
        : "available: \(available.joined(separator: ", "))"
      return "No spelling dictionary for \"\(language)\"; \(installed)."
    case .enchant(let message):
      return "Enchant: \(message)"
    }
  }
}
