import CCMarkGFM

/// cmark-gfm on its own, for the benchmarks: the floor that reading and
/// writing Markdown are measured against. Not public API.
public enum _CMarkBaseline {
  /// Parses `markdown` with the extensions and options the reader uses
  /// (table, strikethrough, autolink, task list, tag filter; footnotes
  /// where the Markdown has a `[^`)
  /// and renders it as HTML, as `cmark-gfm --footnotes -e table -e
  /// strikethrough -e autolink -e tasklist -e tagfilter` would.
  ///
  /// - Parameter markdown: GitHub-flavoured Markdown.
  /// - Returns: The length of the HTML in bytes (0 if cmark-gfm could not
  ///   allocate).
  /// - Complexity: O(n) for n bytes of Markdown, cmark-gfm's own bound.
  public static func renderHTML(_ markdown: String) -> Int {
    // (Footnotes where there can be one, as the reader asks for them.)
    var copy = markdown
    let footnotes = copy.withUTF8 { _CMarkExtensions.mayHaveFootnotes($0) }
    let options = CMARK_OPT_DEFAULT | (footnotes ? CMARK_OPT_FOOTNOTES : 0)
    guard let document = _CMarkExtensions.parse(markdown, options: options) else { return 0 }
    defer { cmark_node_free(document) }
    let memory = cmark_get_default_mem_allocator()
    var extensions: UnsafeMutablePointer<cmark_llist>?
    for syntax in _CMarkExtensions.attached {
      extensions = cmark_llist_append(memory, extensions, UnsafeMutableRawPointer(syntax))
    }
    defer { cmark_llist_free(memory, extensions) }
    guard let html = cmark_render_html(document, options, extensions) else { return 0 }
    defer { memory?.pointee.free?(html) }
    var count = 0
    while html[count] != 0 { count += 1 }
    return count
  }
}

extension _CMarkBaseline {
  /// cmark-gfm's HTML of `markdown` with every GFM extension (table,
  /// strikethrough, autolink, tasklist, tagfilter) and footnotes, as
  /// `cmark-gfm --footnotes -e table -e strikethrough -e autolink -e
  /// tasklist -e tagfilter` renders it: what a reader of the file sees,
  /// for tests that compare two files' rendering. Not public API.
  public static func html(_ markdown: String) -> String {
    let options = CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES
    var markdown = markdown
    return markdown.withUTF8 { bytes in
      _CMarkExtensions.lock.withLock { _ -> String in
        _ = _CMarkExtensions.attached
        guard let parser = cmark_parser_new(options) else { return "" }
        defer { cmark_parser_free(parser) }
        let memory = cmark_get_default_mem_allocator()
        var extensions: UnsafeMutablePointer<cmark_llist>?
        for name in ["table", "strikethrough", "autolink", "tasklist", "tagfilter"] {
          guard let syntax = cmark_find_syntax_extension(name) else { continue }
          cmark_parser_attach_syntax_extension(parser, syntax)
          extensions = cmark_llist_append(memory, extensions, UnsafeMutableRawPointer(syntax))
        }
        defer { cmark_llist_free(memory, extensions) }
        bytes.withMemoryRebound(to: CChar.self) { chars in
          if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
        }
        guard let document = cmark_parser_finish(parser) else { return "" }
        defer { cmark_node_free(document) }
        guard let html = cmark_render_html(document, options, extensions) else { return "" }
        defer { memory?.pointee.free?(html) }
        return String(cString: html)
      }
    }
  }
}
