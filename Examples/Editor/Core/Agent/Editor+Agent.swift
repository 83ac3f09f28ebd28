import DocumentEngine

extension Editor {
  /// Agents' calls ran on the editor's loop (`editor --mcp PORT`): the
  /// selection is read back from the document (their edits moved it), the
  /// screen's first line kept valid, and the status line says what the
  /// last call did (`status`, if given).
  public func agentsCalled(_ status: String?) {
    refreshSelection()
    // A suggestion under review may be gone (an agent's edit touched it).
    if let current = currentSuggestion, (try? document.suggestion(current)) == nil {
      currentSuggestion = nil
      previewIndex = nil
    }
    top = clampTop(top)
    if let status { agentStatus = status }
  }
}
