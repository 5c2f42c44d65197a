import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// Range formatting and on-type formatting: the canonical layout of
/// ``Formatter`` applied to some lines only. Each line the formatter writes
/// stands for a tag, a comment or a processing instruction of the source
/// (``Formatter/layout(_:model:)``); a line is formatted by replacing the
/// white space before its source and the source itself with that line. Text
/// between tags is never touched: a line with text before it is left alone.
/// One formatting pass, linear in the document.
public enum RangeFormatting {
  /// Edits giving the lines that overlap `range` their canonical layout
  /// (blank lines between them removed, as `outline fmt` removes them).
  public static func edits(formatting range: TextRange, in source: SourceText, model: Model?) -> [TextEdit] {
    let (text, lines) = Formatter.layout(source, model: model)
    let bytes = source.bytes
    // Whole lines: from the start of the range's first line to the end of its last.
    let first = source.lines.start(ofLine: source.lines.line(containing: range.start))
    var lastLine = source.lines.line(containing: range.end)
    if range.end > range.start && range.end == source.lines.start(ofLine: lastLine) { lastLine -= 1 }
    let last = source.lines.start(ofLine: lastLine + 1)
    let newline = lineBreak(bytes)
    let ending = LineEnds.first(in: bytes)
    var edits: [TextEdit] = []
    for (index, line) in lines.enumerated()
    where line.source.end > first && line.source.start < max(last, first + 1) {
      let gapStart = index > 0 ? lines[index - 1].source.end : declarationEnd(bytes)
      guard gapStart <= line.source.start, isBlank(bytes, gapStart..<line.source.start), !line.holdsText
      else { continue }
      let separator = gapStart == 0 ? "" : newline
      // A comment's or instruction's own line ends too are the document's.
      let replacement =
        separator + String(decoding: LineEnds.converting(Array(text[line.text]), to: ending), as: UTF8.self)
      if let edit = minimal(TextRange(start: gapStart, end: line.source.end), replacement, in: bytes) {
        edits.append(edit)
      }
      // After the last line: one line end.
      if index == lines.count - 1, line.source.end < bytes.count,
        isBlank(bytes, line.source.end..<bytes.count),
        let edit = minimal(TextRange(start: line.source.end, end: bytes.count), newline, in: bytes)
      {
        edits.append(edit)
      }
    }
    return edits
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
    var low = 0
    var high = lines.count
    while low < high {
      let middle = (low + high) / 2
      if lines[middle].source.end < offset { low = middle + 1 } else { high = middle }
    }
    guard low < lines.count, lines[low].source.end == offset else { return [] }
    let line = lines[low]
    var lineStart = line.source.start
    while lineStart > 0 && (bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09) { lineStart -= 1 }
    guard LineEnds.startsLine(bytes, at: lineStart) else { return [] }
    let replacement = String(
      decoding: LineEnds.converting(Array(text[line.text]), to: LineEnds.first(in: bytes)), as: UTF8.self)
    return minimal(TextRange(start: lineStart, end: line.source.end), replacement, in: bytes).map { [$0] }
      ?? []
  }

  /// Range formatting as ``edits(formatting:in:model:)`` gives it, from
  /// `tree` (the validator's tree of this text) in time that grows with the
  /// lines of the range and the depth, not with the document: the lines are
  /// the start tags of the items that start in the range, the end tags of
  /// those and of the items open where it begins, and the comments in it.
  /// Processing instructions are not in the tree: a line after one is left
  /// as it is. Without a tree, the formatting pass.
  public static func edits(formatting range: TextRange, in source: SourceText, model: Model?, tree: ItemTree?)
    -> [TextEdit]
  {
    guard let tree, !tree.items.isEmpty else { return edits(formatting: range, in: source, model: model) }
    let bytes = source.bytes
    let first = source.lines.start(ofLine: source.lines.line(containing: range.start))
    var lastLine = source.lines.line(containing: range.end)
    if range.end > range.start && range.end == source.lines.start(ofLine: lastLine) { lastLine -= 1 }
    let last = max(source.lines.start(ofLine: lastLine + 1), first + 1)
    func overlaps(_ unit: TextRange) -> Bool { unit.end > first && unit.start < last }
    /// Each line: the source it stands for and its text.
    var units: [(source: TextRange, text: [UInt8])] = []
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
      guard overlaps(unit) else { return }
      var line = indent(Int(item.depth))
      let entity = item.entity >= 0 ? model?.entities[Int(item.entity)] : nil
      TagScanner.withStartTag(in: bytes, range: item.startTag) { tag in
        Formatter.appendOpening(tag, isRoot: index == 0, entity: entity, to: &line)
      }
      let selfClosing = item.startTag.length >= 2 && bytes[item.startTag.end - 2] == UInt8(ascii: "/")
      line += Array((selfClosing || isCollapsed ? "/>" : ">").utf8)
      units.append((unit, line))
    }
    func addEnd(_ index: Int) {
      let item = tree.items[index]
      guard let endTag = item.endTag, !collapsed(index), overlaps(endTag) else { return }
      units.append(
        (
          endTag,
          indent(Int(item.depth)) + Array("</".utf8) + bytes[item.nameRange.start..<item.nameRange.end] + [62]
        ))
    }
    // The items open where the range begins, and those that start in it.
    let firstInside = lowerBound(tree.items.count) { tree.items[$0].startTag.start < first }
    var open: [Int] = []
    var ancestor = tree.item(at: first) ?? -1
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
    let ending = LineEnds.first(in: bytes)
    // Comments: their depth is one more than the item holding them.
    var comment = lowerBound(tree.comments.count) { tree.comments[$0].end <= first }
    while comment < tree.comments.count && tree.comments[comment].start < last {
      let range = tree.comments[comment]
      let holder = tree.item(at: range.start)
      let depth = holder.map { Int(tree.items[$0].depth) + 1 } ?? 0
      // Its line ends as the document's, as the formatter writes them (`\n`) in its own.
      units.append((range, indent(depth) + LineEnds.normalized(bytes[range.start..<range.end], to: ending)))
      comment += 1
    }
    units.sort { $0.source.start < $1.source.start }
    let newline = lineBreak(bytes)
    var edits: [TextEdit] = []
    let declaration = declarationEnd(bytes)
    for unit in units {
      // The white space before the unit, back to the `>` that ends what comes before it.
      var gapStart = unit.source.start
      while gapStart > declaration && isBlank(bytes, (gapStart - 1)..<gapStart) { gapStart -= 1 }
      guard gapStart == declaration || bytes[gapStart - 1] == UInt8(ascii: ">") else { continue }
      let separator = gapStart == 0 ? "" : newline
      if let edit = minimal(
        TextRange(start: gapStart, end: unit.source.end),
        separator + String(decoding: unit.text, as: UTF8.self),
        in: bytes)
      {
        edits.append(edit)
      }
    }
    // After the document's last line: one line end (nothing but white space follows it).
    if let lastUnit = units.last, lastUnit.source.end < bytes.count,
      isBlank(bytes, lastUnit.source.end..<bytes.count),
      let edit = minimal(TextRange(start: lastUnit.source.end, end: bytes.count), newline, in: bytes)
    {
      edits.append(edit)
    }
    return edits
  }

  /// The first index in `0..<count` where `before` is false (`before` holds for a prefix).
  static func lowerBound(_ count: Int, _ before: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if before(middle) { low = middle + 1 } else { high = middle }
    }
    return low
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
    guard let tree, let index = tree.item(at: offset - 1) else {
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
    let replacement = String(decoding: line, as: UTF8.self)
    return minimal(TextRange(start: lineStart, end: offset), replacement, in: bytes).map { [$0] } ?? []
  }

  /// The edit replacing `range` with `text`, trimmed to the bytes that
  /// differ (never inside a UTF-8 sequence); nil when nothing differs.
  static func minimal(_ range: TextRange, _ text: String, in bytes: [UInt8]) -> TextEdit? {
    let new = Array(text.utf8)
    let old = bytes[range.start..<range.end]
    if old.elementsEqual(new) { return nil }
    var prefix = 0
    while prefix < old.count && prefix < new.count && old[range.start + prefix] == new[prefix] { prefix += 1 }
    while prefix > 0 && prefix < new.count && new[prefix] & 0xC0 == 0x80 { prefix -= 1 }
    var suffix = 0
    while suffix < old.count - prefix && suffix < new.count - prefix
      && old[range.end - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    while suffix > 0 && new.count - suffix < new.count && new[new.count - suffix] & 0xC0 == 0x80 {
      suffix -= 1
    }
    return TextEdit(
      range: TextRange(start: range.start + prefix, end: range.end - suffix),
      newText: String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self))
  }

  /// Where the XML declaration ends (0 without one): the formatter writes its own.
  static func declarationEnd(_ bytes: [UInt8]) -> Int {
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    guard bytes[start...].starts(with: Array("<?xml".utf8)) else { return 0 }
    var index = start + 5
    while index + 1 < bytes.count
      && !(bytes[index] == UInt8(ascii: "?") && bytes[index + 1] == UInt8(ascii: ">"))
    {
      index += 1
    }
    return min(index + 2, bytes.count)
  }

  /// The document's line break: the one its first line ends with, else `\n`.
  static func lineBreak(_ bytes: [UInt8]) -> String {
    String(decoding: LineEnds.first(in: bytes), as: UTF8.self)
  }

  static func isBlank(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    bytes[range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
  }
}
