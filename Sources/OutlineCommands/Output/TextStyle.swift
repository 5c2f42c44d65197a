import ArgumentParser
import Foundation
import OutlineCore

/// `--color auto|always|never`.
public enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
  case auto, always, never

  /// Whether output to `descriptor` is colored: `always` and `never` say so;
  /// `auto` colors only a terminal, and not when `NO_COLOR` is set to
  /// anything (no-color.org) or `TERM` is `dumb`. A pipe or a file never
  /// gets color unless the user asks with `always`.
  func enabled(descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Bool
  {
    switch self {
    case .always: return true
    case .never: return false
    case .auto:
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
      if environment["TERM"] == "dumb" { return false }
      return Terminal.isTerminal(descriptor)
    }
  }
}

/// ANSI styling of the text output; plain when color is off.
struct TextStyle: Sendable {
  let color: Bool

  init(_ color: Bool) { self.color = color }

  static let plain = TextStyle(false)

  private func paint(_ text: String, _ sgr: String) -> String {
    color ? "\u{1B}[\(sgr)m\(text)\u{1B}[0m" : text
  }

  /// The `path:line:col` of a diagnostic.
  func location(_ text: String) -> String { paint(text, "1") }

  /// `error`, `warning`, `hint`, `information` in their colors.
  func severity(_ severity: Severity) -> String {
    switch severity {
    case .error: paint("error", "1;31")
    case .warning: paint("warning", "1;33")
    case .information: paint("information", "1;34")
    case .hint: paint("hint", "1;36")
    }
  }

  /// A diagnostic code.
  func code(_ code: DiagnosticCode) -> String { paint(code.rawValue, "1") }

  /// `note` before a related location.
  func note(_ text: String) -> String { paint(text, "1;36") }

  /// The summary line: red when errors were found, green when none.
  func summary(_ text: String, errors: Bool) -> String { paint(text, errors ? "1;31" : "1;32") }
}
