// The keys of the JSON form: the format's own (`@model`, `@entity`...) and an entity's (by number in
// ``ModelIndex/keys``), and the late attributes a collecting pass hands to the writing one. The model's facts
// come from ``ModelIndex``.

import OutlineModel
import OutlineXML

/// Attributes that came after an object's array of children, by object
/// number: their canonical rank, XML value text and the JSON offset of the value.
typealias LateAttributes = [Int: [(rank: Int, text: [UInt8], offset: Int)]]

/// The keys of the format itself.
enum FormatKey: Int, CaseIterable {
  case outline, model, entity, id, objects, modelVersion, xmlns

  static let names: [[UInt8]] = [
    "@outline", "@model", "@entity", "@id", "@objects", "@modelVersion", "@xmlns",
  ].map {
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
