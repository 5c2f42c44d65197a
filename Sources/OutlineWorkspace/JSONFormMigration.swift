// Model versions for documents in the JSON form: the root's version keys, the version a document fits, and
// migrations, made by transcoding: the JSON form is read into `.outline` XML as `outline convert` reads it, the
// XML is migrated by the same streaming migrator as an `.outline` file, and the result is written back as the
// JSON form. Nothing holds the whole document: the XML streams from the reader into the migrator, and the
// migrated XML waits in a spool (memory, then an unlinked temporary file) until it is known to be good.

import Foundation
import OutlineConvert
import OutlineCore
import OutlineFiles
import OutlineJSON
import OutlineMigration
import OutlineModel
import OutlineValidation
import OutlineXML

/// The JSON form's side of model versions.
public enum JSONFormVersions {
  /// The root of the JSON form in `bytes` as the version check reads an XML root: its
  /// `@model`, `@modelVersion` and `@entity` as the attributes `model`, `modelVersion` and
  /// `entity`. OL108 points at `@modelVersion`'s value, else at the root's `{`. Nil when
  /// the text does not start with an object.
  public static func root(_ bytes: ByteBuffer) -> DocumentRoot? {
    var reader = JSONReader(bytes)
    guard let open = try? reader.nextToken(), open.kind == .objectStart else { return nil }
    var root = DocumentRoot(attributes: [:], nameRange: open.range)
    let keys = ["@model": "model", "@modelVersion": "modelVersion", "@entity": "entity"]
    do {
      while let token = try reader.nextToken(), reader.depth >= 1 {
        if token.kind == .objectStart || token.kind == .arrayStart {
          reader.skipContainer()
          continue
        }
        guard token.kind == .key, let name = keys[reader.string(token)] else { continue }
        guard let value = try reader.nextToken() else { break }
        if value.kind == .objectStart || value.kind == .arrayStart {
          reader.skipContainer()
          continue
        }
        guard value.kind == .string else { continue }
        root.attributes[name] = reader.string(value)
        if name == "modelVersion" { root.versionRange = value.range }
      }
    } catch {}
    return root
  }

  /// Hands `body` the XML of the JSON form in `bytes` read with `model`, in pieces as the
  /// reader writes them, and returns the reader's errors (none when `bytes` is the JSON form
  /// of a document of `model` without errors) and how often the reader started its output
  /// again (an attribute after an array of children). Only the output after
  /// `skippingRestarts` restarts is handed out, and none after a further one: a caller
  /// seeing more restarts than it skipped asks again, skipping them.
  public static func xml(
    of bytes: ByteBuffer, model: Model, skippingRestarts: Int = 0,
    _ body: (ByteView) -> Void
  ) -> (errors: [JSONFormError], restarts: Int) {
    var restarts = 0
    var errors: [JSONFormError] = []
    do {
      try JSONFormReader.convert(
        bytes, choosingModel: { _ in model },
        output: { piece in
          if restarts == skippingRestarts { piece.withByteView { body($0) } }
        }, restart: { restarts += 1 })
    } catch let error as JSONFormError {
      errors = error.all
    } catch {}
    return (errors, restarts)
  }

  /// The version of `history` the JSON form in `bytes` fits: the one it reads with no
  /// errors, else the fewest (``VersionInference/best(_:current:)``).
  public static func infer(_ bytes: ByteBuffer, history: ModelHistory) -> VersionInference.Result {
    let errors = history.versions.map { version in
      xml(of: bytes, model: version.model) { _ in }.errors.count { $0.severity == .error }
    }
    return VersionInference.Result(
      version: VersionInference.best(errors, current: history.current), errors: errors)
  }

  /// The version status of the JSON form in `bytes` whose root is `root`: its
  /// `@modelVersion`, else the version it fits (only looked for when `fitsCurrent` is false).
  public static func status(
    _ bytes: ByteBuffer, root: DocumentRoot, history: ModelHistory, fitsCurrent: Bool
  ) -> DocumentVersionStatus {
    let (index, inferred) = Migration.sourceVersion(rootAttributes: root.attributes, history: history) {
      fitsCurrent
        ? VersionInference.Result(version: history.current, errors: []) : infer(bytes, history: history)
    }
    return DocumentVersionStatus(
      history: history, version: index, isRecorded: !inferred, range: root.versionRange ?? root.nameRange)
  }
}

/// One migration of a document in the JSON form (see the file's head): what it found, and
/// the migrated document, written as the JSON form on request.
public final class JSONFormMigration {
  /// What migrating the XML found and did; its offsets are into that XML (``locate(_:)``).
  public let outcome: MigrationOutcome
  /// The JSON form's errors against the older version (the migration is refused when there are any).
  public let sourceErrors: [JSONFormError]
  private let bytes: ByteBuffer
  private let plan: MigrationPlan
  /// The migrated XML.
  private let spool: Spool

  private init(
    outcome: MigrationOutcome, sourceErrors: [JSONFormError], bytes: ByteBuffer, plan: MigrationPlan,
    spool: Spool
  ) {
    self.outcome = outcome
    self.sourceErrors = sourceErrors
    self.bytes = bytes
    self.plan = plan
    self.spool = spool
  }

  /// Migrates the JSON form in `bytes` along `plan`.
  public static func run(_ bytes: ByteBuffer, plan: MigrationPlan) -> JSONFormMigration {
    var skipping = 0
    while true {
      let spool = Spool()
      var read: (errors: [JSONFormError], restarts: Int) = ([], 0)
      // A plan that renumbers reads the XML twice (its census first): the second time from a spool.
      let xml = plan.mayRenumber ? Spool() : nil
      var transcoded = false
      let outcome = Migration.run(plan: plan) { feed in
        if transcoded, let xml {
          var start = 0
          while start < xml.count {
            let piece = xml.bytes(in: start..<min(xml.count, start + (1 << 20)))
            piece.withByteView { feed($0) }
            start += piece.count
          }
          return
        }
        transcoded = true
        read = JSONFormVersions.xml(of: bytes, model: plan.source, skippingRestarts: skipping) { piece in
          xml?.append(piece)
          feed(piece)
        }
      } write: { piece in
        piece.withByteView { spool.append($0) }
      }
      // The reader started again more often than skipped: what was migrated is void.
      if read.restarts > skipping {
        skipping = read.restarts
        continue
      }
      return JSONFormMigration(
        outcome: outcome, sourceErrors: read.errors.filter { $0.severity == .error }, bytes: bytes,
        plan: plan, spool: spool)
    }
  }

  /// Why the result may not be written, given whether data may be dropped; nil when it may.
  public func refusal(allowDataLoss: Bool) -> String? {
    if let first = sourceErrors.first {
      return
        "it does not read as the JSON form of its version (\(counted(sourceErrors.count, "error")), first at \(first.path): \(first.message))"
    }
    return outcome.refusal(allowDataLoss: allowDataLoss)
  }

  /// The JSON offsets of `offsets` (into the older XML: ``MigrationOutcome/dropped``,
  /// ``MigrationOutcome/renumbered``), with the JSON path of each; the root's when unknown.
  public func locate(_ offsets: [Int]) -> [Int: (path: String, offset: Int)] {
    JSONFormReader.locate(offsets, in: bytes, model: plan.source)
  }

  /// Writes the migrated document as the JSON form to `output`: streamed from the spool
  /// when its children are in order order, else from its tree.
  public func writeJSON(_ output: (inout [UInt8]) -> Void) {
    if outcome.childrenInOrder {
      JSONFormWriter.writeStreaming(
        model: plan.target, rootEntity: outcome.rootEntity,
        feed: { parser in
          var start = 0
          while start < spool.count {
            let piece = spool.bytes(in: start..<min(spool.count, start + (1 << 20)))
            piece.withByteView { parser.feed($0) }
            start += piece.count
          }
        }, output: output)
      return
    }
    let source = SourceText(bytes: spool.bytes(in: 0..<spool.count))
    guard
      let tree = OutlineValidator.validate(source, modelProvider: fixedModel(plan.target), buildTree: true)
        .tree
    else { return }
    JSONFormWriter.writeTree(
      source, tree: tree, model: plan.target, rootEntity: outcome.rootEntity, output: output)
  }
}

extension DocumentCheck {
  /// ``checkVersion(histories:source:)`` for a document in the JSON form, `bytes`: its
  /// ``versionStatus`` and, when a migration to the current version is pending, OL108 at its
  /// `@modelVersion` value (else at the root's `{`), saying why `outline migrate` would refuse
  /// it when it would. Only for a model that is a bundle of several versions.
  public mutating func checkVersion(histories: ModelHistoryCache, json bytes: ByteBuffer) {
    guard isJSONForm, let model, !model.isShippedDefault, let modelPath = model.path,
      let history = histories.history(forModelAt: modelPath), history.versions.count > 1,
      let root = JSONFormVersions.root(bytes)
    else { return }
    let current = history.versions[history.current].model.path
    let fitsCurrent =
      current.map(Self.standardizedPath) == Self.standardizedPath(modelPath)
      && !diagnostics.contains { $0.severity == .error }
    let status = JSONFormVersions.status(bytes, root: root, history: history, fitsCurrent: fitsCurrent)
    versionStatus = status
    guard status.migrationPending else { return }
    let plan = MigrationPlan(
      history: history, from: status.version, to: history.current, settings: MigrationSettings())
    let migration = JSONFormMigration.run(bytes, plan: plan)
    guard let pending = status.pendingDiagnostic(refusal: migration.refusal(allowDataLoss: false)) else {
      return
    }
    let added = suppression.filter(configuration?.apply(to: [pending]) ?? [pending])
    if !added.isEmpty { diagnostics = Diagnostic.sortedByPosition(diagnostics + added) }
  }

  private static func standardizedPath(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
