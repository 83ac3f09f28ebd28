import Foundation

/// The events of a ``Document`` that one observer reads, in the order the
/// calls that made them were made (see ``Document/events(limit:)``).
///
/// Each stream buffers at most ``limit`` events that its reader has not
/// taken. An observer that falls further behind is not sent more: the
/// events it misses are counted, and once it has read what was buffered it
/// gets one ``DocumentEvent/missed(_:)`` with their number, then the events
/// made after it, so that it can read the document afresh and go on. So an
/// observer that never reads costs the document at most ``limit`` events.
///
/// One task reads a stream; the stream ends (its iterator gives `nil`,
/// after what was buffered) when the document goes away, and stops being
/// sent events when its reader's task is cancelled or every copy of it and
/// of its iterator is gone.
public struct DocumentEvents: AsyncSequence, Sendable {
  public typealias Element = DocumentEvent
  public typealias Failure = Never

  /// How many events a stream buffers unless ``Document/events(limit:)``
  /// says otherwise.
  public static let defaultLimit = 4096

  let token: _ObserverToken

  /// How many events it buffers for its reader at most.
  public var limit: Int { token.buffer.limit }

  public func makeAsyncIterator() -> Iterator { Iterator(token: token) }

  /// Reads a stream's events.
  public struct Iterator: AsyncIteratorProtocol {
    let token: _ObserverToken

    /// The next event: at once if one is buffered, else when one comes;
    /// `nil` once the document is gone (and what was buffered read) or the
    /// reading task is cancelled.
    public mutating func next() async -> DocumentEvent? {
      await token.buffer.next()
    }
  }
}

/// Lets the document forget a stream's buffer once nobody can read it: the
/// stream and its iterators hold it; the document holds only the buffer.
final class _ObserverToken: Sendable {
  let buffer: _ObserverBuffer
  let forget: @Sendable () -> Void

  init(buffer: _ObserverBuffer, forget: @escaping @Sendable () -> Void) {
    self.buffer = buffer
    self.forget = forget
  }

  deinit { forget() }
}

/// One observer's events not read yet: at most `limit` of them, then a
/// count of those it missed (see ``DocumentEvents``).
final class _ObserverBuffer: @unchecked Sendable {
  let limit: Int
  private let lock = NSLock()
  // Guarded by `lock`.
  private var events: [DocumentEvent] = []
  private var head = 0
  private var missed = 0
  private var waiting: [CheckedContinuation<DocumentEvent?, Never>] = []
  private var finished = false
  /// Called (without the lock) when the reader's task is cancelled.
  let onCancel: @Sendable () -> Void

  init(limit: Int, onCancel: @escaping @Sendable () -> Void) {
    self.limit = max(1, limit)
    self.onCancel = onCancel
  }

  /// How many events are buffered now (for tests and benchmarks).
  var buffered: Int {
    lock.lock()
    defer { lock.unlock() }
    return events.count - head
  }

  /// Takes the next event to read (the lock held): a buffered one, else
  /// the count of those missed.
  private func take() -> DocumentEvent? {
    if head < events.count {
      let event = events[head]
      head += 1
      if head == events.count {
        events.removeAll(keepingCapacity: events.capacity <= 2 * limit)
        head = 0
      } else if head >= 64 && head * 2 >= events.count {
        events.removeFirst(head)
        head = 0
      }
      return event
    }
    if missed > 0 {
      defer { missed = 0 }
      return .missed(missed)
    }
    return nil
  }

  /// Buffers `new` for the reader (or counts them as missed) and wakes it.
  func send(_ new: [DocumentEvent]) {
    var wake: [(CheckedContinuation<DocumentEvent?, Never>, DocumentEvent)] = []
    lock.lock()
    if finished {
      lock.unlock()
      return
    }
    for event in new {
      if missed > 0 || events.count - head >= limit {
        missed += 1
      } else {
        events.append(event)
      }
    }
    while !waiting.isEmpty, let event = take() {
      wake.append((waiting.removeFirst(), event))
    }
    lock.unlock()
    for (continuation, event) in wake { continuation.resume(returning: event) }
  }

  /// Ends the stream: the reader gets what was buffered, then `nil`.
  func finish() {
    lock.lock()
    finished = true
    let woken = waiting
    waiting = []
    lock.unlock()
    for continuation in woken { continuation.resume(returning: nil) }
  }

  /// The reader's next event (see ``DocumentEvents/Iterator/next()``).
  func next() async -> DocumentEvent? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<DocumentEvent?, Never>) in
        lock.lock()
        if let event = take() {
          lock.unlock()
          continuation.resume(returning: event)
        } else if finished || Task.isCancelled {
          lock.unlock()
          continuation.resume(returning: nil)
        } else {
          waiting.append(continuation)
          lock.unlock()
        }
      }
    } onCancel: {
      finish()
      onCancel()
    }
  }
}
