// Uses the engine's ICU and Foundation's ICU in one process, so that a test
// can run it under LD_DEBUG=bindings and see which library each one binds to.
import Foundation
import TextBoundaries
import TextRope

let clusters = GraphemeClusters(Rope("e\u{301}👨‍👩‍👧 🇫🇷"))
let engine = try clusters.boundaries(in: 0..<clusters.rope.utf16Count)
let foundation = "istanbul straße".uppercased(with: Locale(identifier: "tr_TR"))
let paragraph = ("a\r\nb" as NSString).paragraphRange(for: NSRange(location: 1, length: 0))
print("engine ICU \(SystemICU.version) at \(SystemICU.libraryPath): \(engine)")
print("Foundation: \(foundation) \(paragraph)")
