#if canImport(Glibc)
import Glibc
#endif

/// How the document groups the person's edits into undo groups, and how
/// much history it keeps (docs/DESIGN.md, *History*).
public struct HistoryOptions: Sendable {
  /// Whether the person's and the origins' edits are recorded at all
  /// (without it, undo takes back only the tools' groups and the accepted
  /// suggestions).
  public var isEnabled: Bool
  /// A pause longer than this between two edits of one party ends its
  /// group: the next edit starts a new one.
  public var groupingInterval: Duration
  /// The most groups the histories keep together (the person's and every
  /// origin's); past it, the oldest go. `nil`: no limit in groups.
  public var maxGroups: Int?
  /// The most bytes the histories keep (the text they would put back, and
  /// what follows each group: see ``Document/historyBytes``); past it, the
  /// oldest groups go. `nil`: no limit in bytes.
  public var maxBytes: Int?
  /// The clock the grouping interval is measured on: any monotonic time.
  /// Tests replace it with one they move by hand, so that they never
  /// sleep.
  public var clock: @Sendable () -> Duration {
    didSet { isSystemClock = false }
  }
  /// Whether ``clock`` is ``systemClock`` (the history then reads the
  /// system's clock directly).
  private(set) var isSystemClock: Bool

  /// Options with a one-second interval, 10,000 groups and 64 MiB at
  /// most, on the system's monotonic clock.
  public init(
    isEnabled: Bool = true, groupingInterval: Duration = .seconds(1), maxGroups: Int? = 10_000,
    maxBytes: Int? = 64 << 20, clock: (@Sendable () -> Duration)? = nil
  ) {
    self.isEnabled = isEnabled
    self.groupingInterval = groupingInterval
    self.maxGroups = maxGroups
    self.maxBytes = maxBytes
    self.clock = clock ?? HistoryOptions.systemClock
    self.isSystemClock = clock == nil
  }

  /// ``systemClock``'s time, in nanoseconds, without `Duration`.
  static func systemNanoseconds() -> Int64 {
    #if canImport(Glibc)
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
    return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    #else
    return _History.nanoseconds(systemClock())
    #endif
  }

  /// The time since an arbitrary start, on the monotonic clock (on Linux
  /// its coarse reading, a few milliseconds fine and a few nanoseconds to
  /// read: every keystroke reads it, and the interval is a second).
  public static let systemClock: @Sendable () -> Duration = {
    #if canImport(Glibc)
    return {
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
    #else
    let start = ContinuousClock.now
    return { ContinuousClock.now - start }
    #endif
  }()
}
