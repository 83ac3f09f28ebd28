/// What a key asks the editor to do.
public enum EditorCommand: Hashable, Sendable {
  /// Types text (a key's character, or a paste) over the selection.
  case insert(String)
  /// Deletes the selection, or the grapheme cluster before the caret.
  case deleteBackward
  /// Deletes the selection, or the grapheme cluster after the caret.
  case deleteForward
  /// Moves the caret; `extend` moves only the head, selecting.
  case move(Motion, extend: Bool)
  /// Undoes the person's last group (the document's history).
  case undo
  /// Redoes the group undone last.
  case redo
  /// Makes the selection strong (bold), or plain again if it all is.
  case strong
  /// Saves every modified cell to its file.
  case save
  /// Quits (asks once when there are unsaved changes).
  case quit
  /// Goes to the next suggestion.
  case nextSuggestion
  /// Previews the next candidate of the current suggestion in place.
  case previewNextCandidate
  /// Accepts the current suggestion.
  case acceptSuggestion
  /// Ignores (rejects) the current suggestion.
  case ignoreSuggestion
  /// Runs the writing tool on the selection's paragraphs.
  case runTool
}

/// How the caret moves.
public enum Motion: Hashable, Sendable, CaseIterable {
  /// One grapheme cluster back (into the previous cell at a cell's start).
  case left
  /// One grapheme cluster on (into the next cell at a cell's end).
  case right
  /// One screen line up, to the goal column.
  case up
  /// One screen line down, to the goal column.
  case down
  /// To the start of the word before (ICU word boundaries).
  case wordLeft
  /// To the end of the word after.
  case wordRight
  /// To the start of the screen line.
  case lineStart
  /// To the end of the screen line.
  case lineEnd
  /// To the start of the paragraph.
  case paragraphStart
  /// To the end of the paragraph (before its separator).
  case paragraphEnd
  /// A screen up.
  case pageUp
  /// A screen down.
  case pageDown
  /// To the start of the notebook.
  case notebookStart
  /// To the end of the notebook.
  case notebookEnd
}

/// What the program does after a command.
public enum EditorOutcome: Hashable, Sendable {
  /// Go on.
  case handled
  /// Quit.
  case quit
}
