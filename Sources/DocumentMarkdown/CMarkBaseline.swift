import CCMarkGFM

/// cmark-gfm on its own, for the benchmarks: the floor that reading and
/// writing Markdown are measured against. Not public API.
public enum _CMarkBaseline {
  /// Parses `markdown` with the extensions the reader attaches (table,
  /// strikethrough, autolink) and renders it as HTML, as
  /// `cmark-gfm -e table -e strikethrough -e autolink` would.
  ///
  /// - Parameter markdown: GitHub-flavoured Markdown.
  /// - Returns: The length of the HTML in bytes (0 if cmark-gfm could not
  ///   allocate).
  /// - Complexity: O(n) for n bytes of Markdown, cmark-gfm's own bound.
  public static func renderHTML(_ markdown: String) -> Int {
    guard let document = _CMarkExtensions.parse(markdown) else { return 0 }
    defer { cmark_node_free(document) }
    let memory = cmark_get_default_mem_allocator()
    var extensions: UnsafeMutablePointer<cmark_llist>?
    for syntax in _CMarkExtensions.attached {
      extensions = cmark_llist_append(memory, extensions, UnsafeMutableRawPointer(syntax))
    }
    defer { cmark_llist_free(memory, extensions) }
    guard let html = cmark_render_html(document, CMARK_OPT_DEFAULT, extensions) else { return 0 }
    defer { memory?.pointee.free?(html) }
    var count = 0
    while html[count] != 0 { count += 1 }
    return count
  }
}
