/// Deterministic synthetic text: mostly ASCII prose with some non-ASCII
/// words (2-, 3- and 4-byte UTF-8, including a few astral emoji so that UTF-16
/// surrogate pairs occur), in paragraphs separated by "\n".
public enum TextGenerator {
  static let asciiWords: [String] = """
    the of and to in is was that for on with as by at from his her they this \
    which are be or an had not but one all were we when there can more if \
    some out time would so what up about into them see only new could these \
    two may first then do any like my now over such our man me even most made \
    after also did many before must through back years where much your way \
    well down should because each just those people how too little state good \
    very make world still own see men work long get here between both life \
    being under never day same another know while last might us great old year \
    off come since against go came right used take three rope chunk buffer \
    editor cursor paragraph offset index tree node summary benchmark measure
    """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)

  static let otherWords: [String] = [
    "café", "naïve", "Straße", "résumé", "Zürich", "façade", "jalapeño", "Ångström",  // 2-byte
    "—", "“quoted”", "…", "€42", "日本語", "中文", "Ελληνικά", "Привет", "שלום", "नमस्ते",  // 2/3-byte
    "😀", "🚀", "👩‍💻", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",  // 4-byte (surrogate pairs in UTF-16)
  ]

  /// About `byteCount` bytes of UTF-8 (exactly, cut at a scalar boundary).
  public static func utf8(byteCount: Int, seed: UInt64 = 0x5EED) -> [UInt8] {
    let ascii = asciiWords.map { Array($0.utf8) }
    let other = otherWords.map { Array($0.utf8) }
    var rng = SplitMix64(seed: seed)
    var out = [UInt8]()
    out.reserveCapacity(byteCount + 64)
    var wordsLeftInParagraph = 20 + rng.below(180)
    var startOfSentence = true
    while out.count < byteCount {
      let r = rng.below(1000)
      let word: [UInt8]
      if r < 960 {
        word = ascii[rng.below(ascii.count)]
      } else if r < 998 {
        word = other[rng.below(other.count - 4)]
      } else {
        word = other[other.count - 4 + rng.below(4)]
      }
      if startOfSentence, let first = word.first, first >= 0x61, first <= 0x7A {
        out.append(first - 0x20)
        out.append(contentsOf: word[1...])
      } else {
        out.append(contentsOf: word)
      }
      startOfSentence = false
      wordsLeftInParagraph -= 1
      if wordsLeftInParagraph == 0 {
        out.append(contentsOf: [0x2E, 0x0A])  // ".\n"
        wordsLeftInParagraph = 20 + rng.below(180)
        startOfSentence = true
      } else if rng.below(12) == 0 {
        out.append(contentsOf: [0x2E, 0x20])  // ". "
        startOfSentence = true
      } else if rng.below(15) == 0 {
        out.append(contentsOf: [0x2C, 0x20])  // ", "
      } else {
        out.append(0x20)
      }
    }
    var end = byteCount
    while end > 0 && end < out.count && out[end] & 0xC0 == 0x80 { end -= 1 }
    out.removeSubrange(end...)
    return out
  }

  /// `byteCount` bytes of text as a native `String`.
  public static func string(byteCount: Int, seed: UInt64 = 0x5EED) -> String {
    let bytes = utf8(byteCount: byteCount, seed: seed)
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// 10^6 bytes: sizes and throughputs use decimal megabytes.
public let megabyte = 1_000_000
