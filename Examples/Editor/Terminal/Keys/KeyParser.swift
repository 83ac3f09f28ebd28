/// Reads the first key of some bytes from the terminal: one printable
/// scalar, one control key, or one escape sequence. ``KeyDecoder`` calls it
/// on the bytes it holds and keeps the state between reads; this type has
/// none, so what it reads depends only on the bytes.
///
/// The escape sequences are those of xterm and the terminals that follow it
/// (VTE, kitty, iTerm2, WezTerm, Alacritty, foot, the Linux console, tmux,
/// rxvt):
///
/// | Bytes | Key |
/// | --- | --- |
/// | `ESC [ A`/`B`/`C`/`D`, `ESC O A`/`B`/`C`/`D` | Up, Down, Right, Left |
/// | `ESC [ H`/`F`, `ESC O H`/`F`, `ESC [ 1 ~`/`7 ~`, `ESC [ 4 ~`/`8 ~` | Home, End |
/// | `ESC [ 2 ~`, `3 ~`, `5 ~`, `6 ~` | Insert, Delete, Page Up, Page Down |
/// | `ESC O P`/`Q`/`R`/`S`, `ESC [ 11 ~`…`15 ~`, `ESC [ [ A`…`E` | F1–F4, F1–F5 |
/// | `ESC [ 17 ~`…`21 ~`, `23 ~`, `24 ~` | F6–F10, F11, F12 |
/// | `ESC [ 25 ~`, `26 ~`, `28 ~`, `29 ~`, `31 ~`…`34 ~` | F13–F20 |
/// | `ESC [ Z` | Shift-Tab |
/// | `ESC [ 1 ; m A`, `ESC [ 5 ; m ~`, `ESC [ 1 ; m P`, `ESC O m P` … | with modifiers *m* |
/// | `ESC [ 2 ^`, `ESC [ 2 @`, `ESC [ 2 $`, `ESC [ a`, `ESC O a` … | rxvt's Ctrl, Ctrl-Shift, Shift |
/// | `ESC [ c ; m u`, `ESC [ 27 ; m ; c ~` | the character *c* with *m* (kitty, xterm's modifyOtherKeys) |
/// | `ESC O M`, `ESC O j`…`y`, `ESC O X` | the keypad in application mode |
/// | `ESC [ 200 ~`, `ESC [ 201 ~` | the start and end of a paste |
/// | `ESC` then a key, `ESC ESC [ …` | Alt and that key |
///
/// The modifier parameter *m* is one more than the sum of Shift 1, Alt 2,
/// Ctrl 4, Meta 8. Any other well-formed sequence (CSI: `ESC [`, parameter
/// bytes `0x30`–`0x3F`, intermediate bytes `0x20`–`0x2F`, a final byte
/// `0x40`–`0x7E`) is ``KeyEvent/unknown(_:)``; a sequence broken by a byte
/// that cannot be in it ends there (as unknown) and the byte is read anew.
struct KeyParser {
  /// What the bytes at a position start with.
  enum Unit: Equatable {
    /// A key may start here, but more bytes are needed to tell which.
    case incomplete
    /// A printable scalar of `length` bytes (a part of text); `valid` is
    /// false for U+FFFD standing for bytes that are not UTF-8.
    case scalar(Unicode.Scalar, length: Int, valid: Bool)
    /// A key of `length` bytes.
    case event(KeyEvent, length: Int)
    /// `ESC [ 200 ~`: a paste starts after these `length` bytes.
    case pasteStart(length: Int)
    /// `ESC [ 201 ~` outside a paste (ignored).
    case pasteEnd(length: Int)
    /// An escape sequence longer than the limit: its first `length` bytes,
    /// the rest of it still to skip.
    case overlong(length: Int)
  }

  /// The bytes read.
  let bytes: [UInt8]
  /// Whether no more bytes will come for now (the input paused), so that an
  /// incomplete key is read as what it is so far.
  let final: Bool
  /// The longest escape sequence, in bytes, that is read whole.
  let maxSequenceBytes: Int

  /// The key that starts at `start`.
  ///
  /// - Parameter start: a position before the end of ``bytes``.
  /// - Returns: the unit there; never ``Unit/incomplete`` if ``final``.
  /// - Complexity: O(1), or O(*k*) for an escape sequence of *k* bytes.
  func unit(at start: Int) -> Unit {
    let byte = bytes[start]
    switch byte {
    case 0x1B: return escape(at: start)
    case 0x20...0x7E: return .scalar(Unicode.Scalar(byte), length: 1, valid: true)
    case 0x80...0xFF: return scalar(at: start)
    default: return .event(Self.controlKey(byte), length: 1)
    }
  }

  /// The key of a C0 control byte or DEL (not ESC).
  static func controlKey(_ byte: UInt8) -> KeyEvent {
    switch byte {
    case 0x0D, 0x0A: .key(.enter)
    case 0x09: .key(.tab)
    case 0x08, 0x7F: .key(.backspace)
    case 0x00: .key(.character(" "), .ctrl)
    // Ctrl-A to Ctrl-Z, as lowercase letters.
    case 0x01...0x1A: .key(.character(Character(Unicode.Scalar(byte + 0x60))), .ctrl)
    // Ctrl-\, Ctrl-], Ctrl-^, Ctrl-_ (0x1B is ESC, not read here).
    default: .key(.character(Character(Unicode.Scalar(byte &+ 0x40))), .ctrl)
    }
  }

  /// The UTF-8 scalar that starts at `start` (a byte `0x80` or above), or
  /// U+FFFD for the longest start of a valid scalar there that is cut short
  /// (the "maximal subpart" of Unicode's chapter 3, as Swift's own decoding
  /// does), or for a byte that cannot start one.
  private func scalar(at start: Int) -> Unit {
    let lead = bytes[start]
    let length: Int
    var second: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      second = 0xA0...0xBF  // Not overlong.
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      second = 0x80...0x9F  // Not a surrogate.
    case 0xF0:
      length = 4
      second = 0x90...0xBF  // Not overlong.
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      second = 0x80...0x8F  // At most U+10FFFF.
    default: return .scalar("\u{FFFD}", length: 1, valid: false)
    }
    var value = UInt32(lead) & (0x7F >> length)
    for offset in 1..<length {
      guard start + offset < bytes.count else {
        return final ? .scalar("\u{FFFD}", length: offset, valid: false) : .incomplete
      }
      let byte = bytes[start + offset]
      guard (offset == 1 ? second : 0x80...0xBF).contains(byte) else {
        return .scalar("\u{FFFD}", length: offset, valid: false)
      }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    guard let scalar = Unicode.Scalar(value) else {
      return .scalar("\u{FFFD}", length: length, valid: false)
    }
    return .scalar(scalar, length: length, valid: true)
  }

  /// What starts with the ESC at `start`: a sequence, Alt and a key, or the
  /// Escape key.
  private func escape(at start: Int) -> Unit {
    guard start + 1 < bytes.count else {
      return final ? .event(.key(.escape), length: 1) : .incomplete
    }
    switch bytes[start + 1] {
    case UInt8(ascii: "["):
      return controlSequence(start: start, body: start + 2, alt: false)
    case UInt8(ascii: "O"):
      return singleShift(start: start, body: start + 2, alt: false)
    case 0x1B:
      // ESC ESC [ … is Alt and a key; ESC ESC otherwise is Escape twice.
      guard start + 2 < bytes.count else {
        return final ? .event(.key(.escape), length: 1) : .incomplete
      }
      switch bytes[start + 2] {
      case UInt8(ascii: "["): return controlSequence(start: start, body: start + 3, alt: true)
      case UInt8(ascii: "O"): return singleShift(start: start, body: start + 3, alt: true)
      default: return .event(.key(.escape), length: 1)
      }
    default:
      switch unit(at: start + 1) {
      case .incomplete:
        return .incomplete
      case .scalar(let scalar, let length, true):
        return .event(.key(.character(Character(scalar)), .alt), length: 1 + length)
      case .scalar(_, let length, false):
        return .event(.unknown(Array(bytes[start...(start + length)])), length: 1 + length)
      case .event(.key(let key, let modifiers), let length):
        return .event(.key(key, modifiers.union(.alt)), length: 1 + length)
      case .event, .pasteStart, .pasteEnd, .overlong:
        return .event(.key(.escape), length: 1)  // Not reached: no ESC follows.
      }
    }
  }

  /// What ESC and a lead byte (`[` or `O`) at `start` are when no sequence
  /// follows them: Alt-[ or Alt-O, or, after a second ESC, the first ESC
  /// alone (the rest is read again).
  private func aloneIntroducer(start: Int, body: Int, alt: Bool) -> Unit {
    guard !alt else { return .event(.key(.escape), length: 1) }
    return .event(.key(.character(Character(Unicode.Scalar(bytes[body - 1]))), .alt), length: 2)
  }

  /// The CSI sequence (`ESC [`) at `start`, whose parameters start at `body`.
  private func controlSequence(start: Int, body: Int, alt: Bool) -> Unit {
    // The Linux console's F1 to F5: ESC [ [ A to ESC [ [ E.
    if body < bytes.count && bytes[body] == UInt8(ascii: "[") {
      guard body + 1 < bytes.count else {
        return final
          ? .event(.unknown(Array(bytes[start...body])), length: body + 1 - start)
          : .incomplete
      }
      let last = bytes[body + 1]
      if (0x41...0x45).contains(last) {
        return .event(.key(.f(Int(last) - 0x40), alt ? .alt : []), length: body + 2 - start)
      }
      let end = (0x20...0x7E).contains(last) ? body + 2 : body + 1
      return .event(.unknown(Array(bytes[start..<end])), length: end - start)
    }
    var position = body
    while position < bytes.count {
      if position - start >= maxSequenceBytes { return .overlong(length: maxSequenceBytes) }
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "$") where position > body && Self.isDigits(bytes[body..<position]):
        // rxvt's Shift with the keys of ESC [ n ~: ESC [ n $.
        return finishControlSequence(start: start, body: body, last: position, alt: alt)
      case 0x20...0x3F:
        position += 1
      case 0x40...0x7E:
        return finishControlSequence(start: start, body: body, last: position, alt: alt)
      default:
        guard position > body else { return aloneIntroducer(start: start, body: body, alt: alt) }
        return .event(.unknown(Array(bytes[start..<position])), length: position - start)
      }
    }
    guard final else { return .incomplete }
    guard position > body else { return aloneIntroducer(start: start, body: body, alt: alt) }
    return .event(.unknown(Array(bytes[start..<position])), length: position - start)
  }

  /// The CSI sequence from `start` to its final byte at `last`.
  private func finishControlSequence(start: Int, body: Int, last: Int, alt: Bool) -> Unit {
    let length = last + 1 - start
    let unknown = Unit.event(.unknown(Array(bytes[start...last])), length: length)
    guard let parameters = Self.numericParameters(bytes[body..<last]) else { return unknown }
    let final = bytes[last]
    if final == UInt8(ascii: "~") && parameters == [200] { return .pasteStart(length: length) }
    if final == UInt8(ascii: "~") && parameters == [201] { return .pasteEnd(length: length) }
    guard let decoded = Self.controlSequenceKey(final: final, parameters: parameters) else {
      return unknown
    }
    return decoded.unit(length: length, alt: alt)
  }

  /// The SS3 sequence (`ESC O`) at `start`: one final byte, after optional
  /// parameters (`ESC O 5 P`, which some terminals send for Ctrl-F1).
  private func singleShift(start: Int, body: Int, alt: Bool) -> Unit {
    var position = body
    while position < bytes.count {
      if position - start >= maxSequenceBytes { return .overlong(length: maxSequenceBytes) }
      let byte = bytes[position]
      switch byte {
      case 0x30...0x3F:
        position += 1
      case 0x40...0x7E:
        let length = position + 1 - start
        guard let parameters = Self.numericParameters(bytes[body..<position]),
          let decoded = Self.singleShiftKey(final: byte, parameters: parameters)
        else { return .event(.unknown(Array(bytes[start...position])), length: length) }
        return decoded.unit(length: length, alt: alt)
      default:
        guard position > body else { return aloneIntroducer(start: start, body: body, alt: alt) }
        return .event(.unknown(Array(bytes[start..<position])), length: position - start)
      }
    }
    guard final else { return .incomplete }
    guard position > body else { return aloneIntroducer(start: start, body: body, alt: alt) }
    return .event(.unknown(Array(bytes[start..<position])), length: position - start)
  }

  /// Whether `bytes` are all ASCII digits.
  private static func isDigits(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.allSatisfy { (0x30...0x39).contains($0) }
  }

  /// The numbers of a sequence's parameter bytes, separated by `;` (an empty
  /// one is nil; what follows `:` in one is left out; a number saturates at
  /// 99 999); nil if there are other bytes (a private marker such as `?` or
  /// `<`, an intermediate byte).
  static func numericParameters(_ bytes: ArraySlice<UInt8>) -> [Int?]? {
    guard !bytes.isEmpty else { return [] }
    var parameters: [Int?] = []
    var current: Int? = nil
    var inSubparameter = false
    for byte in bytes {
      switch byte {
      case 0x30...0x39:
        if !inSubparameter { current = min((current ?? 0) * 10 + Int(byte - 0x30), 99_999) }
      case UInt8(ascii: ":"):
        inSubparameter = true
      case UInt8(ascii: ";"):
        parameters.append(current)
        current = nil
        inSubparameter = false
      default:
        return nil
      }
    }
    parameters.append(current)
    return parameters
  }
}
