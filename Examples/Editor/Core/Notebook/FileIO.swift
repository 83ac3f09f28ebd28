#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file whole and replacing one atomically, with the system's
/// reasons when they fail.
enum FileIO {
  /// Why a file operation failed.
  enum Failure: Error, Hashable, CustomStringConvertible {
    /// The file does not exist.
    case notFound
    /// The system's reason (`strerror`), with what was being done.
    case system(String)

    var description: String {
      switch self {
      case .notFound: "no such file"
      case .system(let why): why
      }
    }

    static func fromErrno(_ doing: String) -> Failure {
      let code = errno
      if code == ENOENT { return .notFound }
      return .system("\(doing): \(String(cString: strerror(code)))")
    }
  }

  /// The file's bytes.
  static func readFile(_ path: String) throws(Failure) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .fromErrno("open") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .fromErrno("stat") }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw .system("not a regular file") }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(info.st_size))
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .fromErrno("read")
      }
      if n == 0 { break }
      bytes.append(contentsOf: buffer[0..<n])
    }
    return bytes
  }

  /// Writes `bytes` to a temporary file in `path`'s folder, flushes it to
  /// the disk, and renames it over `path`: a reader sees the old file or
  /// the new one, never part of either, and a failure leaves the old file
  /// as it was. The new file keeps the old one's permissions.
  static func replaceFile(_ path: String, _ bytes: [UInt8]) throws(Failure) {
    var mode: mode_t = 0o644
    var info = stat()
    if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
    let temporary = temporaryPath(for: path)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { throw .fromErrno("create \(temporary)") }
    var written = 0
    var failure: Failure? = nil
    bytes.withUnsafeBytes { raw in
      while written < raw.count {
        let n = write(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
        if n < 0 {
          if errno == EINTR { continue }
          failure = .fromErrno("write")
          return
        }
        written += n
      }
    }
    if failure == nil && fsync(fd) != 0 { failure = .fromErrno("fsync") }
    if close(fd) != 0 && failure == nil { failure = .fromErrno("close") }
    if failure == nil && rename(temporary, path) != 0 { failure = .fromErrno("rename") }
    if let failure {
      unlink(temporary)
      throw failure
    }
  }

  /// A name beside `path` that no other save uses.
  static func temporaryPath(for path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    return "\(folder).\(name).saving-\(getpid())"
  }
}
