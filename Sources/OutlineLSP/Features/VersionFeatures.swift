import JSONRPC
import OutlineCore
import OutlineJSON
import OutlineMigration

/// Model versions in the editor: the root's hover says which version the
/// document is for (recorded or inferred), a pending migration is OL108 on
/// the root (from the analysis, as `outline-lint` reports it), the code
/// action "Migrate to <version>" and the command `outline/migrate` apply the
/// edits `outline migrate` makes.
struct VersionFeatures {
  let mapper: PositionMapper
  let workspaceEdits: WorkspaceEdits

  /// The command that migrates a document: `{"uri": ..., "to"?: version,
  /// "allowDataLoss"?: bool, "set"?: {"Entity.attribute": value}}`.
  static let migrateCommand = "outline/migrate"

  /// The paragraph the root's hover ends with; nil when the model has one version.
  static func hover(_ snapshot: Snapshot, item: Int) -> String? {
    guard item == 0, let status = snapshot.analysis.versionStatus else { return nil }
    return status.hoverText
  }

  /// "Migrate to <version>" when a migration is pending and `outline migrate`
  /// would make it with no options: offered for the OL108 diagnostic the
  /// client sent, or at the root's start tag.
  func actions(_ snapshot: Snapshot, range: TextRange, sent: [LSP.Diagnostic]) -> [LSP.CodeAction] {
    let analysis = snapshot.analysis
    guard let status = analysis.versionStatus, status.migrationPending, let tree = analysis.tree,
      !tree.items.isEmpty
    else { return [] }
    let pending = sent.filter { $0.code == DiagnosticCode.migrationPending.rawValue }
    let root = tree.items[0].startTag
    guard !pending.isEmpty || (range.start <= root.end && range.end >= root.start) else { return [] }
    let (edits, _) = status.migration(of: snapshot.source)
    guard !edits.isEmpty else { return [] }
    return [
      LSP.CodeAction(
        title: status.actionTitle, kind: .quickFix, diagnostics: pending.isEmpty ? nil : pending,
        isPreferred: true,
        edit: workspaceEdits.edit(snapshot, edits.map { mapper.edit($0, in: snapshot.source) }))
    ]
  }

  /// `outline/migrate`: the migration of the document named by `argument`
  /// as a workspace edit (empty when there is nothing to do); refused, with
  /// `outline migrate`'s reason, when it would be.
  func migrate(_ snapshot: Snapshot, argument: JSONValue?) throws -> LSP.WorkspaceEdit {
    let analysis = snapshot.analysis
    guard !analysis.isJSONForm else {
      throw ResponseError(
        code: ErrorCode.requestFailed,
        message: "A document in the JSON form is migrated on disk: run outline migrate on its file")
    }
    guard analysis.parsed else {
      throw ResponseError(code: ErrorCode.requestFailed, message: "The document does not parse: not migrated")
    }
    guard let status = analysis.versionStatus else {
      throw ResponseError(
        code: ErrorCode.requestFailed,
        message: "The document's model is not a bundle of several versions: nothing to migrate")
    }
    var target = status.history.current
    if let name = argument?["to"]?.stringValue {
      guard let index = status.history.index(named: name) else {
        throw ResponseError.invalidParams(
          "The model has no version \(Excerpt.quoted(name)) (it has \(status.history.names.joined(separator: ", ")))"
        )
      }
      guard index >= status.version else {
        throw ResponseError(
          code: ErrorCode.requestFailed,
          message:
            "The document is for \(Excerpt.quoted(status.versionName)): migrate does not go back to \(Excerpt.quoted(name))"
        )
      }
      target = index
    }
    var settings = MigrationSettings(allowDataLoss: argument?["allowDataLoss"]?.boolValue ?? false)
    if case .object(let values)? = argument?["set"] {
      for (key, value) in values {
        guard let text = value.stringValue else {
          throw ResponseError.invalidParams("set.\(key) must be a string")
        }
        settings.values[key] = text
      }
    }
    let (edits, outcome) = status.migration(of: snapshot.source, to: target, settings: settings)
    if let refusal = outcome.refusal(allowDataLoss: settings.allowDataLoss) {
      throw ResponseError(
        code: ErrorCode.requestFailed,
        message:
          "Not migrated from \(Excerpt.quoted(status.versionName)) to \(Excerpt.quoted(status.history.versions[target].name)): \(refusal)"
      )
    }
    return workspaceEdits.edit(snapshot, edits.map { mapper.edit($0, in: snapshot.source) })
  }
}
