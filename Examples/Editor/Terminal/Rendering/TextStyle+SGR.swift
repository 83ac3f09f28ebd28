/// The parameters of SGR sequences: those joined by `;` in one `ESC [ … m`,
/// and those written with `:` (styled underlines), each in a sequence of
/// its own, so that a terminal that does not read colons skips only them.
private struct SelectGraphicRendition {
  var parameters: [String] = []
  var colonParameters: [String] = []

  /// The escape sequences.
  var bytes: [UInt8] {
    var bytes: [UInt8] = []
    if !parameters.isEmpty {
      bytes += [0x1B, 0x5B] + Array(parameters.joined(separator: ";").utf8) + [0x6D]
    }
    for parameter in colonParameters {
      bytes += [0x1B, 0x5B] + Array(parameter.utf8) + [0x6D]
    }
    return bytes
  }
}

extension TextStyle {
  /// This style as a terminal draws it: with `styledUnderlines` false, a
  /// curly underline is a single one and there is no underline color.
  func drawn(styledUnderlines: Bool) -> TextStyle {
    guard !styledUnderlines else { return self }
    var style = self
    if style.underline == .curly { style.underline = .single }
    style.underlineColor = nil
    return style
  }

  /// The SGR sequences that change the terminal's style from this one to
  /// `next`: the shorter of changing the attributes that differ and of
  /// resetting (`0`) then setting those of `next`; none if they are equal.
  /// Both styles are as drawn (see ``drawn(styledUnderlines:)``).
  ///
  /// - Complexity: O(1).
  func transition(to next: TextStyle) -> [UInt8] {
    guard next != self else { return [] }
    var reset = SelectGraphicRendition(parameters: ["0"])
    next.addAttributes(to: &reset)
    var change = SelectGraphicRendition()
    addChanges(to: next, to: &change)
    let (resetBytes, changeBytes) = (reset.bytes, change.bytes)
    return changeBytes.count <= resetBytes.count ? changeBytes : resetBytes
  }

  /// Adds the parameters that set every attribute of this style after a
  /// reset.
  private func addAttributes(to sgr: inout SelectGraphicRendition) {
    if bold { sgr.parameters.append("1") }
    if dim { sgr.parameters.append("2") }
    if italic { sgr.parameters.append("3") }
    switch underline {
    case .none: break
    case .single: sgr.parameters.append("4")
    case .curly: sgr.colonParameters.append("4:3")
    }
    if reverse { sgr.parameters.append("7") }
    if strikethrough { sgr.parameters.append("9") }
    if let foreground { sgr.parameters.append(Self.foregroundParameter(foreground)) }
    if let background { sgr.parameters.append(Self.backgroundParameter(background)) }
    if let underlineColor { sgr.colonParameters.append("58:5:\(underlineColor.paletteIndex)") }
  }

  /// Adds the parameters that change the attributes of this style that
  /// `next` has otherwise.
  private func addChanges(to next: TextStyle, to sgr: inout SelectGraphicRendition) {
    // One parameter (22) turns off both bold and dim.
    if (bold && !next.bold) || (dim && !next.dim) {
      sgr.parameters.append("22")
      if next.bold { sgr.parameters.append("1") }
      if next.dim { sgr.parameters.append("2") }
    } else {
      if next.bold && !bold { sgr.parameters.append("1") }
      if next.dim && !dim { sgr.parameters.append("2") }
    }
    if next.italic != italic { sgr.parameters.append(next.italic ? "3" : "23") }
    if next.underline != underline {
      switch next.underline {
      case .none: sgr.parameters.append("24")
      case .single: sgr.parameters.append("4")
      case .curly: sgr.colonParameters.append("4:3")
      }
    }
    if next.reverse != reverse { sgr.parameters.append(next.reverse ? "7" : "27") }
    if next.strikethrough != strikethrough {
      sgr.parameters.append(next.strikethrough ? "9" : "29")
    }
    if next.foreground != foreground {
      sgr.parameters.append(next.foreground.map(Self.foregroundParameter) ?? "39")
    }
    if next.background != background {
      sgr.parameters.append(next.background.map(Self.backgroundParameter) ?? "49")
    }
    if next.underlineColor != underlineColor {
      if let color = next.underlineColor {
        sgr.colonParameters.append("58:5:\(color.paletteIndex)")
      } else {
        sgr.parameters.append("59")
      }
    }
  }

  /// The SGR parameter of a text color: 30–37, 90–97, or `38;5;n`.
  private static func foregroundParameter(_ color: TerminalColor) -> String {
    switch color {
    case .indexed(let index): "38;5;\(index)"
    default: color.paletteIndex < 8 ? "\(30 + color.paletteIndex)" : "\(82 + color.paletteIndex)"
    }
  }

  /// The SGR parameter of a background color: 40–47, 100–107, or `48;5;n`.
  private static func backgroundParameter(_ color: TerminalColor) -> String {
    switch color {
    case .indexed(let index): "48;5;\(index)"
    default: color.paletteIndex < 8 ? "\(40 + color.paletteIndex)" : "\(92 + color.paletteIndex)"
    }
  }
}
