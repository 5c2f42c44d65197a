import OutlineCore
import OutlineJSON

/// `--format sarif`: SARIF 2.1.0 as GitHub code scanning reads it.
enum SARIFFormat {
  static func level(_ severity: Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .information, .hint: "note"
    }
  }

  static func render(_ run: LintRun) -> String {
    document(run).serialized(indent: 2) + "\n"
  }

  static func document(_ run: LintRun) -> JSONValue {
    let reports = run.reports
    let catalog = DiagnosticCatalog.entries
    let ruleIndex = Dictionary(uniqueKeysWithValues: catalog.enumerated().map { ($1.code, $0) })
    let rules: [JSONValue] = catalog.map { entry in
      var rule: [(String, JSONValue)] = [
        ("id", .string(entry.code.rawValue)),
        ("name", .string(ruleName(entry.title))),
        ("shortDescription", ["text": .string(entry.title)]),
        ("fullDescription", ["text": .string(entry.help)]),
        ("help", ["text": .string(entry.help)]),
        ("defaultConfiguration", ["level": .string(level(entry.severity))]),
      ]
      if let link = DocumentationLink.diagnostic(entry.code.rawValue) {
        rule.insert(("helpUri", .string(link)), at: 5)
      }
      return .object(rule)
    }
    var driver: [(String, JSONValue)] = [
      ("name", "outline-lint"),
      ("version", .string(ToolVersion.current)),
      ("semanticVersion", .string(ToolVersion.current)),
      ("rules", .array(rules)),
    ]
    if let index = DocumentationLink.index { driver.insert(("informationUri", .string(index)), at: 1) }
    // Paths that could not be checked: notifications of the invocation.
    let notifications: [JSONValue] = run.problems.map { problem in
      [
        "level": "error",
        "message": ["text": .string(problem.message)],
        "locations": [["physicalLocation": ["artifactLocation": ["uri": .string(uri(problem.path))]]]],
      ]
    }
    var results: [JSONValue] = []
    for report in reports {
      let positions = ReportPositions(report)
      var hashes = Fingerprint.LineHashes(source: report.source, path: report.path)
      var occurrences: [String: Int] = [:]
      for diagnostic in report.diagnostics {
        let start = positions.display(diagnostic.range.start)
        let hash = hashes.hash(code: diagnostic.code.rawValue, line: start.line - 1)
        let occurrence = occurrences[hash, default: 0] + 1
        occurrences[hash] = occurrence
        var result: [(String, JSONValue)] = [
          ("ruleId", .string(diagnostic.code.rawValue)),
          ("level", .string(level(diagnostic.severity))),
          ("message", ["text": .string(diagnostic.message)]),
          ("locations", [location(report.path, diagnostic.range) { positions.display($0) }]),
          ("partialFingerprints", ["primaryLocationLineHash": .string("\(hash):\(occurrence)")]),
        ]
        if let index = ruleIndex[diagnostic.code] { result.insert(("ruleIndex", .int(index)), at: 1) }
        if !diagnostic.related.isEmpty {
          result.append(
            (
              "relatedLocations",
              .array(
                diagnostic.related.enumerated().map { index, related in
                  var value = location(related.file ?? report.path, related.range) {
                    positions.display($0, of: related)
                  }
                  if case .object(var members) = value {
                    members.insert(("id", .int(index)), at: 0)
                    members.append(("message", ["text": .string(related.message)]))
                    value = .object(members)
                  }
                  return value
                })
            ))
        }
        results.append(.object(result))
      }
    }
    let document: JSONValue = [
      "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
      "version": "2.1.0",
      "runs": [
        [
          "tool": ["driver": .object(driver)],
          "invocations": [
            [
              "executionSuccessful": .bool(run.problems.isEmpty),
              "toolExecutionNotifications": .array(notifications),
            ]
          ],
          "columnKind": "unicodeCodePoints",
          "results": .array(results),
        ]
      ],
    ]
    return document
  }

  static func location(_ path: String, _ range: TextRange, _ display: (Int) -> DisplayPosition)
    -> JSONValue
  {
    let start = display(range.start)
    let end = display(max(range.end, range.start))
    let endColumn = range.end == range.start ? end.column + 1 : end.column
    return [
      "physicalLocation": [
        "artifactLocation": ["uri": .string(uri(path))],
        "region": [
          "startLine": .int(start.line), "startColumn": .int(start.column),
          "endLine": .int(end.line), "endColumn": .int(endColumn),
        ],
      ]
    ]
  }

  /// A relative path as a URI reference (segments percent-encoded).
  static func uri(_ path: String) -> String {
    var trimmed = path
    while trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/".utf8)
    var out = ""
    for byte in trimmed.utf8 {
      if allowed.contains(byte) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }

  /// `Title Words` as a PascalCase rule name.
  static func ruleName(_ title: String) -> String {
    title.split { !$0.isLetter && !$0.isNumber }.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }
}

/// Stable fingerprints, so code scanning matches an alert across runs even when lines move.
enum Fingerprint {
  /// FNV-1a 64 of the code, the path and the line's text without surrounding white space.
  static func lineHash(code: String, path: String, line: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in (code + "\u{0}" + path + "\u{0}" + line.trimmingWhitespace()).utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Line hashes of one file, each line read once and hashed once per code:
  /// hashing the whole line for every diagnostic on it would be quadratic on
  /// a document written on one line. Lines must be asked for in order.
  struct LineHashes {
    let path: String
    private var window: ByteWindow
    private var line = -1
    private var text = ""
    private var byCode: [String: String] = [:]

    init(source: any DocumentLines, path: String) {
      self.path = path
      self.window = ByteWindow(source: source)
    }

    /// The hash of `line` (0-based) for `code`.
    mutating func hash(code: String, line: Int) -> String {
      if line != self.line {
        self.line = line
        byCode = [:]
        let start = window.source.lines.start(ofLine: line)
        var bytes: [UInt8] = []
        window.forEachPiece(from: start, to: window.contentEnd(ofLine: line)) { bytes += $0 }
        text = String(decoding: bytes, as: UTF8.self)
      }
      if let known = byCode[code] { return known }
      let hash = Fingerprint.lineHash(code: code, path: path, line: text)
      byCode[code] = hash
      return hash
    }
  }
}

extension String {
  func trimmingWhitespace() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
