// FuzzRope: `TextRope.Rope` against a plain model of its text.
//
// The input is a program: how to build the first rope (often from invalid
// UTF-8), then operations with hostile arguments (offsets out of bounds, at
// the extremes, inside surrogate pairs and scalars, between CR and LF;
// invalid UTF-8). Oracles: nothing traps; a call either throws a RopeError
// that names a bound (or byte) that really is bad and leaves the rope as it
// was, or its result matches the model; snapshots never change; the tree's
// own invariants hold (`_invariantCheck()`, compiled in by Fuzz/run.sh).
//
// Inputs whose first byte has its high bit set also keep a `BufferedRope`
// beside the rope: every edit goes to both (and, mostly, where the last one
// left off: typing on, backspaces and forward deletes that merge into the
// buffered edit, CR and LF across its edge), which must throw the same
// errors and hold the same text, counts and conversions; its snapshots
// (taken mid-typing, the buffered one flushed or copied) never change.

import FuzzSupport
import TextRope

/// Every offset from -1 to one past the end in every unit: conversions,
/// paragraph numbers and paragraphs.
func checkAllOffsets(_ rope: Rope, _ model: TextModel) {
  for unit in ModelUnit.allCases {
    for x in -1...(model.count(unit) + 1) {
      checkConversions(rope, model, x, unit, to: .utf16)
      checkParagraph(rope, model, x, unit)
    }
  }
  for n in -1...(model.paragraphCount) {
    checkParagraphStart(rope, model, n, .utf16)
  }
}

/// `utf8Offset(of:in:)`, `offset(ofUTF8:in:)` and `convert(_:from:to:)` at
/// `x`.
func checkConversions(_ rope: Rope, _ model: TextModel, _ x: Int, _ from: ModelUnit, to: ModelUnit)
{
  let expected = model.boundary(x, from)
  do {
    let byte = try rope.utf8Offset(of: x, in: from.rope)
    expect(
      expected.map { model.utf8Bounds[$0] } == byte,
      "utf8Offset(of: \(x), in: \(from)) = \(byte), model \(String(describing: expected))")
  } catch {
    expect(
      expected == nil && error == expectedError(x, from, model),
      "utf8Offset(of: \(x), in: \(from)) threw \(error)")
  }
  let byteIndex = model.boundary(x, .utf8)
  do {
    let offset = try rope.offset(ofUTF8: x, in: to.rope)
    expect(
      byteIndex.map { model.offset(ofBoundary: $0, in: to) } == offset,
      "offset(ofUTF8: \(x), in: \(to)) = \(offset)")
  } catch {
    expect(
      byteIndex == nil && error == expectedError(x, .utf8, model),
      "offset(ofUTF8: \(x), in: \(to)) threw \(error)")
  }
  do {
    let converted = try rope.convert(x, from: from.rope, to: to.rope)
    expect(
      expected.map { model.offset(ofBoundary: $0, in: to) } == converted,
      "convert(\(x), from: \(from), to: \(to)) = \(converted)")
  } catch {
    expect(
      expected == nil && error == expectedError(x, from, model),
      "convert(\(x), from: \(from), to: \(to)) threw \(error)")
  }
}

/// `paragraphNumber(at:in:)` and `paragraph(containing:in:)` at `x`.
func checkParagraph(_ rope: Rope, _ model: TextModel, _ x: Int, _ unit: ModelUnit) {
  let expected = model.boundary(x, unit)
  do {
    let number = try rope.paragraphNumber(at: x, in: unit.rope)
    expect(
      expected.map { model.paragraphNumber(atBoundary: $0) } == number,
      "paragraphNumber(at: \(x), in: \(unit)) = \(number) in \(model.string.debugDescription)")
  } catch {
    expect(
      expected == nil && error == expectedError(x, unit, model),
      "paragraphNumber(at: \(x), in: \(unit)) threw \(error)")
  }
  do {
    let paragraph = try rope.paragraph(containing: x, in: unit.rope)
    guard let expected else {
      oracleFailed("paragraph(containing: \(x), in: \(unit)) answered for a bad offset")
    }
    let p = model.paragraph(atBoundary: expected)
    let range =
      model.offset(
        ofBoundary: p.range.lowerBound, in: unit)..<model.offset(
        ofBoundary: p.range.upperBound, in: unit)
    let contentsEnd = model.offset(ofBoundary: p.contentsEnd, in: unit)
    expect(
      paragraph.range == range && paragraph.contentsEnd == contentsEnd,
      "paragraph(containing: \(x), in: \(unit)) = \(paragraph), model \(range), \(contentsEnd)"
        + " in \(model.string.debugDescription)")
  } catch {
    expect(
      expected == nil && error == expectedError(x, unit, model),
      "paragraph(containing: \(x), in: \(unit)) threw \(error)")
  }
}

/// `paragraphStart(_:in:)` for paragraph `n`.
func checkParagraphStart(_ rope: Rope, _ model: TextModel, _ n: Int, _ unit: ModelUnit) {
  do {
    let start = try rope.paragraphStart(n, in: unit.rope)
    expect(
      n >= 0 && n < model.paragraphCount
        && start == model.offset(ofBoundary: model.paragraphStart(n), in: unit),
      "paragraphStart(\(n), in: \(unit)) = \(start) in \(model.string.debugDescription)")
  } catch {
    expect(
      (n < 0 || n >= model.paragraphCount)
        && error == .paragraphOutOfBounds(number: n, count: model.paragraphCount),
      "paragraphStart(\(n), in: \(unit)) threw \(error)")
  }
}

/// The chunk at `x` and a cursor walk from it: every chunk's start counts and
/// bytes must be the model's.
func checkChunks(
  _ rope: Rope, _ model: TextModel, _ x: Int, _ unit: ModelUnit, preferEarlier: Bool,
  moves: [Bool]
) {
  func checkChunk(_ chunk: RopeChunk, _ start: TextSummary, _ what: String) {
    let from = start.utf8
    let to = from + chunk.utf8.count
    expect(
      !chunk.utf8.isEmpty && from >= 0 && to <= model.utf8.count
        && Array(chunk.utf8) == Array(model.utf8[from..<to]),
      "\(what): chunk bytes at \(from)")
    guard let a = model.boundary(from, .utf8), let b = model.boundary(to, .utf8) else {
      oracleFailed("\(what): chunk \(from)..<\(to) does not start or end on a scalar")
    }
    expect(
      start.utf16 == model.utf16Bounds[a] && start.scalars == a
        && start.paragraphSeparators == model.paragraphNumber(atBoundary: a),
      "\(what): chunk start \(start)")
    expect(
      chunk.summary.utf16 == model.utf16Bounds[b] - model.utf16Bounds[a]
        && chunk.summary.scalars == b - a && chunk.summary.utf8 == to - from,
      "\(what): chunk summary \(chunk.summary)")
    _ = chunk.string
  }
  let found = rope.chunk(at: x, in: unit.rope, preferEarlier: preferEarlier)
  let count = model.count(unit)
  if let (chunk, start) = found {
    checkChunk(chunk, start, "chunk(at: \(x), in: \(unit))")
    if x >= 0 && x <= count {
      let s = start[unit.rope]
      expect(
        s <= x && x <= s + chunk.summary[unit.rope],
        "chunk(at: \(x), in: \(unit)) starts at \(s), \(chunk.summary)")
    }
  } else {
    expect(model.scalars.isEmpty, "chunk(at: \(x), in: \(unit)) is nil in a non-empty rope")
  }
  var cursor = rope.chunkCursor(at: x, in: unit.rope, preferEarlier: preferEarlier)
  var ended = false
  for forward in moves {
    if let chunk = cursor.chunk {
      checkChunk(chunk, cursor.start, "chunkCursor(at: \(x), in: \(unit))")
    }
    let moved = forward ? cursor.moveNext() : cursor.movePrevious()
    if !moved { ended = true }
    if ended { break }
  }
}

/// The buffered rope against the rope holding the same text: counts, and
/// conversions (values and errors) at offsets the input picks.
func checkBuffered(
  _ buffered: BufferedRope, _ rope: Rope, _ model: TextModel, _ input: inout FuzzInput,
  _ what: String
) {
  for unit in ModelUnit.allCases {
    expect(
      buffered.count(in: unit.rope) == model.count(unit), "buffered count(in: \(unit)), \(what)")
    let x = input.offset(length: model.count(unit), interesting: model.interestingOffsets(unit))
    let got = Result { () throws(RopeError) in try buffered.utf8Offset(of: x, in: unit.rope) }
    let wanted = Result { () throws(RopeError) in try rope.utf8Offset(of: x, in: unit.rope) }
    expect(
      got == wanted, "buffered utf8Offset(of: \(x), in: \(unit)) \(got), rope \(wanted), \(what)")
    let y = input.offset(length: model.utf8.count)
    let back = Result { () throws(RopeError) in try buffered.offset(ofUTF8: y, in: unit.rope) }
    let ropeBack = Result { () throws(RopeError) in try rope.offset(ofUTF8: y, in: unit.rope) }
    expect(
      back == ropeBack,
      "buffered offset(ofUTF8: \(y), in: \(unit)) \(back), rope \(ropeBack), \(what)")
  }
  expect(buffered.utf8Count == model.utf8.count, "buffered utf8Count, \(what)")
  if model.utf8.count <= 4096 || input.byte() % 8 == 0 {
    expect(String(buffered) == model.string, "buffered text, \(what)")
  }
}

struct Snapshot {
  let rope: Rope
  let model: TextModel
}

/// The program's entry point (SwiftPM links `main` to `<Module>_main`):
/// libFuzzer's driver, testing `fuzz`.
@_cdecl("FuzzRope_main")
public func entry(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  runFuzzer(argc, argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  var rope: Rope
  var model: TextModel

  // The first rope, by one of the ways to make one.
  let first = input.byte()
  switch first % 4 {
  case 0:
    // From bytes: invalid exactly when the standard library says so.
    let bytes = input.maybeInvalidUTF8(maxPieces: 40)
    let valid = String(validating: bytes, as: UTF8.self)
    do {
      rope = try Rope(validating: bytes)
      guard let valid else { oracleFailed("Rope(validating: \(bytes)) accepted invalid UTF-8") }
      model = TextModel(valid)
    } catch {
      expect(
        valid == nil && error == .invalidUTF8(byteOffset: firstInvalidUTF8Offset(bytes) ?? -1),
        "Rope(validating: \(bytes)) threw \(error)")
      // The same bytes through a sequence that is not contiguous.
      do {
        _ = try Rope(validating: bytes.lazy.map { $0 })
        oracleFailed("Rope(validating:) of a lazy sequence accepted invalid UTF-8")
      } catch {
        expect(
          error == .invalidUTF8(byteOffset: firstInvalidUTF8Offset(bytes) ?? -1),
          "Rope(validating:) of a lazy sequence threw \(error)")
      }
      model = TextModel(String(decoding: bytes, as: UTF8.self))
      rope = Rope(model.string)
    }
  case 1:
    // Pieces joined with chunk boundaries kept between them.
    rope = Rope()
    var text = ""
    for _ in 0..<input.int(below: 12) {
      let piece = input.text(maxPieces: 6)
      rope = input.bool() ? Rope._keepingChunkBoundary(rope, Rope(piece)) : rope + Rope(piece)
      text += piece
    }
    model = TextModel(text)
  case 2:
    model = TextModel(input.text(maxPieces: 60))
    rope = Rope(model.string)
  default:
    rope = Rope()
    model = TextModel()
  }
  check(rope, model, "initial rope")
  let buffering = first & 0x80 != 0
  var buffered = BufferedRope(rope)
  // Where the last edit left off, as a scalar boundary of the model.
  var cursor = 0

  var snapshots: [Snapshot] = []
  var steps = 0
  // The text can double at every step (a slice or a snapshot of it spliced
  // back in): past 64 KB a run stops, so that no input outgrows the
  // timeout with the model's and the invariants' whole-text checks.
  while !input.isExhausted && steps < 200 && rope.utf8Count < 65_536 {
    steps += 1
    let before = rope
    let op = input.byte() % 16
    switch op {
    case 0, 1, 2, 3:
      // replace / insert / delete with a String, in any unit.
      let unit = op == 0 ? ModelUnit.utf16 : input.unit()
      var range = input.range(
        length: model.count(unit), interesting: model.interestingOffsets(unit))
      if buffering && input.byte() % 4 != 0 {
        // Where the last edit left off: typing on, or a few units back or
        // forward (inside a surrogate pair or a scalar at times).
        let at = model.offset(ofBoundary: min(cursor, model.scalars.count), in: unit)
        let k = input.int(below: 5)
        switch input.byte() % 3 {
        case 0: range = at..<at
        case 1: range = max(0, at - k)..<at
        default: range = at..<(at + k)
        }
      }
      let text: String
      switch op {
      case 2: text = ""
      default: text = input.text(maxPieces: op == 3 ? 80 : 8)
      }
      let call = input.byte() % 3
      let isInsert = op == 1 && call == 0
      let isDelete = op == 2 && call == 0
      let target = isInsert ? range.lowerBound..<range.lowerBound : range
      let what = "replace(\(target), in: \(unit), with: \(text.debugDescription))"
      do {
        if isInsert {
          try rope.insert(text, at: target.lowerBound, in: unit.rope)
        } else if isDelete {
          try rope.delete(target, in: unit.rope)
        } else {
          try rope.replace(target, in: unit.rope, with: text)
        }
        guard let a = model.boundary(target.lowerBound, unit),
          let b = model.boundary(target.upperBound, unit)
        else { oracleFailed("\(what) accepted a bad range in \(model.string.debugDescription)") }
        model.replace(scalarRange: a..<b, with: text)
        cursor = a + text.unicodeScalars.count
      } catch {
        expect(
          isValidError(error, [target.lowerBound, target.upperBound], unit, model),
          "\(what) threw \(error)")
        expect(rope == before, "\(what) threw but changed the rope")
        trace("\(what) threw \(error)")
      }
      if buffering {
        let wanted = Result { () throws(RopeError) in
          var copy = before
          try copy.replace(target, in: unit.rope, with: text)
        }
        let got = Result { () throws(RopeError) in
          if isInsert {
            try buffered.insert(text, at: target.lowerBound, in: unit.rope)
          } else if isDelete {
            try buffered.delete(target, in: unit.rope)
          } else {
            try buffered.replace(target, in: unit.rope, with: text)
          }
        }
        switch (got, wanted) {
        case (.success, .success): break
        case (.failure(let error), .failure(let expected)):
          expect(error == expected, "buffered \(what) threw \(error), the rope \(expected)")
        default:
          oracleFailed("buffered \(what): \(got), the rope: \(wanted)")
        }
      }
      check(rope, model, what)
    case 4:
      // replace(withUTF8:): bytes that are often invalid.
      let unit = input.unit()
      let range = input.range(
        length: model.count(unit), interesting: model.interestingOffsets(unit))
      let bytes = input.maybeInvalidUTF8(maxPieces: 8)
      let invalid = firstInvalidUTF8Offset(bytes)
      let what = "replace(\(range), in: \(unit), withUTF8: \(bytes))"
      do {
        if input.bool() {
          try rope.replace(range, in: unit.rope, withUTF8: bytes)
        } else {
          try rope.replace(range, in: unit.rope, withUTF8: bytes.lazy.map { $0 })
        }
        guard invalid == nil, let a = model.boundary(range.lowerBound, unit),
          let b = model.boundary(range.upperBound, unit)
        else { oracleFailed("\(what) accepted bad input") }
        model.replace(scalarRange: a..<b, with: String(decoding: bytes, as: UTF8.self))
      } catch {
        expect(
          isValidError(error, [range.lowerBound, range.upperBound], unit, model)
            || (invalid != nil && error == .invalidUTF8(byteOffset: invalid ?? -1)),
          "\(what) threw \(error)")
        expect(rope == before, "\(what) threw but changed the rope")
        trace("\(what) threw \(error)")
      }
      check(rope, model, what)
    case 5:
      // replace(with: Rope): a rope of new text, a slice of this one, or a
      // snapshot.
      let unit = input.unit()
      let range = input.range(
        length: model.count(unit), interesting: model.interestingOffsets(unit))
      var other: Rope
      var otherText: String
      switch input.byte() % 3 {
      case 0 where !snapshots.isEmpty:
        let snapshot = input.pick(snapshots)
        (other, otherText) = (snapshot.rope, snapshot.model.string)
      case 1:
        let a = input.int(below: model.scalars.count + 1)
        let b = a + input.int(below: model.scalars.count - a + 1)
        other =
          (try? rope.slice(model.utf16Bounds[a]..<model.utf16Bounds[b])) ?? Rope("SLICE FAILED")
        otherText = model.slice(scalarRange: a..<b).string
      default:
        otherText = input.text(maxPieces: 30)
        other = Rope(otherText)
      }
      let what = "replace(\(range), in: \(unit), with: Rope(\(otherText.debugDescription)))"
      do {
        try rope.replace(range, in: unit.rope, with: other)
        guard let a = model.boundary(range.lowerBound, unit),
          let b = model.boundary(range.upperBound, unit)
        else { oracleFailed("\(what) accepted a bad range") }
        model.replace(scalarRange: a..<b, with: otherText)
      } catch {
        expect(
          isValidError(error, [range.lowerBound, range.upperBound], unit, model),
          "\(what) threw \(error)")
        expect(rope == before, "\(what) threw but changed the rope")
        trace("\(what) threw \(error)")
      }
      check(rope, model, what)
      check(other, TextModel(otherText), "the rope spliced in by \(what)")
    case 6:
      let text = input.text(maxPieces: 20)
      rope.append(text)
      model.replace(scalarRange: model.scalars.count..<model.scalars.count, with: text)
      check(rope, model, "append(\(text.debugDescription))")
    case 7:
      // Joining ropes: append, +, with a chunk boundary kept; either side.
      let text = input.text(maxPieces: 20)
      let other = Rope(text)
      switch input.byte() % 4 {
      case 0:
        rope.append(other)
        model.replace(scalarRange: model.scalars.count..<model.scalars.count, with: text)
      case 1:
        rope = other + rope
        model.replace(scalarRange: 0..<0, with: text)
      case 2:
        rope = Rope._keepingChunkBoundary(rope, other)
        model.replace(scalarRange: model.scalars.count..<model.scalars.count, with: text)
      default:
        rope = Rope._keepingChunkBoundary(other, rope)
        model.replace(scalarRange: 0..<0, with: text)
      }
      check(rope, model, "joining \(text.debugDescription)")
    case 8:
      // Slicing, and sometimes keeping only the slice.
      let unit = input.unit()
      let range = input.range(
        length: model.count(unit), interesting: model.interestingOffsets(unit))
      let what = "slice(\(range), in: \(unit))"
      do {
        let slice = try rope.slice(range, in: unit.rope)
        guard let a = model.boundary(range.lowerBound, unit),
          let b = model.boundary(range.upperBound, unit)
        else { oracleFailed("\(what) accepted a bad range") }
        let sliced = model.slice(scalarRange: a..<b)
        check(slice, sliced, what)
        if input.bool() {
          rope = slice
          model = sliced
        }
      } catch {
        expect(
          isValidError(error, [range.lowerBound, range.upperBound], unit, model),
          "\(what) threw \(error)")
      }
      do {
        let bytes = try rope.utf8Range(of: range, in: unit.rope)
        guard let a = model.boundary(range.lowerBound, unit),
          let b = model.boundary(range.upperBound, unit)
        else { oracleFailed("utf8Range(of: \(range), in: \(unit)) accepted a bad range") }
        expect(
          bytes == model.utf8Bounds[a]..<model.utf8Bounds[b],
          "utf8Range(of: \(range), in: \(unit)) = \(bytes)")
      } catch {
        expect(
          isValidError(error, [range.lowerBound, range.upperBound], unit, model),
          "utf8Range(of: \(range), in: \(unit)) threw \(error)")
      }
    case 9:
      let from = input.unit()
      let x = input.offset(length: model.count(from), interesting: model.interestingOffsets(from))
      checkConversions(rope, model, x, from, to: input.unit())
    case 10:
      let unit = input.unit()
      let x = input.offset(length: model.count(unit), interesting: model.interestingOffsets(unit))
      checkParagraph(rope, model, x, unit)
      let n = input.offset(length: model.paragraphCount)
      checkParagraphStart(rope, model, n, unit)
    case 11:
      let unit = input.unit()
      let x = input.offset(length: model.count(unit), interesting: model.interestingOffsets(unit))
      let preferEarlier = input.bool()
      let moves = (0..<input.int(below: 8)).map { _ in input.bool() }
      checkChunks(rope, model, x, unit, preferEarlier: preferEarlier, moves: moves)
    case 12:
      if snapshots.count < 6 { snapshots.append(Snapshot(rope: rope, model: model)) }
      if buffering && snapshots.count < 6 {
        // Mid-typing: the buffered edit flushed, or a copy's.
        if input.bool() {
          snapshots.append(Snapshot(rope: buffered.flushed(), model: model))
        } else {
          var copy = buffered
          snapshots.append(Snapshot(rope: copy.flushed(), model: model))
        }
      }
    case 13:
      // Equality and hashing: independent of chunking.
      let same = Rope(model.string)
      expect(rope == same && same == rope, "== with a fresh rope of the same text")
      expect(rope.hashValue == same.hashValue, "hash differs from a fresh rope of the same text")
      let different = Rope(model.string + input.text(maxPieces: 2))
      expect(
        (rope == different) == (model.string.utf8.count == String(different).utf8.count),
        "== with a longer text")
      _ = rope.description
      _ = rope.debugDescription
      var bytes: [UInt8] = []
      for chunk in rope.chunks { bytes += chunk.utf8 }
      expect(bytes == model.utf8, "chunks")
    case 14:
      if model.utf16.count <= 400 { checkAllOffsets(rope, model) }
    default:
      // Several conversions of offsets in every unit, cheaply.
      for unit in ModelUnit.allCases {
        let x = input.offset(length: model.count(unit), interesting: model.interestingOffsets(unit))
        checkConversions(rope, model, x, unit, to: input.unit())
      }
    }
    if buffering {
      if op >= 4 && op <= 8 {
        // The rope was made anew: the buffered one starts over from it.
        buffered = BufferedRope(rope)
        cursor = min(cursor, model.scalars.count)
      }
      checkBuffered(buffered, rope, model, &input, "after operation \(op)")
    }
  }
  for snapshot in snapshots {
    check(snapshot.rope, snapshot.model, "a snapshot")
  }
  return 0
}
