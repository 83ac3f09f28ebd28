import EditingTraces
import Foundation
import ScopeREPLCore
import Testing
import _EngineTestSupport

/// The lines a plain split of `bytes` gives, as a LineReader must: at `\n`,
/// a `\r` before it dropped, the last line without a newline kept whole, lines
/// over `limit` reported by length.
func modelLines(_ bytes: [UInt8], limit: Int) -> [LineReader.Line] {
  var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  if lines.last == [] { lines.removeLast() }
  let unterminated = bytes.last != 0x0A ? lines.count - 1 : -1
  return lines.enumerated().map { index, line in
    let content = line.last == 0x0D && index != unterminated ? Array(line.dropLast()) : line
    return content.count > limit ? .tooLong(byteCount: content.count, limit: limit) : .line(content)
  }
}

func allLines(_ reader: consuming LineReader) -> [LineReader.Line] {
  var lines: [LineReader.Line] = []
  while let line = reader.next() { lines.append(line) }
  return lines
}

/// The REPL's core as a fuzzer calls it: lines from memory, one response
/// line each; and the library's limits under it.
@Suite struct ScopeREPLCoreTests {
  @Test func lineReaderReadsAFewMegabyteLineFromMemory() {
    var line = [UInt8](repeating: UInt8(ascii: "x"), count: 6 << 20)
    line[12345] = UInt8(ascii: "y")
    line[line.count - 1] = UInt8(ascii: "z")
    let input = line + [0x0A] + Array("next\r\n".utf8)
    var reader = LineReader.reading(input)
    #expect(reader.next() == .line(line))
    #expect(reader.next() == .line(Array("next".utf8)))
    #expect(reader.next() == nil)
    #expect(reader.next() == nil)
  }

  @Test func lineReaderSkipsALineOverTheLimitAndGoesOn() {
    let input =
      Array("short\n".utf8) + [UInt8](repeating: 0x41, count: 300_000)
      + Array("\r\nafter\n0123456789\r\n01234567890\n\r\n".utf8)
    let expected: [LineReader.Line] = [
      .line(Array("short".utf8)), .tooLong(byteCount: 300_000, limit: 10),
      .line(Array("after".utf8)), .line(Array("0123456789".utf8)),
      .tooLong(byteCount: 11, limit: 10), .line([]),
    ]
    for chunk in [1, 2, 3, 7, 11, 12, 4096, 1 << 16] {
      #expect(allLines(.reading(input, maxLineBytes: 10, chunkSize: chunk)) == expected)
    }
    // At the end of the input, without a newline.
    let last = Array("ok\n".utf8) + [UInt8](repeating: 0x42, count: 50) + [0x0D]
    #expect(
      allLines(.reading(last, maxLineBytes: 10, chunkSize: 4))
        == [.line(Array("ok".utf8)), .tooLong(byteCount: 51, limit: 10)])
  }

  @Test func lineReaderAgreesWithAPlainSplit() {
    let seed = TestSettings.seed("ScopeREPLCore.lineReader")
    var random = SeededRandom(seed: seed)
    for _ in 0..<TestSettings.iterations(300) {
      // Mostly short lines, of bytes where newlines and CRs are common.
      let alphabet: [UInt8] = [0x0A, 0x0D, 0x41, 0x42, 0xFF]
      let count = Int.random(in: 0...200, using: &random)
      let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random) ?? 0 }
      let limit = Int.random(in: 0...12, using: &random)
      let chunk = Int.random(in: 1...20, using: &random)
      #expect(
        allLines(.reading(bytes, maxLineBytes: limit, chunkSize: chunk))
          == modelLines(bytes, limit: limit), "seed \(seed): \(bytes), \(limit), \(chunk)")
    }
  }

  @Test func handleLineAnswersEveryLineWithOneResponse() throws {
    let engine = REPLEngine()
    #expect(engine.handleLine([0x7B, 0xFF, 0x7D]).response.contains(#""invalidUTF8""#))
    #expect(engine.handleLine(Array("{".utf8)).response.contains(#""badRequest""#))
    let added = engine.handleLine(Array(#"{"cmd":"add","storage":"a","text":"hi"}"#.utf8))
    #expect(added.response == #"{"ok":true,"storage":"a","length":2,"version":0}"#)
    #expect(added.quit == false)
    let long = engine.handleLine(.tooLong(byteCount: 99, limit: 10))
    #expect(long.response.contains(#""tooLarge""#) && long.quit == false)
    let quit = engine.handleLine(Array(#"{"cmd":"quit"}"#.utf8))
    #expect(quit.response == #"{"ok":true}"# && quit.quit)
    #expect(try engine.document.content.storage("a").length == 2)
    // The engine's limits apply to files it reads.
    engine.limits.maxFileBytes = 4
    let directory = try TemporaryDirectory()
    let path = try directory.write("five.txt", Array("12345".utf8))
    let refused = engine.handleLine(Array(#"{"cmd":"add","storage":"f","path":"\#(path)"}"#.utf8))
    #expect(refused.response.contains(#""tooLarge""#))
    engine.limits.maxFileBytes = 5
    let accepted = engine.handleLine(Array(#"{"cmd":"add","storage":"f","path":"\#(path)"}"#.utf8))
    #expect(accepted.response.hasPrefix(#"{"ok":true"#))
  }

  @Test func aUnitCountsTheStorageOffsetsOfRequestAndResponse() {
    let engine = REPLEngine()
    func answer(_ request: String) -> String { engine.handleLine(Array(request.utf8)).response }
    #expect(
      answer(#"{"cmd":"add","storage":"a","text":"a😀b\n","unit":"scalar"}"#)
        == #"{"ok":true,"storage":"a","length":4,"version":0}"#)
    #expect(
      answer(#"{"cmd":"storages","unit":"utf8"}"#)
        == #"{"ok":true,"storages":[{"storage":"a","length":7,"version":0}]}"#)
    #expect(
      answer(#"{"cmd":"edit","storage":"a","offset":2,"length":1,"text":"é!","unit":"scalar"}"#)
        == #"{"ok":true,"version":1,"range":{"offset":2,"length":2},"events":[]}"#)
    #expect(
      answer(#"{"cmd":"text","storage":"a","range":{"offset":1,"length":4},"unit":"utf8"}"#)
        == #"{"ok":true,"text":"😀","version":1}"#)
    #expect(
      answer(#"{"cmd":"paragraph","storage":"a","offset":3,"unit":"scalar"}"#)
        == #"{"ok":true,"range":{"offset":0,"length":5},"contentsEnd":4}"#)
    #expect(
      answer(#"{"cmd":"graphemes","storage":"a","unit":"utf8"}"#)
        == #"{"ok":true,"boundaries":[0,1,5,7,8,9]}"#)
    // A bound inside a scalar or a surrogate pair is refused, not rounded.
    #expect(
      answer(#"{"cmd":"exclude","storage":"a","offset":2,"length":1,"unit":"utf8"}"#)
        .contains(#""outOfRange""#))
    #expect(
      answer(#"{"cmd":"select","ranges":[{"storage":"a","offset":2,"length":0}]}"#)
        .contains(#""splitsSurrogatePair""#))
    // Offsets in a context are UTF-16 only.
    #expect(
      answer(#"{"cmd":"contexts","scope":"fullDocument","unit":"scalar"}"#)
        .contains(#""badRequest""#))
    #expect(
      answer(#"{"cmd":"text","storage":"a"}"#) == #"{"ok":true,"text":"a😀é!\n","version":1}"#)
  }

  @Test func gzipStopsAtItsOutputLimit() throws {
    let size = 1 << 20
    let bomb = gzipOfZeros(size)
    #expect(bomb.count < size / 100)
    #expect(try Gzip.decompress(bomb, maxOutputBytes: size) == [UInt8](repeating: 0, count: size))
    for limit in [size - 1, 1 << 16, (1 << 16) - 1, 1, 0, -5] {
      #expect(throws: Gzip.Failure.tooLarge(limit: max(0, limit))) {
        try Gzip.decompress(bomb, maxOutputBytes: limit)
      }
    }
    // The default is 256 MiB.
    #expect(Gzip.defaultMaxOutputBytes == 256 << 20)
    #expect(try Gzip.decompress(bomb).count == size)
    // Nothing to inflate fits any limit; corrupt data is not tooLarge.
    #expect(try Gzip.decompress(gzipOfZeros(0), maxOutputBytes: 0) == [])
    #expect {
      try Gzip.decompress(Array(bomb.prefix(bomb.count / 2)), maxOutputBytes: size)
    } throws: { error in
      if case .corrupt = error as? Gzip.Failure { true } else { false }
    }
  }

  @Test func gzipBombTraceStopsEarly() throws {
    // 64 MiB of zeros: refused after inflating its first megabyte.
    let directory = try TemporaryDirectory()
    let path = try directory.write("bomb.json.gz", gzipOfZeros(64 << 20))
    let clock = ContinuousClock()
    let start = clock.now
    #expect {
      try EditingTrace(contentsOf: path, limits: .init(maxInflatedBytes: 1 << 20))
    } throws: { error in
      if case .inflatedTooLarge(path, 1 << 20) = error as? EditingTrace.Failure {
        true
      } else {
        false
      }
    }
    // Not a timing test: a generous bound against inflating all of it.
    #expect(clock.now - start < .seconds(30))
  }

  @Test func editingTraceFilesAreRegularAndWithinTheirLimits() throws {
    func failure(_ path: String, _ limits: EditingTrace.Limits = .init()) -> EditingTrace.Failure? {
      do {
        _ = try EditingTrace(contentsOf: path, limits: limits)
        return nil
      } catch {
        return error
      }
    }
    guard case .notARegularFile(_, "a character device") = failure("/dev/zero") else {
      Issue.record("/dev/zero: \(String(describing: failure("/dev/zero")))")
      return
    }
    let directory = try TemporaryDirectory()
    guard case .notARegularFile(_, "a directory") = failure(directory.url.path) else {
      Issue.record("a directory")
      return
    }
    let json = Array(
      #"{"startContent":"a","endContent":"ab","txns":[{"patches":[[1,0,"b"]]}]}"#.utf8)
    let plain = try directory.write("t.json", json)
    #expect(failure(plain) == nil)
    #expect(failure(plain, .init(maxFileBytes: json.count)) == nil)
    guard case .fileTooLarge(_, json.count, 10) = failure(plain, .init(maxFileBytes: 10)) else {
      Issue.record("file limit")
      return
    }
    guard case .inflatedTooLarge(_, 10) = failure(plain, .init(maxInflatedBytes: 10)) else {
      Issue.record("a plain trace's JSON limit")
      return
    }
    guard case .io = failure(directory.path("missing.json")) else {
      Issue.record("a missing file")
      return
    }
    #expect(EditingTrace.Limits().maxFileBytes == 1 << 30)
    #expect(EditingTrace.Limits().maxInflatedBytes == 256 << 20)
  }
}
