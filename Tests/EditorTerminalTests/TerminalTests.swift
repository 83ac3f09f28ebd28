import Testing

@testable import EditorTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether `bytes` contains `part`.
private func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
  guard bytes.count >= part.count else { return false }
  return (0...(bytes.count - part.count)).contains {
    bytes[$0..<($0 + part.count)].elementsEqual(part)
  }
}

/// The terminal tests share the process's signal handlers and its one raw
/// terminal, so they run one at a time.
@Suite(.serialized) struct TerminalTests {
  @Test func rawModeIsEnteredAndRestoredExactly() throws {
    let pair = try PseudoTerminalPair()
    let before = try pair.settings()
    let terminal = try Terminal(input: pair.slave, output: pair.slave)
    try terminal.enterRawMode()
    #expect(terminal.isRaw)
    let raw = try pair.settings()
    #expect(raw.c_lflag & tcflag_t(ECHO | ICANON | ISIG | IEXTEN) == 0)
    #expect(raw.c_iflag & tcflag_t(IXON | ICRNL | INLCR | IGNCR) == 0)
    #expect(raw.c_oflag & tcflag_t(OPOST) == 0)
    #expect(!sameSettings(before, raw))
    #expect(pair.readOutput() == Terminal.enterSequence)

    terminal.restore()
    #expect(!terminal.isRaw)
    #expect(sameSettings(before, try pair.settings()))
    #expect(pair.readOutput() == Terminal.leaveSequence)
    terminal.restore()  // Idempotent: writes nothing more.
    #expect(pair.readOutput(waitingMilliseconds: 100) == [])
    #expect(sameSettings(before, try pair.settings()))
  }

  @Test func deinitRestores() throws {
    let pair = try PseudoTerminalPair()
    let before = try pair.settings()
    do {
      let terminal = try Terminal(input: pair.slave, output: pair.slave)
      try terminal.enterRawMode()
    }
    #expect(sameSettings(before, try pair.settings()))
    #expect(pair.readOutput() == Terminal.enterSequence + Terminal.leaveSequence)
    #expect(!TerminalSignals.isActive)
  }

  @Test func sizeIsTheWindowSize() throws {
    let pair = try PseudoTerminalPair()
    var size = winsize(ws_row: 37, ws_col: 121, ws_xpixel: 0, ws_ypixel: 0)
    try #require(ioctl(pair.master, UInt(TIOCSWINSZ), &size) == 0)
    let terminal = try Terminal(input: pair.slave, output: pair.slave)
    let read = try #require(terminal.size())
    #expect(read.rows == 37 && read.columns == 121)
  }

  @Test func sizeOfANonTerminalIsNil() throws {
    var descriptors: [Int32] = [-1, -1]
    try #require(pipe(&descriptors) == 0)
    defer { descriptors.closeAll() }
    let terminal = try Terminal(input: descriptors[0], output: descriptors[1])
    #expect(terminal.size() == nil)
    #expect(throws: TerminalError.notATerminal(descriptor: descriptors[0])) {
      try terminal.enterRawMode()
    }
    #expect(!terminal.isRaw)
  }

  @Test func keysThatTheDriverWouldTakeReachTheEditor() throws {
    let pair = try PseudoTerminalPair()
    let terminal = try Terminal(input: pair.slave, output: pair.slave)
    try terminal.enterRawMode()
    defer { terminal.restore() }
    _ = pair.readOutput()
    // Ctrl-C, Ctrl-Z, Ctrl-\ (signals), Ctrl-S, Ctrl-Q (flow control),
    // Ctrl-V (literal next), CR (made LF in cooked mode), no line end.
    let keys: [UInt8] = [0x03, 0x1A, 0x1C, 0x13, 0x11, 0x16, 0x0D, 0x61]
    pair.type(keys)
    var received: [UInt8] = []
    while received.count < keys.count {
      let bytes = try terminal.read(timeoutMilliseconds: 2000)
      guard !bytes.isEmpty else { break }
      received += bytes
    }
    #expect(received == keys)
    #expect(pair.readOutput(waitingMilliseconds: 100) == [])  // No echo.
  }

  @Test func readTimesOutEmpty() throws {
    let pair = try PseudoTerminalPair()
    let terminal = try Terminal(input: pair.slave, output: pair.slave)
    try terminal.enterRawMode()
    defer { terminal.restore() }
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    #expect(try terminal.read(timeoutMilliseconds: 50) == [])
    clock_gettime(CLOCK_MONOTONIC, &end)
    let elapsed = (end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1_000_000
    #expect(elapsed >= 40 && elapsed < 2000)
  }

  @Test func hangupEndsTheInput() throws {
    let pair = try PseudoTerminalPair()
    let terminal = try Terminal(input: pair.slave, output: pair.slave)
    try terminal.enterRawMode()
    pair.closeMaster()
    #expect(throws: TerminalError.endOfInput) { try terminal.read(timeoutMilliseconds: 2000) }
    terminal.restore()
  }

  @Test func resizeIsNoticed() throws {
    let pair = try PseudoTerminalPair()
    let terminal = try Terminal(input: pair.slave, output: pair.slave)
    try terminal.enterRawMode()
    defer { terminal.restore() }
    #expect(!terminal.consumeResize())
    // To the process, not this thread: test threads block SIGWINCH, as
    // threads of Swift's concurrency and Dispatch block most signals.
    kill(getpid(), SIGWINCH)
    kill(getpid(), SIGWINCH)
    // The wait ends at once, and the resize is reported once.
    #expect(try terminal.read(timeoutMilliseconds: 5000) == [])
    #expect(terminal.consumeResize())
    #expect(!terminal.consumeResize())
    kill(getpid(), SIGWINCH)
    var request = pollfd(fd: terminal.resizeDescriptor, events: Int16(POLLIN), revents: 0)
    #expect(poll(&request, 1, 5000) == 1)
    #expect(terminal.consumeResize())
  }

  @Test func onlyOneTerminalIsRawAtATime() throws {
    let first = try PseudoTerminalPair()
    let second = try PseudoTerminalPair()
    let terminal = try Terminal(input: first.slave, output: first.slave)
    try terminal.enterRawMode()
    let other = try Terminal(input: second.slave, output: second.slave)
    #expect(throws: TerminalError.anotherTerminalIsRaw) { try other.enterRawMode() }
    terminal.restore()
    try other.enterRawMode()
    other.restore()
  }

  @Test func writeWritesEverythingThroughAFullPipe() async throws {
    var descriptors: [Int32] = [-1, -1]
    try #require(pipe(&descriptors) == 0)
    defer { descriptors.closeAll() }
    let (reader, writer) = (descriptors[0], descriptors[1])
    // Non-blocking, so that writes come back partial and with EAGAIN.
    _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
    let bytes = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let drained = Task.detached { () -> [UInt8] in
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while received.count < bytes.count {
        let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        received += buffer[..<count]
      }
      return received
    }
    let terminal = try Terminal(input: reader, output: writer)
    try terminal.write(bytes)
    #expect(await drained.value == bytes)
  }

  @Test func exitGivesTheTerminalBack() async throws {
    let pair = try PseudoTerminalPair()
    let before = try pair.settings()
    let path = pair.slavePath
    await #expect(processExitsWith: .exitCode(7)) { [path = path as String] in
      let descriptor = open(path, O_RDWR | O_NOCTTY)
      guard descriptor >= 0, let terminal = try? Terminal(input: descriptor, output: descriptor),
        (try? terminal.enterRawMode()) != nil
      else { exit(3) }
      exit(7)  // Without restore(), and without deinit.
    }
    let output = pair.readOutput()
    #expect(output == Terminal.enterSequence + Terminal.leaveSequence)
    #expect(sameSettings(before, try pair.settings()))
  }

  @Test(arguments: [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
  ])
  func signalGivesTheTerminalBack(signal: Int32) async throws {
    let pair = try PseudoTerminalPair()
    let before = try pair.settings()
    let path = pair.slavePath
    await #expect(processExitsWith: .signal(signal)) {
      [path = path as String, signal = signal as Int32] in
      var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
      #if canImport(Glibc)
      _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
      #else
      _ = setrlimit(RLIMIT_CORE, &noCore)
      #endif
      let descriptor = open(path, O_RDWR | O_NOCTTY)
      guard descriptor >= 0, let terminal = try? Terminal(input: descriptor, output: descriptor),
        (try? terminal.enterRawMode()) != nil
      else { exit(3) }
      // To the process, as a signal from outside comes (this thread blocks
      // most signals, as threads of Swift's concurrency do).
      kill(getpid(), signal)
      sleep(10)
      exit(4)  // Not reached: the signal ends the process.
    }
    let output = pair.readOutput()
    #expect(contains(output, Terminal.enterSequence))
    #expect(output.suffix(Terminal.leaveSequence.count).elementsEqual(Terminal.leaveSequence))
    #expect(sameSettings(before, try pair.settings()))
  }
}

extension [Int32] {
  /// Closes each file descriptor.
  fileprivate func closeAll() {
    for descriptor in self { close(descriptor) }
  }
}
