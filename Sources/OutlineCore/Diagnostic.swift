/// How serious a diagnostic is, most serious first. Each output format says it
/// in its own terms (the language server maps it to LSP's numbers, SARIF to its
/// levels); the cases themselves carry no protocol's values. The synthesized
/// order is the order of the cases, so more serious sorts first.
public enum Severity: Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
  case error
  case warning
  case information
  case hint

  /// The lowercase name used in text output and configuration.
  public var description: String {
    switch self {
    case .error: "error"
    case .warning: "warning"
    case .information: "information"
    case .hint: "hint"
    }
  }

  /// Parses `error`, `warning`, `information` (or `info`) and `hint`.
  public init?(name: String) {
    switch name {
    case "error": self = .error
    case "warning": self = .warning
    case "information", "info": self = .information
    case "hint": self = .hint
    default: return nil
    }
  }
}

/// Another place that explains a diagnostic (the sibling with the same order).
public struct RelatedLocation: Hashable, Sendable {
  /// The place, in ``file`` or, when that is nil, in the diagnostic's own file.
  public var range: TextRange
  /// What the place has to do with the diagnostic.
  public var message: String
  /// The file the range is in, when it is not the diagnostic's own.
  public var file: String?

  /// Creates a related location.
  public init(range: TextRange, message: String, file: String? = nil) {
    self.range = range
    self.message = message
    self.file = file
  }
}

/// One problem found in a document: a catalog code, a severity, a message and an exact range.
public struct Diagnostic: Hashable, Sendable {
  /// The stable code from ``DiagnosticCatalog``.
  public var code: DiagnosticCode
  /// The severity; the catalog's default unless the code has a reason to differ.
  public var severity: Severity
  /// A sentence that names the values involved.
  public var message: String
  /// The bytes the diagnostic is about.
  public var range: TextRange
  /// Other places that explain it.
  public var related: [RelatedLocation]

  /// Creates a diagnostic with the code's default severity unless one is given.
  public init(
    _ code: DiagnosticCode, _ message: String, at range: TextRange, severity: Severity? = nil,
    related: [RelatedLocation] = []
  ) {
    self.code = code
    self.severity = severity ?? code.defaultSeverity
    self.message = message
    self.range = range
    self.related = related
  }

  /// Document order, then code, so output is deterministic.
  public static func sortedByPosition(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.sorted { lhs, rhs in
      if lhs.range != rhs.range { return lhs.range < rhs.range }
      if lhs.code != rhs.code { return lhs.code.rawValue < rhs.code.rawValue }
      return lhs.message < rhs.message
    }
  }
}
