import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Enchant 2's C entry points, loaded privately with `dlopen` so that the
/// package builds (and the editor runs, without spell checking) where Enchant
/// and its headers are absent.
///
/// The signatures are those of `enchant-2/enchant.h`: `EnchantBroker *` and
/// `EnchantDict *` are `OpaquePointer`, `ssize_t` and `size_t` are `Int`.
/// The library is never closed.
struct _EnchantLibrary: Sendable {
  typealias Describe =
    @convention(c) (
      UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
      UnsafePointer<CChar>?, UnsafeMutableRawPointer?
    ) -> Void
  typealias StringList = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

  /// The library names tried, in order.
  static let candidates = ["libenchant-2.so.2", "libenchant-2.so"]

  /// The library, loaded on first use (thread-safe: a `static let`).
  static let shared: Result<_EnchantLibrary, SpellingError> = load(candidates)

  /// Serializes creating and freeing brokers and dictionaries, which load
  /// providers and touch process-wide state in Enchant and its backends.
  static let lifecycle = Mutex(())

  /// The name of the library that opened.
  let name: String

  let brokerInit: @convention(c) () -> OpaquePointer?
  let brokerFree: @convention(c) (OpaquePointer?) -> Void
  let requestDict: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
  let freeDict: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
  let dictExists: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
  let listDicts: @convention(c) (OpaquePointer?, Describe?, UnsafeMutableRawPointer?) -> Void
  let brokerError: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
  let check: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int) -> Int32
  let suggest:
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int, UnsafeMutablePointer<Int>?) ->
      StringList?
  let freeStringList: @convention(c) (OpaquePointer?, StringList?) -> Void
  let addToSession: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int) -> Void
  let isAdded: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int) -> Int32
  let dictError: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
  let describe: @convention(c) (OpaquePointer?, Describe?, UnsafeMutableRawPointer?) -> Void

  /// Opens the first of `names` that loads and looks up every entry point.
  ///
  /// - Parameter names: Library names for `dlopen`, tried in order.
  /// - Returns: The library, or why it cannot be used.
  static func load(_ names: [String]) -> Result<_EnchantLibrary, SpellingError> {
    var reason = "no library names"
    for name in names {
      guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
        reason = dlerror().map { _string($0) } ?? "unknown error"
        continue
      }
      do {
        return .success(try _EnchantLibrary(name: name, handle: handle))
      } catch {
        dlclose(handle)
        return .failure(error)
      }
    }
    return .failure(.libraryMissing(tried: names, reason: reason))
  }

  private init(name: String, handle: UnsafeMutableRawPointer) throws(SpellingError) {
    func symbol<F>(_ symbol: String) throws(SpellingError) -> F {
      guard let address = dlsym(handle, symbol) else {
        throw .entryPointMissing(name: symbol, library: name)
      }
      return unsafeBitCast(address, to: F.self)
    }
    self.name = name
    brokerInit = try symbol("enchant_broker_init")
    brokerFree = try symbol("enchant_broker_free")
    requestDict = try symbol("enchant_broker_request_dict")
    freeDict = try symbol("enchant_broker_free_dict")
    dictExists = try symbol("enchant_broker_dict_exists")
    listDicts = try symbol("enchant_broker_list_dicts")
    brokerError = try symbol("enchant_broker_get_error")
    check = try symbol("enchant_dict_check")
    suggest = try symbol("enchant_dict_suggest")
    freeStringList = try symbol("enchant_dict_free_string_list")
    addToSession = try symbol("enchant_dict_add_to_session")
    isAdded = try symbol("enchant_dict_is_added")
    dictError = try symbol("enchant_dict_get_error")
    describe = try symbol("enchant_dict_describe")
  }
}

/// A C string as a `String`, invalid UTF-8 repaired (never trapping).
func _string(_ pointer: UnsafePointer<CChar>) -> String {
  let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
  return String(decoding: bytes, as: UTF8.self)
}
