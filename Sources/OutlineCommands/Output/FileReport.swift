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
  /// The name of the item each diagnostic is on (``ItemIdentity``), when fingerprints are wanted.
  public var itemNames: [String]?
  /// Each diagnostic's fingerprint (``ProblemFingerprint``), when a baseline or SARIF wants them.
  public var fingerprints: [String]?
  /// Problems the baseline holds, left out of ``diagnostics`` (SARIF reports them as unchanged).
  public var baselined: [(diagnostic: Diagnostic, fingerprint: String)] = []

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

  init(_ position: SourcePosition) {
    line = position.line + 1
    column = position.column + 1
  }
}

/// The display positions of everything a report prints (diagnostics, their
/// ends, related places), found in one forward pass over each file, so a
/// report costs time linear in the file however many problems share a line.
struct ReportPositions {
  private let own: PositionTable
  private let others: [String: PositionTable]

  init(_ report: FileReport) {
    var offsets: [Int] = []
    offsets.reserveCapacity(report.diagnostics.count * 2)
    var elsewhere: [String: [Int]] = [:]
    for diagnostic in report.diagnostics {
      offsets.append(diagnostic.range.start)
      offsets.append(diagnostic.range.end)
      for related in diagnostic.related {
        if let file = related.file, report.relatedSources[file] != nil {
          elsewhere[file, default: []] += [related.range.start, related.range.end]
        } else {
          offsets += [related.range.start, related.range.end]
        }
      }
    }
    own = PositionTable(offsets: offsets, in: report.source, unit: .scalar)
    others = elsewhere.reduce(into: [:]) { tables, entry in
      tables[entry.key] = PositionTable(
        offsets: entry.value, in: report.relatedSources[entry.key]!, unit: .scalar)
    }
  }

  /// The position of `offset` in the report's own file.
  func display(_ offset: Int) -> DisplayPosition {
    DisplayPosition(own.position(of: offset))
  }

  /// The position of `offset` in the file `related` points into.
  func display(_ offset: Int, of related: RelatedLocation) -> DisplayPosition {
    DisplayPosition((related.file.flatMap { others[$0] } ?? own).position(of: offset))
  }
}
