import JSONRPC
import OutlineCore
import OutlineModel

/// `textDocument/hover`: an object's entity, path and order; an attribute's
/// type and constraints from the model.
struct HoverFeature {
  let mapper: PositionMapper

  func hover(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws -> LSP.Hover? {
    guard let offset = mapper.offset(params.position, in: snapshot.source) else {
      throw ResponseError.invalidParams("position is not a position")
    }
    let queries = DocumentQueries(source: snapshot.source, analysis: snapshot.analysis)
    guard let tree = queries.tree, let item = tree.item(at: offset) else { return nil }
    let model = queries.model
    let entityIndex = Int(tree.items[item].entity)
    let entity = entityIndex >= 0 ? model?.entities[entityIndex] : nil
    if let (_, hit) = queries.startTag(at: offset), let hit, let entity,
      !DocumentQueries.isFormatAttribute(hit.name, of: item)
    {
      if let index = entity.attributeIndex[hit.name] {
        return reply(
          Self.describe(entity.attributes[index])
            + declared(.attribute(entity: entityIndex, index: index), model!),
          hit.nameRange.start..<(hit.valueRange.end + 1), snapshot)
      }
      if let index = entity.relationshipIndex[hit.name] {
        return reply(
          Self.describe(entity.relationships[index], model: model!)
            + declared(.relationship(entity: entityIndex, index: index), model!),
          hit.nameRange.start..<(hit.valueRange.end + 1), snapshot)
      }
    }
    // The object itself.
    // Its ancestors below the root, innermost first; a deep path names its first 2 and last 6.
    var ancestors: [Int] = []
    var current = Int(tree.items[item].parent)
    while current > 0 {
      ancestors.append(current)
      current = Int(tree.items[current].parent)
    }
    var path: [String] = []
    for (index, ancestor) in ancestors.enumerated() {
      if ancestors.count > 8 && index == 6 { path.append("…") }
      if ancestors.count > 8 && index >= 6 && index < ancestors.count - 2 { continue }
      path.append(queries.label(ancestor))
    }
    var text =
      "**\(Excerpt.escaped(entity?.name ?? snapshot.source.string(in: tree.items[item].nameRange)))**"
    if item > 0 { text += " — \(queries.label(item))" }
    if !path.isEmpty { text += "\n\nin: " + path.reversed().joined(separator: " › ") }
    if let order = tree.items[item].order {
      // Its siblings are the children of its parent in its own relationship.
      let siblings =
        item > 0
        ? tree.childCount(of: Int(tree.items[item].parent), relationship: tree.items[item].relationship) : 1
      text += "\n\norder: \(order) of \(counted(siblings, "sibling"))"
    }
    let children = tree.containedChildCount(of: item)
    if children > 0 { text += "\n\nchildren: \(children)" }
    let free = item == 0 ? tree.childCount(of: 0, relationship: -1) : 0
    if free > 0 { text += "\n\nfree objects: \(free)" }
    if let entity, !entity.fetchedProperties.isEmpty {
      text += "\n\nfetched properties (computed by Core Data, never written):"
      for property in entity.fetchedProperties {
        text += "\n- **\(Excerpt.escaped(property.name))**"
        if let fetched = property.fetchedEntity { text += " → \(Excerpt.escaped(fetched))" }
        if let predicate = property.predicate { text += ": `\(Excerpt.escaped(predicate))`" }
      }
    }
    if let model, entity != nil { text += declared(.entity(entityIndex), model) }
    if let version = VersionFeatures.hover(snapshot, item: item) { text += "\n\n" + version }
    let name = tree.items[item].nameRange
    return reply(text, name.start..<name.end, snapshot)
  }

  /// A paragraph saying where the model declares it, when the model is a file.
  private func declared(_ declaration: ModelNavigationFeature.Declaration, _ model: Model) -> String {
    ModelNavigationFeature(mapper: mapper).declaredAt(declaration, in: model).map { "\n\n" + $0 } ?? ""
  }

  private func reply(_ markdown: String, _ range: Range<Int>, _ snapshot: Snapshot) -> LSP.Hover {
    LSP.Hover(
      contents: LSP.MarkupContent(kind: .markdown, value: ReplyLimits.text(markdown)),
      range: mapper.range(TextRange(start: range.lowerBound, end: range.upperBound), in: snapshot.source))
  }

  static func describe(_ attribute: Attribute) -> String {
    var lines = [
      "**\(Excerpt.escaped(attribute.name))**: \(Excerpt.escaped(attribute.typeName))\(attribute.isOptional ? ", optional" : ", required")"
    ]
    if attribute.isTransient { lines.append("transient (not stored)") }
    if attribute.isDerived {
      lines.append(
        "derived\(attribute.derivationExpression.map { ": `\(Excerpt.escaped($0))`" } ?? ""): computed by Core Data, never written"
      )
    }
    if let value = attribute.defaultValue { lines.append("default: `\(Excerpt.escaped(value))`") }
    let noun = attribute.type == .string ? "length" : "value"
    if let minimum = attribute.minValue { lines.append("minimum \(noun): \(Excerpt.escaped(minimum))") }
    if let maximum = attribute.maxValue { lines.append("maximum \(noun): \(Excerpt.escaped(maximum))") }
    if let pattern = attribute.regularExpression { lines.append("must match: `\(Excerpt.escaped(pattern))`") }
    if attribute.declaringEntity.isEmpty == false {
      lines.append("declared by \(Excerpt.escaped(attribute.declaringEntity))")
    }
    return lines.joined(separator: "\n\n")
  }

  static func describe(_ relationship: Relationship, model: Model) -> String {
    let destination =
      Excerpt.escaped(
        relationship.destination.map { model.entities[$0].name } ?? relationship.destinationName ?? "?")
    var lines = [
      "**\(Excerpt.escaped(relationship.name))**: \(relationship.isToMany ? "to-many" : "to-one") → \(destination)\(relationship.isOptional ? ", optional" : ", required")"
    ]
    lines.append(relationship.isToMany ? "ids separated by spaces" : "one id")
    if let inverse = relationship.inverseName { lines.append("inverse: \(Excerpt.escaped(inverse))") }
    if let minimum = relationship.minCount, relationship.isToMany { lines.append("at least \(minimum)") }
    if let maximum = relationship.maxCount, relationship.isToMany, maximum > 0 {
      lines.append("at most \(maximum)")
    }
    lines.append("on delete: \(relationship.deletionRule.rawValue)")
    return lines.joined(separator: "\n\n")
  }
}
