/// Turns the bytes a terminal sends into ``KeyEvent``s, across reads.
///
/// Feed it whatever each read returned; it keeps what is not yet a whole key
/// (a UTF-8 character or an escape sequence split between two reads), so the
/// keys do not depend on where the reads split, except that text is grouped
/// by read: consecutive printable characters of one ``feed(_:)`` come as one
/// ``KeyEvent/text(_:)``.
///
/// Some bytes only mean something once the input pauses: a lone `ESC` is the
/// Escape key, or the start of a sequence or of Alt and a key whose other
/// bytes are still on their way. When ``isPending`` is true after a read,
/// wait a little for more (25 to 50 ms is usual; the caller decides) and call
/// ``flush()`` if nothing came: it reads what is held as it stands.
///
/// ```swift
/// var decoder = KeyDecoder()
/// while true {
///   let bytes = try terminal.read(timeoutMilliseconds: decoder.isPending ? 30 : -1)
///   let events = bytes.isEmpty ? decoder.flush() : decoder.feed(bytes)
///   for event in events { handle(event) }
/// }
/// ```
///
/// What it reads (the table of escape sequences is in `KeyParser.swift`):
/// - text as UTF-8; bytes that are not UTF-8 become U+FFFD, one for each
///   maximal subpart (as Swift's `String(decoding:as:)` does);
/// - the control bytes: `0x0D` and `0x0A` are Enter (a CR LF pair is one
///   Enter, unless the input paused between them), `0x09` Tab, `0x7F` and
///   `0x08` Backspace, `0x00` Ctrl-Space, the others from `0x01` to `0x1A`
///   Ctrl-A to Ctrl-Z (`0x03` is Ctrl-C: reported like any key, the program
///   decides), `0x1C` to `0x1F` Ctrl-\, Ctrl-], Ctrl-^, Ctrl-_;
/// - escape sequences (CSI, SS3, the VT220 and rxvt forms) with xterm's
///   modifiers, and `ESC` before a key as Alt (so Escape typed quickly
///   before a key, in one read, is Alt and that key: the terminal sends the
///   same bytes);
/// - bracketed paste: the bytes between `ESC [ 200 ~` and `ESC [ 201 ~`, as
///   text, whatever they hold (CR LF and CR become `"\n"`).
///
/// Memory is bounded: the decoder holds at most ``maxSequenceBytes`` bytes of
/// an unfinished escape sequence (a longer one is reported as
/// ``KeyEvent/unknown(_:)`` with its first bytes and the rest is skipped) and
/// at most about ``maxPasteChunkBytes`` bytes of a paste (a longer paste comes
/// as several ``KeyEvent/paste(_:)`` events in a row, cut between scalars).
///
/// - Complexity: ``feed(_:)`` is O(*n*) in the bytes held and fed.
public struct KeyDecoder: Sendable {
  /// The default for ``maxSequenceBytes``.
  public static let defaultMaxSequenceBytes = 64
  /// The default for ``maxPasteChunkBytes``.
  public static let defaultMaxPasteChunkBytes = 65_536

  /// The longest escape sequence, in bytes, read whole; the first bytes of a
  /// longer one are reported as unknown and the rest skipped.
  public let maxSequenceBytes: Int
  /// The most bytes of a paste reported in one ``KeyEvent/paste(_:)``; a
  /// longer paste is cut into pieces of this size (less up to 3 bytes, to
  /// cut between scalars).
  public let maxPasteChunkBytes: Int

  /// What the bytes held are in the middle of.
  private enum Mode: Sendable {
    /// Keys.
    case keys
    /// A paste, whose end marker has not come yet.
    case paste
    /// The rest of an escape sequence that was too long, to skip.
    case skippingSequence
  }

  /// The bytes not yet decoded.
  private var buffer: [UInt8] = []
  private var mode = Mode.keys
  /// The last key was a CR, so an LF right after it is the same Enter.
  private var afterCarriageReturn = false
  /// In a paste: the last byte of it was a CR, so an LF right after it is
  /// part of the same line break.
  private var pasteAfterCarriageReturn = false
  /// In a paste: how many bytes at the start of `buffer` are known not to
  /// start the end marker (so that each byte is searched once).
  private var pasteSearched = 0

  /// The end of a paste: `ESC [ 201 ~`.
  private static let pasteEndMarker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

  /// A decoder with nothing held.
  ///
  /// - Parameters:
  ///   - maxSequenceBytes: the longest escape sequence read whole (at least
  ///     16 is used).
  ///   - maxPasteChunkBytes: the most bytes of a paste in one event (at
  ///     least 16 is used).
  public init(
    maxSequenceBytes: Int = KeyDecoder.defaultMaxSequenceBytes,
    maxPasteChunkBytes: Int = KeyDecoder.defaultMaxPasteChunkBytes
  ) {
    self.maxSequenceBytes = max(16, maxSequenceBytes)
    self.maxPasteChunkBytes = max(16, maxPasteChunkBytes)
  }

  /// Whether bytes are held that may be the start of a longer key (an
  /// `ESC`, part of a sequence or of a character), or a paste is unfinished:
  /// then call ``flush()`` if no more input comes soon.
  public var isPending: Bool { !buffer.isEmpty || mode != .keys }

  /// How many bytes are held (for tests of the bounds).
  var heldByteCount: Int { buffer.count }

  /// Decodes the keys in `bytes`, after those held from earlier reads.
  ///
  /// - Parameter bytes: what one read of the terminal returned.
  /// - Returns: the keys completed, in order; what may still be the start of
  ///   a key is held for the next call.
  /// - Complexity: O(*n*) in the bytes held and fed.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [KeyEvent] {
    buffer.append(contentsOf: bytes)
    return decode(final: false)
  }

  /// Decodes what is held as it stands, for when the input has paused: a
  /// lone `ESC` is Escape, `ESC [` is Alt-[, a cut-short character is
  /// U+FFFD, an unfinished sequence is unknown, and the part of an unfinished
  /// paste received so far is a ``KeyEvent/paste(_:)`` (the paste goes on
  /// with the next bytes).
  ///
  /// - Returns: the keys held.
  /// - Complexity: O(*n*) in the bytes held.
  public mutating func flush() -> [KeyEvent] {
    let events = decode(final: true)
    afterCarriageReturn = false
    return events
  }

  /// Decodes the bytes held; if `final`, all of them but a possible start of
  /// the end of a paste.
  private mutating func decode(final: Bool) -> [KeyEvent] {
    var events: [KeyEvent] = []
    var text = ""
    var index = 0
    let parser = KeyParser(bytes: buffer, final: final, maxSequenceBytes: maxSequenceBytes)
    decoding: while true {
      switch mode {
      case .paste:
        appendText(&text, to: &events)
        let ended: Bool
        (index, ended) = decodePaste(from: index, final: final, into: &events)
        guard ended else { break decoding }
        mode = .keys
      case .skippingSequence:
        guard index < buffer.count else {
          if final { mode = .keys }
          break decoding
        }
        switch buffer[index] {
        case 0x20...0x3F:
          index += 1
        case 0x40...0x7E:
          index += 1
          mode = .keys
        default:
          mode = .keys
        }
      case .keys:
        guard index < buffer.count else { break decoding }
        let byte = buffer[index]
        switch parser.unit(at: index) {
        case .incomplete:
          guard final else { break decoding }
          // Not reached: the parser reads everything when final.
          appendText(&text, to: &events)
          events.append(.unknown(Array(buffer[index...])))
          index = buffer.count
        case .scalar(let scalar, let length, _):
          text.unicodeScalars.append(scalar)
          afterCarriageReturn = false
          index += length
        case .event(let event, let length):
          if !(byte == 0x0A && afterCarriageReturn) {
            appendText(&text, to: &events)
            events.append(event)
          }
          afterCarriageReturn = byte == 0x0D
          index += length
        case .pasteStart(let length):
          index += length
          mode = .paste
          pasteAfterCarriageReturn = false
          pasteSearched = index
          afterCarriageReturn = false
        case .pasteEnd(let length):
          index += length  // The end of a paste that did not start: nothing.
        case .overlong(let length):
          appendText(&text, to: &events)
          events.append(.unknown(Array(buffer[index..<(index + length)])))
          index += length
          mode = .skippingSequence
          afterCarriageReturn = false
        }
      }
    }
    appendText(&text, to: &events)
    buffer.removeFirst(index)
    pasteSearched = max(0, pasteSearched - index)
    return events
  }

  /// Appends `text`, if any, as an event, and empties it.
  private func appendText(_ text: inout String, to events: inout [KeyEvent]) {
    guard !text.isEmpty else { return }
    events.append(.text(text))
    text = ""
  }

  /// Decodes the paste from `start`: its pieces of ``maxPasteChunkBytes``,
  /// and its last piece once its end marker has come (or, if `final`, what
  /// has come of it).
  ///
  /// - Returns: the position after what was decoded, and whether the paste
  ///   ended.
  private mutating func decodePaste(
    from start: Int, final: Bool, into events: inout [KeyEvent]
  ) -> (Int, Bool) {
    let marker = Self.pasteEndMarker
    var markerStart: Int? = nil
    // Where the paste's bytes surely end: before the marker, or before what
    // may be its start at the end of the buffer.
    var safeEnd = buffer.count
    var position = max(start, pasteSearched)
    while position < buffer.count {
      if buffer[position] == 0x1B {
        let available = min(marker.count, buffer.count - position)
        if buffer[position..<(position + available)].elementsEqual(marker[..<available]) {
          if available == marker.count {
            markerStart = position
          }
          safeEnd = position
          break
        }
      }
      position += 1
    }
    pasteSearched = safeEnd
    var index = start
    while safeEnd - index >= maxPasteChunkBytes {
      let cut = scalarBoundary(before: index + maxPasteChunkBytes, after: index)
      appendPaste(buffer[index..<cut], to: &events)
      index = cut
    }
    if let markerStart {
      appendPaste(buffer[index..<markerStart], to: &events)
      return (markerStart + marker.count, true)
    }
    if final {
      let cut = scalarBoundary(before: safeEnd, after: index)
      appendPaste(buffer[index..<cut], to: &events)
      index = cut
    }
    return (index, false)
  }

  /// `cut`, or the start of the scalar that `cut` falls inside (looking back
  /// at most 3 bytes, not before `lower`): where to cut a paste without
  /// splitting a scalar.
  private func scalarBoundary(before cut: Int, after lower: Int) -> Int {
    var position = cut - 1
    while position >= max(lower, cut - 3) {
      let byte = buffer[position]
      if byte & 0xC0 != 0x80 {
        let length: Int
        switch byte {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: length = 1
        }
        return position + length > cut ? position : cut
      }
      position -= 1
    }
    return cut
  }

  /// Appends a piece of a paste as an event, with CR LF and CR made LF (an
  /// LF after a CR that ended the previous piece is dropped), if any text is
  /// left.
  private mutating func appendPaste(_ bytes: ArraySlice<UInt8>, to events: inout [KeyEvent]) {
    var normalized: [UInt8] = []
    normalized.reserveCapacity(bytes.count)
    for byte in bytes {
      if byte == 0x0A && pasteAfterCarriageReturn {
        pasteAfterCarriageReturn = false
        continue
      }
      pasteAfterCarriageReturn = byte == 0x0D
      normalized.append(byte == 0x0D ? 0x0A : byte)
    }
    guard !normalized.isEmpty else { return }
    events.append(.paste(String(decoding: normalized, as: UTF8.self)))
  }
}
