// The one conversion sequence of the toolchain, shared by `outline convert` (both ways) and `outline export`:
// read the input, choose its model, validate it while the output is written (or before, for OPML), and say
// whether what was written may be kept. It reads files but never decides how problems are shown: a refused
// conversion throws a `Conversion.Failure` that the caller reports, and an output it was given is kept only
// when the caller commits it after `run` returns.

import OutlineConvert
import OutlineCore
import OutlineFiles
import OutlineModel
import OutlineValidation

/// Where a conversion writes: bytes in pieces, and a way to void what was written.
public protocol ConversionOutput: AnyObject {
  /// Appends `bytes` to the output.
  func write(_ bytes: [UInt8])
  /// Appends `bytes` (valid only during the call) to the output.
  func write(contentsOf bytes: ByteView)
  /// Forgets what was written so far.
  func reset()
  /// Throws the output away for good: the conversion failed. Called before
  /// the failure is thrown, so no temporary file outlives the command even
  /// while another thread (the parser's) still holds the output.
  func discard()
}

extension ConversionOutput {
  /// An output in memory has nothing to remove: forgetting is enough.
  public func discard() { reset() }

  /// The bytes copied into an array for ``write(_:)``.
  public func write(contentsOf bytes: ByteView) { write(bytes.array) }
}

/// One conversion of a document: the input, the format it becomes, and what
/// chooses its model (SPEC §5, §6, §8).
public struct Conversion {
  /// The format the input becomes.
  public enum Target: Sendable {
    /// `.outline` XML to the JSON form.
    case json
    /// The JSON form to `.outline` XML.
    case xml
    /// `.outline` XML in the OPML model to OPML.
    case opml
  }

  /// Why nothing may be kept, with what the caller needs to report it.
  public enum Failure: Error {
    /// The input cannot be read (a missing file, too large...).
    case unreadableInput(ReadError)
    /// The configuration that applies has problems (reported when found);
    /// `errors` are the document's, which may be none.
    case brokenConfiguration(errors: [Diagnostic], lines: (any DocumentLines)?)
    /// The document has errors; `brokenConfiguration` when its configuration has problems too.
    case documentErrors([Diagnostic], lines: any DocumentLines, brokenConfiguration: Bool)
    /// The input is not the JSON form: every error at its JSON value, in `bytes`.
    case notJSONForm(JSONFormError, bytes: ByteBuffer)
    /// The model the input asks for cannot be read.
    case unreadableModel(reason: String)
    /// The model the input asks for lies outside the project.
    case refusedModel(reason: String)
    /// The model `--model` or the configuration names lies outside the project: trouble of the
    /// run (exit 2), as when it cannot be read.
    case refusedNamedModel(reason: String)
    /// The document holds what OPML cannot carry back through `outline import` (export only):
    /// each place and why, in `source`.
    case notExpressibleInOPML([OPMLConversion.ExportProblem], source: SourceText)
  }

  /// The input's path, or `-` for standard input.
  public var input: String
  /// The format it becomes.
  public var target: Target
  /// `--model`, whatever the input says.
  public var modelOverride: String?
  /// The configurations that apply.
  public var configurations: ConfigurationFinder
  /// The models already loaded.
  public var models: ModelCache
  /// The largest input read, in bytes.
  public var limit: Int
  /// How the output writes the model reference it carries over, when it lies in another
  /// folder than the input (a relative reference is relative to the file it is in); nil: as
  /// the input has it.
  public var rebaseModel: (@Sendable (String) -> String)?

  /// A conversion of `input` (a path, or `-` for standard input) to `target`.
  public init(
    input: String, target: Target, modelOverride: String?, configurations: ConfigurationFinder,
    models: ModelCache, limit: Int
  ) {
    self.input = input
    self.target = target
    self.modelOverride = modelOverride
    self.configurations = configurations
    self.models = models
    self.limit = limit
  }

  private var isStdin: Bool { input == "-" }

  /// Converts the input into the output `open` gives (asked for once, where
  /// the sequence needs it) and returns that output, which holds the whole
  /// result and may be kept. `reportConfiguration` is told the configuration
  /// that applies, once it is known, and says whether it has problems.
  /// Throws a ``Failure`` (the output, if opened, is discarded first),
  /// or what `open` throws.
  public func run<Output: ConversionOutput>(
    reportingConfiguration reportConfiguration: (Configuration?) -> Bool,
    opening open: () throws -> Output
  ) throws -> Output {
    var opened: Output?
    let opening = {
      let output = try open()
      opened = output
      return output
    }
    do {
      switch target {
      case .json: return try toJSON(reportConfiguration, opening)
      case .xml: return try toXML(reportConfiguration, opening)
      case .opml: return try toOPML(reportConfiguration, opening)
      }
    } catch {
      opened?.discard()
      throw error
    }
  }

  /// The whole input, at most `limit` bytes.
  private func readBytes() throws(ReadError) -> [UInt8] {
    isStdin ? try InputFile.readStandardInput(limit: limit) : try InputFile.read(input, limit: limit)
  }

  /// The whole input, or the failure to read it.
  private func read() throws(Failure) -> [UInt8] {
    do {
      return try readBytes()
    } catch {
      throw .unreadableInput(error)
    }
  }

  /// The codes whose errors a conversion writes through when a rule or a comment turned them
  /// off: the value or reference is written as it stands and reads back the same (a required
  /// attribute left out, a value outside its bounds or pattern, a reference to no object).
  /// Every other error stops it even then: the other format cannot hold what it points at
  /// (text in an object, an unknown attribute or entity, a value not of its type, orders the
  /// JSON form's arrays cannot keep, a to-one holding two ids) and would lose or change it.
  /// A code joins this list only with a test that writes it through and reads it back.
  static let writableDespite: Set<DiagnosticCode> = [
    .requiredAttributeMissing, .valueOutOfBounds, .valuePattern, .unknownID,
  ]

  /// Throws ``Failure/unreadableModel(reason:)`` when `--model` or the configuration named a
  /// model that cannot be read, ``Failure/refusedNamedModel(reason:)`` when it lies outside the
  /// project: trouble of the run (exit 2), as in lint, not the document's.
  static func stopForUnreadableModel(_ check: DocumentCheck) throws(Failure) {
    guard let unreadable = check.unreadableNamedModel else { return }
    if unreadable.code == .modelOutsideProject { throw .refusedNamedModel(reason: unreadable.message) }
    let prefix = "The model cannot be read: "
    let reason =
      unreadable.message.hasPrefix(prefix)
      ? String(unreadable.message.dropFirst(prefix.count)) : unreadable.message
    throw .unreadableModel(reason: reason)
  }

  /// The errors that stop a conversion of the document `check` checked: those it reports, the
  /// namespace declarations the other format cannot keep, and errors turned off that it cannot
  /// hold, each saying so.
  static func errors(of check: DocumentCheck) -> [Diagnostic] {
    var errors = check.diagnostics.filter { $0.severity == .error } + check.unportableNamespaces
    for var silenced in check.silencedErrors where !writableDespite.contains(silenced.code) {
      silenced.message += " (turned off, but a conversion cannot write it without losing or changing data)"
      errors.append(silenced)
    }
    return Diagnostic.sortedByPosition(errors)
  }

  /// One pass validates and writes (into the target's temporary file or
  /// spool); the output is kept only when the input had no error and its
  /// children were in order order. Otherwise it is thrown away: errors are
  /// reported, and out-of-order children are written again from the tree.
  private func toJSON<Output: ConversionOutput>(
    _ reportConfiguration: (Configuration?) -> Bool, _ open: () throws -> Output
  ) throws -> Output {
    let target = try open()
    var writer: AlongsideWriter?
    let alongside = { (validator: OutlineValidator) in
      let made = JSONFormWriter.alongside(
        validator, rebaseModel: rebaseModel, writing: { target.write(contentsOf: $0) })
      writer = made
      return made
    }
    let check: DocumentCheck
    let lines: any DocumentLines
    var source: SourceText?
    if isStdin {
      source = SourceText(bytes: try read())
      check = DocumentCheck.run(
        source!, path: nil, modelOverride: modelOverride, configurations: configurations, models: models,
        buildTree: false, alongside: alongside)
      lines = source!
    } else {
      do {
        (check, lines) = try DocumentCheck.stream(
          path: input, modelOverride: modelOverride, configurations: configurations, models: models,
          limit: limit, alongside: alongside)
      } catch {
        throw Failure.unreadableInput(error)
      }
    }
    try Self.stopForUnreadableModel(check)
    let errors = Self.errors(of: check)
    let brokenConfiguration = reportConfiguration(check.configuration)
    guard errors.isEmpty, let model = check.model else {
      throw Failure.documentErrors(errors, lines: lines, brokenConfiguration: brokenConfiguration)
    }
    if brokenConfiguration { throw Failure.brokenConfiguration(errors: [], lines: lines) }
    if check.childrenInOrder {
      writer?.finish()
    } else {
      target.reset()
      let whole = try source ?? SourceText(bytes: read())
      let tree = OutlineValidator.validate(whole, modelProvider: fixedModel(model), buildTree: true).tree!
      JSONFormWriter.writeTree(
        whole, tree: tree, model: model, rootEntity: check.rootEntity, rebaseModel: rebaseModel
      ) {
        target.write($0)
      }
    }
    return target
  }

  /// One pass reads the JSON form, writes the XML and validates what it
  /// writes; a pass that meets an attribute after an array of children
  /// voids the output and writes it again.
  private func toXML<Output: ConversionOutput>(
    _ reportConfiguration: (Configuration?) -> Bool, _ open: () throws -> Output
  ) throws -> Output {
    let bytes: ByteBuffer
    do throws(ReadError) {
      bytes = isStdin ? ByteBuffer(copying: try readBytes()) : try MappedFile.map(input, limit: limit)
    } catch {
      throw Failure.unreadableInput(error)
    }
    let configuration = configurations.configuration(for: isStdin ? "./-" : input)
    if reportConfiguration(configuration) { throw Failure.brokenConfiguration(errors: [], lines: nil) }
    let resolution = ModelResolution(override: modelOverride, configuration: configuration, cache: models)
    let provider = resolution.provider(for: isStdin ? nil : input)
    let target = try open()
    do {
      try JSONFormReader.convert(
        bytes,
        choosingModel: { reference in
          switch provider(reference) {
          case .loaded(let loaded): return loaded
          case .unreadable(let reason): throw Failure.unreadableModel(reason: reason)
          case .refused(let reason):
            switch resolution.origin(of: reference, for: isStdin ? nil : input) {
            case .commandLine, .configuration: throw Failure.refusedNamedModel(reason: reason)
            case .document, .builtIn: throw Failure.refusedModel(reason: reason)
            }
          }
        }, output: { target.write($0) }, restart: { target.reset() }, rebaseModel: rebaseModel,
        writesThrough: { code in
          Self.writableDespite.contains(code) && configuration?.silences(code) == true
        })
    } catch {
      // Bytes another program changed meanwhile explain any error they gave.
      try stopIfChanged(bytes)
      if let error = error as? JSONFormError { throw Failure.notJSONForm(error, bytes: bytes) }
      throw error
    }
    try stopIfChanged(bytes)
    return target
  }

  /// Stops when the input's file changed while it was read: what was read from it may be
  /// neither its old content nor its new one (``ByteBuffer/changedWhileRead()``).
  private func stopIfChanged(_ bytes: ByteBuffer) throws(Failure) {
    guard let change = bytes.changedWhileRead() else { return }
    throw .unreadableInput(
      ReadError(description: "\(InputFile.quoted(input)): \(change); nothing was written"))
  }

  /// Validates the whole document, building its tree, then writes the OPML
  /// in one piece: nothing is opened for an input with errors, or one that holds what OPML
  /// cannot carry back (``OPMLConversion/exportProblems(_:tree:model:)``).
  private func toOPML<Output: ConversionOutput>(
    _ reportConfiguration: (Configuration?) -> Bool, _ open: () throws -> Output
  ) throws -> Output {
    let source = SourceText(bytes: try read())
    let check = DocumentCheck.run(
      source, path: isStdin ? nil : input, modelOverride: modelOverride, configurations: configurations,
      models: models, buildTree: true)
    try Self.stopForUnreadableModel(check)
    let errors = Self.errors(of: check)
    if reportConfiguration(check.configuration) {
      throw Failure.brokenConfiguration(errors: errors, lines: source)
    }
    guard errors.isEmpty, let tree = check.tree, let model = check.model else {
      throw Failure.documentErrors(errors, lines: source, brokenConfiguration: false)
    }
    let document: OPMLDocument
    do {
      document = try OPMLConversion.exportOPML(source, tree: tree, model: model)
    } catch {
      throw Failure.notExpressibleInOPML(error.problems, source: source)
    }
    let target = try open()
    target.write(OPMLConversion.write(document))
    return target
  }
}
