import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A writing tool running as a process: a shell command that reads
/// Markdown on its standard input and writes Markdown.
///
/// The command runs under `/bin/sh -c` in a process group of its own, so
/// that a timeout or a cancel ends it and whatever it started. Its output
/// is read on a thread of its own and handed over as it comes
/// (``takeEvents()``); the program's loop never blocks on it. It is ended
/// when it runs past its deadline or writes more than its limit.
public final class ToolProcess: Sendable {
  /// What the process did since the last ``takeEvents()``.
  public enum Event: Hashable, Sendable {
    /// Bytes it wrote on its standard output.
    case output([UInt8])
    /// It exited with `status` (0 is success), with the end of what it
    /// wrote on its standard error.
    case exited(status: Int32, errorOutput: String)
    /// It was ended: it ran too long, wrote too much, or was cancelled.
    case ended(String)
  }

  /// Why a tool could not start.
  public struct StartError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed.
    public var description: String
  }

  private let pid: pid_t
  /// Held while a tool's pipes are made and it is started.
  private static let spawnLock = SpawnLock()
  private let events = Mutex<[Event]>([])
  private let cancelled = Mutex<Bool>(false)

  /// Starts `command` with `input` on its standard input.
  ///
  /// - Parameters:
  ///   - command: a shell command (`/bin/sh -c`).
  ///   - input: what it reads.
  ///   - timeoutSeconds: how long it may run.
  ///   - outputLimit: how many bytes it may write.
  /// - Throws: ``StartError`` if it cannot start.
  public init(
    command: String, input: [UInt8], timeoutSeconds: Double, outputLimit: Int
  ) throws(StartError) {
    // A tool that exits without reading its input must not end the
    // editor: writing to its closed pipe is EPIPE, not SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    // The pipes are made close-on-exec and the process started under one
    // lock: a tool another thread starts meanwhile must not inherit them,
    // or this one's output would never end.
    Self.spawnLock.lock()
    defer { Self.spawnLock.unlock() }
    var stdinPipe: [Int32] = [-1, -1]
    var stdoutPipe: [Int32] = [-1, -1]
    var stderrPipe: [Int32] = [-1, -1]
    guard pipe(&stdinPipe) == 0 else { throw Self.startError("pipe") }
    guard pipe(&stdoutPipe) == 0 else {
      Self.close(stdinPipe)
      throw Self.startError("pipe")
    }
    guard pipe(&stderrPipe) == 0 else {
      Self.close(stdinPipe + stdoutPipe)
      throw Self.startError("pipe")
    }
    for fd in stdinPipe + stdoutPipe + stderrPipe {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
    for fd in [stdinPipe[0], stdoutPipe[1], stderrPipe[1]] {
      posix_spawn_file_actions_addclose(&actions, fd)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own process group; default signal actions and no blocked
    // signals (the editor ignores SIGPIPE and its threads block others).
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGWINCH] {
      sigaddset(&defaults, signal)
    }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes,
      Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    var child: pid_t = 0
    let arguments = ["/bin/sh", "-c", command]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, &argv, environ)
    Self.close([stdinPipe[0], stdoutPipe[1], stderrPipe[1]])
    guard spawned == 0 else {
      Self.close([stdinPipe[1], stdoutPipe[0], stderrPipe[0]])
      throw StartError(description: "cannot start /bin/sh: \(String(cString: strerror(spawned)))")
    }
    pid = child
    let writer = stdinPipe[1]
    DispatchQueue.global().async {
      Self.writeAll(input, to: writer)
      Glibc.close(writer)
    }
    let (output, errors) = (stdoutPipe[0], stderrPipe[0])
    let deadline = Self.now() + timeoutSeconds
    DispatchQueue.global().async { [self] in
      watch(output: output, errors: errors, deadline: deadline, limit: outputLimit)
    }
  }

  /// What happened since the last call, in order.
  public func takeEvents() -> [Event] {
    events.withLock { taken in
      defer { taken = [] }
      return taken
    }
  }

  /// Ends the process (and what it started).
  public func cancel() {
    cancelled.withLock { $0 = true }
    kill(-pid, SIGKILL)
  }

  // MARK: - The watching thread

  /// Reads the process's output until it ends, is ended, or exits; then
  /// reaps it.
  private func watch(output: Int32, errors: Int32, deadline: Double, limit: Int) {
    var open = [output, errors]
    var written = 0
    var errorTail: [UInt8] = []
    var ended: String? = nil
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !open.isEmpty && ended == nil {
      if cancelled.withLock({ $0 }) {
        ended = "cancelled"
        break
      }
      let left = deadline - Self.now()
      if left <= 0 {
        ended = "timed out"
        break
      }
      var requests = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let ready = poll(&requests, nfds_t(requests.count), Int32(min(left, 0.1) * 1000) + 1)
      if ready < 0 {
        if errno == EINTR { continue }
        ended = "cannot read its output: \(String(cString: strerror(errno)))"
        break
      }
      for request in requests where request.revents != 0 {
        let n = buffer.withUnsafeMutableBytes { read(request.fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 {
          Glibc.close(request.fd)
          open.removeAll { $0 == request.fd }
          continue
        }
        if request.fd == output {
          written += n
          if written > limit {
            ended = "wrote more than \(limit) bytes"
            break
          }
          let chunk = Array(buffer[0..<n])
          events.withLock { $0.append(.output(chunk)) }
        } else {
          errorTail += buffer[0..<n]
          if errorTail.count > 4096 { errorTail.removeFirst(errorTail.count - 4096) }
        }
      }
    }
    for fd in open { Glibc.close(fd) }
    if let ended {
      kill(-pid, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
      events.withLock { $0.append(.ended(ended)) }
      return
    }
    // Both pipes closed: wait for the exit, still within the deadline.
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      if Self.now() > deadline || cancelled.withLock({ $0 }) {
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        events.withLock { $0.append(.ended("timed out")) }
        return
      }
      usleep(10_000)
    }
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let message = String(decoding: errorTail, as: UTF8.self)
    events.withLock { $0.append(.exited(status: code, errorOutput: message)) }
  }

  // MARK: - Helpers

  static func writeAll(_ bytes: [UInt8], to fd: Int32) {
    var done = 0
    bytes.withUnsafeBytes { raw in
      while done < raw.count {
        let n = write(fd, raw.baseAddress.map { $0 + done }, raw.count - done)
        if n < 0 {
          if errno == EINTR { continue }
          return  // EPIPE: the tool stopped reading
        }
        done += n
      }
    }
  }

  public static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  static func close(_ fds: [Int32]) {
    for fd in fds where fd >= 0 { Glibc.close(fd) }
  }

  static func startError(_ call: String) -> StartError {
    StartError(description: "\(call): \(String(cString: strerror(errno)))")
  }
}

/// A lock for ``ToolProcess``'s starts (a class: `Mutex` cannot be held
/// across a `defer` in an initializer that throws).
final class SpawnLock: @unchecked Sendable {
  private var mutex = pthread_mutex_t()

  init() { pthread_mutex_init(&mutex, nil) }

  func lock() { pthread_mutex_lock(&mutex) }

  func unlock() { pthread_mutex_unlock(&mutex) }
}
