import EditingTraces
import TextRope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How much the REPL takes in from files and from its input, so that a
/// huge file, a device such as `/dev/zero`, a gzip bomb or an endless line
/// is refused (with the error code `tooLarge`, or `io` for what is not a
/// regular file) instead of filling memory.
///
/// The command line sets them with `--max-file-bytes`,
/// `--max-inflated-bytes` and `--max-line-bytes`.
public struct REPLLimits: Sendable, Hashable {
  /// The default ``maxFileBytes``: 1 GiB, far beyond any text a person
  /// edits, while a file's bytes and its rope still fit in memory together.
  public static let defaultMaxFileBytes = EditingTrace.Limits.defaultMaxFileBytes
  /// The default ``maxInflatedBytes``: 256 MiB, about thirty times the
  /// largest editing trace in the tests; decoding the JSON takes several
  /// times its size.
  public static let defaultMaxInflatedBytes = EditingTrace.Limits.defaultMaxInflatedBytes
  /// The default ``maxLineBytes``: 64 MiB, room for a sizeable text in one
  /// `add` request.
  public static let defaultMaxLineBytes = LineReader.defaultMaxLineBytes

  /// The largest file that `add` with a `path`, `--load` and `replay`
  /// read, in bytes; checked before reading.
  public var maxFileBytes: Int
  /// The largest JSON text of a trace that `replay` decodes, in bytes: the
  /// inflated size of a `.json.gz` trace (decompression stops as soon as it
  /// is over), the size of a plain `.json` one.
  public var maxInflatedBytes: Int
  /// The longest input line read whole, in bytes; a longer one is skipped
  /// and answered with a `tooLarge` error (for the program's ``LineReader``;
  /// the engine itself reads no lines).
  public var maxLineBytes: Int

  /// Limits; each defaults to its documented default.
  public init(
    maxFileBytes: Int = REPLLimits.defaultMaxFileBytes,
    maxInflatedBytes: Int = REPLLimits.defaultMaxInflatedBytes,
    maxLineBytes: Int = REPLLimits.defaultMaxLineBytes
  ) {
    self.maxFileBytes = maxFileBytes
    self.maxInflatedBytes = maxInflatedBytes
    self.maxLineBytes = maxLineBytes
  }

  /// The limits of reading an editing trace.
  var trace: EditingTrace.Limits {
    EditingTrace.Limits(maxFileBytes: maxFileBytes, maxInflatedBytes: maxInflatedBytes)
  }
}

/// Reading UTF-8 files into ropes, with progress for big ones.
public enum Loading {
  /// Reads the regular file at `path` as UTF-8. Reports progress through
  /// `progress` when the read takes more than half a second.
  ///
  /// - Parameter maxBytes: the largest file read; its size is checked
  ///   before a byte is read.
  /// - Throws: ``REPLError`` with code `io` if it cannot be read or is not
  ///   a regular file (a directory, a FIFO, a device such as `/dev/zero`, a
  ///   socket), `tooLarge` if it has more than `maxBytes`, `invalidUTF8`.
  public static func load(
    _ path: String, maxBytes: Int = REPLLimits.defaultMaxFileBytes,
    progress: ((String) -> Void)?
  ) throws(REPLError) -> Rope {
    let clock = ContinuousClock()
    let start = clock.now
    var shown = false
    let bytes = try read(path, maxBytes: maxBytes) { read, size in
      if let progress, size > 0, clock.now - start > .milliseconds(500) {
        progress("loading \(path): \(Int(Double(read) * 100 / Double(size)))%")
        shown = true
      }
    }
    do {
      let rope = try Rope(validating: bytes)
      if shown, let progress { progress("loaded \(path): \(bytes.count) bytes") }
      return rope
    } catch {
      if case .invalidUTF8(let offset) = error {
        throw REPLError("invalidUTF8", "'\(path)' is not UTF-8 (invalid byte at \(offset))")
      }
      throw REPLError("invalidUTF8", "'\(path)' is not UTF-8")
    }
  }

  /// The bytes of the regular file at `path`, which must have at most
  /// `maxBytes` (negative counts as 0). Its kind and size are looked at
  /// before it is opened (opening a FIFO would wait for a writer) and again
  /// once it is open; a file that grows past `maxBytes` while it is read is
  /// refused as well.
  ///
  /// - Parameter progress: called after each read with the bytes read so
  ///   far and the file's size.
  /// - Throws: ``REPLError`` with code `io` or `tooLarge`.
  public static func read(
    _ path: String, maxBytes: Int, progress: ((Int, Int) -> Void)? = nil
  ) throws(REPLError) -> [UInt8] {
    let limit = max(0, maxBytes)
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw REPLError("io", "cannot open '\(path)': \(errorText())")
    }
    _ = try check(info, path, limit)
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw REPLError("io", "cannot open '\(path)': \(errorText())") }
    defer { close(fd) }
    guard fstat(fd, &info) == 0 else {
      throw REPLError("io", "cannot read '\(path)': \(errorText())")
    }
    let size = try check(info, path, limit)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size < limit ? size + 1 : limit)
    var chunk = [UInt8](repeating: 0, count: 8 << 20)
    while true {
      // At most one byte past the limit: a file that grew is noticed.
      let room = limit - bytes.count
      let want = room < chunk.count ? room + 1 : chunk.count
      let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, want) }
      if count < 0 {
        if errno == EINTR { continue }
        throw REPLError("io", "cannot read '\(path)': \(errorText())")
      }
      if count == 0 { break }
      guard count <= room else { throw tooLarge(path, size: nil, limit) }
      bytes.append(contentsOf: chunk[..<count])
      progress?(bytes.count, size)
    }
    return bytes
  }

  /// Checks that `info` is a regular file of at most `limit` bytes; returns
  /// its size.
  static func check(_ info: stat, _ path: String, _ limit: Int) throws(REPLError) -> Int {
    let kind: String
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      let size = max(0, Int(clamping: info.st_size))
      guard size <= limit else { throw tooLarge(path, size: size, limit) }
      return size
    case S_IFDIR: kind = "a directory"
    case S_IFIFO: kind = "a FIFO"
    case S_IFCHR: kind = "a character device"
    case S_IFBLK: kind = "a block device"
    case S_IFSOCK: kind = "a socket"
    default: kind = "not a regular file"
    }
    throw REPLError("io", "cannot read '\(path)': it is \(kind), not a regular file")
  }

  static func tooLarge(_ path: String, size: Int?, _ limit: Int) -> REPLError {
    let has = size.map { "has \($0) bytes" } ?? "grew while it was read"
    return REPLError(
      "tooLarge",
      "'\(path)' \(has), over the file size limit of \(limit) bytes "
        + "(raise it with --max-file-bytes)")
  }

  static func errorText() -> String {
    String(cString: strerror(errno))
  }
}

/// `read(2)`, by a name that `Loading.read` does not hide.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
