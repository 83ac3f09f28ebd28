#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair: the master side, which the test reads and
/// writes as a terminal emulator would, and the slave side, held open by
/// the test so that the pair outlives the program on it (its settings can
/// then be read after it exits, and no read of the master fails with `EIO`
/// while output is still to come).
///
/// Both descriptors are close-on-exec: the program opens the slave again by
/// its path (``slavePath``), after it became a session leader, which makes
/// the terminal its controlling terminal.
final class PseudoTerminal {
  /// The master side (non-blocking).
  let master: Int32
  /// The slave side, kept open by the test.
  let slave: Int32
  /// The slave's path, `/dev/pts/N`.
  let slavePath: String

  /// A new pair whose terminal has `rows` × `columns`.
  ///
  /// - Throws: ``EndToEndError/system(_:errno:)`` if a call fails.
  init(rows: Int, columns: Int) throws(EndToEndError) {
    // posix_openpt, grantpt, unlockpt and ptsname as glibc does them on
    // Linux (Swift's Glibc module does not export them): open the
    // multiplexer, unlock the slave (`TIOCSPTLCK`), ask its number
    // (`TIOCGPTN`, thread-safe unlike ptsname(3)). devpts makes the slave
    // the caller's already, so grantpt has nothing to do.
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard master >= 0 else { throw .system("open /dev/ptmx", errno: errno) }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(master, Self.setPtyLock, &unlock) == 0,
      ioctl(master, Self.getPtyNumber, &number) == 0
    else {
      let code = errno
      close(master)
      throw .system("ioctl(TIOCSPTLCK/TIOCGPTN)", errno: code)
    }
    let path = "/dev/pts/\(number)"
    let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else {
      let code = errno
      close(master)
      throw .system("open \(path)", errno: code)
    }
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    self.master = master
    self.slave = slave
    slavePath = path
    try resize(rows: rows, columns: columns)
  }

  deinit {
    close(master)
    close(slave)
  }

  /// `TIOCGPTN`, `_IOR('T', 0x30, unsigned int)`, and `TIOCSPTLCK`,
  /// `_IOW('T', 0x31, int)`, which Swift's Glibc module does not export.
  private static let getPtyNumber: UInt = 0x8004_5430
  private static let setPtyLock: UInt = 0x4004_5431

  /// Sets the terminal's size (`TIOCSWINSZ`); the kernel sends SIGWINCH to
  /// the terminal's foreground process group.
  func resize(rows: Int, columns: Int) throws(EndToEndError) {
    var size = winsize(
      ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: columns), ws_xpixel: 0,
      ws_ypixel: 0)
    guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
      throw .system("ioctl(TIOCSWINSZ)", errno: errno)
    }
  }

  /// The terminal's settings now (as the program on it sees them).
  func settings() throws(EndToEndError) -> TerminalSettings {
    var settings = termios()
    guard tcgetattr(slave, &settings) == 0 else { throw .system("tcgetattr", errno: errno) }
    return TerminalSettings(settings)
  }

  /// Writes all of `bytes` to the master: what the program reads as keys.
  func write(_ bytes: [UInt8]) throws(EndToEndError) {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        Glibc.write(master, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
      }
      if count > 0 {
        offset += count
        continue
      }
      let code = errno
      if count < 0 && code == EINTR { continue }
      if count < 0 && (code == EAGAIN || code == EWOULDBLOCK) {
        // The program is not reading: wait a little for room.
        var request = pollfd(fd: master, events: Int16(POLLOUT), revents: 0)
        _ = poll(&request, 1, 100)
        continue
      }
      throw .system("write", errno: code)
    }
  }

  /// Waits at most `milliseconds` for output from the program, and returns
  /// what is there (empty if nothing came).
  func read(waitingAtMost milliseconds: Int) -> [UInt8] {
    var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&request, 1, Int32(clamping: milliseconds)) > 0 else { return [] }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes += buffer[..<count]
        continue
      }
      if count < 0 && errno == EINTR { continue }
      return bytes  // EAGAIN: all read; EIO: nothing more.
    }
  }
}

/// A terminal's settings (`termios`), compared field by field.
struct TerminalSettings: Equatable, CustomStringConvertible {
  var inputFlags: UInt32
  var outputFlags: UInt32
  var controlFlags: UInt32
  var localFlags: UInt32
  var lineDiscipline: UInt8
  var controlCharacters: [UInt8]
  var inputSpeed: UInt32
  var outputSpeed: UInt32

  init(_ settings: termios) {
    inputFlags = settings.c_iflag
    outputFlags = settings.c_oflag
    controlFlags = settings.c_cflag
    localFlags = settings.c_lflag
    lineDiscipline = settings.c_line
    controlCharacters = withUnsafeBytes(of: settings.c_cc) { Array($0) }
    inputSpeed = settings.c_ispeed
    outputSpeed = settings.c_ospeed
  }

  /// Whether the terminal is in canonical mode with echo (a shell's
  /// terminal, not a raw one).
  var isCooked: Bool {
    localFlags & UInt32(ICANON) != 0 && localFlags & UInt32(ECHO) != 0
  }

  var description: String {
    let hex = { (value: UInt32) in "0x" + String(value, radix: 16) }
    return
      "iflag \(hex(inputFlags)) oflag \(hex(outputFlags)) cflag \(hex(controlFlags)) "
      + "lflag \(hex(localFlags)) line \(lineDiscipline) cc \(controlCharacters) "
      + "speed \(inputSpeed)/\(outputSpeed)"
  }
}
