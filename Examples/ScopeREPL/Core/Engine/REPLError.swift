import DocumentEngine
import EditingTraces
import TextBoundaries
import TextRope

/// A refused request: its protocol code and a message for people. A refused
/// request changes nothing.
public struct REPLError: Error, Hashable, Sendable {
  /// The protocol's error code (`badRequest`, `outOfRange`, `io`,
  /// `tooLarge`…).
  public var code: String
  /// What went wrong, for people.
  public var message: String

  /// An error with `code` and `message`.
  public init(_ code: String, _ message: String) {
    self.code = code
    self.message = message
  }

  /// A `badRequest` error: a line that is not a request the protocol knows.
  public static func badRequest(_ message: String) -> REPLError {
    REPLError("badRequest", message)
  }

  /// The error for a line of `count` bytes over the line length `limit`.
  public static func lineTooLong(_ count: Int, _ limit: Int) -> REPLError {
    REPLError(
      "tooLarge",
      "the line has \(count) bytes, over the line length limit of \(limit) bytes; it was "
        + "skipped (raise the limit with --max-line-bytes)")
  }
}

// The one place where the library's errors meet the protocol's codes.
extension REPLError {
  /// The protocol's error for any error a command throws: the document's,
  /// the rope's, a boundary query's, the document index's, or the REPL's
  /// own.
  init(_ error: any Error) {
    switch error {
    case let error as REPLError: self = error
    case let error as DocumentError: self.init(Self.code(of: error), error.description)
    case let error as RopeError: self.init(Self.code(of: error), error.description)
    case let error as BoundaryError:
      switch error {
      case .invalidOffset(let rope): self.init(rope)
      case .icuUnavailable: self.init("icuUnavailable", error.description)
      case .textTooLong: self.init("outOfRange", error.description)
      }
    case let error as DocumentIndexError:
      switch error {
      case .offsetOutOfBounds(let offset, let length):
        self.init("outOfRange", "document offset \(offset) is out of bounds 0...\(length)")
      case .empty: self.init("outOfRange", "the document has no storage")
      default: self.init("outOfRange", "\(error)")
      }
    default: self.init("badRequest", "\(error)")
    }
  }

  /// The protocol's code for a refusal of the document's.
  static func code(of error: DocumentError) -> String {
    switch error {
    case .unknownStorage: "unknownStorage"
    case .duplicateStorage: "duplicateStorage"
    case .invalidRange(_, let rope): code(of: rope)
    case .unknownContext: "unknownContext"
    case .noSession: "noSession"
    case .outsideContext: "outOfRange"
    case .conflict: "conflict"
    case .excluded: "excluded"
    case .staleVersion, .staleContextVersion: "staleVersion"
    case .invalidStateTransition: "invalidState"
    case .negativeCount, .invalidAttribute, .overlappingRuns: "badRequest"
    case .unknownTrackedRange: "unknownTracked"
    case .tooManyTrackedRanges: "tooLarge"
    case .unknownSuggestion: "unknownSuggestion"
    case .ignoredSuggestion: "ignored"
    case .invalidCandidate: "outOfRange"
    case .nothingToUndo, .nothingToRedo: "nothingToUndo"
    case .batchRefused(_, let inner): code(of: inner)
    }
  }

  /// The protocol's code for an offset the rope refused.
  static func code(of error: RopeError) -> String {
    switch error {
    case .splitsSurrogatePair: "splitsSurrogatePair"
    case .invalidUTF8: "invalidUTF8"
    case .offsetOutOfBounds, .splitsScalar, .paragraphOutOfBounds: "outOfRange"
    }
  }

  /// The protocol's error for a trace that `replay` cannot read.
  init(_ error: EditingTrace.Failure, path: String) {
    switch error {
    case .fileTooLarge(_, let size, let limit):
      self.init(
        "tooLarge",
        "the trace '\(path)' has \(size) bytes, over the file size limit of \(limit) bytes "
          + "(raise it with --max-file-bytes)")
    case .inflatedTooLarge(_, let limit):
      self.init(
        "tooLarge",
        "the trace '\(path)' has more than \(limit) bytes of JSON text (inflated, for a .gz), "
          + "over the limit (raise it with --max-inflated-bytes)")
    case .invalidPatch:
      self.init("outOfRange", "the trace '\(path)' has a patch out of range: \(error)")
    case .io, .notARegularFile, .gzip, .json:
      self.init("io", "cannot read the trace '\(path)': \(error)")
    }
  }
}
