/// Progress of long work (`replay` of a trace, `add` or `--load` of a big
/// file) for people: on a terminal one line rewritten in place with `\r`
/// (done/total, throughput, elapsed time) at most every ``interval``, and at
/// the end a summary, which is kept in ``summaries`` for human mode to print
/// with the reply.
///
/// The `--json` mode has no reporter: nothing but response lines goes out.
public final class ProgressReporter {
  /// What is counted.
  public enum Unit: Sendable, Hashable {
    /// Bytes, shown in MB and MB/s.
    case bytes
    /// Things such as edits, named by `noun` ("edits").
    case items(String)
  }

  /// Whether progress lines are shown (stderr is a terminal); otherwise
  /// only the summaries are made.
  public let isTerminal: Bool
  /// The shortest time between two progress lines.
  public let interval: Duration
  /// How many steps ``tick(_:)`` lets go by between two looks at the clock.
  public let checkEvery: Int
  /// The summaries of the work ended since the last ``takeSummaries()``.
  public private(set) var summaries: [String] = []

  private let now: () -> Duration
  private let write: (String) -> Void
  private var label = ""
  private var total = 0
  private var unit = Unit.bytes
  private var started = Duration.zero
  private var lastShown: Duration? = nil
  private var shownWidth = 0

  /// A reporter.
  ///
  /// - Parameters:
  ///   - isTerminal: whether to show progress lines (`isatty(2)`).
  ///   - interval: the shortest time between two progress lines.
  ///   - checkEvery: the steps between two looks at the clock in
  ///     ``tick(_:)``.
  ///   - now: the time since any fixed origin (a monotonic clock by
  ///     default).
  ///   - write: where progress lines go, as they are (with their `\r`,
  ///     without a newline); stderr in the program.
  public init(
    isTerminal: Bool, interval: Duration = .milliseconds(100), checkEvery: Int = 4096,
    now: @escaping () -> Duration = ProgressReporter.monotonic,
    write: @escaping (String) -> Void
  ) {
    self.isTerminal = isTerminal
    self.interval = interval
    self.checkEvery = max(1, checkEvery)
    self.now = now
    self.write = write
  }

  /// The time since the first call, on a monotonic clock.
  public static func monotonic() -> Duration {
    origin.duration(to: ContinuousClock.now)
  }
  private static let origin = ContinuousClock.now

  /// Starts reporting `label` (e.g. "replaying trace.json.gz") of `total`
  /// in `unit`.
  public func begin(_ label: String, total: Int, unit: Unit) {
    self.label = label
    self.total = total
    self.unit = unit
    started = now()
    lastShown = isTerminal ? started : nil
    shownWidth = 0
  }

  /// Reports `done` if it is a multiple of ``checkEvery``: cheap enough to
  /// call at every step of a loop.
  @inline(__always)
  public func tick(_ done: Int) {
    if done % checkEvery == 0 { update(done) }
  }

  /// Reports `done` of the total: on a terminal rewrites the progress line
  /// if ``interval`` has gone by since it was last written.
  public func update(_ done: Int) {
    guard isTerminal, let last = lastShown else { return }
    let time = now()
    guard time - last >= interval else { return }
    lastShown = time
    let line =
      "\(label): \(Self.amount(done, of: total, unit)), \(rate(done, time)), "
      + "\(Self.seconds(time - started)) s"
    let padding = String(repeating: " ", count: max(0, shownWidth - line.count))
    shownWidth = max(shownWidth, line.count)
    write("\r" + line + padding)
  }

  /// Ends the work with `done` of the total: clears the progress line if
  /// one was shown, and adds `summary` (or one made of `verb`, such as
  /// "replayed", the amount, the time and the rate) to ``summaries``.
  ///
  /// - Returns: the summary.
  @discardableResult
  public func end(_ verb: String, done: Int) -> String {
    let time = now()
    if shownWidth > 0 { write("\r" + String(repeating: " ", count: shownWidth) + "\r") }
    shownWidth = 0
    lastShown = nil
    let amount =
      switch unit {
      case .bytes: Self.megabytes(done)
      case .items(let noun): "\(Self.grouped(done)) \(noun)"
      }
    let summary = "\(verb) \(amount) in \(Self.seconds(time - started)) s, \(rate(done, time))"
    summaries.append(summary)
    return summary
  }

  /// Ends the work without a summary (it failed): clears the progress line.
  public func cancel() {
    if shownWidth > 0 { write("\r" + String(repeating: " ", count: shownWidth) + "\r") }
    shownWidth = 0
    lastShown = nil
  }

  /// The summaries made since the last call, which forgets them.
  public func takeSummaries() -> [String] {
    defer { summaries = [] }
    return summaries
  }

  private func rate(_ done: Int, _ time: Duration) -> String {
    let seconds = Self.double(time - started)
    guard seconds > 0 else { return "–/s" }
    let perSecond = Double(done) / seconds
    switch unit {
    case .bytes: return Self.decimal(perSecond / 1e6, places: 1) + " MB/s"
    case .items: return "\(Self.grouped(Int(perSecond.rounded()))) a second"
    }
  }

  static func amount(_ done: Int, of total: Int, _ unit: Unit) -> String {
    let percent = total > 0 ? " (\(done * 100 / total)%)" : ""
    switch unit {
    case .bytes:
      return "\(decimal(Double(done) / 1e6, places: 1))/\(megabytes(total))\(percent)"
    case .items(let noun): return "\(grouped(done))/\(grouped(total)) \(noun)\(percent)"
    }
  }

  static func megabytes(_ bytes: Int) -> String { decimal(Double(bytes) / 1e6, places: 1) + " MB" }

  /// `value` with thousands separated by commas: 259,778.
  public static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (i, digit) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return value < 0 ? "-" + out : out
  }

  static func seconds(_ duration: Duration) -> String { decimal(double(duration), places: 2) }

  static func double(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }

  /// `value` with `places` decimals (no Foundation: `String(format:)`
  /// rounds the same way for the values shown here).
  static func decimal(_ value: Double, places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(scaled % Int(scale))
    guard places > 0 else { return String(whole) }
    return "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
  }
}
