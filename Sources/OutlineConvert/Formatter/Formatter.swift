import OutlineCore
import OutlineModel
import OutlineXML

/// The canonical layout of SPEC §6: the XML declaration, 2-space indent, one
/// object per line, attributes `xml:id` first then in model order, values
/// escaped as `&amp; &lt; &quot;`, comments, processing instructions and character
/// references to white space between tags kept in place, their line ends written `\n` as
/// every line's. Formatting is
/// idempotent: `format(format(x)) == format(x)`.
///
/// Works from the parser's events in one pass with a stack of open names,
/// reading nothing but the events (so it can follow a document streamed
/// from disk); the caller formats only documents that parsed and hold no
/// text content.
public final class Formatter: XMLEventHandler {
  private var model: Model?
  /// Where the model comes from when the formatter hears a validator's
  /// parse: asked once, at the root's start tag, after the validator chose it.
  private var modelSource: (() -> Model?)?
  @exclusivity(unchecked) private var output = ByteOutput(capacity: 1 << 16)
  /// Where streamed output goes, in blocks of about ``blockBytes`` (nil: all of it is kept).
  private let sink: ((UnsafeBufferPointer<UInt8>) -> Void)?
  /// Bytes handed to `sink` so far: `output[0]` is byte `flushed` of the formatted text.
  @exclusivity(unchecked) public private(set) var flushed = 0
  /// The open elements' names, one after the other, and where each ends.
  @exclusivity(unchecked) private var nameBytes: [UInt8] = []
  @exclusivity(unchecked) private var nameEnds: [Int] = []
  @exclusivity(unchecked) private var pendingOpen = false
  /// The entity last found by name, tried first for the next element.
  @exclusivity(unchecked) private var lastEntity = -1
  /// The element name last looked up, and the entity it named (nil: none).
  @exclusivity(unchecked) private var lastName: [UInt8] = []
  @exclusivity(unchecked) private var lastNamed: Int?
  /// Attribute layouts by the tag's attribute names, entity and rootness:
  /// the order to write them in and which are integers. Most tags of a
  /// document repeat a few name lists, so each is worked out once; the last
  /// ones used are tried first.
  @exclusivity(unchecked) private var layouts: [Layout] = []
  @exclusivity(unchecked) private var byKey: [LayoutKey: Int] = [:]
  @exclusivity(unchecked) private var recent: [Int] = []
  @exclusivity(unchecked) private var keyBytes: [UInt8] = []
  private static let layoutsKept = 1024
  private static let recentKept = 8
  /// Streamed output is handed over in blocks of this size.
  public static let blockBytes = 1 << 18
  /// For ``layout(_:model:)``: where each line written came from.
  private var origins: [FormattedLine]?
  /// The root's start tag as read (for ``rootOpening(editedBy:)``) and its entity.
  private var rootTag: (bytes: [UInt8], entity: Entity?)?
  /// Where the root's `<name attributes` stands in the formatted text (without `>` or `/>`).
  public private(set) var rootOpening: Range<Int>?
  /// The first text the formatted output leaves out, whatever the rules say of it: text inside
  /// an object (OL105) or a DOCTYPE (OL104). The output is then not the document's whole
  /// content, and nothing may write it over the document.
  public private(set) var dropped: TextRange?

  private struct LayoutKey: Hashable {
    var names: [UInt8]
    var entity: Int
    var isRoot: Bool
  }

  private struct Layout {
    var names: [UInt8]
    var entity: Int
    var isRoot: Bool
    var order: [(index: Int, isInteger: Bool)]
  }

  /// The XML declaration the formatted text starts with, on a line of its own (whatever the
  /// source declares, and with no byte order mark).
  public static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"

  /// The formatted text of `source`, whose attributes `model` orders (source order when nil).
  public static func format(_ source: SourceText, model: Model?) -> [UInt8] {
    var dropped: TextRange?
    return format(source, model: model, dropped: &dropped)
  }

  /// The formatted text of `source`; `dropped` is the first text it leaves out (``dropped``),
  /// when some: a writer must not put that text in the document's place. `editingRoot`, given
  /// the root's start tag as read, says how to change it before it is laid out (`fmt`
  /// recording the model version: ``rootOpening(editedBy:)``); nil changes nothing.
  public static func format(
    _ source: SourceText, model: Model?, dropped: inout TextRange?,
    editingRoot: ((_ rootStartTag: [UInt8]) -> TextEdit?)? = nil
  ) -> [UInt8] {
    let formatter = Formatter(model: model, sink: nil)
    XMLEventParser.parse(source.bytes, handler: formatter)
    formatter.endWithNewline()
    dropped = formatter.dropped
    var text = Array(formatter.output.buffer)
    if let (range, opening) = formatter.editedRoot(editingRoot) { text.replaceSubrange(range, with: opening) }
    return text
  }

  /// Where the root's canonical opening stands in the output and what it becomes once
  /// `editingRoot` changed its start tag; nil when nothing changes. Only for output kept whole.
  private func editedRoot(_ editingRoot: ((_ rootStartTag: [UInt8]) -> TextEdit?)?) -> (Range<Int>, [UInt8])?
  {
    guard sink == nil, let editingRoot, let root = rootStartTag, let range = rootOpening,
      let edit = editingRoot(root), let opening = rootOpening(editedBy: edit)
    else { return nil }
    return (range, opening)
  }

  /// A formatter that hears the events of a parse made for something else
  /// (``OutlineWorkspace/DocumentCheck``'s, beside the validator), so a
  /// document is parsed once; `model` is asked at the root's start tag. The
  /// formatted text goes to `sink` in blocks as it is made (the last at
  /// ``finish()``), each lent as a view, so memory does not grow with the document.
  public static func streaming(
    model: @escaping () -> Model?, sink: @escaping (ByteView) -> Void
  ) -> Formatter {
    let formatter = Formatter(model: nil, sink: { sink(ByteView($0)) })
    formatter.modelSource = model
    return formatter
  }

  /// Hands over the rest of the formatted text of the events heard (the whole document once its parse ended).
  public func finish() {
    endWithNewline()
    flush()
  }

  /// The formatted text of `source` and, for each line after the XML
  /// declaration, the source bytes it stands for (what ``RangeFormatting``
  /// replaces). A document cut short by a syntax error gives the lines of
  /// what parsed, its last open start tag closed.
  /// `editingRoot` changes the root's start tag as in ``format(_:model:dropped:editingRoot:)``.
  public static func layout(
    _ source: SourceText, model: Model?, editingRoot: ((_ rootStartTag: [UInt8]) -> TextEdit?)? = nil
  ) -> (text: [UInt8], lines: [FormattedLine]) {
    let formatter = Formatter(model: model, sink: nil)
    formatter.origins = []
    XMLEventParser.parse(source.bytes, handler: formatter)
    formatter.closePendingOpen()
    formatter.endWithNewline()
    var text = Array(formatter.output.buffer)
    var lines = formatter.origins ?? []
    if let (range, opening) = formatter.editedRoot(editingRoot) {
      text.replaceSubrange(range, with: opening)
      let delta = opening.count - range.count
      for index in lines.indices where lines[index].text.lowerBound > range.lowerBound {
        lines[index].text = (lines[index].text.lowerBound + delta)..<(lines[index].text.upperBound + delta)
      }
    }
    for index in lines.indices {
      let end = index + 1 < lines.count ? lines[index + 1].text.lowerBound : text.count
      lines[index].text = lines[index].text.lowerBound..<(end - 1)
    }
    return (text, lines)
  }

  /// The root's start tag as it was read (`<` to `>`), once seen.
  public var rootStartTag: [UInt8]? { rootTag?.bytes }

  /// The root's canonical `<name attributes` (what ``rootOpening`` covers) once `edit`, a
  /// change of ``rootStartTag`` (offsets in it), is made to it; nil without a root.
  public func rootOpening(editedBy edit: TextEdit) -> [UInt8]? {
    guard let rootTag, edit.range.start > 0, edit.range.start <= edit.range.end,
      edit.range.end < rootTag.bytes.count
    else { return nil }
    let bytes = rootTag.bytes
    let edited =
      Array(bytes[..<edit.range.start]) + Array(edit.newText.utf8) + Array(bytes[edit.range.end...])
    var opening: [UInt8] = []
    TagScanner.withStartTag(in: edited, range: TextRange(start: 0, end: edited.count)) { tag in
      Self.appendOpening(tag, isRoot: true, entity: rootTag.entity, to: &opening)
    }
    return opening
  }

  private func record(_ range: TextRange) {
    origins?.append(FormattedLine(source: range, text: output.count..<output.count))
  }

  private init(model: Model?, sink: ((UnsafeBufferPointer<UInt8>) -> Void)?) {
    self.model = model
    self.sink = sink
    output.reserve(sink == nil ? 1 << 16 : Self.blockBytes + (1 << 16))
    output.append(Array(Self.declaration.utf8))
    output.append(0x0A)
  }

  deinit { output.free() }

  /// Hands the output made so far to the sink, when there is one.
  private func flush() {
    guard let sink, !output.isEmpty else { return }
    sink(output.buffer)
    flushed += output.count
    output.removeAll()
  }

  /// Ends the text with a line break unless it ends with one.
  private func endWithNewline() {
    if output.last != 0x0A && !(output.isEmpty && flushed > 0) { output.append(0x0A) }
  }

  private func indent() {
    output.appendSpaces(CanonicalLayout.indentWidth(depth: nameEnds.count))
  }

  private func closePendingOpen() {
    if pendingOpen {
      output.append(">\n")
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
    let isRoot = nameEnds.isEmpty
    let opening = flushed + output.count
    appendOpening(tag, layout: layout(tag, entityIndex: entityIndex), entityIndex: entityIndex)
    if isRoot && rootTag == nil {
      rootTag = (Array(tag.unsafeBytes), entityIndex.flatMap { model?.entities[$0] })
      rootOpening = opening..<(flushed + output.count)
    }
    nameBytes.append(contentsOf: tag.name)
    nameEnds.append(nameBytes.count)
    if output.count >= Self.blockBytes { flush() }
    pendingOpen = true
  }

  public func endElement(range: TextRange?) {
    guard let nameEnd = nameEnds.popLast() else { return }
    let nameStart = nameEnds.last ?? 0
    defer {
      nameBytes.removeLast(nameEnd - nameStart)
      if output.count >= Self.blockBytes { flush() }
    }
    if pendingOpen {
      output.append("/>\n")
      pendingOpen = false
      // `<a></a>` is written `<a/>`: the line stands for both tags.
      if let range, let last = origins?.indices.last { origins![last].source.end = range.end }
      return
    }
    if let range { record(range) }
    indent()
    output.append("</")
    nameBytes.withUnsafeBufferPointer {
      output.append(UnsafeBufferPointer(rebasing: $0[nameStart..<nameEnd]))
    }
    output.append(">\n")
  }

  public func comment(range: TextRange, content: ByteView) {}

  public func processingInstruction(range: TextRange) {}

  /// Comments and processing instructions are copied as they stand, but for their line ends:
  /// `\n`, as XML reads a `\r\n` or a lone `\r` (and as the rest of the layout is written).
  /// A character reference to white space between tags (`&#32;`) comes here too, and is kept
  /// on a line of its own: what it stands for is the user's, not layout to drop.
  public func markup(range: TextRange, bytes view: ByteView) {
    let bytes = view.unsafeBuffer
    closePendingOpen()
    record(range)
    indent()
    if bytes.contains(0x0D) { output.append(LineEnds.normalized(bytes)) } else { output.append(bytes) }
    output.append(0x0A)
    if output.count >= Self.blockBytes { flush() }
  }

  public func text(range: TextRange) {
    if dropped == nil { dropped = range }
    // Text right inside a start tag: its line would drop it (`<a>text</a>` written `<a/>`).
    if pendingOpen, let last = origins?.indices.last { origins![last].holdsText = true }
  }
  public func doctype(range: TextRange) {
    if dropped == nil { dropped = range }
  }
  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {}

  /// Appends `<name` and `tag`'s attributes in canonical order, values
  /// canonical and escaped (the caller closes it with `>` or `/>`).
  static func appendOpening(_ tag: StartTag, isRoot: Bool, entity: Entity?, to output: inout [UInt8]) {
    let layout = attributeLayout(tag, isRoot: isRoot, entity: entity)
    var written = ByteOutput(capacity: tag.unsafeBytes.count + 64)
    defer { written.free() }
    appendOpening(tag, layout: layout[...], entity: { entity }, to: &written)
    output.append(contentsOf: written.buffer)
  }

  private func appendOpening(_ tag: StartTag, layout index: Int, entityIndex: Int?) {
    layouts.withUnsafeBufferPointer { layouts in
      Self.appendOpening(
        tag, layout: layouts[index].order[...], entity: { entityIndex.flatMap { self.model?.entities[$0] } },
        to: &output)
    }
  }

  /// Appends `<name` and `tag`'s attributes in the order of `layout`; `entity` is asked only
  /// for an integer value not written canonically.
  private static func appendOpening(
    _ tag: StartTag, layout: ArraySlice<(index: Int, isInteger: Bool)>, entity: () -> Entity?,
    to output: inout ByteOutput
  ) {
    output.append(UInt8(ascii: "<"))
    output.append(tag.unsafeName)
    for (index, isInteger) in layout {
      output.append(0x20)
      output.append(tag.unsafeName(of: index))
      output.append("=\"")
      let raw = tag.unsafeRawValue(of: index)
      if isInteger ? CanonicalLayout.isCanonicalInteger(raw) : XMLEscaping.isCanonicalAttribute(raw) {
        output.append(raw)
      } else if isInteger {
        let name = XMLName.string(tag.unsafeName(of: index))
        let value = CanonicalLayout.value(tag.value(of: index), of: name, entity: entity())
        output.append(Array(XMLEscaping.escapeAttribute(value).utf8))
      } else {
        var escaped: [UInt8] = []
        XMLEscaping.appendCanonicalAttribute(raw, to: &escaped)
        output.append(escaped)
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
    let attributeNames = (0..<tag.unsafeAttributes.count).map { XMLName.string(tag.unsafeName(of: $0)) }
    return CanonicalLayout.attributeOrder(attributeNames, isRoot: isRoot, entity: entity).map { index in
      let attribute = entity?.attributeIndex[attributeNames[index]].map { entity!.attributes[$0] }
      return (index, attribute?.type?.isInteger == true)
    }
  }

  /// ``attributeLayout(_:isRoot:entity:)``, worked out once per name list: its index in `layouts`.
  private func layout(_ tag: StartTag, entityIndex: Int?) -> Int {
    keyBytes.removeAll(keepingCapacity: true)
    for index in 0..<tag.unsafeAttributes.count {
      keyBytes.append(contentsOf: tag.unsafeName(of: index))
      keyBytes.append(0)
    }
    let entityKey = entityIndex ?? -1
    let isRoot = nameEnds.isEmpty
    for position in recent.indices {
      let candidate = recent[position]
      guard layouts[candidate].entity == entityKey, layouts[candidate].isRoot == isRoot,
        layouts[candidate].names == keyBytes
      else { continue }
      if position > 0 {
        recent.remove(at: position)
        recent.insert(candidate, at: 0)
      }
      return candidate
    }
    let key = LayoutKey(names: keyBytes, entity: entityKey, isRoot: isRoot)
    let found =
      byKey[key]
      ?? {
        let order = Self.attributeLayout(
          tag, isRoot: isRoot, entity: entityIndex.flatMap { model?.entities[$0] })
        if layouts.count >= Self.layoutsKept {
          layouts.removeAll(keepingCapacity: true)
          byKey.removeAll(keepingCapacity: true)
          recent.removeAll(keepingCapacity: true)
        }
        layouts.append(Layout(names: keyBytes, entity: entityKey, isRoot: isRoot, order: order))
        byKey[key] = layouts.count - 1
        return layouts.count - 1
      }()
    recent.insert(found, at: 0)
    if recent.count > Self.recentKept { recent.removeLast() }
    return found
  }

  private func entityIndex(_ tag: StartTag) -> Int? {
    if !nameEnds.isEmpty, !lastName.isEmpty, XMLName.equals(tag.name, lastName) { return lastNamed }
    guard let model else { return nil }
    if nameEnds.isEmpty {
      if let index = tag.index(of: "entity") { return model.entity(named: tag.value(of: index)) }
      return model.defaultRootEntity
    }
    let found = model.index.entity(named: tag.name, hint: &lastEntity)
    lastName = Array(tag.name)
    lastNamed = found
    return found
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
