import Foundation
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

  /// `workingFolder` (an absolute path's bytes; nil when unknown) is the base of the relative paths: files
  /// inside it are written relative to `%SRCROOT%`, which `originalUriBaseIds` sets to it.
  static func document(_ run: LintRun, workingFolder: [UInt8]? = ArtifactURI.workingFolder) -> JSONValue {
    let artifacts = ArtifactURI(workingFolderBytes: workingFolder)
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
      ("name", .string(run.tool)),
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
        "locations": [
          ["physicalLocation": ["artifactLocation": artifacts.location(bytes: problem.pathBytes)]]
        ],
      ]
    }
    var results: [JSONValue] = []
    let baselined = run.baseline != nil
    for report in reports {
      let positions = ReportPositions(report)
      var hashes = Fingerprint.LineHashes(source: report.source, path: report.path)
      var occurrences: [String: Int] = [:]
      for (diagnostic, fingerprint, state) in resultsInOrder(report, baselined: baselined) {
        let start = positions.display(diagnostic.range.start)
        let hash = hashes.hash(code: diagnostic.code.rawValue, line: start.line - 1)
        let occurrence = occurrences[hash, default: 0] + 1
        occurrences[hash] = occurrence
        var fingerprints: [(String, JSONValue)] = [
          ("primaryLocationLineHash", .string("\(hash):\(occurrence)"))
        ]
        if let fingerprint { fingerprints.append((problemFingerprintKey, .string(fingerprint))) }
        var result: [(String, JSONValue)] = [
          ("ruleId", .string(diagnostic.code.rawValue)),
          ("level", .string(level(diagnostic.severity))),
          ("message", ["text": .string(diagnostic.message)]),
          ("locations", [location(artifacts, report.path, diagnostic.range) { positions.display($0) }]),
          ("partialFingerprints", .object(fingerprints)),
        ]
        if let state { result.append(("baselineState", .string(state))) }
        if let index = ruleIndex[diagnostic.code] { result.insert(("ruleIndex", .int(index)), at: 1) }
        if !diagnostic.related.isEmpty {
          result.append(
            (
              "relatedLocations",
              .array(
                diagnostic.related.enumerated().map { index, related in
                  var value = location(artifacts, related.file ?? report.path, related.range) {
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
    // Baselined problems no longer found: results that passed, so a viewer can close them.
    for (entry, path) in run.baseline?.absent ?? [] {
      var result: [(String, JSONValue)] = [
        ("ruleId", .string(entry.code)),
        ("kind", "pass"),
        ("level", "none"),
        ("message", ["text": .string(entry.message)]),
        ("locations", [["physicalLocation": ["artifactLocation": artifacts.location(path)]]]),
        ("partialFingerprints", [problemFingerprintKey: .string(entry.fingerprint)]),
        ("baselineState", "absent"),
      ]
      if let index = ruleIndex[DiagnosticCode(rawValue: entry.code)] {
        result.insert(("ruleIndex", .int(index)), at: 1)
      }
      results.append(.object(result))
    }
    var sarifRun: [(String, JSONValue)] = [("tool", ["driver": .object(driver)])]
    if let category = category(run.tool) { sarifRun.append(("automationDetails", ["id": .string(category)])) }
    if let base = artifacts.baseURI {
      sarifRun.append(("originalUriBaseIds", [ArtifactURI.baseID: ["uri": .string(base)]]))
    }
    sarifRun += [
      (
        "invocations",
        [
          [
            "executionSuccessful": .bool(run.problems.isEmpty),
            "toolExecutionNotifications": .array(notifications),
          ]
        ]
      ),
      ("columnKind", "unicodeCodePoints"),
      ("results", .array(results)),
    ]
    let document: JSONValue = [
      "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
      "version": "2.1.0",
      "runs": [.object(sarifRun)],
    ]
    return document
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

  static func location(
    _ artifacts: ArtifactURI, _ path: String, _ range: TextRange, _ display: (Int) -> DisplayPosition
  ) -> JSONValue {
    let start = display(range.start)
    let end = display(max(range.end, range.start))
    let endColumn = range.end == range.start ? end.column + 1 : end.column
    return [
      "physicalLocation": [
        "artifactLocation": artifacts.location(path),
        "region": [
          "startLine": .int(start.line), "startColumn": .int(start.column),
          "endLine": .int(end.line), "endColumn": .int(endColumn),
        ],
      ]
    ]
  }

  /// `Title Words` as a PascalCase rule name.
  static func ruleName(_ title: String) -> String {
    title.split { !$0.isLetter && !$0.isNumber }.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }
}

/// Where SARIF says a file is (`artifactLocation`), so that every `uri` resolves (SARIF
/// 2.1.0 §3.4.3, §3.14.14): a file inside the working folder by its path from there, against
/// the base `%SRCROOT%` that the run's `originalUriBaseIds` sets to that folder (as GitHub
/// code scanning reads a path from the checkout); any other file by an absolute `file://`
/// URI. Paths are taken as bytes, so a name that is not UTF-8 is encoded as the bytes it has;
/// every byte but unreserved characters, sub-delimiters and `/` is percent-encoded (RFC 3986);
/// `..` and `.` are applied to the path as text, as a URI reader applies them.
struct ArtifactURI {
  /// The base id of the working folder.
  static let baseID = "%SRCROOT%"

  /// The process's working folder as its bytes (a name that is not UTF-8 kept, as the
  /// files' are), or nil when it cannot be known (removed while running).
  static var workingFolder: [UInt8]? { workingFolderBytes() }

  /// The working folder's names from the root, or nil when it is not known.
  let folder: [[UInt8]]?

  /// The locations of files for a working folder given as its path's bytes (nil: not known).
  init(workingFolderBytes: [UInt8]?) {
    folder = workingFolderBytes.map { Self.names($0) }
  }

  /// The locations of files for a working folder given as a path (nil: not known).
  init(workingFolder: String?) {
    self.init(workingFolderBytes: workingFolder.map { Array($0.utf8) })
  }

  /// `%SRCROOT%` as an absolute URI ending with a slash, or nil without a working folder.
  var baseURI: String? {
    folder.map { "file://" + Self.encoded(Self.spelled($0)) + ($0.isEmpty ? "" : "/") }
  }

  /// The `artifactLocation` of `path` (as the user gave it, relative to the working folder or absolute).
  func location(_ path: String) -> JSONValue {
    location(bytes: Array(path.utf8))
  }

  /// The `artifactLocation` of the path whose bytes are `path`.
  func location(bytes path: [UInt8]) -> JSONValue {
    // Standard input is no file: its name stays a name.
    if path.elementsEqual("<stdin>".utf8) { return ["uri": .string(Self.encoded(path))] }
    let absolute = path.first == Self.slash
    guard let folder else {
      if absolute {
        return ["uri": .string("file://" + Self.encoded(Self.spelled(Self.names(path))))]
      }
      // No base to resolve against: a relative path stays as given, which is all it can be.
      var relative = path[...]
      while relative.starts(with: [UInt8(ascii: "."), Self.slash]) { relative = relative.dropFirst(2) }
      return ["uri": .string(Self.encoded(relative))]
    }
    let names = Self.names(absolute ? path : Self.spelled(folder) + [Self.slash] + path)
    if names.count > folder.count && names.starts(with: folder) {
      return [
        "uri": .string(Self.encoded(Array(names[folder.count...].joined(separator: [Self.slash])))),
        "uriBaseId": .string(Self.baseID),
      ]
    }
    return ["uri": .string("file://" + Self.encoded(Self.spelled(names)))]
  }

  private static let slash = UInt8(ascii: "/")

  /// The names of `path` from the root (or from where a relative path starts), `.` and `..`
  /// applied and empty names dropped.
  static func names(_ path: [UInt8]) -> [[UInt8]] {
    var names: [[UInt8]] = []
    for name in path.split(separator: slash, omittingEmptySubsequences: true) {
      if name.elementsEqual("..".utf8) {
        if !names.isEmpty { names.removeLast() }
      } else if !name.elementsEqual(".".utf8) {
        names.append(Array(name))
      }
    }
    return names
  }

  /// `/a/b` for the names `a`, `b`; `/` for none.
  static func spelled(_ names: [[UInt8]]) -> [UInt8] {
    names.isEmpty ? [slash] : names.flatMap { [slash] + $0 }
  }

  /// The bytes allowed as they are: unreserved characters, sub-delimiters and `/`.
  private static let allowed: [Bool] = {
    var allowed = [Bool](repeating: false, count: 256)
    for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=/".utf8 {
      allowed[Int(byte)] = true
    }
    return allowed
  }()

  /// `bytes` with every byte but unreserved characters, sub-delimiters and `/` percent-encoded
  /// (RFC 3986 §2.1, upper-case digits).
  static func encoded(_ bytes: some Sequence<UInt8>) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in bytes {
      if allowed[Int(byte)] {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
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
