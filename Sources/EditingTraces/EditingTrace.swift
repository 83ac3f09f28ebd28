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

    public init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      position = try container.decode(Int.self)
      deleteCount = try container.decode(Int.self)
      insert = try container.decode(String.self)
    }
  }

  /// Why a trace could not be read.
  public enum Failure: Error, CustomStringConvertible, Sendable {
    /// The file could not be read.
    case io(path: String, message: String)
    /// The `.gz` file is not valid gzip.
    case gzip(String)
    /// The JSON is not an editing trace.
    case json(String)

    public var description: String {
      switch self {
      case .io(let path, let message): "cannot read \(path): \(message)"
      case .gzip(let message): message
      case .json(let message): "not an editing trace: \(message)"
      }
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
  /// - Throws: ``Failure`` naming what went wrong.
  public init(contentsOf path: String) throws(Failure) {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .io(path: path, message: "\(error)")
    }
    var bytes = [UInt8](data)
    if path.hasSuffix(".gz") {
      do {
        bytes = try Gzip.decompress(bytes)
      } catch {
        throw .gzip(error.description)
      }
    }
    try self.init(json: bytes)
  }

  /// Reads a trace from its JSON text.
  ///
  /// - Throws: ``Failure/json(_:)``.
  public init(json: [UInt8]) throws(Failure) {
    do {
      let file = try JSONDecoder().decode(File.self, from: Data(json))
      self.startContent = file.startContent
      self.endContent = file.endContent
      self.patches = file.txns.flatMap(\.patches)
    } catch {
      throw .json("\(error)")
    }
  }
}
