import Foundation

/// A fresh folder for one test's files, removed with everything in it when
/// the test lets go of it.
final class TemporaryFolder {
  /// The folder.
  let url: URL

  /// A new empty folder in the system's temporary folder.
  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("editor-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The absolute path of `name` in the folder.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `contents` (UTF-8) to `name`.
  ///
  /// - Returns: its path.
  @discardableResult
  func write(_ name: String, _ contents: String) throws -> String {
    try write(name, bytes: Array(contents.utf8))
  }

  /// Writes `bytes` to `name`.
  ///
  /// - Returns: its path.
  @discardableResult
  func write(_ name: String, bytes: [UInt8]) throws -> String {
    let path = path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Writes an executable shell script to `name`.
  ///
  /// - Returns: its path.
  @discardableResult
  func writeScript(_ name: String, _ body: String) throws -> String {
    let path = try write(name, "#!/bin/sh\n" + body)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return path
  }

  /// The text of `name`, or nil if there is no such file.
  func read(_ name: String) -> String? {
    FileManager.default.contents(atPath: path(name)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The bytes of `name`, or nil if there is no such file.
  func bytes(_ name: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path(name)).map { Array($0) }
  }

  /// Whether `name` exists.
  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }
}
