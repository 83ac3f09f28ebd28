#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A recorded editing session: the text it started from, every edit in
/// order, and the text it ended with — the format of josephg's
/// editing-traces (`sequential_traces`).
///
/// Positions and delete counts are Unicode scalars, not UTF-16 or UTF-8.
///
/// ```swift
/// let trace = try EditingTrace(contentsOf: "rustcode.json.gz")
/// var text = trace.startContent
/// for patch in trace.patches { /* apply */ }
/// ```
public struct EditingTrace: Sendable {
  /// One edit: delete `deleteCount` scalars at `position`, then insert
  /// `insert` there.
  public struct Patch: Sendable, Hashable, Decodable {
    /// Where the edit happens, in scalars from the start of the text.
    public var position: Int
    /// How many scalars it deletes.
    public var deleteCount: Int
    /// What it inserts.
    public var insert: String

    /// A patch.
    public init(position: Int, deleteCount: Int, insert: String) {
      self.position = position
      self.deleteCount = deleteCount
      self.insert = insert
    }

    /// Decodes `[position, deleteCount, insert]`, any integers (a trace
    /// checks them: ``EditingTrace/init(json:)``).
    public init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      position = try container.decode(Int.self)
      deleteCount = try container.decode(Int.self)
      insert = try container.decode(String.self)
    }
  }

  /// Why a trace could not be read.
  public enum Failure: Error, CustomStringConvertible, Sendable {
    /// The file could not be opened or read.
    case io(path: String, message: String)
    /// The path names a directory, a FIFO, a device or a socket (`kind`
    /// says which), not a regular file.
    case notARegularFile(path: String, kind: String)
    /// The file has more than ``Limits/maxFileBytes`` (`limit`).
    case fileTooLarge(path: String, size: Int, limit: Int)
    /// The trace's JSON text (inflated, for a `.gz` file) has more than
    /// ``Limits/maxInflatedBytes`` (`limit`).
    case inflatedTooLarge(path: String, limit: Int)
    /// The `.gz` file is not valid gzip.
    case gzip(String)
    /// The JSON is not an editing trace.
    case json(String)
    /// Patch `index` (counting from 0 over all transactions) has a negative
    /// position or delete count, or its end is past `Int.max`.
    case invalidPatch(index: Int, reason: String)

    public var description: String {
      switch self {
      case .io(let path, let message): "cannot read \(path): \(message)"
      case .notARegularFile(let path, let kind):
        "cannot read \(path): it is \(kind), not a regular file"
      case .fileTooLarge(let path, let size, let limit):
        "cannot read \(path): its \(size) bytes are over the limit of \(limit) bytes"
      case .inflatedTooLarge(let path, let limit):
        "cannot read \(path): its JSON text is over the limit of \(limit) bytes"
      case .gzip(let message): message
      case .json(let message): "not an editing trace: \(message)"
      case .invalidPatch(let index, let reason): "patch \(index) is invalid: \(reason)"
      }
    }
  }

  /// How much reading a trace file may take in, so that a huge file, a
  /// device such as `/dev/zero` or a gzip bomb is refused instead of
  /// filling memory.
  public struct Limits: Sendable, Hashable {
    /// The default ``maxFileBytes``: 1 GiB.
    public static let defaultMaxFileBytes = 1 << 30
    /// The default ``maxInflatedBytes``: 256 MiB
    /// (``Gzip/defaultMaxOutputBytes``), about thirty times the largest
    /// trace in the tests; decoding takes several times that in memory.
    public static let defaultMaxInflatedBytes = Gzip.defaultMaxOutputBytes

    /// The largest file read, in bytes, checked before reading.
    public var maxFileBytes: Int
    /// The largest JSON text decoded, in bytes: the inflated size of a
    /// `.gz` file (decompression stops as soon as it is over), the size of
    /// a plain `.json` one.
    public var maxInflatedBytes: Int

    /// Limits; each defaults to its documented default.
    public init(
      maxFileBytes: Int = Limits.defaultMaxFileBytes,
      maxInflatedBytes: Int = Limits.defaultMaxInflatedBytes
    ) {
      self.maxFileBytes = maxFileBytes
      self.maxInflatedBytes = maxInflatedBytes
    }
  }

  /// The text before the first patch.
  public var startContent: String
  /// The text after the last patch.
  public var endContent: String
  /// Every patch, in order (the transactions flattened).
  public var patches: [Patch]

  private struct File: Decodable {
    struct Transaction: Decodable {
      var patches: [Patch]
    }
    var startContent: String
    var endContent: String
    var txns: [Transaction]
  }

  /// Reads a trace from a `.json` or `.json.gz` file.
  ///
  /// Only a regular file is read, and only if it is within `limits`: its
  /// kind and size are checked before it is read, and a `.gz` file's
  /// decompression stops as soon as it is over ``Limits/maxInflatedBytes``.
  ///
  /// - Parameters:
  ///   - path: the file; a name that ends in `.gz` is decompressed.
  ///   - limits: how big the file and its JSON text may be (1 GiB and
  ///     256 MiB unless given).
  /// - Throws: ``Failure`` naming what went wrong (and which limit).
  public init(contentsOf path: String, limits: Limits = Limits()) throws(Failure) {
    let compressed = path.hasSuffix(".gz")
    // A plain trace is its JSON text: the smaller limit applies to it.
    let maxFileBytes =
      compressed ? limits.maxFileBytes : min(limits.maxFileBytes, limits.maxInflatedBytes)
    var bytes: [UInt8]
    do {
      bytes = try RegularFile.read(path, maxBytes: maxFileBytes)
    } catch {
      switch error {
      case .io(let message): throw .io(path: path, message: message)
      case .notARegularFile(let kind): throw .notARegularFile(path: path, kind: kind)
      case .tooLarge(let size, _):
        if !compressed && limits.maxInflatedBytes < limits.maxFileBytes {
          throw .inflatedTooLarge(path: path, limit: limits.maxInflatedBytes)
        }
        throw .fileTooLarge(path: path, size: size, limit: limits.maxFileBytes)
      }
    }
    if compressed {
      do {
        bytes = try Gzip.decompress(bytes, maxOutputBytes: limits.maxInflatedBytes)
      } catch {
        switch error {
        case .tooLarge(let limit): throw .inflatedTooLarge(path: path, limit: limit)
        case .corrupt: throw .gzip(error.description)
        }
      }
    }
    try self.init(json: bytes)
  }

  /// Reads a trace from its JSON text.
  ///
  /// Every patch's position and delete count must be at least 0, and their
  /// sum at most `Int.max` (whether a patch is inside the text is for
  /// whoever applies it to say).
  ///
  /// - Throws: ``Failure/json(_:)``, or ``Failure/invalidPatch(index:reason:)``.
  public init(json: [UInt8]) throws(Failure) {
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: Data(json))
    } catch {
      throw .json("\(error)")
    }
    self.startContent = file.startContent
    self.endContent = file.endContent
    self.patches = file.txns.flatMap(\.patches)
    for (index, patch) in patches.enumerated() {
      if patch.position < 0 {
        throw .invalidPatch(index: index, reason: "its position \(patch.position) is negative")
      }
      if patch.deleteCount < 0 {
        throw .invalidPatch(
          index: index, reason: "its delete count \(patch.deleteCount) is negative")
      }
      if patch.position > Int.max - patch.deleteCount {
        throw .invalidPatch(
          index: index,
          reason: "its end (\(patch.position) + \(patch.deleteCount)) is past Int.max")
      }
    }
  }
}
