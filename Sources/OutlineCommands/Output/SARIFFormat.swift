import Foundation
import OutlineCore
import OutlineJSON

/// `--format sarif`: SARIF 2.1.0 as GitHub code scanning reads it, written result by result
/// as each is made, never held as a tree.
enum SARIFFormat {
  static func level(_ severity: Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .information, .hint: "note"
    }
  }

  /// The log's bytes, ending with a new line (the commands write it through
  /// ``write(_:workingFolder:to:)``).
  static func bytes(_ run: LintRun, workingFolder: [UInt8]? = ArtifactURI.workingFolder) -> [UInt8] {
    var out: [UInt8] = []
    var writer = JSONStreamWriter { out += $0 }
    write(run, workingFolder: workingFolder, to: &writer)
    writer.finish()
    return out
  }

  /// Writes the log, pretty-printed with two spaces and ending with a new line. `workingFolder`
  /// (an absolute path's bytes; nil when unknown) is the base of the relative paths: files inside
  /// it are written relative to `%SRCROOT%`, which `originalUriBaseIds` sets to it.
  static func write(
    _ run: LintRun, workingFolder: [UInt8]? = ArtifactURI.workingFolder, to writer: inout JSONStreamWriter
  ) {
    let artifacts = ArtifactURI(workingFolderBytes: workingFolder)
    let catalog = DiagnosticCatalog.entries
    let ruleIndex = Dictionary(uniqueKeysWithValues: catalog.enumerated().map { ($1.code, $0) })
    writer.beginObject()
    writer.member("$schema", "https://json.schemastore.org/sarif-2.1.0.json")
    writer.member("version", "2.1.0")
    writer.key("runs")
    writer.beginArray()
    writer.beginObject()
    writer.key("tool")
    writer.beginObject()
    writer.key("driver")
    writeDriver(run.tool, catalog, to: &writer)
    writer.endObject()
    if let category = category(run.tool) {
      writer.key("automationDetails")
      writer.beginObject()
      writer.member("id", category)
      writer.endObject()
    }
    if let base = artifacts.baseURI {
      writer.key("originalUriBaseIds")
      writer.beginObject()
      writer.key(ArtifactURI.baseID)
      writer.beginObject()
      writer.member("uri", base)
      writer.endObject()
      writer.endObject()
    }
    writer.key("invocations")
    writer.beginArray()
    writer.beginObject()
    writer.key("executionSuccessful")
    writer.bool(run.problems.isEmpty)
    // Paths that could not be checked: notifications of the invocation.
    writer.key("toolExecutionNotifications")
    writer.beginArray()
    for problem in run.problems {
      writer.beginObject()
      writer.member("level", "error")
      writer.key("message")
      text(problem.message, to: &writer)
      writer.key("locations")
      writer.beginArray()
      writeArtifactOnly(artifacts.reference(bytes: problem.pathBytes), to: &writer)
      writer.endArray()
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    writer.endArray()
    writer.member("columnKind", "unicodeCodePoints")
    writer.key("results")
    writer.beginArray()
    let baselined = run.baseline != nil
    for report in run.reports {
      writeResults(report, baselined: baselined, artifacts: artifacts, ruleIndex: ruleIndex, to: &writer)
    }
    // Baselined problems no longer found: results that passed, so a viewer can close them.
    for (entry, path) in run.baseline?.absent ?? [] {
      writer.beginObject()
      writer.member("ruleId", entry.code)
      if let index = ruleIndex[DiagnosticCode(rawValue: entry.code)] { writer.member("ruleIndex", index) }
      writer.member("kind", "pass")
      writer.member("level", "none")
      writer.key("message")
      text(entry.message, to: &writer)
      writer.key("locations")
      writer.beginArray()
      writeArtifactOnly(artifacts.reference(path), to: &writer)
      writer.endArray()
      writer.key("partialFingerprints")
      writer.beginObject()
      writer.member(problemFingerprintKey, entry.fingerprint)
      writer.endObject()
      writer.member("baselineState", "absent")
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    writer.endArray()
    writer.endObject()
    writer.raw([0x0A])
  }

  /// The driver: the tool and every rule of the catalog.
  static func writeDriver(
    _ tool: String, _ catalog: [DiagnosticCatalog.Entry], to writer: inout JSONStreamWriter
  ) {
    writer.beginObject()
    writer.member("name", tool)
    if let index = DocumentationLink.index { writer.member("informationUri", index) }
    writer.member("version", ToolVersion.current)
    writer.member("semanticVersion", ToolVersion.current)
    writer.key("rules")
    writer.beginArray()
    for entry in catalog {
      writer.beginObject()
      writer.member("id", entry.code.rawValue)
      writer.member("name", ruleName(entry.title))
      writer.key("shortDescription")
      text(entry.title, to: &writer)
      writer.key("fullDescription")
      text(entry.help, to: &writer)
      writer.key("help")
      text(entry.help, to: &writer)
      if let link = DocumentationLink.diagnostic(entry.code.rawValue) { writer.member("helpUri", link) }
      writer.key("defaultConfiguration")
      writer.beginObject()
      writer.member("level", level(entry.severity))
      writer.endObject()
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
  }

  /// The results of one report, in document order (``resultsInOrder(_:baselined:)``).
  static func writeResults(
    _ report: FileReport, baselined: Bool, artifacts: ArtifactURI, ruleIndex: [DiagnosticCode: Int],
    to writer: inout JSONStreamWriter
  ) {
    let positions = ReportPositions(report)
    var hashes = Fingerprint.LineHashes(source: report.source, path: report.path)
    var occurrences: [UInt64: Int] = [:]
    let own = artifacts.reference(report.path)
    var elsewhere: [String: ArtifactReference] = [:]
    for (diagnostic, fingerprint, state) in resultsInOrder(report, baselined: baselined) {
      let start = positions.display(diagnostic.range.start)
      let hash = hashes.hash(code: diagnostic.code.rawValue, line: start.line - 1)
      let occurrence = occurrences[hash, default: 0] + 1
      occurrences[hash] = occurrence
      writer.beginObject()
      writer.member("ruleId", diagnostic.code.rawValue)
      if let index = ruleIndex[diagnostic.code] { writer.member("ruleIndex", index) }
      writer.member("level", level(diagnostic.severity))
      writer.key("message")
      text(diagnostic.message, to: &writer)
      writer.key("locations")
      writer.beginArray()
      writer.beginObject()
      writer.key("physicalLocation")
      writePhysicalLocation(own, diagnostic.range, to: &writer) { positions.display($0) }
      writer.endObject()
      writer.endArray()
      writer.key("partialFingerprints")
      writer.beginObject()
      writer.member("primaryLocationLineHash", Fingerprint.hex(hash) + ":" + String(occurrence))
      if let fingerprint { writer.member(problemFingerprintKey, fingerprint) }
      writer.endObject()
      if let state { writer.member("baselineState", state) }
      if !diagnostic.related.isEmpty {
        writer.key("relatedLocations")
        writer.beginArray()
        for (index, related) in diagnostic.related.enumerated() {
          var artifact = own
          if let file = related.file, file != report.path {
            if let known = elsewhere[file] {
              artifact = known
            } else {
              artifact = artifacts.reference(file)
              elsewhere[file] = artifact
            }
          }
          writer.beginObject()
          writer.member("id", index)
          writer.key("physicalLocation")
          writePhysicalLocation(artifact, related.range, to: &writer) { positions.display($0, of: related) }
          writer.key("message")
          text(related.message, to: &writer)
          writer.endObject()
        }
        writer.endArray()
      }
      writer.endObject()
    }
  }

  /// `{"text": text}`.
  static func text(_ text: String, to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.member("text", text)
    writer.endObject()
  }

  /// A location that names a file and no region: `{"physicalLocation": {"artifactLocation": ...}}`.
  static func writeArtifactOnly(_ artifact: ArtifactReference, to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("physicalLocation")
    writer.beginObject()
    writer.key("artifactLocation")
    artifact.write(to: &writer)
    writer.endObject()
    writer.endObject()
  }

  /// A `physicalLocation`: the file and the region of `range`, whose end column is one past
  /// its start when it is empty (a region has at least one character).
  static func writePhysicalLocation(
    _ artifact: ArtifactReference, _ range: TextRange, to writer: inout JSONStreamWriter,
    _ display: (Int) -> DisplayPosition
  ) {
    let start = display(range.start)
    let end = display(max(range.end, range.start))
    let endColumn = range.end == range.start ? end.column + 1 : end.column
    writer.beginObject()
    writer.key("artifactLocation")
    artifact.write(to: &writer)
    writer.key("region")
    writer.beginObject()
    writer.member("startLine", start.line)
    writer.member("startColumn", start.column)
    writer.member("endLine", end.line)
    writer.member("endColumn", endColumn)
    writer.endObject()
    writer.endObject()
  }

  /// The `partialFingerprints` key of the fingerprint a baseline records (``ProblemFingerprint``).
  static let problemFingerprintKey = "outlineProblem/v1"

  /// A report's results in document order: those reported (`new` with a baseline) and those the
  /// baseline held (`unchanged`), each with its fingerprint when the run made them.
  static func resultsInOrder(
    _ report: FileReport, baselined: Bool
  ) -> [(Diagnostic, String?, String?)] {
    var found: [(Diagnostic, String?, String?)] = report.diagnostics.indices.map { index in
      (report.diagnostics[index], report.fingerprints?[index], baselined ? "new" : nil)
    }
    if report.baselined.isEmpty { return found }
    found += report.baselined.map { ($0.diagnostic, $0.fingerprint, "unchanged") }
    return found.sorted { lhs, rhs in
      if lhs.0.range != rhs.0.range { return lhs.0.range < rhs.0.range }
      if lhs.0.code != rhs.0.code { return lhs.0.code.rawValue < rhs.0.code.rawValue }
      return lhs.0.message < rhs.0.message
    }
  }

  /// The run's `automationDetails.id` (its category, which GitHub code scanning reads
  /// unless the upload names one): the model check's own, so that its upload beside a lint's
  /// never replaces the lint's results; nil for the lint, whose uploads keep the category
  /// they always had (the Action's `outline`, or the workflow's).
  static func category(_ tool: String) -> String? {
    tool == LintRun.lintTool ? nil : tool.split(separator: " ").joined(separator: "-") + "/"
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
    hex(lineHash(code: code, path: path, trimmed: Array(line.trimmingWhitespace().utf8)))
  }

  /// FNV-1a 64 of the UTF-8 of `code`, a zero byte, `path`, a zero byte and `trimmed` (the
  /// line's text without surrounding white space), as one text.
  static func lineHash(code: String, path: String, trimmed: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ byte: UInt8) {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    for byte in code.utf8 { add(byte) }
    add(0)
    for byte in path.utf8 { add(byte) }
    add(0)
    for byte in trimmed { add(byte) }
    return hash
  }

  /// A hash as 16 lower-case hexadecimal digits.
  static func hex(_ hash: UInt64) -> String {
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
    /// The line's text without surrounding white space.
    private var trimmed: [UInt8] = []
    private var byCode: [String: UInt64] = [:]

    init(source: any DocumentLines, path: String) {
      self.path = path
      self.window = ByteWindow(source: source)
    }

    /// The hash of `line` (0-based) for `code` (``Fingerprint/hex(_:)`` spells it).
    mutating func hash(code: String, line: Int) -> UInt64 {
      if line != self.line {
        self.line = line
        byCode = [:]
        let start = window.source.lines.start(ofLine: line)
        var bytes: [UInt8] = []
        window.forEachPiece(from: start, to: window.contentEnd(ofLine: line)) { bytes += $0 }
        trimmed = Array(String(decoding: bytes, as: UTF8.self).trimmingWhitespace().utf8)
      }
      if let known = byCode[code] { return known }
      let hash = Fingerprint.lineHash(code: code, path: path, trimmed: trimmed)
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
