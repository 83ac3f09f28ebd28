import Foundation
import TextRope

/// Reading UTF-8 files into ropes, with progress for big ones.
enum Loading {
  /// Reads `path` as UTF-8. Reports progress through `progress` when the
  /// read takes more than half a second.
  static func load(_ path: String, progress: ((String) -> Void)?) throws(REPLError) -> Rope {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw REPLError("io", "cannot open '\(path)'")
    }
    defer { try? handle.close() }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size)
    let clock = ContinuousClock()
    let start = clock.now
    var shown = false
    while true {
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: 8 << 20) ?? Data()
      } catch {
        throw REPLError("io", "cannot read '\(path)': \(error.localizedDescription)")
      }
      if chunk.isEmpty { break }
      bytes.append(contentsOf: chunk)
      if let progress, size > 0, clock.now - start > .milliseconds(500) {
        progress("loading \(path): \(bytes.count * 100 / size)%")
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
}
