// The module reads and writes `AttributedText`, the engine's one shape for
// text with its runs: importing DocumentMarkdown brings the engine's types
// with it, as it did when `AttributedText` lived here.
@_exported import DocumentEngine
