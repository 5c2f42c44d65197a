// The attributes of each merged item (a three-way merge per attribute, `order` left to the sequences) and the
// `xml:id`s both sides gave to different items.

import OutlineCore
import OutlineSyntax

extension MergePlan {
  /// The decoded attributes of `item` in `document` (but `order`), in source order.
  static func attributes(_ document: DocumentItems, _ item: Int) -> [MergedAttribute] {
    document.attributes(of: item).map {
      MergedAttribute(name: document.text($0.name), value: document.value(of: $0))
    }
  }

  mutating func decideAttributes() {
    for node in 0..<placeStart where present[node] {
      let inOurs = Int(oursImage[node])
      let inTheirs = Int(theirsImage[node])
      if inOurs < 0 {
        // Theirs' item alone: written as fmt writes it.
        rewritten[node] = (theirs.elementName(of: inTheirs), Self.attributes(theirs, inTheirs))
        continue
      }
      guard inTheirs >= 0, node < oursStart else { continue }
      let oursHash = ours.ownHash[inOurs]
      let theirsHash = theirs.ownHash[inTheirs]
      let baseHash = base.ownHash[node]
      if theirsHash == baseHash || theirsHash == oursHash { continue }
      if oursHash == baseHash {
        rewritten[node] = (theirs.elementName(of: inTheirs), Self.attributes(theirs, inTheirs))
        continue
      }
      mergeAttributes(node, ours: inOurs, theirs: inTheirs)
    }
  }

  /// Both sides changed the item: attribute by attribute.
  private mutating func mergeAttributes(_ node: Int, ours inOurs: Int, theirs inTheirs: Int) {
    let before = Self.attributes(base, node)
    let mine = Self.attributes(ours, inOurs)
    let yours = Self.attributes(theirs, inTheirs)
    func value(_ list: [MergedAttribute], _ name: String) -> String? { list.first { $0.name == name }?.value }
    var names = mine.map(\.name)
    for attribute in yours where !names.contains(attribute.name) { names.append(attribute.name) }
    for attribute in before where !names.contains(attribute.name) { names.append(attribute.name) }
    var merged: [MergedAttribute] = []
    for name in names {
      let was = value(before, name)
      let oursValue = value(mine, name)
      let theirsValue = value(yours, name)
      let chosen: String?
      if oursValue == theirsValue || theirsValue == was {
        chosen = oursValue
      } else if oursValue == was {
        chosen = theirsValue
      } else {
        chosen = oursValue
        records[node, default: []].append(
          ConflictRecord(
            .attribute, [("name", name), ("base", was), ("ours", oursValue), ("theirs", theirsValue)]))
      }
      if let chosen { merged.append(MergedAttribute(name: name, value: chosen)) }
    }
    // The element name: the side that changed it.
    let oursName = ours.elementName(of: inOurs)
    let name = oursName == base.elementName(of: node) ? theirs.elementName(of: inTheirs) : oursName
    if merged != mine || name != oursName { rewritten[node] = (name, merged) }
  }

  /// The `xml:id` of a present node as it will be written.
  func idValue(_ node: Int) -> String? {
    if let rewritten = rewritten[node] { return rewritten.attributes.first { $0.name == "xml:id" }?.value }
    let item = Int(oursImage[node])
    guard item >= 0, let range = ours.tree.items[item].idRange else { return nil }
    return ours.value(of: ItemAttribute(name: range, value: range))
  }

  /// An id that a node from theirs alone and a node of ours both carry is a conflict before
  /// theirs' node (the duplicate stays, so OL500 points at it too).
  mutating func checkIDs() {
    var theirsOnly: [String: Int] = [:]
    for node in 0..<placeStart where present[node] && oursImage[node] < 0 {
      if let id = idValue(node) { theirsOnly[id] = node }
    }
    guard !theirsOnly.isEmpty else { return }
    for node in 0..<placeStart where present[node] && oursImage[node] >= 0 {
      guard let id = idValue(node), let other = theirsOnly.removeValue(forKey: id) else { continue }
      records[other, default: []].append(ConflictRecord(.id, [("id", id)]))
    }
  }
}
