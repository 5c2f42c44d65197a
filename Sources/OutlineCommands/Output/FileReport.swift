import OutlineCore

/// The diagnostics of one file, with what is needed to print positions.
public struct FileReport: Sendable {
  /// The path as the user gave it (or `<stdin>`).
  public var path: String
  /// The file's text, for lines and columns.
  public var source: SourceText
  /// Sorted diagnostics.
  public var diagnostics: [Diagnostic]
  /// Sources of other files named by related locations (the model).
  public var relatedSources: [String: SourceText] = [:]

  /// Creates a report; sorts the diagnostics.
  public init(path: String, source: SourceText, diagnostics: [Diagnostic]) {
    self.path = path
    self.source = source
    self.diagnostics = Diagnostic.sortedByPosition(diagnostics)
  }

  /// The count of diagnostics of `severity`.
  public func count(_ severity: Severity) -> Int {
    diagnostics.lazy.filter { $0.severity == severity }.count
  }

  /// The source a related location points into.
  public func source(for related: RelatedLocation) -> SourceText {
    related.file.flatMap { relatedSources[$0] } ?? source
  }
}

/// 1-based line and column in Unicode scalars, as `path:line:col` prints them.
struct DisplayPosition {
  let line: Int
  let column: Int

  init(_ offset: Int, in source: SourceText) {
    let position = source.position(of: offset, unit: .scalar)
    line = position.line + 1
    column = position.column + 1
  }
}
