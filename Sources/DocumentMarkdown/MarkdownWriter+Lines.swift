import DocumentEngine

extension _MarkdownWriter {
  /// An open container (a quote, a list, a list item) of the lines being
  /// written. Its prefixes are not its own arrays but ranges of the shared
  /// buffers: `prefix[..<prefixEnd]` is what every later line starts with
  /// through this container, `markers[..<markerEnd]` the markers that the
  /// first line writes for the containers not yet written, through this
  /// one.
  struct Level {
    var component: PresentationIntent.Component
    /// A list's bullet or delimiter, to pick another for a list right
    /// after (0 for a quote or an item).
    var listMark: UInt8
    /// How many bulleted lists are open, this one included: bullets
    /// alternate with it.
    var bulletedLists: Int32
    var prefixEnd: Int32
    /// `prefixEnd` without the trailing spaces: a blank line's prefix.
    var blankEnd: Int32
    var markerEnd: Int32
    /// Whether the container's marker goes alone on its first line (a
    /// list item whose content keeps its indentation).
    var markerAlone: Bool

    /// Whether a blank line ends the container (a quote: a line without
    /// its `>`), where a list or an item goes on over it.
    var endsAtBlankLine: Bool { component.kind == .blockQuote }
  }

  /// Where the prefix through the level at `depth` ends (0 for none).
  func prefixEnd(through depth: Int) -> Int {
    depth >= 0 ? Int(levels[depth].prefixEnd) : 0
  }

  /// Opens the container `component` inside the innermost open one;
  /// `previousMark` is the bullet or delimiter of a list of the same kind
  /// that just closed at this depth (0 if none), `width` the least width
  /// of a list item's marker (its content's indentation).
  ///
  /// A list item's content starts where its first line's text does, so an
  /// item whose first line keeps its indentation (`markerAlone`: it
  /// starts with a space, as an HTML block's may) has its marker alone on
  /// a line, and its content one column past the marker, whatever the
  /// width.
  ///
  /// A task list item's box follows its marker when `boxFollows` (its
  /// first block is a paragraph or a header right inside it).
  mutating func push(
    _ component: PresentationIntent.Component, after previousMark: UInt8, width: Int,
    markerAlone: Bool, boxFollows: Bool = false
  ) {
    let parent = levels.last
    let prefixStart = prefix.count
    var level = Level(
      component: component, listMark: 0, bulletedLists: parent?.bulletedLists ?? 0,
      prefixEnd: 0, blankEnd: parent?.blankEnd ?? 0, markerEnd: 0, markerAlone: false)
    switch component.kind {
    case .blockQuote:
      markers.append(contentsOf: "> ".utf8)
      prefix.append(contentsOf: "> ".utf8)
      level.blankEnd = Int32(prefixStart + 1)
    case .unorderedList:
      // Bullets alternate with depth, so that a line of bullets alone
      // (`- * -`) is never a thematic break; a list right after one of its
      // kind takes `+`.
      // (The file's own bullet first, when it keeps its source.)
      let bullet = level.bulletedLists % 2 == 0 ? style.bullets.0 : style.bullets.1
      level.listMark = previousMark == bullet ? style.bullets.2 : bullet
      level.bulletedLists += 1
    case .orderedList:
      let delimiter = style.delimiters
      level.listMark = previousMark == delimiter.0 ? delimiter.1 : delimiter.0
    case .listItem(let ordinal):
      let markerStart = markers.count
      if let parent, parent.component.kind == .orderedList {
        markers.append(contentsOf: String(min(max(ordinal, 0), 999_999_999)).utf8)
        markers.append(parent.listMark)
      } else {
        markers.append(parent?.listMark ?? UInt8(ascii: "-"))
      }
      markers.append(UInt8(ascii: " "))
      let marker = markers.count - markerStart
      while markers.count - markerStart < width { markers.append(UInt8(ascii: " ")) }
      level.markerAlone = markerAlone
      let indentation = markerAlone ? marker : markers.count - markerStart
      prefix.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indentation))
      if let checked = component.isChecked, boxFollows, !markerAlone {
        markers.append(contentsOf: (checked ? "[x] " : "[ ] ").utf8)
      }
    case .footnoteDefinition(let label):
      // `[^label]: ` on its first line, four spaces on the others (where
      // cmark-gfm looks for a definition's content).
      markers.append(contentsOf: "[^\(label)]: ".utf8)
      prefix.append(contentsOf: "    ".utf8)
    default:
      break
    }
    level.prefixEnd = Int32(prefix.count)
    level.markerEnd = Int32(markers.count)
    levels.append(level)
  }

  /// Closes the containers past the first `count`.
  mutating func pop(to count: Int) {
    guard count < levels.count else { return }
    prefix.removeLast(prefix.count - prefixEnd(through: count - 1))
    if count <= firstPending {
      markers.removeAll(keepingCapacity: true)
      firstPending = count
    } else {
      markers.removeLast(markers.count - Int(levels[count - 1].markerEnd))
    }
    levels.removeLast(levels.count - count)
  }

  // MARK: - Lines

  /// Starts a line: with the prefixes of the containers it is in (the
  /// markers of those whose first line it is, on a line of their own if
  /// the innermost is `markerAlone`; the continuations of the others), or,
  /// for a paragraph's lazy line, none. The only code that writes
  /// prefixes.
  mutating func beginLine(_ start: LineStart = .normal) {
    lineIsLazy = start == .lazy
    lineStart = output.count
    contentStart = output.count
    guard !lineIsLazy else { return }
    if firstPending < levels.count {
      output.append(contentsOf: prefix[..<prefixEnd(through: firstPending - 1)])
      // An outer item's marker alone on its line (`itemAloneForBox`): the
      // markers after it go on the next line, past its indentation.
      if let alone = (firstPending..<(levels.count - 1)).last(where: { levels[$0].markerAlone }) {
        let split = Int(levels[alone].markerEnd)
        output.append(contentsOf: markers[..<split])
        markers.removeFirst(split)
        contentStart = output.count
        endLine()
        lineStart = output.count
        output.append(contentsOf: prefix[..<prefixEnd(through: alone)])
      }
      output.append(contentsOf: markers)
      markersEnd = output.count
      markers.removeAll(keepingCapacity: true)
      firstPending = levels.count
      contentStart = output.count
      guard levels[levels.count - 1].markerAlone else { return }
      endLine()
      lineStart = output.count
    }
    output.append(contentsOf: prefix)
    contentStart = output.count
  }

  /// Ends the line begun by `beginLine`: a line with nothing after its
  /// prefixes loses their trailing spaces.
  mutating func endLine() {
    if !lineIsLazy, output.count == contentStart {
      while output.count > lineStart, output[output.count - 1] == UInt8(ascii: " ") {
        output.removeLast()
      }
    }
    output.append(UInt8(ascii: "\n"))
  }

  /// Writes `bytes` as a line of their own.
  mutating func writeLine<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
    beginLine()
    output.append(contentsOf: bytes)
    endLine()
  }

  /// Writes a blank line between two blocks, with the prefixes of the
  /// containers still open (each has written its first line: every block
  /// writes at least one).
  mutating func writeBlankLine() {
    output.append(contentsOf: prefix[..<(levels.last.map { Int($0.blankEnd) } ?? 0)])
    output.append(UInt8(ascii: "\n"))
  }
}
