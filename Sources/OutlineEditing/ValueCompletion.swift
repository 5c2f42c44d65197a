import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// Completion of attribute values: the values the model allows where it
/// enumerates them (Boolean, a pattern that is a list of alternatives, the
/// root's `entity`), and ids of objects of the right entity for references.
public enum ValueCompletion {
  /// One value to offer.
  public struct Candidate: Sendable, Equatable {
    /// What it is.
    public enum Kind: Sendable, Equatable {
      /// One of the values the model enumerates.
      case enumerated
      /// `true` or `false`.
      case boolean
      /// An entity name.
      case entity
      /// The id of an object the relationship may name.
      case id
    }

    /// The value.
    public var value: String
    /// The entity of the object (ids) or the attribute's type.
    public var detail: String
    /// What it is.
    public var kind: Kind
  }

  /// The values for attribute `name` of an element of `entity` (nil when
  /// unknown); `isRoot` for the `<outline>` element. `written` is the
  /// value's text so far: ids it already names are not offered again.
  public static func candidates(
    attribute name: String, entity: Int?, isRoot: Bool, written: String = "", model: Model, tree: ItemTree?,
    source: SourceText
  ) -> [Candidate] {
    if isRoot && name == "entity" {
      return model.entities.filter { !$0.isAbstract }.map {
        Candidate(value: $0.name, detail: "entity", kind: .entity)
      }
    }
    // The root's other format attributes are no properties of its entity, whatever their names.
    guard let entity, !(isRoot && RootFormat.isAttribute(name)) else { return [] }
    let definition = model.entities[entity]
    if let index = definition.attributeIndex[name] {
      let attribute = definition.attributes[index]
      if attribute.type == .boolean {
        return ["true", "false"].map { Candidate(value: $0, detail: "Boolean", kind: .boolean) }
      }
      return alternatives(of: attribute.regularExpression).map {
        Candidate(value: $0, detail: attribute.typeName, kind: .enumerated)
      }
    }
    guard let index = definition.relationshipIndex[name],
      let destination = definition.relationships[index].destination,
      let tree
    else { return [] }
    let named = Set(XMLName.tokens(written).map(String.init))
    var seen: Set<String> = []
    var result: [Candidate] = []
    for item in tree.items where item.entity >= 0 && item.idRange != nil {
      guard model.isKind(Int(item.entity), of: destination) else { continue }
      let id = source.string(in: item.idRange!)
      guard !named.contains(id), seen.insert(id).inserted else { continue }
      result.append(Candidate(value: id, detail: model.entities[Int(item.entity)].name, kind: .id))
    }
    return result
  }

  /// The literal alternatives of a pattern such as `low|medium|high`,
  /// `^(low|medium|high)$` or `(?:a|b)`; nil when the pattern is anything
  /// else (a character class, a quantifier, an escape...).
  public static func alternatives(of pattern: String?) -> [String] {
    guard let pattern, !pattern.isEmpty else { return [] }
    var body = Substring(pattern)
    if body.hasPrefix("^") { body = body.dropFirst() }
    if body.hasSuffix("$") && !body.hasSuffix("\\$") { body = body.dropLast() }
    if body.hasPrefix("(?:") && body.hasSuffix(")") {
      body = body.dropFirst(3).dropLast()
    } else if body.hasPrefix("(") && body.hasSuffix(")") {
      body = body.dropFirst().dropLast()
    }
    let special = Set("\\^$.|?*+()[]{}")
    let parts = body.split(separator: "|", omittingEmptySubsequences: false)
    guard parts.count >= 1,
      parts.allSatisfy({ !$0.isEmpty && !$0.contains(where: { special.contains($0) }) })
    else { return [] }
    var seen: Set<Substring> = []
    return parts.filter { seen.insert($0).inserted }.map(String.init)
  }
}
