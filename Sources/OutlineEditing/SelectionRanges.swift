import OutlineCore
import OutlineSyntax

/// Selection range (expand selection): from what the cursor is on out to the
/// whole document, each range holding the one before it.
public enum SelectionRanges {
  /// The ranges around `offset`, innermost first: an attribute's value, the
  /// value with its quotes, the attribute, the element name, the start or end
  /// tag, the element, its parent ... the outermost element, the whole text.
  /// A comment or CDATA section under the cursor comes before its element.
  public static func ranges(at offset: Int, in source: SourceText, tree: MarkupTree) -> [TextRange] {
    var result: [TextRange] = []
    func add(_ range: TextRange) {
      if let last = result.last {
        guard range.contains(last), range != last else { return }
      }
      result.append(range)
    }
    let element = tree.element(at: offset)
    if let index = element {
      let item = tree.elements[index]
      if item.startTag.contains(offset) || offset == item.startTag.end && !isClosed(item.startTag, source) {
        tagParts(of: item, at: offset, source: source, add: add)
        add(item.startTag)
      } else if let endTag = item.endTag, endTag.contains(offset) {
        if let endName = item.endName, offset >= endName.start && offset <= endName.end { add(endName) }
        add(endTag)
      } else if let other = other(at: offset, in: tree, within: item.range) {
        add(other)
      }
    } else if let other = other(at: offset, in: tree, within: TextRange(start: 0, end: source.bytes.count)) {
      add(other)
    }
    var current = element ?? -1
    while current >= 0 {
      add(tree.elements[current].range)
      current = Int(tree.elements[current].parent)
    }
    add(TextRange(start: 0, end: source.bytes.count))
    return result
  }

  /// The name, value and attribute under `offset` in `element`'s start tag.
  private static func tagParts(
    of element: MarkupTree.Element, at offset: Int, source: SourceText, add: (TextRange) -> Void
  ) {
    if offset >= element.name.start && offset <= element.name.end {
      add(element.name)
      return
    }
    // Scan only this tag's bytes.
    var found: ScannedAttribute?
    MarkupScanner.scan(Array(source.bytes[element.startTag.start..<element.startTag.end])) { token in
      if case .startTag(let tag) = token {
        found = tag.attributes.first { attribute in
          let range = attribute.range
          return offset - element.startTag.start >= range.start
            && offset - element.startTag.start <= range.end
        }
      }
      return false
    }
    guard var attribute = found else { return }
    let shift = element.startTag.start
    attribute.name = TextRange(start: attribute.name.start + shift, end: attribute.name.end + shift)
    attribute.value = TextRange(start: attribute.value.start + shift, end: attribute.value.end + shift)
    attribute.quotedValue = TextRange(
      start: attribute.quotedValue.start + shift, end: attribute.quotedValue.end + shift)
    if offset >= attribute.value.start && offset <= attribute.value.end && attribute.quotedValue.length > 0 {
      add(attribute.value)
      add(attribute.quotedValue)
    } else if offset >= attribute.name.start && offset <= attribute.name.end {
      add(attribute.name)
    }
    add(attribute.range)
  }

  private static func isClosed(_ tag: TextRange, _ source: SourceText) -> Bool {
    tag.end > tag.start && source.bytes[tag.end - 1] == UInt8(ascii: ">")
  }

  /// The comment, CDATA section or processing instruction holding `offset` inside `within`.
  private static func other(at offset: Int, in tree: MarkupTree, within: TextRange) -> TextRange? {
    // `others` is sorted: binary search for the last one starting at or before the offset.
    let low = Partition.point(tree.others.count) { tree.others[$0].start <= offset }
    guard low > 0 else { return nil }
    let candidate = tree.others[low - 1]
    return candidate.contains(offset) && within.contains(candidate) ? candidate : nil
  }
}
