import Testing

@testable import EditorTerminal

/// `bytes` as a string with ESC written `⎋`, for readable comparisons.
private func shown(_ bytes: [UInt8]) -> String {
  String(decoding: bytes, as: UTF8.self).replacing("\u{1B}", with: "⎋")
}

/// A transition between two styles and its SGR bytes (`⎋` for ESC).
struct StyleTransition: Sendable, CustomTestStringConvertible {
  let name: String
  let from: TextStyle
  let to: TextStyle
  let bytes: String

  var testDescription: String { name }
}

let styleTransitions: [StyleTransition] = [
  StyleTransition(name: "same", from: .plain, to: .plain, bytes: ""),
  StyleTransition(name: "bold on", from: .plain, to: TextStyle(bold: true), bytes: "⎋[1m"),
  StyleTransition(
    name: "italic added", from: TextStyle(bold: true), to: TextStyle(bold: true, italic: true),
    bytes: "⎋[3m"),
  StyleTransition(
    name: "bold to dim", from: TextStyle(bold: true, italic: true),
    to: TextStyle(italic: true, dim: true), bytes: "⎋[22;2m"),
  StyleTransition(
    name: "off to plain is a reset", from: TextStyle(bold: true, underline: .single),
    to: .plain, bytes: "⎋[0m"),
  StyleTransition(
    name: "reset when shorter", from: TextStyle(bold: true, foreground: .red),
    to: TextStyle(italic: true), bytes: "⎋[0;3m"),
  StyleTransition(
    name: "foreground change", from: TextStyle(foreground: .red),
    to: TextStyle(foreground: .blue), bytes: "⎋[34m"),
  StyleTransition(
    name: "foreground to default", from: TextStyle(bold: true, foreground: .red),
    to: TextStyle(bold: true), bytes: "⎋[39m"),
  StyleTransition(
    name: "bright foreground", from: .plain, to: TextStyle(foreground: .brightRed),
    bytes: "⎋[91m"),
  StyleTransition(
    name: "256-color foreground", from: .plain, to: TextStyle(foreground: .indexed(208)),
    bytes: "⎋[38;5;208m"),
  StyleTransition(
    name: "backgrounds", from: TextStyle(background: .green),
    to: TextStyle(background: .brightWhite), bytes: "⎋[107m"),
  StyleTransition(
    name: "256-color background", from: .plain, to: TextStyle(background: .indexed(17)),
    bytes: "⎋[48;5;17m"),
  StyleTransition(
    name: "background to default", from: TextStyle(italic: true, background: .blue),
    to: TextStyle(italic: true), bytes: "⎋[49m"),
  StyleTransition(
    name: "reverse and strikethrough on", from: .plain,
    to: TextStyle(strikethrough: true, reverse: true), bytes: "⎋[7;9m"),
  StyleTransition(
    name: "reverse off", from: TextStyle(italic: true, reverse: true),
    to: TextStyle(italic: true), bytes: "⎋[27m"),
  StyleTransition(
    name: "underline off", from: TextStyle(bold: true, underline: .single),
    to: TextStyle(bold: true), bytes: "⎋[24m"),
  StyleTransition(
    name: "everything", from: .plain,
    to: TextStyle(
      bold: true, italic: true, dim: true, underline: .single, strikethrough: true,
      reverse: true, foreground: .cyan, background: .black),
    bytes: "⎋[1;2;3;4;7;9;36;40m"),
]

@Suite struct FrameRendererTests {
  @Test(arguments: styleTransitions)
  func styleTransition(_ transition: StyleTransition) {
    #expect(shown(transition.from.transition(to: transition.to)) == transition.bytes)
  }

  /// A 3 × 10 frame: a plain line, a line of two styles, a blank row.
  private let frame = Frame(
    rows: 3, columns: 10,
    lines: [
      ScreenLine("hello"),
      ScreenLine(spans: [
        StyledSpan(text: "ab", style: TextStyle(bold: true)),
        StyledSpan(text: "cd", style: TextStyle(bold: true, foreground: .red)),
        StyledSpan(text: "e"),
      ]),
    ],
    cursor: (row: 1, column: 2))

  @Test func firstFrameDrawsEverything() {
    var renderer = FrameRenderer()
    #expect(
      shown(renderer.render(frame))
        == "⎋[?25l⎋[0m⎋[H⎋[2J"
        + "⎋[1;1Hhello"
        + "⎋[2;1H⎋[1mab⎋[31mcd⎋[0me"
        + "⎋[2;3H⎋[?25h")
  }

  @Test func unchangedFrameOnlyPlacesTheCursor() {
    var renderer = FrameRenderer()
    _ = renderer.render(frame)
    #expect(shown(renderer.render(frame)) == "⎋[2;3H⎋[?25h")
    var moved = frame
    moved.cursor = (row: 0, column: 0)
    #expect(shown(renderer.render(moved)) == "⎋[1;1H⎋[?25h")
    moved.cursor = nil
    #expect(shown(renderer.render(moved)) == "⎋[?25l")
  }

  @Test func changedLineIsTheOnlyOneRewritten() {
    var renderer = FrameRenderer()
    _ = renderer.render(frame)
    var changed = frame
    changed.lines[0] = ScreenLine("help", style: TextStyle(underline: .single))
    #expect(
      shown(renderer.render(changed))
        == "⎋[?25l⎋[1;1H⎋[K⎋[4mhelp⎋[0m⎋[2;3H⎋[?25h")
  }

  @Test func rowsBelowTheLinesAreBlank() {
    var renderer = FrameRenderer()
    _ = renderer.render(frame)
    var shorter = frame
    shorter.lines = [frame.lines[0]]
    shorter.cursor = nil
    #expect(shown(renderer.render(shorter)) == "⎋[?25l⎋[2;1H⎋[K")
  }

  @Test func newSizeOrInvalidateRedrawsEverything() {
    var renderer = FrameRenderer()
    let first = renderer.render(frame)
    var wider = frame
    wider.columns = 20
    #expect(renderer.render(wider) == first)
    renderer.invalidate()
    #expect(renderer.render(wider) == first)
    renderer.supportsStyledUnderlines = true
    #expect(renderer.render(wider) == first)
  }

  @Test func curlyUnderlineWithSupport() {
    var renderer = FrameRenderer(supportsStyledUnderlines: true)
    let style = TextStyle(underline: .curly, underlineColor: .indexed(196))
    let frame = Frame(rows: 1, columns: 10, lines: [ScreenLine("teh", style: style)])
    #expect(
      shown(renderer.render(frame))
        == "⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1H⎋[4:3m⎋[58:5:196mteh⎋[0m")
  }

  @Test func curlyUnderlineWithoutSupportIsSingle() {
    var renderer = FrameRenderer()
    let style = TextStyle(underline: .curly, underlineColor: .red)
    let frame = Frame(rows: 1, columns: 10, lines: [ScreenLine("teh", style: style)])
    #expect(shown(renderer.render(frame)) == "⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1H⎋[4mteh⎋[0m")
  }

  @Test func styledUnderlineTransitions() {
    let curly = TextStyle(underline: .curly)
    #expect(shown(TextStyle.plain.transition(to: curly)) == "⎋[4:3m")
    #expect(shown(curly.transition(to: TextStyle(underline: .single))) == "⎋[4m")
    let colored = TextStyle(underline: .curly, underlineColor: .green)
    #expect(shown(curly.transition(to: colored)) == "⎋[58:5:2m")
    #expect(shown(colored.transition(to: curly)) == "⎋[59m")
    #expect(curly.drawn(styledUnderlines: false) == TextStyle(underline: .single))
    #expect(colored.drawn(styledUnderlines: true) == colored)
  }

  @Test func cursorOffTheScreenIsClamped() {
    var renderer = FrameRenderer()
    let frame = Frame(rows: 2, columns: 5, lines: [], cursor: (row: 9, column: -3))
    #expect(shown(renderer.render(frame)).hasSuffix("⎋[2;1H⎋[?25h"))
  }

  @Test func controlCharactersInTextCannotReachTheTerminal() {
    var renderer = FrameRenderer()
    let frame = Frame(rows: 1, columns: 20, lines: [ScreenLine("a\u{1B}[2Jb\u{7}\u{9B}c\u{A0}")])
    #expect(
      shown(renderer.render(frame)) == "⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1Ha\u{FFFD}[2Jb\u{FFFD}\u{FFFD}c\u{A0}"
    )
  }

  @Test func emptyFrameWritesNoLine() {
    var renderer = FrameRenderer()
    #expect(shown(renderer.render(Frame(rows: 0, columns: 0, lines: []))) == "⎋[?25l⎋[0m⎋[H⎋[2J")
  }

  @Test(
    arguments: [
      ("xterm-kitty", nil, true), ("wezterm", nil, true), ("xterm-256color", "WezTerm", true),
      ("foot-extra", nil, true), ("xterm-256color", nil, false), (nil, nil, false),
      ("xterm-256color", "Apple_Terminal", false),
    ] as [(String?, String?, Bool)])
  func knownStyledUnderlineTerminals(term: String?, termProgram: String?, supported: Bool) {
    #expect(
      FrameRenderer.isKnownToSupportStyledUnderlines(term: term, termProgram: termProgram)
        == supported)
  }
}
