#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signal handlers that give the terminal back when the process is
/// stopped by a signal, and note resizes, while a ``Terminal`` is raw.
///
/// On SIGINT, SIGTERM, SIGHUP, SIGQUIT, and on the crash signals SIGSEGV,
/// SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP (a Swift runtime trap on
/// arm64; x86 traps with SIGILL), the handler writes the bytes that leave
/// the alternate screen and bracketed paste, and sets the saved terminal
/// settings back; then it reinstalls the action that was there before (the
/// default, which ends the process, or a crash reporter such as Swift's
/// backtracer) and raises the signal again, which that action handles once
/// the handler returns. A signal that was ignored (SIGHUP under `nohup`)
/// stays ignored. SIGWINCH writes a byte to the terminal's resize pipe.
///
/// Why the handlers are async-signal-safe: they call only `write(2)`,
/// `tcsetattr(3)`, `sigaction(2)` and `raise(3)`, which POSIX lists as
/// safe in a signal handler; they read only memory allocated once, before
/// any handler is installed, through plain pointers (no allocation, no
/// reference counting, no locks, no lazy initialization left to do); they
/// keep `errno` as they found it. What they write was computed before the
/// terminal was made raw.
///
/// Installing and removing the handlers is done with SIGINT, SIGTERM,
/// SIGHUP, SIGQUIT and SIGWINCH blocked (by ``Terminal``), so that such a
/// signal sees either the terminal raw with the handlers on, or the terminal
/// given back.
enum TerminalSignals {
  /// The signals whose default action ends the process, after which the
  /// terminal is given back.
  static let restoring: [Int32] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
  ]

  /// The signals blocked while the handlers are installed or removed: those
  /// that come from outside the process.
  static let asynchronous: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH]

  /// The most bytes of the sequence that gives the terminal back.
  static let maxLeaveBytes = 64

  /// Whether a terminal is raw and the handlers are on.
  static var isActive: Bool { handlerState.pointee.active }

  /// Installs the handlers for the terminal on `input` and `output`.
  ///
  /// - Parameters:
  ///   - input: the terminal whose settings the handlers set back.
  ///   - output: where they write `leave`.
  ///   - saved: the settings to set back.
  ///   - leave: the bytes that give the screen back (at most
  ///     ``maxLeaveBytes``; more are left out).
  ///   - resizeWriter: the pipe's end where SIGWINCH writes a byte.
  static func activate(
    input: Int32, output: Int32, saved: termios, leave: [UInt8], resizeWriter: Int32
  ) {
    // The memory the handlers read is made now, before any can run.
    let state = handlerState
    let settings = savedSettings
    let bytes = leaveBytes
    let actions = previousActions
    let count = min(leave.count, maxLeaveBytes)
    for index in 0..<count { bytes[index] = leave[index] }
    settings.pointee = saved
    state.pointee = HandlerState(
      active: true, input: input, output: output, leaveCount: count, resizeWriter: resizeWriter)
    if !exitHandlerRegistered {
      exitHandlerRegistered = true
      _ = atexit(restoreTerminalAtExit)
    }
    for signal in restoring {
      let slot = slot(of: signal)
      _ = sigaction(signal, nil, actions + slot)
      guard !isIgnored(actions[slot]) else { continue }
      var action = makeAction(restoreTerminalAndRaise, flags: SA_ONSTACK)
      _ = sigaction(signal, &action, nil)
    }
    var resize = makeAction(noteResize, flags: SA_RESTART)
    _ = sigaction(SIGWINCH, &resize, actions + slot(of: SIGWINCH))
  }

  /// Puts back the actions from before ``activate(input:output:saved:leave:resizeWriter:)``.
  static func deactivate() {
    guard handlerState.pointee.active else { return }
    for signal in restoring + [SIGWINCH] {
      _ = sigaction(signal, previousActions + slot(of: signal), nil)
    }
    handlerState.pointee.active = false
  }

  /// Blocks the ``asynchronous`` signals in this thread.
  ///
  /// - Returns: the mask from before, for ``setMask(_:)``.
  static func blockAsynchronous() -> sigset_t {
    var blocked = sigset_t()
    var previous = sigset_t()
    _ = sigemptyset(&blocked)
    for signal in asynchronous { _ = sigaddset(&blocked, signal) }
    _ = pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    return previous
  }

  /// Sets this thread's signal mask (a signal unblocked now that arrived
  /// meanwhile is handled at once).
  static func setMask(_ mask: sigset_t) {
    var mask = mask
    _ = pthread_sigmask(SIG_SETMASK, &mask, nil)
  }

  /// The place of `signal` in `previousActions` (a switch, not an array
  /// search, for the handlers).
  private static func slot(of signal: Int32) -> Int {
    switch signal {
    case SIGINT: 0
    case SIGTERM: 1
    case SIGHUP: 2
    case SIGQUIT: 3
    case SIGSEGV: 4
    case SIGBUS: 5
    case SIGILL: 6
    case SIGFPE: 7
    case SIGABRT: 8
    case SIGTRAP: 9
    default: 10  // SIGWINCH
    }
  }

  /// An action that runs `handler` with `flags`, no signal blocked but its
  /// own.
  private static func makeAction(
    _ handler: @convention(c) (Int32) -> Void, flags: Int32
  ) -> sigaction {
    var action = sigaction()
    _ = sigemptyset(&action.sa_mask)
    action.sa_flags = flags
    #if canImport(Glibc)
    action.__sigaction_handler.sa_handler = handler
    #elseif canImport(Darwin)
    action.__sigaction_u.__sa_handler = handler
    #endif
    return action
  }

  /// Whether `action` ignores its signal.
  private static func isIgnored(_ action: sigaction) -> Bool {
    #if canImport(Glibc)
    let handler = action.__sigaction_handler.sa_handler
    #elseif canImport(Darwin)
    let handler = action.__sigaction_u.__sa_handler
    #endif
    guard let handler, action.sa_flags & SA_SIGINFO == 0 else { return false }
    return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
  }

  /// Whether ``restoreTerminalAtExit`` is registered with `atexit(3)`.
  nonisolated(unsafe) private static var exitHandlerRegistered = false

  /// Gives the terminal back if it is raw: writes the leave sequence and
  /// sets the saved settings back. Async-signal-safe.
  private static func restoreTerminal() {
    let state = handlerState
    guard state.pointee.active else { return }
    writeAll(state.pointee.output, leaveBytes, count: state.pointee.leaveCount)
    _ = tcsetattr(state.pointee.input, TCSANOW, savedSettings)
  }

  /// The handler of `exit(3)`: gives the terminal back if the program exits
  /// while it is raw (a `Terminal` in a global is never deinitialized, and
  /// `exit` skips `defer`).
  private static let restoreTerminalAtExit: @convention(c) () -> Void = {
    restoreTerminal()
    handlerState.pointee.active = false
  }

  /// The signal handler of ``restoring``: gives the terminal back, puts
  /// back the action from before and raises the signal again for it (it is
  /// blocked until this returns).
  private static let restoreTerminalAndRaise: @convention(c) (Int32) -> Void = { signal in
    let savedErrno = errno
    restoreTerminal()
    _ = sigaction(signal, previousActions + slot(of: signal), nil)
    _ = raise(signal)
    errno = savedErrno
  }

  /// The signal handler of SIGWINCH: writes a byte to the resize pipe (which
  /// does not block: a full pipe already says that a resize came).
  private static let noteResize: @convention(c) (Int32) -> Void = { _ in
    let savedErrno = errno
    var byte: UInt8 = 1
    _ = write(handlerState.pointee.resizeWriter, &byte, 1)
    errno = savedErrno
  }

  /// Writes `count` bytes from `bytes` to `descriptor`, going on after a
  /// partial or interrupted write; stops at another error.
  private static func writeAll(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, count: Int) {
    var offset = 0
    while offset < count {
      let written = write(descriptor, bytes + offset, count - offset)
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}

/// What the handlers need besides the settings and the bytes.
private struct HandlerState {
  var active = false
  var input: Int32 = -1
  var output: Int32 = -1
  var leaveCount = 0
  var resizeWriter: Int32 = -1
}

// The handlers' memory: allocated once, never freed, read through plain
// pointers. Set only with the asynchronous signals blocked and before the
// handlers are installed.

nonisolated(unsafe) private let handlerState: UnsafeMutablePointer<HandlerState> = {
  let pointer = UnsafeMutablePointer<HandlerState>.allocate(capacity: 1)
  pointer.initialize(to: HandlerState())
  return pointer
}()

nonisolated(unsafe) private let savedSettings: UnsafeMutablePointer<termios> = {
  let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
  pointer.initialize(to: termios())
  return pointer
}()

nonisolated(unsafe) private let leaveBytes: UnsafeMutablePointer<UInt8> = {
  let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: TerminalSignals.maxLeaveBytes)
  pointer.initialize(repeating: 0, count: TerminalSignals.maxLeaveBytes)
  return pointer
}()

/// The actions that the handlers replaced, by `TerminalSignals.slot(of:)`.
nonisolated(unsafe) private let previousActions: UnsafeMutablePointer<sigaction> = {
  let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: 11)
  pointer.initialize(repeating: sigaction(), count: 11)
  return pointer
}()
