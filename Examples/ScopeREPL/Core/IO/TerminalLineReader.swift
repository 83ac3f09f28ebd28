#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines typed at a terminal, with a prompt, line editing and history:
/// a ``LineEditor`` driven on standard input and output (file descriptors 0
/// and 1), which must both be terminals (see ``isAvailable``).
///
/// While it waits for a line the terminal is in raw mode (no echo, no line
/// discipline, no signal keys: the editor draws the line and Ctrl-C only
/// clears it); it is restored as it was when the line is submitted, when the
/// input ends, and when SIGINT, SIGTERM, SIGHUP or SIGQUIT arrive meanwhile
/// (the signal then does what it did before, such as ending the process).
/// Between lines the terminal is as it was, so Ctrl-C stops a running
/// command as usual.
///
/// ```swift
/// var reader = TerminalLineReader(prompt: "> ")
/// while let line = reader.next() { … }
/// ```
public struct TerminalLineReader {
  /// The text shown before the line.
  public let prompt: String

  /// The editor of the line, which keeps the history.
  public private(set) var editor: LineEditor

  /// Bytes read and not yet fed to the editor: what came after a submitted
  /// line in the same read (the next lines of a paste).
  private var pending: [UInt8] = []
  private var pendingStart = 0

  /// Whether standard input and standard output are both terminals, as the
  /// reader needs.
  public static var isAvailable: Bool { isatty(0) != 0 && isatty(1) != 0 }

  /// A reader with an empty history.
  ///
  /// - Parameters:
  ///   - prompt: the text shown before the line.
  ///   - maxLineBytes: the longest line in bytes; a longer one is refused
  ///     as it is typed and returned as
  ///     ``LineReader/Line/tooLong(byteCount:limit:)``.
  public init(prompt: String = "> ", maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
    self.prompt = prompt
    self.editor = LineEditor(maxLineBytes: maxLineBytes)
  }

  /// Shows the prompt and returns the line typed, or nil at the end of the
  /// input (Ctrl-D on an empty line, or the terminal gone).
  ///
  /// Anything written to stdout through the C library is flushed first, so
  /// the prompt comes after it.
  public mutating func next() -> LineReader.Line? {
    fflush(nil)
    let rawMode = RawMode()
    defer { rawMode?.restore() }
    editor.startLine()
    writeToTerminal(editor.redraw(prompt: prompt, width: terminalWidth()))
    while true {
      if pendingStart == pending.count {
        pending = readFromTerminal()
        pendingStart = 0
        if pending.isEmpty {
          writeToTerminal([0x0D, 0x0A])
          return nil
        }
      }
      let refused = editor.refusedByteCount
      var action = LineEditor.Action.continue
      while pendingStart < pending.count && action == .continue {
        action = editor.feed(pending[pendingStart])
        pendingStart += 1
      }
      var output = editor.redraw(prompt: prompt, width: terminalWidth())
      if editor.refusedByteCount > refused { output.append(0x07) }  // The bell.
      switch action {
      case .continue:
        writeToTerminal(output)
      case .submit(let line):
        writeToTerminal(output + [0x0D, 0x0A])
        return line
      case .endOfInput:
        writeToTerminal(output + [0x0D, 0x0A])
        return nil
      }
    }
  }
}

/// The bytes of one `read(2)` of standard input, empty at its end or on an
/// error; an interrupted read is retried.
private func readFromTerminal() -> [UInt8] {
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    return Array(buffer[..<max(count, 0)])
  }
}

/// Writes all of `bytes` to standard output with `write(2)`; stops early
/// only on an error other than an interrupted write.
private func writeToTerminal(_ bytes: [UInt8]) {
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let count = write(1, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return }
      offset += count
    }
  }
}

/// The columns of the terminal on standard output, or 80 if it does not
/// say.
private func terminalWidth() -> Int {
  var size = winsize()
  guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
  return Int(size.ws_col)
}

/// A signal handler, as `signal(2)` takes and returns it.
private typealias SignalHandler = @convention(c) (Int32) -> Void

/// The signals after which the terminal is restored before they take effect.
private let restoringSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

/// The terminal settings to restore. The signal handler reads it, so it is
/// memory of its own, allocated once (no access checks, no reference
/// counting), set before the handler is installed.
nonisolated(unsafe) private let savedTerminal: UnsafeMutablePointer<termios> = {
  let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
  pointer.initialize(to: termios())
  return pointer
}()

/// The handlers that ``RawMode`` replaced, one per signal of
/// `restoringSignals` in its order (nil for the default action); memory of
/// its own, like `savedTerminal`.
nonisolated(unsafe) private let previousHandlers: UnsafeMutablePointer<SignalHandler?> = {
  let pointer = UnsafeMutablePointer<SignalHandler?>.allocate(capacity: 4)
  pointer.initialize(repeating: nil, count: 4)
  return pointer
}()

/// The place of `signal` in `restoringSignals` (without reading the array,
/// for the signal handler).
private func slot(of signal: Int32) -> Int {
  switch signal {
  case SIGINT: 0
  case SIGTERM: 1
  case SIGHUP: 2
  default: 3
  }
}

/// The signal handler while the terminal is raw: restores the terminal and
/// the handler from before, then raises `signal` again for that handler
/// (the default one ends the process). Makes only async-signal-safe calls.
private func restoreTerminalAndRaise(_ signal: Int32) {
  _ = tcsetattr(0, TCSANOW, savedTerminal)
  _ = installHandler(previousHandlers[slot(of: signal)], for: signal)
  _ = raise(signal)
}

/// Standard input in raw mode, while it lasts: made by `init`, undone by
/// ``restore()``.
private struct RawMode {
  /// Puts standard input in raw mode (without output processing either: the
  /// editor writes `\r\n` itself), and makes the signals in
  /// `restoringSignals` restore the terminal first; nil if standard input is
  /// not a terminal.
  init?() {
    var original = termios()
    guard tcgetattr(0, &original) == 0 else { return nil }
    savedTerminal.pointee = original
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { controls in
      controls[Int(VMIN)] = 1
      controls[Int(VTIME)] = 0
    }
    for signal in restoringSignals {
      let previous = installHandler(restoreTerminalAndRaise, for: signal)
      previousHandlers[slot(of: signal)] = previous
      // An ignored signal (SIGHUP under nohup) stays ignored.
      if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
      {
        _ = installHandler(previous, for: signal)
      }
    }
    guard tcsetattr(0, TCSADRAIN, &raw) == 0 else {
      restore()
      return nil
    }
  }

  /// Restores the terminal settings and the signal handlers from before.
  func restore() {
    _ = tcsetattr(0, TCSADRAIN, savedTerminal)
    for signal in restoringSignals {
      _ = installHandler(previousHandlers[slot(of: signal)], for: signal)
    }
  }
}

/// Makes `handler` (nil: the default action) handle `signal`; returns the
/// handler it replaced.
private func installHandler(_ handler: SignalHandler?, for signal: Int32) -> SignalHandler? {
  #if canImport(Glibc)
  Glibc.signal(signal, handler)
  #elseif canImport(Musl)
  Musl.signal(signal, handler)
  #elseif canImport(Darwin)
  Darwin.signal(signal, handler)
  #endif
}
