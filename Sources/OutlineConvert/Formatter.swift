import OutlineCore
import OutlineModel
import OutlineXML

/// The canonical layout of SPEC §6: the XML declaration, 2-space indent, one
/// object per line, attributes `xml:id` first then in model order, values
/// escaped as `&amp; &lt; &quot;`, comments and processing instructions kept
/// in place. Formatting is idempotent: `format(format(x)) == format(x)`.
///
/// Works from the parser's events in one pass with a stack of open names;
/// the caller formats only documents that parsed and hold no text content.
public final class Formatter: XMLEventHandler {
  private let source: SourceText
  private let model: Model?
  private var output: [UInt8] = []
  private var names: [ArraySlice<UInt8>] = []
  private var pendingOpen = false
  private var lastEntity: (name: [UInt8], index: Int)?
  /// For ``layout(_:model:)``: where each line written came from.
  private var origins: [FormattedLine]?

  /// The formatted text of `source`, whose attributes `model` orders (source order when nil).
  public static func format(_ source: SourceText, model: Model?) -> [UInt8] {
    let formatter = Formatter(source: source, model: model)
    XMLEventParser.parse(source.bytes, handler: formatter)
    if formatter.output.last != 0x0A { formatter.output.append(0x0A) }
    return formatter.output
  }

  /// The formatted text of `source` and, for each line after the XML
  /// declaration, the source bytes it stands for (what ``RangeFormatting``
  /// replaces). A document cut short by a syntax error gives the lines of
  /// what parsed, its last open start tag closed.
  public static func layout(_ source: SourceText, model: Model?) -> (text: [UInt8], lines: [FormattedLine]) {
    let formatter = Formatter(source: source, model: model)
    formatter.origins = []
    XMLEventParser.parse(source.bytes, handler: formatter)
    formatter.closePendingOpen()
    if formatter.output.last != 0x0A { formatter.output.append(0x0A) }
    var lines = formatter.origins ?? []
    for index in lines.indices {
      let end = index + 1 < lines.count ? lines[index + 1].text.lowerBound : formatter.output.count
      lines[index].text = lines[index].text.lowerBound..<(end - 1)
    }
    return (formatter.output, lines)
  }

  private func record(_ range: TextRange) {
    origins?.append(FormattedLine(source: range, text: output.count..<output.count))
  }

  private init(source: SourceText, model: Model?) {
    self.source = source
    self.model = model
    output.reserveCapacity(source.bytes.count + 64)
    output += Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
  }

  private func indent() {
    output.append(contentsOf: repeatElement(0x20, count: CanonicalLayout.indentWidth(depth: names.count)))
  }

  private func closePendingOpen() {
    if pendingOpen {
      output += Array(">\n".utf8)
      pendingOpen = false
    }
  }

  public func startElement(_ tag: StartTag) {
    closePendingOpen()
    record(tag.range)
    indent()
    let entity = entityIndex(tag).flatMap { index in model?.entities[index] }
    Self.appendOpening(tag, isRoot: names.isEmpty, entity: entity, to: &output)
    names.append(source.bytes[tag.nameRange.start..<tag.nameRange.end])
    pendingOpen = true
  }

  public func endElement(range: TextRange?) {
    guard let name = names.popLast() else { return }
    if pendingOpen {
      output += Array("/>\n".utf8)
      pendingOpen = false
      // `<a></a>` is written `<a/>`: the line stands for both tags.
      if let range, let last = origins?.indices.last { origins![last].source.end = range.end }
      return
    }
    if let range { record(range) }
    indent()
    output += Array("</".utf8)
    output += name
    output += Array(">\n".utf8)
  }

  public func comment(range: TextRange, content: UnsafeBufferPointer<UInt8>) { verbatim(range) }

  public func processingInstruction(range: TextRange) { verbatim(range) }

  private func verbatim(_ range: TextRange) {
    closePendingOpen()
    record(range)
    indent()
    output += source.bytes[range.start..<range.end]
    output.append(0x0A)
  }

  public func text(range: TextRange) {
    // Text right inside a start tag: its line would drop it (`<a>text</a>` written `<a/>`).
    if pendingOpen, let last = origins?.indices.last { origins![last].holdsText = true }
  }
  public func doctype(range: TextRange) {}
  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {}

  /// Appends `<name` and `tag`'s attributes in canonical order, values
  /// canonical and escaped (the caller closes it with `>` or `/>`).
  static func appendOpening(_ tag: StartTag, isRoot: Bool, entity: Entity?, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "<"))
    output += tag.name
    let attributeNames = (0..<tag.attributes.count).map { XMLName.string(tag.name(of: $0)) }
    for index in CanonicalLayout.attributeOrder(attributeNames, isRoot: isRoot, entity: entity) {
      output.append(0x20)
      output += tag.name(of: index)
      output += Array("=\"".utf8)
      let value = CanonicalLayout.value(tag.value(of: index), of: attributeNames[index], entity: entity)
      output += Array(XMLEscaping.escapeAttribute(value).utf8)
      output.append(UInt8(ascii: "\""))
    }
  }

  // MARK: Attribute order

  private func entityIndex(_ tag: StartTag) -> Int? {
    guard let model else { return nil }
    if names.isEmpty {
      if let index = tag.index(of: "entity") { return model.entity(named: tag.value(of: index)) }
      return model.defaultRootEntity
    }
    if let last = lastEntity, XMLName.equals(tag.name, last.name) { return last.index }
    guard let index = model.entity(named: XMLName.string(tag.name)) else { return nil }
    lastEntity = (Array(tag.name), index)
    return index
  }
}

/// One line of the canonical layout and the source bytes it stands for.
public struct FormattedLine: Sendable, Equatable {
  /// The tag, tags (`<a></a>` written `<a/>`), comment or processing instruction it was written from.
  public var source: TextRange
  /// The line in the formatted text, indentation included, without its `\n`.
  public var text: Range<Int>
  /// Whether text stands right after the start tag it was written from
  /// (the formatter leaves text out: range formatting leaves such a line alone).
  public var holdsText = false
}
