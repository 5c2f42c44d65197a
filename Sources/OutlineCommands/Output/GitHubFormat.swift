import OutlineCore

/// `--format github`: workflow commands that annotate the pull request.
enum GitHubFormat {
  static func render(_ run: LintRun) -> String {
    String(decoding: renderBytes(run), as: UTF8.self)
  }

  static func renderBytes(_ run: LintRun) -> [UInt8] {
    var out: [UInt8] = []
    for entry in run.listing(of: run.problems) {
      switch entry {
      case .problem(let problem):
        // A path that could not be checked (or fixed): an error on the file, where it stands.
        out.appendUTF8("::error file=\(property(problem.path)),title=\(property(run.tool))::")
        out.appendUTF8(data(MessageText.singleLine(problem.message)))
        out.append(0x0A)
      case .report(let index):
        append(run.reports[index], to: &out)
      }
    }
    return out
  }

  /// Appends a command for each diagnostic of `report`.
  private static func append(_ report: FileReport, to out: inout [UInt8]) {
    let positions = ReportPositions(report)
    let file = Array(property(report.path).utf8)
    for diagnostic in report.diagnostics {
      let start = positions.display(diagnostic.range.start)
      let end = positions.display(diagnostic.range.end)
      switch diagnostic.severity {
      case .error: out.appendUTF8("::error file=")
      case .warning: out.appendUTF8("::warning file=")
      case .information, .hint: out.appendUTF8("::notice file=")
      }
      out += file
      out.appendUTF8(",line=")
      out.appendDecimal(start.line)
      out.appendUTF8(",col=")
      out.appendDecimal(start.column)
      out.appendUTF8(",endLine=")
      out.appendDecimal(end.line)
      out.appendUTF8(",endColumn=")
      out.appendDecimal(end.column)
      out.appendUTF8(",title=")
      out.appendUTF8(property(diagnostic.code.rawValue))
      out.appendUTF8("::")
      out.appendUTF8(data(MessageText.singleLine(diagnostic.message)))
      out.append(0x0A)
    }
  }

  /// Escapes a message as the runner expects (`%`, CR, LF), and any other
  /// control character as `%XX`, so a command is always one line.
  static func data(_ text: String) -> String {
    escape(text, alsoEscaping: [])
  }

  /// Escapes a property value (also `:` and `,`).
  static func property(_ text: String) -> String {
    escape(text, alsoEscaping: [UInt8(ascii: ":"), UInt8(ascii: ",")])
  }

  private static func escape(_ text: String, alsoEscaping extra: [UInt8]) -> String {
    func escaped(_ byte: UInt8) -> Bool {
      byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") || extra.contains(byte)
    }
    guard text.utf8.contains(where: escaped) else { return text }
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 16)
    for byte in text.utf8 {
      if escaped(byte) {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      } else {
        out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
