/// A minimal model of the terminal's screen: what the editor's output
/// (`FrameRenderer`'s sequences) leaves on it, enough to read the text rows
/// and the status line.
///
/// It applies text (UTF-8; a wide character takes two cells), `ESC [ r ; c
/// H`, `ESC [ H`, `ESC [ 2 J`, `ESC [ K`, SGR (bold, the underlines, reverse
/// video; colors are skipped), and `ESC [ ? … h/l` (the alternate screen,
/// the cursor's visibility). Other sequences are skipped. Text does not
/// wrap: what goes past the last column is counted in ``overflow``.
///
/// It also keeps the status line (the last row) as it was at the end of
/// every frame (when the cursor is shown or hidden), in ``statusLog``, so
/// that a message shown for one frame is not missed by a reader that reads
/// two frames at once.
struct TerminalScreen {
  /// How a cell's text is drawn.
  struct Style: Equatable {
    enum Underline: Equatable {
      case none
      case single
      case curly
    }
    var bold = false
    var underline = Underline.none
    var reverse = false
  }

  /// One cell: its text (empty after a wide character) and its style.
  struct Cell: Equatable {
    var text = " "
    var style = Style()
  }

  private(set) var rows: Int
  private(set) var columns: Int
  private(set) var grid: [[Cell]]
  private(set) var cursor = (row: 0, column: 0)
  private(set) var isCursorVisible = true
  private(set) var isAlternateScreen = false
  /// The characters written past the last column.
  private(set) var overflow = 0
  /// The times the screen was cleared (`ESC [ 2 J`).
  private(set) var clears = 0
  /// The status line at the end of each frame (consecutive repeats left
  /// out).
  private(set) var statusLog: [String] = []

  private var style = Style()
  /// Bytes of a sequence or a UTF-8 character not yet complete.
  private var pending: [UInt8] = []
  /// Whether the last row was written since the last frame's end.
  private var statusTouched = false

  init(rows: Int, columns: Int) {
    self.rows = rows
    self.columns = columns
    grid = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
  }

  /// The terminal changed size: the cells kept are those that fit (as
  /// xterm does); the program redraws.
  mutating func resize(rows: Int, columns: Int) {
    var resized = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
    for row in 0..<min(rows, self.rows) {
      for column in 0..<min(columns, self.columns) { resized[row][column] = grid[row][column] }
    }
    grid = resized
    self.rows = rows
    self.columns = columns
    cursor = (min(cursor.row, rows - 1), min(cursor.column, columns - 1))
  }

  // MARK: - Reading

  /// The text of `row`, without the spaces at its end.
  func line(_ row: Int) -> String {
    guard grid.indices.contains(row) else { return "" }
    var text = grid[row].map(\.text).joined()
    while text.last == " " { text.removeLast() }
    return text
  }

  /// The status line: the last row.
  var statusLine: String { line(rows - 1) }

  /// The status lines of every frame so far, the one shown now last.
  var statuses: [String] {
    statusLog.last == statusLine ? statusLog : statusLog + [statusLine]
  }

  /// Every row, one per line.
  var text: String { (0..<rows).map(line).joined(separator: "\n") }

  /// The cells of `row` whose style satisfies `predicate`.
  func count(inRow row: Int, where predicate: (Style) -> Bool) -> Int {
    guard grid.indices.contains(row) else { return 0 }
    return grid[row].filter { predicate($0.style) }.count
  }

  /// The style of the cells that show `word` in the first row that holds
  /// it, or nil if no row does.
  func styles(of word: String) -> [Style]? {
    for row in grid {
      let texts = row.map(\.text)
      for start in texts.indices {
        var joined = ""
        var end = start
        while end < texts.count && joined.count < word.count {
          joined += texts[end]
          end += 1
        }
        if joined == word { return row[start..<end].filter { !$0.text.isEmpty }.map(\.style) }
      }
    }
    return nil
  }

  // MARK: - Applying output

  /// Applies `bytes` of the program's output.
  mutating func feed(_ bytes: [UInt8]) {
    let input = pending + bytes
    pending = []
    var i = 0
    var text: [UInt8] = []
    while i < input.count {
      let byte = input[i]
      if byte != 0x1B && byte >= 0x20 {
        text.append(byte)
        i += 1
        continue
      }
      if !text.isEmpty {
        write(text)
        text = []
      }
      if byte != 0x1B {
        control(byte)
        i += 1
        continue
      }
      guard let length = sequenceLength(input, at: i) else {
        pending = Array(input[i...])
        return
      }
      sequence(Array(input[i..<(i + length)]))
      i += length
    }
    // A UTF-8 character cut at the end of the read waits for its rest.
    var cut = 0
    var back = 1
    while back <= min(4, text.count) {
      let byte = text[text.count - back]
      if byte & 0xC0 == 0x80 {
        back += 1
        continue
      }
      if byte & 0xC0 == 0xC0 {
        let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        if needed > back { cut = back }
      }
      break
    }
    if cut > 0 {
      pending = Array(text.suffix(cut))
      text.removeLast(cut)
    }
    if !text.isEmpty { write(text) }
  }

  /// The length of the escape sequence at `start`, or nil if it is not
  /// complete yet.
  private func sequenceLength(_ input: [UInt8], at start: Int) -> Int? {
    guard start + 1 < input.count else { return nil }
    guard input[start + 1] == UInt8(ascii: "[") else { return 2 }  // ESC and one byte.
    var end = start + 2
    while end < input.count {
      if (0x40...0x7E).contains(input[end]) { return end - start + 1 }
      end += 1
    }
    return nil
  }

  private mutating func control(_ byte: UInt8) {
    switch byte {
    case 0x0D: cursor.column = 0
    case 0x0A: cursor.row = min(rows - 1, cursor.row + 1)
    case 0x08: cursor.column = max(0, cursor.column - 1)
    default: break
    }
  }

  /// Writes text at the cursor, a grapheme cluster per cell (two for a
  /// wide one).
  private mutating func write(_ bytes: [UInt8]) {
    let string = String(decoding: bytes, as: UTF8.self)
    for character in string {
      let width = Self.width(of: character)
      guard cursor.column + width <= columns else {
        overflow += 1
        continue
      }
      grid[cursor.row][cursor.column] = Cell(text: String(character), style: style)
      if width == 2 { grid[cursor.row][cursor.column + 1] = Cell(text: "", style: style) }
      cursor.column += width
      if cursor.row == rows - 1 { statusTouched = true }
    }
  }

  /// The columns a terminal gives `character`: two for East Asian wide
  /// characters and emoji, one otherwise.
  static func width(of character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 1 }
    let properties = first.properties
    if properties.isEmojiPresentation { return 2 }
    if character.unicodeScalars.contains("\u{FE0F}") && properties.isEmoji { return 2 }
    switch first.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }

  private mutating func sequence(_ bytes: [UInt8]) {
    guard bytes.count >= 3, bytes[1] == UInt8(ascii: "["), let final = bytes.last else { return }
    var body = String(decoding: bytes[2..<(bytes.count - 1)], as: UTF8.self)
    let isPrivate = body.hasPrefix("?")
    if isPrivate { body.removeFirst() }
    let parameters = body.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
    let number = { (i: Int, fallback: Int) -> Int in
      i < parameters.count ? Int(parameters[i]) ?? fallback : fallback
    }
    switch final {
    case UInt8(ascii: "H"), UInt8(ascii: "f"):
      endStatusWrite()
      cursor = (
        min(rows - 1, max(0, number(0, 1) - 1)), min(columns - 1, max(0, number(1, 1) - 1))
      )
    case UInt8(ascii: "J") where number(0, 0) == 2:
      clears += 1
      for row in grid.indices { grid[row] = Array(repeating: Cell(), count: columns) }
    case UInt8(ascii: "K"):
      for column in cursor.column..<columns { grid[cursor.row][column] = Cell() }
    case UInt8(ascii: "m"):
      applySGR(parameters)
    case UInt8(ascii: "h") where isPrivate, UInt8(ascii: "l") where isPrivate:
      let on = final == UInt8(ascii: "h")
      for parameter in parameters {
        switch parameter {
        case "25":
          isCursorVisible = on
          endFrame()
        case "1049":
          isAlternateScreen = on
          for row in grid.indices { grid[row] = Array(repeating: Cell(), count: columns) }
        default: break
        }
      }
    default:
      break
    }
  }

  private mutating func applySGR(_ parameters: [String]) {
    var i = 0
    while i < parameters.count {
      let parts = parameters[i].split(separator: ":").map(String.init)
      i += 1
      switch parts.first ?? "0" {
      case "0": style = Style()
      case "1": style.bold = true
      case "22": style.bold = false
      case "4":
        switch parts.count > 1 ? parts[1] : "1" {
        case "0": style.underline = .none
        case "3": style.underline = .curly
        default: style.underline = .single
        }
      case "24": style.underline = .none
      case "7": style.reverse = true
      case "27": style.reverse = false
      case "38", "48", "58":
        // An extended color: `5;n` or `2;r;g;b` after it, unless written
        // with colons.
        if parts.count == 1 && i < parameters.count {
          i += parameters[i] == "2" ? 4 : 2
        }
      default: break
      }
    }
  }

  /// The cursor left the status line: it is written.
  private mutating func endStatusWrite() {
    if cursor.row == rows - 1 && statusTouched { endFrame() }
  }

  /// A frame ended (or the status line was written): log the status line.
  private mutating func endFrame() {
    guard statusTouched else { return }
    statusTouched = false
    let status = statusLine
    if statusLog.last != status { statusLog.append(status) }
  }
}
