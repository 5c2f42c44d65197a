import ArgumentParser
import Foundation
import OutlineConvert
import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineWorkspace
import OutlineXML

/// `outline convert IN [-o OUT] [--to json|xml]` (SPEC §5, §6).
struct ConvertCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Convert between .outline XML and its typed JSON form.",
    discussion: """
      The direction comes from the extensions (.outline/.xml to .json and back) or --to. \
      - reads standard input; without -o (or with -o -) the result goes to standard output. \
      Input with errors is reported (JSON input with the JSON path of each problem) and \
      nothing is written. Files are written atomically. A file whose children are already \
      in order converts in memory that does not grow with its size.

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

  @Option(help: InputSize.help)
  var maxSize: InputSize?

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
    switch direction()! {
    case .json: try toJSON()
    case .xml: try toXML()
    }
  }

  private var isStdin: Bool { input == "-" }
  private var name: String { isStdin ? "<stdin>" : input }

  /// One pass validates and writes (into the target's temporary file or
  /// spool); the output is kept only when the input had no error and its
  /// children were in order order. Otherwise it is thrown away: errors are
  /// reported, and out-of-order children are written again from the tree.
  private func toJSON() throws {
    let configurations = ConfigurationFinder(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let models = ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let limit = configurations.inputLimit(for: input, maxSize: maxSize)
    let target = try OutputTarget.open(output, spooled: true, input: input)
    var writer: AlongsideWriter?
    let alongside = { (validator: OutlineValidator) -> any XMLEventHandler in
      let made = JSONFormWriter.alongside(validator) { target.write($0) }
      writer = made
      return made
    }
    let check: DocumentCheck
    let lines: any DocumentLines
    var source: SourceText?
    if isStdin {
      let bytes: [UInt8]
      do {
        bytes = try FileInput.read(input, limit: limit)
      } catch {
        throw fail(error.description, 2)
      }
      source = SourceText(bytes: bytes)
      check = DocumentCheck.run(
        source!, path: nil, modelOverride: model, configurations: configurations, models: models,
        buildTree: false, alongside: alongside)
      lines = source!
    } else {
      do {
        (check, lines) = try DocumentCheck.stream(
          path: input, modelOverride: model, configurations: configurations, models: models,
          limit: limit, alongside: alongside)
      } catch {
        throw fail(error.description, 2)
      }
    }
    let errors = check.diagnostics.filter { $0.severity == .error }
    let brokenConfiguration = ConfigurationProblems.report(check.configuration)
    guard errors.isEmpty, let model = check.model else {
      Terminal.write(TextFormat.render([FileReport(path: name, source: lines, diagnostics: errors)]), to: 2)
      throw fail("\(name) has errors; nothing was written", brokenConfiguration ? 2 : 1)
    }
    if brokenConfiguration { throw fail("nothing was written", 2) }
    if check.childrenInOrder {
      writer?.finish()
    } else {
      target.reset()
      let whole: SourceText
      if let source {
        whole = source
      } else {
        do {
          whole = SourceText(bytes: try FileInput.read(input, limit: limit))
        } catch {
          throw fail(error.description, 2)
        }
      }
      let tree = OutlineValidator.validate(whole, modelProvider: fixedModel(model), buildTree: true).tree!
      JSONFormWriter.writeTree(whole, tree: tree, model: model, rootEntity: check.rootEntity) {
        target.write($0)
      }
    }
    try commit(target)
  }

  private func toXML() throws {
    let configurations = ConfigurationFinder(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let limit = configurations.inputLimit(for: input, maxSize: maxSize)
    let bytes: ByteBuffer
    do {
      bytes =
        isStdin
        ? ByteBuffer(copying: try FileInput.read(input, limit: limit))
        : try MappedFile.map(input, limit: limit)
    } catch {
      throw fail(error.description, 2)
    }
    let configuration = configurations.configuration(for: isStdin ? "./-" : input)
    if ConfigurationProblems.report(configuration) { throw fail("nothing was written", 2) }
    let resolution = ModelResolution(
      override: model, configuration: configuration,
      cache: ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit))
    let provider = resolution.provider(for: isStdin ? nil : input)
    let target = try OutputTarget.open(output, spooled: true, input: input)
    do {
      try JSONFormReader.convert(
        bytes,
        choosingModel: { reference in
          switch provider(reference) {
          case .loaded(let loaded): return loaded
          case .unreadable(let reason): throw UnreadableModel(reason: reason)
          case .refused(let reason): throw RefusedModel(reason: reason)
          }
        }, output: { target.write($0) }, restart: { target.reset() })
    } catch let error as JSONFormError {
      var report = ""
      for problem in error.all {
        let position = Self.position(of: problem.offset, in: bytes.buffer)
        let code = problem.fromValidator ? " [\(problem.code)]" : ""
        report +=
          "\(name):\(position.line + 1):\(position.column + 1): error: \(problem.message)\(code) (at \(problem.path))\n"
      }
      Terminal.write(report, to: 2)
      throw fail("\(name) is not the JSON form; nothing was written", 1)
    } catch let error as UnreadableModel {
      throw fail("\(name): the model cannot be read: \(error.reason)", 2)
    } catch let error as RefusedModel {
      throw fail("\(name): \(DiagnosticCode.modelOutsideProject): \(error.reason); nothing was written", 1)
    }
    try commit(target)
  }

  private struct UnreadableModel: Error {
    var reason: String
  }

  private struct RefusedModel: Error {
    var reason: String
  }

  /// Line and character column of `offset`, reading only up to it.
  static func position(of offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> SourcePosition {
    let end = min(offset, buffer.count)
    let lines = LineIndex(UnsafeBufferPointer(rebasing: buffer[0..<end]))
    return SourceText.position(of: end, unit: .scalar, lines: lines, bytes: buffer)
  }

  private func fail(_ message: String, _ status: Int32) -> ExitCode {
    Terminal.error(message)
    return ExitCode(status)
  }

  private func commit(_ target: OutputTarget) throws {
    do {
      try target.commit()
    } catch {
      throw fail(error.description, 2)
    }
  }
}
