import Foundation
import JSONRPC
import OutlineCore
import OutlineEditing
import OutlineWorkspace

/// `workspace/executeCommand`: the commands the server runs, each named in
/// the capabilities by ``all``. `outline.renumber` is the edit of the
/// `source.fixAll` code action (the server also sends it with
/// `workspace/applyEdit`); `outline.convert` returns the other form of a
/// saved document (XML to the JSON form, or back) without writing it.
struct CommandsFeature {
  let mapper: PositionMapper
  let store: DocumentStore

  /// Every command, as advertised.
  static let all = ["outline.renumber", "outline.convert"]

  /// What a command answers, and the edit to apply, if any.
  struct Outcome {
    var result: LSPAny
    var edit: LSP.WorkspaceEdit?
  }

  /// The document a command names in its first argument (`{"uri": ...}` or the URI itself).
  private func document(_ params: LSP.ExecuteCommandParams) throws -> Snapshot {
    let first = params.arguments?.first?.value
    guard let uri = first?["uri"]?.stringValue ?? first?.stringValue else {
      throw ResponseError.invalidParams("\(params.command) needs the document's uri as its first argument")
    }
    guard let snapshot = store[uri] else { throw ResponseError.invalidParams("\(uri) is not open") }
    return snapshot
  }

  /// Runs the command on the state queue's view of the store; the work that
  /// follows reads only the snapshot.
  func prepare(_ params: LSP.ExecuteCommandParams) throws -> @Sendable () throws -> Outcome {
    let mapper = self.mapper
    switch params.command {
    case "outline.renumber":
      let snapshot = try document(params)
      return { try Self.renumber(snapshot, mapper: mapper) }
    case "outline.convert":
      let snapshot = try document(params)
      let configurations = store.configurations
      let models = store.models
      return { try Self.convert(snapshot, configurations: configurations, models: models) }
    default:
      throw ResponseError.invalidParams(
        "Unknown command '\(params.command)' (known: \(Self.all.joined(separator: ", ")))")
    }
  }

  /// Every broken sibling group renumbered (what `outline-lint --fix` does).
  static func renumber(_ snapshot: Snapshot, mapper: PositionMapper) throws -> Outcome {
    let analysis = snapshot.analysis
    guard analysis.parsed, let tree = analysis.tree, let model = analysis.model else {
      throw ResponseError(
        code: ErrorCode.requestFailed, message: "The document does not parse: nothing to renumber")
    }
    let edits = Renumbering.fixAll(
      tree: tree, source: snapshot.source, model: model, reported: analysis.diagnostics)
    let edit = WorkspaceEdits.edit(snapshot, edits.map { mapper.edit($0, in: snapshot.source) })
    return Outcome(result: LSPAny(try JSONValueCoding.encode(edit)), edit: edits.isEmpty ? nil : edit)
  }

  /// The other form of the document as saved; refused when the editor's text differs from the file.
  static func convert(_ snapshot: Snapshot, configurations: ConfigurationFinder, models: ModelCache) throws
    -> Outcome
  {
    guard let path = snapshot.path else {
      throw ResponseError(code: ErrorCode.requestFailed, message: "Only a saved file can be converted")
    }
    let limit = configurations.configuration(for: path)?.maxSize ?? InputFile.defaultLimit
    guard let saved = try? InputFile.read(path, limit: limit), saved == snapshot.source.bytes else {
      throw ResponseError(
        code: ErrorCode.requestFailed,
        message: "Save \(URL(fileURLWithPath: path).lastPathComponent) first: convert reads the file")
    }
    let toXML = DocumentCheck.isJSONForm(path)
    let conversion = Conversion(
      input: path, target: toXML ? .xml : .json, modelOverride: nil, configurations: configurations,
      models: models,
      limit: limit)
    let output: CollectedOutput
    do {
      output = try conversion.run(
        reportingConfiguration: { !($0?.diagnostics.isEmpty ?? true) }, opening: { CollectedOutput() })
    } catch let failure as Conversion.Failure {
      throw ResponseError(code: ErrorCode.requestFailed, message: Self.describe(failure))
    }
    let other =
      toXML
      ? (path.hasSuffix(".outline.json") ? String(path.dropLast(5)) : String(path.dropLast(5)) + ".outline")
      : path + ".json"
    let result = LSP.ConvertResult(
      uri: URL(fileURLWithPath: other).absoluteString, text: String(decoding: output.bytes, as: UTF8.self))
    return Outcome(result: LSPAny(try JSONValueCoding.encode(result)), edit: nil)
  }

  static func describe(_ failure: Conversion.Failure) -> String {
    switch failure {
    case .unreadableInput(let error): "\(error)"
    case .brokenConfiguration: "The configuration that applies has problems"
    case .documentErrors(let errors, _, _):
      "The document has \(errors.count) error\(errors.count == 1 ? "" : "s"): \(errors.first.map { "\($0.code.rawValue) \($0.message)" } ?? "")"
    case .notJSONForm(let error, _): "Not the JSON form: \(error)"
    case .unreadableModel(let reason), .refusedModel(let reason): reason
    }
  }
}

/// A conversion's output, kept in memory.
final class CollectedOutput: ConversionOutput {
  private(set) var bytes: [UInt8] = []
  func write(_ bytes: [UInt8]) { self.bytes += bytes }
  func reset() { bytes = [] }
}
