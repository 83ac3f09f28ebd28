import Testing

/// The editor driven through a pseudo-terminal, as a person would drive it.
///
/// The suites are nested in this one, which runs their tests one at a time:
/// each starts a program that redraws, checks spelling and saves, and a
/// loaded two-core machine should not run a dozen of them at once. Every
/// wait is for something the person would see (the screen, the status line)
/// or a file on disk, with a generous timeout; none is a fixed sleep.
///
/// The suite's time limit is only a backstop (every wait has its own
/// deadline): Swift Testing counts it from when a test is scheduled, and
/// on a loaded two-core machine a test may wait minutes for a thread while
/// the rest of the run holds both.
@Suite(.serialized, .timeLimit(.minutes(10)))
enum EditorEndToEnd {}

extension EditorSession {
  /// Saves with Ctrl-S and waits for the status line to say how it went
  /// ("Saved …", "Nothing to save", or why it could not).
  func save() throws {
    let mark = statusMark
    try send(Keys.ctrl("s"))
    try waitUntil("a save message") {
      $0.statuses(since: mark).contains {
        $0.contains("Saved") || $0.contains("Nothing to save") || $0.contains("cannot save")
      }
    }
  }
}

/// Expects the file `name` of `folder` to hold exactly the UTF-8 bytes of
/// `expected` (not merely text canonically equivalent to it).
func expectFile(
  _ folder: TemporaryFolder, _ name: String, _ expected: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let bytes = folder.bytes(name)
  if bytes != Array(expected.utf8) {
    let found = bytes.map { String(decoding: $0, as: UTF8.self).debugDescription } ?? "no file"
    Issue.record(
      "\(name) is \(found), expected \(expected.debugDescription)", sourceLocation: sourceLocation)
  }
}
