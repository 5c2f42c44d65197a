import OutlineConvert
import OutlineCore

/// `textDocument/formatting`: the canonical layout of `outline fmt`, as one
/// edit over the part that changes; nothing for a document that does not parse or
/// holds text the layout would drop (text inside an object, even with OL105 turned off).
struct FormattingFeature {
  let mapper: PositionMapper

  func format(_ snapshot: Snapshot) -> [LSP.TextEdit] {
    let analysis = snapshot.analysis
    guard analysis.parsed, !analysis.isJSONForm,
      !analysis.diagnostics.contains(where: { $0.code == .textInObject })
    else {
      return []
    }
    let old = snapshot.source.bytes
    var dropped: TextRange?
    var new = Formatter.format(snapshot.source, model: analysis.model, dropped: &dropped)
    if dropped != nil { return [] }
    // The document keeps its line ending (as range formatting does): the one its first line
    // ends with (CRLF, or a CR alone), where `outline fmt` writes LF.
    new = LineEnds.converting(new, to: LineEnds.first(in: old))
    if new == old { return [] }
    // Trim the common prefix and suffix: the edit covers only what changes.
    var prefix = 0
    while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
    // Never split a UTF-8 sequence.
    while prefix > 0 && prefix < old.count && old[prefix] & 0xC0 == 0x80 { prefix -= 1 }
    var suffix = 0
    while suffix < old.count - prefix && suffix < new.count - prefix
      && old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    while suffix > 0 && old.count - suffix < old.count && old[old.count - suffix] & 0xC0 == 0x80 {
      suffix -= 1
    }
    // Nor a CRLF pair: an edge between its two bytes is a position a client clamps to the
    // line's end, which would lose or double a line break.
    if prefix > 0 && prefix < old.count && old[prefix - 1] == 0x0D && old[prefix] == 0x0A { prefix -= 1 }
    let end = old.count - suffix
    if suffix > 0 && end > prefix && old[end - 1] == 0x0D && old[end] == 0x0A { suffix -= 1 }
    let edit = TextEdit(
      range: TextRange(start: prefix, end: old.count - suffix),
      newText: String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self))
    return [mapper.edit(edit, in: snapshot.source)]
  }
}
