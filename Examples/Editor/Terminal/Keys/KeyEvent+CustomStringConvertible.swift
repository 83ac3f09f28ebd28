extension KeyEvent: CustomStringConvertible {
  /// The event as people name keys: `"Ctrl-Left"`, `"Shift-End"`, `"F7"`,
  /// `"Ctrl-S"` (a letter with Ctrl in capitals), `"Alt-x"`; text as a quoted
  /// string literal (`"\"abc\""`), a paste as `Paste "…"` (at most 40
  /// characters of it, then how many in all), unknown bytes as
  /// `Unknown ESC[99x` (control bytes other than ESC as `\xNN`).
  public var description: String {
    switch self {
    case .text(let text):
      return String(reflecting: text)
    case .paste(let text):
      guard text.count > 40 else { return "Paste \(String(reflecting: text))" }
      return "Paste \(String(reflecting: String(text.prefix(40))))… (\(text.count) characters)"
    case .key(.character(let character), let modifiers) where modifiers.contains(.ctrl):
      return "\(modifiers)\(character == " " ? "Space" : character.uppercased())"
    case .key(let key, let modifiers):
      return "\(modifiers)\(key)"
    case .unknown(let bytes):
      var text = "Unknown "
      for byte in bytes {
        switch byte {
        case 0x1B: text += "ESC"
        case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
        default: text += "\\x" + hexDigits(byte)
        }
      }
      return text
    }
  }
}

/// `byte` as two uppercase hexadecimal digits.
private func hexDigits(_ byte: UInt8) -> String {
  let digits = Array("0123456789ABCDEF")
  return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
