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
  private var model: Model?
  /// Where the model comes from when the formatter hears a validator's
  /// parse: asked once, at the root's start tag, after the validator chose it.
  private var modelSource: (() -> Model?)?
  @exclusivity(unchecked) private var output: [UInt8] = []
  @exclusivity(unchecked) private var names: [ArraySlice<UInt8>] = []
  @exclusivity(unchecked) private var pendingOpen = false
  /// The entity last found by name, tried first for the next element.
  @exclusivity(unchecked) private var lastEntity = -1
  /// Attribute layouts by the tag's attribute names, entity and rootness:
  /// the order to write them in and which are integers. Most tags of a
  /// document repeat a few name lists, so each is worked out once.
  @exclusivity(unchecked) private var layouts: [LayoutKey: [(index: Int, isInteger: Bool)]] = [:]
  @exclusivity(unchecked) private var keyBytes: [UInt8] = []
  private static let layoutsKept = 1024
  /// For ``layout(_:model:)``: where each line written came from.
  private var origins: [FormattedLine]?

  private struct LayoutKey: Hashable {
    var names: [UInt8]
    var entity: Int
    var isRoot: Bool
  }

  /// The formatted text of `source`, whose attributes `model` orders (source order when nil).
  public static func format(_ source: SourceText, model: Model?) -> [UInt8] {
    let formatter = Formatter(source: source, model: model)
    XMLEventParser.parse(source.bytes, handler: formatter)
    if formatter.output.last != 0x0A { formatter.output.append(0x0A) }
    return formatter.output
  }

  /// A formatter that hears the events of a parse made for something else
  /// (``OutlineWorkspace/DocumentCheck``'s, beside the validator), so a
  /// document is parsed once; `model` is asked at the root's start tag.
  /// ``finish()`` gives the formatted text.
  public static func alongside(_ source: SourceText, model: @escaping () -> Model?) -> Formatter {
    let formatter = Formatter(source: source, model: nil)
    formatter.modelSource = model
    return formatter
  }

  /// The formatted text of the events heard so far (the whole document once its parse ended).
  public func finish() -> [UInt8] {
    if output.last != 0x0A { output.append(0x0A) }
    return output
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
    if let modelSource {
      model = modelSource()
      self.modelSource = nil
    }
    closePendingOpen()
    record(tag.range)
    indent()
    let entityIndex = entityIndex(tag)
    let entity = entityIndex.flatMap { index in model?.entities[index] }
    Self.appendOpening(
      tag, layout: layout(tag, entityIndex: entityIndex, entity: entity), entity: entity, to: &output)
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
    appendOpening(
      tag, layout: attributeLayout(tag, isRoot: isRoot, entity: entity), entity: entity, to: &output)
  }

  /// Appends `<name` and `tag`'s attributes in the order of `layout`.
  private static func appendOpening(
    _ tag: StartTag, layout: [(index: Int, isInteger: Bool)], entity: Entity?, to output: inout [UInt8]
  ) {
    output.append(UInt8(ascii: "<"))
    output += tag.name
    for (index, isInteger) in layout {
      output.append(0x20)
      output += tag.name(of: index)
      output += Array("=\"".utf8)
      if isInteger {
        let name = XMLName.string(tag.name(of: index))
        let value = CanonicalLayout.value(tag.value(of: index), of: name, entity: entity)
        output += Array(XMLEscaping.escapeAttribute(value).utf8)
      } else {
        XMLEscaping.appendCanonicalAttribute(tag.rawValue(of: index), to: &output)
      }
      output.append(UInt8(ascii: "\""))
    }
  }

  // MARK: Attribute order

  /// The tag's attributes in canonical order, each with whether the entity
  /// types it as an integer (whose value fmt writes canonically).
  private static func attributeLayout(_ tag: StartTag, isRoot: Bool, entity: Entity?) -> [(
    index: Int, isInteger: Bool
  )] {
    let attributeNames = (0..<tag.attributes.count).map { XMLName.string(tag.name(of: $0)) }
    return CanonicalLayout.attributeOrder(attributeNames, isRoot: isRoot, entity: entity).map { index in
      let attribute = entity?.attributeIndex[attributeNames[index]].map { entity!.attributes[$0] }
      return (index, attribute?.type?.isInteger == true)
    }
  }

  /// ``attributeLayout(_:isRoot:entity:)``, worked out once per name list.
  private func layout(_ tag: StartTag, entityIndex: Int?, entity: Entity?) -> [(index: Int, isInteger: Bool)]
  {
    keyBytes.removeAll(keepingCapacity: true)
    for index in 0..<tag.attributes.count {
      keyBytes += tag.name(of: index)
      keyBytes.append(0)
    }
    let key = LayoutKey(names: keyBytes, entity: entityIndex ?? -1, isRoot: names.isEmpty)
    if let known = layouts[key] { return known }
    let layout = Self.attributeLayout(tag, isRoot: names.isEmpty, entity: entity)
    if layouts.count < Self.layoutsKept { layouts[key] = layout }
    return layout
  }

  private func entityIndex(_ tag: StartTag) -> Int? {
    guard let model else { return nil }
    if names.isEmpty {
      if let index = tag.index(of: "entity") { return model.entity(named: tag.value(of: index)) }
      return model.defaultRootEntity
    }
    return model.index.entity(named: tag.name, hint: &lastEntity)
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
