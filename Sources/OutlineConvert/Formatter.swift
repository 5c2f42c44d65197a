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
  @exclusivity(unchecked) private var output: [UInt8] = []
  @exclusivity(unchecked) private var names: [ArraySlice<UInt8>] = []
  @exclusivity(unchecked) private var pendingOpen = false
  /// The entity last found by name, tried first for the next element.
  @exclusivity(unchecked) private var lastEntity = -1

  /// The formatted text of `source`, whose attributes `model` orders (source order when nil).
  public static func format(_ source: SourceText, model: Model?) -> [UInt8] {
    let formatter = Formatter(source: source, model: model)
    XMLEventParser.parse(source.bytes, handler: formatter)
    if formatter.output.last != 0x0A { formatter.output.append(0x0A) }
    return formatter.output
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
    indent()
    output.append(UInt8(ascii: "<"))
    output += tag.name
    let entity = entityIndex(tag).flatMap { index in model?.entities[index] }
    let attributeNames = (0..<tag.attributes.count).map { XMLName.string(tag.name(of: $0)) }
    for index in CanonicalLayout.attributeOrder(attributeNames, isRoot: names.isEmpty, entity: entity) {
      output.append(0x20)
      output += tag.name(of: index)
      output += Array("=\"".utf8)
      let value = CanonicalLayout.value(tag.value(of: index), of: attributeNames[index], entity: entity)
      output += Array(XMLEscaping.escapeAttribute(value).utf8)
      output.append(UInt8(ascii: "\""))
    }
    names.append(source.bytes[tag.nameRange.start..<tag.nameRange.end])
    pendingOpen = true
  }

  public func endElement(range: TextRange?) {
    guard let name = names.popLast() else { return }
    if pendingOpen {
      output += Array("/>\n".utf8)
      pendingOpen = false
      return
    }
    indent()
    output += Array("</".utf8)
    output += name
    output += Array(">\n".utf8)
  }

  public func comment(range: TextRange, content: UnsafeBufferPointer<UInt8>) { verbatim(range) }

  public func processingInstruction(range: TextRange) { verbatim(range) }

  private func verbatim(_ range: TextRange) {
    closePendingOpen()
    indent()
    output += source.bytes[range.start..<range.end]
    output.append(0x0A)
  }

  public func text(range: TextRange) {}
  public func doctype(range: TextRange) {}
  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {}

  // MARK: Attribute order

  private func entityIndex(_ tag: StartTag) -> Int? {
    guard let model else { return nil }
    if names.isEmpty {
      if let index = tag.index(of: "entity") { return model.entity(named: tag.value(of: index)) }
      return model.defaultRootEntity
    }
    return model.index.entity(named: tag.name, hint: &lastEntity)
  }
}
