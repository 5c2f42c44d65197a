import OutlineCore
import OutlineJSON

/// LSP positions in the negotiated encoding (UTF-16 unless the client offers UTF-8).
struct PositionMapper {
  let unit: ColumnUnit

  func position(_ offset: Int, in source: SourceText) -> LSP.Position {
    let position = source.position(of: offset, unit: unit)
    return LSP.Position(line: position.line, character: position.column)
  }

  func range(_ range: TextRange, in source: SourceText) -> LSP.Range {
    LSP.Range(start: position(range.start, in: source), end: position(range.end, in: source))
  }

  /// The offset of an LSP position; nil when it is negative.
  func offset(_ position: LSP.Position, in source: SourceText) -> Int? {
    guard position.line >= 0, position.character >= 0 else { return nil }
    return source.offset(of: SourcePosition(line: position.line, column: position.character), unit: unit)
  }

  /// The offsets of an LSP range; nil when a position is negative or the end comes first.
  func textRange(_ range: LSP.Range, in source: SourceText) -> TextRange? {
    guard let start = offset(range.start, in: source), let end = offset(range.end, in: source), start <= end
    else { return nil }
    return TextRange(start: start, end: end)
  }

  /// The offsets a `didChange` range names, never refused (as `vscode-languageserver-textdocument`
  /// reads them): a range whose end comes before its start stands for the range between the two
  /// positions (`reversed`); then each position is clamped into the text: a character past its
  /// line's end to the line's end, a line past the last to the text's end, a negative line to the
  /// text's start and a negative character to its line's start.
  func changeRange(_ range: LSP.Range, in source: SourceText) -> (range: TextRange, reversed: Bool) {
    let reversed =
      range.end.line < range.start.line
      || (range.end.line == range.start.line && range.end.character < range.start.character)
    let (first, last) = reversed ? (range.end, range.start) : (range.start, range.end)
    func clamped(_ position: LSP.Position) -> Int {
      guard position.line >= 0 else { return 0 }
      return source.offset(
        of: SourcePosition(line: position.line, column: max(0, position.character)), unit: unit)
    }
    let start = clamped(first)
    return (TextRange(start: start, end: max(start, clamped(last))), reversed)
  }

  /// Appends `{"start":{...},"end":{...}}` without building values;
  /// `lineHint` is a line the range starts on or after. Returns the start line.
  @discardableResult
  func append(_ range: TextRange, in source: SourceText, lineHint: Int = 0, to json: inout JSONBytes) -> Int {
    let (start, end) = source.positions(of: range, unit: unit, lineHint: lineHint)
    json.raw("{\"start\":{\"line\":")
    json.int(start.line)
    json.raw(",\"character\":")
    json.int(start.column)
    json.raw("},\"end\":{\"line\":")
    json.int(end.line)
    json.raw(",\"character\":")
    json.int(end.column)
    json.raw("}}")
    return start.line
  }

  func edit(_ edit: TextEdit, in source: SourceText) -> LSP.TextEdit {
    LSP.TextEdit(range: range(edit.range, in: source), newText: edit.newText)
  }
}
