import EditingTraces

extension PreparedTrace {
  /// Loads the trace at `path` (a `.json` or `.json.gz` file anywhere), named
  /// after the file without its `.json[.gz]` suffix.
  public init(path: String) {
    let trace: EditingTrace
    do {
      trace = try EditingTrace(contentsOf: path)
    } catch {
      fatalError("cannot load trace \(path): \(error)")
    }
    var name = String(path.split(separator: "/").last ?? Substring(path))
    for suffix in [".gz", ".json"] where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
    }
    self.name = name
    self.startContent = trace.startContent
    self.endContent = trace.endContent
    self.positions = trace.patches.map(\.position)
    self.deleteCounts = trace.patches.map(\.deleteCount)
    self.inserts = trace.patches.map(\.insert)
    self.insertsUTF8 = trace.patches.map { Array($0.insert.utf8) }
  }
}
