// How a structural diff reads to a person: items named by their label (title, else element name and place among
// their siblings), one change a line, `KIND LABEL OLD -> NEW: detail` with `-` for the side an item is not on.

import OutlineCore

extension DocumentItems {
  /// How `item` is named to a person: its title, quoted, else its element name and its place
  /// among the siblings of its relationship (`Tag #2`); the root without a title by its element name.
  public func label(of item: Int) -> String {
    if let title = title(of: item) { return DiffText.quoted(title) }
    if tree.items[item].parent < 0 { return elementName(of: item) }
    return "\(elementName(of: item)) #\(groupRank[item] + 1)"
  }

  /// The place of `item` among the siblings of its relationship, from 1.
  public func place(of item: Int) -> Int { Int(groupRank[item]) + 1 }

  /// Where `item` starts (its `<`), as `line:column` from 1 with columns in characters.
  public func position(of item: Int) -> SourcePosition {
    source.position(of: tree.items[item].startTag.start, unit: .scalar)
  }
}

/// The text form of a ``StructuralDiff``.
public enum DiffText {
  /// One line a change (no line end), positions from `oldPosition` and `newPosition` (an item's
  /// `line:column`, from 1), by default where the item starts in each document.
  public static func lines(
    _ diff: StructuralDiff, oldPosition: ((Int) -> String)? = nil, newPosition: ((Int) -> String)? = nil
  ) -> [String] {
    let oldPosition = oldPosition ?? { "\(diff.old.position(of: $0))" }
    let newPosition = newPosition ?? { "\(diff.new.position(of: $0))" }
    return diff.changes.map { change in
      let label = change.new.map { diff.new.label(of: $0) } ?? diff.old.label(of: change.old!)
      let places = "\(change.old.map(oldPosition) ?? "-") -> \(change.new.map(newPosition) ?? "-")"
      return "\(change.kind.rawValue) \(label) \(places): \(detail(change, diff))"
    }
  }

  /// What a change line says after its positions.
  static func detail(_ change: ItemChange, _ diff: StructuralDiff) -> String {
    switch change.kind {
    case .added:
      guard let parent = change.newParent else { return "the root" + count(change.items) }
      return "under \(diff.new.label(of: parent)) at #\(diff.new.place(of: change.new!))"
        + count(change.items)
    case .removed:
      guard let parent = change.oldParent else { return "the root" + count(change.items) }
      return "from \(diff.old.label(of: parent)) at #\(diff.old.place(of: change.old!))" + count(change.items)
    case .moved:
      let oldPlace = "#\(diff.old.place(of: change.old!))"
      let newPlace = "#\(diff.new.place(of: change.new!))"
      if let oldParent = change.oldParent, let newParent = change.newParent,
        diff.matching.new(for: oldParent) == newParent
      {
        return "within \(diff.new.label(of: newParent)) \(oldPlace) -> \(newPlace)"
      }
      return
        "from \(parent(change.oldParent, diff.old)) \(oldPlace) to \(parent(change.newParent, diff.new)) \(newPlace)"
    case .changed:
      var text = "\(change.attribute ?? "?") \(value(change.oldValue)) -> \(value(change.newValue))"
      var ids: [String] = []
      if let added = change.addedIDs, !added.isEmpty { ids.append("added \(added.joined(separator: " "))") }
      if let removed = change.removedIDs, !removed.isEmpty {
        ids.append("removed \(removed.joined(separator: " "))")
      }
      if !ids.isEmpty { text += " (\(ids.joined(separator: "; ")))" }
      return text
    }
  }

  static func parent(_ item: Int?, _ document: DocumentItems) -> String {
    item.map { document.label(of: $0) } ?? "the root"
  }

  static func count(_ items: Int) -> String { items > 1 ? " (\(items) items)" : "" }

  static func value(_ value: String?) -> String { value.map(quoted) ?? "(none)" }

  /// `text` in double quotes, with `"`, `\` and control characters escaped.
  public static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
