import ArgumentParser
import OutlineCore
import OutlineFiles
import OutlineModel
import OutlineWorkspace

/// `outline model check PATH...`: the model checks of SPEC §2.
struct ModelCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "model", abstract: "Work with Core Data model files.",
    subcommands: [
      ModelCheckCommand.self, ModelGraphCommand.self, ModelDiffCommand.self, ModelRenameCommand.self,
    ])
}

struct ModelCheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Check Core Data models as Xcode's model compiler would.",
    discussion: """
      PATH is a `contents` file, a `.xcdatamodel` folder or a `.xcdatamodeld` bundle \
      (its current version). Exit status: 0 no errors, 1 errors found, 2 a model could not be read.
      """)

  @Argument(help: "Model files, .xcdatamodel folders or .xcdatamodeld bundles.")
  var paths: [String]

  @Option(help: "Output format: text, json, sarif or github.")
  var format: OutputFormat = .text

  @Flag(help: "Print only diagnostics, no summary.")
  var quiet = false

  @Option(help: "Color the text output: auto (only on a terminal, unless NO_COLOR is set), always or never.")
  var color: ColorChoice = .auto

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  func run() throws {
    var run = LintRun(reports: [], tool: "outline model check")
    for path in paths {
      do {
        let model = try ModelLocator.load(path: path, limit: maxSize?.bytes ?? InputFile.defaultLimit)
        run.reports.append(
          FileReport(path: model.path ?? path, source: model.source, diagnostics: model.diagnostics))
      } catch {
        Terminal.error("\(error)")
        run.problems.append(RunProblem(path: path, message: "\(error)"))
      }
    }
    OutputFormat.write(format, run, quiet: quiet, style: TextStyle(color.enabled(descriptor: 1)))
    if !run.problems.isEmpty { throw ExitCode(2) }
    if run.reports.contains(where: { $0.count(.error) > 0 }) { throw ExitCode(1) }
  }
}
