import Dispatch
import DocumentEngine
import Synchronization
import TextRope

/// Counts the words of cells off the editor's loop: a cell of hundreds of
/// megabytes takes a while, and the person keeps typing meanwhile.
///
/// A word is a run of letters and digits (apostrophes inside it included),
/// read chunk by chunk from a snapshot of the cell's text.
final class WordCounter: Sendable {
  private let queue = DispatchQueue(label: "editor.words")
  private let counts = Mutex<[StorageID: (version: StorageVersion, count: Int)]>([:])
  private let inFlight = Mutex<Set<StorageID>>([])
  private let finished = Atomic<Int>(0)

  /// How many counts have finished: it changes when a new count is in.
  var generation: Int { finished.load(ordering: .acquiring) }

  /// Counts `text` (storage `id` at `version`) in the background, unless a
  /// count of that storage is under way.
  func count(_ text: Rope, storage id: StorageID, version: StorageVersion) {
    guard inFlight.withLock({ $0.insert(id).inserted }) else { return }
    queue.async { [self] in
      let count = Self.words(in: text)
      counts.withLock { $0[id] = (version, count) }
      _ = inFlight.withLock { $0.remove(id) }
      finished.add(1, ordering: .releasing)
    }
  }

  /// The last count of each storage, with the version it was made at.
  var last: [StorageID: (version: StorageVersion, count: Int)] {
    counts.withLock { $0 }
  }

  /// The words of `text`.
  static func words(in text: Rope) -> Int {
    var count = 0
    var inWord = false
    for chunk in text.chunks {
      for scalar in chunk.string.unicodeScalars {
        let properties = scalar.properties
        let letter = properties.isAlphabetic || properties.numericType != nil
        if letter && !inWord { count += 1 }
        inWord = letter || (inWord && (scalar == "'" || scalar == "\u{2019}"))
      }
    }
    return count
  }
}
