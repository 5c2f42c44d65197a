import ArgumentParser
import Foundation
import OutlineConvert
import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineWorkspace

/// `outline convert IN [-o OUT] [--to json|xml]` (SPEC §5, §6).
struct ConvertCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Convert between .outline XML and its typed JSON form.",
    discussion: """
      The direction comes from the extensions (.outline/.xml to .json and back) or --to. \
      - reads standard input; without -o (or with -o -) the result goes to standard output. \
      Input with errors is reported (JSON input with the JSON path of each problem) and \
      nothing is written. Files are written atomically.

      Exit status: 0 converted, 1 the input has errors, 2 usage or I/O trouble.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case json, xml
  }

  @Argument(help: "The input file, or - for standard input.")
  var input: String

  @Option(name: .shortAndLong, help: "The output file, or - for standard output (the default).")
  var output: String?

  @Option(help: "The output format: json or xml (default: from the extensions).")
  var to: Format?

  @Option(help: ArgumentHelp("Use this model, whatever the input says.", valueName: "path"))
  var model: String?

  func validate() throws {
    if direction() == nil {
      throw ValidationError("Cannot tell the direction from the file names; say --to json or --to xml.")
    }
  }

  private func direction() -> Format? {
    if let to { return to }
    let inputExtension = URL(fileURLWithPath: input).pathExtension
    let outputExtension = output.map { URL(fileURLWithPath: $0).pathExtension } ?? ""
    if outputExtension == "json" || inputExtension == "outline" || inputExtension == "xml" { return .json }
    if outputExtension == "outline" || outputExtension == "xml" || inputExtension == "json" { return .xml }
    return nil
  }

  func run() throws {
    let isStdin = input == "-"
    guard let bytes = isStdin ? FileInput.readStandardInput() : FileInput.read(input) else {
      Terminal.error("cannot read '\(input)'")
      throw ExitCode(2)
    }
    let name = isStdin ? "<stdin>" : input
    switch direction()! {
    case .json: try toJSON(bytes, name: name, path: isStdin ? nil : input)
    case .xml: try toXML(bytes, name: name, path: isStdin ? nil : input)
    }
  }

  private func toJSON(_ bytes: [UInt8], name: String, path: String?) throws {
    let source = SourceText(bytes: bytes)
    let configurations = ConfigurationFinder()
    let models = ModelCache()
    let check = DocumentCheck.run(
      source, path: path, modelOverride: model, configurations: configurations, models: models,
      buildTree: false)
    let errors = check.diagnostics.filter { $0.severity == .error }
    guard errors.isEmpty, let model = check.model else {
      Terminal.write(TextFormat.render([FileReport(path: name, source: source, diagnostics: errors)]), to: 2)
      Terminal.error("\(name) has errors; nothing was written")
      throw ExitCode(1)
    }
    let target = try OutputTarget(output)
    JSONFormWriter.write(
      source, model: model, rootEntity: check.rootEntity, childrenInOrder: check.childrenInOrder,
      tree: {
        OutlineValidator.validate(source, modelProvider: fixedModel(model), buildTree: true).tree!
      },
      output: { target.write($0) })
    try commit(target)
  }

  private func toXML(_ bytes: [UInt8], name: String, path: String?) throws {
    let configurations = ConfigurationFinder()
    let resolution = ModelResolution(
      override: model, configuration: configurations.configuration(for: path ?? "./-"), cache: ModelCache())
    let chosen: Model
    switch resolution.provider(for: path)(JSONFormReader.modelReference(in: bytes)) {
    case .loaded(let loaded): chosen = loaded
    case .unreadable(let reason):
      Terminal.error("\(name): the model cannot be read: \(reason)")
      throw ExitCode(2)
    }
    let xml: [UInt8]
    do {
      xml = try JSONFormReader.convert(bytes, model: chosen)
    } catch let error as JSONFormError {
      let position = SourceText(bytes: bytes).position(of: error.offset, unit: .scalar)
      Terminal.write(
        "\(name):\(position.line + 1):\(position.column + 1): error: \(error.message) (at \(error.path))\n",
        to: 2)
      Terminal.error("\(name) is not the JSON form; nothing was written")
      throw ExitCode(1)
    } catch {
      throw error
    }
    let target = try OutputTarget(output)
    target.write(xml)
    try commit(target)
  }

  private func commit(_ target: OutputTarget) throws {
    do {
      try target.commit()
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
  }
}
