import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// Range formatting and on-type formatting: the canonical layout of
/// ``Formatter`` applied to some lines only. Each line the formatter writes
/// stands for a tag, a comment or a processing instruction of the source
/// (``Formatter/layout(_:model:editingRoot:)``), or for the XML declaration; a
/// line is formatted by replacing the white space before its source and the
/// source itself with a line end and that line, so formatting every line gives
/// exactly the formatter's text, `outline fmt`'s: its declaration (the one the
/// source has, if any, and a byte order mark replaced), its line ends (`\n`,
/// whatever the document uses) and a line end after the last line. Text between
/// tags is never touched: a line with text before it, or right inside it, is
/// left alone. One formatting pass, linear in the document.
public enum RangeFormatting {
  /// A line of the canonical layout placed in the source.
  struct PlacedLine {
    /// The tag, tags, comment or processing instruction it stands for.
    var source: TextRange
    /// The line, indentation included, without its line end.
    var text: [UInt8]
    /// Where the white space before `source` starts (the end of the line before it, or of the
    /// XML declaration); nil when text stands before it or right inside it: it is left alone.
    var after: Int?
  }

  /// Edits giving the lines that overlap `range` their canonical layout
  /// (blank lines between them removed, as `outline fmt` removes them); the
  /// whole range gives `outline fmt`'s text. `editingRoot` changes the root's
  /// start tag as `fmt` does when it records the model version
  /// (``Formatter/format(_:model:dropped:editingRoot:)``).
  public static func edits(
    formatting range: TextRange, in source: SourceText, model: Model?,
    editingRoot: ((_ rootStartTag: [UInt8]) -> TextEdit?)? = nil
  ) -> [TextEdit] {
    let (text, lines) = Formatter.layout(source, model: model, editingRoot: editingRoot)
    let bytes = source.bytes
    let span = lineSpan(range, in: source)
    let prologue = prologueEnd(bytes)
    var placed: [PlacedLine] = []
    for (index, line) in lines.enumerated() where overlaps(line.source, span) {
      let before = index > 0 ? lines[index - 1].source.end : prologue
      let blank = !line.holdsText && before <= line.source.start && isBlank(bytes, before..<line.source.start)
      placed.append(
        PlacedLine(source: line.source, text: Array(text[line.text]), after: blank ? before : nil))
    }
    return edits(placing: placed, documentHasLines: !lines.isEmpty, span: span, bytes: bytes)
  }

  /// The edits formatting `lines` (those overlapping `span`, in order), the XML declaration
  /// when `span` reaches it, and the document's end after its last line.
  static func edits(placing lines: [PlacedLine], documentHasLines: Bool, span: Range<Int>, bytes: [UInt8])
    -> [TextEdit]
  {
    let prologue = prologueEnd(bytes)
    let declared = prologue > byteOrderMarkLength(bytes)
    // The declaration's line: the formatter writes its own first, without a byte order mark.
    let formatsDeclaration = documentHasLines && (span.lowerBound == 0 || prologue > span.lowerBound)
    var edits: [TextEdit] = []
    func replace(_ range: TextRange, with text: [UInt8]) {
      if let edit = TextEdit.trimmed(range, of: bytes, to: text) { edits.append(edit) }
    }
    if formatsDeclaration {
      replace(TextRange(start: 0, end: prologue), with: Array(Formatter.declaration.utf8))
    }
    for line in lines {
      guard let after = line.after else { continue }
      // The first line goes on the line after the declaration; with none (and none written), first.
      let lineEnd: [UInt8] = after == prologue && !declared && !formatsDeclaration ? [] : [0x0A]
      replace(TextRange(start: after, end: line.source.end), with: lineEnd + line.text)
    }
    // After the document's last line: one line end, as the formatter ends its text.
    if let last = lines.last, isBlank(bytes, last.source.end..<bytes.count) {
      replace(TextRange(start: last.source.end, end: bytes.count), with: [0x0A])
    }
    return TextEdit.merged(edits)
  }

  /// The bytes of the lines `range` touches, from the start of its first line to the end of its
  /// last (a range ending at a line's start leaves that line out); never empty.
  static func lineSpan(_ range: TextRange, in source: SourceText) -> Range<Int> {
    let first = source.lines.start(ofLine: source.lines.line(containing: range.start))
    var lastLine = source.lines.line(containing: range.end)
    if range.end > range.start && range.end == source.lines.start(ofLine: lastLine) { lastLine -= 1 }
    return first..<max(source.lines.start(ofLine: lastLine + 1), first + 1)
  }

  static func overlaps(_ unit: TextRange, _ span: Range<Int>) -> Bool {
    unit.end > span.lowerBound && unit.start < span.upperBound
  }

  /// On-type formatting after `>` typed just before `offset`: the tag,
  /// comment or processing instruction it ends gets its canonical text and
  /// indentation, when it begins its line; nothing otherwise. Blank lines
  /// before it stay.
  public static func edits(typedAt offset: Int, in source: SourceText, model: Model?) -> [TextEdit] {
    let bytes = source.bytes
    guard offset > 0, offset <= bytes.count, bytes[offset - 1] == UInt8(ascii: ">") else { return [] }
    let (text, lines) = Formatter.layout(source, model: model)
    // The lines are in source order: binary search for the one ending at the offset.
    let found = Partition.point(lines.count) { lines[$0].source.end < offset }
    guard found < lines.count, lines[found].source.end == offset else { return [] }
    let line = lines[found]
    var lineStart = line.source.start
    while lineStart > 0 && (bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09) { lineStart -= 1 }
    guard LineEnds.startsLine(bytes, at: lineStart) else { return [] }
    return TextEdit.trimmed(
      TextRange(start: lineStart, end: line.source.end), of: bytes, to: Array(text[line.text])
    )
    .map { [$0] } ?? []
  }

  /// Range formatting as ``edits(formatting:in:model:editingRoot:)`` gives it, from
  /// `tree` (the validator's tree of this text) in time that grows with the
  /// lines of the range and the depth, not with the document: the lines are
  /// the start tags of the items that start in the range, the end tags of
  /// those and of the items open where it begins, and the comments and
  /// processing instructions in it. Without a tree, the formatting pass.
  public static func edits(
    formatting range: TextRange, in source: SourceText, model: Model?, tree: ItemTree?,
    editingRoot: ((_ rootStartTag: [UInt8]) -> TextEdit?)? = nil
  ) -> [TextEdit] {
    guard let tree, !tree.items.isEmpty else {
      return edits(formatting: range, in: source, model: model, editingRoot: editingRoot)
    }
    let bytes = source.bytes
    let span = lineSpan(range, in: source)
    let first = span.lowerBound
    let last = span.upperBound
    /// Each line: the source it stands for, its text, and whether it is a start tag followed by text.
    var units: [(source: TextRange, text: [UInt8], startTag: Bool)] = []
    func indent(_ depth: Int) -> [UInt8] {
      [UInt8](repeating: 0x20, count: CanonicalLayout.indentWidth(depth: depth))
    }
    func collapsed(_ index: Int) -> Bool {
      let item = tree.items[index]
      guard let endTag = item.endTag, Int(item.subtreeEnd) == index + 1 else { return false }
      return isBlank(bytes, item.startTag.end..<endTag.start)
    }
    func addStart(_ index: Int) {
      let item = tree.items[index]
      let isCollapsed = collapsed(index)
      let unit = isCollapsed ? item.fullRange : item.startTag
      guard overlaps(unit, span) else { return }
      var line = indent(Int(item.depth))
      let entity = item.entity >= 0 ? model?.entities[Int(item.entity)] : nil
      var tag = Array(bytes[item.startTag.start..<item.startTag.end])
      if index == 0, let edit = editingRoot?(tag), edit.range.start > 0, edit.range.start <= edit.range.end,
        edit.range.end < tag.count
      {
        tag.replaceSubrange(edit.range.start..<edit.range.end, with: Array(edit.newText.utf8))
      }
      TagScanner.withStartTag(in: tag, range: TextRange(start: 0, end: tag.count)) { tag in
        Formatter.appendOpening(tag, isRoot: index == 0, entity: entity, to: &line)
      }
      let selfClosing = item.startTag.length >= 2 && bytes[item.startTag.end - 2] == UInt8(ascii: "/")
      line += Array((selfClosing || isCollapsed ? "/>" : ">").utf8)
      units.append((unit, line, !selfClosing && !isCollapsed))
    }
    func addEnd(_ index: Int) {
      let item = tree.items[index]
      guard let endTag = item.endTag, !collapsed(index), overlaps(endTag, span) else { return }
      let line =
        indent(Int(item.depth)) + Array("</".utf8) + bytes[item.nameRange.start..<item.nameRange.end] + [62]
      units.append((endTag, line, false))
    }
    // The items open where the range begins, and those that start in it.
    let firstInside = Partition.point(tree.items.count) { tree.items[$0].startTag.start < first }
    var open: [Int] = []
    var ancestor = item(at: first, in: tree) ?? -1
    if ancestor >= 0, tree.items[ancestor].startTag.start >= first {
      ancestor = Int(tree.items[ancestor].parent)
    }
    while ancestor >= 0 {
      open.append(ancestor)
      ancestor = Int(tree.items[ancestor].parent)
    }
    for index in open { addStart(index) }  // a start tag that runs into the range
    var index = firstInside
    while index < tree.items.count && tree.items[index].startTag.start < last {
      addStart(index)
      addEnd(index)
      index += 1
    }
    for index in open { addEnd(index) }
    // Comments and processing instructions: their depth is one more than the item holding them.
    for markup in [tree.comments, tree.instructions] {
      var next = Partition.point(markup.count) { markup[$0].end <= first }
      while next < markup.count && markup[next].start < last {
        let range = markup[next]
        let depth = item(at: range.start, in: tree).map { Int(tree.items[$0].depth) + 1 } ?? 0
        // Its own line ends `\n`, as the formatter writes them (XML reads every line end as one).
        units.append((range, indent(depth) + LineEnds.normalized(bytes[range.start..<range.end]), false))
        next += 1
      }
    }
    units.sort { $0.source.start < $1.source.start }
    let prologue = prologueEnd(bytes)
    // A character reference between tags (`&#32;`) is a line of the layout the tree does not
    // hold: the formatting pass places it, as `fmt` does.
    if units.contains(where: {
      followsReference($0.source.start, bytes, floor: prologue)
        || nextIsReference(after: $0.source.end, bytes)
    }) {
      return edits(formatting: range, in: source, model: model, editingRoot: editingRoot)
    }
    let placed = units.map { unit in
      // The white space before the unit, back to the end of the line before it.
      var after = unit.source.start
      while after > prologue && isBlank(bytes, (after - 1)..<after) { after -= 1 }
      let placed = after == prologue || endsLine(at: after, tree: tree, bytes: bytes)
      return PlacedLine(
        source: unit.source, text: unit.text,
        after: placed && !(unit.startTag && holdsText(after: unit.source.end, bytes)) ? after : nil)
    }
    return edits(placing: placed, documentHasLines: true, span: span, bytes: bytes)
  }

  /// Whether a line of the layout (a tag, a comment or a processing instruction) ends at `offset`.
  static func endsLine(at offset: Int, tree: ItemTree, bytes: [UInt8]) -> Bool {
    guard offset > 0, bytes[offset - 1] == UInt8(ascii: ">") else { return false }
    if let holder = item(at: offset - 1, in: tree),
      tree.items[holder].startTag.end == offset || tree.items[holder].endTag?.end == offset
    {
      return true
    }
    for markup in [tree.comments, tree.instructions] {
      let found = Partition.point(markup.count) { markup[$0].end < offset }
      if found < markup.count && markup[found].end == offset { return true }
    }
    return false
  }

  /// Whether what stands before `offset`, white space passed over, may end a character
  /// reference (`;`, as text ending so does too: the formatting pass tells them apart).
  static func followsReference(_ offset: Int, _ bytes: [UInt8], floor: Int) -> Bool {
    var at = offset
    while at > floor && isBlank(bytes, (at - 1)..<at) { at -= 1 }
    return at > floor && bytes[at - 1] == UInt8(ascii: ";")
  }

  /// Whether a reference (or other text starting with `&`) stands after `offset`, white space
  /// passed over.
  static func nextIsReference(after offset: Int, _ bytes: [UInt8]) -> Bool {
    var next = offset
    while next < bytes.count && isBlank(bytes, next..<(next + 1)) { next += 1 }
    return next < bytes.count && bytes[next] == UInt8(ascii: "&")
  }

  /// Whether text (or a CDATA section) stands right after the start tag ending at `offset`: its
  /// line is left alone, as the formatting pass leaves it.
  static func holdsText(after offset: Int, _ bytes: [UInt8]) -> Bool {
    var next = offset
    while next < bytes.count && isBlank(bytes, next..<(next + 1)) { next += 1 }
    guard next < bytes.count else { return false }
    return bytes[next] != UInt8(ascii: "<") || bytes[next...].starts(with: Array("<![CDATA[".utf8))
  }

  /// The innermost item whose element holds `offset`, in logarithmic time and the item's
  /// depth: the last item starting at or before it, or the nearest of its ancestors that holds it.
  static func item(at offset: Int, in tree: ItemTree) -> Int? {
    var item = Partition.point(tree.items.count) { tree.items[$0].startTag.start <= offset } - 1
    while item >= 0 && !tree.items[item].fullRange.contains(offset) { item = Int(tree.items[item].parent) }
    return item >= 0 ? item : nil
  }

  /// On-type formatting as ``edits(typedAt:in:model:)`` gives it, found
  /// from `tree` (the validator's tree of this text) when the `>` ends an
  /// item's start or end tag: the tag alone is rendered, in time that does
  /// not grow with the document (the editor asks at every `>`). Anything
  /// else (a comment, an element written `<a></a>`, a tag the tree does not
  /// hold) takes the formatting pass.
  public static func edits(typedAt offset: Int, in source: SourceText, model: Model?, tree: ItemTree?)
    -> [TextEdit]
  {
    let bytes = source.bytes
    guard offset > 0, offset <= bytes.count, bytes[offset - 1] == UInt8(ascii: ">") else { return [] }
    guard let tree, let index = item(at: offset - 1, in: tree) else {
      return edits(typedAt: offset, in: source, model: model)
    }
    let item = tree.items[index]
    let isStart = item.startTag.end == offset
    guard isStart || item.endTag?.end == offset else {
      return edits(typedAt: offset, in: source, model: model)
    }
    let selfClosing = item.startTag.length >= 2 && bytes[item.startTag.end - 2] == UInt8(ascii: "/")
    if let endTag = item.endTag, Int(item.subtreeEnd) == index + 1,
      isBlank(bytes, item.startTag.end..<endTag.start)
    {
      // `<a></a>` is one line, `<a/>`: the formatting pass knows.
      return edits(typedAt: offset, in: source, model: model)
    }
    let tagStart = isStart ? item.startTag.start : item.endTag!.start
    var lineStart = tagStart
    while lineStart > 0 && (bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09) { lineStart -= 1 }
    guard LineEnds.startsLine(bytes, at: lineStart) else { return [] }
    var line = [UInt8](repeating: 0x20, count: CanonicalLayout.indentWidth(depth: Int(item.depth)))
    if isStart {
      let entity = item.entity >= 0 ? model?.entities[Int(item.entity)] : nil
      TagScanner.withStartTag(in: bytes, range: item.startTag) { tag in
        Formatter.appendOpening(tag, isRoot: index == 0, entity: entity, to: &line)
      }
      line += Array((selfClosing ? "/>" : ">").utf8)
    } else {
      line += Array("</".utf8) + bytes[item.nameRange.start..<item.nameRange.end] + [UInt8(ascii: ">")]
    }
    return TextEdit.trimmed(TextRange(start: lineStart, end: offset), of: bytes, to: line).map { [$0] } ?? []
  }

  /// The length of the UTF-8 byte order mark `bytes` starts with: 3, or 0 without one.
  static func byteOrderMarkLength(_ bytes: [UInt8]) -> Int {
    bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
  }

  /// Where the byte order mark and the XML declaration end (0 without either): the formatter
  /// writes its own declaration, and no byte order mark. `<?xml-stylesheet ...?>` is a
  /// processing instruction, not a declaration.
  static func prologueEnd(_ bytes: [UInt8]) -> Int {
    let start = byteOrderMarkLength(bytes)
    guard bytes[start...].starts(with: Array("<?xml".utf8)), start + 5 < bytes.count,
      XMLName.isSpace(bytes[start + 5])
    else { return start }
    var index = start + 6
    while index + 1 < bytes.count
      && !(bytes[index] == UInt8(ascii: "?") && bytes[index + 1] == UInt8(ascii: ">"))
    {
      index += 1
    }
    // An unterminated declaration stops the parse: no line follows it.
    return index + 1 < bytes.count ? index + 2 : start
  }

  static func isBlank(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    bytes[range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
  }
}
