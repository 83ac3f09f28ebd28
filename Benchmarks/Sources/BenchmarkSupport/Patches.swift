import TextRope

import struct _RopeModule.BigString

// Replaying a trace's patches (positions in Unicode scalars) into each
// structure: one loop per structure, shared by the benchmark suite and
// TraceReplay. A patch that does not apply is a harness bug: it traps.

/// Applies patches to a rope.
public func applyPatches(
  _ positions: [Int], _ deletes: [Int], _ inserts: [String], to rope: inout Rope, trace: String
) {
  for i in 0..<positions.count {
    let position = positions[i]
    do {
      try rope.replace(position..<position + deletes[i], in: .unicodeScalars, with: inserts[i])
    } catch {
      fatalError("\(trace): patch \(i) failed on the rope: \(error)")
    }
  }
}

/// Applies patches to a `BufferedRope` (the buffered edit is left
/// waiting: the caller flushes it inside its clock).
public func applyPatches(
  _ positions: [Int], _ deletes: [Int], _ inserts: [String], to buffered: inout BufferedRope,
  trace: String
) {
  for i in 0..<positions.count {
    let position = positions[i]
    do {
      try buffered.replace(
        position..<position + deletes[i], in: .unicodeScalars, with: inserts[i])
    } catch {
      fatalError("\(trace): patch \(i) failed on the buffered rope: \(error)")
    }
  }
}

/// Applies patches to a `BigString`.
public func applyPatches(
  _ positions: [Int], _ deletes: [Int], _ inserts: [String], to big: inout BigString
) {
  for i in 0..<positions.count {
    // No view of `big` may outlive the index computation: a second
    // reference would make the mutation below copy the tree's nodes.
    let lower = big.unicodeScalars.index(big.startIndex, offsetBy: positions[i])
    let insert = inserts[i]
    if deletes[i] == 0 {
      big.unicodeScalars.insert(contentsOf: insert.unicodeScalars, at: lower)
    } else {
      let upper = big.unicodeScalars.index(lower, offsetBy: deletes[i])
      if insert.isEmpty {
        big.unicodeScalars.removeSubrange(lower..<upper)
      } else {
        big.unicodeScalars.replaceSubrange(lower..<upper, with: insert.unicodeScalars)
      }
    }
  }
}

/// Applies patches (inserts as UTF-8) to the flat buffer.
public func applyPatches(
  _ positions: [Int], _ deletes: [Int], _ inserts: [[UInt8]], to flat: inout FlatText
) {
  for i in 0..<positions.count {
    flat.replace(scalarPosition: positions[i], deleteCount: deletes[i], with: inserts[i])
  }
}
