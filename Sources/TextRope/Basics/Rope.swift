import SummaryTrees

/// Text as a persistent B-tree of UTF-8 chunks, indexed by UTF-8, UTF-16,
/// scalar and paragraph counts.
///
/// A rope is a value: copying it is O(1) and a copy never changes when the
/// original is edited, so a copy is a snapshot that other threads can read.
/// Edits, slices and coordinate conversions cost O(log n).
///
/// ```swift
/// var rope = Rope("Hello, wörld!\n")
/// try rope.replace(7..<12, with: "world")        // UTF-16 offsets
/// let snapshot = rope                             // O(1)
/// try rope.insert("👋 ", at: 0)
/// String(snapshot)                                // "Hello, world!\n"
/// try rope.convert(2, from: .utf16, to: .utf8)    // 4: "👋" is 2 UTF-16 units, 4 bytes
/// ```
///
/// Offsets are UTF-16 code units unless an operation takes a ``TextUnit``.
/// An offset out of bounds, between the halves of a surrogate pair or inside
/// a scalar's UTF-8 bytes is a thrown ``RopeError``, never a trap.
public struct Rope: Sendable {
  @usableFromInline typealias Tree = SummaryTree<_TextChunk>

  @usableFromInline var tree: Tree

  @inlinable
  init(tree: Tree) {
    self.tree = tree
  }

  /// An empty rope.
  ///
  /// - Complexity: O(1)
  public init() {
    self.tree = Tree()
  }

  /// A rope holding `string`.
  ///
  /// - Complexity: O(n)
  public init(_ string: some StringProtocol) {
    var copy = String(string)
    self = copy.withUTF8 { Rope(validUTF8: $0) }
  }

  /// A rope holding the text that the UTF-8 `bytes` encode.
  ///
  /// - Throws: ``RopeError/invalidUTF8(byteOffset:)`` naming the offset of
  ///   the first byte of the first invalid sequence.
  /// - Complexity: O(n)
  public init(validating bytes: some Sequence<UInt8>) throws(RopeError) {
    let result: Result<Rope, RopeError>? = bytes.withContiguousStorageIfAvailable {
      Rope.validated($0)
    }
    switch result ?? Array(bytes).withUnsafeBufferPointer({ Rope.validated($0) }) {
    case .success(let rope): self = rope
    case .failure(let error): throw error
    }
  }

  static func validated(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Rope, RopeError> {
    if let offset = _UTF8Validation.firstInvalidOffset(bytes) {
      return .failure(.invalidUTF8(byteOffset: offset))
    }
    return .success(Rope(validUTF8: bytes))
  }

  /// A rope of bytes already known to be valid UTF-8.
  @usableFromInline
  init(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    self.tree = Tree(_TextChunk.chunks(of: bytes))
  }

  /// The counts of the whole text in every unit.
  ///
  /// - Complexity: O(1)
  public var summary: TextSummary { tree.summary }

  /// Whether the rope holds no text.
  public var isEmpty: Bool { tree.summary.utf8 == 0 }

  /// The length in UTF-8 bytes.
  public var utf8Count: Int { tree.summary.utf8 }

  /// The length in UTF-16 code units (the length of the equivalent `NSString`).
  public var utf16Count: Int { tree.summary.utf16 }

  /// The length in Unicode scalars.
  public var scalarCount: Int { tree.summary.scalars }

  /// The length in `unit`.
  public func count(in unit: TextUnit) -> Int { tree.summary[unit] }

  /// The number of paragraph separators (LF, CR, CR LF, U+2029).
  public var paragraphSeparatorCount: Int { tree.summary.paragraphSeparators }

  /// The number of paragraphs: one more than the separators (the text after
  /// the last separator is a paragraph, even when empty).
  public var paragraphCount: Int { tree.summary.paragraphSeparators + 1 }

  /// Checks the tree and every chunk: shape and summaries, chunks non-empty,
  /// within `maxBytes`, starting on a scalar boundary, no CR LF pair split
  /// between chunks. Traps on a violation.
  ///
  /// Compiled in only with `-DENGINE_INTERNAL_CHECKS`; a no-op otherwise.
  public func _invariantCheck() {
    #if ENGINE_INTERNAL_CHECKS
    tree._invariantCheck()
    var previousEndsWithCR = false
    for chunk in tree {
      precondition(chunk.count > 0 && chunk.count <= _ChunkLimits.maxBytes, "bad chunk size")
      chunk.bytes.withUnsafeBufferPointer { bytes in
        precondition(!_UTF8Counts.isContinuation(bytes[0]), "chunk starts inside a scalar")
        precondition(!(previousEndsWithCR && bytes[0] == 0x0A), "CR LF split between chunks")
        precondition(_UTF8Validation.firstInvalidOffset(bytes) == nil, "chunk is not UTF-8")
        precondition(_UTF8Counts.summary(of: bytes) == chunk.summary, "stale chunk summary")
        previousEndsWithCR = bytes[bytes.count - 1] == 0x0D
      }
    }
    #endif
  }
}
