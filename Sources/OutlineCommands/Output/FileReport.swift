import OutlineCore

/// The diagnostics of one file, with what is needed to print positions.
public struct FileReport: Sendable {
  /// The path as the user gave it (or `<stdin>`).
  public var path: String
  /// The file's lines, for lines and columns.
  public var source: any DocumentLines
  /// Sorted diagnostics.
  public var diagnostics: [Diagnostic]
  /// Sources of other files named by related locations (the model).
  public var relatedSources: [String: any DocumentLines] = [:]

  /// Creates a report; sorts the diagnostics.
  public init(path: String, source: any DocumentLines, diagnostics: [Diagnostic]) {
    self.path = path
    self.source = source
    self.diagnostics = Diagnostic.sortedByPosition(diagnostics)
  }

  /// The count of diagnostics of `severity`.
  public func count(_ severity: Severity) -> Int {
    diagnostics.lazy.filter { $0.severity == severity }.count
  }

  /// The source a related location points into.
  public func source(for related: RelatedLocation) -> any DocumentLines {
    related.file.flatMap { relatedSources[$0] } ?? source
  }
}

/// 1-based line and column in Unicode scalars, as `path:line:col` prints them.
struct DisplayPosition {
  let line: Int
  let column: Int

  init(_ offset: Int, in source: any DocumentLines) {
    let position = source.linePosition(of: offset, unit: .scalar)
    line = position.line + 1
    column = position.column + 1
  }
}
