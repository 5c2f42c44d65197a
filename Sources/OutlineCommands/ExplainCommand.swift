import ArgumentParser
import OutlineCore

/// `outline explain CODE`: what a diagnostic code means and how to fix it.
struct ExplainCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain", abstract: "Explain a diagnostic code, or print the whole catalog.")

  @Argument(help: "A code such as OL401.")
  var code: String?

  @Flag(help: "Print the catalog as Markdown (Documentation/Diagnostics.md).")
  var markdown = false

  func run() throws {
    if markdown {
      Terminal.write(DiagnosticCatalog.markdown())
      return
    }
    guard let code else {
      for entry in DiagnosticCatalog.entries {
        Terminal.write("\(entry.code)  \(entry.severity)  \(entry.title)\n")
      }
      return
    }
    guard let entry = DiagnosticCatalog.entry(for: DiagnosticCode(rawValue: code.uppercased())) else {
      Terminal.error("unknown code '\(code)'; `outline explain` lists them")
      throw ExitCode(2)
    }
    Terminal.write("\(entry.code) (\(entry.severity)): \(entry.title)\n\n\(entry.help)\n")
  }
}
