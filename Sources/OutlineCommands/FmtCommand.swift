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
      standard output.

      Exit status: 0 done (with --check: nothing would change), 1 a file was refused \
      (with --check: a file would change), 2 usage or I/O trouble.
      """)

  @Flag(help: "Change nothing; list the files that would change and exit 1 if any would.")
  var check = false

  @Option(help: ArgumentHelp("Order attributes by this model, whatever the files say.", valueName: "path"))
  var model: String?

  @Flag(
    help:
      "Follow symbolic links to folders (and to files outside a searched folder); each folder is searched once."
  )
  var follow = false

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  @Argument(help: "Files, folders (searched for *.outline) or - for standard input.")
  var paths: [String]

  func run() throws {
    let configurations = ConfigurationFinder(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let models = ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    var troubled = false
    var refused = false
    var changed: [String] = []
    var written = 0
    let versions = DocumentVersions(configurations: configurations, models: models, modelOverride: model)
    let files = FileCollector.collect(paths, configurations: configurations, follow: follow) { _, message in
      Terminal.error(message)
      troubled = true
    }
    for path in files {
      let isStdin = path == "-"
      // Taken before reading: a write after it shows in the file's stamp, or in its bytes.
      let snapshot = isStdin ? nil : FileSnapshot.take(path)
      let bytes: [UInt8]
      do {
        bytes = try FileInput.read(path, limit: configurations.inputLimit(for: path, maxSize: maxSize))
      } catch {
        Terminal.error(error.description)
        troubled = true
        continue
      }
      let source = SourceText(bytes: bytes)
      // One parse: the formatter hears the validator's events and is used only if the check allows.
      var formatter: OutlineConvert.Formatter?
      let checked = DocumentCheck.run(
        source, path: isStdin ? nil : path, modelOverride: model, configurations: configurations,
        models: models, buildTree: false
      ) { validator in
        let alongside = OutlineConvert.Formatter.alongside(source) { validator.model }
        formatter = alongside
        return alongside
      }
      if ConfigurationProblems.report(checked.configuration) {
        // The layout follows the model, which a broken configuration may have chosen: write nothing.
        troubled = true
        continue
      }
      if let blocker = checked.diagnostics.first(where: {
        $0.code == .notWellFormed || $0.code == .doctypePresent || $0.code == .textInObject
          || $0.code == .valueTooLarge
      }) {
        let position = source.position(of: blocker.range.start, unit: .scalar)
        Terminal.error(
          "cannot format \(isStdin ? "<stdin>" : path):\(position): \(blocker.code): \(blocker.message)")
        refused = true
        continue
      }
      var formatted = formatter?.finish() ?? OutlineConvert.Formatter.format(source, model: checked.model)
      if let edit = versions.recordingEdit(for: checked, bytes: bytes),
        let recorded = TextEdit.apply([edit], to: bytes)
      {
        // A document that fits the current version of a versioned model says so.
        formatted = OutlineConvert.Formatter.format(SourceText(bytes: recorded), model: checked.model)
      }
      if isStdin {
        if let code = FileDescriptorIO.writeAll(1, formatted) {
          Terminal.error("cannot write standard output: \(String(cString: strerror(code)))")
          troubled = true
        }
        continue
      }
      guard formatted != bytes else { continue }
      changed.append(path)
      if check {
        Terminal.write("\(path)\n")
        continue
      }
      do {
        try AtomicFile.write(
          formatted, to: path, unchangedSince: snapshot?.holding(bytes), activity: "formatted")
        written += 1
      } catch {
        Terminal.error(error.description)
        troubled = true
      }
    }
    // Only what was really written is counted.
    if !check && written > 0 {
      Terminal.write("formatted \(written) file\(written == 1 ? "" : "s")\n", to: 2)
    }
    if troubled { throw ExitCode(2) }
    if refused || (check && !changed.isEmpty) { throw ExitCode(1) }
  }
}
