import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work that other threads hand to a single-threaded loop (an agent's
/// call arriving over HTTP): the loop runs it between keystrokes, on its
/// own thread, so that what the work touches needs no lock of its own.
///
/// ``enqueue(_:)`` may be called from any thread; it writes a byte to a
/// pipe, so that a loop waiting in ``Terminal/read(timeoutMilliseconds:wake:)``
/// with ``wakeDescriptor`` wakes at once. The loop calls ``drain()``.
public final class MainLoopQueue: Sendable {
  /// The jobs waiting, oldest first. A job runs on the loop's thread only:
  /// it may capture what that thread owns (hence the unchecked box).
  private let jobs = Mutex<[UncheckedJob]>([])
  private let reader: Int32
  private let writer: Int32

  struct UncheckedJob: @unchecked Sendable {
    let run: () -> Void
  }

  /// A queue with its wake-up pipe.
  ///
  /// - Throws: ``TerminalError/systemCall(_:errno:)`` if the pipe cannot be
  ///   made.
  public init() throws(TerminalError) {
    (reader, writer) = try Terminal.wakePipe()
  }

  deinit {
    close(reader)
    close(writer)
  }

  /// The descriptor that can be read when work waits: pass it to
  /// ``Terminal/read(timeoutMilliseconds:wake:)``.
  public var wakeDescriptor: Int32 { reader }

  /// Hands `job` to the loop. It runs on the loop's thread, in order; the
  /// caller must not touch what `job` captures until it ran.
  public func enqueue(_ job: @escaping () -> Void) {
    jobs.withLock { $0.append(UncheckedJob(run: job)) }
    var byte: UInt8 = 1
    // (A full pipe already wakes the loop: the byte may be dropped.)
    _ = write(writer, &byte, 1)
  }

  /// Runs the jobs waiting (and those they enqueue, on the next call), on
  /// the calling thread: the loop's. Returns how many ran.
  @discardableResult
  public func drain() -> Int {
    var buffer = [UInt8](repeating: 0, count: 256)
    while buffer.withUnsafeMutableBytes({ read(reader, $0.baseAddress, $0.count) }) > 0 {}
    let taken = jobs.withLock { jobs in
      defer { jobs.removeAll() }
      return jobs
    }
    for job in taken { job.run() }
    return taken.count
  }
}
