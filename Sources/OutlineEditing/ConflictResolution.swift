import OutlineCore
import OutlineSyntax
import OutlineXML

/// The ways to resolve a conflict record `outline merge` left (OL600): each picks a side and
/// removes the record, as minimal edits on the text.
public enum ConflictResolution {
  /// One way to resolve a record.
  public struct Choice: Sendable, Hashable {
    /// What the editor shows, e.g. `Take theirs: title 'Soy milk'`.
    public var title: String
    /// The edits, in text order, none overlapping.
    public var edits: [TextEdit]
    /// Whether this is the choice to offer first (keeping what the document holds).
    public var isPreferred: Bool
  }

  /// The choices for the record whose processing instruction is `range` of `source`; empty when
  /// no record stands there or the item it concerns is gone.
  public static func choices(recordAt range: TextRange, in source: SourceText, tree: ItemTree) -> [Choice] {
    let bytes = source.bytes
    guard range.end <= bytes.count, let record = ConflictRecord.parse(Array(bytes[range.start..<range.end]))
    else {
      return []
    }
    let dropRecord = TextEdit(range: lineRange(range, in: bytes), newText: "")
    if record.kind == .place {
      return placeChoices(record, range: range, drop: dropRecord, source: source, tree: tree)
    }
    guard let item = nextItem(after: range.end, in: tree) else { return [] }
    let element = tree.items[item]
    switch record.kind {
    case .attribute:
      guard let name = record["name"] else { return [] }
      var choices = [
        Choice(title: "Keep ours: \(describe(name, record["ours"]))", edits: [dropRecord], isPreferred: true)
      ]
      if let edit = setAttribute(name, to: record["theirs"], of: element, in: bytes) {
        choices.append(
          Choice(
            title: "Take theirs: \(describe(name, record["theirs"]))", edits: [dropRecord, edit],
            isPreferred: false))
      }
      return choices
    case .removed:
      let remover = record["side"] == "ours" ? "ours" : "theirs"
      let keeper = remover == "ours" ? "theirs" : "ours"
      return [
        Choice(title: "Keep the item (\(keeper))", edits: [dropRecord], isPreferred: true),
        Choice(
          title: "Remove the item (\(remover))",
          edits: removing(item, from: dropRecord.range.start, in: tree),
          isPreferred: false),
      ]
    case .moved:
      var edits = [dropRecord]
      if let place = findRecord(kind: .place, move: record["move"], in: bytes) {
        edits.append(TextEdit(range: lineRange(place, in: bytes), newText: ""))
      }
      return [Choice(title: "Keep it here (ours)", edits: sorted(edits), isPreferred: true)]
    case .id:
      var choices = [
        Choice(
          title: "Keep ours' item with id \(Excerpt.quoted(record["id"] ?? "")) (remove this one)",
          edits: removing(item, from: dropRecord.range.start, in: tree),
          isPreferred: false)
      ]
      if let id = record["id"], let other = otherItem(withID: id, besides: item, in: tree, bytes: bytes) {
        let otherRange = lineRange(tree.items[other].fullRange, in: bytes)
        choices.append(
          Choice(
            title: "Keep this item with id \(Excerpt.quoted(id)) (remove ours')",
            edits: sorted(
              [dropRecord, TextEdit(range: otherRange, newText: "")] + closingGap(removing: other, in: tree)),
            isPreferred: false))
      }
      return choices
    case .place:
      return []
    case .order:
      return [Choice(title: "Keep ours' order", edits: [dropRecord], isPreferred: true)]
    }
  }

  /// Theirs' place of a moved item: moving it here takes the item from ours' place.
  private static func placeChoices(
    _ record: ConflictRecord, range: TextRange, drop: TextEdit, source: SourceText, tree: ItemTree
  ) -> [Choice] {
    let bytes = source.bytes
    guard let moved = findRecord(kind: .moved, move: record["move"], in: bytes),
      let item = nextItem(after: moved.end, in: tree)
    else { return [] }
    let element = tree.items[item].fullRange
    guard element.end <= range.start || range.end <= moved.start else { return [] }
    let text = String(decoding: bytes[element.start..<element.end], as: UTF8.self)
    let keepHere = TextEdit(
      range: TextRange(start: lineRange(moved, in: bytes).start, end: element.end), newText: "")
    let moveHere = TextEdit(range: range, newText: text)
    return [
      Choice(title: "Move it here (theirs)", edits: sorted([keepHere, moveHere]), isPreferred: false),
      Choice(
        title: "Keep it where ours put it",
        edits: sorted([drop, TextEdit(range: lineRange(moved, in: bytes), newText: "")]), isPreferred: true),
    ]
  }

  /// The edits that remove `item` with what stands before it from `start` (its conflict
  /// record), and close the gap it leaves in its siblings' orders.
  private static func removing(_ item: Int, from start: Int, in tree: ItemTree) -> [TextEdit] {
    let remove = TextEdit(range: TextRange(start: start, end: tree.items[item].fullRange.end), newText: "")
    return sorted([remove] + closingGap(removing: item, in: tree))
  }

  /// The edits that close the gap removing `item` leaves in its siblings' `order` values: each
  /// sibling of its relationship numbered above it moves down by one.
  static func closingGap(removing item: Int, in tree: ItemTree) -> [TextEdit] {
    let removed = tree.items[item]
    guard let order = removed.order, removed.parent >= 0 else { return [] }
    var edits: [TextEdit] = []
    var sibling = Int(removed.parent) + 1
    let end = Int(tree.items[Int(removed.parent)].subtreeEnd)
    while sibling < end {
      let other = tree.items[sibling]
      if sibling != item, other.relationship == removed.relationship, let value = other.order, value > order,
        let range = other.orderRange
      {
        edits.append(TextEdit(range: range, newText: String(value - 1)))
      }
      sibling = Int(other.subtreeEnd)
    }
    return edits
  }

  private static func sorted(_ edits: [TextEdit]) -> [TextEdit] {
    edits.sorted { $0.range.start < $1.range.start }
  }

  private static func describe(_ name: String, _ value: String?) -> String {
    value.map { "\(name) \(Excerpt.quoted($0))" } ?? "no \(name)"
  }

  /// `range` with the white space before it back to the line's start and its line end: the
  /// whole line when nothing else stands on it.
  static func lineRange(_ range: TextRange, in bytes: [UInt8]) -> TextRange {
    var start = range.start
    while start > 0 && (bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09) { start -= 1 }
    guard start > 0, bytes[start - 1] == 0x0A else { return range }
    start -= 1
    if start > 0 && bytes[start - 1] == 0x0D { start -= 1 }
    return TextRange(start: start, end: range.end)
  }

  /// The first item whose start tag begins at or after `offset`.
  static func nextItem(after offset: Int, in tree: ItemTree) -> Int? {
    let found = Partition.point(tree.items.count) { tree.items[$0].startTag.start < offset }
    return found < tree.items.count ? found : nil
  }

  /// The other item with `xml:id` `id`.
  static func otherItem(withID id: String, besides other: Int, in tree: ItemTree, bytes: [UInt8]) -> Int? {
    let wanted = Array(id.utf8)
    for index in tree.items.indices where index != other {
      guard let range = tree.items[index].idRange else { continue }
      if XMLEscaping.decodeAttribute(Array(bytes[range.start..<range.end])) == id
        || bytes[range.start..<range.end].elementsEqual(wanted)
      {
        return index
      }
    }
    return nil
  }

  /// The record of `kind` with move number `move`.
  static func findRecord(kind: ConflictRecord.Kind, move: String?, in bytes: [UInt8]) -> TextRange? {
    guard let move else { return nil }
    let opener = Array("<?\(ConflictRecord.target)".utf8)
    var at = 0
    while at + opener.count <= bytes.count {
      guard bytes[at] == opener[0], bytes[at..<at + opener.count].elementsEqual(opener) else {
        at += 1
        continue
      }
      var end = at + opener.count
      while end + 1 < bytes.count && !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">"))
      {
        end += 1
      }
      end = min(end + 2, bytes.count)
      if let record = ConflictRecord.parse(Array(bytes[at..<end])), record.kind == kind,
        record["move"] == move
      {
        return TextRange(start: at, end: end)
      }
      at = end
    }
    return nil
  }

  /// The edit giving attribute `name` of `item` the value `value` (nil: removing it).
  static func setAttribute(_ name: String, to value: String?, of item: Item, in bytes: [UInt8]) -> TextEdit? {
    let tag = item.startTag
    var at = tag.start + 1 + Int(item.nameLength)
    let wanted = Array(name.utf8)
    while at < tag.end {
      while at < tag.end && isSpace(bytes[at]) { at += 1 }
      let nameStart = at
      while at < tag.end && !isSpace(bytes[at]) && bytes[at] != UInt8(ascii: "=")
        && bytes[at] != UInt8(ascii: ">")
        && bytes[at] != UInt8(ascii: "/")
      {
        at += 1
      }
      let nameEnd = at
      while at < tag.end && (isSpace(bytes[at]) || bytes[at] == UInt8(ascii: "=")) { at += 1 }
      guard at < tag.end, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { break }
      let quote = bytes[at]
      let valueStart = at + 1
      at = valueStart
      while at < tag.end && bytes[at] != quote { at += 1 }
      let valueEnd = at
      at += 1
      guard nameEnd > nameStart, bytes[nameStart..<nameEnd].elementsEqual(wanted) else { continue }
      guard let value else {
        var start = nameStart
        while start > tag.start && isSpace(bytes[start - 1]) { start -= 1 }
        return TextEdit(range: TextRange(start: start, end: at), newText: "")
      }
      var escaped = XMLEscaping.escapeAttribute(value)
      if quote == UInt8(ascii: "'") { escaped = escaped.replacingOccurrences(of: "'", with: "&apos;") }
      return TextEdit(range: TextRange(start: valueStart, end: valueEnd), newText: escaped)
    }
    guard let value else { return nil }
    // Not written yet: added before the tag's end.
    var end = tag.end - 1
    if end > tag.start && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    while end > tag.start && isSpace(bytes[end - 1]) { end -= 1 }
    return TextEdit(
      range: TextRange(start: end, end: end), newText: " \(name)=\"\(XMLEscaping.escapeAttribute(value))\"")
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    var out = ""
    for character in self { out += String(character) == target ? replacement : String(character) }
    return out
  }
}
