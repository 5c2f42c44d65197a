import Foundation
import JSONRPC
import OutlineCore
import OutlineEditing
import OutlineFiles
import OutlineJSON
import OutlineSyntax
import OutlineWorkspace

/// `workspace/executeCommand`: the commands the server runs, each named in
/// the capabilities by ``all``. `outline.renumber` is the edit of the
/// `source.fixAll` code action (the server also sends it with
/// `workspace/applyEdit`); given an item (``LSP.ItemCommandArgument``, as the
/// descendants code lens sends), only the sibling groups inside that item's
/// subtree. `outline.delete` is the "Delete item" refactor on the item whose
/// start tag begins at the position (the deletion code lens runs it).
/// `outline.convert` returns the other form of a saved document (XML to the
/// JSON form, or back) without writing it.
struct CommandsFeature {
  let mapper: PositionMapper
  /// How the edits are written, in the reply and in `workspace/applyEdit`.
  let workspaceEdits: WorkspaceEdits
  let store: DocumentStore

  /// Every command, as advertised.
  static let all = [
    renumberCommand, deleteCommand, "outline.convert", VersionFeatures.migrateCommand,
  ]
  static let renumberCommand = "outline.renumber"
  static let deleteCommand = "outline.delete"

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
    guard snapshot.inSync else { throw LanguageServer.lostText(uri) }
    return snapshot
  }

  /// The `position` of the first argument, when the command names an item.
  private func itemPosition(_ params: LSP.ExecuteCommandParams, required: Bool) throws -> LSP.Position? {
    guard let first = params.arguments?.first?.value, first["position"] != nil else {
      if required {
        throw ResponseError.invalidParams(
          "\(params.command) needs {\"uri\": ..., \"position\": ...} naming an item's start tag")
      }
      return nil
    }
    do {
      return try JSONValueCoding.decode(LSP.ItemCommandArgument.self, from: first).position
    } catch {
      throw ResponseError.invalidParams("\(params.command): the position is not a position")
    }
  }

  /// The item whose start tag begins at `position`.
  static func item(at position: LSP.Position, in snapshot: Snapshot, tree: ItemTree, mapper: PositionMapper)
    throws -> Int
  {
    guard let offset = mapper.offset(position, in: snapshot.source), let item = tree.item(at: offset),
      tree.items[item].startTag.start == offset
    else {
      throw ResponseError(
        code: ErrorCode.requestFailed,
        message: "No item starts at line \(position.line + 1), character \(position.character + 1)")
    }
    return item
  }

  /// Runs the command on the state queue's view of the store; the work that
  /// follows reads only the snapshot.
  func prepare(_ params: LSP.ExecuteCommandParams) throws -> @Sendable () throws -> Outcome {
    let mapper = self.mapper
    let workspaceEdits = self.workspaceEdits
    switch params.command {
    case Self.renumberCommand:
      let snapshot = try document(params)
      let position = try itemPosition(params, required: false)
      return { try Self.renumber(snapshot, at: position, mapper: mapper, workspaceEdits: workspaceEdits) }
    case Self.deleteCommand:
      let snapshot = try document(params)
      let position = try itemPosition(params, required: true)!
      return { try Self.delete(snapshot, at: position, mapper: mapper, workspaceEdits: workspaceEdits) }
    case "outline.convert":
      let snapshot = try document(params)
      let configurations = store.configurations
      let models = store.models
      return { try Self.convert(snapshot, configurations: configurations, models: models) }
    case VersionFeatures.migrateCommand:
      let snapshot = try document(params)
      let argument = params.arguments?.first?.value
      return {
        let edit = try VersionFeatures(mapper: mapper, workspaceEdits: workspaceEdits).migrate(
          snapshot, argument: argument)
        return Outcome(result: LSPAny(try JSONValueCoding.encode(edit)), edit: edit.isEmpty ? nil : edit)
      }
    default:
      throw ResponseError.invalidParams(
        "Unknown command \(Excerpt.quoted(params.command)) (known: \(Self.all.joined(separator: ", ")))")
    }
  }

  /// Every broken sibling group renumbered (what `outline-lint --fix` does),
  /// or, given the position of an item's start tag, the broken groups whose
  /// parent lies in that item's subtree.
  static func renumber(
    _ snapshot: Snapshot, at position: LSP.Position? = nil, mapper: PositionMapper,
    workspaceEdits: WorkspaceEdits
  ) throws -> Outcome {
    let analysis = snapshot.analysis
    guard analysis.parsed, let tree = analysis.tree, let model = analysis.model else {
      throw ResponseError(
        code: ErrorCode.requestFailed, message: "The document does not parse: nothing to renumber")
    }
    let edits: [TextEdit]
    if let position {
      let top = try item(at: position, in: snapshot, tree: tree, mapper: mapper)
      // fixAll's edits (the groups with a reported order diagnostic), kept
      // where they renumber a group whose parent lies in the subtree: each
      // edit lies in the start tag of the child it renumbers.
      var children: Set<Int> = []
      for parent in top..<Int(tree.items[top].subtreeEnd)
      where tree.items[parent].subtreeEnd > Int32(parent + 1) {
        for group in Renumbering.groups(under: parent, in: tree, model: model)
        where !Renumbering.isValid(group, in: tree) {
          children.formUnion(group.children)
        }
      }
      edits = Renumbering.fixAll(
        tree: tree, source: snapshot.source, model: model, reported: analysis.diagnostics
      )
      .filter { tree.item(at: $0.range.start).map(children.contains) ?? false }
    } else {
      edits = Renumbering.fixAll(
        tree: tree, source: snapshot.source, model: model, reported: analysis.diagnostics)
    }
    let edit = workspaceEdits.edit(snapshot, edits.map { mapper.edit($0, in: snapshot.source) })
    return Outcome(result: LSPAny(try JSONValueCoding.encode(edit)), edit: edits.isEmpty ? nil : edit)
  }

  /// The "Delete item" refactor on the item whose start tag begins at `position`; refused as the code action is.
  static func delete(
    _ snapshot: Snapshot, at position: LSP.Position, mapper: PositionMapper, workspaceEdits: WorkspaceEdits
  ) throws -> Outcome {
    let analysis = snapshot.analysis
    guard analysis.parsed, let tree = analysis.tree, let model = analysis.model else {
      throw ResponseError(
        code: ErrorCode.requestFailed, message: "The document does not parse: nothing to delete")
    }
    let target = try item(at: position, in: snapshot, tree: tree, mapper: mapper)
    guard target > 0 else {
      throw ResponseError(code: ErrorCode.requestFailed, message: "The root item cannot be deleted")
    }
    switch StructureEdits.delete(target, tree: tree, source: snapshot.source, model: model) {
    case .success(let edits):
      let edit = workspaceEdits.edit(snapshot, edits.map { mapper.edit($0, in: snapshot.source) })
      return Outcome(result: LSPAny(try JSONValueCoding.encode(edit)), edit: edits.isEmpty ? nil : edit)
    case .failure(let refusal):
      throw ResponseError(code: ErrorCode.requestFailed, message: "Delete refused: \(refusal.reason)")
    }
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
    case .notJSONForm(let error, _) where !error.refusesTheForm:
      "The document has \(error.all.count) error\(error.all.count == 1 ? "" : "s"): \(error.code.rawValue) \(error.message)"
    case .notJSONForm(let error, _): "Not the JSON form: \(error)"
    case .unreadableModel(let reason), .refusedModel(let reason), .refusedNamedModel(let reason): reason
    case .notExpressibleInOPML(let problems, _): "Not expressible in OPML: \(problems.first?.message ?? "")"
    }
  }
}

/// A conversion's output, kept in memory.
final class CollectedOutput: ConversionOutput {
  private(set) var bytes: [UInt8] = []
  func write(_ bytes: [UInt8]) { self.bytes += bytes }
  func reset() { bytes = [] }
}
