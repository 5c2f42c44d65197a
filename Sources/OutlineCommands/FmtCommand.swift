import ArgumentParser
import Foundation
import OutlineConvert
import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineWorkspace

/// `outline fmt [--check] PATH...`: the canonical layout (SPEC §6).
struct FmtCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fmt",
    abstract: "Rewrite .outline files in the canonical layout (comments kept).",
    discussion: """
      Two-space indent, one object per line, attributes xml:id first then in model order, \
      values escaped as &amp; &lt; &quot;. A file that does not parse (or holds text inside \
      objects) is refused and left untouched. Writes are atomic. - formats standard input to \
      standard output. With no PATH, the current folder. --diff changes nothing and prints \
      what would change as a unified diff.

      Exit status: 0 done (with --check or --diff: nothing would change), 1 a file was \
      refused (with --check or --diff: a file would change), 2 usage or I/O trouble.
      """)

  @Flag(help: "Change nothing; list the files that would change and exit 1 if any would.")
  var check = false

  @Flag(
    help:
      "Change nothing; print what would change as a unified diff (diff -u, patch -p0) and exit 1 if anything would."
  )
  var diff = false

  @Option(help: ArgumentHelp("Order attributes by this model, whatever the files say.", valueName: "path"))
  var model: String?

  @OptionGroup var configuration: ConfigurationOptions

  @Flag(
    help:
      "Follow symbolic links to folders (and to files outside a searched folder); each folder is searched once."
  )
  var follow = false

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  @Option(
    help: ArgumentHelp(
      "The path standard input stands for: its configuration and model are found from it, and messages name it (implies - when no PATH is given).",
      valueName: "path"))
  var stdinFilename: String?

  @Argument(
    help: "Files, folders (searched for *.outline) or - for standard input (default: the current folder).")
  var paths: [String] = []

  func validate() throws {
    if let problem = StandardInput.usageProblem(paths: paths, stdinFilename: stdinFilename) {
      throw ValidationError(problem)
    }
  }

  func run() throws {
    let configurations = ConfigurationFinder(
      limit: maxSize?.bytes ?? InputFile.defaultLimit,
      choice: ConfigurationFinder.Choice(configuration.config, isolated: configuration.isolated))
    let models = ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    var troubled = false
    var refused = false
    var changed = false
    var written = 0
    let versions = DocumentVersions(configurations: configurations, models: models, modelOverride: model)
    let reads = check || diff
    let files = FileCollector.collect(
      paths.isEmpty ? StandardInput.defaultPaths(stdinFilename: stdinFilename) : paths,
      configurations: configurations,
      follow: follow, oncePerFile: !reads
    ) { trouble in
      Terminal.error(trouble.message)
      troubled = true
    }
    for path in files {
      let run = FmtRun(
        path: path, check: reads, diff: diff, stdinFilename: stdinFilename, modelOverride: model,
        limit: configurations.inputLimit(for: path, maxSize: maxSize))
      switch run.format(configurations: configurations, models: models, versions: versions) {
      case .unchanged: break
      case .written: written += 1
      case .changed: changed = true
      case .refused: refused = true
      case .trouble: troubled = true
      }
    }
    // Only what was really written is counted.
    if !reads && written > 0 {
      Terminal.write("formatted \(written) file\(written == 1 ? "" : "s")\n", to: 2)
    }
    if troubled { throw ExitCode(2) }
    if refused || (reads && changed) { throw ExitCode(1) }
  }
}
