import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineXML

/// Validates a `.outline` document as its events stream by (SPEC §3-4),
/// optionally building its ``ItemTree``.
///
/// Memory holds the open elements, the sibling orders of open parents, and
/// the ids and references of the file, never the document itself, so the
/// command line can lint a file of any size in little memory. Walks use the
/// stack of open elements: there is no recursion anywhere.
public final class OutlineValidator: XMLEventHandler {
  /// What validation found.
  @exclusivity(unchecked) public private(set) var diagnostics: [Diagnostic] = []
  /// The errors an `outline-disable` comment turned off: not reported, but a conversion
  /// that cannot write what they point at refuses all the same.
  public private(set) var silencedErrors: [Diagnostic] = []
  /// Namespace declarations on objects other than the root that the root does not make the
  /// same: fine in XML, but the JSON form cannot keep them (``noteNamespace``).
  public internal(set) var unportableNamespaces: [Diagnostic] = []
  /// The root's namespace declarations (`xmlns:p` or `xmlns`: namespace name).
  var rootNamespaces: [String: String] = [:]
  /// The tree, when asked for: the syntax tree with each item bound to the model.
  public var tree: ItemTree? { builder?.tree }
  @exclusivity(unchecked) private var builder: ItemTreeBuilder?
  /// The model the document was validated against, once the root was seen.
  public var model: Model? { isBound ? boundModel : nil }
  /// The last model bound, kept through ``reset(modelProvider:buildTree:)``: a thread's
  /// validator binding the same shared model document after document retains and
  /// releases nothing (each count written was a cache line both cores of a run with
  /// several jobs wrote). Only `isBound` says whether this document has a model.
  @exclusivity(unchecked) private var boundModel: Model?
  @exclusivity(unchecked) private var isBound = false
  /// The root entity, once known.
  @exclusivity(unchecked) public private(set) var rootEntity: Int?
  /// Whether every parent's children come grouped by relationship and in
  /// order order, so a serializer can write them as they stream by.
  /// (A computed property: a writer in another module reads it on every
  /// element, and only this module's own accesses skip exclusivity checks.)
  public var childrenInOrder: Bool { inOrder }
  @exclusivity(unchecked) var inOrder = true

  private var modelProvider: ModelProvider
  /// The model's index; nil until the root arrives, or when no model could be read.
  var schema: ModelIndex? { isBound ? boundModel?.index : nil }
  /// `schema` without its reference count, for the per-element paths to
  /// borrow (`boundModel` keeps it alive): a stored class reference is otherwise
  /// retained and released at every element.
  @exclusivity(unchecked) private var borrowedSchema: Unmanaged<ModelIndex>?
  /// The model's key names laid out for lookups by bytes (empty until the model is known).
  @exclusivity(unchecked) var keyLookup = KeyLookup()
  /// The index `keyLookup` was built from (kept with it, so a reset validator given the same
  /// model again does not build it again).
  @exclusivity(unchecked) private var keyLookupIndex: ModelIndex?
  /// The lane's tables for the model `keyLookup` was built from (``ItemLaneTable``).
  @exclusivity(unchecked) var lane = ItemLaneTable()
  /// The containment the lane found last: for `laneChild` under `laneParent`.
  @exclusivity(unchecked) var laneParent = -1
  @exclusivity(unchecked) var laneChild = -1
  @exclusivity(unchecked) var laneRelationship = -1
  @exclusivity(unchecked) var laneIsNumbered = false
  @exclusivity(unchecked) var laneMissesRelationship = false
  /// The model attribute of each of a tag's attributes whose value the lane leaves to be checked.
  @exclusivity(unchecked) let laneAttributes = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
  /// The lane's tag index of each model attribute the tag writes, for an entity whose
  /// uniqueness constraints take its objects' keys (``ItemLaneTable/Entity/recordsKeys``).
  @exclusivity(unchecked) let laneKeyTags = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
  /// Whether start tags may take the lane (``ItemLaneTable``): tests turn it off to compare
  /// the two ways, which report the same.
  @exclusivity(unchecked) public var usesLane = true
  /// How many start tags took the lane.
  @exclusivity(unchecked) public internal(set) var laneTags = 0
  /// The entity last found by name, tried first for the next element.
  @exclusivity(unchecked) private var lastEntity = -1
  @exclusivity(unchecked) private var stack = FlatStack<Frame>()
  @exclusivity(unchecked) private var itemCount = 0
  /// Scratch buffers reused for every element.
  @exclusivity(unchecked) var present: [Bool] = []
  @exclusivity(unchecked) var written: [(relationship: Int, index: Int)] = []
  /// Per attribute of the current object's entity: its index in the start tag, or -1
  /// (kept only for entities with uniqueness constraints).
  @exclusivity(unchecked) var attributeTag: [Int] = []
  @exclusivity(unchecked) private var sawFatal = false
  @exclusivity(unchecked) var references = ReferenceTable()
  /// The raw title bytes of open elements, as a stack.
  @exclusivity(unchecked) private var titles = FlatStack<UInt8>(capacity: 1 << 10)
  /// The children of the open elements (``ChildEntry``).
  @exclusivity(unchecked) private var children = FlatStack<ChildEntry>()
  /// The suppression comments read so far (all of them once the parse is done).
  @exclusivity(unchecked) public internal(set) var suppression = Suppression()
  @exclusivity(unchecked) var uniqueness = UniquenessTables(count: 0)

  /// Creates a validator that asks `modelProvider` for the model when the root arrives.
  public init(modelProvider: @escaping ModelProvider, buildTree: Bool = false) {
    self.modelProvider = modelProvider
    if buildTree { builder = ItemTreeBuilder() }
  }

  deinit {
    laneAttributes.deallocate()
    laneKeyTags.deallocate()
  }

  /// Makes this validator what `init(modelProvider:buildTree:)` makes, for the next document:
  /// everything the last one left (diagnostics, model, ids, references, suppression, open
  /// elements) is dropped. Its storage is kept while small, so a thread checking many small
  /// files reuses its arrays, sibling groups and model lookup instead of making and freeing
  /// them for each; a large document's is freed.
  public func reset(modelProvider: @escaping ModelProvider, buildTree: Bool = false) {
    self.modelProvider = modelProvider
    builder = buildTree ? ItemTreeBuilder() : nil
    diagnostics = []
    silencedErrors = []
    unportableNamespaces = []
    rootNamespaces = [:]
    isBound = false
    borrowedSchema = nil
    rootEntity = nil
    inOrder = true
    lastEntity = -1
    laneTags = 0
    stack.removeAll(keepingUpTo: Self.keptEntries)
    itemCount = 0
    Self.empty(&present, keepingUpTo: Self.keptEntries)
    Self.empty(&written, keepingUpTo: Self.keptEntries)
    Self.empty(&attributeTag, keepingUpTo: Self.keptEntries)
    sawFatal = false
    references.removeAll()
    titles.removeAll(keepingUpTo: Self.keptTitleBytes)
    children.removeAll(keepingUpTo: Self.keptEntries)
    suppression = Suppression()
    uniqueness = UniquenessTables(count: 0)
  }

  /// The most entries (or bytes, for titles) a reset validator keeps room for in each array.
  private static let keptEntries = 256
  private static let keptTitleBytes = 1 << 14

  /// How many bytes of a raw title an open element keeps for messages: all of a short one; of
  /// a long one, the first 1 KiB (more than 60 characters however they are written: a
  /// character is at most ten bytes, `&#x10FFFF;`), cut before a character or reference it
  /// would split.
  static func titleStartKept(_ raw: UnsafeBufferPointer<UInt8>) -> Int {
    let limit = 1 << 10
    guard raw.count > limit else { return raw.count }
    var cut = limit
    while cut > 0 && raw[cut] & 0xC0 == 0x80 { cut -= 1 }
    var back = cut
    while back > 0 && cut - back < 12 {
      back -= 1
      if raw[back] == UInt8(ascii: ";") { break }
      if raw[back] == UInt8(ascii: "&") { return back }
    }
    return cut
  }

  /// The bytes of titles the open elements keep (for tests: bounded however long they are).
  var heldTitleBytes: Int { titles.count }

  private static func empty<Element>(_ array: inout [Element], keepingUpTo limit: Int) {
    if array.capacity > limit {
      array = []
    } else if !array.isEmpty {
      array.removeAll(keepingCapacity: true)
    }
  }

  /// Makes room for a document of `bytes` bytes: in the tree at once
  /// (``ItemTreeBuilder/reserveCapacity(forDocumentBytes:)``), in the id table once its first
  /// ids show how many to expect (``IDTable/expectedDocumentBytes``).
  public func prepare(forDocumentBytes bytes: Int) {
    builder?.reserveCapacity(forDocumentBytes: bytes)
    references.expect(documentBytes: bytes)
  }

  /// Validates a whole document in memory.
  public static func validate(
    _ source: SourceText, modelProvider: @escaping ModelProvider = fixedModel(),
    buildTree: Bool = true
  ) -> OutlineValidator {
    let validator = OutlineValidator(modelProvider: modelProvider, buildTree: buildTree)
    XMLEventParser.parse(source.bytes, handler: validator)
    validator.finish()
    return validator
  }

  func report(
    _ code: DiagnosticCode, _ message: String, at range: TextRange, related: [RelatedLocation] = []
  ) {
    diagnostics.append(Diagnostic(code, message, at: range, related: related))
  }

  /// How messages name an open element: `'its title'`, else `'Entity'`, or the root.
  func label(_ frame: Frame) -> String {
    if !frame.title.isEmpty,
      let title = titles.withUnsafeBufferPointer({
        ItemLabel.title(ByteView(UnsafeBufferPointer(rebasing: $0[frame.title])))
      })
    {
      return Excerpt.quoted(title)
    }
    if frame.isRoot { return "the root object" }
    if frame.entity >= 0, let schema { return Excerpt.quoted(schema.entities[frame.entity].name) }
    return "this object"
  }

  // MARK: Events

  public func startElement(_ tag: StartTag) {
    // Most tags: an object of the entity before it, under a parent that holds it.
    if usesLane, lastEntity >= 0, let borrowedSchema, !stack.isEmpty {
      let parentFrame = stack.count - 1
      let parentEntity = stack[parentFrame].entity
      let taken =
        parentEntity >= 0
        && borrowedSchema._withUnsafeGuaranteedRef {
          takeLane(tag, parentFrame: parentFrame, parentEntity: parentEntity, entity: lastEntity, schema: $0)
        }
      if taken { return }
    }
    suppression.elementStarted(tag.range)
    checkValueSizes(tag)
    if stack.isEmpty {
      startRoot(tag)
      return
    }
    guard let borrowedSchema else {
      openItem(tag, entity: -1, relationship: -1, isRoot: false, schema: nil)
      return
    }
    // Borrowed once per element and handed down: no retain and release of it.
    borrowedSchema._withUnsafeGuaranteedRef { schema in
      var entity = -1
      var relationship = -1
      if let found = schema.entity(named: tag.name, hint: &lastEntity) {
        entity = found
        if schema.isAbstract[found] {
          report(
            .abstractEntity,
            "\(Excerpt.quoted(schema.entities[found].name)) is abstract; use one of its sub-entities",
            at: tag.nameRange)
        }
        relationship = containment(of: found, in: stack[stack.count - 1], tag: tag, schema: schema)
      } else {
        report(
          .unknownEntity, "\(Excerpt.quoted(XMLName.string(tag.name))) is not an entity of the model",
          at: tag.nameRange)
      }
      openItem(tag, entity: entity, relationship: relationship, isRoot: false, schema: schema)
    }
  }

  /// Brings in the id table's slot for the tag's `xml:id`, so that defining it does not wait
  /// on memory (the pipeline tells of a batch's tags with ids before replaying them).
  public func upcoming(_ tag: StartTag) {
    guard let base = tag.unsafeBytes.baseAddress else { return }
    for attribute in tag.unsafeAttributes
    where XMLName.isXMLID(
      base + Int(attribute.nameStart), length: Int(attribute.nameEnd &- attribute.nameStart))
    {
      references.prefetch(
        raw: UnsafeBufferPointer(
          start: base + Int(attribute.valueStart), count: Int(attribute.valueEnd &- attribute.valueStart)))
      return
    }
  }

  private func startRoot(_ tag: StartTag) {
    if !XMLName.equals(tag.name, "outline") {
      report(
        .badRootOrVersion,
        "The root element is \(Excerpt.quoted(XMLName.string(tag.name))); an outline file's root is 'outline'",
        at: tag.nameRange)
    }
    if let index = tag.index(of: "version"), tag.value(of: index) != "1" {
      report(
        .badRootOrVersion,
        "Unsupported version \(Excerpt.quoted(tag.value(of: index))); this toolchain reads version 1",
        at: tag.valueRange(of: index))
    }
    let modelIndex = tag.index(of: "model")
    let modelRange = modelIndex.map { tag.valueRange(of: $0) } ?? tag.nameRange
    switch modelProvider(modelIndex.map { tag.value(of: $0) }) {
    case .unreadable(let reason):
      report(.modelUnreadable, ModelChoice.unreadableMessage(reason), at: modelRange)
    case .refused(let reason):
      report(.modelOutsideProject, reason, at: modelRange)
    case .loaded(let loaded):
      bind(loaded)
      reportModelErrors(loaded, at: modelRange)
      if let index = tag.index(of: "entity") {
        let name = tag.value(of: index)
        if let entity = loaded.entity(named: name) {
          rootEntity = entity
          if loaded.entities[entity].isAbstract {
            report(.abstractEntity, "\(Excerpt.quoted(name)) is abstract", at: tag.valueRange(of: index))
          }
        } else {
          report(
            .unknownEntity, "\(Excerpt.quoted(name)) is not an entity of the model",
            at: tag.valueRange(of: index))
        }
      } else {
        rootEntity = loaded.defaultRootEntity
      }
    }
    openItem(tag, entity: rootEntity ?? -1, relationship: -1, isRoot: true, schema: schema)
  }

  private func reportModelErrors(_ model: Model, at range: TextRange) {
    let errors = model.diagnostics.filter { $0.severity == .error }
    guard let first = errors.first else { return }
    let position = model.source.position(of: first.range.start, unit: .scalar)
    report(
      .modelHasErrors,
      "The model has \(counted(errors.count, "error")), first: \(first.message) (run `outline model check`)",
      at: range,
      related: [
        RelatedLocation(range: first.range, message: "\(first.code) at \(position)", file: model.path)
      ])
  }

  /// The containment relationship that holds `entity` under `parent` (-1 for none), reporting OL202.
  private func containment(of entity: Int, in parent: Frame, tag: StartTag, schema: ModelIndex) -> Int {
    guard parent.entity >= 0 else { return -1 }
    switch schema.containment(of: parent.entity, holding: entity) {
    case .relationship(let index):
      return index
    case .none:
      // Under the root, objects the root cannot contain stand free (tags, say).
      if parent.isRoot { return -1 }
      let names = schema.entities
      report(
        .cannotContain,
        "\(Excerpt.quoted(names[entity].name)) cannot be contained in \(Excerpt.quoted(names[parent.entity].name)): it has no containment relationship to \(Excerpt.quoted(names[entity].name))",
        at: tag.nameRange)
      return -1
    case .ambiguous(let candidates):
      let parentEntity = schema.entities[parent.entity]
      let names = candidates.map { Excerpt.quoted(parentEntity.relationships[$0].name) }
      report(
        .cannotContain,
        "\(Excerpt.quoted(schema.entities[entity].name)) could belong to \(names.joined(separator: " or ")) of \(Excerpt.quoted(parentEntity.name)); mark one with outline.containment = YES",
        at: tag.nameRange)
      return -1
    }
  }

  private func openItem(
    _ tag: StartTag, entity: Int, relationship: Int, isRoot: Bool, schema: ModelIndex?
  ) {
    if let schema {
      openItem(tag, entity: entity, relationship: relationship, isRoot: isRoot, schema: schema)
    } else {
      var findings = AttributeFindings()
      defineUnboundID(tag, findings: &findings)
      pushFrame(tag, entity: entity, relationship: relationship, isRoot: isRoot, findings: findings)
    }
  }

  /// Opens an item under a known model. `schema` is not optional so that it stays borrowed
  /// from the caller: unwrapping an optional one retained and released it at every element.
  private func openItem(
    _ tag: StartTag, entity: Int, relationship: Int, isRoot: Bool, schema: ModelIndex
  ) {
    var findings = AttributeFindings()
    if entity >= 0 {
      let implied =
        relationship >= 0
        ? schema.impliedRelationship(parent: stack[stack.count - 1].entity, child: entity) : -1
      findings = checkAttributes(tag, entity: entity, isRoot: isRoot, implied: implied, schema: schema)
      if schema.uniqueness.hasChecks[entity] {
        let parent = stack.last
        uniqueness.record(
          tag, entity: entity, attributeTag: { self.attributeTag[$0] }, written: written, implied: implied,
          parentID: { self.identity(of: parent) }, schema: schema)
      }
    } else {
      defineUnboundID(tag, findings: &findings)
    }
    if relationship >= 0 {
      recordChild(
        entity: entity, relationship: relationship, parentFrame: stack.count - 1, findings: findings,
        nameRange: tag.nameRange, schema: schema)
    }
    pushFrame(tag, entity: entity, relationship: relationship, isRoot: isRoot, findings: findings)
  }

  /// Checks and defines the `xml:id` of an object of no known entity.
  private func defineUnboundID(_ tag: StartTag, findings: inout AttributeFindings) {
    guard let index = tag.index(of: "xml:id") else { return }
    findings.idRange = tag.valueRange(of: index)
    checkIDName(tag.unsafeRawValue(of: index), range: findings.idRange!)
    references.define(
      raw: tag.unsafeRawValue(of: index), entity: nil, range: findings.idRange!, validator: self)
  }

  /// Numbers the item, tells the tree builder and pushes its frame.
  func pushFrame(
    _ tag: StartTag, entity: Int, relationship: Int, isRoot: Bool, findings: AttributeFindings
  ) {
    let item = itemCount
    itemCount += 1
    if builder != nil {
      builder!.startElement(tag)
      builder!.bind(
        item, entity: entity, relationship: relationship, order: findings.order,
        orderRange: findings.orderRange, titleRange: findings.titleRange)
    }
    // Only elements that can have children keep their title for messages, and only its start:
    // a message quotes 60 characters of it, and a chain of open items with long titles would
    // otherwise hold them all (depth times title length).
    let titleStart = titles.count
    if !tag.isSelfClosing, let index = findings.titleIndex {
      let raw = tag.unsafeRawValue(of: index)
      titles.append(contentsOf: UnsafeBufferPointer(rebasing: raw[..<Self.titleStartKept(raw)]))
    }
    stack.append(
      Frame(
        item: item, entity: entity, isRoot: isRoot, nameRange: tag.nameRange,
        title: titleStart..<titles.count, firstChild: Int32(truncatingIfNeeded: children.count),
        firstCounter: Int32(truncatingIfNeeded: findings.firstCounter),
        idIndex: Int32(truncatingIfNeeded: findings.idIndex)))
  }

  /// How a uniqueness key names the object of `frame`: its id, else its item number.
  private func identity(of frame: Frame?) -> String {
    guard let frame else { return "" }
    return frame.idIndex >= 0
      ? references.definitions.definition(at: Int(frame.idIndex)).id : "#\(frame.item)"
  }

  /// Records a child of `relationship` under the open element at `parentFrame`, with its order
  /// when siblings there are numbered (reporting OL400 when it has none).
  func recordChild(
    entity: Int, relationship: Int, parentFrame: Int, findings: AttributeFindings, nameRange: TextRange,
    schema: ModelIndex
  ) {
    recordChild(
      entity: entity, relationship: relationship, parentFrame: parentFrame, order: findings.order,
      orderRange: findings.orderRange, nameRange: nameRange,
      isNumbered: schema.orderAttribute[entity] >= 0
        && !schema.isOrdered[stack[parentFrame].entity][relationship],
      schema: schema)
  }

  /// Records a child as above, `isNumbered` saying whether its siblings are numbered.
  @inline(__always)
  func recordChild(
    entity: Int, relationship: Int, parentFrame: Int, order: Int64?, orderRange: TextRange?,
    nameRange: TextRange, isNumbered: Bool, schema: ModelIndex
  ) {
    let tagged = Int32(truncatingIfNeeded: relationship)
    let last = stack[parentFrame].lastRelationship
    if last != tagged {
      if last >= 0 {
        stack[parentFrame].isMixed = true
        // Children come grouped by relationship until one comes back after another: looked for
        // only while they still are, so the looking costs at most the parent's relationships
        // times its children.
        if inOrder && hasChild(in: tagged, from: Int(stack[parentFrame].firstChild)) { inOrder = false }
      }
      stack[parentFrame].lastRelationship = tagged
    }
    if isNumbered && orderRange == nil {
      let entityName = schema.entities[entity].name
      let attributeName = schema.entities[entity].attributes[schema.orderAttribute[entity]].name
      report(
        .orderMissing,
        "\(Excerpt.quoted(entityName)) in \(label(stack[parentFrame])) has no \(Excerpt.quoted(attributeName))",
        at: nameRange)
    }
    children.append(
      ChildEntry(
        order: OrderEntry(value: isNumbered ? order : nil, range: orderRange ?? nameRange),
        relationship: tagged, isNumbered: isNumbered))
  }

  /// Whether a child from `first` on in `children` is in `relationship`.
  private func hasChild(in relationship: Int32, from first: Int) -> Bool {
    children.withUnsafeBufferPointer { entries in
      entries[first...].contains { $0.relationship == relationship }
    }
  }

  public func endElement(range: TextRange?) {
    guard let frame = stack.popLast() else { return }
    // Most elements are empty and kept no title: nothing to remove.
    defer { titles.truncate(to: frame.title.lowerBound) }
    let first = Int(frame.firstChild)
    // Its children go with it (there are none for most elements).
    defer { children.truncate(to: first) }
    builder?.endElement(range: range)
    guard frame.entity >= 0, let borrowedSchema else { return }
    borrowedSchema._withUnsafeGuaranteedRef { schema in
      let hasChildren = children.count > first
      if !hasChildren && schema.containments[frame.entity].isEmpty { return }
      if hasChildren {
        if frame.isMixed {
          checkOrders(of: first, label: label(frame))
        } else if !children.withUnsafeBufferPointer({ ChildEntry.numberedInSequence($0[first...]) }) {
          // The usual case, children numbered 0, 1, 2... as they stand, was checked in place.
          checkOrders(numberedOrders(from: first, in: nil), parent: label(frame))
        }
      }
      if schema.countsChildren[frame.entity] { checkContainmentCounts(frame, schema: schema) }
    }
  }

  /// Checks the orders of the children from `first` on, relationship by relationship in the
  /// order they first come, for a parent whose children are in several.
  private func checkOrders(of first: Int, label: String) {
    var relationships: [Int32] = []
    for index in first..<children.count where !relationships.contains(children[index].relationship) {
      relationships.append(children[index].relationship)
    }
    for relationship in relationships {
      checkOrders(numberedOrders(from: first, in: relationship), parent: label)
    }
  }

  /// The orders of the numbered children from `first` on (in `relationship`, or all).
  private func numberedOrders(from first: Int, in relationship: Int32?) -> [OrderEntry] {
    var orders: [OrderEntry] = []
    for index in first..<children.count
    where children[index].isNumbered && (relationship == nil || children[index].relationship == relationship)
    {
      orders.append(children[index].order)
    }
    return orders
  }

  /// How many children the element whose frame is `frame`, closing, has in `relationship`.
  private func childCount(_ frame: Frame, relationship: Int) -> Int {
    let tagged = Int32(truncatingIfNeeded: relationship)
    var count = 0
    for index in Int(frame.firstChild)..<children.count where children[index].relationship == tagged {
      count += 1
    }
    return count
  }

  private func checkContainmentCounts(_ frame: Frame, schema: ModelIndex) {
    // By index, not by iterating the array: no retain of it per element.
    for position in 0..<schema.containments[frame.entity].count {
      let index = schema.containments[frame.entity][position]
      let slot = schema.trackedSlot[frame.entity][index]
      if slot >= 0 && frame.firstCounter >= 0 {
        // Objects elsewhere may name it through the inverse: counted at the end.
        let count = childCount(frame, relationship: index)
        references.addNested(count, first: Int(frame.firstCounter), slot: slot)
        continue
      }
      // Read in place: copying the relationship for every element showed in profiles.
      if schema.entities[frame.entity].relationships[index].isOptional
        && schema.entities[frame.entity].relationships[index].minCount == nil
        && schema.entities[frame.entity].relationships[index].maxCount == nil
      {
        continue
      }
      let relationship = schema.entities[frame.entity].relationships[index]
      let count = childCount(frame, relationship: index)
      if count == 0 && !relationship.isOptional {
        report(
          .cardinality,
          "\(label(frame)) needs children in \(Excerpt.quoted(relationship.name)) (not optional)",
          at: frame.nameRange)
      } else if let minimum = relationship.minCount, count < minimum, count > 0 || !relationship.isOptional {
        report(
          .cardinality,
          "\(label(frame)) has \(count) \(Excerpt.quoted(relationship.name)), fewer than the minimum \(minimum)",
          at: frame.nameRange)
      } else if let maximum = relationship.maxCount, maximum > 0, count > maximum {
        report(
          .cardinality,
          "\(label(frame)) has \(count) \(Excerpt.quoted(relationship.name)), more than the maximum \(maximum)",
          at: frame.nameRange)
      }
    }
  }

  public func comment(range: TextRange, content: ByteView) {
    builder?.comment(range: range)
    suppression.comment(content.unsafeBuffer)
    checkNodeSize("This comment", range)
  }

  public func processingInstruction(range: TextRange) {
    builder?.processingInstruction(range: range)
    checkNodeSize("This processing instruction", range)
  }

  public func text(range: TextRange) {
    checkNodeSize("This text", range)
    guard let frame = stack.last else { return }
    report(
      .textInObject, "Text inside \(label(frame)); objects hold attributes and child objects only",
      at: range)
  }

  public func doctype(range: TextRange) {
    report(
      .doctypePresent,
      "A DOCTYPE is not allowed in outline files; nothing it declares is read or expanded",
      at: range)
  }

  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    if isFatal { sawFatal = true }
    // A mismatched end tag or an element left open: pointed at, not named by libxml2's line
    // number (counted at `\n` alone).
    if let exact = XMLErrorText.withoutLine(message), let open = stack.last {
      report(
        .notWellFormed, exact.message, at: range,
        related: [RelatedLocation(range: open.nameRange, message: exact.note)])
      return
    }
    report(.notWellFormed, message, at: range)
  }

  /// Ends validation: closes what a syntax error left open, resolves
  /// references and applies suppression comments.
  public func finish() {
    // Elements cut short by a syntax error keep the items they had.
    builder?.finish()
    stack.removeAll()
    if !sawFatal, let borrowedSchema {
      borrowedSchema._withUnsafeGuaranteedRef { schema in
        references.resolve(schema: schema, validator: self)
        uniqueness.finish(model: schema, validator: self)
      }
    }
    if !suppression.isEmpty {
      silencedErrors = diagnostics.filter { $0.severity == .error && suppression.silences($0) }
      diagnostics = suppression.filter(diagnostics)
    }
  }
}

extension OutlineValidator {
  /// Makes `loaded` the model every check reads: its index, the name lookup
  /// built from it and the uniqueness tables it needs. The one place a
  /// validator takes a model, so a partial check sets up what a full pass does.
  func bind(_ loaded: Model) {
    if boundModel !== loaded { boundModel = loaded }
    isBound = true
    borrowedSchema = Unmanaged.passUnretained(loaded.index)
    if keyLookupIndex !== loaded.index {
      keyLookup = KeyLookup(loaded.index)
      lane = ItemLaneTable(loaded.index)
      keyLookupIndex = loaded.index
    }
    (laneParent, laneChild, laneRelationship) = (-1, -1, -1)
    uniqueness = UniquenessTables(count: loaded.index.uniqueness.tableCount)
  }
}
