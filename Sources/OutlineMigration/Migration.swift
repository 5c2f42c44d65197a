import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineXML

/// What migrating one document found and did.
public struct MigrationOutcome: Sendable {
  /// What was dropped, in document order (offsets into the older text).
  public var dropped: [Dropped]
  /// Per `Entity.property`: objects that need a value nobody gave.
  public var missing: [String: Int]
  /// The parents whose children got new order numbers (objects dropped or sibling groups merged).
  public var renumbered: [Renumbered] = []
  /// Parents whose children would change order (``Migrator/disordered``).
  public var disordered: [Disordered] = []
  /// Whether the text changes.
  public var changed: Bool
  /// The errors of the migrated text against the target version.
  public var errors: [Diagnostic]
  /// The first fatal syntax error of the older text.
  public var syntaxError: String?
  /// Renames onto a name the object already has (``Migrator/clashes``).
  public var clashes: [String] = []
  /// Parents whose children would be renumbered but are not numbered 0..n-1 (``Migrator/misnumbered``).
  public var misnumbered: [String] = []
  /// The root entity the migrated text was validated with (for a writer of the JSON form).
  public var rootEntity: Int?
  /// Whether the migrated text's children come in order order (a JSON form writer can stream).
  public var childrenInOrder = true

  /// Why the result may not be written, given whether data may be dropped; nil when it may.
  /// Whether the migration changes nothing and asks for nothing (a document already at the
  /// target): its own problems are then the linter's, not a reason to refuse it.
  public var changesNothing: Bool { !changed && dropped.isEmpty && missing.isEmpty && syntaxError == nil }

  public func refusal(allowDataLoss: Bool) -> String? {
    if let syntaxError { return "it does not parse: \(syntaxError)" }
    if let first = clashes.first {
      let more = clashes.count > 1 ? " (and \(counted(clashes.count - 1, "other attribute")))" : ""
      return "\(first)\(more): rename or remove the attribute already there first"
    }
    if let first = misnumbered.first {
      let more = misnumbered.count > 1 ? " (and \(counted(misnumbered.count - 1, "other parent")))" : ""
      return
        "\(first)\(more) would be renumbered, but are not numbered 0..n-1 (a duplicate, a gap or a missing order): the new numbers would lose their order; fix their orders first (outline-lint --fix)"
    }
    if !missing.isEmpty {
      let list = missing.keys.sorted().map { "\($0) (\(counted(missing[$0]!, "object")))" }
      // What else the run would ask for, said now rather than on the next run.
      let alsoDrops =
        !dropped.isEmpty && !allowDataLoss
        ? "; it would also drop \(counted(dropped.count, "value")): run with --allow-data-loss to drop them"
        : ""
      return
        "new required values have no default: \(list.joined(separator: ", ")); give them with --set Entity.attribute=value\(alsoDrops)"
    }
    if let first = disordered.first {
      let more = disordered.count > 1 ? " (and \(counted(disordered.count - 1, "other parent")))" : ""
      return
        "\(Excerpt.quoted(first.relationship)) becomes ordered, where document order tells the order, but the children of \(first.parent)\(more) are numbered out of document order: put them in the order of their numbers first, or they would change order"
    }
    if !dropped.isEmpty && !allowDataLoss {
      return
        "it would drop \(counted(dropped.count, "value")); run with --allow-data-loss to drop them"
    }
    if let first = errors.first {
      return
        "the migrated document would have \(counted(errors.count, "error")) against the target version, first: \(first.code): \(first.message)"
    }
    return nil
  }
}

/// Migrations of documents between versions of their model.
public enum Migration {
  /// The version a document is for: its root's `modelVersion` when it names a
  /// version of `history`, else the one `infer` finds; `inferred` says which.
  public static func sourceVersion(
    rootAttributes: [String: String], history: ModelHistory, infer: () -> VersionInference.Result
  ) -> (index: Int, inferred: Bool) {
    if let named = rootAttributes["modelVersion"], let index = history.index(named: named) {
      return (index, false)
    }
    if history.versions.count == 1 { return (0, true) }
    return (infer().version, true)
  }

  /// The version a document going to version `target` is migrated from: as
  /// ``sourceVersion(rootAttributes:history:infer:)``, except that a document whose root
  /// records no version (or one the model does not have) and that fits `target` with no errors
  /// is for `target`, whichever version the inference prefers among those it fits. Its
  /// migration is trivial: it records `target` and changes nothing else.
  public static func sourceVersion(
    rootAttributes: [String: String], history: ModelHistory, target: Int, infer: () -> VersionInference.Result
  ) -> (index: Int, inferred: Bool) {
    var inference: VersionInference.Result?
    let (index, inferred) = sourceVersion(rootAttributes: rootAttributes, history: history) {
      let result = infer()
      inference = result
      return result
    }
    if inferred, let errors = inference?.errors, errors.indices.contains(target), errors[target] == 0 {
      return (target, true)
    }
    return (index, inferred)
  }

  /// Migrates a text that `feed` hands out in chunks (it calls its argument
  /// with each), writing the result to `write` in pieces, and validates the
  /// result against the target as it is written. Memory does not grow with
  /// the text.
  public static func run(
    plan: MigrationPlan, feed: ((ByteView) -> Void) -> Void,
    write: @escaping ([UInt8]) -> Void
  ) -> MigrationOutcome {
    let validator = OutlineValidator(modelProvider: fixedModel(plan.target))
    // The migrator hands the validator the migrated text's events as it makes them (the text
    // is not parsed again): the validator works on a thread of its own, the migrator and the
    // edit stream on another, while this one parses.
    let validating = XMLEventPipeline(handler: validator)
    let stream = EditStream(sink: write)
    var census: OrderCensus?
    if plan.mayRenumber {
      // A first pass finds the sibling groups that lose objects or merge, so the
      // second renumbers their survivors as they stream by.
      census = OrderCensus.take(plan: plan, feed: feed)
    }
    // This thread parses the older text; the migrator and the edit stream work behind a pipeline.
    let migrator = Migrator(plan: plan, census: census, output: validating) { stream.apply($0) }
    let migrating = XMLEventPipeline(handler: migrator)
    let parser = XMLEventParser(handler: migrating)
    feed { chunk in
      stream.append(chunk)
      parser.feed(chunk)
    }
    parser.finish()
    migrating.finish()
    stream.finish()
    validating.finish()
    validator.finish()
    return MigrationOutcome(
      dropped: migrator.dropped, missing: migrator.missing, renumbered: migrator.renumbered,
      disordered: migrator.disordered, changed: migrator.changed,
      errors: validator.diagnostics.filter { $0.severity == .error },
      syntaxError: migrator.syntaxError?.message, clashes: migrator.clashes,
      misnumbered: migrator.misnumbered, rootEntity: validator.rootEntity,
      childrenInOrder: validator.childrenInOrder)
  }
}

/// What the editor needs to know about a document's model version.
public struct DocumentVersionStatus: Sendable {
  /// The history of the document's model.
  public var history: ModelHistory
  /// The version the document is for (recorded, or inferred).
  public var version: Int
  /// Whether the root names it (`modelVersion`); false when it was inferred.
  public var isRecorded: Bool
  /// The range of the root's `modelVersion` value, or of the root's name when absent.
  public var range: TextRange

  /// The version's name.
  public var versionName: String { history.versions[version].name }
  /// The current version's name.
  public var currentName: String { history.versions[history.current].name }
  /// Whether the document is for an older version than the current one.
  public var migrationPending: Bool { version < history.current }

  /// The status of a document for `version` of `history`, recorded or not, pointed at by `range`.
  public init(history: ModelHistory, version: Int, isRecorded: Bool, range: TextRange) {
    self.history = history
    self.version = version
    self.isRecorded = isRecorded
    self.range = range
  }

  /// What the document at `source` is for, given its model's `history`; nil when it has no root.
  public static func of(_ source: SourceText, history: ModelHistory) -> DocumentVersionStatus? {
    let probe = RootRanges()
    XMLEventParser.parse(source.bytes, handler: probe)
    guard let rootName = probe.nameRange else { return nil }
    let (index, inferred) = Migration.sourceVersion(rootAttributes: probe.attributes, history: history) {
      VersionInference.infer(history: history) { parser in
        source.bytes.withByteView { parser.feed($0) }
      }
    }
    return DocumentVersionStatus(
      history: history, version: index, isRecorded: !inferred, range: probe.versionRange ?? rootName)
  }

  /// The migration to version `target` (default: the current one) as minimal
  /// text edits on `source`, with its outcome; the edits are empty when the
  /// outcome refuses (see ``MigrationOutcome/refusal(allowDataLoss:)``).
  public func migration(
    of source: SourceText, to target: Int? = nil, settings: MigrationSettings = MigrationSettings()
  ) -> (edits: [TextEdit], outcome: MigrationOutcome) {
    let plan = MigrationPlan(
      history: history, from: version, to: max(version, target ?? history.current), settings: settings)
    var (migrator, edits) = Migrator.edits(of: source.bytes, plan: plan)
    var notBefore = 0
    source.bytes.withByteView { bytes in
      for index in edits.indices {
        edits[index] = EditStream.widened(edits[index], in: bytes, base: 0, notBefore: notBefore)
        notBefore = edits[index].range.end
      }
    }
    let migrated = TextEdit.apply(edits, to: source.bytes) ?? source.bytes
    let validator = OutlineValidator.validate(
      SourceText(bytes: migrated), modelProvider: fixedModel(plan.target), buildTree: false)
    let outcome = MigrationOutcome(
      dropped: migrator.dropped, missing: migrator.missing, renumbered: migrator.renumbered,
      disordered: migrator.disordered, changed: migrator.changed,
      errors: validator.diagnostics.filter { $0.severity == .error },
      syntaxError: migrator.syntaxError?.message, clashes: migrator.clashes,
      misnumbered: migrator.misnumbered)
    return (outcome.refusal(allowDataLoss: settings.allowDataLoss) == nil ? edits : [], outcome)
  }
}

/// The root's attributes and the ranges the editor points at.
final class RootRanges: XMLEventHandler {
  var attributes: [String: String] = [:]
  var nameRange: TextRange?
  var versionRange: TextRange?

  func startElement(_ tag: StartTag) {
    guard nameRange == nil else { return }
    nameRange = tag.nameRange
    for index in 0..<tag.attributes.count {
      let name = XMLName.string(tag.name(of: index))
      attributes[name] = tag.value(of: index)
      if name == "modelVersion" { versionRange = tag.valueRange(of: index) }
    }
  }
  func endElement(range: TextRange?) {}
  func comment(range: TextRange, content: ByteView) {}
  func text(range: TextRange) {}
  func doctype(range: TextRange) {}
  func syntaxError(message: String, range: TextRange, isFatal: Bool) {}
}
