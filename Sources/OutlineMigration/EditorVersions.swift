import OutlineCore
import OutlineModel
import OutlineXML

extension DocumentVersionStatus {
  /// The hover text for the root: which version the document is for and whether it was recorded.
  public var hoverText: String {
    let how = isRecorded ? "recorded in modelVersion" : "inferred: modelVersion is not recorded"
    let pending =
      migrationPending
      ? "; the current version is \(Excerpt.quoted(currentName)) (run `outline migrate`)" : ""
    return "Model version \(Excerpt.quoted(versionName)) (\(how))\(pending)"
  }

  /// The message of the diagnostic on the root when a migration is pending; nil when none is.
  public var pendingMessage: String? {
    guard migrationPending else { return nil }
    return
      "This document is for model version \(Excerpt.quoted(versionName)); the current version is \(Excerpt.quoted(currentName))"
  }

  /// The diagnostic on the root when a migration is pending (OL108, at ``range``); nil when none is.
  public var pendingDiagnostic: Diagnostic? {
    pendingMessage.map { Diagnostic(.migrationPending, $0, at: range) }
  }

  /// The title of the code action that migrates the document.
  public var actionTitle: String { "Migrate to \(currentName)" }
}

extension ModelRename {
  /// The edits that rename `entity`'s property `property` to `newName` in the
  /// document `source` written for `model` (the server's rename in an outline
  /// does this together with ``edits(in:entity:property:to:)`` on the model).
  public static func documentEdits(
    _ source: SourceText, model: Model, entity: String, property: String, to newName: String
  ) throws(Refusal) -> [TextEdit] {
    let modelEdits = try edits(in: model, entity: entity, property: property, to: newName)
    return try documentEdits(source, model: model, applying: modelEdits)
  }
}
