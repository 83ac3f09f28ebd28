import Testing
import _EngineTestSupport

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
    (master, slave, slavePath) = try PseudoTerminals.open()
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
