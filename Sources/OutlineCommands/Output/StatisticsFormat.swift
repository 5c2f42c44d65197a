import OutlineCore
import OutlineEditing
import OutlineJSON
import OutlineWorkspace

/// `--statistics`: how many times each code was reported, most frequent
/// first (as ruff prints them), instead of the diagnostics themselves.
enum StatisticsFormat {
  /// The codes `--fix` repairs (sibling order), marked `[*]`.
  static let fixable = Renumbering.fixableCodes

  struct Row {
    var code: DiagnosticCode
    var count: Int
    var title: String
    var fixable: Bool
  }

  static func rows(_ run: LintRun) -> [Row] {
    var counts: [DiagnosticCode: Int] = [:]
    // Codes reported where `--fix` repairs them: not in the JSON form, which it leaves alone.
    var repairable: Set<DiagnosticCode> = []
    for report in run.reports {
      let fixes = !DocumentCheck.isJSONForm(report.path)
      for diagnostic in report.diagnostics {
        counts[diagnostic.code, default: 0] += 1
        if fixes && fixable.contains(diagnostic.code) { repairable.insert(diagnostic.code) }
      }
    }
    return counts.map { code, count in
      Row(
        code: code, count: count, title: DiagnosticCatalog.entry(for: code)?.title ?? "",
        fixable: repairable.contains(code))
    }
    .sorted { $0.count != $1.count ? $0.count > $1.count : $0.code < $1.code }
  }

  /// `  12  OL401  [*] Duplicate order among siblings`, then the summary unless `quiet`.
  static func render(_ run: LintRun, json: Bool, quiet: Bool) -> String {
    let rows = rows(run)
    if json {
      let document: JSONValue = .array(
        rows.map { row in
          [
            "code": .string(row.code.rawValue), "count": .int(row.count), "title": .string(row.title),
            "fixable": .bool(row.fixable),
          ]
        })
      return document.serialized(indent: 2) + "\n"
    }
    let width = rows.map { String($0.count).count }.max() ?? 1
    var out = ""
    for row in rows {
      let count = String(row.count)
      out +=
        String(repeating: " ", count: width - count.count) + count + "  " + row.code.rawValue + "  "
        + (row.fixable ? "[*] " : "    ") + row.title + "\n"
    }
    if !quiet {
      out += TextFormat.summary(run) + "\n"
      if rows.contains(where: \.fixable) { out += "[*] fixable with --fix\n" }
    }
    return out
  }
}
