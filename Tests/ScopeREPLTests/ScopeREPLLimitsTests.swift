import CZlib
import EditingTraces
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory of its own for a test's files, removed at the end.
struct TemporaryDirectory: ~Copyable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("scope-repl-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `bytes` to a file named `name`; returns its path.
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    try Data(bytes).write(to: url.appendingPathComponent(name))
    return path(name)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// `count` zero bytes gzip-compressed (about a thousandth of that): a gzip
/// bomb, made a megabyte at a time.
func gzipOfZeros(_ count: Int) -> [UInt8] {
  var stream = z_stream()
  // 15 + 16: the largest window, with a gzip header.
  let status = deflateInit2_(
    &stream, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
    Int32(MemoryLayout<z_stream>.size))
  precondition(status == Z_OK)
  defer { deflateEnd(&stream) }
  var zeros = [UInt8](repeating: 0, count: 1 << 20)
  var block = [UInt8](repeating: 0, count: 1 << 16)
  var output: [UInt8] = []
  var left = count
  repeat {
    let part = min(left, zeros.count)
    left -= part
    let flush = left == 0 ? Z_FINISH : Z_NO_FLUSH
    var result: Int32 = Z_OK
    zeros.withUnsafeMutableBufferPointer { source in
      stream.next_in = source.baseAddress
      stream.avail_in = UInt32(part)
      repeat {
        block.withUnsafeMutableBufferPointer { target in
          stream.next_out = target.baseAddress
          stream.avail_out = UInt32(target.count)
          result = deflate(&stream, flush)
          output.append(contentsOf: target[..<(target.count - Int(stream.avail_out))])
        }
      } while stream.avail_out == 0 || (flush == Z_FINISH && result != Z_STREAM_END)
    }
  } while left > 0
  return output
}

/// The storages the REPL lists, by name.
func storageNames(_ response: [String: Any]) -> [String]? {
  (response["storages"] as? [[String: Any]])?.compactMap { $0["storage"] as? String }
}

/// What the REPL refuses instead of trapping or reading without end: trace
/// patches out of range, huge and negative counts, files that are not
/// regular or are too big, gzip bombs, endless lines.
@Suite struct ScopeREPLLimitsTests {
  static let outOfRangeTraces: [String] = [
    #"[[2,-1,"x"]]"#,  // a negative delete count
    #"[[-1,0,"x"]]"#,  // a negative position
    #"[[1,9223372036854775807,""]]"#,  // position + deleteCount overflows
    #"[[9223372036854775807,9223372036854775807,""]]"#,
    #"[[-9223372036854775808,0,""]]"#,
    #"[[9,0,"x"]]"#,  // past the end
    #"[[1,5,""]]"#,  // deletes past the end
    #"[[2,0,"c"],[0,4,""]]"#,  // the second goes wrong, after the first applied
  ]

  @Test(arguments: outOfRangeTraces)
  func replayOfAPatchOutOfRangeIsRefusedAndChangesNothing(patches: String) throws {
    let directory = try TemporaryDirectory()
    let json = #"{"startContent":"ab","endContent":"abc","txns":[{"patches":\#(patches)}]}"#
    let path = try directory.write("trace.json", Array(json.utf8))
    let r = try REPL.json([
      #"{"cmd":"add","storage":"keep","text":"kept"}"#,
      #"{"cmd":"replay","path":"\#(path)","storage":"t"}"#,
      #"{"cmd":"storages"}"#,
      #"{"cmd":"text","storage":"keep"}"#,
    ])
    #expect(r.count == 4, "the process answered every line")
    #expect(code(r[1]) == "outOfRange", "\(r[1])")
    #expect(storageNames(r[2]) == ["keep"], "the half-made storage is gone")
    #expect(r[3]["text"] as? String == "kept")
  }

  @Test func aTraceWithNegativeOrOverflowingPatchesIsATypedError() throws {
    for (patch, reason) in [
      (#"[2,-1,"x"]"#, "delete count"), (#"[-1,0,"x"]"#, "position"),
      (#"[1,9223372036854775807,""]"#, "Int.max"),
    ] {
      let json = #"{"startContent":"ab","endContent":"","txns":[{"patches":[[0,0,""],\#(patch)]}]}"#
      #expect {
        try EditingTrace(json: Array(json.utf8))
      } throws: { error in
        guard case .invalidPatch(1, let text) = error as? EditingTrace.Failure else {
          return false
        }
        return text.contains(reason)
      }
    }
  }

  @Test(arguments: [
    ("9223372036854775807", "ok"), ("1000", "ok"), ("-1", "badRequest"),
    ("-9223372036854775808", "badRequest"), ("1e300", "badRequest"),
  ])
  func surroundingParagraphsHugeOrNegative(count: String, expected: String) throws {
    let r = try REPL.json([
      #"{"cmd":"add","storage":"b","text":"one\ntwo\nthree\nfour\n"}"#,
      #"{"cmd":"select","ranges":[{"storage":"b","offset":5,"length":1}]}"#,
      #"{"cmd":"contexts","scope":"userSelection","surroundingParagraphs":\#(count)}"#,
      #"{"cmd":"storages"}"#,
    ])
    #expect(r.count == 4)
    let got = r[2]["ok"] as? Bool == true ? "ok" : code(r[2])
    #expect(got == expected, "\(r[2])")
    if expected == "ok" {
      // Every paragraph on each side: the whole storage.
      let context = try #require((r[2]["contexts"] as? [[String: Any]])?.first)
      #expect(range(context["storageRange"]) == 0..<19)
    }
    #expect(storageNames(r[3]) == ["b"])
  }

  @Test func addOfDevZeroADirectoryOrAFIFOIsRefusedAtOnce() throws {
    let directory = try TemporaryDirectory()
    let fifo = directory.path("fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    let r = try REPL.json([
      #"{"cmd":"add","storage":"z","path":"/dev/zero"}"#,
      #"{"cmd":"add","storage":"d","path":"\#(directory.url.path)"}"#,
      #"{"cmd":"add","storage":"f","path":"\#(fifo)"}"#,
      #"{"cmd":"replay","path":"/dev/zero","storage":"t"}"#,
      #"{"cmd":"replay","path":"\#(fifo)","storage":"t"}"#,
      #"{"cmd":"storages"}"#,
    ])
    #expect(r.count == 6)
    for response in r.prefix(5) {
      #expect(code(response) == "io", "\(response)")
      let message = (response["error"] as? [String: Any])?["message"] as? String ?? ""
      #expect(message.contains("not a regular file"), "\(message)")
    }
    #expect(storageNames(r[5]) == [])
  }

  @Test func addOfAFileOverMaxFileBytesIsTooLarge() throws {
    let directory = try TemporaryDirectory()
    let big = try directory.write("big.txt", Array(repeating: UInt8(ascii: "a"), count: 1001))
    let fits = try directory.write("fits.txt", Array(repeating: UInt8(ascii: "b"), count: 1000))
    let r = try REPL.json(
      [
        #"{"cmd":"add","storage":"big","path":"\#(big)"}"#,
        #"{"cmd":"add","storage":"fits","path":"\#(fits)"}"#,
        #"{"cmd":"storages"}"#,
      ], arguments: ["--max-file-bytes", "1000"])
    #expect(code(r[0]) == "tooLarge")
    let message = (r[0]["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(message.contains("--max-file-bytes") && message.contains("1000"), "\(message)")
    #expect(r[1]["length"] as? Int == 1000)
    #expect(storageNames(r[2]) == ["fits"])
    // --load refuses it too, and stops with status 1.
    let (lines, status) = try REPL.run(
      ["--json", "--max-file-bytes", "1000", "--load", big], input: [])
    #expect(status == 1)
    #expect(lines.isEmpty)
  }

  @Test func addOfAnEmptyOrNonUTF8FileIsAnEmptyStorageOrInvalidUTF8() throws {
    let directory = try TemporaryDirectory()
    let empty = try directory.write("empty.txt", [])
    let latin1 = try directory.write("latin1.txt", [0x63, 0x61, 0x66, 0xE9])
    let r = try REPL.json([
      #"{"cmd":"add","storage":"empty","path":"\#(empty)"}"#,
      #"{"cmd":"add","storage":"latin1","path":"\#(latin1)"}"#,
      #"{"cmd":"storages"}"#,
    ])
    #expect(r[0]["ok"] as? Bool == true)
    #expect(r[0]["length"] as? Int == 0)
    #expect(code(r[1]) == "invalidUTF8")
    #expect(storageNames(r[2]) == ["empty"])
  }

  @Test func aGzipBombOverMaxInflatedBytesIsTooLarge() throws {
    let directory = try TemporaryDirectory()
    // 16 MiB of zeros in about 16 KB.
    let bomb = try directory.write("bomb.json.gz", gzipOfZeros(16 << 20))
    let plain = try directory.write(
      "plain.json", Array(#"{"startContent":"","endContent":"","txns":[]}     "#.utf8))
    let r = try REPL.json(
      [
        #"{"cmd":"replay","path":"\#(bomb)","storage":"t"}"#,
        #"{"cmd":"replay","path":"\#(plain)","storage":"p"}"#,
        #"{"cmd":"storages"}"#,
      ], arguments: ["--max-inflated-bytes", "40"])
    #expect(code(r[0]) == "tooLarge", "\(r[0])")
    let message = (r[0]["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(message.contains("--max-inflated-bytes"), "\(message)")
    #expect(code(r[1]) == "tooLarge", "a plain trace's JSON counts too: \(r[1])")
    #expect(storageNames(r[2]) == [])
    // The trace file itself is held to --max-file-bytes.
    let small = try REPL.json(
      [#"{"cmd":"replay","path":"\#(bomb)","storage":"t"}"#],
      arguments: ["--max-file-bytes", "100"])
    #expect(code(small[0]) == "tooLarge")
  }

  @Test func aLineOverMaxLineBytesIsAnsweredOnceAndTheNextLineStill() throws {
    let long =
      #"{"cmd":"add","storage":"x","text":""# + String(repeating: "y", count: 5000) + #""}"#
    // A request of exactly 100 bytes, padded with spaces.
    let storages = #"{"cmd":"storages"}"#
    let exact = storages + String(repeating: " ", count: 100 - storages.utf8.count)
    let input =
      #"{"cmd":"add","storage":"a","text":"A"}"# + "\n" + long + "\n" + exact + "\r\n"
      + String(repeating: "z", count: 3000) + "\r\n" + storages + "\n" + long
    let (lines, status) = try REPL.run(
      ["--json", "--max-line-bytes", "100"], input: Array(input.utf8))
    #expect(status == 0)
    #expect(lines.count == 6, "one response line per request line: \(lines)")
    let r = try lines.map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(r[0]["ok"] as? Bool == true)
    #expect(code(r[1]) == "tooLarge")
    let message = (r[1]["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(
      message.contains("--max-line-bytes") && message.contains("has \(long.utf8.count) bytes"),
      "\(message)")
    #expect(storageNames(r[2]) == ["a"], "a line of exactly the limit is read")
    #expect(code(r[3]) == "tooLarge")
    #expect(storageNames(r[4]) == ["a"])
    #expect(code(r[5]) == "tooLarge", "a last line without a newline too")
  }

  @Test func humanModeAnswersALineTooLongAndGoesOn() throws {
    let input = String(repeating: "z", count: 300) + "\nstorages\n"
    let (lines, status) = try REPL.run(
      ["--max-line-bytes", "100", "--load", "/dev/null"], input: Array(input.utf8))
    // /dev/null is not a regular file: refused at start.
    #expect(status == 1)
    #expect(lines.isEmpty)
    let (human, humanStatus) = try REPL.run(
      ["--max-line-bytes", "100"], input: Array(input.utf8))
    #expect(humanStatus == 0)
    #expect(human.contains { $0.hasPrefix("error (tooLarge): the line has 300 bytes") })
    #expect(human.last?.contains("code: 55 units") == true, "\(human)")
  }
}
