import Benchmark
import BenchmarkHarness
import BenchmarkSupport
import DocumentEngine
import Foundation
import TextRope

import struct _RopeModule.BigString

// The text sweep: 1 KB … 1 GB of the generated mixed text (TextGenerator),
// for each size
// - build: the structure from the text (a `String`; the `String` itself from
//   its UTF-8 bytes), on fresh pages;
// - random edit: "x" inserted or one scalar deleted at a random UTF-16
//   offset, alternately;
// - UTF-16 to UTF-8 offset, at a random UTF-16 offset;
// - paragraph range around a random offset;
// - selection context: the paragraphs around a one-character selection, with
//   their text;
// - memory: what building the structure leaves allocated, per byte of text.
// The rope against swift-collections' `BigString`, a native `String` and the
// flat `[UInt8]` (`FlatText`), which finds a UTF-16 offset by counting from
// the start; paragraphs and contexts against `NSString`.

private let offsetCount = 1 << 16

/// The generated text of `size`.
private func text(_ size: TextSize) -> String {
  TextGenerator.string(byteCount: size.bytes)
}

/// Random offsets for edits: below the text's UTF-16 length less a margin
/// of 1 %, so that the few units the edits lose never take an offset past
/// the end. A deleted surrogate pair is two units and an inserted "x" one,
/// so the text can lose at most as many units as it has astral scalars:
/// none at 1 KB, about 0.12 % of its units from 10 KB up.
private func editOffsets(utf16Count: Int) -> [Int] {
  randomOffsets(count: offsetCount, below: max(1, utf16Count - max(2, utf16Count / 100)), seed: 3)
}

func registerTextSweep() {
  for size in textSizes {
    registerBuildPoints(size)
    registerEditPoints(size)
    registerOffsetPoints(size)
    registerParagraphPoints(size)
    registerSelectionContextPoints(size)
    registerMemoryPoints(size)
  }
}

private func name(_ operation: String, _ size: TextSize, _ structure: String) -> String {
  "Sweep text/\(operation)/\(size.label)/\(structure)"
}

// MARK: Build

private func registerBuildPoints(_ size: TextSize) {
  let bytes = size.bytes
  var configuration = sweepConfiguration(
    cheap: false, bytes: bytes, metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond])
  configuration.maxIterations = bytes >= 100_000_000 ? 5 : 200

  Benchmark(name("build", size, "Rope"), configuration: configuration) { benchmark, text in
    measureBuild(benchmark, byteCount: bytes) { Rope(text) }
  } setup: {
    text(size)
  }

  var bigStringConfiguration = configuration
  if bytes >= 100_000_000 { bigStringConfiguration.maxIterations = 3 }
  Benchmark(name("build", size, "BigString"), configuration: bigStringConfiguration) {
    benchmark, text in
    measureBuild(benchmark, byteCount: bytes) { BigString(text) }
  } setup: {
    text(size)
  }

  Benchmark(name("build", size, "String"), configuration: configuration) { benchmark, utf8 in
    measureBuild(benchmark, byteCount: bytes) { String(decoding: utf8, as: UTF8.self) }
  } setup: {
    TextGenerator.utf8(byteCount: bytes)
  }

  Benchmark(name("build", size, "Flat [UInt8]"), configuration: configuration) {
    benchmark, text in
    measureBuild(benchmark, byteCount: bytes) { Array(text.utf8) }
  } setup: {
    text(size)
  }
}

// MARK: Random edit

private func registerEditPoints(_ size: TextSize) {
  let bytes = size.bytes
  let tree = sweepConfiguration(cheap: true, bytes: bytes)
  let linear = sweepConfiguration(cheap: bytes <= 100_000, bytes: bytes)

  Benchmark(name("random edit", size, "Rope"), configuration: tree) { benchmark, edits in
    edits.make(benchmark.scaledIterations.count)
  } setup: { () -> SingleEdits<Rope> in
    let rope = Rope(text(size))
    return SingleEdits(rope, offsets: editOffsets(utf16Count: rope.utf16Count))
  }

  Benchmark(name("random edit", size, "BigString"), configuration: tree) { benchmark, edits in
    edits.make(benchmark.scaledIterations.count)
  } setup: { () -> SingleEdits<BigString> in
    let big = BigString(text(size))
    return SingleEdits(big, offsets: editOffsets(utf16Count: big.utf16.count))
  }

  // A native String finds a UTF-16 offset through its breadcrumbs, which
  // every mutation discards: the next edit rebuilds them, in O(n).
  Benchmark(name("random edit", size, "String"), configuration: linear) { benchmark, edits in
    edits.make(benchmark.scaledIterations.count) { string, insert, offset in
      // An index between the halves of a surrogate pair is rounded down to
      // its scalar by the scalar view (Swift 5.7 and later), as the rope's
      // and BigString's edits round it.
      let index = String.Index(utf16Offset: offset, in: string)
      if insert {
        string.unicodeScalars.insert("x", at: index)
      } else {
        _ = string.unicodeScalars.remove(at: index)
      }
    }
  } setup: { () -> SingleEdits<String> in
    let string = text(size)
    return SingleEdits(string, offsets: editOffsets(utf16Count: string.utf16.count))
  }

  Benchmark(name("random edit", size, "Flat [UInt8]"), configuration: linear) {
    benchmark, edits in
    edits.make(benchmark.scaledIterations.count) { flat, insert, offset in
      if insert {
        flat.insertCharacter(atUTF16: offset)
      } else {
        flat.deleteScalar(atUTF16: offset)
      }
    }
  } setup: { () -> SingleEdits<FlatText> in
    let string = text(size)
    return SingleEdits(
      FlatText(Array(string.utf8)), offsets: editOffsets(utf16Count: string.utf16.count))
  }
}

// MARK: UTF-16 to UTF-8 offset

private func registerOffsetPoints(_ size: TextSize) {
  let bytes = size.bytes
  let tree = sweepConfiguration(cheap: true, bytes: bytes)
  let linear = sweepConfiguration(cheap: bytes <= 100_000, bytes: bytes)
  let operation = "UTF-16 to UTF-8 offset"

  Benchmark(name(operation, size, "Rope"), configuration: tree) { benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { rope, offset, _ in
      do { return try rope.utf8Offset(of: offset, in: .utf16) } catch { fatalError("\(error)") }
    }
  } setup: { () -> (Rope, [Int], Box<Int>) in
    let rope = Rope(text(size))
    return (rope, validUTF16Offsets(in: rope, count: offsetCount), Box(0))
  }

  Benchmark(name(operation, size, "BigString"), configuration: tree) { benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { big, offset, _ in
      big.utf16.index(big.startIndex, offsetBy: offset).utf8Offset
    }
  } setup: { () -> (BigString, [Int], Box<Int>) in
    let string = text(size)
    let offsets = validUTF16Offsets(in: Rope(string), count: offsetCount)
    return (BigString(string), offsets, Box(0))
  }

  Benchmark(name(operation, size, "String"), configuration: tree) { benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { string, offset, _ in
      string.utf8.distance(
        from: string.startIndex, to: String.Index(utf16Offset: offset, in: string))
    }
  } setup: { () -> (String, [Int], Box<Int>) in
    let string = text(size)
    let offsets = validUTF16Offsets(in: Rope(string), count: offsetCount)
    // The first UTF-16 access builds the breadcrumbs: not measured.
    blackHole(String.Index(utf16Offset: string.utf16.count / 2, in: string))
    return (string, offsets, Box(0))
  }

  Benchmark(name(operation, size, "Flat [UInt8]"), configuration: linear) { benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { flat, offset, _ in
      flat.byteOffset(ofUTF16: offset)
    }
  } setup: { () -> (FlatText, [Int], Box<Int>) in
    let string = text(size)
    let offsets = validUTF16Offsets(in: Rope(string), count: offsetCount)
    return (FlatText(Array(string.utf8)), offsets, Box(0))
  }
}

// MARK: Paragraph range

private func registerParagraphPoints(_ size: TextSize) {
  let perLookup = sweepConfiguration(cheap: true, bytes: size.bytes)

  Benchmark(name("paragraph range", size, "Rope"), configuration: perLookup) {
    benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { rope, offset, _ in
      do {
        let paragraph = try rope.paragraph(containing: offset)
        return paragraph.range.lowerBound &+ paragraph.contentsEnd
      } catch { fatalError("\(error)") }
    }
  } setup: { () -> (Rope, [Int], Box<Int>) in
    let rope = Rope(text(size))
    return (rope, validUTF16Offsets(in: rope, count: offsetCount), Box(0))
  }

  Benchmark(name("paragraph range", size, "NSString"), configuration: perLookup) {
    benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { string, offset, _ in
      let range = string.paragraphRange(for: NSRange(location: offset, length: 0))
      return range.location &+ range.length
    }
  } setup: { () -> (NSString, [Int], Box<Int>) in
    let string = text(size)
    let offsets = validUTF16Offsets(in: Rope(string), count: offsetCount)
    return (NSString(string: string), offsets, Box(0))
  }
}

// MARK: Selection context

/// One-character selections (a caret at the very end) at random offsets.
private func oneCharacterSelections(in rope: Rope) -> [Range<Int>] {
  validUTF16Offsets(in: rope, count: offsetCount).map { offset in
    guard let scalar = try? rope.convert(offset, from: .utf16, to: .unicodeScalars),
      let end = try? rope.convert(scalar + 1, from: .unicodeScalars, to: .utf16)
    else { return offset..<offset }
    return offset..<end
  }
}

private func registerSelectionContextPoints(_ size: TextSize) {
  let perContext = sweepConfiguration(cheap: true, bytes: size.bytes)

  Benchmark(name("selection context", size, "DocumentEngine"), configuration: perContext) {
    benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { document, selection, _ in
      do {
        let contexts = try document.contexts(
          for: .userSelection, selection: [SelectionRange("body", selection)])
        return contexts[0].storageRange.lowerBound &+ contexts[0].text.utf8Count
      } catch { fatalError("\(error)") }
    }
  } setup: { () -> (DocumentContent, [Range<Int>], Box<Int>) in
    var document = DocumentContent()
    let rope = Rope(text(size))
    try document.add("body", text: rope)
    return (document, oneCharacterSelections(in: rope), Box(0))
  }

  // The plain way: the paragraphs around the selection found by NSString and
  // their text copied out.
  Benchmark(name("selection context", size, "NSString"), configuration: perContext) {
    benchmark, state in
    runLookups(benchmark, state.0, state.1, state.2) { string, selection, _ in
      let range = string.paragraphRange(
        for: NSRange(location: selection.lowerBound, length: selection.count))
      return range.location &+ string.substring(with: range).utf8.count
    }
  } setup: { () -> (NSString, [Range<Int>], Box<Int>) in
    let string = text(size)
    return (NSString(string: string), oneCharacterSelections(in: Rope(string)), Box(0))
  }
}

// MARK: Memory

private func registerMemoryPoints(_ size: TextSize) {
  let bytes = size.bytes
  let configuration = configuration(
    metrics: [.memoryLeakedBytes, .mallocCountTotal, heapPerMilleOfUTF8],
    timeUnits: .milliseconds, warmupIterations: 0,
    maxDuration: .seconds(bytes >= 100_000_000 ? 20 : 2),
    maxIterations: bytes >= 100_000_000 ? 3 : 10)

  func point<T>(_ structure: String, _ build: @escaping @Sendable (String) -> T) {
    Benchmark(name("memory", size, structure), configuration: configuration) {
      benchmark, state in
      let (text, keep) = state
      measureRetained(benchmark, keep, utf8Count: text.utf8.count) { build(text) }
    } setup: {
      (text(size), Box<T?>(nil))
    }
  }
  point("Rope") { Rope($0) }
  point("BigString") { BigString($0) }
  point("String") { String(decoding: Array($0.utf8), as: UTF8.self) }
  point("Flat [UInt8]") { Array($0.utf8) }
}
