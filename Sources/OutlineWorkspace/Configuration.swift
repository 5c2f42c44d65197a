import Foundation
import OutlineCore
import OutlineFiles
import OutlineJSON

/// `.outline.json`: which model applies, rule severities and exclusions (SPEC §8).
///
/// One configuration serves the command line and the server alike.
public struct Configuration: Sendable {
  /// The configuration file's path.
  public var path: String
  /// Its folder, which its paths and globs are relative to.
  public var folder: String
  /// The file's text, for positions of its diagnostics.
  public var source: SourceText
  /// `model`: the model for files no glob matches.
  public var model: String?
  /// `models`: the first glob that matches a file names its model.
  public var models: [(files: String, model: String)] = []
  /// `rules`: a severity per code, nil meaning `off`.
  public var rules: [DiagnosticCode: Severity?] = [:]
  /// `exclude`: globs of files a folder search passes over.
  public var exclude: [String] = []
  /// `maxSize`: the largest input read for the files it covers (`--max-size` wins).
  public var maxSize: Int?
  /// `modelRoots`: folders (relative to ``folder``) models may come from besides the project.
  public var modelRoots: [String] = []
  /// `baseline`: the baseline file (relative to ``folder``) whose problems are not reported.
  public var baseline: String?
  /// Problems in the file itself (OC100), with ranges in ``source``.
  public var diagnostics: [Diagnostic] = []

  /// The name searched for.
  public static let fileName = ".outline.json"

  /// Parses a configuration; problems become diagnostics, never a throw.
  public init(path: String, source: SourceText) {
    self.path = path
    self.folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    self.source = source
    var parser = ConfigurationParser(bytes: source.bytes)
    parser.parse(into: &self)
  }

  /// A configuration file that could not be read: no settings, one OC100 at its start.
  public init(path: String, unreadable error: ReadError) {
    self.path = path
    self.folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    self.source = SourceText(bytes: [])
    diagnostics = [
      Diagnostic(
        .configuration, "The configuration cannot be read (the default one applies): \(error.description)",
        at: TextRange(at: 0))
    ]
  }

  /// The folders models may come from besides the project, absolute and standardized.
  public var allowedModelRoots: [String] {
    modelRoots.map { URL(fileURLWithPath: resolve($0)).standardizedFileURL.path }
  }

  /// The model path for the document at `documentPath`, from `models` then `model`.
  public func modelPath(for documentPath: String?) -> String? {
    modelPathAndName(for: documentPath)?.path
  }

  /// The model path for the document at `documentPath` and the path as written in the file.
  public func modelPathAndName(for documentPath: String?) -> (path: String, named: String)? {
    if let documentPath, let relative = relativePath(of: documentPath) {
      for entry in models where Glob.matches(entry.files, relative) {
        return (resolve(entry.model), entry.model)
      }
    }
    return model.map { (resolve($0), $0) }
  }

  /// The baseline file's path (``baseline`` resolved against ``folder``), when one is named.
  public var baselinePath: String? { baseline.map(resolve) }

  /// Whether a folder search should pass over `documentPath`.
  public func excludes(_ documentPath: String) -> Bool {
    guard !exclude.isEmpty, let relative = relativePath(of: documentPath) else { return false }
    return exclude.contains { Glob.matches($0, relative) }
  }

  /// Whether a folder search should pass over the entry of `folder` named `name`, a name given
  /// as bytes since it need not be UTF-8 (``Glob/matches(_:bytes:)``).
  public func excludes(in folder: String, name: [UInt8]) -> Bool {
    guard !exclude.isEmpty, let relative = relativePath(of: folder + "/_") else { return false }
    // The folder's path relative to the configuration's, with its `/`, then the name.
    let path = Array(relative.utf8.dropLast()) + name
    return exclude.contains { Glob.matches($0, bytes: path) }
  }

  /// Applies `rules`: drops codes turned off, changes severities.
  /// Whether a rule turns `diagnostic`, an error, off or into less than an error.
  public func silences(_ diagnostic: Diagnostic) -> Bool {
    diagnostic.severity == .error && silences(diagnostic.code)
  }

  /// Whether a rule turns `code` off or makes it less than an error.
  public func silences(_ code: DiagnosticCode) -> Bool {
    guard let rule = rules[code] else { return false }
    return rule != .error
  }

  public func apply(to diagnostics: [Diagnostic]) -> [Diagnostic] {
    if rules.isEmpty { return diagnostics }
    return diagnostics.compactMap { diagnostic in
      guard let rule = rules[diagnostic.code] else { return diagnostic }
      guard let severity = rule else { return nil }
      var changed = diagnostic
      changed.severity = severity
      return changed
    }
  }

  private func resolve(_ path: String) -> String {
    path.hasPrefix("/") ? path : folder + "/" + path
  }

  private func relativePath(of documentPath: String) -> String? {
    // By string operations, as URLs spell them: a URL's standardization cost more than
    // linting a small file, once for every file a folder search finds.
    let absolute = ConfigurationFinder.standardized(documentPath)
    let base = ConfigurationFinder.standardized(folder)
    let prefix = base.hasSuffix("/") ? base : base + "/"
    return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : nil
  }
}

/// Reads `.outline.json` event by event, reporting every problem with its range.
struct ConfigurationParser {
  var reader: JSONReader

  init(bytes: [UInt8]) { reader = JSONReader(bytes) }

  private func problem(_ message: String, _ range: TextRange) -> Diagnostic {
    Diagnostic(.configuration, message, at: range)
  }

  mutating func parse(into configuration: inout Configuration) {
    do {
      guard try reader.next() == .objectStart else {
        configuration.diagnostics.append(problem("The configuration must be a JSON object", reader.range))
        return
      }
      var seen = Set<String>()
      while case .key(let key)? = try reader.next() {
        let keyRange = reader.range
        noteRepeated(key, in: &seen, at: keyRange, &configuration)
        switch key {
        case "model":
          if let value = try string(&configuration, "model") { configuration.model = value }
        case "models":
          try models(&configuration)
        case "rules":
          try rules(&configuration)
        case "exclude":
          try strings(&configuration, "exclude").map { configuration.exclude = $0 }
        case "modelRoots":
          try strings(&configuration, "modelRoots").map { configuration.modelRoots = $0 }
        case "maxSize":
          try maxSize(&configuration)
        case "baseline":
          try baseline(&configuration)
        default:
          configuration.diagnostics.append(
            problem(
              "Unknown key \(Excerpt.quoted(key)) (known: model, models, rules, exclude, modelRoots, maxSize, baseline)",
              keyRange))
          try skipValue()
        }
      }
      // Past the object's end only space may follow: this throws at any text there.
      _ = try reader.next()
    } catch {
      // A file that is not JSON says nothing reliable: none of it applies.
      configuration.model = nil
      configuration.models = []
      configuration.rules = [:]
      configuration.exclude = []
      configuration.modelRoots = []
      configuration.maxSize = nil
      configuration.baseline = nil
      configuration.diagnostics.append(
        problem(
          "Invalid JSON (the default configuration applies): \(error.message)", TextRange(at: error.offset)))
    }
  }

  /// A key an object already had is a problem (the JSON form refuses them too): which of the two
  /// values the user meant is not known. The later one is read, and the run stops for the problem.
  private func noteRepeated(
    _ key: String, in seen: inout Set<String>, at range: TextRange, _ configuration: inout Configuration
  ) {
    if !seen.insert(key).inserted {
      configuration.diagnostics.append(
        problem("\(Excerpt.quoted(key)) is written twice in this object; keep one", range))
    }
  }

  private mutating func maxSize(_ configuration: inout Configuration) throws(JSONSyntaxError) {
    let event = try reader.next()
    let text: String? =
      switch event {
      case .number(let digits): digits
      case .string(let written): written
      default: nil
      }
    if let text, let bytes = ByteCount.parse(text) {
      configuration.maxSize = bytes
    } else {
      configuration.diagnostics.append(
        problem("'maxSize' must be a size in bytes such as 268435456, \"512M\" or \"1G\"", reader.range))
      try skipRest(of: event)
    }
  }

  /// `baseline`: a path to a file, never empty and never a folder's (ending in `/`).
  private mutating func baseline(_ configuration: inout Configuration) throws(JSONSyntaxError) {
    let event = try reader.next()
    if case .string(let value) = event, !value.isEmpty, !value.hasSuffix("/"), !value.contains("\u{0}") {
      configuration.baseline = value
      return
    }
    configuration.diagnostics.append(
      problem(
        "'baseline' must name a file, such as \"outline-baseline.json\" (written by outline-lint --write-baseline)",
        reader.range))
    try skipRest(of: event)
  }

  private mutating func string(_ configuration: inout Configuration, _ what: String) throws(JSONSyntaxError)
    -> String?
  {
    let event = try reader.next()
    if case .string(let value) = event { return value }
    configuration.diagnostics.append(problem("\(Excerpt.quoted(what)) must be a string", reader.range))
    try skipRest(of: event)
    return nil
  }

  private mutating func strings(_ configuration: inout Configuration, _ what: String) throws(JSONSyntaxError)
    -> [String]?
  {
    let event = try reader.next()
    guard event == .arrayStart else {
      configuration.diagnostics.append(
        problem("\(Excerpt.quoted(what)) must be an array of strings", reader.range))
      try skipRest(of: event)
      return nil
    }
    var values: [String] = []
    while let item = try reader.next(), item != .arrayEnd {
      if case .string(let value) = item {
        values.append(value)
      } else {
        configuration.diagnostics.append(
          problem("\(Excerpt.quoted(what)) must hold strings only", reader.range))
        try skipRest(of: item)
      }
    }
    return values
  }

  private mutating func models(_ configuration: inout Configuration) throws(JSONSyntaxError) {
    let event = try reader.next()
    guard event == .arrayStart else {
      configuration.diagnostics.append(
        problem("'models' must be an array of {\"files\": glob, \"model\": path}", reader.range))
      try skipRest(of: event)
      return
    }
    while let item = try reader.next(), item != .arrayEnd {
      guard item == .objectStart else {
        configuration.diagnostics.append(problem("Each 'models' entry must be an object", reader.range))
        try skipRest(of: item)
        continue
      }
      let entryRange = reader.range
      var files: String?
      var model: String?
      var seen = Set<String>()
      while case .key(let key)? = try reader.next() {
        noteRepeated(key, in: &seen, at: reader.range, &configuration)
        switch key {
        case "files": files = try string(&configuration, "files")
        case "model": model = try string(&configuration, "model")
        default:
          configuration.diagnostics.append(
            problem(
              "Unknown key \(Excerpt.quoted(key)) in a 'models' entry (known: files, model)", reader.range))
          try skipValue()
        }
      }
      if let files, let model {
        configuration.models.append((files, model))
      } else {
        configuration.diagnostics.append(
          problem("A 'models' entry needs both 'files' and 'model'", entryRange))
      }
    }
  }

  private mutating func rules(_ configuration: inout Configuration) throws(JSONSyntaxError) {
    let event = try reader.next()
    guard event == .objectStart else {
      configuration.diagnostics.append(problem("'rules' must be an object of code: severity", reader.range))
      try skipRest(of: event)
      return
    }
    var seen = Set<String>()
    while case .key(let code)? = try reader.next() {
      let codeRange = reader.range
      noteRepeated(code, in: &seen, at: codeRange, &configuration)
      let value = try reader.next()
      let valueRange = reader.range
      let diagnosticCode = DiagnosticCode(rawValue: code)
      guard DiagnosticCatalog.entry(for: diagnosticCode) != nil else {
        configuration.diagnostics.append(problem("Unknown rule code \(Excerpt.quoted(code))", codeRange))
        try skipRest(of: value)
        continue
      }
      // Rules set the level of a document's diagnostics; a model's (OM) or a configuration's
      // (OC) are not documents', and a rule for one would change nothing.
      guard code.hasPrefix("OL") else {
        configuration.diagnostics.append(
          problem(
            "\(Excerpt.quoted(code)) is not a document's diagnostic code: rules set the level of OL codes only",
            codeRange))
        try skipRest(of: value)
        continue
      }
      guard case .string(let level) = value else {
        configuration.diagnostics.append(
          problem(
            "The level of \(code) must be a string: off, error, warning, information or hint", valueRange))
        try skipRest(of: value)
        continue
      }
      if diagnosticCode == .notWellFormed && level != "error" {
        // A file that is not well-formed XML is no outline: nothing after the error was read.
        configuration.diagnostics.append(
          problem(
            "OL100 cannot be changed: a file that is not well-formed XML is not checked past its error",
            valueRange))
        continue
      }
      if level == "off" {
        configuration.rules[diagnosticCode] = .some(nil)
      } else if let severity = Severity(name: level) {
        configuration.rules[diagnosticCode] = severity
      } else {
        configuration.diagnostics.append(
          problem(
            "Unknown level \(Excerpt.quoted(level)) for \(code) (off, error, warning, information, hint)",
            valueRange)
        )
      }
    }
  }

  private mutating func skipValue() throws(JSONSyntaxError) {
    try skipRest(of: try reader.next())
  }

  /// Consumes the rest of a value whose first event was `event`.
  private mutating func skipRest(of event: JSONEvent?) throws(JSONSyntaxError) {
    guard event == .objectStart || event == .arrayStart else { return }
    let depth = reader.depth - 1
    while reader.depth > depth {
      guard try reader.next() != nil else { return }
    }
  }
}
