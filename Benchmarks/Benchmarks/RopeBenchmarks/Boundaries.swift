import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import Foundation
import TextBoundaries
import TextRope

// 6. Grapheme cluster boundaries of 10 MB of mixed-script text, against
//    Swift's `Character` iteration over the same text.
// 7. The paragraph range (NSString's rule) of a random offset in 100 MB,
//    against Foundation's `NSString.paragraphRange(for:)`.

/// About `byteCount` bytes of prose in several scripts: Latin with accents
/// and combining marks, Greek, Cyrillic, Hebrew, Devanagari, Thai, CJK,
/// Hangul, emoji (with ZWJ sequences, skin tones and flags), in paragraphs
/// separated by LF, CR LF and U+2029.
func mixedScriptText(byteCount: Int) -> String {
  let words = [
    "the", "rope", "and", "editor", "text", "café", "naïve", "Ze\u{301}ro", "Ελληνικά", "λόγος",
    "русский", "язык", "שלום", "नमस्ते", "हिन्दी", "ภาษาไทย", "中文字符", "日本語の", "かな", "한국어",
    "문장", "😀", "👩‍💻", "👨‍👩‍👧‍👦", "👋🏽", "🇫🇷", "🇯🇵", "1,234.5", "—", "“quoted”",
  ]
  let separators = ["\n", "\r\n", "\u{2029}"]
  var rng = SplitMix64(seed: 0xB0B)
  var out = ""
  out.reserveCapacity(byteCount + 64)
  var n = 0
  while out.utf8.count < byteCount {
    out += words[rng.below(words.count)]
    n += 1
    out += n % 60 == 0 ? separators[rng.below(separators.count)] : " "
  }
  return out
}

func registerBoundaryBenchmarks() {
  let graphemeConfiguration = configuration(
    timeUnits: .milliseconds, maxDuration: .seconds(5), maxIterations: 50)
  let byteCount = 10 * megabyte

  Benchmark("Graphemes/10 MB mixed/Rope", configuration: graphemeConfiguration) {
    benchmark, clusters in
    var count = 0
    for _ in benchmark.scaledIterations {
      do {
        try clusters.forEachBoundary(in: 0..<clusters.rope.utf16Count) { _ in count += 1 }
      } catch { fatalError("\(error)") }
    }
    blackHole(count)
  } setup: { () -> GraphemeClusters in
    let text = mixedScriptText(byteCount: byteCount)
    let clusters = GraphemeClusters(Rope(text))
    // Setup checks once that the rope and `Character` agree.
    var characters = 0
    for _ in text { characters += 1 }
    let boundaries = try clusters.boundaries(in: 0..<clusters.rope.utf16Count)
    precondition(boundaries.count == characters + 1, "graphemes disagree with Character")
    return clusters
  }

  Benchmark("Graphemes/10 MB mixed/String", configuration: graphemeConfiguration) {
    benchmark, text in
    var count = 0
    for _ in benchmark.scaledIterations {
      for _ in text { count += 1 }
    }
    blackHole(count)
  } setup: { () -> String in
    mixedScriptText(byteCount: byteCount)
  }

  let paragraphConfiguration = configuration(
    timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 2000)
  let bigCount = 100 * megabyte
  let offsetCount = 1 << 16

  Benchmark("Paragraph range/100 MB/Rope", configuration: paragraphConfiguration) {
    benchmark, state in
    let (rope, offsets, start) = state
    var i = start.value
    var sum = 0
    for _ in benchmark.scaledIterations {
      do {
        let paragraph = try rope.paragraph(containing: offsets[i])
        sum &+= paragraph.range.lowerBound &+ paragraph.contentsEnd
      } catch { fatalError("\(error)") }
      i = (i + 1) & (offsetCount - 1)
    }
    start.value = i
    blackHole(sum)
  } setup: { () -> (Rope, [Int], Box<Int>) in
    let rope = Rope(TextGenerator.string(byteCount: bigCount))
    return (rope, validUTF16Offsets(in: rope, count: offsetCount), Box(0))
  }

  Benchmark("Paragraph range/100 MB/NSString", configuration: paragraphConfiguration) {
    benchmark, state in
    let (string, offsets, start) = state
    var i = start.value
    var sum = 0
    for _ in benchmark.scaledIterations {
      let range = string.paragraphRange(for: NSRange(location: offsets[i], length: 0))
      sum &+= range.location &+ range.length
      i = (i + 1) & (offsetCount - 1)
    }
    start.value = i
    blackHole(sum)
  } setup: { () -> (NSString, [Int], Box<Int>) in
    let text = TextGenerator.string(byteCount: bigCount)
    let offsets = validUTF16Offsets(in: Rope(text), count: offsetCount)
    return (NSString(string: text), offsets, Box(0))
  }
}
