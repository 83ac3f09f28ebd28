// FuzzGraphemes: `TextBoundaries.GraphemeClusters` over a rope against the
// system ICU called directly on the same UTF-16 text.
//
// The input builds a text out of pieces that stress grapheme rules (runs of
// regional indicators, emoji ZWJ and modifier sequences, combining marks,
// CR LF, Hangul, Indic), cut into chunks in many ways (the engine's ICU
// reads the rope chunk by chunk; Fuzz/run.sh builds with 8-byte chunks), then
// queries it with hostile offsets and ranges. Oracles: every answer is
// ICU's on the flat text (all boundaries, isBoundary, following, preceding,
// snapped ranges); a bad offset is a thrown `.invalidOffset` naming it,
// never a trap.

import CReferenceICU
import FuzzSupport
import TextBoundaries
import TextRope

/// ICU's boundaries of the text, asked directly.
struct Reference {
  let boundaries: [Int]
  let breaker: OpaquePointer

  init(_ utf16: [UInt16]) {
    var message = [CChar](repeating: 0, count: 512)
    guard reference_icu_load(&message, message.count) else {
      let text = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      oracleFailed("the reference ICU does not load: \(String(decoding: text, as: UTF8.self))")
    }
    guard
      let breaker = utf16.withUnsafeBufferPointer({
        reference_breaker_open($0.baseAddress, Int32($0.count))
      })
    else { oracleFailed("the reference ICU cannot open an iterator") }
    self.breaker = breaker
    var all = [Int(reference_breaker_first(breaker))]
    while true {
      let next = reference_breaker_next(breaker)
      if next < 0 { break }
      all.append(Int(next))
    }
    boundaries = all
  }

  func close() { reference_breaker_close(breaker) }

  func isBoundary(_ offset: Int) -> Bool {
    reference_breaker_is_boundary(breaker, Int32(offset))
  }

  func following(_ offset: Int) -> Int? {
    let result = reference_breaker_following(breaker, Int32(offset))
    return result < 0 ? nil : Int(result)
  }

  func preceding(_ offset: Int) -> Int? {
    let result = reference_breaker_preceding(breaker, Int32(offset))
    return result < 0 ? nil : Int(result)
  }
}

/// Whether `error` is the error for one of the bad `bounds`.
func isValid(_ error: BoundaryError, _ bounds: [Int], _ model: TextModel) -> Bool {
  guard case .invalidOffset(let ropeError) = error else { return false }
  return isValidError(ropeError, bounds, .utf16, model)
}

/// Text for grapheme rules: the usual nasty pieces, and runs of one piece
/// (regional indicators, ZWJ chains, combining marks, …).
func graphemeText(_ input: inout FuzzInput) -> [String] {
  var pieces: [String] = []
  for _ in 0..<input.int(below: 16) {
    if input.byte() % 4 == 0 {
      let runs = [
        "\u{1F1E6}", "\u{1F1EB}\u{1F1F7}", "\u{301}", "\u{200D}", "👨\u{200D}", "\u{FE0F}",
        "\u{1F3FD}", "\u{1100}", "\u{1161}", "\u{11A8}", "\r\n", "\r", "\u{94D}", "\u{E0067}",
      ]
      let piece = input.pick(runs)
      pieces.append(String(repeating: piece, count: 1 + input.int(below: 40)))
    } else {
      pieces.append(input.text(maxPieces: 6))
    }
  }
  return pieces
}

/// Checks every query of `clusters` that `input` asks for against ICU.
func query(
  _ clusters: GraphemeClusters, _ model: TextModel, _ reference: Reference,
  _ input: inout FuzzInput
) {
  let length = model.utf16.count
  let all = reference.boundaries
  expect(
    all.first == 0 && all.last == length,
    "ICU's boundaries \(all) do not run from 0 to \(length)")
  var interesting = model.interestingOffsets(.utf16)
  interesting += all.prefix(16)
  let boundarySet = Set(all)
  for _ in 0..<input.int(below: 24) {
    let op = input.byte() % 8
    switch op {
    case 0, 1:
      let range = input.range(length: length, interesting: interesting)
      do {
        var visited: [Int] = []
        let found: [Int]
        if op == 0 {
          found = try clusters.boundaries(in: range)
        } else {
          try clusters.forEachBoundary(in: range) { visited.append($0) }
          found = visited
        }
        trace("boundaries(in: \(range)) = \(found)")
        guard model.boundary(range.lowerBound, .utf16) != nil,
          model.boundary(range.upperBound, .utf16) != nil
        else { oracleFailed("boundaries(in: \(range)) answered for a bad range") }
        let expected = all.filter { range.contains($0) || $0 == range.upperBound }
        expect(
          found == expected,
          "boundaries(in: \(range)) = \(found), ICU \(expected) in "
            + model.string.unicodeScalars.map { String($0.value, radix: 16) }.description)
      } catch {
        trace("boundaries(in: \(range)) threw \(error)")
        expect(
          isValid(error, [range.lowerBound, range.upperBound], model),
          "boundaries(in: \(range)) threw \(error)")
      }
    case 2:
      let x = input.offset(length: length, interesting: interesting)
      do {
        let answer = try clusters.isBoundary(x)
        trace("isBoundary(\(x)) = \(answer)")
        guard model.boundary(x, .utf16) != nil else {
          oracleFailed("isBoundary(\(x)) answered for a bad offset")
        }
        expect(
          answer == boundarySet.contains(x) && answer == reference.isBoundary(x),
          "isBoundary(\(x)) = \(answer), ICU \(reference.isBoundary(x)), all \(all)")
      } catch {
        trace("isBoundary(\(x)) threw \(error)")
        expect(isValid(error, [x], model), "isBoundary(\(x)) threw \(error)")
      }
    case 3:
      let x = input.offset(length: length, interesting: interesting)
      do {
        let answer = try clusters.boundary(after: x)
        trace("boundary(after: \(x)) = \(String(describing: answer))")
        guard model.boundary(x, .utf16) != nil else {
          oracleFailed("boundary(after: \(x)) answered for a bad offset")
        }
        let expected = all.first { $0 > x }
        expect(
          answer == expected && answer == reference.following(x),
          "boundary(after: \(x)) = \(String(describing: answer)), ICU"
            + " \(String(describing: reference.following(x))), all \(all)")
      } catch {
        trace("boundary(after: \(x)) threw \(error)")
        expect(isValid(error, [x], model), "boundary(after: \(x)) threw \(error)")
      }
    case 4:
      let x = input.offset(length: length, interesting: interesting)
      do {
        let answer = try clusters.boundary(before: x)
        trace("boundary(before: \(x)) = \(String(describing: answer))")
        guard model.boundary(x, .utf16) != nil else {
          oracleFailed("boundary(before: \(x)) answered for a bad offset")
        }
        let expected = all.last { $0 < x }
        expect(
          answer == expected && answer == reference.preceding(x),
          "boundary(before: \(x)) = \(String(describing: answer)), ICU"
            + " \(String(describing: reference.preceding(x))), all \(all)")
      } catch {
        trace("boundary(before: \(x)) threw \(error)")
        expect(isValid(error, [x], model), "boundary(before: \(x)) threw \(error)")
      }
    case 5:
      let range = input.range(length: length, interesting: interesting)
      do {
        let answer = try clusters.snappedOutward(range)
        trace("snappedOutward(\(range)) = \(answer)")
        guard model.boundary(range.lowerBound, .utf16) != nil,
          model.boundary(range.upperBound, .utf16) != nil
        else { oracleFailed("snappedOutward(\(range)) answered for a bad range") }
        let lower = all.last { $0 <= range.lowerBound } ?? 0
        let upper = all.first { $0 >= range.upperBound } ?? length
        expect(
          answer == lower..<upper, "snappedOutward(\(range)) = \(answer), ICU \(lower..<upper)")
      } catch {
        trace("snappedOutward(\(range)) threw \(error)")
        expect(
          isValid(error, [range.lowerBound, range.upperBound], model),
          "snappedOutward(\(range)) threw \(error)")
      }
    case 6:
      let range = input.range(length: length, interesting: interesting)
      do {
        let answer = try clusters.snappedInward(range)
        trace("snappedInward(\(range)) = \(answer)")
        guard model.boundary(range.lowerBound, .utf16) != nil,
          model.boundary(range.upperBound, .utf16) != nil
        else { oracleFailed("snappedInward(\(range)) answered for a bad range") }
        let lower = all.first { $0 >= range.lowerBound } ?? length
        let upper = all.last { $0 <= range.upperBound } ?? 0
        expect(
          answer == lower..<max(lower, upper),
          "snappedInward(\(range)) = \(answer), ICU \(lower..<max(lower, upper))")
      } catch {
        trace("snappedInward(\(range)) threw \(error)")
        expect(
          isValid(error, [range.lowerBound, range.upperBound], model),
          "snappedInward(\(range)) threw \(error)")
      }
    default:
      // Every boundary of the whole text, and a walk with boundary(after:).
      do {
        let found = try clusters.boundaries(in: 0..<length)
        expect(found == all, "boundaries of the whole text = \(found), ICU \(all)")
        var walk = [0]
        while let next = try clusters.boundary(after: walk[walk.count - 1]) { walk.append(next) }
        expect(walk == all, "walking boundary(after:) = \(walk), ICU \(all)")
        var back = [length]
        while let previous = try clusters.boundary(before: back[back.count - 1]) {
          back.append(previous)
        }
        expect(back.reversed() == all, "walking boundary(before:) = \(back), ICU \(all)")
      } catch {
        oracleFailed("a walk over valid boundaries threw \(error)")
      }
    }
  }
}

/// The program's entry point (SwiftPM links `main` to `<Module>_main`):
/// libFuzzer's driver, testing `fuzz`.
@_cdecl("FuzzGraphemes_main")
public func entry(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  runFuzzer(argc, argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  // The text, with chunk boundaries kept between its pieces or not.
  let keep = input.byte()
  let pieces = graphemeText(&input)
  var rope = Rope()
  var text = ""
  for (i, piece) in pieces.enumerated() {
    let keepsBoundary = (keep >> (i % 8)) & 1 == 1
    rope = keepsBoundary ? Rope._keepingChunkBoundary(rope, Rope(piece)) : rope + Rope(piece)
    text += piece
  }
  var model = TextModel(text)
  check(rope, model, "the text")
  trace("text: \(model.string.debugDescription)")
  var rounds = 0
  repeat {
    rounds += 1
    let reference = Reference(model.utf16)
    defer { reference.close() }
    let clusters = input.bool() ? GraphemeClusters(rope) : rope.graphemeClusters
    query(clusters, model, reference, &input)
    // Edit the text at scalar boundaries and ask again.
    let a = input.int(below: model.scalars.count + 1)
    let b = a + input.int(below: min(8, model.scalars.count - a) + 1)
    let piece = graphemeText(&input).joined()
    do {
      try rope.replace(model.utf16Bounds[a]..<model.utf16Bounds[b], with: piece)
    } catch {
      oracleFailed("replacing scalars \(a)..<\(b) threw \(error)")
    }
    model.replace(scalarRange: a..<b, with: piece)
    check(rope, model, "an edit")
    trace("text: \(model.string.debugDescription)")
  } while !input.isExhausted && rounds < 8
  return 0
}
