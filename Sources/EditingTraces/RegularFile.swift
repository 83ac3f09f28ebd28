#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a whole file that must be a regular file of bounded size: its
/// kind and size are checked before a byte is read, so that a directory, a
/// FIFO, a device such as `/dev/zero` or a socket is refused at once.
public enum RegularFile {
  /// Why a file was not read.
  public enum Failure: Error, Sendable {
    /// The file cannot be opened, examined or read.
    case io(String)
    /// It is a directory, a FIFO, a device or a socket (`kind` says which).
    case notARegularFile(kind: String)
    /// It has more than `limit` bytes (`size`, or at least `limit + 1` if it
    /// grew while it was read).
    case tooLarge(size: Int, limit: Int)
  }

  /// What `mode` says the file is, for messages.
  static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "not a regular file"
    }
  }

  static func errorText() -> String {
    String(cString: strerror(errno))
  }

  /// Checks that `info` is a regular file of at most `maxBytes`; returns
  /// its size.
  static func check(_ info: stat, maxBytes: Int) throws(Failure) -> Int {
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw .notARegularFile(kind: kind(info.st_mode))
    }
    let size = Int(clamping: info.st_size)
    guard size <= maxBytes else { throw .tooLarge(size: size, limit: maxBytes) }
    return max(0, size)
  }

  /// The bytes of the regular file at `path`, which must have at most
  /// `maxBytes` (negative counts as 0). Its kind and size are looked at
  /// before it is opened (opening a FIFO would wait for a writer) and again
  /// once it is open; a file that grows past `maxBytes` while it is read is
  /// refused as well.
  ///
  /// - Parameters:
  ///   - path: the file to read.
  ///   - maxBytes: the most bytes the file may have.
  ///   - progress: called after each read with the bytes read so far and the
  ///     file's size.
  /// - Throws: ``Failure``; nothing is read past `maxBytes + 1` bytes.
  /// - Complexity: O(n) for a file of n bytes.
  public static func read(
    _ path: String, maxBytes: Int, progress: ((Int, Int) -> Void)? = nil
  ) throws(Failure) -> [UInt8] {
    let limit = max(0, maxBytes)
    var info = stat()
    // Looked at before it is opened: opening a FIFO would wait for a writer.
    guard stat(path, &info) == 0 else { throw .io(errorText()) }
    _ = try check(info, maxBytes: limit)
    // Not blocking, in case it was replaced by a FIFO since.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw .io(errorText()) }
    defer { close(fd) }
    guard fstat(fd, &info) == 0 else { throw .io(errorText()) }
    let size = try check(info, maxBytes: limit)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size < limit ? size + 1 : limit)
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      // At most one byte past the limit: a file that grew is noticed.
      let room = limit - bytes.count
      let want = room < chunk.count ? room + 1 : chunk.count
      let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, want) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .io(errorText())
      }
      if count == 0 { break }
      guard count <= room else { throw .tooLarge(size: bytes.count + count, limit: limit) }
      bytes.append(contentsOf: chunk[..<count])
      progress?(bytes.count, size)
    }
    return bytes
  }
}

/// `read(2)`, by a name that the enum's own `read` does not hide.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
