import OutlineCore

/// `path:line:col: severity[CODE]: message`, one line a diagnostic.
enum TextFormat {
  static func render(_ reports: [FileReport]) -> String {
    var out = ""
    for report in reports {
      for diagnostic in report.diagnostics {
        let position = DisplayPosition(diagnostic.range.start, in: report.source)
        out +=
          "\(report.path):\(position.line):\(position.column): \(diagnostic.severity)[\(diagnostic.code)]: \(diagnostic.message)\n"
        for related in diagnostic.related {
          let file = related.file ?? report.path
          let where_ = DisplayPosition(related.range.start, in: report.source(for: related))
          out += "  \(file):\(where_.line):\(where_.column): note: \(related.message)\n"
        }
      }
    }
    return out
  }

  /// `3 errors, 1 warning in 2 files` (hints and information counted when present).
  static func summary(_ reports: [FileReport]) -> String {
    var counts: [Severity: Int] = [:]
    for report in reports {
      for diagnostic in report.diagnostics { counts[diagnostic.severity, default: 0] += 1 }
    }
    func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
    var parts = [plural(counts[.error] ?? 0, "error"), plural(counts[.warning] ?? 0, "warning")]
    if let hints = counts[.hint], hints > 0 { parts.append(plural(hints, "hint")) }
    if let notes = counts[.information], notes > 0 { parts.append(plural(notes, "note")) }
    return "\(parts.joined(separator: ", ")) in \(plural(reports.count, "file"))"
  }
}
