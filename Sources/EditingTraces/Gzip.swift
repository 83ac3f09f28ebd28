import CZlib

/// Gzip (and zlib) decompression through the system zlib.
public enum Gzip {
  /// Why decompression failed.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    /// zlib's message, or what was wrong.
    public var description: String
  }

  /// The bytes that gzip- or zlib-compressed `data` decompresses to.
  ///
  /// - Throws: ``Failure`` if `data` is not a complete gzip or zlib stream.
  /// - Complexity: O(n) in the decompressed size.
  public static func decompress(_ data: [UInt8]) throws(Failure) -> [UInt8] {
    var stream = z_stream()
    // 15 + 32: the largest window, and detect a gzip or a zlib header.
    let status = inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw Failure(description: "inflateInit2 failed (\(status))") }
    defer { inflateEnd(&stream) }
    var output = [UInt8]()
    output.reserveCapacity(data.count * 4)
    var block = [UInt8](repeating: 0, count: 1 << 16)
    var input = data
    var result: Int32 = Z_OK
    input.withUnsafeMutableBufferPointer { source in
      stream.next_in = source.baseAddress
      stream.avail_in = UInt32(source.count)
      repeat {
        block.withUnsafeMutableBufferPointer { target in
          stream.next_out = target.baseAddress
          stream.avail_out = UInt32(target.count)
          result = inflate(&stream, Z_NO_FLUSH)
          output.append(contentsOf: target[..<(target.count - Int(stream.avail_out))])
        }
      } while result == Z_OK
    }
    guard result == Z_STREAM_END else {
      let message = stream.msg.map { String(cString: $0) } ?? "truncated or corrupt stream"
      throw Failure(description: "gzip: \(message) (\(result))")
    }
    return output
  }
}
