// FuzzREPL: the scope REPL's JSON-lines protocol (`_ScopeREPLCore`), fed
// the input bytes from memory.
//
// The first two bytes choose how the line reader is fed (1 to 64 bytes a
// read) and its line length limit; the rest is the input stream. Each line
// goes through `REPLEngine.handleLine`, as in the program's `--json` loop.
// Oracles: the line reader gives exactly the lines of a plain split of the
// stream (a final `\r` kept only on an unterminated last line; lines over
// the limit reported with their length); one response per line, on one
// line; every response is a JSON object (as Foundation's parser and the
// REPL's own read it) with a boolean "ok", and a failure carries an error
// with a string code and message; a refused request changes nothing (every
// storage's text, version, exclusions and attributes, the order, selection, visible
// ranges, session, state and marks); after an accepted `quit` nothing is
// read. Requests may name the files in Fuzz/Data (run from Fuzz/).

import DocumentEngine
import Foundation
import FuzzSupport
import ScopeREPLCore
import TextRope

/// The lines a plain split of `stream` gives, as `LineReader` must give
/// them.
func plainLines(_ stream: [UInt8], limit: Int) -> [LineReader.Line] {
  var pieces = stream.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  let terminated = stream.last == 0x0A
  if terminated || stream.isEmpty { pieces.removeLast() }
  return pieces.enumerated().map { i, piece in
    var line = piece
    // A `\r` before the newline goes with it; an unterminated last line
    // keeps everything.
    if (i < pieces.count - 1 || terminated) && line.last == 0x0D { line.removeLast() }
    return line.count > limit ? .tooLong(byteCount: line.count, limit: limit) : .line(line)
  }
}

/// What a refused request must not change.
struct State: Equatable {
  struct Storage: Equatable {
    let text: String
    let version: Int
    let excluded: [Range<Int>]
    let attributes: [AttributeRun]
  }
  let order: [StorageID]
  let storages: [Storage]
  let selection: [SelectionRange]
  let visible: [StorageID: Range<Int>]
  let session: UUID?
  let state: WritingToolsState
  let marks: [Mark]

  init(_ document: Document) {
    let content = document.content
    order = content.order
    storages = content.order.map {
      let storage = try? content.storage($0)
      return Storage(
        text: storage.map { String($0.text) } ?? "", version: storage?.version.rawValue ?? -1,
        excluded: storage?.excludedRanges ?? [],
        attributes: storage.map { $0.attributeRuns(in: 0..<$0.length) } ?? [])
    }
    selection = document.selection
    visible = document.visible
    session = document.session?.id
    state = document.writingToolsState
    marks = document.marks
  }
}

/// The program's entry point (SwiftPM links `main` to `<Module>_main`):
/// libFuzzer's driver, testing `fuzz`.
@_cdecl("FuzzREPL_main")
public func entry(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  runFuzzer(argc, argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard bytes.count >= 2 else { return 0 }
  let chunkSize = 1 + Int(bytes[0] % 64)
  let limit = bytes[1] < 0xF0 ? 8 + Int(bytes[1]) * 16 : 1 << 20
  let stream = Array(bytes[2...])
  // Files the requests name are read through these limits: small, so that
  // no path makes a run slow.
  let engine = REPLEngine(
    limits: REPLLimits(maxFileBytes: 1 << 14, maxInflatedBytes: 1 << 15, maxLineBytes: limit))
  var reader = LineReader.reading(stream, maxLineBytes: limit, chunkSize: chunkSize)
  let expected = plainLines(stream, limit: limit)
  var count = 0
  while let line = reader.next() {
    expect(
      count < expected.count && line == expected[count],
      "line \(count): the reader gave \(line), a plain split \(expected.dropFirst(count).first.map { "\($0)" } ?? "nothing")"
    )
    count += 1
    if case .line(let request) = line {
      trace("> \(String(decoding: request, as: UTF8.self))")
    } else {
      trace("> \(line)")
    }
    let before = State(engine.document)
    let (response, quit) = engine.handleLine(line)
    trace("< \(response)")
    expect(
      !response.contains("\n") && !response.contains("\r") && !response.isEmpty,
      "the response to line \(count) is not one line: \(response.debugDescription)")
    // Foundation's parser: valid JSON, an object with a boolean "ok".
    let data = Data(response.utf8)
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      oracleFailed("the response to line \(count) is not a JSON object: \(response)")
    }
    expect(object["ok"] != nil, "the response to line \(count) has no \"ok\": \(response)")
    // The REPL's own parser, for the exact types.
    let json: JSON
    do {
      json = try JSONReader.parse(Array(response.utf8))
    } catch {
      oracleFailed("the REPL cannot read its own response to line \(count): \(error): \(response)")
    }
    guard case .bool(let ok) = json["ok"] else {
      oracleFailed("\"ok\" is not a boolean in the response to line \(count): \(response)")
    }
    if !ok {
      guard case .object = json["error"], case .string(let code) = json["error"]?["code"],
        case .string = json["error"]?["message"], !code.isEmpty
      else { oracleFailed("a failure without an error code and message: \(response)") }
      let after = State(engine.document)
      expect(
        after == before,
        "a refused request (\(code)) changed the document: line \(count), \(response)")
      expect(!quit, "a refused request quit")
    }
    if quit {
      guard case .line(let request) = line,
        (try? JSONReader.parse(request))?["cmd"] == .string("quit")
      else { oracleFailed("line \(count) quit but is not a quit request") }
      return 0
    }
  }
  expect(count == expected.count, "the reader gave \(count) lines, a plain split \(expected.count)")
  return 0
}
