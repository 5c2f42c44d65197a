import OutlineCore
import OutlineJSON
import OutlineWorkspace

/// The editor's settings for the server (section `outline` of
/// `workspace/configuration` or `didChangeConfiguration`): `rules`, as in
/// `.outline.json`. The configuration file wins: a code it sets keeps its
/// level; the editor's rules apply to the codes it leaves alone.
struct EditorSettings: Equatable, Sendable {
  /// A severity per code, nil meaning `off`.
  var rules: [DiagnosticCode: Severity?] = [:]
  /// What could not be used, one line each (logged).
  var problems: [String] = []

  init() {}

  /// Reads the `outline` section (an object; anything else is no settings).
  init(_ section: JSONValue?) {
    guard case .object(let members)? = section else { return }
    for (key, value) in members {
      guard key == "rules" else {
        problems.append("unknown setting \(Excerpt.quoted(key)) (known: rules)")
        continue
      }
      guard case .object(let rules) = value else {
        problems.append("'rules' must be an object of code: level")
        continue
      }
      for (code, level) in rules {
        let diagnosticCode = DiagnosticCode(rawValue: code)
        guard DiagnosticCatalog.entry(for: diagnosticCode) != nil else {
          problems.append("unknown rule code \(Excerpt.quoted(code))")
          continue
        }
        if diagnosticCode == .notWellFormed && level.stringValue != "error" {
          // As in `.outline.json`: a file that is not well-formed XML is never clean.
          problems.append(
            "OL100 cannot be changed: a file that is not well-formed XML is not checked past its error")
        } else if level.stringValue == "off" {
          self.rules[diagnosticCode] = .some(nil)
        } else if let name = level.stringValue, let severity = Severity(name: name) {
          self.rules[diagnosticCode] = severity
        } else {
          problems.append("unknown level for \(code) (off, error, warning, information, hint)")
        }
      }
    }
  }

  /// `diagnostics`, as a validator reported them, with `configuration`'s rules
  /// and then the editor's applied, as ``apply(to:)`` leaves a whole document's.
  func apply(to diagnostics: [Diagnostic], configuration: Configuration?) -> [Diagnostic] {
    let configured = configuration?.apply(to: diagnostics) ?? diagnostics
    guard !rules.isEmpty else { return configured }
    let fromFile = configuration?.rules ?? [:]
    return configured.compactMap { diagnostic in
      guard fromFile[diagnostic.code] == nil, let rule = rules[diagnostic.code] else { return diagnostic }
      guard let severity = rule else { return nil }
      var changed = diagnostic
      changed.severity = severity
      return changed
    }
  }

  /// ``apply(to:configuration:)`` for one document, as the incremental analyses take it.
  func rules(_ configuration: Configuration?) -> ([Diagnostic]) -> [Diagnostic] {
    { apply(to: $0, configuration: configuration) }
  }

  /// `check` with the editor's rules applied to the codes its configuration file leaves alone.
  func apply(to check: DocumentCheck) -> DocumentCheck {
    guard !rules.isEmpty else { return check }
    let fromFile = check.configuration?.rules ?? [:]
    var applied = check
    applied.diagnostics = check.diagnostics.compactMap { diagnostic in
      guard fromFile[diagnostic.code] == nil, let rule = rules[diagnostic.code] else { return diagnostic }
      guard let severity = rule else { return nil }
      var changed = diagnostic
      changed.severity = severity
      return changed
    }
    return applied
  }

  /// The registration of `didChangeConfiguration` for section `outline`, when the client registers it dynamically.
  static func registration(_ client: LSP.ClientCapabilities) -> LSP.Registration? {
    guard client.workspace?.didChangeConfiguration?.dynamicRegistration == true else { return nil }
    return LSP.Registration(
      id: "outline-configuration", method: "workspace/didChangeConfiguration",
      registerOptions: try? LSPAny(
        JSONValueCoding.encode(LSP.DidChangeConfigurationRegistrationOptions(section: "outline"))))
  }

  static func == (lhs: EditorSettings, rhs: EditorSettings) -> Bool {
    lhs.rules == rhs.rules
  }
}
