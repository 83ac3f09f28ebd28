import CEngineICU

/// The system ICU as the engine loads it: privately (`dlopen` with
/// `RTLD_LOCAL`), its entry points found by their versioned names, so that it
/// never binds to the ICU that Foundation bundles, nor Foundation to it.
public enum SystemICU {
  /// Why ICU cannot be used.
  public struct Unavailable: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong, as ICU or the dynamic loader said it.
    public var description: String
  }

  /// Loads ICU if that has not happened yet.
  ///
  /// - Throws: ``Unavailable`` if the library or one of its entry points is
  ///   missing (install `libicu-dev`).
  public static func load() throws(Unavailable) {
    var message = [CChar](repeating: 0, count: 512)
    if !engine_icu_load(&message, message.count) {
      throw Unavailable(
        description: String(
          decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
  }

  /// The ICU major version the engine was built against (e.g. "72").
  public static var version: String { String(cString: engine_icu_version()) }

  /// The path of the ICU library in use; empty before it is loaded.
  public static var libraryPath: String { String(cString: engine_icu_library_path()) }
}

/// Turns a C message buffer into a `String`.
func _message(_ buffer: [CChar]) -> String {
  String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
