import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The `editor` binary running on a pseudo-terminal, driven as a person at
/// a terminal would drive it: keys in as bytes, the screen read back.
///
/// ```swift
/// let editor = try EditorSession(arguments: [path])
/// defer { editor.close() }
/// try editor.waitForScreen(containing: "Hello")
/// try editor.send(Keys.text("é"), Keys.ctrl("s"))
/// try editor.waitForFile(path, toBe: "éHello\n")
/// #expect(try editor.quit() == .exited(0))
/// ```
///
/// The program is started with `posix_spawn` (not `fork`) as a session
/// leader (`POSIX_SPAWN_SETSID`) that opens the terminal's slave as its
/// standard input, output and error, which makes it its controlling
/// terminal; its signal mask is empty and its signals have their default
/// actions. The terminal has its size before the program starts, and `TERM`
/// is set in its environment.
///
/// Every wait reads the output (so that the program never blocks writing)
/// until what is waited for is seen, or fails with the screen as it was.
/// Not thread-safe: one test drives it.
final class EditorSession {
  /// How the program ended.
  enum ExitStatus: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    var description: String {
      switch self {
      case .exited(let code): "exited with \(code)"
      case .signaled(let signal): "killed by signal \(signal)"
      }
    }
  }

  /// The pseudo-terminal the program runs on.
  let terminal: PseudoTerminal
  /// The terminal's settings before the program started.
  let settingsBefore: TerminalSettings
  /// The program's process.
  let pid: pid_t
  /// The screen as the output left it.
  private(set) var screen: TerminalScreen
  /// Everything the program wrote to the terminal.
  private(set) var output: [UInt8] = []
  /// What the program wrote to its standard error, when it is a pipe
  /// (`separateStandardError`).
  private(set) var standardError: [UInt8] = []
  /// How the program ended, once it did.
  private(set) var exitStatus: ExitStatus? = nil

  /// The read end of the standard error's pipe, or -1.
  private var errorReader: Int32 = -1

  /// The `editor` binary, beside the test bundle (`/proc/self/exe`'s
  /// folder).
  static var binaryPath: String {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
      .appendingPathComponent("editor").path
  }

  /// Starts `editor` with `arguments` on a new terminal of `rows` ×
  /// `columns`.
  ///
  /// - Parameters:
  ///   - arguments: the editor's arguments (absolute paths: it runs in the
  ///     test's working directory).
  ///   - term: `TERM` in its environment (`xterm-kitty` draws curly
  ///     underlines).
  ///   - separateStandardError: standard error on a pipe of its own (read
  ///     into ``standardError``) instead of the terminal.
  /// - Throws: ``EndToEndError``.
  init(
    arguments: [String], rows: Int = 24, columns: Int = 80, term: String = "xterm-256color",
    separateStandardError: Bool = false
  ) throws {
    let path = Self.binaryPath
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw EndToEndError.noBinary(path)
    }
    terminal = try PseudoTerminal(rows: rows, columns: columns)
    settingsBefore = try terminal.settings()
    screen = TerminalScreen(rows: rows, columns: columns)

    var errorPipe: [Int32] = [-1, -1]
    if separateStandardError {
      guard pipe(&errorPipe) == 0 else { throw EndToEndError.system("pipe", errno: errno) }
      for descriptor in errorPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      _ = fcntl(errorPipe[0], F_SETFL, fcntl(errorPipe[0], F_GETFL) | O_NONBLOCK)
    }
    defer { if errorPipe[1] >= 0 { Glibc.close(errorPipe[1]) } }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Opened after setsid: the terminal becomes the controlling one.
    posix_spawn_file_actions_addopen(&actions, 0, terminal.slavePath, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, separateStandardError ? errorPipe[1] : 0, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(
      &attributes,
      Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | Self.spawnSetSID)

    var environment = ProcessInfo.processInfo.environment
    for name in ["TERM_PROGRAM", "COLUMNS", "LINES"] { environment[name] = nil }
    environment["TERM"] = term
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard code == 0 else {
      if errorPipe[0] >= 0 { Glibc.close(errorPipe[0]) }
      throw EndToEndError.system("posix_spawn \(path)", errno: code)
    }
    self.pid = pid
    errorReader = errorPipe[0]
  }

  deinit { close() }

  /// `POSIX_SPAWN_SETSID` (glibc 2.26), which Swift's Glibc module does
  /// not export.
  private static let spawnSetSID: Int16 = 0x80

  /// Kills the program if it still runs, and closes the pipes.
  func close() {
    if exitStatus == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      exitStatus = Self.exitStatus(status)
    }
    if errorReader >= 0 {
      Glibc.close(errorReader)
      errorReader = -1
    }
  }

  // MARK: - Keys

  /// Sends keys (their bytes, one after the other, in one write).
  func send(_ keys: [UInt8]...) throws {
    try terminal.write(Array(keys.joined()))
  }

  /// Types `text`.
  func type(_ text: String) throws {
    try send(Keys.text(text))
  }

  /// Resizes the terminal as a terminal emulator does: its new size
  /// (`TIOCSWINSZ`), then SIGWINCH to the program (the kernel sends one
  /// too, to the terminal's foreground process group).
  func resize(rows: Int, columns: Int) throws {
    try terminal.resize(rows: rows, columns: columns)
    screen.resize(rows: rows, columns: columns)
    kill(pid, SIGWINCH)
  }

  // MARK: - Reading and waiting

  /// Reads what the program wrote (waiting at most `milliseconds` for the
  /// first bytes), into ``output`` and ``screen``.
  func pump(waitingAtMost milliseconds: Int = 50) {
    let bytes = terminal.read(waitingAtMost: milliseconds)
    if !bytes.isEmpty {
      output += bytes
      screen.feed(bytes)
    }
    guard errorReader >= 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        Glibc.read(errorReader, $0.baseAddress, $0.count)
      }
      guard count > 0 else { break }
      standardError += buffer[..<count]
    }
  }

  /// Whether the program has exited (it is then reaped).
  var hasExited: Bool {
    if exitStatus != nil { return true }
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) == pid else { return false }
    exitStatus = Self.exitStatus(status)
    return true
  }

  /// Reads output until `predicate` holds.
  ///
  /// - Parameters:
  ///   - what: what is waited for, for the failure's message.
  ///   - timeout: how long to wait at most.
  /// - Throws: ``EndToEndError/timedOut(_:screen:output:)``, with the
  ///   screen, when the time ran out or the program exited first.
  func waitUntil(
    _ what: String, timeout: Duration = .seconds(15), _ predicate: (EditorSession) throws -> Bool
  ) throws {
    let deadline = ContinuousClock.now + timeout
    while true {
      if try predicate(self) { return }
      if hasExited {
        pump(waitingAtMost: 0)
        if try predicate(self) { return }
        throw timedOut("\(what) (the editor \(exitStatus?.description ?? "exited"))")
      }
      if ContinuousClock.now >= deadline { throw timedOut(what) }
      pump()
    }
  }

  /// The failure of a wait for `what`, with the screen as it is.
  func timedOut(_ what: String) -> EndToEndError {
    let tail = String(decoding: output.suffix(1500), as: UTF8.self)
      .replacingOccurrences(of: "\u{1B}", with: "\\e")
    return .timedOut(what, screen: screenDump, output: tail)
  }

  /// The screen, its rows numbered, then the status lines of the last
  /// frames.
  var screenDump: String {
    let rows = (0..<screen.rows).map { row in
      (row < 9 ? " " : "") + "\(row + 1)|\(screen.line(row))"
    }
    let log = screen.statuses.suffix(8).map { "  status: \($0)" }
    var dump = (rows + ["--- recent status lines ---"] + log).joined(separator: "\n")
    if !standardError.isEmpty {
      dump += "\n--- stderr ---\n" + String(decoding: standardError, as: UTF8.self)
    }
    return dump
  }

  /// Where the status log is now, for ``waitForStatus(_:since:timeout:)``.
  var statusMark: Int { screen.statusLog.count }

  /// The status lines of the frames drawn since `mark`, the current one
  /// included.
  func statuses(since mark: Int) -> ArraySlice<String> {
    screen.statuses.dropFirst(mark)
  }

  /// Waits until a frame's status line (since `mark`) contains `text`:
  /// a message shown for one frame is seen even if the next frame came in
  /// the same read.
  func waitForStatus(_ text: String, since mark: Int = 0, timeout: Duration = .seconds(15))
    throws
  {
    try waitUntil("a status line with “\(text)”", timeout: timeout) {
      $0.statuses(since: mark).contains { $0.contains(text) }
    }
  }

  /// Waits until the screen shows `text` (in one row).
  func waitForScreen(containing text: String, timeout: Duration = .seconds(15)) throws {
    try waitUntil("the screen to show “\(text)”", timeout: timeout) { session in
      (0..<session.screen.rows).contains { session.screen.line($0).contains(text) }
    }
  }

  /// Waits until the file at `path` holds exactly `contents`.
  func waitForFile(_ path: String, toBe contents: String, timeout: Duration = .seconds(15))
    throws
  {
    try waitUntil("\(path) to be \(contents.debugDescription)", timeout: timeout) { _ in
      FileManager.default.contents(atPath: path) == Data(contents.utf8)
    }
  }

  // MARK: - Ending

  /// Quits with Ctrl-Q (or `key`), pressed again if the editor asks
  /// first, and waits for it to exit.
  ///
  /// - Returns: how it ended.
  @discardableResult
  func quit(with key: Character = "q", timeout: Duration = .seconds(15)) throws -> ExitStatus {
    let mark = statusMark
    try send(Keys.ctrl(key))
    try waitUntil("the editor to exit or ask about unsaved changes", timeout: timeout) {
      $0.hasExited || $0.statuses(since: mark).contains { $0.contains("Unsaved changes") }
    }
    if !hasExited { try send(Keys.ctrl(key)) }
    return try waitForExit(timeout: timeout)
  }

  /// Waits for the program to exit, reading its output meanwhile; kills it
  /// if it does not in time.
  ///
  /// - Returns: how it ended.
  /// - Throws: ``EndToEndError/didNotExit(screen:)`` after killing it.
  @discardableResult
  func waitForExit(timeout: Duration = .seconds(15)) throws -> ExitStatus {
    let deadline = ContinuousClock.now + timeout
    while !hasExited {
      guard ContinuousClock.now < deadline else {
        close()
        throw EndToEndError.didNotExit(screen: screenDump)
      }
      pump()
    }
    pump(waitingAtMost: 0)
    return exitStatus ?? .exited(-1)
  }

  /// The status `waitpid` reported, decoded (`WIFEXITED` and friends are
  /// macros Swift does not import).
  private static func exitStatus(_ status: Int32) -> ExitStatus {
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
  }
}
