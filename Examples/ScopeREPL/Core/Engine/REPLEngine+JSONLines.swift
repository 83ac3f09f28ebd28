extension REPLEngine {
  /// One line of the `--json` protocol in (its bytes, without the newline),
  /// its one response line out (without a newline). `quit` is true for an
  /// accepted `quit` request, after which the program stops reading.
  public func handleLine(_ bytes: [UInt8]) -> (response: String, quit: Bool) {
    do throws(REPLError) {
      let reply = try run(try Command(jsonLine: bytes))
      if case .quit = reply { return (JSONWriter.write(reply.json), true) }
      return (JSONWriter.write(reply.json), false)
    } catch {
      return (JSONWriter.write(error.json), false)
    }
  }

  /// One request of the `--json` protocol as JSON in, its response as JSON
  /// out (with `ok`): what ``handleLine(_:)-([UInt8])`` does without the
  /// text on either side (for an agent's call, read once by its transport).
  public func handle(_ request: JSON) -> JSON {
    do throws(REPLError) {
      return try run(try Command(json: request)).json
    } catch {
      return error.json
    }
  }

  /// One line from a ``LineReader`` in, its one response line out: a line
  /// that was too long is answered `tooLarge`, any other as by
  /// ``handleLine(_:)-([UInt8])``.
  public func handleLine(_ line: LineReader.Line) -> (response: String, quit: Bool) {
    switch line {
    case .line(let bytes): handleLine(bytes)
    case .tooLong(let count, let limit):
      (JSONWriter.write(REPLError.lineTooLong(count, limit).json), false)
    }
  }
}
