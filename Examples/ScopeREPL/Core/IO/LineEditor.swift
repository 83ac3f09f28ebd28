/// The line being typed at a prompt, edited with the keys people expect of a
/// terminal prompt, and the history of the lines entered: a state machine fed
/// the bytes a terminal sends, with no terminal of its own (so that it can be
/// tested with plain byte sequences; ``TerminalLineReader`` drives it on a
/// real terminal).
///
/// The line is a sequence of `Character`s (extended grapheme clusters), and
/// the cursor moves and deletes by one of them: an emoji ZWJ sequence, a
/// flag, or a letter with combining marks is one step. Bytes arrive one at a
/// time, so a character split across reads is put together, and a combining
/// mark typed after its letter joins it.
///
/// The keys, as bytes:
///
/// | Key | Does |
/// | --- | --- |
/// | printable text (UTF-8) | inserts it at the cursor |
/// | Left, Right, Ctrl-B, Ctrl-F | move the cursor by one character |
/// | Ctrl-Left, Ctrl-Right, Alt-B, Alt-F | move the cursor by one word |
/// | Home, End, Ctrl-A, Ctrl-E | move the cursor to the start or the end |
/// | Backspace (`0x7F` or Ctrl-H) | deletes the character before the cursor |
/// | Delete, Ctrl-D | delete the character under the cursor |
/// | Ctrl-D on an empty line | ends the input |
/// | Ctrl-K, Ctrl-U | delete (kill) to the end or to the start of the line |
/// | Ctrl-W, Alt-Backspace | delete (kill) the word before the cursor |
/// | Ctrl-Y | inserts the text last killed |
/// | Up, Down, Ctrl-P, Ctrl-N | walk the history |
/// | Ctrl-C | clears the line |
/// | Enter (`\r` or `\n`; `\r\n` is one Enter) | submits the line |
///
/// Escape sequences are read in their `ESC [` (CSI) and `ESC O` (SS3)
/// forms: `ESC [ A`/`B`/`C`/`D` and `ESC O A`/`B`/`C`/`D` (the arrows),
/// `ESC [ H`/`F`, `ESC O H`/`F`, `ESC [ 1 ~`/`7 ~` and `ESC [ 4 ~`/`8 ~`
/// (Home and End), `ESC [ 3 ~` (Delete). Any other sequence, any other
/// control byte (Tab among them) and any byte that is not part of valid UTF-8
/// is ignored; a control character such as Enter that interrupts a sequence
/// ends the sequence and then does what it does.
///
/// The history holds the lines submitted (not an empty line, not a line
/// equal to the one before it, not a line that was too long). Up on a new
/// line recalls the last of them; the line being typed is kept and comes back
/// with Down past the newest. A recalled line may be edited; its edits are
/// kept while moving through the history and dropped when a line is
/// submitted or cleared, so the history itself only grows.
///
/// A line may hold at most ``maxLineBytes`` bytes of UTF-8. Input that would
/// make it longer is refused (not inserted) and counted in
/// ``refusedByteCount``; Enter then submits
/// ``LineReader/Line/tooLong(byteCount:limit:)``, as a ``LineReader`` answers
/// a line over its limit, instead of the line. What the person does to make
/// the line fit forgets the refusal (so that the line shown is the line
/// submitted): any deletion, Ctrl-C, a move through the history; more input
/// is refused until then.
///
/// ```swift
/// var editor = LineEditor()
/// for byte in Array("stoages".utf8) + [0x1B, 0x5B, 0x44] { _ = editor.feed(byte) }
/// // editor.text == "stoages", editor.cursor == 6
/// ```
public struct LineEditor: Sendable {
  /// What the caller should do after a byte.
  public enum Action: Equatable, Sendable {
    /// Keep reading: the line may have changed, so redraw it.
    case `continue`
    /// The line was submitted with Enter: run it. A line that went over
    /// ``LineEditor/maxLineBytes`` is ``LineReader/Line/tooLong(byteCount:limit:)``.
    case submit(LineReader.Line)
    /// The input ended (Ctrl-D on an empty line).
    case endOfInput
  }

  /// Where the editor is in an escape sequence.
  private enum Escape: Sendable {
    /// Not in a sequence.
    case none
    /// After `ESC`.
    case escape
    /// After `ESC [`, with the parameter and intermediate bytes so far (at
    /// most ``LineEditor/maxSequenceBytes`` of them; `overflowed` if there
    /// were more).
    case csi(parameters: [UInt8], overflowed: Bool)
    /// After `ESC O`.
    case ss3
  }

  /// The most parameter bytes of an escape sequence the editor keeps; a
  /// longer sequence is read to its end and ignored.
  private static let maxSequenceBytes = 16

  /// The longest line, in bytes of UTF-8, that the editor lets grow.
  public let maxLineBytes: Int

  /// The lines submitted, oldest first: what Up and Down walk.
  public private(set) var history: [String]

  /// The bytes of input refused on this line because the line would have gone
  /// over ``maxLineBytes`` (since the last deletion); when it is not 0, Enter
  /// submits ``LineReader/Line/tooLong(byteCount:limit:)`` with the bytes of
  /// the line and these.
  public private(set) var refusedByteCount = 0

  /// The line, as characters.
  public private(set) var characters: [Character] = []

  /// The cursor: the number of characters before it, from 0 to
  /// `characters.count`.
  public private(set) var cursor = 0

  /// The number of bytes of the line in UTF-8.
  public private(set) var byteCount = 0

  private var escape = Escape.none
  /// The scalar being decoded from UTF-8: its bits so far, how many bytes it
  /// has in all, and how many more are to come (0 when none is pending).
  private var pendingScalar: UInt32 = 0
  private var pendingLength = 0
  private var pendingRemaining = 0
  /// The last byte was `\r`, so a `\n` right after it is the same Enter.
  private var afterCarriageReturn = false
  /// The line was submitted or the input ended: the line is kept (for a last
  /// redraw) until the next byte starts a new one.
  private var finished = false
  /// Which line of the history is shown: `history.count` is the new line.
  private var historyPosition = 0
  /// The lines of the history edited since the last submission (and the new
  /// line, at `history.count`, while another is shown), by position.
  private var historyEdits: [Int: [Character]] = [:]
  /// The text Ctrl-K, Ctrl-U or Ctrl-W removed last, for Ctrl-Y.
  private var killed: [Character] = []

  /// An editor with an empty line.
  ///
  /// - Parameters:
  ///   - maxLineBytes: the longest line in bytes of UTF-8 (negative counts
  ///     as 0); input past it is refused and the line submitted as too long.
  ///   - history: lines to recall with Up before any is submitted, oldest
  ///     first.
  public init(maxLineBytes: Int = LineReader.defaultMaxLineBytes, history: [String] = []) {
    self.maxLineBytes = max(0, maxLineBytes)
    self.history = history
    self.historyPosition = history.count
  }

  /// The line as a string.
  public var text: String { String(characters) }

  /// Starts a new, empty line (the history is kept).
  ///
  /// After ``Action/submit(_:)`` or ``Action/endOfInput`` the editor keeps
  /// the finished line, with the cursor at its end, so that a last
  /// ``redraw(prompt:width:)`` shows it whole; the next ``feed(_:)-(UInt8)``
  /// starts a new line by itself, and this starts one at once (for the
  /// first redraw of the next prompt).
  public mutating func startLine() {
    finished = false
    characters = []
    cursor = 0
    byteCount = 0
    refusedByteCount = 0
    historyPosition = history.count
    historyEdits = [:]
  }

  /// Feeds the editor each byte of `bytes` in turn.
  ///
  /// - Parameter bytes: bytes as a terminal sends them.
  /// - Returns: the actions other than ``Action/continue``, in order (a
  ///   submitted line, the end of the input).
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Action] {
    var actions: [Action] = []
    for byte in bytes {
      let action = feed(byte)
      if action != .continue { actions.append(action) }
    }
    return actions
  }

  /// Feeds the editor one byte from the terminal.
  ///
  /// - Parameter byte: the next byte of input: text as UTF-8, a control key,
  ///   or part of an escape sequence.
  /// - Returns: ``Action/submit(_:)`` when the byte is Enter,
  ///   ``Action/endOfInput`` when it is Ctrl-D on an empty line, and
  ///   ``Action/continue`` otherwise.
  public mutating func feed(_ byte: UInt8) -> Action {
    if finished { startLine() }
    let afterCarriageReturn = self.afterCarriageReturn
    self.afterCarriageReturn = false
    switch escape {
    case .none:
      break
    case .escape:
      escape = .none
      switch byte {
      case UInt8(ascii: "["):
        escape = .csi(parameters: [], overflowed: false)
        return .continue
      case UInt8(ascii: "O"):
        escape = .ss3
        return .continue
      case 0x1B:
        escape = .escape
        return .continue
      case UInt8(ascii: "b"):
        cursor = wordStart(before: cursor)
        return .continue
      case UInt8(ascii: "f"):
        cursor = wordEnd(after: cursor)
        return .continue
      case 0x08, 0x7F:
        killWordBeforeCursor()
        return .continue
      case 0x00..<0x20:
        break  // ESC then a control key: the key does what it does.
      default:
        return .continue  // Alt and a key the editor has no use for.
      }
    case .csi(var parameters, let overflowed):
      switch byte {
      case 0x20...0x3F:
        let keep = parameters.count < Self.maxSequenceBytes
        if keep { parameters.append(byte) }
        escape = .csi(parameters: parameters, overflowed: overflowed || !keep)
        return .continue
      case 0x40...0x7E:
        escape = .none
        if !overflowed { performSequence(parameters: parameters, final: byte) }
        return .continue
      case 0x00..<0x20, 0x7F:
        escape = .none  // A control key interrupts the sequence and counts.
      default:
        escape = .none
        return .continue
      }
    case .ss3:
      escape = .none
      switch byte {
      case 0x40...0x7E:
        performSequence(parameters: [], final: byte)
        return .continue
      case 0x00..<0x20, 0x7F:
        break
      default:
        return .continue
      }
    }
    if pendingRemaining > 0 {
      if byte & 0xC0 == 0x80 {
        pendingScalar = pendingScalar << 6 | UInt32(byte & 0x3F)
        pendingRemaining -= 1
        if pendingRemaining == 0 { insertDecodedScalar() }
        return .continue
      }
      pendingRemaining = 0  // A truncated character is dropped.
    }
    switch byte {
    case 0x0D:
      self.afterCarriageReturn = true
      return submit()
    case 0x0A:
      return afterCarriageReturn ? .continue : submit()
    case 0x1B:
      escape = .escape
    case 0x01:
      cursor = 0
    case 0x05:
      cursor = characters.count
    case 0x02:
      cursor = max(cursor - 1, 0)
    case 0x06:
      cursor = min(cursor + 1, characters.count)
    case 0x08, 0x7F:
      if cursor > 0 { replace(cursor - 1..<cursor, with: "") }
    case 0x04:
      if characters.isEmpty && refusedByteCount == 0 {
        finished = true
        return .endOfInput
      }
      if cursor < characters.count { replace(cursor..<cursor + 1, with: "") }
    case 0x0B:
      kill(cursor..<characters.count)
    case 0x15:
      kill(0..<cursor)
    case 0x17:
      killWordBeforeCursor()
    case 0x19:
      insert(String(killed))
    case 0x10:
      moveInHistory(by: -1)
    case 0x0E:
      moveInHistory(by: 1)
    case 0x03:
      startLine()
    case 0x20..<0x7F:
      insert(String(Unicode.Scalar(byte)))
    case 0xC2...0xDF:
      startScalar(byte & 0x1F, length: 2)
    case 0xE0...0xEF:
      startScalar(byte & 0x0F, length: 3)
    case 0xF0...0xF4:
      startScalar(byte & 0x07, length: 4)
    default:
      break  // Another control byte, or a byte that cannot start UTF-8.
    }
    return .continue
  }

  /// The bytes that draw the line on the terminal row of the cursor: a
  /// carriage return, the prompt, the line (the part of it that fits in
  /// `width` columns, around the cursor), an erase to the end of the row
  /// (`ESC [ K`) and a move of the cursor back to its place (`ESC [ n D`).
  ///
  /// Columns are counted by character, as ``columns(of:)`` counts them.
  /// A line too wide for the terminal is shown a part at a time, so that the
  /// view moves only when the cursor leaves it: its end while the cursor is
  /// in the last screenful, otherwise the screenful of it (counted from its
  /// start) that holds the cursor.
  ///
  /// - Parameters:
  ///   - prompt: the text before the line, such as `"> "`.
  ///   - width: the columns of the terminal. The line is kept out of the
  ///     last column, where terminals differ.
  /// - Returns: the bytes to write to the terminal.
  public func redraw(prompt: String, width: Int = .max) -> [UInt8] {
    let widths = characters.map(Self.columns(of:))
    let promptWidth = prompt.reduce(0) { $0 + Self.columns(of: $1) }
    let room = width == .max ? Int.max : max(width - promptWidth - 1, 1)
    let shown = Self.shownRange(widths: widths, cursor: cursor, room: room)
    var bytes: [UInt8] = [0x0D]
    bytes += prompt.utf8
    bytes += String(characters[shown]).utf8
    bytes += [0x1B, UInt8(ascii: "["), UInt8(ascii: "K")]
    let back = widths[cursor..<shown.upperBound].reduce(0, +)
    if back > 0 { bytes += [0x1B, UInt8(ascii: "[")] + Array("\(back)D".utf8) }
    return bytes
  }

  /// The characters to show of a line whose characters are `widths` columns
  /// wide, in `room` columns, with the cursor at `cursor` (which takes a
  /// column of its own at the end of the line); see
  /// ``redraw(prompt:width:)``.
  private static func shownRange(widths: [Int], cursor: Int, room: Int) -> Range<Int> {
    // The end of the line, with the cursor after it.
    var start = widths.count
    var used = 1
    while start > 0 && used + widths[start - 1] <= room {
      used += widths[start - 1]
      start -= 1
    }
    if cursor < start {
      // The screenful from the start of the line that holds the cursor.
      start = 0
      while true {
        var end = start
        var filled = 0
        while end < widths.count && filled + widths[end] <= room {
          filled += widths[end]
          end += 1
        }
        end = max(end, start + 1)  // A character wider than the room.
        if cursor < end { break }
        start = end
      }
    }
    var end = start
    var filled = 0
    while end < widths.count && filled + widths[end] <= room {
      filled += widths[end]
      end += 1
    }
    // At least the character under the cursor, however narrow the room.
    return start..<max(end, min(cursor + 1, widths.count))
  }

  /// The columns a terminal gives `character`: 2 for an East Asian wide or
  /// fullwidth character or an emoji presented as one (a flag, an emoji ZWJ
  /// sequence, an emoji with U+FE0F), 1 for any other.
  ///
  /// - Parameter character: a character of the line or of the prompt.
  /// - Returns: 1 or 2.
  public static func columns(of character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    if first.properties.isEmojiPresentation { return 2 }
    if first.properties.isEmoji && character.unicodeScalars.contains("\u{FE0F}") { return 2 }
    switch first.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }

  // MARK: - Editing

  /// Submits the line: adds it to the history and returns it (or that it
  /// was too long), keeping it shown until the next byte.
  private mutating func submit() -> Action {
    finished = true
    cursor = characters.count
    let bytes = Array(text.utf8)
    if refusedByteCount > 0 {
      return .submit(.tooLong(byteCount: bytes.count + refusedByteCount, limit: maxLineBytes))
    }
    let line = text
    if !line.isEmpty && history.last != line { history.append(line) }
    return .submit(.line(bytes))
  }

  /// Begins a scalar of `length` bytes of UTF-8 whose first byte carries
  /// `bits`.
  private mutating func startScalar(_ bits: UInt8, length: Int) {
    pendingScalar = UInt32(bits)
    pendingLength = length
    pendingRemaining = length - 1
  }

  /// Inserts the scalar just decoded, unless it is overlong UTF-8, a
  /// surrogate, past U+10FFFF or a control character.
  private mutating func insertDecodedScalar() {
    let smallest: UInt32 =
      switch pendingLength {
      case 2: 0x80
      case 3: 0x800
      default: 0x1_0000
      }
    guard pendingScalar >= smallest, let scalar = Unicode.Scalar(pendingScalar),
      scalar.properties.generalCategory != .control
    else { return }
    insert(String(scalar))
  }

  /// Inserts `inserted` at the cursor and puts the cursor after it, or
  /// refuses it (counting its bytes) if the line would go over the limit.
  private mutating func insert(_ inserted: String) {
    let count = inserted.utf8.count
    guard count > 0 else { return }
    guard refusedByteCount == 0 && count <= maxLineBytes - byteCount else {
      refusedByteCount += count
      return
    }
    replace(cursor..<cursor, with: inserted)
  }

  /// Removes `characters[range]`, keeping them for Ctrl-Y when there are
  /// any.
  private mutating func kill(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    killed = Array(characters[range])
    replace(range, with: "")
  }

  /// Removes the word before the cursor and the spaces after it.
  private mutating func killWordBeforeCursor() {
    kill(wordStart(before: cursor)..<cursor)
  }

  /// The start of the word before `index`: back over white space, then
  /// over the rest.
  private func wordStart(before index: Int) -> Int {
    var start = index
    while start > 0 && characters[start - 1].isWhitespace { start -= 1 }
    while start > 0 && !characters[start - 1].isWhitespace { start -= 1 }
    return start
  }

  /// The end of the word after `index`: on over white space, then over the
  /// rest.
  private func wordEnd(after index: Int) -> Int {
    var end = index
    while end < characters.count && characters[end].isWhitespace { end += 1 }
    while end < characters.count && !characters[end].isWhitespace { end += 1 }
    return end
  }

  /// Replaces `characters[range]` with the scalars of `inserted` and splits
  /// the text around it into characters again, as `String` would split the
  /// whole line (a combining mark joins the letter before it; deleting what
  /// stood between them joins them too); the cursor goes after the
  /// inserted text, or after the character that took it in. A deletion
  /// forgets the input refused.
  ///
  /// Only the character before `range` and those after it up to the first
  /// one found unchanged are split again, so typing at the end of a long
  /// line costs O(1) amortized.
  private mutating func replace(_ range: Range<Int>, with inserted: String) {
    // A boundary depends only on what comes before it and the scalar after
    // it, so the one before the previous character stays.
    let low = max(range.lowerBound - 1, 0)
    var window = String(characters[low..<range.lowerBound])
    window.unicodeScalars.append(contentsOf: inserted.unicodeScalars)
    let caret = window.unicodeScalars.count
    if !range.isEmpty { refusedByteCount = 0 }
    let removedBytes = characters[range].reduce(0) { $0 + $1.utf8.count }
    var end = range.upperBound
    var clusters = Array(window)
    // Splitting forward from a boundary does not look back, so once a
    // character after the edit comes out whole, the rest are as they were.
    while end < characters.count {
      let next = characters[end]
      window.unicodeScalars.append(contentsOf: next.unicodeScalars)
      end += 1
      clusters = Array(window)
      if let last = clusters.last, last.unicodeScalars.elementsEqual(next.unicodeScalars) {
        break
      }
    }
    var scalars = 0
    var taken = 0
    while taken < clusters.count && scalars < caret {
      scalars += clusters[taken].unicodeScalars.count
      taken += 1
    }
    characters.replaceSubrange(low..<end, with: clusters)
    cursor = low + taken
    byteCount += inserted.utf8.count - removedBytes
  }

  // MARK: - History

  /// Shows the line `offset` places away in the history (negative: older),
  /// if there is one, keeping the edits of the line left.
  private mutating func moveInHistory(by offset: Int) {
    let target = historyPosition + offset
    guard target >= 0 && target <= history.count && target != historyPosition else { return }
    let original = historyPosition < history.count ? Array(history[historyPosition]) : []
    if characters != original || historyEdits[historyPosition] != nil {
      historyEdits[historyPosition] = characters
    }
    historyPosition = target
    characters =
      historyEdits[target] ?? (target < history.count ? Array(history[target]) : [])
    cursor = characters.count
    byteCount = characters.reduce(0) { $0 + $1.utf8.count }
    refusedByteCount = 0
  }

  // MARK: - Escape sequences

  /// Does what the escape sequence with `parameters` and the final byte
  /// `final` asks; ignores a sequence it does not know.
  private mutating func performSequence(parameters: [UInt8], final: UInt8) {
    let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
    // `1;5` (Ctrl), `1;3` (Alt) and the like: a modifier on an arrow.
    let modifier = fields.count > 1 ? String(decoding: fields[1], as: UTF8.self) : ""
    let byWord = ["3", "5", "7"].contains(modifier)
    switch (String(decoding: parameters, as: UTF8.self), final) {
    case ("", UInt8(ascii: "A")), ("1", UInt8(ascii: "A")):
      moveInHistory(by: -1)
    case ("", UInt8(ascii: "B")), ("1", UInt8(ascii: "B")):
      moveInHistory(by: 1)
    case (_, UInt8(ascii: "C")) where fields.count <= 2:
      cursor = byWord ? wordEnd(after: cursor) : min(cursor + 1, characters.count)
    case (_, UInt8(ascii: "D")) where fields.count <= 2:
      cursor = byWord ? wordStart(before: cursor) : max(cursor - 1, 0)
    case ("", UInt8(ascii: "H")), ("1", UInt8(ascii: "~")), ("7", UInt8(ascii: "~")):
      cursor = 0
    case ("", UInt8(ascii: "F")), ("4", UInt8(ascii: "~")), ("8", UInt8(ascii: "~")):
      cursor = characters.count
    case ("3", UInt8(ascii: "~")):
      if cursor < characters.count { replace(cursor..<cursor + 1, with: "") }
    default:
      break
    }
  }
}
