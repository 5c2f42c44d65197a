import ArgumentParser
import OutlineCore

/// `outline explain CODE`: what a diagnostic code means and how to fix it.
struct ExplainCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain", abstract: "Explain a diagnostic code, or print the whole catalog.")

  @Argument(help: "A code such as OL401.")
  var code: String?

  @Flag(
    help:
      "Print as Markdown: the code's section, or without a code the whole catalog (Documentation/Diagnostics.md)."
  )
  var markdown = false

  func run() throws {
    guard let code else {
      if markdown {
        Terminal.write(DiagnosticCatalog.markdown())
        return
      }
      for entry in DiagnosticCatalog.entries {
        Terminal.write("\(entry.code)  \(entry.severity)  \(entry.title)\n")
      }
      return
    }
    guard let entry = DiagnosticCatalog.entry(for: DiagnosticCode(rawValue: code.uppercased())) else {
      Terminal.error("unknown code \(Excerpt.quoted(code)); `outline explain` lists them")
      throw ExitCode(2)
    }
    if markdown {
      Terminal.write(DiagnosticCatalog.markdown(entry))
      return
    }
    Terminal.write("\(entry.code) (\(entry.severity)): \(entry.title)\n\n\(entry.help)\n")
  }
}
