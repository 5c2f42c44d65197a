import JSONRPC
import OutlineCore
import OutlineEditing
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineWorkspace
import OutlineXML

/// `textDocument/completion`: entity names valid at the cursor (a new object
/// comes with its required attributes and the next free order, as the seed's
/// `insertItemWithTitle:parent:` computes it), attribute names not yet
/// present, the closing tag after `</`, and attribute values: Booleans,
/// values a pattern enumerates, the root's entity, ids for relationships.
struct CompletionFeature {
  let mapper: PositionMapper
  /// Whether the client takes snippets (`completionItem.snippetSupport`); a client that does
  /// not gets the same text without its `$1` tab stops, as plain text.
  var snippets = true

  /// Where the cursor stands, read from the text before it.
  enum Context: Equatable {
    case elementName(prefixStart: Int)
    case attributeName(tagStart: Int, prefixStart: Int)
    case attributeValue(tagStart: Int, attribute: String, valueStart: Int)
    case content
  }

  static func context(at offset: Int, in bytes: [UInt8]) -> Context {
    var index = offset
    while index > 0 {
      index -= 1
      if bytes[index] == UInt8(ascii: ">") { return .content }
      if bytes[index] == UInt8(ascii: "<") { break }
      if index == 0 { return .content }
    }
    guard offset > 0, bytes[index] == UInt8(ascii: "<") else { return .content }
    let tagStart = index
    var cursor = tagStart + 1
    if cursor < bytes.count
      && [UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "?")].contains(bytes[cursor])
    {
      return .content
    }
    while cursor < offset && !XMLName.isSpace(bytes[cursor]) { cursor += 1 }
    if cursor >= offset { return .elementName(prefixStart: tagStart + 1) }
    // Walk the attributes typed so far.
    while cursor < offset {
      while cursor < offset && XMLName.isSpace(bytes[cursor]) { cursor += 1 }
      let nameStart = cursor
      while cursor < offset && bytes[cursor] != UInt8(ascii: "=") && !XMLName.isSpace(bytes[cursor]) {
        cursor += 1
      }
      if cursor >= offset { return .attributeName(tagStart: tagStart, prefixStart: nameStart) }
      let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
      while cursor < offset && bytes[cursor] != UInt8(ascii: "\"") && bytes[cursor] != UInt8(ascii: "'") {
        cursor += 1
      }
      if cursor >= offset { return .attributeName(tagStart: tagStart, prefixStart: offset) }
      let quote = bytes[cursor]
      cursor += 1
      let valueStart = cursor
      while cursor < offset && bytes[cursor] != quote { cursor += 1 }
      if cursor >= offset {
        return .attributeValue(tagStart: tagStart, attribute: name, valueStart: valueStart)
      }
      cursor += 1
    }
    return .attributeName(tagStart: tagStart, prefixStart: offset)
  }

  /// The items at the cursor, each label and detail cut to ``ReplyLimits/labelCharacters``
  /// (what an item inserts and is filtered by stays whole).
  func complete(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws -> LSP.CompletionList {
    var list = try items(snapshot, params)
    list.items = list.items.map(Self.bounded)
    return list
  }

  /// `item` with its label and detail cut to labels; a cut label leaves the whole text to
  /// insert and to filter by.
  static func bounded(_ item: LSP.CompletionItem) -> LSP.CompletionItem {
    var item = item
    if item.label.utf8.count > ReplyLimits.labelCharacters {
      if item.textEdit == nil && item.insertText == nil { item.insertText = item.label }
      if item.filterText == nil { item.filterText = item.label }
      item.label = ReplyLimits.label(item.label)
    }
    item.detail = item.detail.map(ReplyLimits.label)
    return item
  }

  private func items(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws
    -> LSP.CompletionList
  {
    guard let offset = mapper.offset(params.position, in: snapshot.source) else {
      throw ResponseError.invalidParams("position is not a position")
    }
    // Inside a comment, a CDATA section, a processing instruction or a declaration, `<` and
    // `</` are text: nothing there is an element or an attribute.
    let analysis = snapshot.analysis
    if Self.isInsideUnparsedSection(offset, in: snapshot.source.bytes, tree: analysis.tree) {
      return LSP.CompletionList(isIncomplete: false, items: [])
    }
    // After `</`: the end tag of the innermost open element, read from the
    // text itself (the document rarely parses while it is being typed).
    if let closing = ClosingTagCompletion.candidate(at: offset, in: snapshot.source) {
      let item = LSP.CompletionItem(
        label: closing.newText, kind: .property, detail: "closes <\(closing.name)>",
        insertTextFormat: .plainText, filterText: "</" + closing.name,
        textEdit: LSP.TextEdit(
          range: mapper.range(closing.range, in: snapshot.source), newText: closing.newText))
      return LSP.CompletionList(isIncomplete: false, items: [item])
    }
    // `/` triggers completion for `</` only: after `<a/` or in text, nothing.
    if offset > 0 && snapshot.source.bytes[offset - 1] == UInt8(ascii: "/") {
      return LSP.CompletionList(isIncomplete: false, items: [])
    }
    guard let model = analysis.model, let tree = analysis.tree else {
      return LSP.CompletionList(isIncomplete: false, items: [])
    }
    let source = snapshot.source
    let context = Self.context(at: offset, in: source.bytes)
    var items: [LSP.CompletionItem] = []
    switch context {
    case .content, .elementName:
      let parent = Self.enclosingItem(offset, tree: tree, source: source)
      let withBracket: Bool
      if case .elementName = context { withBracket = false } else { withBracket = true }
      items = entityItems(
        parent: parent, tree: tree, model: model, rootEntity: analysis.rootEntity, withBracket: withBracket)
    case .attributeName(let tagStart, _):
      guard
        let entity = entity(ofTagAt: tagStart, source: source, model: model, tree: tree, analysis: analysis)
      else { break }
      var present = Set(Self.attributeNames(from: tagStart, to: offset, in: source.bytes))
      // The root cannot write a property named like one of its format attributes.
      if tree.items.first?.startTag.start == tagStart { present.formUnion(RootFormat.attributeNames) }
      let definition = model.entities[entity]
      // Right after a value's closing quote an attribute needs a space before it.
      let previous = offset > 0 ? source.bytes[offset - 1] : 0
      let space = previous == UInt8(ascii: "\"") || previous == UInt8(ascii: "'") ? " " : ""
      if !present.contains("xml:id") {
        items.append(item("xml:id", detail: "the object's id", insert: space + "xml:id=\"$1\"", kind: .field))
      }
      for attribute in definition.attributes where !present.contains(attribute.name) {
        items.append(
          item(
            attribute.name, detail: attribute.typeName, insert: space + "\(attribute.name)=\"$1\"",
            kind: .field))
      }
      for relationship in definition.relationships
      where !present.contains(relationship.name) && !relationship.isContainment {
        if let destination = relationship.destination, let inverse = relationship.inverse,
          model.entities[destination].relationships[inverse].isContainment
        {
          continue  // implied by nesting
        }
        items.append(
          item(
            relationship.name, detail: relationship.isToMany ? "ids" : "id",
            insert: space + "\(relationship.name)=\"$1\"", kind: .reference))
      }
    case .attributeValue(let tagStart, let name, let valueStart):
      // The values the model enumerates, and ids of the right entity (``ValueCompletion``).
      let isRoot = tree.items.first?.startTag.start == tagStart
      let entity = entity(ofTagAt: tagStart, source: source, model: model, tree: tree, analysis: analysis)
      let written = source.string(in: TextRange(start: valueStart, end: offset))
      for candidate in ValueCompletion.candidates(
        attribute: name, entity: entity, isRoot: isRoot, written: written, model: model, tree: tree,
        source: source)
      {
        let kind: LSP.CompletionItemKind
        switch candidate.kind {
        case .boolean: kind = .value
        case .enumerated: kind = .enumMember
        case .entity: kind = .class
        case .id: kind = .reference
        }
        // Written into an attribute value: escaped as the document must hold it (`R&D` as
        // `R&amp;D`), and filtered as it will stand there.
        let inserted = XMLEscaping.escapeAttribute(candidate.value)
        items.append(
          LSP.CompletionItem(
            label: candidate.value, kind: kind, detail: candidate.detail, insertText: inserted,
            insertTextFormat: .plainText, filterText: inserted == candidate.value ? nil : inserted))
      }
    }
    return LSP.CompletionList(isIncomplete: false, items: items)
  }

  /// Whether the cursor at `offset` stands inside a comment, CDATA section, processing
  /// instruction or declaration: after its `<`, and before its end, or at the end of one
  /// that is not terminated (the text ends inside it). The text is scanned from the last
  /// item of `tree` starting before the cursor (no markup is open at an item's `<`).
  static func isInsideUnparsedSection(_ offset: Int, in bytes: [UInt8], tree: ItemTree?) -> Bool {
    var from = 0
    if let items = tree?.items {
      let before = Partition.point(items.count) { items[$0].startTag.start < offset }
      if before > 0 { from = items[before - 1].startTag.start }
    }
    var inside = false
    MarkupScanner.scan(bytes, from: from, upTo: offset) { token in
      switch token {
      case .comment(let section), .cdata(let section), .processingInstruction(let section),
        .declaration(let section):
        guard section.start < offset, offset <= section.end else { return true }
        inside = offset < section.end || !isTerminated(bytes[section.start..<section.end])
        return false
      case .startTag, .endTag, .text:
        return true
      }
    }
    return inside
  }

  /// Whether a comment, CDATA section, processing instruction or declaration ends with its terminator.
  private static func isTerminated(_ section: ArraySlice<UInt8>) -> Bool {
    for (opening, closing) in [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>")]
    where section.starts(with: opening.utf8) {
      return section.count >= opening.utf8.count + closing.utf8.count
        && section.reversed().starts(with: closing.utf8.reversed())
    }
    return section.last == UInt8(ascii: ">")
  }

  /// An item inserting `snippet` (text with `$1`, `$2`... tab stops, nothing else to escape:
  /// model names hold no `$`, `}` or `\\`), as plain text without them for a client that takes
  /// no snippets.
  private func item(_ label: String, detail: String, insert snippet: String, kind: LSP.CompletionItemKind)
    -> LSP.CompletionItem
  {
    guard !snippets else {
      return LSP.CompletionItem(
        label: label, kind: kind, detail: detail, insertText: snippet, insertTextFormat: .snippet)
    }
    var plain = ""
    var scalars = snippet.unicodeScalars.makeIterator()
    var pending = scalars.next()
    while let scalar = pending {
      pending = scalars.next()
      guard scalar == "$" else {
        plain.unicodeScalars.append(scalar)
        continue
      }
      while let digit = pending, ("0"..."9").contains(digit) { pending = scalars.next() }
    }
    return LSP.CompletionItem(
      label: label, kind: kind, detail: detail, insertText: plain, insertTextFormat: .plainText)
  }

  /// New objects valid under `parent`, each with its required attributes and next free order.
  private func entityItems(parent: Int?, tree: ItemTree, model: Model, rootEntity: Int?, withBracket: Bool)
    -> [LSP.CompletionItem]
  {
    guard let parent else { return [] }
    let parentEntity =
      parent == 0 ? rootEntity : (tree.items[parent].entity >= 0 ? Int(tree.items[parent].entity) : nil)
    var items: [LSP.CompletionItem] = []
    for (index, entity) in model.entities.enumerated() where !entity.isAbstract {
      var relationship: Int?
      if let parentEntity, case .relationship(let found) = model.containment(of: parentEntity, holding: index)
      {
        relationship = found
      } else if parent != 0 {
        continue  // only the root holds free objects
      }
      var attributes: [String] = []
      var placeholder = 1
      if let order = entity.orderAttribute, relationship != nil,
        !(parentEntity.map { model.entities[$0].relationships[relationship!].isOrdered } ?? false)
      {
        // As the seed's insertItemWithTitle:parent: numbers a new child: after the last one.
        let siblings = tree.children(of: parent).filter { Int(tree.items[$0].relationship) == relationship! }
        attributes.append("\(entity.attributes[order].name)=\"\(siblings.count)\"")
      }
      if let title = entity.titleAttribute {
        attributes.insert("\(entity.attributes[title].name)=\"$\(placeholder)\"", at: 0)
        placeholder += 1
      }
      for (position, attribute) in entity.attributes.enumerated()
      where attribute.isRequired && position != entity.titleAttribute && position != entity.orderAttribute {
        attributes.append("\(attribute.name)=\"$\(placeholder)\"")
        placeholder += 1
      }
      let body = ([entity.name] + attributes).joined(separator: " ") + "/>"
      items.append(
        item(
          entity.name, detail: relationship == nil ? "free object" : "new child",
          insert: (withBracket ? "<" : "") + body, kind: .class))
    }
    return items
  }

  /// The deepest open element whose content holds `offset` (in a document
  /// cut short by a syntax error too).
  static func enclosingItem(_ offset: Int, tree: ItemTree, source: SourceText) -> Int? {
    var best: Int?
    for (index, item) in tree.items.enumerated() where item.startTag.end <= offset {
      let selfClosing = item.startTag.length >= 2 && source.bytes[item.startTag.end - 2] == UInt8(ascii: "/")
      if selfClosing { continue }
      if let end = item.endTag, end.start < offset { continue }
      if best == nil || tree.items[best!].depth < item.depth { best = index }
    }
    return best
  }

  private func entity(
    ofTagAt tagStart: Int, source: SourceText, model: Model, tree: ItemTree, analysis: DocumentCheck
  ) -> Int? {
    var end = tagStart + 1
    while end < source.bytes.count && !XMLName.isSpace(source.bytes[end])
      && source.bytes[end] != UInt8(ascii: ">")
      && source.bytes[end] != UInt8(ascii: "/")
    {
      end += 1
    }
    let name = source.string(in: TextRange(start: tagStart + 1, end: end))
    if name == "outline" { return analysis.rootEntity }
    return model.entity(named: name)
  }

  static func attributeNames(from tagStart: Int, to offset: Int, in bytes: [UInt8]) -> [String] {
    var names: [String] = []
    var cursor = tagStart + 1
    var end = offset
    while end < bytes.count && bytes[end] != UInt8(ascii: ">") && bytes[end] != UInt8(ascii: "<") { end += 1 }
    while cursor < end && !XMLName.isSpace(bytes[cursor]) { cursor += 1 }
    while cursor < end {
      while cursor < end && XMLName.isSpace(bytes[cursor]) { cursor += 1 }
      let start = cursor
      while cursor < end && bytes[cursor] != UInt8(ascii: "=") && !XMLName.isSpace(bytes[cursor]) {
        cursor += 1
      }
      if cursor > start { names.append(String(decoding: bytes[start..<cursor], as: UTF8.self)) }
      while cursor < end && bytes[cursor] != UInt8(ascii: "\"") && bytes[cursor] != UInt8(ascii: "'") {
        cursor += 1
      }
      guard cursor < end else { break }
      let quote = bytes[cursor]
      cursor += 1
      while cursor < end && bytes[cursor] != quote { cursor += 1 }
      cursor += 1
    }
    return names
  }
}
