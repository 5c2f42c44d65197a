import ArgumentParser
import Foundation
import OutlineConvert
import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineWorkspace

/// `outline import IN.opml [-o OUT.outline]`.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import an OPML 1.0/2.0 file as an .outline file.",
    discussion: """
      Head fields become attributes of the root object, <outline> elements nested Outline \
      objects numbered 0..n-1, and every attribute is kept. The output names a model written \
      next to it (OUT.xcdatamodel): the shipped OPML model, extended with any attribute it did \
      not know as an optional String. A file that is not well-formed or not OPML is reported \
      with its position and nothing is written.

      Exit status: 0 imported, 1 the input is not OPML, 2 usage or I/O trouble.
      """)

  @Argument(help: "The OPML file.")
  var input: String

  @Option(name: .shortAndLong, help: "The .outline file to write (default: the input's name with .outline).")
  var output: String?

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  func run() throws {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(input, limit: maxSize?.bytes ?? InputFile.defaultLimit)
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
    let (result, source) = OPMLReader.read(bytes)
    let document: OPMLDocument
    switch result {
    case .failure(let error):
      let position = source.position(of: error.range.start, unit: .scalar)
      Terminal.write("\(input):\(position.line + 1):\(position.column + 1): error: \(error.message)\n", to: 2)
      Terminal.error("\(input) was not imported; nothing was written")
      throw ExitCode(1)
    case .success(let read): document = read
    }
    let target = output ?? (URL(fileURLWithPath: input).deletingPathExtension().path + ".outline")
    guard target != "-" else {
      Terminal.error("import writes a model next to its output: give -o FILE.outline")
      throw ExitCode(2)
    }
    let stem = URL(fileURLWithPath: target).deletingPathExtension().lastPathComponent
    let modelFolder = URL(fileURLWithPath: target).deletingLastPathComponent().appendingPathComponent(
      stem + ".xcdatamodel")
    let imported = OPMLConversion.importOPML(document, modelReference: stem + ".xcdatamodel")
    do {
      // The model folder is made beside the output; the output's own folder must exist.
      if mkdir(modelFolder.path, 0o777) != 0 && errno != EEXIST {
        throw WriteError(
          description:
            "cannot write in '\(modelFolder.deletingLastPathComponent().path)': \(String(cString: strerror(errno)))"
        )
      }
      try AtomicFile.write(
        Array(imported.model.utf8), to: modelFolder.appendingPathComponent("contents").path)
      try AtomicFile.write(imported.outline, to: target)
    } catch let error as WriteError {
      Terminal.error(error.description)
      throw ExitCode(2)
    } catch {
      Terminal.error("cannot write '\(target)': \(error)")
      throw ExitCode(2)
    }
    let extras = imported.extraRootAttributes.count + imported.extraOutlineAttributes.count
    Terminal.write(
      "imported \(counted(document.outlines.count, "outline")) into \(target) (model \(modelFolder.lastPathComponent)\(extras > 0 ? ", \(counted(extras, "attribute")) added to it" : ""))\n",
      to: 2)
  }
}

/// `outline export IN.outline [-o OUT.opml]`.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export an .outline file (in the OPML model) as OPML.",
    discussion: """
      The inverse of `outline import`: root attributes become head fields (opmlVersion the \
      <opml> version), Outline objects <outline> elements in order order. The input must \
      validate without errors. Without -o (or with -o -) the OPML goes to standard output.

      Exit status: 0 exported, 1 the input has errors, 2 usage or I/O trouble.
      """)

  @Argument(help: "The .outline file, or - for standard input.")
  var input: String

  @Option(name: .shortAndLong, help: "The OPML file to write, or - for standard output (the default).")
  var output: String?

  @Option(help: ArgumentHelp("Use this model, whatever the file says.", valueName: "path"))
  var model: String?

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  func run() throws {
    let isStdin = input == "-"
    let configurations = ConfigurationFinder(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let bytes: [UInt8]
    do {
      bytes = try FileInput.read(input, limit: configurations.inputLimit(for: input, maxSize: maxSize))
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
    let source = SourceText(bytes: bytes)
    let check = DocumentCheck.run(
      source, path: isStdin ? nil : input, modelOverride: model, configurations: configurations,
      models: ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit), buildTree: true)
    let errors = check.diagnostics.filter { $0.severity == .error }
    if ConfigurationProblems.report(check.configuration) {
      Terminal.write(
        TextFormat.render([FileReport(path: isStdin ? "<stdin>" : input, source: source, diagnostics: errors)]
        ),
        to: 2)
      Terminal.error("nothing was written")
      throw ExitCode(2)
    }
    guard errors.isEmpty, let tree = check.tree else {
      Terminal.write(
        TextFormat.render([FileReport(path: isStdin ? "<stdin>" : input, source: source, diagnostics: errors)]
        ),
        to: 2)
      Terminal.error("\(input) has errors; nothing was written")
      throw ExitCode(1)
    }
    let target = try OutputTarget.open(output)
    target.write(OPMLConversion.write(OPMLConversion.exportOPML(source, tree: tree)))
    do {
      try target.commit()
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
  }
}
