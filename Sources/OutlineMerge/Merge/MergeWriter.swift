// The bytes of a merged document: ours' prolog and epilogue, ours' start tags (only `order` rewritten) with the
// white space and comments before them wherever an item's own content is ours' (less the comments theirs
// removed), fmt's layout elsewhere, and the conflict records before the items they concern. One walk with an
// explicit stack.

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
  /// Where the markup around each of ours' items stands.
  private let oursSlots: TriviaSlots
  /// Theirs' comments to write, by the slot they go to, and ours' to leave out.
  private let added: MergedComments

  init(plan: MergePlan) {
    self.plan = plan
    sequences = MergeSequences(plan: plan)
    oursSlots = TriviaSlots(plan.ours.tree)
    added = MergedComments(plan: plan)
  }

  mutating func write() -> MergeResult {
    let oursBytes = plan.ours.source.bytes
    guard plan.placeStart > 0, plan.present[0], plan.oursImage[0] == 0 else {
      return MergeResult(bytes: oursBytes, conflicts: [])
    }
    output.reserveCapacity(oursBytes.count + oursBytes.count / 8)
    let root = plan.ours.tree.items[0]
    appendTrivia(
      oursBytes, 0..<root.startTag.start, depth: nil, lastDepth: 0, adding: added.lead[0] ?? [], at: 0,
      lineAfter: true)
    // `next`: the index of the next child in the node's list, or ours' next child item when the
    // node's children are ours' (``MergeSequences/inOursOrder``).
    var stack: [(node: Int, depth: Int, next: Int)] = []
    if writeHead(0, depth: 0) { stack.append((0, 0, firstNext(0))) }
    while let top = stack.last {
      let child: Int
      if sequences.inOursOrder[top.node] {
        let oursItem = Int(plan.oursImage[top.node])
        guard top.next < Int(plan.ours.tree.items[oursItem].subtreeEnd) else {
          stack.removeLast()
          writeClose(top.node, depth: top.depth)
          continue
        }
        stack[stack.count - 1].next = Int(plan.ours.tree.items[top.next].subtreeEnd)
        child = plan.oursID(top.next)
      } else {
        let children = sequences.children[top.node] ?? []
        guard top.next < children.count else {
          stack.removeLast()
          writeClose(top.node, depth: top.depth)
          continue
        }
        stack[stack.count - 1].next += 1
        child = children[top.next]
      }
      let depth = top.depth + 1
      if child >= plan.placeStart {
        writeRecord(plan.placeRecords[child - plan.placeStart], depth: depth)
        continue
      }
      writeLead(child, depth: depth)
      if writeHead(child, depth: depth) { stack.append((child, depth, firstNext(child))) }
    }
    appendTrivia(
      oursBytes, TriviaSlots.epilog(plan.ours.tree, oursBytes), depth: nil, lastDepth: 0,
      adding: added.epilog,
      at: 0, lineAfter: false)
    return MergeResult(bytes: output, conflicts: conflicts)
  }

  /// Where the walk over `node`'s children starts (see ``write()``).
  private func firstNext(_ node: Int) -> Int {
    sequences.inOursOrder[node] ? Int(plan.oursImage[node]) + 1 : 0
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

  /// The conflict records of `node`, then the white space and comments before it: ours' (re-indented
  /// when its depth changed), then those theirs added there.
  private mutating func writeLead(_ node: Int, depth: Int) {
    for record in plan.records[node] ?? [] { writeRecord(record, depth: depth) }
    for record in sequences.records[node] ?? [] { writeRecord(record, depth: depth) }
    let theirsAdded = added.lead[node] ?? []
    let oursItem = Int(plan.oursImage[node])
    guard oursItem >= 0 else {
      appendAdded(theirsAdded, depth: depth)
      return newline(depth)
    }
    let keep = Int(plan.ours.tree.items[oursItem].depth) == depth
    appendTrivia(
      plan.ours.source.bytes, oursSlots.lead(oursItem, plan.ours.tree), depth: keep ? nil : depth,
      lastDepth: depth, adding: theirsAdded, at: depth, lineAfter: true)
  }

  /// Theirs' comments `ranges`, each on a line of its own at `depth`.
  private mutating func appendAdded(_ ranges: [Range<Int>], depth: Int) {
    for range in ranges {
      if !output.isEmpty { newline(depth) }
      output.append(contentsOf: plan.theirs.source.bytes[range])
    }
  }

  /// Ours' `bytes[range]` as ``appendTrivia(_:_:depth:lastDepth:)`` writes it, with theirs' comments
  /// `adding` after ours' last comment there, each on a line at `at`; `lineAfter`: what follows
  /// starts a line of its own.
  private mutating func appendTrivia(
    _ bytes: [UInt8], _ range: Range<Int>, depth: Int?, lastDepth: Int, adding: [Range<Int>], at: Int,
    lineAfter: Bool
  ) {
    guard !adding.isEmpty else { return appendTrivia(bytes, range, depth: depth, lastDepth: lastDepth) }
    let split = bytes[range].lastIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? range.lowerBound
    appendTrivia(bytes, range.lowerBound..<split, depth: depth, lastDepth: at)
    appendAdded(adding, depth: at)
    let tail = split..<range.upperBound
    if lineAfter && !bytes[tail].contains(0x0A) {
      newline(lastDepth)
    } else {
      appendTrivia(bytes, tail, depth: depth, lastDepth: lastDepth)
    }
  }

  /// Appends ours' `bytes[range]` (white space, comments, processing instructions) but the markup
  /// theirs removed, each with its line when nothing else stands on it; with `depth`, each line
  /// outside comments is indented for it (the last line for `lastDepth`).
  private mutating func appendTrivia(_ bytes: [UInt8], _ range: Range<Int>, depth: Int?, lastDepth: Int) {
    let dropped = added.dropped(in: range)
    guard !dropped.isEmpty else {
      return appendKept(bytes, range, depth: depth, lastDepth: lastDepth, lookahead: range.upperBound)
    }
    let start = output.count
    var from = range.lowerBound
    for markup in dropped {
      appendKept(
        bytes, from..<markup.lowerBound, depth: depth, lastDepth: lastDepth, lookahead: range.upperBound)
      var after = markup.upperBound
      while after < range.upperBound && (bytes[after] == 0x20 || bytes[after] == 0x09) { after += 1 }
      let aloneAfter = after == range.upperBound || bytes[after] == 0x0A || bytes[after] == 0x0D
      var end = output.count
      while end > start && (output[end - 1] == 0x20 || output[end - 1] == 0x09) { end -= 1 }
      let aloneBefore = end > start && output[end - 1] == 0x0A
      if aloneBefore && aloneAfter {
        // Its whole line goes: the line end before it and its indentation.
        end -= 1
        if end > start && output[end - 1] == 0x0D { end -= 1 }
        output.removeSubrange(end...)
        from = markup.upperBound
      } else if aloneAfter {
        output.removeSubrange(end...)
        from = markup.upperBound
      } else {
        from = aloneBefore ? after : markup.upperBound
      }
    }
    appendKept(
      bytes, from..<range.upperBound, depth: depth, lastDepth: lastDepth, lookahead: range.upperBound)
  }

  /// Appends `bytes[range]`; with `depth`, re-indented (a line is the last when nothing but white
  /// space stands after it before `lookahead`).
  private mutating func appendKept(
    _ bytes: [UInt8], _ range: Range<Int>, depth: Int?, lastDepth: Int, lookahead: Int
  ) {
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
          !bytes[at..<lookahead].contains(0x0A)
          && !bytes[at..<lookahead].contains(UInt8(ascii: "<"))
        let width = CanonicalLayout.indentWidth(depth: isLast ? lastDepth : depth)
        output.append(contentsOf: repeatElement(0x20, count: width))
      }
    }
  }

  /// Writes the start tag of `node`; true when its element stays open for children or comments (and
  /// an end tag written by ``writeClose(_:depth:)``).
  private mutating func writeHead(_ node: Int, depth: Int) -> Bool {
    let hasChildren = sequences.inOursOrder[node] || !(sequences.children[node] ?? []).isEmpty
    let open = hasChildren || trailingHoldsMarkup(node)
    if let rewritten = plan.rewritten[node] {
      writeCanonicalTag(node, name: rewritten.name, attributes: rewritten.attributes, open: open)
      return open
    }
    let oursItem = Int(plan.oursImage[node])
    let item = plan.ours.tree.items[oursItem]
    let bytes = plan.ours.source.bytes
    var tag = Array(bytes[item.startTag.start..<item.startTag.end])
    if let order = sequences.orders[node], let range = item.orderRange {
      let start = range.start - item.startTag.start
      tag.replaceSubrange(start..<(range.end - item.startTag.start), with: Array(order.utf8))
    }
    if item.endTag == nil && open {
      // `<a .../>` gets children: `<a ...>`.
      tag.removeLast(2)
      while let last = tag.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D {
        tag.removeLast()
      }
      tag.append(UInt8(ascii: ">"))
    } else if let end = item.endTag, !open {
      if oursSlots.lastChildEnd[oursItem] >= 0
        || bytes[item.startTag.end..<end.start].contains(UInt8(ascii: "<"))
      {
        // Its children (or the comments it held) all went: `<a .../>`, as fmt writes an element
        // without children.
        tag.removeLast()
        tag.append(contentsOf: Array("/>".utf8))
        output.append(contentsOf: tag)
        return false
      }
      output.append(contentsOf: tag)
      output.append(contentsOf: bytes[item.startTag.end..<end.end])
      return false
    }
    output.append(contentsOf: tag)
    return open
  }

  /// Whether comments or instructions to write stand after the last child of `node` (inside it
  /// when it has none): ours' or theirs'.
  private func trailingHoldsMarkup(_ node: Int) -> Bool {
    if added.trailing[node] != nil { return true }
    let oursItem = Int(plan.oursImage[node])
    guard oursItem >= 0, let range = oursSlots.trailing(oursItem, plan.ours.tree) else { return false }
    return added.holdsKeptMarkup(plan.ours.source.bytes, range)
  }

  /// Closes an element left open by ``writeHead(_:depth:)``: the markup after its last child (ours',
  /// then theirs' additions), then its end tag.
  private mutating func writeClose(_ node: Int, depth: Int) {
    let theirsAdded = added.trailing[node] ?? []
    let oursItem = Int(plan.oursImage[node])
    let item = oursItem >= 0 ? plan.ours.tree.items[oursItem] : nil
    let bytes = plan.ours.source.bytes
    if let item, let range = oursSlots.trailing(oursItem, plan.ours.tree),
      oursSlots.lastChildEnd[oursItem] >= 0 || bytes[range].contains(UInt8(ascii: "<"))
    {
      appendTrivia(
        bytes, range, depth: Int(item.depth) == depth ? nil : depth + 1, lastDepth: depth,
        adding: theirsAdded,
        at: depth + 1, lineAfter: true)
    } else {
      appendAdded(theirsAdded, depth: depth + 1)
      newline(depth)
    }
    if let rewritten = plan.rewritten[node] {
      output.append(contentsOf: Array("</\(rewritten.name)>".utf8))
    } else if let end = item?.endTag {
      output.append(contentsOf: bytes[end.start..<end.end])
    } else {
      output.append(contentsOf: Array("</\(plan.ours.elementName(of: oursItem))>".utf8))
    }
  }

  /// A start tag as `fmt` writes it: attributes in canonical order, values canonical and escaped.
  private mutating func writeCanonicalTag(
    _ node: Int, name: String, attributes: [MergedAttribute], open: Bool
  ) {
    var attributes = attributes
    let entity = self.entity(of: node)
    if let order = sequences.orders[node] {
      // The model's order attribute (`outline.order`), `order` without one.
      let name =
        entity.flatMap { entity in entity.orderAttribute.map { entity.attributes[$0].name } } ?? "order"
      attributes.append(MergedAttribute(name: name, value: order))
    }
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
