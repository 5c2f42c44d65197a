import ArgumentParser
import Foundation
import OutlineConvert
import OutlineCore
import OutlineFiles
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
      not know as an optional String. The head's fields keep their order. A file that is not \
      well-formed or not OPML, or holds what an .outline could not (an xml:id that is no XML \
      name or comes twice, a prefixed name import would prefix again), is reported with its \
      position and nothing is written. A file already there that -o did not name (the \
      default .outline, the model) is replaced only with --force, or when it already holds \
      exactly what would be written.

      Exit status: 0 imported, 1 the input is not OPML, 2 usage or I/O trouble.
      """)

  @Argument(help: "The OPML file.")
  var input: String

  @Option(name: .shortAndLong, help: "The .outline file to write (default: the input's name with .outline).")
  var output: String?

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  @Flag(help: "Replace an existing model beside the output, or an existing .outline that -o did not name.")
  var force = false

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
    let target = output ?? ((input as NSString).deletingPathExtension + ".outline")
    guard target != "-" else {
      Terminal.error("import writes a model next to its output: give -o FILE.outline")
      throw ExitCode(2)
    }
    let stem = URL(fileURLWithPath: target).deletingPathExtension().lastPathComponent
    // Named as the user named the output, so messages say what they typed.
    let outputFolder = PathText.folder(of: target)
    let modelFolder = (outputFolder.isEmpty ? "" : outputFolder + "/") + stem + ".xcdatamodel"
    let modelPath = modelFolder + "/contents"
    let imported = OPMLConversion.importOPML(document, modelReference: stem + ".xcdatamodel")
    // What -o named may be replaced; the default name and the model beside it only with --force.
    let outlinePolicy: ExistingFile = force || output != nil ? .replace : .keep
    let modelPolicy: ExistingFile = force ? .replace : .keep
    // The model folder is made beside the output (the output's own folder must exist), and
    // removed again if nothing was written into it.
    let madeFolder = mkdir(modelFolder, 0o777) == 0
    let folderError = madeFolder ? 0 : errno
    do throws(WriteError) {
      if !madeFolder && folderError != EEXIST {
        throw WriteError(
          description:
            "cannot write \(Excerpt.quotedPath(modelPath)): \(String(cString: strerror(folderError)))")
      }
      let outlineWriter = try AtomicFileWriter(path: target, existing: outlinePolicy, distinctFrom: input)
      let modelWriter = try AtomicFileWriter(path: modelPath, existing: modelPolicy, distinctFrom: input)
      outlineWriter.write(imported.outline)
      modelWriter.write(Array(imported.model.utf8))
      // Both or neither: a model replaced (--force) is put back when the outline fails.
      do throws(AtomicFileGroup.Failure) {
        try AtomicFileGroup.commit([modelWriter, outlineWriter])
      } catch {
        for line in error.notRestored { Terminal.error(line) }
        throw error.failed
      }
    } catch {
      if madeFolder { rmdir(modelFolder) }
      Terminal.error(error.description + (error.reason == .exists ? " (use --force to replace it)" : ""))
      throw ExitCode(2)
    }
    let extras = imported.extraRootAttributes.count + imported.extraOutlineAttributes.count
    Terminal.write(
      "imported \(counted(document.outlines.count, "outline")) into \(target) (model \(stem).xcdatamodel\(extras > 0 ? ", \(counted(extras, "attribute")) added to it" : ""))\n",
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
      validate without errors and be in the OPML model: a document holding what `outline \
      import` would not read back (objects of other entities, relationships, attributes of \
      other types than String) is refused with each place named, and nothing is written \
      (`outline convert` keeps everything). Without -o (or with -o -) the OPML goes to \
      standard output.

      Exit status: 0 exported, 1 the input has errors or holds what OPML cannot carry back, \
      2 usage or I/O trouble.
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
    let configurations = ConfigurationFinder(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let conversion = Conversion(
      input: input, target: .opml, modelOverride: model, configurations: configurations,
      models: ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit),
      limit: configurations.inputLimit(for: input, maxSize: maxSize))
    // Export has always named standard input `-` when it has errors.
    try conversion.perform(writingTo: output, spooled: false, errorsName: input)
  }
}
