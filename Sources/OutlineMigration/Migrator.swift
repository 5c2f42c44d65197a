import OutlineCore
import OutlineModel
import OutlineXML

/// Something a migration removed from a document.
public struct Dropped: Sendable, Equatable {
  /// Where it was: the start of the attribute or element in the older text.
  public var offset: Int
  /// What it was, e.g. `Item.note="call back"` or `Tag 'urgent' and 2 objects inside`.
  public var what: String
}

/// Children numbered out of document order under a containment that becomes ordered: the
/// target reads their order from the document, so migrating them as they stand would reorder them.
public struct Disordered: Sendable, Equatable {
  /// Where the parent starts in the older text.
  public var offset: Int
  /// The parent, e.g. `Item 'b'` or `the root`, and the relationship.
  public var parent: String
  public var relationship: String
}

/// The streaming migration of one document: reads the older document's
/// events and hands out, in text order, the minimal edits that make it a
/// document of the target version (element and attribute renames, dropped
/// values and objects, new values, new order numbers, the root's
/// `modelVersion`). Memory holds the open elements only.
public final class Migrator: XMLEventHandler {
  /// What was dropped, in document order.
  public private(set) var dropped: [Dropped] = []
  /// Per `Entity.property` (target names): how many objects need a value that was not given.
  public private(set) var missing: [String: Int] = [:]
  /// Per parent whose children were renumbered: how many, in document order.
  public private(set) var renumbered: [Renumbered] = []
  /// Ids of to-one relationships that held several (`Entity.relationship`: count).
  public private(set) var tooMany: [String: Int] = [:]
  /// Parents whose children, under a containment that becomes ordered, are numbered out of
  /// document order (in document order; one entry a parent and relationship).
  public private(set) var disordered: [Disordered] = []
  /// Parents whose children a drop or a merge would renumber, but which are not numbered
  /// 0..n-1 in the older text (``OrderCensus``): renumbering would lose their order.
  public private(set) var misnumbered: [String] = []
  /// Attributes a rename would give a name their object already has (in document order, one
  /// line each): the migrated start tag would hold the name twice, which is not XML.
  public private(set) var clashes: [String] = []
  /// Whether an edit was handed out.
  public private(set) var changed = false
  /// The first fatal syntax error, when the document did not parse.
  public private(set) var syntaxError: (message: String, range: TextRange)?

  private let plan: MigrationPlan
  private let emit: (TextEdit) -> Void
  @exclusivity(unchecked) private var stack: [Frame] = []
  /// Inside a dropped element: how deep, where it started, how many objects it holds.
  @exclusivity(unchecked) private var droppedDepth = 0
  @exclusivity(unchecked) private var droppedStart = 0
  @exclusivity(unchecked) private var droppedObjects = 0
  @exclusivity(unchecked) private var lastPlan: (name: [UInt8], plan: MigrationPlan.EntityPlan?)?
  @exclusivity(unchecked) private var edits: [TextEdit] = []
  /// The sibling groups to renumber (from ``OrderCensus``), by the parent's ordinal.
  private let shifts: [Int: [Int: OrderCensus.Shift]]
  /// The ids of dropped objects (from ``OrderCensus``): relationships naming them lose them.
  private let droppedIDs: Set<String>
  /// The parents, by ordinal, whose children are renumbered but not numbered 0..n-1 (from ``OrderCensus``).
  private let misnumberedParents: Set<Int>
  /// Whether objects can be dropped with their containment, or sibling groups renumbered (``MigrationPlan/mayRenumber``).
  private let placesChildren: Bool
  /// The open elements whose children are renumbered, by their depth in `stack`.
  /// (Indexed by depth, nil where nothing is renumbered; `renumberingCount` are not nil.)
  @exclusivity(unchecked) private var renumbering: [Renumbering?] = []
  @exclusivity(unchecked) private var renumberingCount = 0

  private struct Renumbering {
    /// Per older containment: the shift of its survivors' numbers.
    var shifts: [Int: OrderCensus.Shift]
    /// Where the parent starts and how it is named.
    var start: Int
    var name: String
    /// How many of its children got a new order number.
    var count = 0
  }
  /// How many start tags came before the current one.
  @exclusivity(unchecked) private var ordinal = 0

  private struct Frame {
    /// The older entity's name, when known.
    var plan: MigrationPlan.EntityPlan?
    /// The end tag to write instead, when the entity was renamed.
    var renamedEnd: String?
    /// Per target containment relationship: the next order number of a new order attribute.
    var counters: [Int: Int] = [:]
    /// Where the element starts and how messages name it, kept when the plan changes a
    /// containment's ordering (``MigrationPlan/becomesOrdered``).
    var start = 0
    var label = ""
    /// Per older containment that becomes ordered: the last order number seen, or `Int.max`
    /// once the children were found out of document order (reported once).
    var lastOrders: [Int: Int] = [:]
  }

  /// A migrator following `plan`, handing each edit to `emit` in text order.
  ///
  /// `census` is the ``OrderCensus`` of a first pass over the same text, when
  /// the plan can drop ordered objects or merge sibling groups
  /// (``MigrationPlan/mayRenumber``); without it no order number moves.
  ///
  /// `output`, when given, receives the events of the migrated text as the
  /// edits make it (each start tag as edited, every range where it lands),
  /// so it can be validated without parsing the text again.
  init(
    plan: MigrationPlan, census: OrderCensus? = nil, output: (any XMLEventHandler)? = nil,
    emit: @escaping (TextEdit) -> Void
  ) {
    self.plan = plan
    self.emit = emit
    self.output = output
    self.shifts = census?.shifts ?? [:]
    self.droppedIDs = census?.droppedIDs ?? []
    self.misnumberedParents = census?.misnumbered ?? []
    self.placesChildren = plan.mayRenumber
  }

  /// A migrator following `plan`, handing each edit to `emit` in text order.
  public convenience init(plan: MigrationPlan, emit: @escaping (TextEdit) -> Void) {
    self.init(plan: plan, census: nil, emit: emit)
  }

  /// Migrates `text` (held whole) to a list of edits in text order, with the migrator that made them.
  public static func edits(of text: [UInt8], plan: MigrationPlan) -> (Migrator, [TextEdit]) {
    var census: OrderCensus?
    if plan.mayRenumber {
      census = OrderCensus.take(plan: plan) { body in text.withByteView { body($0) } }
    }
    var edits: [TextEdit] = []
    let migrator = Migrator(plan: plan, census: census) { edits.append($0) }
    XMLEventParser.parse(text, handler: migrator)
    return (migrator, edits)
  }

  private func send(_ edit: TextEdit) {
    changed = true
    shift += edit.newText.utf8.count - edit.range.length
    emit(edit)
  }

  /// Where the migrated text gets the events (``init(plan:census:output:emit:)``).
  private let output: (any XMLEventHandler)?
  /// How far the migrated text is ahead of the older one at the edits handed out so far.
  @exclusivity(unchecked) private var shift = 0
  @exclusivity(unchecked) private var edited: [UInt8] = []
  @exclusivity(unchecked) private var editedAttributes: [RawAttribute] = []

  /// `range` of the older text where it lands in the migrated one.
  private func shifted(_ range: TextRange) -> TextRange {
    TextRange(start: range.start + shift, end: range.end + shift)
  }

  /// Hands `output` the start tag `tag` as the collected edits (sorted, all inside it) make it.
  private func forward(_ tag: StartTag) {
    guard let output else { return }
    edited.removeAll(keepingCapacity: true)
    var cursor = 0
    for edit in edits {
      edited.append(contentsOf: tag.bytes.extracting(cursor..<(edit.range.start - tag.offset)))
      edited.append(contentsOf: edit.newText.utf8)
      cursor = edit.range.end - tag.offset
    }
    edited.append(contentsOf: tag.bytes.extracting(from: cursor))
    edited.withByteView { bytes in
      TagScanner.withStartTag(bytes, at: tag.offset + shift, attributes: &editedAttributes) {
        output.startElement($0)
      }
    }
  }

  public func startElement(_ tag: StartTag) {
    lastStartEnd = tag.range.end
    defer { ordinal += 1 }
    if droppedDepth > 0 {
      droppedDepth += 1
      droppedObjects += 1
      return
    }
    if stack.isEmpty {
      startRoot(tag)
      return
    }
    let entityPlan = entityPlan(for: tag.name)
    guard let entityPlan else {
      // Not an entity of the older version: left as it is (validation reports it).
      edits.removeAll(keepingCapacity: true)
      forward(tag)
      stack.append(Frame(plan: nil))
      return
    }
    let placement =
      placesChildren ? plan.placement(parent: stack[stack.count - 1].plan, child: entityPlan) : .unknown
    guard let targetName = entityPlan.targetName, placement != .dropped else {
      droppedDepth = 1
      droppedStart = tag.range.start
      droppedObjects = 0
      dropped.append(Dropped(offset: tag.range.start, what: "\(entityPlan.sourceName) \(describe(tag))"))
      return
    }
    edits.removeAll(keepingCapacity: true)
    var frame = frame(entityPlan, tag)
    if targetName != entityPlan.sourceName {
      edits.append(TextEdit(range: tag.nameRange, newText: targetName))
      frame.renamedEnd = "</\(targetName)>"
    }
    rewriteAttributes(tag, plan: entityPlan, isRoot: false)
    let ordering = orderingChange(of: tag, plan: entityPlan)
    if ordering == .unordered, let target = entityPlan.target,
      let order = plan.target.entities[target].orderAttribute
    {
      // The older document's order was its document order: numbered so.
      placeValue(
        plan.target.entities[target].attributes[order].name, String(nextOrder(child: target)), in: tag)
    } else if let order = entityPlan.newOrderAttribute, let target = entityPlan.target {
      let number = nextOrder(child: target)
      placeValue(order, String(number), in: tag)
    } else if renumberingCount > 0, case .kept(let source, _) = placement,
      stack.count - 1 < renumbering.count,
      let shift = renumbering[stack.count - 1]?.shifts[source],
      let (index, old) = plan.orderValue(tag, entity: entityPlan)
    {
      let new = shift.renumbered(old)
      if new != old {
        edits.append(TextEdit(range: tag.valueRange(of: index), newText: String(new)))
        renumbering[stack.count - 1]?.count += 1
      }
    }
    flush(tag)
    if !plan.becomesOrdered.isEmpty {
      frame.start = tag.range.start
      frame.label = "\(entityPlan.sourceName) \(describe(tag))"
    }
    if misnumberedParents.contains(ordinal) {
      misnumbered.append("the children of \(entityPlan.sourceName) \(describe(tag))")
    }
    stack.append(frame)
  }

  /// How a change of ordering of the containment holding `tag` under the open parent
  /// touches it: a containment that becomes unordered numbers it by document order; one that
  /// becomes ordered checks that its number follows its older sibling's (``disordered``).
  private func orderingChange(of tag: StartTag, plan entityPlan: MigrationPlan.EntityPlan) -> OrderingChange {
    guard !plan.becomesOrdered.isEmpty || !plan.becomesUnordered.isEmpty,
      let parentPlan = stack[stack.count - 1].plan, parentPlan.source >= 0, entityPlan.source >= 0,
      case .relationship(let relationship) = plan.source.containment(
        of: parentPlan.source, holding: entityPlan.source)
    else { return .none }
    if plan.becomesUnordered[parentPlan.source]?.contains(relationship) == true { return .unordered }
    guard plan.becomesOrdered[parentPlan.source]?.contains(relationship) == true else { return .none }
    guard let (_, value) = plan.orderValue(tag, entity: entityPlan) else { return .ordered }
    let parent = stack.count - 1
    let last = stack[parent].lastOrders[relationship]
    if let last, last == Int.max { return .ordered }
    if let last, value < last {
      let name = plan.source.entities[parentPlan.source].relationships[relationship].name
      disordered.append(
        Disordered(offset: stack[parent].start, parent: stack[parent].label, relationship: name))
      stack[parent].lastOrders[relationship] = Int.max
    } else {
      stack[parent].lastOrders[relationship] = value
    }
    return .ordered
  }

  private enum OrderingChange { case none, ordered, unordered }

  private func startRoot(_ tag: StartTag) {
    edits.removeAll(keepingCapacity: true)
    let rootPlan = plan.rootPlan(tag)
    if let index = tag.index(of: "entity") {
      if let targetName = rootPlan?.targetName, targetName != rootPlan?.sourceName {
        edits.append(TextEdit(range: tag.valueRange(of: index), newText: targetName))
      }
    } else if plan.source.defaultRootEntity != nil {
      // The target may default to another root entity: the root then names its own.
      if let target = rootPlan?.target, target != plan.target.defaultRootEntity {
        edits.append(
          TextEdit(
            range: TextRange(at: tag.nameRange.end),
            newText: " entity=\"\(escaped(plan.target.entities[target].name))\""))
      }
    }
    if let rootPlan { rewriteAttributes(tag, plan: rootPlan, isRoot: true) }
    if !plan.recordsVersion {
      // The version stays as it is.
    } else if let index = tag.index(of: "modelVersion") {
      if tag.value(of: index) != plan.targetVersion {
        edits.append(TextEdit(range: tag.valueRange(of: index), newText: escaped(plan.targetVersion)))
      }
    } else {
      let after = tag.index(of: "model") ?? tag.index(of: "version")
      let at = after.map { tag.valueRange(of: $0).end + 1 } ?? tag.nameRange.end
      edits.append(
        TextEdit(range: TextRange(at: at), newText: " modelVersion=\"\(escaped(plan.targetVersion))\""))
    }
    flush(tag)
    var root = frame(rootPlan, tag, isRoot: true)
    root.start = tag.range.start
    root.label = "the root"
    if misnumberedParents.contains(ordinal) { misnumbered.append("the children of the root") }
    stack.append(root)
  }

  /// Renames, drops and fills the XML attributes of one start tag (edits go to `edits`).
  private func rewriteAttributes(_ tag: StartTag, plan entityPlan: MigrationPlan.EntityPlan, isRoot: Bool) {
    // Most entities keep every attribute and gain none: nothing to look at.
    if entityPlan.actions.isEmpty && entityPlan.additions.isEmpty && droppedIDs.isEmpty { return }
    // The names present after the migration, kept when there are additions to check or
    // renames that could meet a name already there.
    let needsPresent = !entityPlan.additions.isEmpty || !entityPlan.actions.isEmpty
    var present: [String] = []
    var renamed: [(name: String, index: Int)] = []
    for index in 0..<tag.attributes.count {
      let name = XMLName.string(tag.name(of: index))
      let action = entityPlan.actions[name]
      if action != .drop, !droppedIDs.isEmpty, !(isRoot && RootFormat.isAttribute(name)),
        dropsReferences(tag, index: index, name: name, plan: entityPlan)
      {
        continue
      }
      guard let action else {
        if needsPresent { present.append(name) }
        continue
      }
      if isRoot && RootFormat.isAttribute(name) { continue }
      switch action {
      case .rename(let newer):
        if needsPresent { present.append(newer) }
        renamed.append((newer, index))
        edits.append(TextEdit(range: tag.nameRange(of: index), newText: newer))
      case .drop:
        let start = index == 0 ? tag.nameRange.end : tag.valueRange(of: index - 1).end + 1
        edits.append(
          TextEdit(range: TextRange(start: start, end: tag.valueRange(of: index).end + 1), newText: ""))
        let value = tag.value(of: index)
        dropped.append(
          Dropped(
            offset: tag.nameRange(of: index).start,
            what: "\(entityPlan.sourceName).\(name)=\"\(Excerpt.escaped(value))\""))
      case .toOne(let newer):
        if needsPresent { present.append(newer ?? name) }
        if let newer {
          renamed.append((newer, index))
          edits.append(TextEdit(range: tag.nameRange(of: index), newText: newer))
        }
        // The ids of dropped objects were taken out already (``dropsReferences``).
        let ids = XMLName.tokens(tag.value(of: index))
          .filter { !droppedIDs.contains(String($0)) }
        if ids.count > 1 {
          edits.removeAll { $0.range == tag.valueRange(of: index) }
          edits.append(TextEdit(range: tag.valueRange(of: index), newText: escaped(String(ids[0]))))
          tooMany["\(entityPlan.targetName ?? entityPlan.sourceName).\(newer ?? name)", default: 0] += 1
          dropped.append(
            Dropped(
              offset: tag.valueRange(of: index).start,
              what:
                "\(entityPlan.sourceName).\(name): ids \(Excerpt.escaped(ids.dropFirst().joined(separator: " "))) (to-one keeps \(Excerpt.quoted(ids[0])))"
            ))
        }
      }
    }
    if !renamed.isEmpty { findClashes(tag, renamed: renamed, present: present, plan: entityPlan) }
    for (name, value) in entityPlan.additions where !present.contains(name) {
      guard let value else {
        missing["\(entityPlan.targetName ?? entityPlan.sourceName).\(name)", default: 0] += 1
        continue
      }
      insert(name, value, in: tag)
    }
  }

  /// Notes each rename of `tag` whose new name `present` (every name after the migration) holds
  /// more than once: an attribute the user kept (unknown to the older version, say) or another
  /// rename already has it.
  private func findClashes(
    _ tag: StartTag, renamed: [(name: String, index: Int)], present: [String],
    plan entityPlan: MigrationPlan.EntityPlan
  ) {
    var counts: [String: Int] = [:]
    for name in present { counts[name, default: 0] += 1 }
    for (newer, index) in renamed where counts[newer, default: 0] > 1 {
      let older = XMLName.string(tag.name(of: index))
      clashes.append(
        "\(entityPlan.sourceName).\(older)=\"\(Excerpt.escaped(tag.value(of: index)))\" would be renamed \(Excerpt.quoted(newer)), a name its object already has"
      )
    }
  }

  /// Removes, from the relationship attribute `index` of `tag`, the ids of dropped objects (as
  /// Core Data nullifies a relationship to a deleted object), each listed as dropped; the whole
  /// attribute goes when none is left. Whether the attribute went (nothing more to do for it).
  private func dropsReferences(
    _ tag: StartTag, index: Int, name: String, plan entityPlan: MigrationPlan.EntityPlan
  ) -> Bool {
    guard entityPlan.source >= 0,
      let relationship = plan.source.entities[entityPlan.source].relationshipIndex[name],
      !plan.source.entities[entityPlan.source].relationships[relationship].isContainment
    else { return false }
    let ids = XMLName.tokens(tag.value(of: index))
    let kept = ids.filter { !droppedIDs.contains(String($0)) }
    guard kept.count < ids.count else { return false }
    // Each at its place in the value (ids are names: their raw bytes are their text).
    let raw = tag.rawValue(of: index)
    var position = 0
    while position < raw.count {
      while position < raw.count && XMLName.isSpace(raw[position]) { position += 1 }
      let start = position
      while position < raw.count && !XMLName.isSpace(raw[position]) { position += 1 }
      let id = raw.extracting(start..<position).string
      guard position > start, droppedIDs.contains(id) else { continue }
      dropped.append(
        Dropped(
          offset: tag.valueRange(of: index).start + start,
          what: "\(entityPlan.sourceName).\(name): id \(Excerpt.quoted(id)) (its object is dropped)"))
    }
    if kept.isEmpty {
      let start = index == 0 ? tag.nameRange.end : tag.valueRange(of: index - 1).end + 1
      edits.append(
        TextEdit(range: TextRange(start: start, end: tag.valueRange(of: index).end + 1), newText: ""))
      return true
    }
    edits.append(TextEdit(range: tag.valueRange(of: index), newText: escaped(kept.joined(separator: " "))))
    return false
  }

  /// Writes `name="value"` on the tag: replaces the value when the name is there, else appends it.
  private func placeValue(_ name: String, _ value: String, in tag: StartTag) {
    for index in 0..<tag.attributes.count where XMLName.string(tag.name(of: index)) == name {
      edits.append(TextEdit(range: tag.valueRange(of: index), newText: value))
      return
    }
    insert(name, value, in: tag)
  }

  private func insert(_ name: String, _ value: String, in tag: StartTag) {
    let count = tag.attributes.count
    let at = count == 0 ? tag.nameRange.end : tag.valueRange(of: count - 1).end + 1
    edits.append(TextEdit(range: TextRange(at: at), newText: " \(name)=\"\(escaped(value))\""))
  }

  /// Hands out the collected edits of one tag in text order, merging those at one place.
  /// The migrated text's events get the tag as edited first.
  private func flush(_ tag: StartTag) {
    edits.sort { ($0.range.start, $0.range.end) < ($1.range.start, $1.range.end) }
    forward(tag)
    guard !edits.isEmpty else { return }
    var index = 0
    while index < edits.count {
      var edit = edits[index]
      while index + 1 < edits.count && edits[index + 1].range.start == edit.range.end
        && edits[index + 1].range.length == 0 && edit.range.length == 0
      {
        edit.newText += edits[index + 1].newText
        index += 1
      }
      send(edit)
      index += 1
    }
    edits.removeAll(keepingCapacity: true)
  }

  private func nextOrder(child target: Int) -> Int {
    guard var parent = stack.last else { return 0 }
    var key = -1
    if let parentPlan = parent.plan, let parentTarget = parentPlan.target,
      case .relationship(let relationship) = plan.target.containment(of: parentTarget, holding: target)
    {
      key = relationship
    }
    let number = parent.counters[key, default: 0]
    parent.counters[key] = number + 1
    stack[stack.count - 1] = parent
    return number
  }

  private func entityPlan(for name: ByteView) -> MigrationPlan.EntityPlan? {
    if let lastPlan, XMLName.equals(name, lastPlan.name) { return lastPlan.plan }
    let found = plan.entities[XMLName.string(name)]
    lastPlan = (Array(name), found)
    return found
  }

  /// The frame of an element kept with `plan`; notes its children's renumbering when they move.
  private func frame(_ entityPlan: MigrationPlan.EntityPlan?, _ tag: StartTag, isRoot: Bool = false) -> Frame
  {
    if !shifts.isEmpty, let shifts = shifts[ordinal] {
      while renumbering.count <= stack.count { renumbering.append(nil) }
      renumberingCount += 1
      renumbering[stack.count] = Renumbering(
        shifts: shifts, start: tag.range.start,
        name: isRoot ? "the root" : "\(entityPlan?.sourceName ?? XMLName.string(tag.name)) \(describe(tag))")
    }
    return Frame(plan: entityPlan)
  }

  /// How a dropped object is named: its title attribute's value, else its id.
  private func describe(_ tag: StartTag) -> String {
    var keys = ["xml:id"]
    if let entity = plan.source.entity(named: XMLName.string(tag.name)),
      let title = plan.source.entities[entity].titleAttribute
    {
      keys.insert(plan.source.entities[entity].attributes[title].name, at: 0)
    }
    for key in keys {
      for index in 0..<tag.attributes.count where XMLName.string(tag.name(of: index)) == key {
        return Excerpt.quoted(tag.value(of: index))
      }
    }
    return "object"
  }

  private func escaped(_ text: String) -> String { XMLEscaping.escapeAttribute(text) }

  public func endElement(range: TextRange?) {
    if droppedDepth > 0 {
      droppedDepth -= 1
      if droppedDepth == 0 {
        let end = range?.end ?? lastStartEnd
        if let last = dropped.indices.last, droppedObjects > 0 {
          dropped[last].what += " with \(counted(droppedObjects, "object")) inside"
        }
        send(TextEdit(range: TextRange(start: droppedStart, end: end), newText: ""))
      }
      return
    }
    guard let frame = stack.popLast() else {
      output?.endElement(range: range.map(shifted))
      return
    }
    if renumberingCount > 0, stack.count < renumbering.count, let done = renumbering[stack.count] {
      renumbering[stack.count] = nil
      renumberingCount -= 1
      if done.count > 0 {
        renumbered.append(Renumbered(offset: done.start, parent: done.name, count: done.count))
      }
    }
    if let renamedEnd = frame.renamedEnd, let range {
      output?.endElement(
        range: TextRange(start: range.start + shift, end: range.start + shift + renamedEnd.utf8.count))
      send(TextEdit(range: range, newText: renamedEnd))
    } else {
      output?.endElement(range: range.map(shifted))
    }
  }

  /// The end of the last start tag seen (a self-closing element ends there).
  @exclusivity(unchecked) private var lastStartEnd = 0

  // What is neither a start nor an end tag passes to the migrated text's events unchanged,
  // but inside a dropped element.
  public func comment(range: TextRange, content: ByteView) {
    if droppedDepth == 0 { output?.comment(range: shifted(range), content: content) }
  }
  public func text(range: TextRange) {
    if droppedDepth == 0 { output?.text(range: shifted(range)) }
  }
  public func processingInstruction(range: TextRange) {
    if droppedDepth == 0 { output?.processingInstruction(range: shifted(range)) }
  }
  public func markup(range: TextRange, bytes: ByteView) {
    if droppedDepth == 0 { output?.markup(range: shifted(range), bytes: bytes) }
  }
  public func doctype(range: TextRange) {
    if syntaxError == nil { syntaxError = ("the document has a DOCTYPE", range) }
    output?.doctype(range: shifted(range))
  }
  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    if isFatal && syntaxError == nil { syntaxError = (message, range) }
    output?.syntaxError(message: message, range: shifted(range), isFatal: isFatal)
  }
}
