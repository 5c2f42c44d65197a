import OutlineCore

/// `path:line:col: severity[CODE]: message`, one line a diagnostic.
enum TextFormat {
  static func render(_ reports: [FileReport], style: TextStyle = .plain) -> String {
    String(decoding: renderBytes(reports, style: style), as: UTF8.self)
  }

  static func renderBytes(_ reports: [FileReport], style: TextStyle = .plain) -> [UInt8] {
    // Bytes, not String interpolation: 50,000 diagnostics are 50,000 lines.
    var out: [UInt8] = []
    // A clean file writes nothing: its positions and path bytes are not made (the run's
    // single core after the threads made them for each of ten thousand files).
    for report in reports where !report.diagnostics.isEmpty {
      let positions = ReportPositions(report)
      let path = displayed(report.path)
      out.reserveCapacity(out.count + report.diagnostics.count * (path.count + 80))
      for diagnostic in report.diagnostics {
        let position = positions.display(diagnostic.range.start)
        style.open(.location, &out)
        out += path
        out.appendPosition(position)
        out.appendUTF8(":")
        style.close(&out)
        out.appendUTF8(" ")
        style.open(.severity(diagnostic.severity), &out)
        out.appendUTF8(diagnostic.severity.description)
        style.close(&out)
        out.appendUTF8("[")
        style.open(.code, &out)
        out.appendUTF8(diagnostic.code.rawValue)
        style.close(&out)
        out.appendUTF8("]: ")
        out.appendUTF8(MessageText.singleLine(diagnostic.message))
        out.append(0x0A)
        for related in diagnostic.related {
          out.appendUTF8("  ")
          style.open(.location, &out)
          if let file = related.file { out += displayed(file) } else { out += path }
          out.appendPosition(positions.display(related.range.start, of: related))
          out.appendUTF8(":")
          style.close(&out)
          out.appendUTF8(" ")
          style.open(.note, &out)
          out.appendUTF8("note")
          style.close(&out)
          out.appendUTF8(": ")
          out.appendUTF8(MessageText.singleLine(related.message))
          out.append(0x0A)
        }
      }
    }
    return out
  }

  /// The bytes of `path` as a line starts with it: as they are, unless a control
  /// character (a newline could forge a `path:line:col:` line, an escape reach the
  /// terminal) has the whole path escaped as messages quote paths (``Excerpt``).
  /// ``displayed(_:)`` as a string, for the lines other commands print (`fmt --check`'s list,
  /// `migrate`'s reports).
  static func displayedPath(_ path: String) -> String { String(decoding: displayed(path), as: UTF8.self) }

  static func displayed(_ path: String) -> [UInt8] {
    let bytes = Array(path.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      // C0 and DEL; C1 (U+0080...U+009F, C2 80...C2 9F); U+2028 and U+2029 (E2 80 A8, E2 80 A9).
      if byte < 0x20 || byte == 0x7F || (byte == 0xC2 && (0x80...0x9F).contains(next))
        || (byte == 0xE2 && next == 0x80 && index + 2 < bytes.count
          && (0xA8...0xA9).contains(bytes[index + 2]))
      {
        return Array(Excerpt.escaped(path, limit: Excerpt.pathLimit).utf8)
      }
      index += 1
    }
    return bytes
  }

  /// `3 errors, 1 warning in 2 files` (hints and information counted when
  /// present; paths that could not be checked, and fixes that could not be
  /// written, counted apart).
  static func summary(_ run: LintRun, style: TextStyle = .plain) -> String {
    var counts: [Severity: Int] = [:]
    for report in run.reports {
      for diagnostic in report.diagnostics { counts[diagnostic.severity, default: 0] += 1 }
    }
    let errors = counts[.error] ?? 0
    var parts = [counted(errors, "error"), counted(counts[.warning] ?? 0, "warning")]
    if let hints = counts[.hint], hints > 0 { parts.append(counted(hints, "hint")) }
    if let notes = counts[.information], notes > 0 { parts.append(counted(notes, "note")) }
    var line = "\(parts.joined(separator: ", ")) in \(counted(run.reports.count, "file"))"
    let unchecked = run.unchecked.count
    let unfixed = run.unfixed.count
    if unchecked > 0 { line += "; \(counted(unchecked, "path")) could not be checked" }
    if unfixed > 0 { line += "; \(counted(unfixed, "fix")) could not be written" }
    if let baseline = run.baseline {
      line += "; \(baseline.baselined) baselined"
      let absent = baseline.absent.count
      if absent > 0 {
        line +=
          "; \(counted(absent, "baselined problem")) no longer \(absent == 1 ? "occurs" : "occur") (--write-baseline drops \(absent == 1 ? "it" : "them"))"
      }
    }
    return style.summary(line, errors: errors > 0 || !run.problems.isEmpty)
  }
}

extension [UInt8] {
  /// Appends the UTF-8 of `text` in one copy.
  mutating func appendUTF8(_ text: String) {
    var text = text
    text.withUTF8 { append(contentsOf: $0) }
  }

  /// Appends `:line:column`.
  mutating func appendPosition(_ position: DisplayPosition) {
    append(UInt8(ascii: ":"))
    appendDecimal(position.line)
    append(UInt8(ascii: ":"))
    appendDecimal(position.column)
  }

  /// Appends `value` (not negative) in decimal.
  mutating func appendDecimal(_ value: Int) {
    var divisor = 1
    while divisor <= value / 10 { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }
}
