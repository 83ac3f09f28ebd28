#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal the editor runs on: raw mode and the alternate screen while
/// the editor runs, given back exactly as it was when it ends, however it
/// ends; reads that wait with a timeout; writes that write everything; the
/// size and its changes.
///
/// ```swift
/// let terminal = try Terminal()
/// try terminal.enterRawMode()
/// defer { terminal.restore() }
/// var decoder = KeyDecoder()
/// var renderer = FrameRenderer()
/// while running {
///   if terminal.consumeResize() { renderer.invalidate() }
///   try terminal.write(renderer.render(model.frame(size: terminal.size())))
///   let bytes = try terminal.read(timeoutMilliseconds: decoder.isPending ? 30 : -1)
///   for event in bytes.isEmpty ? decoder.flush() : decoder.feed(bytes) { model.handle(event) }
/// }
/// ```
///
/// Raw mode (``enterRawMode()``) turns off what the terminal driver does
/// with keys, so that every key reaches the editor as bytes: no echo, no
/// line editing (canonical mode), no signals from keys (Ctrl-C, Ctrl-Z and
/// Ctrl-\ are keys; the editor decides what they do), no flow control
/// (Ctrl-S and Ctrl-Q are keys), no CR to LF translation on input (Enter is
/// `0x0D`), no Ctrl-V "literal next", 8-bit characters. Output processing
/// is off too (`OPOST`): bytes are written as they are, so `"\n"` only moves
/// down a line; ``FrameRenderer`` moves the cursor with escape sequences
/// and never needs it. Reads wait in `poll(2)` (`VMIN` 1, `VTIME` 0: a read
/// after `poll` returns what is there).
///
/// The terminal is always given back: ``restore()`` (also run by `deinit`)
/// on a normal exit, and a signal handler on SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT and the crash signals SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
/// SIGTRAP, which then lets the signal do what it did before (end the
/// process, or reach a crash reporter). The handler only writes
/// ``leaveSequence`` and sets the saved settings back, which is
/// async-signal-safe (`TerminalSignals.swift` says why). A signal from
/// outside the process is handled by a thread that does not block it: in a
/// Swift program, the main thread (the threads of Swift's concurrency block
/// them). Only one `Terminal` of a process may be raw at a time; a
/// `Terminal` is used from one thread.
public final class Terminal {
  /// The file descriptor read for keys (0, standard input, by default).
  public let input: Int32
  /// The file descriptor written to (1, standard output, by default).
  public let output: Int32
  /// Whether the terminal is in raw mode, with the alternate screen and
  /// bracketed paste on.
  public private(set) var isRaw = false

  /// The settings from before raw mode, to set back.
  private var savedSettings = termios()
  /// The pipe that the SIGWINCH handler writes a byte to.
  private let resizeReader: Int32
  private let resizeWriter: Int32
  /// A resize was seen (in the pipe) and not yet consumed.
  private var resizeSeen = false

  /// The bytes written on entering raw mode: the alternate screen
  /// (`ESC [ ? 1049 h`, which also saves the cursor) and bracketed paste
  /// (`ESC [ ? 2004 h`).
  public static let enterSequence: [UInt8] = Array("\u{1B}[?1049h\u{1B}[?2004h".utf8)
  /// The bytes written when the terminal is given back: the style reset
  /// (`ESC [ 0 m`), the cursor shown (`ESC [ ? 25 h`), bracketed paste off
  /// (`ESC [ ? 2004 l`), the main screen back (`ESC [ ? 1049 l`).
  public static let leaveSequence: [UInt8] = Array(
    "\u{1B}[0m\u{1B}[?25h\u{1B}[?2004l\u{1B}[?1049l".utf8)

  /// A terminal on `input` and `output`, as they are (not yet raw).
  ///
  /// - Parameters:
  ///   - input: the file descriptor read for keys, and whose settings raw
  ///     mode changes.
  ///   - output: the file descriptor written to.
  /// - Throws: ``TerminalError/systemCall(_:errno:)`` if the resize pipe
  ///   cannot be made (no file descriptors left).
  public init(input: Int32 = 0, output: Int32 = 1) throws(TerminalError) {
    self.input = input
    self.output = output
    (resizeReader, resizeWriter) = try Self.wakePipe()
  }

  /// A pipe for waking a `poll` (the resize's, ``MainLoopQueue``'s): both
  /// ends non-blocking and closed on exec.
  static func wakePipe() throws(TerminalError) -> (reader: Int32, writer: Int32) {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { throw .systemCall("pipe", errno: errno) }
    for descriptor in descriptors {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    return (descriptors[0], descriptors[1])
  }

  deinit {
    restore()
    close(resizeReader)
    close(resizeWriter)
  }

  /// Whether `descriptor` is a terminal.
  public static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) != 0
  }

  /// Puts the terminal in raw mode (see the type's description), switches
  /// to the alternate screen, turns bracketed paste on, and installs the
  /// signal handlers that give the terminal back. Does nothing if already
  /// raw.
  ///
  /// - Throws: ``TerminalError/notATerminal(descriptor:)`` if ``input`` is
  ///   not a terminal, ``TerminalError/anotherTerminalIsRaw``, or
  ///   ``TerminalError/systemCall(_:errno:)``; the terminal is then as it
  ///   was.
  public func enterRawMode() throws(TerminalError) {
    guard !isRaw else { return }
    guard !TerminalSignals.isActive else { throw .anotherTerminalIsRaw }
    var original = termios()
    guard tcgetattr(input, &original) == 0 else {
      let code = errno
      throw code == ENOTTY
        ? .notATerminal(descriptor: input) : .systemCall("tcgetattr", errno: code)
    }
    var raw = Self.rawSettings(from: original)
    let mask = TerminalSignals.blockAsynchronous()
    TerminalSignals.activate(
      input: input, output: output, saved: original, leave: Self.leaveSequence,
      resizeWriter: resizeWriter)
    guard tcsetattr(input, TCSADRAIN, &raw) == 0 else {
      let code = errno
      TerminalSignals.deactivate()
      TerminalSignals.setMask(mask)
      throw .systemCall("tcsetattr", errno: code)
    }
    savedSettings = original
    isRaw = true
    TerminalSignals.setMask(mask)
    if let code = writeAll(Self.enterSequence) {
      restore()
      throw .systemCall("write", errno: code)
    }
  }

  /// Gives the terminal back as it was before ``enterRawMode()``: writes
  /// ``leaveSequence``, sets the saved settings back (after the output is
  /// written), and puts back the signal actions from before. Does nothing
  /// if the terminal is not raw, so it may be called more than once.
  public func restore() {
    guard isRaw else { return }
    let mask = TerminalSignals.blockAsynchronous()
    _ = writeAll(Self.leaveSequence)
    _ = tcsetattr(input, TCSADRAIN, &savedSettings)
    TerminalSignals.deactivate()
    isRaw = false
    // A signal that came meanwhile now meets the actions from before.
    TerminalSignals.setMask(mask)
  }

  /// Stops the process as Ctrl-Z does in a shell (which raw mode turned
  /// into a key): gives the terminal back, stops with SIGTSTP, and makes the
  /// terminal raw again when the shell continues the process (`fg`). Redraw
  /// everything afterwards (``FrameRenderer/invalidate()``).
  ///
  /// - Throws: what ``enterRawMode()`` throws.
  public func suspend() throws(TerminalError) {
    let wasRaw = isRaw
    restore()
    _ = raise(SIGTSTP)
    if wasRaw { try enterRawMode() }
  }

  /// The settings of raw mode, from `settings`.
  static func rawSettings(from settings: termios) -> termios {
    var raw = settings
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INLCR | IGNCR | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { controls in
      controls[Int(VMIN)] = 1
      controls[Int(VTIME)] = 0
    }
    return raw
  }

  /// The size of the terminal, from `ioctl(TIOCGWINSZ)` on ``output`` (or
  /// on ``input`` if that fails).
  ///
  /// - Returns: the rows and columns, or nil if neither descriptor is a
  ///   terminal or the terminal says 0.
  public func size() -> (rows: Int, columns: Int)? {
    var size = winsize()
    for descriptor in [output, input] {
      if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_row > 0 && size.ws_col > 0 {
        return (Int(size.ws_row), Int(size.ws_col))
      }
    }
    return nil
  }

  /// A file descriptor that becomes readable when the terminal is resized
  /// (SIGWINCH), for a caller that polls on its own; ``consumeResize()``
  /// empties it.
  public var resizeDescriptor: Int32 { resizeReader }

  /// Whether the terminal was resized (SIGWINCH came, while raw) since the
  /// last call; the caller then asks ``size()`` and redraws everything.
  ///
  /// - Returns: true once for any number of resizes since the last call.
  public func consumeResize() -> Bool {
    drainResizePipe()
    defer { resizeSeen = false }
    return resizeSeen
  }

  /// Waits for input for at most `timeoutMilliseconds`, and returns what is
  /// available.
  ///
  /// - Parameters:
  ///   - timeoutMilliseconds: how long to wait; negative waits until input
  ///     comes (or a resize, or a signal).
  ///   - wake: a descriptor that also ends the wait when it can be read
  ///     (another thread's work for the loop, such as ``MainLoopQueue``'s);
  ///     its owner reads it.
  /// - Returns: the bytes read (at most 4 096); empty if the time ran out,
  ///   or a resize, `wake` or another signal ended the wait (see
  ///   ``consumeResize()``).
  /// - Throws: ``TerminalError/endOfInput`` when the terminal hung up or
  ///   the input ended; ``TerminalError/systemCall(_:errno:)`` on another
  ///   error.
  public func read(timeoutMilliseconds: Int, wake: Int32? = nil) throws(TerminalError) -> [UInt8] {
    var requests = [
      pollfd(fd: input, events: Int16(POLLIN), revents: 0),
      pollfd(fd: resizeReader, events: Int16(POLLIN), revents: 0),
    ]
    if let wake { requests.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
    let timeout = timeoutMilliseconds < 0 ? -1 : Int32(clamping: timeoutMilliseconds)
    guard poll(&requests, nfds_t(requests.count), timeout) >= 0 else {
      let code = errno
      if code == EINTR || code == EAGAIN { return [] }
      throw .systemCall("poll", errno: code)
    }
    if requests[1].revents & Int16(POLLIN) != 0 { drainResizePipe() }
    let events = requests[0].revents
    if events & Int16(POLLNVAL) != 0 { throw .systemCall("poll", errno: EBADF) }
    guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(input, $0.baseAddress, $0.count) }
      if count > 0 { return Array(buffer[..<count]) }
      guard count < 0 else { throw .endOfInput }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return []
      case EIO: throw .endOfInput  // A pseudo-terminal whose other side closed.
      case let code: throw .systemCall("read", errno: code)
      }
    }
  }

  /// Writes all of `bytes` to ``output``, going on after partial and
  /// interrupted writes (and waiting if the descriptor is non-blocking and
  /// full).
  ///
  /// - Parameter bytes: what to write, such as a rendered frame.
  /// - Throws: ``TerminalError/systemCall(_:errno:)`` if a write fails;
  ///   part of the bytes may have been written.
  /// - Complexity: O(*n*).
  public func write(_ bytes: [UInt8]) throws(TerminalError) {
    if let code = writeAll(bytes) { throw .systemCall("write", errno: code) }
  }

  /// Writes all of `bytes`; returns the `errno` of a failed write, or nil.
  private func writeAll(_ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let count = systemWrite(output, base + offset, buffer.count - offset)
        if count > 0 {
          offset += count
          continue
        }
        let code = count < 0 ? errno : EIO
        switch code {
        case EINTR:
          continue
        case EAGAIN, EWOULDBLOCK:
          var request = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
          _ = poll(&request, 1, -1)
        default:
          return code
        }
      }
      return nil
    }
  }

  /// Empties the resize pipe, noting whether it held anything.
  private func drainResizePipe() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while buffer.withUnsafeMutableBytes({ systemRead(resizeReader, $0.baseAddress, $0.count) }) > 0
    {
      resizeSeen = true
    }
  }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif
