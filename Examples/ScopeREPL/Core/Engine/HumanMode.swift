/// The REPL's face for people: a line of words in, text out, through the
/// same ``Command`` and ``Reply`` as the JSON protocol.
public struct HumanMode {
  /// The engine the commands run on.
  public let engine: REPLEngine
  /// Whether the output goes to a terminal: attributes then show as ANSI
  /// styles (bold, italic, underlined links); otherwise they are marked
  /// with text (`**bold**`, `_italic_`, `[link](url)`, `# header`), the
  /// same on every run.
  public var styled: Bool

  /// Human mode over `engine`, its output styled for a terminal or not.
  public init(engine: REPLEngine, styled: Bool = false) {
    self.engine = engine
    self.styled = styled
  }

  /// Every command with its usage, what it does and an example.
  public static var help: String {
    var lines = ["Commands (offsets and lengths count UTF-16 units):"]
    for form in Command.humanForms {
      lines.append("  \(form.usage)")
      lines.append("      \(form.summary); e.g. \(form.example)")
    }
    return lines.joined(separator: "\n")
  }

  /// Runs one line from a ``LineReader``: a line that was too long is
  /// answered with a `tooLarge` error, any other as by ``run(_:)-(String)``.
  public func run(_ line: LineReader.Line) -> (output: String, quit: Bool) {
    switch line {
    case .line(let bytes): run(String(decoding: bytes, as: UTF8.self))
    case .tooLong(let count, let limit): (REPLError.lineTooLong(count, limit).text, false)
    }
  }

  /// Runs one line; returns what to print (nothing for an empty line), and
  /// whether to quit.
  public func run(_ line: String) -> (output: String, quit: Bool) {
    switch line.split(separator: " ").first {
    case nil: return ("", false)
    case "help", "?": return (Self.help, false)
    default: break
    }
    do throws(REPLError) {
      var command = try Command(words: line, contexts: engine.contextIDs)
      // A person sees the attributes and the tracked ranges of every text
      // shown (in UTF-16, the unit of runs).
      if case .text(let id, let range, .utf16, false, false, nil) = command {
        command = .text(id, range: range, unit: .utf16, attributes: true, tracked: true)
      }
      let reply = try engine.run(command)
      if case .quit = reply { return (reply.text(numbering: []), true) }
      // The summaries of long work (the load of a big file) follow the reply.
      let summaries = engine.progress?.takeSummaries() ?? []
      return (
        ([reply.text(numbering: engine.contextIDs, styled: styled)] + summaries)
          .joined(separator: "\n"), false
      )
    } catch {
      _ = engine.progress?.takeSummaries()
      return (error.text, false)
    }
  }
}
