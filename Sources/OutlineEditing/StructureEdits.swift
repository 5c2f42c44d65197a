import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// Why a structural edit is not offered or was refused.
public struct EditRefusal: Error, Sendable, Equatable {
  /// The reason, for the user.
  public let reason: String
}

/// Indent, outdent and delete (SPEC §7) as minimal text edits: the moved or
/// removed element's text travels whole, its lines re-indented; every
/// sibling group it leaves or joins is renumbered in the same edit, and a
/// deletion applies each relationship's `deletionRule` as Core Data would.
public enum StructureEdits {
  // MARK: Text blocks

  /// The bytes an element occupies: its lines when it stands alone on them
  /// (indentation and line end included), else exactly its tags.
  static func block(of item: Int, tree: ItemTree, source: SourceText) -> TextRange {
    let range = tree.items[item].fullRange
    let bytes = source.bytes
    var start = range.start
    while start > 0 && (bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09) { start -= 1 }
    var end = range.end
    while end < bytes.count && (bytes[end] == 0x20 || bytes[end] == 0x09) { end += 1 }
    let lineEnd = LineEnds.length(bytes, at: end)
    guard LineEnds.startsLine(bytes, at: start) && (end == bytes.count || lineEnd > 0) else { return range }
    return TextRange(start: start, end: end + lineEnd)
  }

  /// `text` with `delta` spaces added to (or removed from) the lines that start with a tag.
  /// Lines are split at their bytes' line ends (`\n`, `\r\n`, a lone `\r`), each kept as it is.
  static func reindent(_ text: String, by delta: Int) -> String {
    var out: [UInt8] = []
    let bytes = Array(text.utf8)
    for range in LineEnds.lines(bytes) {
      let line = bytes[range]
      let indent = line.prefix { $0 == 0x20 || $0 == 0x09 }.count
      let rest = line.dropFirst(indent)
      if rest.first == UInt8(ascii: "<") {
        out.append(contentsOf: repeatElement(0x20, count: max(0, indent + delta)))
        out.append(contentsOf: rest)
      } else {
        out.append(contentsOf: line)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The document's line ending: the one its first line ends with, else LF.
  static func lineEnding(of source: SourceText) -> String {
    String(decoding: LineEnds.first(in: source.bytes), as: UTF8.self)
  }

  /// The text of `item`'s block with its order set to `order` and re-indented by `delta`.
  static func movedText(_ item: Int, order: Int64, delta: Int, tree: ItemTree, source: SourceText) -> String {
    let block = block(of: item, tree: tree, source: source)
    let element = tree.items[item]
    var text: String
    if let orderRange = element.orderRange {
      text =
        source.string(in: TextRange(start: block.start, end: orderRange.start)) + String(order)
        + source.string(in: TextRange(start: orderRange.end, end: block.end))
    } else {
      text = source.string(in: block)
    }
    text = reindent(text, by: delta)
    if text.utf8.last != 0x0A && text.utf8.last != 0x0D && block.end > element.fullRange.end {
      text += lineEnding(of: source)
    }
    return text
  }

  /// The indentation before `offset`'s line content.
  static func indentation(at offset: Int, source: SourceText) -> Int {
    let line = source.lines.start(ofLine: source.lines.line(containing: offset))
    var index = line
    while index < source.bytes.count && source.bytes[index] == 0x20 { index += 1 }
    return index - line
  }

  /// Order edits closing the gap `removed` leaves among its siblings.
  static func closeGap(
    after removed: Int, group: Renumbering.Group, tree: ItemTree, source: SourceText, model: Model
  )
    -> [TextEdit]
  {
    guard let removedOrder = tree.items[removed].order else { return [] }
    let assignments = group.children.compactMap { child -> (Int, Int64)? in
      guard child != removed, let order = tree.items[child].order, order > removedOrder else { return nil }
      return (child, order - 1)
    }
    return Renumbering.edits(assigning: assignments, in: tree, source: source, model: model)
  }

  // MARK: Indent

  /// `item` becomes the last child of its previous sibling.
  public static func indent(_ item: Int, tree: ItemTree, source: SourceText, model: Model) -> Result<
    [TextEdit], EditRefusal
  > {
    guard let group = SiblingEdits.group(of: item, tree: tree, model: model),
      Renumbering.isValid(group, in: tree),
      let position = group.children.firstIndex(of: item), position > 0
    else { return .failure(EditRefusal(reason: "There is no previous sibling to indent under")) }
    let parent = group.children[position - 1]
    let parentItem = tree.items[parent]
    guard parentItem.entity >= 0, tree.items[item].entity >= 0,
      case .relationship(let relationship) = model.containment(
        of: Int(parentItem.entity), holding: Int(tree.items[item].entity))
    else { return .failure(EditRefusal(reason: "The previous sibling cannot contain this object")) }
    let newOrder = Int64(
      tree.children(of: parent).filter { Int(tree.items[$0].relationship) == relationship }.count)
    let childIndent = indentation(at: parentItem.startTag.start, source: source) + 2
    let delta = childIndent - indentation(at: tree.items[item].startTag.start, source: source)
    let moved = movedText(item, order: newOrder, delta: delta, tree: tree, source: source)
    var edits = [TextEdit(range: block(of: item, tree: tree, source: source), newText: "")]
    if let endTag = parentItem.endTag {
      // Before the parent's end tag, on a line of its own.
      let lineStart = source.lines.start(ofLine: source.lines.line(containing: endTag.start))
      let onlySpaceBefore = source.bytes[lineStart..<endTag.start].allSatisfy { $0 == 0x20 || $0 == 0x09 }
      edits.append(
        onlySpaceBefore
          ? TextEdit(range: TextRange(at: lineStart), newText: moved)
          : TextEdit(range: TextRange(at: endTag.start), newText: lineEnding(of: source) + moved))
    } else {
      // `<P .../>` opens: `<P ...>` + child + `</P>`.
      let close = TextRange(start: parentItem.startTag.end - 2, end: parentItem.startTag.end)
      let name = source.string(in: parentItem.nameRange)
      let parentIndent = String(repeating: " ", count: childIndent - 2)
      edits.append(
        TextEdit(range: close, newText: ">" + lineEnding(of: source) + moved + parentIndent + "</\(name)>"))
    }
    edits += closeGap(after: item, group: group, tree: tree, source: source, model: model)
    return .success(edits)
  }

  // MARK: Outdent

  /// `item` becomes the next sibling of its parent.
  public static func outdent(_ item: Int, tree: ItemTree, source: SourceText, model: Model) -> Result<
    [TextEdit], EditRefusal
  > {
    let parent = Int(tree.items[item].parent)
    guard parent > 0, let group = SiblingEdits.group(of: item, tree: tree, model: model),
      Renumbering.isValid(group, in: tree),
      let outer = SiblingEdits.group(of: parent, tree: tree, model: model),
      Renumbering.isValid(outer, in: tree),
      let parentOrder = tree.items[parent].order
    else { return .failure(EditRefusal(reason: "This object has no parent to step out of")) }
    let grand = Int(tree.items[parent].parent)
    let grandEntity = tree.items[grand].entity
    guard grandEntity >= 0, tree.items[item].entity >= 0,
      case .relationship(let relationship) = model.containment(
        of: Int(grandEntity), holding: Int(tree.items[item].entity)),
      Int32(relationship) == tree.items[parent].relationship
    else { return .failure(EditRefusal(reason: "The parent's parent cannot contain this object beside it")) }
    let delta =
      indentation(at: tree.items[parent].startTag.start, source: source)
      - indentation(at: tree.items[item].startTag.start, source: source)
    var moved = movedText(item, order: parentOrder + 1, delta: delta, tree: tree, source: source)
    let parentBlock = block(of: parent, tree: tree, source: source)
    if parentBlock.end == tree.items[parent].fullRange.end { moved = lineEnding(of: source) + moved }
    var edits = [
      TextEdit(range: block(of: item, tree: tree, source: source), newText: ""),
      TextEdit(range: TextRange(at: parentBlock.end), newText: moved),
    ]
    edits += closeGap(after: item, group: group, tree: tree, source: source, model: model)
    // Make room after the parent.
    let shifted = outer.children.compactMap { child -> (Int, Int64)? in
      guard let order = tree.items[child].order, order > parentOrder else { return nil }
      return (child, order + 1)
    }
    edits += Renumbering.edits(assigning: shifted, in: tree, source: source, model: model)
    return .success(edits)
  }

  // MARK: Delete

  /// Why `item` cannot be deleted whatever the delete rules say: its sibling
  /// group's orders are not `0..n-1` (as for the other refactors, the group
  /// must be valid: renumbering its survivors would rewrite values the user
  /// may have turned the order checks off to keep). Nil when it can be.
  public static func groupRefusal(deleting item: Int, tree: ItemTree, model: Model) -> EditRefusal? {
    guard item > 0, item < tree.items.count,
      let group = SiblingEdits.group(of: item, tree: tree, model: model),
      !Renumbering.isValid(group, in: tree)
    else { return nil }
    return EditRefusal(reason: "The orders of its sibling group are broken: renumber them first")
  }

  /// Deletes `item` with its subtree, renumbers the siblings after it (as the
  /// seed's `prepareForDeletion` does) and applies each relationship's
  /// `deletionRule`: Nullify removes the ids, Deny refuses, Cascade deletes the
  /// referenced objects too. Refused when `item`'s sibling group is not valid
  /// (``groupRefusal(deleting:tree:model:)``); a group a cascade reaches whose
  /// orders were already broken loses its deleted objects and nothing else.
  public static func delete(_ item: Int, tree: ItemTree, source: SourceText, model: Model) -> Result<
    [TextEdit], EditRefusal
  > {
    if let refusal = groupRefusal(deleting: item, tree: tree, model: model) { return .failure(refusal) }
    let impact = DeletionImpact(tree: tree, source: source, model: model)
    let closure: DeletionImpact.Closure
    switch impact.closure(deleting: item) {
    case .success(let found): closure = found
    case .failure(let refusal): return .failure(refusal)
    }
    let deleted = closure.deleted
    let ids = impact.references.definitions.mapValues(\.item)
    let references = impact.references.references
    // Outermost deleted subtrees are removed as blocks: a deleted item's
    // subtree is deleted whole, so a root is outermost when its parent stays.
    let outermost = closure.roots.filter { root in
      let parent = Int(tree.items[root].parent)
      return parent < 0 || !deleted[parent]
    }
    var edits = outermost.sorted().map {
      TextEdit(range: block(of: $0, tree: tree, source: source), newText: "")
    }
    // Surviving references lose the deleted ids (Nullify, or no inverse).
    for reference in references where !deleted[reference.holder] {
      let kept = reference.targets.filter { ids[$0.id].map { !deleted[$0] } ?? true }
      if kept.count != reference.targets.count {
        edits.append(TextEdit(range: reference.value, newText: kept.map(\.id).joined(separator: " ")))
      }
    }
    // Each valid group that lost children is renumbered: survivors keep their
    // relative order. A broken group's survivors keep their values.
    var parents: Set<Int> = []
    for root in outermost { parents.insert(Int(tree.items[root].parent)) }
    for parent in parents where !deleted[parent] {
      for group in Renumbering.groups(under: parent, in: tree, model: model) {
        let survivors = group.children.filter { !deleted[$0] }
        guard survivors.count != group.children.count, Renumbering.isValid(group, in: tree) else { continue }
        let ordered = tree.inOrderOrder(survivors)
        edits += Renumbering.edits(
          assigning: ordered.enumerated().map { ($1, Int64($0)) }, in: tree, source: source, model: model)
      }
    }
    return .success(edits)
  }
}
