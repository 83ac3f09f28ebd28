import TextRope

/// `text` as a rope whose chunks end at the given scalar offsets (sorted,
/// within `0...scalar count`): boundaries that queries must find across
/// chunks, whatever the rope's own chunking would do.
public func chunkedRope(_ text: String, cutAtScalars cuts: [Int]) -> Rope {
  let scalars = Array(text.unicodeScalars)
  var rope = Rope()
  var start = 0
  for cut in cuts + [scalars.count] {
    var piece = String.UnicodeScalarView()
    piece.append(contentsOf: scalars[start..<cut])
    rope = Rope._keepingChunkBoundary(rope, Rope(String(piece)))
    start = cut
  }
  return rope
}
