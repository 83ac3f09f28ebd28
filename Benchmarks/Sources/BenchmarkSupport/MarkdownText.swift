/// Deterministic GitHub-flavoured Markdown that reads like documentation:
/// sections under `##` and `###` headers, each with paragraphs of wrapped
/// lines (emphasis, strong emphasis, code spans, links, autolinks,
/// strikethrough, now and then a hard break), and some of: a bulleted list
/// with nested items, an ordered list, a quote, a fenced code block, a pipe
/// table, a thematic break. The words are `TextGenerator`'s (mostly ASCII,
/// some 2-, 3- and 4-byte UTF-8).
public enum MarkdownText {
  /// About `byteCount` bytes of Markdown (whole sections: a little more).
  public static func document(byteCount: Int, seed: UInt64 = 0x3D_3D) -> String {
    var writer = Writer(seed: seed)
    writer.out.reserveCapacity(byteCount + 4096)
    writer.out += "# The engine's manual\n\n"
    while writer.out.utf8.count < byteCount {
      writer.section()
    }
    return writer.out
  }

  struct Writer {
    var rng: SplitMix64
    var out = ""

    init(seed: UInt64) {
      rng = SplitMix64(seed: seed)
    }

    mutating func word() -> String {
      if rng.below(25) == 0 {
        return TextGenerator.otherWords[rng.below(TextGenerator.otherWords.count)]
      }
      return TextGenerator.asciiWords[rng.below(TextGenerator.asciiWords.count)]
    }

    mutating func words(_ count: Int) -> String {
      (0..<count).map { _ in word() }.joined(separator: " ")
    }

    /// A phrase, sometimes marked up.
    mutating func phrase() -> String {
      let text = words(1 + rng.below(3))
      switch rng.below(40) {
      case 0, 1, 2: return "*\(text)*"
      case 3, 4: return "**\(text)**"
      case 5, 6, 7: return "`\(text.replacingSpaces(with: "_"))()`"
      case 8, 9: return "[\(text)](https://example.com/docs/\(text.replacingSpaces(with: "-")))"
      case 10: return "~~\(text)~~"
      case 11: return "<https://example.org/\(rng.below(1000))>"
      case 12: return "_\(text)_"
      default: return text
      }
    }

    /// A paragraph of 1 to 6 lines of about 70 bytes, ending with a period.
    mutating func paragraph(lines: Int? = nil) -> String {
      var lines = (0..<(lines ?? 1 + rng.below(6))).map { _ -> String in
        var line = ""
        while line.utf8.count < 60 {
          line += (line.isEmpty ? "" : " ") + phrase()
        }
        return line
      }
      if lines.count > 1, rng.below(8) == 0 { lines[0] += "\\" }
      return lines.joined(separator: "\n") + "."
    }

    mutating func section() {
      let level = rng.below(3) == 0 ? "###" : "##"
      out += "\(level) \(words(2 + rng.below(4)).capitalizedFirst)\n\n"
      for _ in 0..<(1 + rng.below(3)) {
        out += paragraph() + "\n\n"
      }
      switch rng.below(8) {
      case 0, 1: bulletedList()
      case 2: orderedList()
      case 3: quote()
      case 4, 5: codeBlock()
      case 6: table()
      default: out += "***\n\n"
      }
      if rng.below(2) == 0 { out += paragraph() + "\n\n" }
    }

    mutating func bulletedList() {
      for _ in 0..<(3 + rng.below(4)) {
        out += "- \(paragraph(lines: 1))\n"
        if rng.below(4) == 0 {
          for _ in 0..<(1 + rng.below(3)) { out += "  - \(phrase()) \(words(3))\n" }
        }
      }
      out += "\n"
    }

    mutating func orderedList() {
      for item in 1...(2 + rng.below(5)) {
        out += "\(item). \(paragraph(lines: 1))\n"
      }
      out += "\n"
    }

    mutating func quote() {
      for line in paragraph(lines: 1 + rng.below(3)).split(separator: "\n") {
        out += "> \(line)\n"
      }
      out += "\n"
    }

    mutating func codeBlock() {
      out += rng.below(3) == 0 ? "```\n" : "```swift\n"
      for _ in 0..<(4 + rng.below(9)) {
        let indent = String(repeating: " ", count: 2 * rng.below(3))
        let name = word().replacingSpaces(with: "_")
        out +=
          "\(indent)let \(name) = try document.\(word())(\"\(words(2))\", at: \(rng.below(100)))\n"
      }
      out += "```\n\n"
    }

    mutating func table() {
      let columns = 3 + rng.below(2)
      out +=
        "| " + (0..<columns).map { _ in word().capitalizedFirst }.joined(separator: " | ") + " |\n"
      out +=
        "|"
        + (0..<columns).map { _ in [" --- ", " :-: ", " --: "][rng.below(3)] }.joined(
          separator: "|") + "|\n"
      for _ in 0..<(3 + rng.below(4)) {
        out += "| " + (0..<columns).map { _ in phrase() }.joined(separator: " | ") + " |\n"
      }
      out += "\n"
    }
  }
}

extension String {
  fileprivate func replacingSpaces(with replacement: String) -> String {
    split(separator: " ").joined(separator: replacement)
  }

  fileprivate var capitalizedFirst: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst()
  }
}
