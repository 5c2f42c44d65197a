import Foundation
import OutlineCore
import OutlineModel
import OutlineXML

/// A model prepared for matching names given as bytes, so the validator's
/// hot path compares bytes and allocates no strings.
struct BoundModel {
  let model: Model
  let entityNames: [[UInt8]]
  let attributeNames: [[[UInt8]]]
  let relationshipNames: [[[UInt8]]]
  private var lastEntity = -1
  private var regexCache: [String: NSRegularExpression?] = [:]

  init(_ model: Model) {
    self.model = model
    entityNames = model.entities.map { Array($0.name.utf8) }
    attributeNames = model.entities.map { $0.attributes.map { Array($0.name.utf8) } }
    relationshipNames = model.entities.map { $0.relationships.map { Array($0.name.utf8) } }
  }

  /// The entity named by `name`.
  mutating func entity(named name: UnsafeBufferPointer<UInt8>) -> Int? {
    if lastEntity >= 0 && XMLName.equals(name, entityNames[lastEntity]) { return lastEntity }
    for (index, candidate) in entityNames.enumerated() where XMLName.equals(name, candidate) {
      lastEntity = index
      return index
    }
    return nil
  }

  func attribute(_ name: UnsafeBufferPointer<UInt8>, of entity: Int) -> Int? {
    attributeNames[entity].firstIndex { XMLName.equals(name, $0) }
  }

  func relationship(_ name: UnsafeBufferPointer<UInt8>, of entity: Int) -> Int? {
    relationshipNames[entity].firstIndex { XMLName.equals(name, $0) }
  }

  /// The compiled `regularExpressionString`, anchored to the whole value.
  mutating func regex(_ pattern: String) -> NSRegularExpression? {
    if let cached = regexCache[pattern] { return cached }
    let compiled = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: [])
    regexCache[pattern] = compiled
    return compiled
  }
}
