/// A color a terminal can show: one of the 16 ANSI colors (which the
/// person's theme defines) or an index into the 256-color palette.
public enum TerminalColor: Hashable, Sendable {
  case black
  case red
  case green
  case yellow
  case blue
  case magenta
  case cyan
  case white
  case brightBlack
  case brightRed
  case brightGreen
  case brightYellow
  case brightBlue
  case brightMagenta
  case brightCyan
  case brightWhite
  /// A color of the 256-color palette: 0–15 are the ANSI colors, 16–231 a
  /// 6×6×6 color cube, 232–255 a gray ramp.
  case indexed(UInt8)

  /// The color's index in the 256-color palette (the ANSI colors are 0–15,
  /// in the order of the cases).
  public var paletteIndex: UInt8 {
    switch self {
    case .black: 0
    case .red: 1
    case .green: 2
    case .yellow: 3
    case .blue: 4
    case .magenta: 5
    case .cyan: 6
    case .white: 7
    case .brightBlack: 8
    case .brightRed: 9
    case .brightGreen: 10
    case .brightYellow: 11
    case .brightBlue: 12
    case .brightMagenta: 13
    case .brightCyan: 14
    case .brightWhite: 15
    case .indexed(let index): index
    }
  }
}
