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
  /// Reads the regular file at `path` as UTF-8, reporting to `progress`
  /// (if any) the bytes read out of the file's size as they come, and a
  /// summary at the end for a file of at least
  /// ``summaryMinimumBytes``.
  ///
  /// - Parameter maxBytes: the largest file read; its size is checked
  ///   before a byte is read.
  /// - Throws: ``REPLError`` with code `io` if it cannot be read or is not
  ///   a regular file (a directory, a FIFO, a device such as `/dev/zero`, a
  ///   socket), `tooLarge` if it has more than `maxBytes`, `invalidUTF8`.
  public static func load(
    _ path: String, maxBytes: Int = REPLLimits.defaultMaxFileBytes,
    progress: ProgressReporter? = nil
  ) throws(REPLError) -> Rope {
    var begun = false
    let bytes: [UInt8]
    do throws(REPLError) {
      bytes = try read(path, maxBytes: maxBytes) { read, size in
        guard let progress else { return }
        if !begun {
          progress.begin("loading \(path)", total: size, unit: .bytes)
          begun = true
        }
        progress.update(read)
      }
    } catch {
      progress?.cancel()
      throw error
    }
    do {
      let rope = try Rope(validating: bytes)
      if let progress {
        if !begun { progress.begin("loading \(path)", total: bytes.count, unit: .bytes) }
        if bytes.count >= summaryMinimumBytes {
          progress.end("loaded \(path):", done: bytes.count)
        } else {
          progress.cancel()
        }
      }
      return rope
    } catch {
      progress?.cancel()
      if case .invalidUTF8(let offset) = error {
        throw REPLError("invalidUTF8", "'\(path)' is not UTF-8 (invalid byte at \(offset))")
      }
      throw REPLError("invalidUTF8", "'\(path)' is not UTF-8")
    }
  }

  /// The smallest file whose `load` ends with a summary: 1 MB (a smaller
  /// one is read in a blink).
  public static let summaryMinimumBytes = 1_000_000

  /// The bytes of the regular file at `path`, which must have at most
  /// `maxBytes` (see `RegularFile.read(_:maxBytes:progress:)`).
  ///
  /// - Parameter progress: called after each read with the bytes read so
  ///   far and the file's size.
  /// - Throws: ``REPLError`` with code `io` or `tooLarge`.
  public static func read(
    _ path: String, maxBytes: Int, progress: ((Int, Int) -> Void)? = nil
  ) throws(REPLError) -> [UInt8] {
    do {
      return try RegularFile.read(path, maxBytes: maxBytes, progress: progress)
    } catch {
      switch error {
      case .io(let reason): throw REPLError("io", "cannot read '\(path)': \(reason)")
      case .notARegularFile(let kind):
        throw REPLError("io", "cannot read '\(path)': it is \(kind), not a regular file")
      case .tooLarge(let size, let limit):
        throw tooLarge(path, size: size, limit)
      }
    }
  }

  /// A file of `size` bytes (at least: it may have grown while it was
  /// read) over the limit.
  static func tooLarge(_ path: String, size: Int, _ limit: Int) -> REPLError {
    REPLError(
      "tooLarge",
      "'\(path)' has \(size) bytes, over the file size limit of \(limit) bytes "
        + "(raise it with --max-file-bytes)")
  }
}
