// The bytes of a merged document: ours' prolog and epilogue, ours' start tags (only `order` rewritten) with the
// white space and comments before them wherever an item's own content is ours', fmt's layout elsewhere, and the
// conflict records before the items they concern. One walk with an explicit stack.

import OutlineConvert
import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineXML

/// Writes the document a ``MergePlan`` describes.
struct MergeWriter {
  let plan: MergePlan
  let sequences: MergeSequences
  private var output: [UInt8] = []
  private var conflicts: [MergeConflict] = []
  /// Where the markup before each of ours' items ends (its parent's start tag or its previous sibling).
  private let oursLead: [Int32]
  /// Where ours' last child of each item ends, or -1.
  private let oursLastChildEnd: [Int32]
  private let theirsLead: [Int32]

  init(plan: MergePlan) {
    self.plan = plan
    sequences = MergeSequences(plan: plan)
    (oursLead, oursLastChildEnd) = Self.leads(plan.ours.tree)
    theirsLead = Self.leads(plan.theirs.tree).lead
  }

  private static func leads(_ tree: ItemTree) -> (lead: [Int32], lastChildEnd: [Int32]) {
    var lead = [Int32](repeating: 0, count: tree.items.count)
    var lastChildEnd = [Int32](repeating: -1, count: tree.items.count)
    for index in tree.items.indices {
      let item = tree.items[index]
      guard item.parent >= 0 else { continue }
      let parent = Int(item.parent)
      let previous = lastChildEnd[parent]
      lead[index] = previous >= 0 ? previous : Int32(tree.items[parent].startTag.end)
      lastChildEnd[parent] = Int32(item.fullRange.end)
    }
    return (lead, lastChildEnd)
  }

  mutating func write() -> MergeResult {
    let oursBytes = plan.ours.source.bytes
    guard plan.placeStart > 0, plan.present[0], plan.oursImage[0] == 0 else {
      return MergeResult(bytes: oursBytes, conflicts: [])
    }
    output.reserveCapacity(oursBytes.count + oursBytes.count / 8)
    let root = plan.ours.tree.items[0]
    output.append(contentsOf: oursBytes[0..<root.startTag.start])
    var stack: [(node: Int, depth: Int, next: Int)] = []
    if writeHead(0, depth: 0) { stack.append((0, 0, 0)) }
    while let top = stack.last {
      let children = sequences.children[top.node] ?? []
      guard top.next < children.count else {
        stack.removeLast()
        writeClose(top.node, depth: top.depth)
        continue
      }
      stack[stack.count - 1].next += 1
      let child = children[top.next]
      let depth = top.depth + 1
      if child >= plan.placeStart {
        writeRecord(plan.placeRecords[child - plan.placeStart], depth: depth)
        continue
      }
      writeLead(child, depth: depth)
      if writeHead(child, depth: depth) { stack.append((child, depth, 0)) }
    }
    output.append(contentsOf: oursBytes[min(root.fullRange.end, oursBytes.count)...])
    return MergeResult(bytes: output, conflicts: conflicts)
  }

  // MARK: - Pieces

  private mutating func writeRecord(_ record: ConflictRecord, depth: Int) {
    newline(depth)
    let start = output.count
    output.append(contentsOf: Array(record.markup.utf8))
    conflicts.append(MergeConflict(record: record, range: TextRange(start: start, end: output.count)))
  }

  private mutating func newline(_ depth: Int) {
    output.append(0x0A)
    output.append(contentsOf: repeatElement(0x20, count: CanonicalLayout.indentWidth(depth: depth)))
  }

  /// The conflict records of `node`, then the white space and comments before it.
  private mutating func writeLead(_ node: Int, depth: Int) {
    for record in plan.records[node] ?? [] { writeRecord(record, depth: depth) }
    for record in sequences.records[node] ?? [] { writeRecord(record, depth: depth) }
    let oursItem = Int(plan.oursImage[node])
    if oursItem >= 0 {
      let item = plan.ours.tree.items[oursItem]
      let lead = Int(oursLead[oursItem])..<item.startTag.start
      let keep = Int(item.depth) == depth
      appendTrivia(plan.ours.source.bytes, lead, depth: keep ? nil : depth, lastDepth: depth)
      return
    }
    let theirsItem = Int(plan.theirsImage[node])
    let item = plan.theirs.tree.items[theirsItem]
    let bytes = plan.theirs.source.bytes
    let lead = Int(theirsLead[theirsItem])..<item.startTag.start
    if bytes[lead].contains(0x0A) {
      appendTrivia(bytes, lead, depth: depth, lastDepth: depth)
    } else {
      newline(depth)
    }
  }

  /// Appends `bytes[range]` (white space, comments, processing instructions); with `depth`, each
  /// line outside comments is indented for it (the last line for `lastDepth`).
  private mutating func appendTrivia(_ bytes: [UInt8], _ range: Range<Int>, depth: Int?, lastDepth: Int) {
    guard let depth else { return output.append(contentsOf: bytes[range]) }
    var at = range.lowerBound
    while at < range.upperBound {
      let byte = bytes[at]
      if byte == UInt8(ascii: "<") {
        // A comment or instruction is copied whole.
        let isComment = at + 3 < range.upperBound && bytes[at + 1] == UInt8(ascii: "!")
        let closer: [UInt8] = isComment ? Array("-->".utf8) : Array("?>".utf8)
        var end = at + 2
        while end < range.upperBound
          && !bytes[end..<min(end + closer.count, range.upperBound)].elementsEqual(closer)
        {
          end += 1
        }
        end = min(end + closer.count, range.upperBound)
        output.append(contentsOf: bytes[at..<end])
        at = end
        continue
      }
      output.append(byte)
      at += 1
      if byte == 0x0A {
        while at < range.upperBound && (bytes[at] == 0x20 || bytes[at] == 0x09) { at += 1 }
        let isLast =
          !bytes[at..<range.upperBound].contains(0x0A)
          && !bytes[at..<range.upperBound].contains(UInt8(ascii: "<"))
        let width = CanonicalLayout.indentWidth(depth: isLast ? lastDepth : depth)
        output.append(contentsOf: repeatElement(0x20, count: width))
      }
    }
  }

  /// Writes the start tag of `node`; true when its element stays open for children (and an end
  /// tag written by ``writeClose(_:depth:)``).
  private mutating func writeHead(_ node: Int, depth: Int) -> Bool {
    let hasChildren = !(sequences.children[node] ?? []).isEmpty
    if let rewritten = plan.rewritten[node] {
      let inner = hasChildren ? nil : oursInnerMarkup(node)
      writeCanonicalTag(
        node, name: rewritten.name, attributes: rewritten.attributes, open: hasChildren || inner != nil)
      if let inner {
        // No children left, but comments inside ours' element: kept, as fmt keeps them.
        let item = plan.ours.tree.items[Int(plan.oursImage[node])]
        appendTrivia(
          plan.ours.source.bytes, inner, depth: Int(item.depth) == depth ? nil : depth + 1, lastDepth: depth)
        output.append(contentsOf: Array("</\(rewritten.name)>".utf8))
      }
      return hasChildren
    }
    let item = plan.ours.tree.items[Int(plan.oursImage[node])]
    let bytes = plan.ours.source.bytes
    var tag = Array(bytes[item.startTag.start..<item.startTag.end])
    if let order = sequences.orders[node], let range = item.orderRange {
      let start = range.start - item.startTag.start
      tag.replaceSubrange(start..<(range.end - item.startTag.start), with: Array(order.utf8))
    }
    let selfClosing = item.endTag == nil
    if selfClosing && hasChildren {
      // `<a .../>` gets children: `<a ...>`.
      tag.removeLast(2)
      while let last = tag.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D {
        tag.removeLast()
      }
      tag.append(UInt8(ascii: ">"))
    } else if !selfClosing && !hasChildren, let end = item.endTag {
      let inner = bytes[item.startTag.end..<end.start]
      let hadChildren = oursLastChildEnd[Int(plan.oursImage[node])] >= 0
      if hadChildren && !trailingHoldsMarkup(Int(plan.oursImage[node])) {
        // Its children all went: `<a .../>`, as fmt writes an element without children.
        tag.removeLast()
        tag.append(contentsOf: Array("/>".utf8))
        output.append(contentsOf: tag)
        return false
      }
      output.append(contentsOf: tag)
      if hadChildren {
        let trailing = Int(oursLastChildEnd[Int(plan.oursImage[node])])..<end.start
        appendTrivia(bytes, trailing, depth: Int(item.depth) == depth ? nil : depth + 1, lastDepth: depth)
      } else {
        output.append(contentsOf: inner)
      }
      output.append(contentsOf: bytes[end.start..<end.end])
      return false
    }
    output.append(contentsOf: tag)
    return hasChildren
  }

  /// The markup of ours' item of `node` after its last child (all its content when it has
  /// none), when comments or instructions stand there; nil otherwise.
  private func oursInnerMarkup(_ node: Int) -> Range<Int>? {
    let oursItem = Int(plan.oursImage[node])
    guard oursItem >= 0 else { return nil }
    let item = plan.ours.tree.items[oursItem]
    guard let end = item.endTag else { return nil }
    let last = Int(oursLastChildEnd[oursItem])
    let range = (last >= 0 ? last : item.startTag.end)..<end.start
    return plan.ours.source.bytes[range].contains(UInt8(ascii: "<")) ? range : nil
  }

  /// Whether comments or instructions stand after ours' last child of `item`.
  private func trailingHoldsMarkup(_ item: Int) -> Bool {
    let last = Int(oursLastChildEnd[item])
    guard last >= 0, let end = plan.ours.tree.items[item].endTag else { return false }
    return plan.ours.source.bytes[last..<end.start].contains(UInt8(ascii: "<"))
  }

  /// Closes an element left open by ``writeHead(_:depth:)``.
  private mutating func writeClose(_ node: Int, depth: Int) {
    if plan.rewritten[node] == nil {
      let oursItem = Int(plan.oursImage[node])
      let item = plan.ours.tree.items[oursItem]
      if let end = item.endTag {
        let last = Int(oursLastChildEnd[oursItem])
        let bytes = plan.ours.source.bytes
        if last >= 0 {
          appendTrivia(
            bytes, last..<end.start, depth: Int(item.depth) == depth ? nil : depth + 1, lastDepth: depth)
        } else {
          newline(depth)
        }
        output.append(contentsOf: bytes[end.start..<end.end])
        return
      }
      newline(depth)
      output.append(contentsOf: Array("</\(plan.ours.elementName(of: oursItem))>".utf8))
      return
    }
    if let trailing = oursInnerMarkup(node) {
      // A rewritten tag keeps the comments between ours' last child and its end tag.
      let item = plan.ours.tree.items[Int(plan.oursImage[node])]
      appendTrivia(
        plan.ours.source.bytes, trailing, depth: Int(item.depth) == depth ? nil : depth + 1, lastDepth: depth)
    } else {
      newline(depth)
    }
    output.append(contentsOf: Array("</\(plan.rewritten[node]!.name)>".utf8))
  }

  /// A start tag as `fmt` writes it: attributes in canonical order, values canonical and escaped.
  private mutating func writeCanonicalTag(
    _ node: Int, name: String, attributes: [MergedAttribute], open: Bool
  ) {
    var attributes = attributes
    if let order = sequences.orders[node] { attributes.append(MergedAttribute(name: "order", value: order)) }
    let entity = self.entity(of: node)
    let order = CanonicalLayout.attributeOrder(attributes.map(\.name), isRoot: node == 0, entity: entity)
    var text = "<" + name
    for index in order {
      let attribute = attributes[index]
      let value = CanonicalLayout.value(attribute.value, of: attribute.name, entity: entity)
      text += " \(attribute.name)=\"\(XMLEscaping.escapeAttribute(value))\""
    }
    text += open ? ">" : "/>"
    output.append(contentsOf: Array(text.utf8))
  }

  /// The model's entity of `node`, from the side whose item it is.
  private func entity(of node: Int) -> Entity? {
    let oursItem = Int(plan.oursImage[node])
    let (document, item) = oursItem >= 0 ? (plan.ours, oursItem) : (plan.theirs, Int(plan.theirsImage[node]))
    let index = Int(document.tree.items[item].entity)
    guard let model = document.model, index >= 0, index < model.entities.count else { return nil }
    return model.entities[index]
  }
}
