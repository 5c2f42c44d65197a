import OutlineCore
import OutlineModel
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
  public private(set) var diagnostics: [Diagnostic] = []
  /// The tree, when asked for.
  public private(set) var tree: ItemTree?
  /// The model the document was validated against, once the root was seen.
  public private(set) var model: Model?
  /// The root entity, once known.
  public private(set) var rootEntity: Int?

  private let modelProvider: ModelProvider
  var bound: BoundModel!
  private var stack: [Frame] = []
  private var itemCount = 0
  private var present: [Bool] = []
  private var sawRoot = false
  private var sawFatal = false
  var references = ReferenceTable()
  var suppression = Suppression()

  /// Creates a validator that asks `modelProvider` for the model when the root arrives.
  public init(modelProvider: @escaping ModelProvider, buildTree: Bool = false) {
    self.modelProvider = modelProvider
    if buildTree { tree = ItemTree() }
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

  // MARK: Events

  public func startElement(_ tag: StartTag) {
    suppression.elementStarted(tag.range)
    if stack.isEmpty {
      startRoot(tag)
      return
    }
    let parent = stack[stack.count - 1]
    var entity: Int?
    var relationship: Int?
    if bound != nil {
      entity = bound.entity(named: tag.name)
      if let entity {
        if model!.entities[entity].isAbstract {
          report(
            .abstractEntity,
            "'\(model!.entities[entity].name)' is abstract; use one of its sub-entities",
            at: tag.nameRange)
        }
        relationship = containment(of: entity, in: parent, tag: tag)
      } else {
        report(
          .unknownEntity, "'\(XMLName.string(tag.name))' is not an entity of the model",
          at: tag.nameRange)
      }
    }
    openItem(tag, entity: entity, relationship: relationship, parentFrame: stack.count - 1)
  }

  private func startRoot(_ tag: StartTag) {
    sawRoot = true
    if !XMLName.equals(tag.name, "outline") {
      report(
        .badRootOrVersion,
        "The root element is '\(XMLName.string(tag.name))'; an outline file's root is 'outline'",
        at: tag.nameRange)
    }
    if let index = tag.index(of: "version"), tag.value(of: index) != "1" {
      report(
        .badRootOrVersion,
        "Unsupported version '\(tag.value(of: index))'; this toolchain reads version 1",
        at: tag.valueRange(of: index))
    }
    let modelIndex = tag.index(of: "model")
    let modelRange = modelIndex.map { tag.valueRange(of: $0) } ?? tag.nameRange
    switch modelProvider(modelIndex.map { tag.value(of: $0) }) {
    case .unreadable(let reason):
      report(.modelUnreadable, "The model cannot be read: \(reason)", at: modelRange)
    case .loaded(let loaded):
      model = loaded
      bound = BoundModel(loaded)
      let errors = loaded.diagnostics.filter { $0.severity == .error }
      if let first = errors.first {
        let position = loaded.source.position(of: first.range.start, unit: .scalar)
        report(
          .modelHasErrors,
          "The model has \(errors.count) error\(errors.count == 1 ? "" : "s"), first: \(first.message) (run `outline model check`)",
          at: modelRange,
          related: [
            RelatedLocation(
              range: first.range, message: "\(first.code) at \(position)", file: loaded.path)
          ])
      }
      if let index = tag.index(of: "entity") {
        let name = tag.value(of: index)
        if let entity = loaded.entity(named: name) {
          rootEntity = entity
          if loaded.entities[entity].isAbstract {
            report(.abstractEntity, "'\(name)' is abstract", at: tag.valueRange(of: index))
          }
        } else {
          report(.unknownEntity, "'\(name)' is not an entity of the model", at: tag.valueRange(of: index))
        }
      } else {
        rootEntity = loaded.defaultRootEntity
      }
    }
    openItem(tag, entity: rootEntity, relationship: nil, parentFrame: nil)
  }

  /// The containment relationship that holds `entity` under `parent`, reporting OL202.
  private func containment(of entity: Int, in parent: Frame, tag: StartTag) -> Int? {
    guard let parentEntity = parent.entity else { return nil }
    let model = self.model!
    switch model.containment(of: parentEntity, holding: entity) {
    case .relationship(let index):
      return index
    case .none:
      // Under the root, objects the root cannot contain stand free (tags, say).
      if parent.isRoot { return nil }
      report(
        .cannotContain,
        "'\(model.entities[entity].name)' cannot be contained in '\(model.entities[parentEntity].name)': it has no containment relationship to '\(model.entities[entity].name)'",
        at: tag.nameRange)
      return nil
    case .ambiguous(let candidates):
      let names = candidates.map { model.entities[parentEntity].relationships[$0].name }
      report(
        .cannotContain,
        "'\(model.entities[entity].name)' could belong to \(names.map { "'\($0)'" }.joined(separator: " or ")) of '\(model.entities[parentEntity].name)'; mark one with outline.containment = YES",
        at: tag.nameRange)
      return nil
    }
  }

  private func openItem(_ tag: StartTag, entity: Int?, relationship: Int?, parentFrame: Int?) {
    let isRoot = parentFrame == nil
    var order: (value: Int64?, range: TextRange?) = (nil, nil)
    var titleRange: TextRange?
    var idRange: TextRange?
    var label =
      isRoot ? "the root object" : entity.map { "'\(model!.entities[$0].name)'" } ?? "'\(XMLName.string(tag.name))'"
    if let entity {
      let result = checkAttributes(tag, entity: entity, isRoot: isRoot)
      order = (result.order, result.orderRange)
      titleRange = result.titleRange
      idRange = result.idRange
      if !tag.isSelfClosing, let title = result.titleIndex {
        label = "'\(tag.value(of: title))'"
      }
    } else {
      for index in 0..<tag.attributes.count where XMLName.equals(tag.name(of: index), "xml:id") {
        idRange = tag.valueRange(of: index)
        references.define(
          id: tag.value(of: index), entity: nil, range: idRange!, validator: self)
      }
    }
    if let parentFrame, let relationship, let parentEntity = stack[parentFrame].entity {
      recordChild(
        entity: entity!, relationship: relationship, parentEntity: parentEntity,
        parentFrame: parentFrame, order: order, nameRange: tag.nameRange)
    }
    let item = itemCount
    itemCount += 1
    if tree != nil {
      tree!.items.append(
        Item(
          entity: Int32(entity ?? -1), parent: Int32(parentFrame.map { stack[$0].item } ?? -1),
          depth: Int32(stack.count), subtreeEnd: Int32(item + 1),
          relationship: Int32(relationship ?? -1), startTag: tag.range,
          nameLength: Int32(tag.nameEnd - 1), endTag: nil, order: order.value,
          orderRange: order.range, titleRange: titleRange, idRange: idRange))
    }
    stack.append(
      Frame(item: item, entity: entity, isRoot: isRoot, nameRange: tag.nameRange, label: label))
  }

  private func recordChild(
    entity: Int, relationship: Int, parentEntity: Int, parentFrame: Int,
    order: (value: Int64?, range: TextRange?), nameRange: TextRange
  ) {
    let group = stack[parentFrame].group(for: relationship)
    stack[parentFrame].groups[group].count += 1
    let containment = model!.entities[parentEntity].relationships[relationship]
    guard !containment.isOrdered, let orderAttribute = model!.entities[entity].orderAttribute else {
      return
    }
    if order.range == nil {
      report(
        .orderMissing,
        "'\(model!.entities[entity].name)' in \(stack[parentFrame].label) has no '\(model!.entities[entity].attributes[orderAttribute].name)'",
        at: nameRange)
    }
    stack[parentFrame].groups[group].orders.append(
      OrderEntry(value: order.value, range: order.range ?? nameRange))
  }

  public func endElement(range: TextRange?) {
    guard let frame = stack.popLast() else { return }
    if tree != nil {
      tree!.items[frame.item].endTag = range
      tree!.items[frame.item].subtreeEnd = Int32(itemCount)
    }
    guard let entity = frame.entity, let model else { return }
    for group in frame.groups {
      checkOrders(group.orders, parent: frame.label)
    }
    checkContainmentCounts(frame, entity: entity, model: model)
  }

  private func checkContainmentCounts(_ frame: Frame, entity: Int, model: Model) {
    for index in model.entities[entity].containments {
      let relationship = model.entities[entity].relationships[index]
      let count = frame.groups.first { $0.relationship == index }?.count ?? 0
      if count == 0 && !relationship.isOptional {
        report(
          .cardinality, "\(frame.label) needs children in '\(relationship.name)' (not optional)",
          at: frame.nameRange)
      } else if let minimum = relationship.minCount, count < minimum, count > 0 || !relationship.isOptional {
        report(
          .cardinality,
          "\(frame.label) has \(count) '\(relationship.name)', fewer than the minimum \(minimum)",
          at: frame.nameRange)
      } else if let maximum = relationship.maxCount, maximum > 0, count > maximum {
        report(
          .cardinality,
          "\(frame.label) has \(count) '\(relationship.name)', more than the maximum \(maximum)",
          at: frame.nameRange)
      }
    }
  }

  public func comment(range: TextRange, content: UnsafeBufferPointer<UInt8>) {
    tree?.comments.append(range)
    suppression.comment(content)
  }

  public func text(range: TextRange) {
    guard let frame = stack.last else { return }
    report(.textInObject, "Text inside \(frame.label); objects hold attributes and child objects only", at: range)
  }

  public func doctype(range: TextRange) {
    report(
      .doctypePresent,
      "A DOCTYPE is not allowed in outline files; nothing it declares is read or expanded",
      at: range)
  }

  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    if isFatal { sawFatal = true }
    report(.notWellFormed, message, at: range)
  }

  /// Ends validation: closes what a syntax error left open, resolves
  /// references and applies suppression comments.
  public func finish() {
    if tree != nil {
      // Elements cut short by a syntax error keep the items they had.
      while let frame = stack.popLast() {
        tree!.items[frame.item].subtreeEnd = Int32(itemCount)
      }
    }
    stack.removeAll()
    if !sawFatal, let model { references.resolve(model: model, validator: self) }
    diagnostics = suppression.filter(diagnostics)
  }
}
