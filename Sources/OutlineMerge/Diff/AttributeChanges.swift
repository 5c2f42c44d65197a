// The attribute changes of one matched pair: every attribute (`order` aside) whose decoded value differs, was
// added or was dropped. A relationship's value is a list of ids: compared as a set when the relationship is
// unordered, and reported with the ids added and removed.

import OutlineCore
import OutlineModel
import OutlineXML

enum AttributeChanges {
  /// The changes of the attributes of old item `oldItem` to those of new item `newItem`, in the
  /// order the old item writes them, then the attributes only the new one writes.
  static func between(
    _ old: DocumentItems, _ oldItem: Int, _ new: DocumentItems, _ newItem: Int
  ) -> [ItemChange] {
    let oldAttributes = old.attributes(of: oldItem).map { (old.text($0.name), old.value(of: $0)) }
    let newAttributes = new.attributes(of: newItem).map { (new.text($0.name), new.value(of: $0)) }
    var newValues: [String: String] = [:]
    for (name, value) in newAttributes where newValues[name] == nil { newValues[name] = value }
    var seen = Set<String>()
    var changes: [ItemChange] = []
    func add(_ name: String, _ oldValue: String?, _ newValue: String?) {
      var change = ItemChange(.changed, old: oldItem, new: newItem)
      change.attribute = name
      change.oldValue = oldValue
      change.newValue = newValue
      if let relationship = relationship(named: name, of: newItem, in: new)
        ?? relationship(
          named: name, of: oldItem, in: old)
      {
        let oldIDs = ids(oldValue)
        let newIDs = ids(newValue)
        if !relationship.isOrdered && Set(oldIDs) == Set(newIDs) { return }
        let (oldSet, newSet) = (Set(oldIDs), Set(newIDs))
        change.addedIDs = newIDs.filter { !oldSet.contains($0) }
        change.removedIDs = oldIDs.filter { !newSet.contains($0) }
      }
      changes.append(change)
    }
    for (name, value) in oldAttributes where seen.insert(name).inserted {
      let newValue = newValues[name]
      if newValue != value { add(name, value, newValue) }
    }
    for (name, value) in newAttributes where seen.insert(name).inserted { add(name, nil, value) }
    return changes
  }

  /// The model's relationship `name` of `item`'s entity, when it is a reference (no containment).
  static func relationship(named name: String, of item: Int, in document: DocumentItems) -> Relationship? {
    let entity = Int(document.tree.items[item].entity)
    guard let model = document.model, entity >= 0, entity < model.entities.count,
      let index = model.entities[entity].relationshipIndex[name]
    else { return nil }
    let relationship = model.entities[entity].relationships[index]
    return relationship.isContainment ? nil : relationship
  }

  /// The ids of a relationship's value, split at XML's spaces.
  static func ids(_ value: String?) -> [String] {
    guard let value else { return [] }
    return value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(
      String.init)
  }
}
