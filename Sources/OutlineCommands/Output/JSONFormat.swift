import OutlineCore
import OutlineJSON

/// `--format json`: one stable document (documented in Documentation/OutputFormats.md),
/// written diagnostic by diagnostic as it is made, never held as a tree.
enum JSONFormat {
  static let version = 1

  /// The document's bytes, ending with a new line (the commands write it through ``write(_:to:)``).
  static func bytes(_ run: LintRun) -> [UInt8] {
    var out: [UInt8] = []
    var writer = JSONStreamWriter { out += $0 }
    write(run, to: &writer)
    writer.finish()
    return out
  }

  /// Writes the document, pretty-printed with two spaces and ending with a new line.
  static func write(_ run: LintRun, to writer: inout JSONStreamWriter) {
    var counts: [Severity: Int] = [:]
    let unfixed = Dictionary(run.unfixed.map { ($0.path, $0.message) }) { first, _ in first }
    let unchecked = run.unchecked
    writer.beginObject()
    writer.member("version", version)
    writer.member("tool", run.tool)
    writer.key("files")
    writer.beginArray()
    // A path that could not be checked is an entry of its own, with its reason, where it
    // stands among the files.
    for entry in run.listing(of: unchecked) {
      switch entry {
      case .report(let index):
        let report = run.reports[index]
        writer.beginObject()
        writer.member("path", report.path)
        // A file checked whose fix could not be written: its one entry carries the reason too.
        if let failure = unfixed[report.path] { writer.member("error", failure) }
        writer.key("diagnostics")
        writeDiagnostics(report, counts: &counts, to: &writer)
        writer.endObject()
      case .problem(let problem):
        writer.beginObject()
        writer.member("path", problem.path)
        writer.member("error", problem.message)
        writer.key("diagnostics")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
      }
    }
    writer.endArray()
    writer.key("summary")
    writer.beginObject()
    writer.member("files", run.reports.count)
    writer.member("unchecked", unchecked.count)
    writer.member("unfixed", unfixed.count)
    writer.member("errors", counts[.error] ?? 0)
    writer.member("warnings", counts[.warning] ?? 0)
    writer.member("information", counts[.information] ?? 0)
    writer.member("hints", counts[.hint] ?? 0)
    // With a baseline: the problems it held (not listed above), and its entries no problem matched.
    if let baseline = run.baseline {
      writer.member("baselined", baseline.baselined)
      writer.member("baselineAbsent", baseline.absent.count)
    }
    writer.endObject()
    writer.endObject()
    writer.raw([0x0A])
  }

  /// The array of one report's diagnostics, each counted in `counts` by its severity.
  static func writeDiagnostics(
    _ report: FileReport, counts: inout [Severity: Int], to writer: inout JSONStreamWriter
  ) {
    let positions = ReportPositions(report)
    writer.beginArray()
    for diagnostic in report.diagnostics {
      counts[diagnostic.severity, default: 0] += 1
      writer.beginObject()
      writer.member("code", diagnostic.code.rawValue)
      writer.member("severity", diagnostic.severity.description)
      writer.member("message", diagnostic.message)
      writer.key("range")
      range(diagnostic.range, to: &writer) { positions.display($0) }
      writer.key("related")
      writer.beginArray()
      for related in diagnostic.related {
        writer.beginObject()
        writer.member("path", related.file ?? report.path)
        writer.member("message", related.message)
        writer.key("range")
        range(related.range, to: &writer) { positions.display($0, of: related) }
        writer.endObject()
      }
      writer.endArray()
      writer.endObject()
    }
    writer.endArray()
  }

  /// 1-based lines and character columns, plus 0-based UTF-8 offsets.
  static func range(
    _ range: TextRange, to writer: inout JSONStreamWriter, _ display: (Int) -> DisplayPosition
  ) {
    func point(_ name: String, _ offset: Int) {
      let position = display(offset)
      writer.key(name)
      writer.beginObject()
      writer.member("line", position.line)
      writer.member("column", position.column)
      writer.member("offset", offset)
      writer.endObject()
    }
    writer.beginObject()
    point("start", range.start)
    point("end", range.end)
    writer.endObject()
  }
}
