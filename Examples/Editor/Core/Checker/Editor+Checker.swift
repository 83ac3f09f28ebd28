import DocumentEngine
import TextRope

/// A prose checker's run: its process, what it read, and where.
struct CheckerRun {
  var process: ToolProcess
  var storage: StorageID
  var version: StorageVersion
  var check: ProseCheck
  var output: [UInt8] = []
}

extension Editor {
  /// Runs the prose checker (`--checker COMMAND`) on the visible
  /// paragraphs of a cell that changed since it saw them (when the person
  /// pauses, as spelling does; one run at a time, the other cells at the
  /// next pause). The version is pinned until the findings land, so that
  /// they are mapped through what the person typed meanwhile.
  public func checkVisibleProse() {
    guard let command = checkerCommand, checkerRun == nil else { return }
    // The first cell with a visible paragraph that changed: its paragraphs
    // now; the others' at the next pause.
    let changed = changedVisibleParagraphs(since: &proseChecked)
    guard let cell = changed.first?.cell else { return }
    var paragraphs: [(range: Range<Int>, text: String)] = []
    for found in changed {
      if found.cell == cell {
        paragraphs.append((found.range, found.text))
      } else {
        proseChecked.remove(
          CheckedParagraph(storage: id(found.cell), start: found.range.lowerBound, text: found.text)
        )
      }
    }
    guard let storage = storage(cell) else { return }
    let check = ProseCheck(paragraphs)
    do {
      try document.pin(storage.id, version: storage.version)
    } catch {
      return
    }
    do {
      let process = try ToolProcess(
        command: command, input: check.input, timeoutSeconds: checkerTimeout,
        outputLimit: checkerOutputLimit)
      checkerRun = CheckerRun(
        process: process, storage: storage.id, version: storage.version, check: check)
      checkerStatus = "checker: running"
    } catch {
      document.unpin(storage.id, version: storage.version)
      checkerStatus = "checker failed: \(error)"
    }
  }

  /// Takes what the checker wrote; once it exited, lands its findings as
  /// `grammar` and `style` suggestions. A checker that fails, hangs past its
  /// time or writes what is not proselint's JSON only says so in the status
  /// line.
  ///
  /// - Returns: whether the screen must be drawn again.
  @discardableResult
  public func pollChecker() -> Bool {
    guard var run = checkerRun else { return false }
    let events = run.process.takeEvents()
    guard !events.isEmpty else { return false }
    var failure: String? = nil
    var exited = false
    for event in events {
      switch event {
      case .output(let bytes): run.output += bytes
      case .exited(let status, let errors) where status == 0 || status == 1:
        _ = errors
        exited = true
      case .exited(let status, let errors):
        let last = errors.split(separator: "\n").last.map(String.init)
        failure = "it exited with status \(status)" + (last.map { ": " + $0 } ?? "")
      case .ended(let why):
        failure = why
      }
    }
    guard exited || failure != nil else {
      checkerRun = run
      return false
    }
    checkerRun = nil
    defer { document.unpin(run.storage, version: run.version) }
    if let failure {
      checkerStatus = "checker failed: \(failure)"
      return true
    }
    switch run.check.findings(in: run.output) {
    case .failure(let error):
      checkerStatus = "checker failed: \(error)"
    case .success(let findings):
      let landed = land(findings, in: run.storage, from: run.version)
      checkerStatus = "checker: \(landed) found"
    }
    return true
  }

  /// Lands findings made on `version` of storage `id` as suggestions:
  /// mapped to the text now, unless the person changed their text since;
  /// one already there (the same range, kind and explanation), or ignored,
  /// is not suggested again. Returns how many landed.
  func land(
    _ findings: [ProseCheck.Finding], in id: StorageID, from version: StorageVersion
  ) -> Int {
    var landed = 0
    for finding in findings {
      guard
        let range = foundNow(
          finding.range, in: id, from: version, kind: finding.kind,
          explanation: finding.explanation)
      else { continue }
      let proposal = ProposedSuggestion(
        range, kind: finding.kind, explanation: finding.explanation,
        candidates: finding.candidates.map { SuggestionCandidate($0) })
      if (try? document.suggest([proposal], in: id)) != nil { landed += 1 }
    }
    return landed
  }
}
