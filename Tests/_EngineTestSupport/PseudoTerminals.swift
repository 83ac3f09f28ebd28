#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening a pseudo-terminal for a test: the master (the test's side, what
/// a terminal window holds) and the slave (the device a program runs on).
public enum PseudoTerminals {
  /// Why a pseudo-terminal could not be opened.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Opens a pseudo-terminal pair, neither becoming the caller's
  /// controlling terminal.
  ///
  /// - Returns: the master, the slave, and the slave's path (for another
  ///   process to open).
  /// - Throws: ``Failure`` naming the call that failed.
  public static func open() throws -> (master: Int32, slave: Int32, slavePath: String) {
    #if canImport(Glibc)
    // glibc declares these only for _XOPEN_SOURCE, which the Glibc module
    // leaves out; they are in the C library all the same.
    typealias OnDescriptor = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    let library = dlopen(nil, RTLD_NOW)
    func lookup<T>(_ symbol: String, as type: T.Type) throws -> T {
      guard let address = dlsym(library, symbol) else { throw Failure(description: "no \(symbol)") }
      return unsafeBitCast(address, to: type)
    }
    let openMaster = try lookup("posix_openpt", as: OnDescriptor.self)
    let grant = try lookup("grantpt", as: OnDescriptor.self)
    let unlock = try lookup("unlockpt", as: OnDescriptor.self)
    let name = try lookup("ptsname", as: Name.self)
    #else
    let openMaster = posix_openpt
    let grant = grantpt
    let unlock = unlockpt
    let name = ptsname
    #endif
    let master = openMaster(O_RDWR | O_NOCTTY)
    guard master >= 0 else { throw Failure(description: "posix_openpt failed") }
    guard grant(master) == 0, unlock(master) == 0, let path = name(master) else {
      close(master)
      throw Failure(description: "grantpt, unlockpt or ptsname failed")
    }
    let slavePath = String(cString: path)
    #if canImport(Glibc)
    let slave = Glibc.open(slavePath, O_RDWR | O_NOCTTY)
    #else
    let slave = Darwin.open(slavePath, O_RDWR | O_NOCTTY)
    #endif
    guard slave >= 0 else {
      close(master)
      throw Failure(description: "cannot open \(slavePath)")
    }
    return (master, slave, slavePath)
  }
}
