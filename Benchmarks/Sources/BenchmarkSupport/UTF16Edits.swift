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

/// A document with the trace's start in storage `id` and a live
/// `userSelection` session whose context is the whole storage (the selection
/// runs from the paragraph before the trace to the one after it), so that
/// every edit of the trace lands strictly inside it.
public func documentWithLiveContext(_ trace: UTF16Trace, _ id: StorageID) throws -> Document {
  let document = Document()
  try document.add(id, text: Rope(trace.start))
  let length = trace.start.utf16.count
  try document.select([SelectionRange(id, 4..<(length - 4))])
  let contexts = try document.startSession(scope: .userSelection).contexts
  precondition(
    contexts.count == 1 && contexts[0].storageRange == 0..<length,
    "the context is not the whole storage: \(contexts.map(\.storageRange))")
  return document
}
