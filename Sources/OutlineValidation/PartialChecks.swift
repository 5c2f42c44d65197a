import OutlineCore
import OutlineModel
import OutlineXML

/// What ``OutlineValidator/checkStartTag(_:entity:relationship:parentEntity:model:)`` found.
public struct StartTagFindings: Sendable {
  /// The diagnostics of the start tag alone, unsorted, before suppression and configuration.
  public var diagnostics: [Diagnostic]
  /// The object's order, when an integer.
  public var order: Int64?
  /// The order value's range.
  public var orderRange: TextRange?
  /// The title value's range.
  public var titleRange: TextRange?
}

/// Parts of validation run on their own, for an editor that re-checks only
/// what an edit can affect (the language server's incremental analysis).
extension OutlineValidator {
  /// Checks one start tag of a non-root object against its entity as a full
  /// pass would (value sizes, attributes, its own id's name, the names in its
  /// references): every diagnostic that depends on this tag alone. What
  /// depends on other objects (sibling orders, duplicate ids, references'
  /// resolution, uniqueness, child counts) is not checked.
  public static func checkStartTag(
    _ tag: StartTag, entity: Int, relationship: Int, parentEntity: Int, model: Model
  ) -> StartTagFindings {
    let validator = OutlineValidator(modelProvider: fixedModel(model))
    validator.bind(model)
    let schema = model.index
    validator.checkValueSizes(tag)
    let implied =
      relationship >= 0 && parentEntity >= 0
      ? schema.impliedRelationship(parent: parentEntity, child: entity) : -1
    let findings = validator.checkAttributes(
      tag, entity: entity, isRoot: false, implied: implied, schema: schema)
    return StartTagFindings(
      diagnostics: validator.diagnostics, order: findings.order, orderRange: findings.orderRange,
      titleRange: findings.titleRange)
  }

  /// The order diagnostics of one sibling group (OL401-OL403) as a full pass
  /// reports them when its parent, named `parent` in messages, ends; and
  /// whether the group is numbered in document order.
  public static func checkSiblingOrders(
    _ entries: [(value: Int64?, range: TextRange)], parent: String
  ) -> (diagnostics: [Diagnostic], inOrder: Bool) {
    let validator = OutlineValidator(modelProvider: fixedModel())
    validator.checkOrders(entries.map { OrderEntry(value: $0.value, range: $0.range) }, parent: parent)
    return (validator.diagnostics, validator.inOrder)
  }

  /// The duplicate-id diagnostics (OL500) of `definitions`, the objects
  /// defining some ids in document order (raw `xml:id` values and their
  /// ranges), as a full pass reports them.
  public static func checkDuplicateIDs(_ definitions: [(raw: [UInt8], range: TextRange)]) -> [Diagnostic] {
    let validator = OutlineValidator(modelProvider: fixedModel())
    for definition in definitions {
      definition.raw.withUnsafeBufferPointer {
        _ = validator.references.define(raw: $0, entity: nil, range: definition.range, validator: validator)
      }
    }
    return validator.diagnostics
  }

  /// Whether the document wrote any relationship as a reference to an id.
  public var madeReferences: Bool { references.referenceCount > 0 }
}
