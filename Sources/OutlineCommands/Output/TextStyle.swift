import ArgumentParser
import Foundation
import OutlineCore

/// `--color auto|always|never`.
public enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
  case auto, always, never

  /// Whether output to `descriptor` is colored: `always` and `never` say so;
  /// `auto` colors only a terminal, and not when `NO_COLOR` is set to
  /// anything (no-color.org) or `TERM` is `dumb`. A pipe or a file never
  /// gets color unless the user asks with `always`. The environment is
  /// read only for a terminal (building it shows in the time of a tiny file's lint).
  func enabled(
    descriptor: Int32, environment: @autoclosure () -> [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    switch self {
    case .always: return true
    case .never: return false
    case .auto:
      guard Terminal.isTerminal(descriptor) else { return false }
      let environment = environment()
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
      return environment["TERM"] != "dumb"
    }
  }
}

/// ANSI styling of the text output; plain when color is off.
struct TextStyle: Sendable {
  let color: Bool

  init(_ color: Bool) { self.color = color }

  static let plain = TextStyle(false)

  /// What a styled span is.
  enum Span {
    /// The `path:line:col:` of a diagnostic or a note.
    case location
    /// `error`, `warning`, `information`, `hint`.
    case severity(Severity)
    /// A diagnostic code.
    case code
    /// `note` before a related location.
    case note

    var sgr: String {
      switch self {
      case .location, .code: "1"
      case .severity(.error): "1;31"
      case .severity(.warning): "1;33"
      case .severity(.information): "1;34"
      case .severity(.hint): "1;36"
      case .note: "1;36"
      }
    }
  }

  /// Starts `span` (nothing without color).
  func open(_ span: Span, _ out: inout [UInt8]) {
    if color { out.appendUTF8("\u{1B}[\(span.sgr)m") }
  }

  /// Ends the span opened last.
  func close(_ out: inout [UInt8]) {
    if color { out.appendUTF8("\u{1B}[0m") }
  }

  /// The summary line: red when errors were found, green when none.
  func summary(_ text: String, errors: Bool) -> String {
    color ? "\u{1B}[\(errors ? "1;31" : "1;32")m\(text)\u{1B}[0m" : text
  }
}
