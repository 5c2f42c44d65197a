import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineXML

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
  ///
  /// `resume` lets a range skip the text before it: the offset of a start
  /// tag at or before the range that the parser reported (so no markup is
  /// open there), and the root element's name, which is then not read.
  public static func tokens(
    in source: SourceText, model: Model?, rootEntity: Int?, range: TextRange? = nil,
    resume: (offset: Int, rootName: TextRange)? = nil
  ) -> [Token] {
    let bytes = source.bytes
    let limit = range ?? TextRange(start: 0, end: bytes.count)
    var tokens: [Token] = []
    func emit(_ whole: TextRange, _ type: TokenType, _ modifiers: UInt32 = 0) {
      guard whole.end > whole.start, whole.end > limit.start, whole.start < limit.end else { return }
      // One token per line: cut at each line end (`\n`, `\r\n`, a lone `\r`), leaving it out.
      var start = whole.start
      var index = whole.start
      while index <= whole.end {
        let lineEnd = index == whole.end ? 0 : LineEnds.length(bytes, at: index)
        if index == whole.end || lineEnd > 0 {
          let end = index
          if end > start && end > limit.start && start < limit.end {
            tokens.append(Token(range: TextRange(start: start, end: end), type: type, modifiers: modifiers))
          }
          index += max(lineEnd, 1)
          start = index
        } else {
          index += 1
        }
      }
    }
    // Names are looked up once each, by their bytes: no string is made per tag.
    var rootName: ArraySlice<UInt8>? = resume.map { bytes[$0.rootName.start..<$0.rootName.end] }
    var entities: [ArraySlice<UInt8>: Int?] = [:]
    var classes = AttributeClasses(model: model, source: source)
    func lookUp(_ name: ArraySlice<UInt8>) -> Int? {
      if let known = entities[name] { return known }
      let found = model?.entity(named: String(decoding: name, as: UTF8.self))
      entities[name] = found
      return found
    }
    let start = resume.map { $0.offset <= limit.start ? $0.offset : 0 } ?? 0
    MarkupScanner.scan(bytes, from: start, upTo: limit.end) { token in
      switch token {
      case .startTag(let tag):
        let name = bytes[tag.name.start..<tag.name.end]
        let entity: Int?
        let isRoot = rootName == nil
        if isRoot {
          entity = rootEntity
          rootName = name
        } else {
          entity = lookUp(name)
        }
        emit(tag.name, entity != nil || model == nil ? .type : .unknownElement)
        // Skip the attributes of tags that end before the range.
        guard tag.range.end > limit.start else { return true }
        for attribute in tag.attributes {
          classes.emit(attribute, entity: entity, isRoot: isRoot, emit: emit)
        }
      case .endTag(_, let range):
        // Colored as its start tag is.
        let name = bytes[range.start..<range.end]
        let known = model == nil || name == rootName || lookUp(name) != nil
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

/// How each attribute name is colored, per entity: worked out the first
/// time a name is met on an entity, then found by its bytes.
private struct AttributeClasses {
  /// What stands in an attribute's value.
  enum ValueKind {
    case string, number, enumerated, ids, idDeclaration
  }

  /// The name's token and what its value is.
  struct Class {
    var type: SemanticTokens.TokenType
    var modifiers: UInt32
    var value: ValueKind
  }

  let model: Model?
  let source: SourceText
  private var known: [Int: [ArraySlice<UInt8>: Class]] = [:]

  init(model: Model?, source: SourceText) {
    self.model = model
    self.source = source
  }

  /// Emits the tokens of `attribute` of an element of `entity`.
  mutating func emit(
    _ attribute: ScannedAttribute, entity: Int?, isRoot: Bool = false,
    emit: (TextRange, SemanticTokens.TokenType, UInt32) -> Void
  ) {
    let name = source.bytes[attribute.name.start..<attribute.name.end]
    // The root's own cache: its format attributes are no properties of its entity.
    let key = isRoot ? -2 : entity ?? -1
    let found: Class
    if let cached = known[key]?[name] {
      found = cached
    } else {
      found = Self.classify(
        String(decoding: name, as: UTF8.self), entity: entity, isRoot: isRoot, model: model)
      known[key, default: [:]][name] = found
    }
    emit(attribute.name, found.type, found.modifiers)
    switch found.value {
    case .string: emit(attribute.quotedValue, .string, 0)
    case .number: emit(attribute.value, .number, 0)
    case .enumerated: emit(attribute.value, .enumMember, 0)
    case .idDeclaration: emit(attribute.value, .variable, SemanticTokens.TokenModifier.declaration.bit)
    case .ids:
      // Each id of the list.
      let bytes = source.bytes
      var start = attribute.value.start
      while start < attribute.value.end {
        while start < attribute.value.end && XMLName.isSpace(bytes[start]) { start += 1 }
        var end = start
        while end < attribute.value.end && !XMLName.isSpace(bytes[end]) { end += 1 }
        emit(TextRange(start: start, end: end), .variable, 0)
        start = end
      }
    }
  }

  static func classify(_ name: String, entity: Int?, isRoot: Bool = false, model: Model?) -> Class {
    if name == "xml:id" { return Class(type: .namespace, modifiers: 0, value: .idDeclaration) }
    if isRoot && RootFormat.isAttribute(name) { return Class(type: .property, modifiers: 0, value: .string) }
    if name == "xmlns" || name.hasPrefix("xmlns:") || name.hasPrefix("xml:") {
      return Class(type: .namespace, modifiers: 0, value: .string)
    }
    guard let model, let entity else { return Class(type: .property, modifiers: 0, value: .string) }
    let definition = model.entities[entity]
    if let index = definition.attributeIndex[name] {
      let declared = definition.attributes[index]
      let readonly =
        declared.isDerived || declared.isTransient ? SemanticTokens.TokenModifier.readonly.bit : 0
      if declared.type?.isNumeric == true {
        return Class(type: .property, modifiers: readonly, value: .number)
      }
      if declared.type == .boolean || !ValueCompletion.alternatives(of: declared.regularExpression).isEmpty {
        return Class(type: .property, modifiers: readonly, value: .enumerated)
      }
      return Class(type: .property, modifiers: readonly, value: .string)
    }
    if definition.relationshipIndex[name] != nil {
      return Class(type: .property, modifiers: SemanticTokens.TokenModifier.modification.bit, value: .ids)
    }
    return Class(type: .property, modifiers: 0, value: .string)
  }
}
