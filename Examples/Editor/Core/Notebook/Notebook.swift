import DocumentEngine
import DocumentMarkdown
import TextRope

/// The files the editor shows, one storage of a ``Document`` each, one
/// after the other: a notebook of cells.
///
/// A `.md` file is read as Markdown into rich text, its source kept
/// (`Document.add(_:markdown:after:)`), and saved back as Markdown: the
/// file's own bytes for every block the person did not change, only the
/// changed blocks written anew (`TextStorage.markdown`). Any other file is
/// plain UTF-8, saved byte for byte as the storage holds it. A cell without a file (the built-in sample's) is saved
/// nowhere.
public final class Notebook: @unchecked Sendable {
  /// One cell: a storage and where it is saved.
  public struct Cell: Hashable, Sendable {
    /// The storage that holds the cell's text.
    public var id: StorageID
    /// The file the cell is saved to, or nil.
    public var path: String?
    /// How the cell's text is read and written.
    public var format: Format
    /// The name shown for the cell: the file's name or the sample's title.
    public var title: String
    /// The storage's version when it was last read or saved.
    public var savedVersion: StorageVersion

    /// A cell.
    public init(
      id: StorageID, path: String?, format: Format, title: String, savedVersion: StorageVersion
    ) {
      self.id = id
      self.path = path
      self.format = format
      self.title = title
      self.savedVersion = savedVersion
    }
  }

  /// How a cell's text is read and written.
  public enum Format: Hashable, Sendable {
    /// Markdown, read into rich text and written back from it.
    case markdown
    /// Plain UTF-8 text.
    case plain
  }

  /// The document that holds every cell's storage, in the cells' order.
  public let document: Document
  /// The cells, in order.
  public private(set) var cells: [Cell]

  /// A notebook of the given cells over `document`.
  public init(document: Document, cells: [Cell]) {
    self.document = document
    self.cells = cells
  }

  /// Opens each file as one cell, in order.
  ///
  /// - Throws: ``NotebookError`` for a file that cannot be read or is not
  ///   UTF-8; nothing is opened.
  public static func open(paths: [String]) throws(NotebookError) -> Notebook {
    let document = Document()
    var cells: [Cell] = []
    for (i, path) in paths.enumerated() {
      let bytes: [UInt8]
      do {
        bytes = try FileIO.readFile(path)
      } catch .notFound {
        // A new file: an empty cell, created when saved.
        bytes = []
      } catch {
        throw .cannotRead(path, error.description)
      }
      let format: Format = Self.isMarkdown(path) ? .markdown : .plain
      let id = StorageID("cell-\(i)")
      do {
        switch format {
        case .plain:
          let text: Rope
          do {
            text = try Rope(validating: bytes)
          } catch {
            throw NotebookError.notUTF8(path, error.description)
          }
          try document.add(id, text: text)
        case .markdown:
          guard let source = String(validating: bytes, as: UTF8.self) else {
            throw NotebookError.notUTF8(path, "invalid UTF-8")
          }
          // Its source kept: a save writes back the file's own bytes for
          // every block the person did not change.
          try document.add(id, markdown: source)
        }
      } catch let error as NotebookError {
        throw error
      } catch {
        throw .cannotRead(path, "\(error)")
      }
      let version = (try? document.content.storage(id).version) ?? StorageVersion(0)
      cells.append(
        Cell(
          id: id, path: path, format: format, title: Self.fileName(path), savedVersion: version))
    }
    return Notebook(document: document, cells: cells)
  }

  /// The cells whose attributes changed (a change of attributes alone
  /// makes no storage version) since they were read or saved.
  private var restyled: Set<Int> = []

  /// Cell `cell`'s attributes changed, not its text: it is modified.
  public func noteRestyled(_ cell: Int) {
    if cells.indices.contains(cell) { restyled.insert(cell) }
  }

  /// Whether the cell's text or attributes changed since it was read or
  /// saved.
  public func isModified(_ cell: Int) -> Bool {
    guard cells.indices.contains(cell),
      let version = try? document.content.storage(cells[cell].id).version
    else { return false }
    return version != cells[cell].savedVersion || restyled.contains(cell)
  }

  /// Whether any cell changed since it was read or saved.
  public var isModified: Bool { cells.indices.contains(where: isModified) }

  /// The cell's text as it would be saved: Markdown for a Markdown cell,
  /// the text itself otherwise.
  public func savedText(of cell: Int) throws(NotebookError) -> String {
    guard cells.indices.contains(cell) else { throw .noSuchCell(cell) }
    let storage: TextStorage
    do {
      storage = try document.content.storage(cells[cell].id)
    } catch {
      throw .noSuchCell(cell)
    }
    switch cells[cell].format {
    case .plain:
      return String(storage.text)
    case .markdown:
      // The file's own bytes for the blocks the person did not change.
      return storage.markdown
    }
  }

  /// Saves every modified cell that has a file: each is written to a
  /// temporary file beside it, then renamed over it, so that a failed save
  /// leaves the old file whole.
  ///
  /// - Returns: the number of files written.
  /// - Throws: ``NotebookError/cannotWrite(_:_:)`` for the first file that
  ///   could not be written; the cells saved before it stay saved.
  @discardableResult
  public func save() throws(NotebookError) -> Int {
    var written = 0
    for i in cells.indices where isModified(i) {
      guard let path = cells[i].path else { continue }
      // The version is read before the text: an edit in between leaves the
      // cell modified.
      let version = (try? document.content.storage(cells[i].id).version) ?? cells[i].savedVersion
      let text = try savedText(of: i)
      do {
        try FileIO.replaceFile(path, Array(text.utf8))
      } catch {
        throw .cannotWrite(path, error.description)
      }
      cells[i].savedVersion = version
      restyled.remove(i)
      written += 1
    }
    return written
  }

  static func isMarkdown(_ path: String) -> Bool {
    let lower = path.lowercased()
    return lower.hasSuffix(".md") || lower.hasSuffix(".markdown")
  }

  static func fileName(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
  }
}

/// Why a notebook could not be opened or saved.
public enum NotebookError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A file could not be read.
  case cannotRead(String, String)
  /// A file is not valid UTF-8.
  case notUTF8(String, String)
  /// A file could not be written; the old file is whole.
  case cannotWrite(String, String)
  /// No cell has that index.
  case noSuchCell(Int)

  public var description: String {
    switch self {
    case .cannotRead(let path, let why): "cannot read \(path): \(why)"
    case .notUTF8(let path, let why): "\(path) is not UTF-8 text (\(why)); it was not opened"
    case .cannotWrite(let path, let why):
      "cannot save \(path): \(why); the file on disk is unchanged"
    case .noSuchCell(let i): "no cell \(i)"
    }
  }
}
