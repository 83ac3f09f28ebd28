import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal: the test plays the person at the terminal on the
/// master side; the ``Terminal`` under test gets the slave side.
final class PseudoTerminalPair {
  /// The master: what the test types and reads the output from.
  private(set) var master: Int32
  /// The slave: the terminal's device, for the code under test.
  let slave: Int32
  /// The slave's path, for another process to open.
  let slavePath: String

  init() throws {
    #if canImport(Glibc)
    // glibc declares these only for _XOPEN_SOURCE, which the Glibc module
    // leaves out; they are in the C library all the same.
    typealias OnDescriptor = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    let library = dlopen(nil, RTLD_NOW)
    let openMaster = unsafeBitCast(
      try #require(dlsym(library, "posix_openpt")), to: OnDescriptor.self)
    let grant = unsafeBitCast(try #require(dlsym(library, "grantpt")), to: OnDescriptor.self)
    let unlock = unsafeBitCast(try #require(dlsym(library, "unlockpt")), to: OnDescriptor.self)
    let name = unsafeBitCast(try #require(dlsym(library, "ptsname")), to: Name.self)
    #else
    let openMaster = posix_openpt
    let grant = grantpt
    let unlock = unlockpt
    let name = ptsname
    #endif
    master = openMaster(O_RDWR | O_NOCTTY)
    try #require(master >= 0)
    try #require(grant(master) == 0 && unlock(master) == 0)
    slavePath = String(cString: try #require(name(master)))
    slave = open(slavePath, O_RDWR | O_NOCTTY)
    try #require(slave >= 0)
  }

  deinit {
    close(slave)
    closeMaster()
  }

  /// Closes the master, as a terminal window closing does.
  func closeMaster() {
    if master >= 0 { close(master) }
    master = -1
  }

  /// The slave's settings now.
  func settings() throws -> termios {
    var settings = termios()
    try #require(tcgetattr(slave, &settings) == 0)
    return settings
  }

  /// Types `bytes` at the terminal.
  func type(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { systemWrite(master, $0.baseAddress, $0.count) }
  }

  /// What the terminal's program wrote and is there to read, waiting at
  /// most `milliseconds` for the first of it.
  func readOutput(waitingMilliseconds milliseconds: Int32 = 1000) -> [UInt8] {
    var output: [UInt8] = []
    var wait = milliseconds
    while true {
      var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&request, 1, wait) > 0 else { return output }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBytes { systemRead(master, $0.baseAddress, $0.count) }
      guard count > 0 else { return output }
      output += buffer[..<count]
      wait = 50
    }
  }
}

/// Whether two terminal settings are the same, byte for byte.
func sameSettings(_ first: termios, _ second: termios) -> Bool {
  withUnsafeBytes(of: first) { a in withUnsafeBytes(of: second) { b in a.elementsEqual(b) } }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif
