// The model as the JSON form reader asks for it on every key: entity and key names as bytes, value and
// relationship kinds, required attributes and which names can be written as XML, in flat arrays built once per
// conversion; plus the format's own keys (`@model`, `@entity`...) and the late attributes a collecting pass
// hands to the writing one.

import OutlineModel
import OutlineXML

/// Attributes that came after an object's array of children, by object
/// number: their canonical rank, XML value text and the JSON offset of the value.
typealias LateAttributes = [Int: [(rank: Int, text: [UInt8], offset: Int)]]

/// The model's facts the transcoder asks for on every key, as bytes and flat arrays.
final class ModelTables {
  let model: Model
  let entityNames: [[UInt8]]
  /// Per entity: its keys' bytes, attributes first, then relationships.
  let keys: [[[UInt8]]]
  let attributeCount: [Int]
  /// Per entity, per attribute: the JSON type its values have.
  let valueKinds: [[ValueKind]]
  /// Per entity, per relationship.
  let relationshipKinds: [[RelationshipKind]]
  let destinations: [[Int?]]
  /// Per entity: the attributes an object must have (the order attribute among them).
  let required: [[Int]]
  let orderAttribute: [Int]
  /// Per entity: whether its name, and each key's, can be written as an XML
  /// name (a hand-written model may hold any text there).
  let entityNameIsWritable: [Bool]
  let keyIsWritable: [[Bool]]
  var lastEntity = 0

  enum ValueKind { case integer, number, boolean, string }
  enum RelationshipKind { case containment, toMany, toOne }

  init(_ model: Model) {
    self.model = model
    let entities = model.entities
    entityNames = entities.map { Array($0.name.utf8) }
    keys = entities.map {
      $0.attributes.map { Array($0.name.utf8) } + $0.relationships.map { Array($0.name.utf8) }
    }
    attributeCount = entities.map(\.attributes.count)
    valueKinds = entities.map { entity in
      entity.attributes.map { attribute in
        switch attribute.type {
        case .integer16?, .integer32?, .integer64?: .integer
        case .double?, .float?, .decimal?: .number
        case .boolean?: .boolean
        default: .string
        }
      }
    }
    relationshipKinds = entities.map { entity in
      entity.relationships.map { $0.isContainment ? .containment : $0.isToMany ? .toMany : .toOne }
    }
    destinations = entities.map { $0.relationships.map(\.destination) }
    required = entities.map { entity in
      entity.attributes.indices.filter { index in
        let attribute = entity.attributes[index]
        return !attribute.isOptional && !attribute.isTransient && !attribute.isDerived
          && (attribute.defaultValue == nil || index == entity.orderAttribute)
      }
    }
    orderAttribute = entities.map { $0.orderAttribute ?? -1 }
    entityNameIsWritable = entities.map { XMLName.isNCName($0.name) }
    keyIsWritable = entities.map { entity in
      entity.attributes.map { XMLName.isNCName($0.name) }
        + entity.relationships.map { XMLName.isNCName($0.name) }
    }
  }

  func entity(named name: UnsafeBufferPointer<UInt8>) -> Int? {
    if lastEntity < entityNames.count && XMLName.equals(name, entityNames[lastEntity]) { return lastEntity }
    guard let index = XMLName.index(of: name, in: entityNames) else { return nil }
    lastEntity = index
    return index
  }

  func key(_ name: UnsafeBufferPointer<UInt8>, of entity: Int) -> Int? {
    XMLName.index(of: name, in: keys[entity])
  }
}

/// The keys of the format itself.
enum FormatKey: Int, CaseIterable {
  case outline, model, entity, id, objects, modelVersion

  static let names: [[UInt8]] = ["@outline", "@model", "@entity", "@id", "@objects", "@modelVersion"].map {
    Array($0.utf8)
  }

  init?(_ name: UnsafeBufferPointer<UInt8>) {
    guard let index = XMLName.index(of: name, in: Self.names) else { return nil }
    self.init(rawValue: index)
  }
}

/// A key of an object: the format's, or the entity's `n`th (attributes, then relationships).
enum Key: Equatable {
  case format(FormatKey)
  case entity(Int)
}
