import ArgumentParser
import Foundation
import OutlineConvert
import OutlineCore
import OutlineFiles
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
    // (An output that is the input is said as such, by the writer.)
    if to == nil, let format = Self.format(ofName: input), let output,
      Self.format(ofName: output) == format, !AtomicFile.sameFile(input, output)
    {
      throw ValidationError(
        "The input and the output are both \(format == .json ? "JSON" : "XML") by their names: nothing to convert; say --to json or --to xml to write one anyway."
      )
    }
    if Self.direction(input: input, output: output, to: to) == nil {
      throw ValidationError("Cannot tell the direction from the file names; say --to json or --to xml.")
    }
  }

  /// The format a file name says: `.json` the JSON form, `.outline` or `.xml` XML.
  static func format(ofName name: String) -> Format? {
    switch URL(fileURLWithPath: name).pathExtension {
    case "json": .json
    case "outline", "xml": .xml
    default: nil
    }
  }

  /// The format `input` becomes: `to`, else what the names say (the output's first); nil when
  /// they say nothing.
  static func direction(input: String, output: String?, to: Format?) -> Format? {
    if let to { return to }
    if let output, output != "-", let format = format(ofName: output) { return format }
    switch format(ofName: input) {
    case .json?: return .xml
    case .xml?: return .json
    default: return nil
    }
  }

  func run() throws {
    try Self.convert(
      input: input, output: output, direction: Self.direction(input: input, output: output, to: to)!,
      model: model, maxSize: maxSize)
  }

  /// Converts `input` to `direction`'s format, written to `output` (standard output when nil).
  static func convert(input: String, output: String?, direction: Format, model: String?, maxSize: InputSize?)
    throws
  {
    let configurations = ConfigurationFinder(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    var conversion = Conversion(
      input: input, target: direction == .json ? .json : .xml, modelOverride: model,
      configurations: configurations, models: ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit),
      limit: configurations.inputLimit(for: input, maxSize: maxSize))
    conversion.rebaseModel = rebasing(from: input, to: output)
    try conversion.perform(writingTo: output, spooled: true)
  }

  /// How a relative model reference of `input` is written in `output` when the two lie in
  /// different folders: relative to the output's folder, naming the same model (as `outline new
  /// -o` writes it); nil when they share a folder, or either is standard input or output.
  static func rebasing(from input: String, to output: String?) -> (@Sendable (String) -> String)? {
    guard input != "-", let output, output != "-" else { return nil }
    let inputFolder = URL(fileURLWithPath: input).deletingLastPathComponent().standardizedFileURL
    let outputFolder = URL(fileURLWithPath: output).deletingLastPathComponent().standardizedFileURL
    guard inputFolder.resolvingSymlinksInPath() != outputFolder.resolvingSymlinksInPath() else { return nil }
    return { reference in
      guard !reference.isEmpty, !reference.hasPrefix("/") else { return reference }
      return NewCommand.relativePath(
        of: inputFolder.appendingPathComponent(reference).path, from: outputFolder)
    }
  }

  /// Line and character column of `offset`, reading only up to it.
  static func position(of offset: Int, in bytes: ByteView) -> SourcePosition {
    let end = min(max(0, offset), bytes.count)
    let lines = LineIndex(bytes.extracting(upTo: end))
    return SourceText.position(of: end, unit: .scalar, lines: lines, bytes: bytes)
  }
}

extension OutputTarget: ConversionOutput {}

extension Conversion {
  /// `errors` with a note on the first when the input was read as XML but starts, after white
  /// space, with `{` or `[`, as the JSON form does: libxml2 says only that a start tag was
  /// expected.
  static func notingJSONForm(_ errors: [Diagnostic], lines: any DocumentLines) -> [Diagnostic] {
    guard var first = errors.first, first.code == .notWellFormed else { return errors }
    let start = first.range.start
    let byte = lines.bytes(in: start..<(start + 1)).first
    guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "["),
      lines.bytes(in: 0..<start).allSatisfy({ XMLName.isSpace($0) || [0xEF, 0xBB, 0xBF].contains($0) })
    else { return errors }
    first.related.append(
      RelatedLocation(
        range: TextRange(start: start, end: start + 1),
        message:
          "the input starts with '\(Character(Unicode.Scalar(byte!)))', as JSON does, but was read as XML: convert reads the JSON form when it converts to XML, with --to xml, with an output ending in .outline or .xml, or, with neither, with an input ending in .json"
      ))
    return [first] + errors.dropFirst()
  }

  /// Runs the conversion for a command: the output opened at `path` (`-` or
  /// nil for standard output; `spooled` holds standard output back until the
  /// end), each failure reported on standard error as the command's exit
  /// status, and the output kept only when the conversion succeeded.
  /// `errorsName` is how the input is named when it has errors.
  func perform(writingTo path: String?, spooled: Bool, errorsName: String? = nil) throws(ExitCode) {
    let name = input == "-" ? "<stdin>" : input
    func fail(_ message: String, _ status: Int32) -> ExitCode {
      Terminal.error(message)
      return ExitCode(status)
    }
    func report(_ errors: [Diagnostic], _ lines: (any DocumentLines)?) {
      guard let lines else { return }
      Terminal.write(TextFormat.render([FileReport(path: name, source: lines, diagnostics: errors)]), to: 2)
    }
    let output: OutputTarget
    do {
      output = try run(
        reportingConfiguration: { ConfigurationProblems.report($0) },
        opening: { try OutputTarget.open(path, spooled: spooled, input: input) })
    } catch let failure as Failure {
      switch failure {
      case .unreadableInput(let error):
        throw fail(error.description, 2)
      case .brokenConfiguration(let errors, let lines):
        report(errors, lines)
        throw fail("nothing was written", 2)
      case .documentErrors(let errors, let lines, let brokenConfiguration):
        report(target == .json ? Self.notingJSONForm(errors, lines: lines) : errors, lines)
        throw fail("\(errorsName ?? name) has errors; nothing was written", brokenConfiguration ? 2 : 1)
      case .notJSONForm(let error, let bytes):
        var report = ""
        for problem in error.all {
          let position = ConvertCommand.position(of: problem.offset, in: bytes.view)
          // As outline-lint writes them, code and all.
          report +=
            "\(name):\(position.line + 1):\(position.column + 1): error[\(problem.code)]: \(problem.message) (at \(problem.path))\n"
        }
        Terminal.write(report, to: 2)
        // A document in the JSON form whose meaning is wrong (orders, ids, values, names the
        // model does not have) has errors, as an outline does; only what is not JSON, or not
        // shaped and typed as the JSON form, is not the JSON form (JSONFormError.refusesTheForm).
        let what = error.refusesTheForm ? "is not the JSON form" : "has errors"
        throw fail("\(name) \(what); nothing was written", 1)
      case .unreadableModel(let reason):
        throw fail("\(name): the model cannot be read: \(reason)", 2)
      case .refusedModel(let reason):
        throw fail("\(name): \(DiagnosticCode.modelOutsideProject): \(reason); nothing was written", 1)
      case .refusedNamedModel(let reason):
        throw fail("\(name): \(DiagnosticCode.modelOutsideProject): \(reason); nothing was written", 2)
      case .notExpressibleInOPML(let problems, let source):
        var report = ""
        for problem in problems {
          let position = source.position(of: problem.range.start, unit: .scalar)
          report +=
            "\(errorsName ?? name):\(position.line + 1):\(position.column + 1): error: \(problem.message)\n"
        }
        Terminal.write(report, to: 2)
        throw fail(
          "\(errorsName ?? name) cannot be exported as OPML without losing data; nothing was written (`outline convert` writes the JSON form, which keeps everything)",
          1)
      }
    } catch let exit as ExitCode {
      throw exit
    } catch {
      preconditionFailure("a conversion throws its failures and the output's: \(error)")
    }
    do {
      try output.commit()
    } catch {
      throw fail(error.description, 2)
    }
  }
}
