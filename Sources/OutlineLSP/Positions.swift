import OutlineCore
import OutlineJSON

/// LSP positions in the negotiated encoding (UTF-16 unless the client offers UTF-8).
struct PositionMapper {
  let unit: ColumnUnit

  func position(_ offset: Int, in source: SourceText) -> JSONValue {
    let position = source.position(of: offset, unit: unit)
    return ["line": .int(position.line), "character": .int(position.column)]
  }

  func range(_ range: TextRange, in source: SourceText) -> JSONValue {
    ["start": position(range.start, in: source), "end": position(range.end, in: source)]
  }

  /// The offset of an LSP position; nil when the params are not a position.
  func offset(_ value: JSONValue?, in source: SourceText) -> Int? {
    guard let line = value?["line"]?.intValue, let character = value?["character"]?.intValue, line >= 0,
      character >= 0
    else { return nil }
    return source.offset(of: SourcePosition(line: line, column: character), unit: unit)
  }

  func textRange(_ value: JSONValue?, in source: SourceText) -> TextRange? {
    guard let start = offset(value?["start"], in: source), let end = offset(value?["end"], in: source),
      start <= end
    else { return nil }
    return TextRange(start: start, end: end)
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

  func edit(_ edit: TextEdit, in source: SourceText) -> JSONValue {
    ["range": range(edit.range, in: source), "newText": .string(edit.newText)]
  }
}
