import CZlib

/// Gzip (and zlib) decompression through the system zlib, with a limit on
/// the output (a few megabytes of gzip can inflate to gigabytes).
public enum Gzip {
  /// Why decompression failed.
  public enum Failure: Error, CustomStringConvertible, Sendable, Hashable {
    /// The input is not a complete gzip or zlib stream: zlib's message, or
    /// what was wrong.
    case corrupt(String)
    /// The output would be more than `limit` bytes; decompression stopped
    /// there.
    case tooLarge(limit: Int)

    public var description: String {
      switch self {
      case .corrupt(let message): "gzip: \(message)"
      case .tooLarge(let limit): "gzip: the data inflates to more than \(limit) bytes"
      }
    }
  }

  /// The output limit of ``decompress(_:maxOutputBytes:)`` unless given
  /// another: 256 MiB, about thirty times the largest editing trace in the
  /// tests inflated, and still a size whose decoding fits in memory.
  public static let defaultMaxOutputBytes = 256 << 20

  /// The size of the blocks the output is inflated in.
  static let blockSize = 1 << 16

  /// The bytes that gzip- or zlib-compressed `data` decompresses to.
  ///
  /// Decompression stops as soon as the output would be over
  /// `maxOutputBytes`: it never holds more than `maxOutputBytes` plus one
  /// byte of output and one 64 KiB block.
  ///
  /// - Parameters:
  ///   - data: a complete gzip or zlib stream.
  ///   - maxOutputBytes: the most bytes the output may have
  ///     (``defaultMaxOutputBytes`` unless given; negative counts as 0).
  /// - Throws: ``Failure/corrupt(_:)`` if `data` is not a complete gzip or
  ///   zlib stream, ``Failure/tooLarge(limit:)`` if it inflates to more
  ///   than `maxOutputBytes`.
  /// - Complexity: O(n) in the decompressed size, at most `maxOutputBytes`.
  public static func decompress(
    _ data: [UInt8], maxOutputBytes: Int = defaultMaxOutputBytes
  ) throws(Failure) -> [UInt8] {
    let limit = max(0, maxOutputBytes)
    var stream = z_stream()
    // 15 + 32: the largest window, and detect a gzip or a zlib header.
    let status = inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw .corrupt("inflateInit2 failed (\(status))") }
    defer { inflateEnd(&stream) }
    var output = [UInt8]()
    // Most data inflates to a few times its size; never reserve past the
    // limit.
    output.reserveCapacity(data.count > limit / 4 ? limit : data.count * 4)
    var block = [UInt8](repeating: 0, count: blockSize)
    var result: Int32 = Z_OK
    var tooLarge = false
    data.withUnsafeBufferPointer { source in
      // zlib counts input in 32 bits: feed more than 4 GiB in parts.
      var consumed = 0
      repeat {
        if stream.avail_in == 0 && consumed < source.count {
          let part = min(source.count - consumed, Int(UInt32.max))
          stream.next_in = source.baseAddress.map { UnsafeMutablePointer(mutating: $0 + consumed) }
          stream.avail_in = UInt32(part)
          consumed += part
        }
        // Ask for at most one byte past the limit: that byte is the proof
        // that the output is too large.
        let room = limit - output.count
        let want = room < blockSize ? room + 1 : blockSize
        block.withUnsafeMutableBufferPointer { target in
          stream.next_out = target.baseAddress
          stream.avail_out = UInt32(want)
          result = inflate(&stream, Z_NO_FLUSH)
          let produced = want - Int(stream.avail_out)
          if produced > room {
            tooLarge = true
            return
          }
          if output.count + produced > output.capacity {
            // Grow by doubling, as append would, but never past the limit.
            let doubled = output.count > limit / 2 ? limit : output.count * 2
            output.reserveCapacity(min(limit, max(doubled, output.count + produced)))
          }
          output.append(contentsOf: target[..<produced])
        }
      } while result == Z_OK && !tooLarge
    }
    if tooLarge { throw .tooLarge(limit: limit) }
    guard result == Z_STREAM_END else {
      let message = stream.msg.map { String(cString: $0) } ?? "truncated or corrupt stream"
      throw .corrupt("\(message) (\(result))")
    }
    return output
  }
}
