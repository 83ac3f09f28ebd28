import DocumentEngine
import TextRope

// Making a trace's edits as UTF-16 ranges (`UTF16Trace`) in each structure:
// one loop per structure, shared by the benchmarks that set the document
// engine beside the rope. An edit that is refused is a harness bug: it
// traps.

/// Makes the edits in a rope.
public func applyEdits(_ trace: UTF16Trace, to rope: inout Rope) {
  do {
    for i in 0..<trace.ranges.count {
      try rope.replace(trace.ranges[i], with: trace.inserts[i])
    }
  } catch {
    fatalError("\(trace.name): an edit failed on the rope: \(error)")
  }
}

/// Makes the edits in storage `id` of a `DocumentContent` (each one
/// versioned and recorded in the storage's change log).
public func applyEdits(
  _ trace: UTF16Trace, to content: inout DocumentContent, storage id: StorageID
) {
  do {
    for i in 0..<trace.ranges.count {
      try content.edit(id, range: trace.ranges[i], with: trace.inserts[i])
    }
  } catch {
    fatalError("\(trace.name): an edit failed on the document content: \(error)")
  }
}

/// Makes the edits in storage `id` of a `Document`, as the person: one
/// `edit(_:range:with:)` a keystroke, each under the document's lock, with
/// whatever the document keeps up to date (live contexts and their events,
/// the selection).
public func applyEdits(_ trace: UTF16Trace, to document: Document, storage id: StorageID) {
  do {
    for i in 0..<trace.ranges.count {
      try document.edit(id, range: trace.ranges[i], with: trace.inserts[i])
    }
  } catch {
    fatalError("\(trace.name): an edit failed on the document: \(error)")
  }
}
