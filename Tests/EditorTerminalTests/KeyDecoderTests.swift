import Testing
import _EngineTestSupport

@testable import EditorTerminal

/// Bytes a terminal sends and the keys they are.
struct DecoderCase: Sendable, CustomTestStringConvertible {
  let name: String
  let bytes: [UInt8]
  let events: [KeyEvent]

  init(_ name: String, _ bytes: [UInt8], _ events: [KeyEvent]) {
    self.name = name
    self.bytes = bytes
    self.events = events
  }

  init(_ name: String, _ text: String, _ events: [KeyEvent]) {
    self.init(name, Array(text.utf8), events)
  }

  var testDescription: String { name }
}

/// `ESC [` and `text`.
private func csi(_ text: String) -> [UInt8] { [0x1B, 0x5B] + Array(text.utf8) }
/// `ESC O` and `text`.
private func ss3(_ text: String) -> [UInt8] { [0x1B, 0x4F] + Array(text.utf8) }

private let pasteStart = csi("200~")
private let pasteEnd = csi("201~")

/// Every sequence the decoder knows, and the tricky neighbours.
let decoderCases: [DecoderCase] = [
  // Text.
  DecoderCase("ASCII text", "hello", [.text("hello")]),
  DecoderCase("two-byte UTF-8", "héllo", [.text("héllo")]),
  DecoderCase("three-byte UTF-8", "日本", [.text("日本")]),
  DecoderCase("emoji with modifier", "👍🏽", [.text("👍🏽")]),
  DecoderCase("combining mark", "e\u{301}", [.text("e\u{301}")]),
  // Control keys.
  DecoderCase("CR is Enter", [0x0D], [.key(.enter)]),
  DecoderCase("LF is Enter", [0x0A], [.key(.enter)]),
  DecoderCase("CR LF is one Enter", [0x0D, 0x0A], [.key(.enter)]),
  DecoderCase("CR CR is two Enters", [0x0D, 0x0D], [.key(.enter), .key(.enter)]),
  DecoderCase("LF CR is two Enters", [0x0A, 0x0D], [.key(.enter), .key(.enter)]),
  DecoderCase("CR text LF", [0x0D, 0x61, 0x0A], [.key(.enter), .text("a"), .key(.enter)]),
  DecoderCase("Tab", [0x09], [.key(.tab)]),
  DecoderCase("DEL is Backspace", [0x7F], [.key(.backspace)]),
  DecoderCase("BS is Backspace", [0x08], [.key(.backspace)]),
  DecoderCase("Ctrl-A", [0x01], [.ctrl("a")]),
  DecoderCase("Ctrl-C", [0x03], [.ctrl("c")]),
  DecoderCase("Ctrl-S", [0x13], [.ctrl("s")]),
  DecoderCase("Ctrl-Q", [0x11], [.ctrl("q")]),
  DecoderCase("Ctrl-Z", [0x1A], [.ctrl("z")]),
  DecoderCase("NUL is Ctrl-Space", [0x00], [.key(.character(" "), .ctrl)]),
  DecoderCase("Ctrl-backslash", [0x1C], [.key(.character("\\"), .ctrl)]),
  DecoderCase("Ctrl-underscore", [0x1F], [.key(.character("_"), .ctrl)]),
  DecoderCase("text around a control", "ab\u{3}cd", [.text("ab"), .ctrl("c"), .text("cd")]),
  // Escape and Alt.
  DecoderCase("lone ESC is Escape", [0x1B], [.key(.escape)]),
  DecoderCase("ESC ESC is two Escapes", [0x1B, 0x1B], [.key(.escape), .key(.escape)]),
  DecoderCase("Alt-x", [0x1B, 0x78], [.key(.character("x"), .alt)]),
  DecoderCase("Alt-X", [0x1B, 0x58], [.key(.character("X"), .alt)]),
  DecoderCase("Alt-é", [0x1B, 0xC3, 0xA9], [.key(.character("é"), .alt)]),
  DecoderCase("Alt-Enter", [0x1B, 0x0D], [.key(.enter, .alt)]),
  DecoderCase("Alt-Backspace", [0x1B, 0x7F], [.key(.backspace, .alt)]),
  DecoderCase("Ctrl-Alt-S", [0x1B, 0x13], [.key(.character("s"), [.ctrl, .alt])]),
  DecoderCase("Alt-[ alone", [0x1B, 0x5B], [.key(.character("["), .alt)]),
  DecoderCase("Alt-O alone", [0x1B, 0x4F], [.key(.character("O"), .alt)]),
  DecoderCase("Alt-Left as ESC ESC [ D", [0x1B] + csi("D"), [.key(.left, .alt)]),
  DecoderCase("Alt-Up as ESC ESC O A", [0x1B] + ss3("A"), [.key(.up, .alt)]),
  DecoderCase("ESC ESC x", [0x1B, 0x1B, 0x78], [.key(.escape), .key(.character("x"), .alt)]),
  DecoderCase(
    "ESC ESC [ alone", [0x1B, 0x1B, 0x5B], [.key(.escape), .key(.character("["), .alt)]),
  DecoderCase("ESC then invalid byte", [0x1B, 0xFF], [.unknown([0x1B, 0xFF])]),
  // Arrows, CSI and SS3.
  DecoderCase("Up", csi("A"), [.key(.up)]),
  DecoderCase("Down", csi("B"), [.key(.down)]),
  DecoderCase("Right", csi("C"), [.key(.right)]),
  DecoderCase("Left", csi("D"), [.key(.left)]),
  DecoderCase("SS3 Up", ss3("A"), [.key(.up)]),
  DecoderCase("SS3 Down", ss3("B"), [.key(.down)]),
  DecoderCase("SS3 Right", ss3("C"), [.key(.right)]),
  DecoderCase("SS3 Left", ss3("D"), [.key(.left)]),
  DecoderCase("CSI Home", csi("H"), [.key(.home)]),
  DecoderCase("CSI End", csi("F"), [.key(.end)]),
  DecoderCase("SS3 Home", ss3("H"), [.key(.home)]),
  DecoderCase("SS3 End", ss3("F"), [.key(.end)]),
  // VT220 and rxvt.
  DecoderCase("1~ Home", csi("1~"), [.key(.home)]),
  DecoderCase("7~ Home", csi("7~"), [.key(.home)]),
  DecoderCase("4~ End", csi("4~"), [.key(.end)]),
  DecoderCase("8~ End", csi("8~"), [.key(.end)]),
  DecoderCase("2~ Insert", csi("2~"), [.key(.insert)]),
  DecoderCase("3~ Delete", csi("3~"), [.key(.delete)]),
  DecoderCase("5~ Page Up", csi("5~"), [.key(.pageUp)]),
  DecoderCase("6~ Page Down", csi("6~"), [.key(.pageDown)]),
  DecoderCase("Shift-Tab", csi("Z"), [.key(.backTab)]),
  // Function keys.
  DecoderCase("SS3 F1", ss3("P"), [.key(.f(1))]),
  DecoderCase("SS3 F2", ss3("Q"), [.key(.f(2))]),
  DecoderCase("SS3 F3", ss3("R"), [.key(.f(3))]),
  DecoderCase("SS3 F4", ss3("S"), [.key(.f(4))]),
  DecoderCase("11~ F1", csi("11~"), [.key(.f(1))]),
  DecoderCase("12~ F2", csi("12~"), [.key(.f(2))]),
  DecoderCase("13~ F3", csi("13~"), [.key(.f(3))]),
  DecoderCase("14~ F4", csi("14~"), [.key(.f(4))]),
  DecoderCase("15~ F5", csi("15~"), [.key(.f(5))]),
  DecoderCase("17~ F6", csi("17~"), [.key(.f(6))]),
  DecoderCase("18~ F7", csi("18~"), [.key(.f(7))]),
  DecoderCase("19~ F8", csi("19~"), [.key(.f(8))]),
  DecoderCase("20~ F9", csi("20~"), [.key(.f(9))]),
  DecoderCase("21~ F10", csi("21~"), [.key(.f(10))]),
  DecoderCase("23~ F11", csi("23~"), [.key(.f(11))]),
  DecoderCase("24~ F12", csi("24~"), [.key(.f(12))]),
  DecoderCase("16~ is a gap", csi("16~"), [.unknown(csi("16~"))]),
  DecoderCase("22~ is a gap", csi("22~"), [.unknown(csi("22~"))]),
  DecoderCase("Linux console F1", csi("[A"), [.key(.f(1))]),
  DecoderCase("Linux console F5", csi("[E"), [.key(.f(5))]),
  // Modifiers.
  DecoderCase("Shift-Up", csi("1;2A"), [.key(.up, .shift)]),
  DecoderCase("Alt-Up", csi("1;3A"), [.key(.up, .alt)]),
  DecoderCase("Ctrl-Left", csi("1;5D"), [.key(.left, .ctrl)]),
  DecoderCase("Ctrl-Shift-Right", csi("1;6C"), [.key(.right, [.ctrl, .shift])]),
  DecoderCase("Ctrl-Alt-Down", csi("1;7B"), [.key(.down, [.ctrl, .alt])]),
  DecoderCase("Meta-Left", csi("1;9D"), [.key(.left, .meta)]),
  DecoderCase("Shift-End", csi("1;2F"), [.key(.end, .shift)]),
  DecoderCase("Ctrl-Home", csi("1;5H"), [.key(.home, .ctrl)]),
  DecoderCase("Ctrl-Page Up", csi("5;5~"), [.key(.pageUp, .ctrl)]),
  DecoderCase("Shift-Delete", csi("3;2~"), [.key(.delete, .shift)]),
  DecoderCase("Ctrl-F1", csi("1;5P"), [.key(.f(1), .ctrl)]),
  DecoderCase("Shift-F5", csi("15;2~"), [.key(.f(5), .shift)]),
  DecoderCase("Ctrl-F12", csi("24;5~"), [.key(.f(12), .ctrl)]),
  DecoderCase("SS3 Ctrl-F1", ss3("5P"), [.key(.f(1), .ctrl)]),
  DecoderCase("SS3 Shift-F2", ss3("1;2Q"), [.key(.f(2), .shift)]),
  DecoderCase("Alt-Shift-Tab", [0x1B] + csi("Z"), [.key(.backTab, .alt)]),
  // rxvt's modifier forms.
  DecoderCase("rxvt Shift-Up", csi("a"), [.key(.up, .shift)]),
  DecoderCase("rxvt Ctrl-Left", ss3("d"), [.key(.left, .ctrl)]),
  DecoderCase("rxvt Ctrl-Insert", csi("2^"), [.key(.insert, .ctrl)]),
  DecoderCase("rxvt Shift-Delete", csi("3$"), [.key(.delete, .shift)]),
  DecoderCase("rxvt Ctrl-Shift-Home", csi("7@"), [.key(.home, [.ctrl, .shift])]),
  // kitty and modifyOtherKeys.
  DecoderCase("kitty Ctrl-a", csi("97;5u"), [.ctrl("a")]),
  DecoderCase("kitty Shift-Enter", csi("13;2u"), [.key(.enter, .shift)]),
  DecoderCase("kitty Ctrl-Shift-A", csi("97;6u"), [.key(.character("a"), [.ctrl, .shift])]),
  DecoderCase("kitty plain text", csi("233u"), [.text("é")]),
  DecoderCase("modifyOtherKeys Ctrl-i", csi("27;5;105~"), [.ctrl("i")]),
  // Keypad in application mode.
  DecoderCase("keypad Enter", ss3("M"), [.key(.enter)]),
  DecoderCase("keypad digits", ss3("p") + ss3("y") + ss3("k"), [.text("09+")]),
  // Unknown and broken sequences.
  DecoderCase("unknown CSI", csi("99x"), [.unknown(csi("99x"))]),
  DecoderCase("SGR mouse report", csi("<0;12;5M"), [.unknown(csi("<0;12;5M"))]),
  DecoderCase("device attributes reply", csi("?1;2c"), [.unknown(csi("?1;2c"))]),
  DecoderCase("focus in", csi("I"), [.unknown(csi("I"))]),
  DecoderCase("unknown SS3", ss3("Z"), [.unknown(ss3("Z"))]),
  DecoderCase("stray paste end", pasteEnd + [0x61], [.text("a")]),
  DecoderCase(
    "sequence broken by Enter", csi("1;") + [0x0D], [.unknown(csi("1;")), .key(.enter)]),
  DecoderCase(
    "sequence broken by ESC", csi("1;") + csi("A"), [.unknown(csi("1;")), .key(.up)]),
  DecoderCase("CSI then Enter", csi("") + [0x0D], [.key(.character("["), .alt), .key(.enter)]),
  DecoderCase(
    "sequence cut at the limit",
    csi(String(repeating: "1", count: 100) + "mz"),
    [.unknown(Array(csi(String(repeating: "1", count: 100)).prefix(64))), .text("z")]),
  DecoderCase("unfinished sequence", csi("1;5"), [.unknown(csi("1;5"))]),
  DecoderCase(
    "huge parameter", csi("99999999999999999999~"),
    [
      .unknown(csi("99999999999999999999~"))
    ]),
  // Invalid UTF-8.
  DecoderCase("lone continuation byte", [0x61, 0x80, 0x62], [.text("a\u{FFFD}b")]),
  DecoderCase("overlong two-byte", [0xC0, 0x80], [.text("\u{FFFD}\u{FFFD}")]),
  DecoderCase("truncated three-byte", [0xE2, 0x82, 0x41], [.text("\u{FFFD}A")]),
  DecoderCase("truncated at the end", [0x41, 0xE2, 0x82], [.text("A\u{FFFD}")]),
  DecoderCase("surrogate", [0xED, 0xA0, 0x80], [.text("\u{FFFD}\u{FFFD}\u{FFFD}")]),
  DecoderCase(
    "above U+10FFFF", [0xF4, 0x90, 0x80, 0x80], [.text(String(repeating: "\u{FFFD}", count: 4))]),
  DecoderCase("FF byte", [0xFF], [.text("\u{FFFD}")]),
  DecoderCase("invalid before a key", [0xE2, 0x0D], [.text("\u{FFFD}"), .key(.enter)]),
  // Bracketed paste.
  DecoderCase("paste", pasteStart + Array("hello".utf8) + pasteEnd, [.paste("hello")]),
  DecoderCase(
    "paste with ESC, CR LF and CR",
    pasteStart + Array("a\r\nb\rc\u{1B}[Ad\u{3}".utf8) + pasteEnd,
    [.paste("a\nb\nc\u{1B}[Ad\u{3}")]),
  DecoderCase(
    "paste with a false end", pasteStart + Array("x\u{1B}[201y".utf8) + pasteEnd,
    [.paste("x\u{1B}[201y")]),
  DecoderCase("paste of UTF-8", pasteStart + Array("日本👍🏽".utf8) + pasteEnd, [.paste("日本👍🏽")]),
  DecoderCase("empty paste", pasteStart + pasteEnd, []),
  DecoderCase(
    "keys around a paste", Array("a".utf8) + pasteStart + Array("b".utf8) + pasteEnd + [0x0D],
    [.text("a"), .paste("b"), .key(.enter)]),
  DecoderCase(
    "paste ending in CR then LF outside",
    pasteStart + Array("a\r".utf8) + pasteEnd + [0x0A],
    [.paste("a\n"), .key(.enter)]),
  DecoderCase(
    "unterminated paste", pasteStart + Array("abc\u{1B}[20".utf8), [.paste("abc")]),
]

/// The events with neighbouring texts joined: text is grouped by read, so
/// this is what does not depend on where reads split.
func joiningTexts(_ events: [KeyEvent]) -> [KeyEvent] {
  var joined: [KeyEvent] = []
  for event in events {
    if case .text(let text) = event, case .text(let previous) = joined.last {
      joined[joined.count - 1] = .text(previous + text)
    } else {
      joined.append(event)
    }
  }
  return joined
}

/// The events of `bytes` fed in the given pieces, then flushed.
func decode(_ pieces: [ArraySlice<UInt8>], decoder: KeyDecoder = KeyDecoder()) -> [KeyEvent] {
  var decoder = decoder
  var events: [KeyEvent] = []
  for piece in pieces { events += decoder.feed(piece) }
  events += decoder.flush()
  return events
}

@Suite struct KeyDecoderTests {
  @Test(arguments: decoderCases)
  func decodesInOneRead(_ testCase: DecoderCase) {
    #expect(joiningTexts(decode([testCase.bytes[...]])) == testCase.events)
  }

  @Test(arguments: decoderCases)
  func decodesSplitAtEveryByte(_ testCase: DecoderCase) {
    let bytes = testCase.bytes
    for split in 0...bytes.count {
      let events = decode([bytes[..<split], bytes[split...]])
      #expect(joiningTexts(events) == testCase.events, "split at \(split)")
    }
  }

  @Test(arguments: decoderCases)
  func decodesByteByByte(_ testCase: DecoderCase) {
    let events = decode(testCase.bytes.indices.map { testCase.bytes[$0...$0] })
    #expect(joiningTexts(events) == testCase.events)
  }

  @Test func textOfOneReadIsOneEvent() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Array("abc".utf8)) == [.text("abc")])
    #expect(decoder.feed(Array("de".utf8)) == [.text("de")])
    #expect(!decoder.isPending)
  }

  @Test func characterSplitBetweenReadsWaits() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x61, 0xE6, 0x97]) == [.text("a")])
    #expect(decoder.isPending)
    #expect(decoder.feed([0xA5]) == [.text("日")])
    #expect(!decoder.isPending)
  }

  @Test func escapeWaitsForFlush() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]) == [])
    #expect(decoder.isPending)
    #expect(decoder.flush() == [.key(.escape)])
    #expect(!decoder.isPending)
    #expect(decoder.flush() == [])
  }

  @Test func sequenceSplitBetweenReads() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B, 0x5B, 0x31, 0x3B]) == [])
    #expect(decoder.isPending)
    #expect(decoder.feed([0x35, 0x44]) == [.key(.left, .ctrl)])
    #expect(!decoder.isPending)
  }

  @Test func carriageReturnThenPauseThenLineFeedIsTwoEnters() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x0D]) == [.key(.enter)])
    #expect(decoder.flush() == [])
    #expect(decoder.feed([0x0A]) == [.key(.enter)])
  }

  @Test func pasteIsTextEvenWithKeysInside() {
    var decoder = KeyDecoder()
    let events = decoder.feed(pasteStart + [0x1B, 0x03, 0x0D, 0x0A, 0x7F, 0x09] + pasteEnd)
    #expect(events == [.paste("\u{1B}\u{3}\n\u{7F}\t")])
  }

  @Test func unfinishedPasteFlushesWhatCameAndGoesOn() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(pasteStart + Array("ab\r".utf8)) == [])
    #expect(decoder.isPending)
    #expect(decoder.flush() == [.paste("ab\n")])
    #expect(decoder.isPending)
    #expect(decoder.feed(Array("\ncd".utf8) + pasteEnd + [0x78]) == [.paste("cd"), .text("x")])
    #expect(!decoder.isPending)
  }

  @Test func longPasteComesInBoundedPieces() {
    var decoder = KeyDecoder(maxPasteChunkBytes: 16)
    let text = String(repeating: "abcdé日👍\r\n", count: 200)
    var events = decoder.feed(pasteStart)
    for byte in text.utf8 {
      events += decoder.feed([byte])
      #expect(decoder.heldByteCount <= 16 + 6)
    }
    events += decoder.feed(pasteEnd)
    var pasted = ""
    for event in events {
      guard case .paste(let piece) = event else {
        Issue.record("not a paste: \(event)")
        continue
      }
      #expect(piece.utf8.count <= 16)
      pasted += piece
    }
    #expect(pasted == text.replacing("\r\n", with: "\n"))
    #expect(!decoder.isPending)
  }

  @Test func longPastePiecesDoNotDependOnReads() {
    let bytes = pasteStart + Array(String(repeating: "ab\r\ncdé日👍", count: 6).utf8) + pasteEnd
    let decoder = KeyDecoder(maxPasteChunkBytes: 16)
    let whole = decode([bytes[...]], decoder: decoder)
    for split in 0...bytes.count {
      #expect(decode([bytes[..<split], bytes[split...]], decoder: decoder) == whole)
    }
  }

  @Test func unterminatedSequenceIsCutAndSkipped() {
    var decoder = KeyDecoder()
    var events = decoder.feed(csi(""))
    for _ in 0..<10_000 {
      events += decoder.feed(Array("1;".utf8))
      #expect(decoder.heldByteCount <= decoder.maxSequenceBytes)
    }
    events += decoder.feed(Array("Ax".utf8))
    #expect(events.count == 2)
    #expect(
      events.first.map { if case .unknown(let b) = $0 { b.count == 64 } else { false } } == true)
    #expect(events.last == .text("x"))
  }

  @Test func randomByteSoup() {
    let seed = TestSettings.seed("randomByteSoup")
    var random = SeededRandom(seed: seed)
    let pieces: [[UInt8]] = [
      [0x1B], [0x5B], [0x4F], Array("0123456789;:<?$^@~".utf8), Array("ABCDHFPQRSZabcdu~M".utf8),
      [0x0D], [0x0A], [0x7F], [0x03], [0x80], [0xC3], [0xE6, 0x97], [0xF0, 0x9F], [0xFF],
      pasteStart, pasteEnd, Array("xyz é".utf8),
    ]
    for _ in 0..<TestSettings.iterations(300) {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...200, using: &random) {
        let piece = pieces[Int.random(in: 0..<pieces.count, using: &random)]
        if piece.count > 6 {
          bytes.append(piece[Int.random(in: 0..<piece.count, using: &random)])
        } else {
          bytes += piece
        }
      }
      let decoder = KeyDecoder(maxSequenceBytes: 16, maxPasteChunkBytes: 16)
      let whole = decode([bytes[...]], decoder: decoder)
      // The same bytes in random reads.
      var reads: [ArraySlice<UInt8>] = []
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + Int.random(in: 1...8, using: &random))
        reads.append(bytes[start..<end])
        start = end
      }
      var split = decoder
      var events: [KeyEvent] = []
      for read in reads {
        events += split.feed(read)
        #expect(split.heldByteCount <= 16 + 6)
      }
      events += split.flush()
      // At most a possible start of a paste's end, after a cut-short scalar.
      #expect(split.heldByteCount <= 5 + 3)
      #expect(joiningTexts(events) == joiningTexts(whole), "SEED=\(seed) bytes=\(bytes)")
      #expect(whole.count <= bytes.count)
      for event in whole {
        if case .unknown(let unknown) = event { #expect(unknown.count <= 16) }
        if case .text(let text) = event {
          #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
      }
    }
  }

  @Test func textWithoutControlsDecodesAsSwiftDoes() {
    let seed = TestSettings.seed("textWithoutControlsDecodesAsSwiftDoes")
    var random = SeededRandom(seed: seed)
    for _ in 0..<TestSettings.iterations(300) {
      let bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in
        UInt8.random(in: 0x20...0xFF, using: &random)
      }.filter { $0 != 0x7F }
      let events = joiningTexts(decode([bytes[...]]))
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(events == (text.isEmpty ? [] : [.text(text)]), "SEED=\(seed) bytes=\(bytes)")
    }
  }
}
