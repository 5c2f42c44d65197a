import OutlineCore
import OutlineModel

/// Semantic tokens: element names, attribute names and values colored by
/// what the model says they are, ids, comments and processing instructions.
/// Read by ``MarkupScanner``, so a document that does not parse is colored
/// too; a token never spans lines (the protocol's default), so a multi-line
/// comment or value is cut at each line end (`\r\n` left out).
public enum SemanticTokens {
  /// The token types, in the legend's order.
  public enum TokenType: Int, CaseIterable, Sendable {
    /// An element name the model knows (an entity, or the root).
    case type
    /// An element name the model does not know.
    case unknownElement
    /// An attribute or relationship name.
    case property
    /// `xmlns`, `xml:*` and other names outside the model.
    case namespace
    /// A string value, quotes included.
    case string
    /// A numeric value.
    case number
    /// A Boolean value or a value the model enumerates.
    case enumMember
    /// An id: defined by `xml:id` or named by a relationship.
    case variable
    /// A comment.
    case comment
    /// A processing instruction or the XML declaration.
    case macro
    /// A `<!DOCTYPE` or other declaration, and CDATA markup.
    case keyword

    /// The name in the legend (LSP's standard names where one fits).
    public var name: String {
      switch self {
      case .type: "type"
      case .unknownElement: "class"
      case .property: "property"
      case .namespace: "namespace"
      case .string: "string"
      case .number: "number"
      case .enumMember: "enumMember"
      case .variable: "variable"
      case .comment: "comment"
      case .macro: "macro"
      case .keyword: "keyword"
      }
    }
  }

  /// The token modifiers, as bits in the legend's order.
  public enum TokenModifier: Int, CaseIterable, Sendable {
    /// An `xml:id` value: where the id is declared.
    case declaration
    /// A derived or transient attribute: Core Data computes or drops it.
    case readonly
    /// A relationship name.
    case modification

    /// The name in the legend.
    public var name: String {
      switch self {
      case .declaration: "declaration"
      case .readonly: "readonly"
      case .modification: "modification"
      }
    }

    /// The modifier's bit.
    public var bit: UInt32 { 1 << UInt32(rawValue) }
  }

  /// One token on one line.
  public struct Token: Sendable, Equatable {
    /// The bytes, on one line.
    public var range: TextRange
    /// Its type.
    public var type: TokenType
    /// Its modifiers, as bits.
    public var modifiers: UInt32
  }

  /// The tokens of `source` that overlap `range` (the whole text when nil),
  /// in order. The root element's entity is `rootEntity`.
  public static func tokens(
    in source: SourceText, model: Model?, rootEntity: Int?, range: TextRange? = nil
  ) -> [Token] {
    let bytes = source.bytes
    let limit = range ?? TextRange(start: 0, end: bytes.count)
    var tokens: [Token] = []
    func emit(_ whole: TextRange, _ type: TokenType, _ modifiers: UInt32 = 0) {
      guard whole.end > whole.start, whole.end > limit.start, whole.start < limit.end else { return }
      // One token per line: cut at `\n`, leaving `\r\n` out.
      var start = whole.start
      var index = whole.start
      while index <= whole.end {
        if index == whole.end || bytes[index] == 0x0A {
          var end = index
          if end > start && bytes[end - 1] == 0x0D { end -= 1 }
          if end > start && end > limit.start && start < limit.end {
            tokens.append(Token(range: TextRange(start: start, end: end), type: type, modifiers: modifiers))
          }
          start = index + 1
        }
        index += 1
      }
    }
    var rootName: String?
    MarkupScanner.scan(bytes, upTo: limit.end) { token in
      switch token {
      case .startTag(let tag):
        let name = source.string(in: tag.name)
        let entity: Int?
        if rootName == nil {
          entity = rootEntity
          rootName = name
        } else {
          entity = model?.entity(named: name)
        }
        emit(tag.name, entity != nil || model == nil ? .type : .unknownElement)
        // Skip the attributes of tags that end before the range.
        guard tag.range.end > limit.start else { return true }
        for attribute in tag.attributes {
          classify(attribute, entity: entity, model: model, source: source, emit: emit)
        }
      case .endTag(_, let range):
        // Colored as its start tag is.
        let name = source.string(in: range)
        let known = model == nil || name == rootName || model?.entity(named: name) != nil
        emit(range, known ? .type : .unknownElement)
      case .comment(let range):
        emit(range, .comment)
      case .processingInstruction(let range):
        emit(range, .macro)
      case .declaration(let range):
        emit(range, .keyword)
      case .cdata(let range):
        emit(TextRange(start: range.start, end: min(range.start + 9, range.end)), .keyword)
        if range.end - range.start >= 12 && source.bytes[range.end - 3] == UInt8(ascii: "]") {
          emit(TextRange(start: range.end - 3, end: range.end), .keyword)
        }
      case .text:
        break
      }
      return true
    }
    return tokens
  }

  private static func classify(
    _ attribute: ScannedAttribute, entity: Int?, model: Model?, source: SourceText,
    emit: (TextRange, TokenType, UInt32) -> Void
  ) {
    let name = source.string(in: attribute.name)
    if name == "xml:id" {
      emit(attribute.name, .namespace, 0)
      emit(attribute.value, .variable, TokenModifier.declaration.bit)
      return
    }
    if name == "xmlns" || name.hasPrefix("xmlns:") || name.hasPrefix("xml:") {
      emit(attribute.name, .namespace, 0)
      emit(attribute.quotedValue, .string, 0)
      return
    }
    guard let model, let entity else {
      emit(attribute.name, .property, 0)
      emit(attribute.quotedValue, .string, 0)
      return
    }
    let definition = model.entities[entity]
    if let index = definition.attributeIndex[name] {
      let declared = definition.attributes[index]
      let readonly = declared.isDerived || declared.isTransient ? TokenModifier.readonly.bit : 0
      emit(attribute.name, .property, readonly)
      if declared.type?.isNumeric == true {
        emit(attribute.value, .number, 0)
      } else if declared.type == .boolean
        || !ValueCompletion.alternatives(of: declared.regularExpression).isEmpty
      {
        emit(attribute.value, .enumMember, 0)
      } else {
        emit(attribute.quotedValue, .string, 0)
      }
    } else if definition.relationshipIndex[name] != nil {
      emit(attribute.name, .property, TokenModifier.modification.bit)
      // Each id of the list.
      var start = attribute.value.start
      let bytes = source.bytes
      while start < attribute.value.end {
        while start < attribute.value.end && MarkupScanner.isSpace(bytes[start]) { start += 1 }
        var end = start
        while end < attribute.value.end && !MarkupScanner.isSpace(bytes[end]) { end += 1 }
        emit(TextRange(start: start, end: end), .variable, 0)
        start = end
      }
    } else {
      emit(attribute.name, .property, 0)
      emit(attribute.quotedValue, .string, 0)
    }
  }

  /// The protocol's encoding: five numbers a token (line delta, start
  /// column delta, length, type, modifiers), columns in `unit`. One pass.
  public static func encode(_ tokens: [Token], in source: SourceText, unit: ColumnUnit) -> [UInt32] {
    var data: [UInt32] = []
    data.reserveCapacity(tokens.count * 5)
    var previousLine = 0
    var previousColumn = 0
    for token in tokens {
      let (start, end) = source.positions(of: token.range, unit: unit, lineHint: previousLine)
      let lineDelta = start.line - previousLine
      let columnDelta = lineDelta == 0 ? start.column - previousColumn : start.column
      data += [
        UInt32(lineDelta), UInt32(columnDelta), UInt32(end.column - start.column),
        UInt32(token.type.rawValue),
        token.modifiers,
      ]
      previousLine = start.line
      previousColumn = start.column
    }
    return data
  }
}
