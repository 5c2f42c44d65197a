import OutlineJSON
import OutlineWorkspace

/// The files an outline's analysis reads besides itself: models and configurations.
enum WatchedFiles {
  /// Glob patterns (LSP's syntax) of every model and configuration file.
  static let patterns = [
    "**/*.xcdatamodel/contents", "**/*.xcdatamodel", "**/*.xcdatamodeld",
    "**/*.xcdatamodeld/.xccurrentversion",
    "**/" + Configuration.fileName, "**/*.outline",
  ]

  /// The watcher registration, when the client registers watchers dynamically.
  static func registration(_ client: LSP.ClientCapabilities) -> LSP.Registration? {
    guard client.workspace?.didChangeWatchedFiles?.dynamicRegistration == true else { return nil }
    let options = LSP.DidChangeWatchedFilesRegistrationOptions(
      watchers: patterns.map { LSP.FileSystemWatcher(globPattern: $0) })
    return LSP.Registration(
      id: "outline-watched-files", method: "workspace/didChangeWatchedFiles",
      registerOptions: try? LSPAny(JSONValueCoding.encode(options)))
  }

  /// Whether `uri` is an outline (whose change changes the workspace's diagnostics only).
  static func isOutline(_ uri: String) -> Bool {
    uri.hasSuffix(".outline")
  }

  /// Whether a change to `uri` can change an outline's analysis.
  static func affectsAnalysis(_ uri: String) -> Bool {
    let path = uri.split(separator: "?").first.map(String.init) ?? uri
    return path.hasSuffix("/contents") || path.hasSuffix(".xcdatamodel") || path.hasSuffix(".xcdatamodeld")
      || path.hasSuffix(".xccurrentversion") || path.hasSuffix("/" + Configuration.fileName)
  }
}
