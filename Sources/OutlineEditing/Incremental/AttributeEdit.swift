import Foundation
import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// A keystroke inside one attribute value of one object's start tag (its
/// order, its title, any other attribute), analyzed without a pass over the
/// document: the previous analysis with its offsets moved, the start tag's
/// own diagnostics checked again, and, for an order, its sibling group's.
///
/// The change qualifies when it replaces plain bytes (``TitleEdit/isPlain(_:)``)
/// with plain bytes inside one value of a start tag other than the root's,
/// not inside a reference such as `&amp;`: the parser's events are then the
/// same but for that value. What the value can affect is then bounded:
///
/// - the start tag's own diagnostics (value types, ranges, sizes, unknown or
///   stored-but-derived attributes, required ones): the tag is checked before
///   and after the change, and the first findings replace the second;
/// - for the order attribute, the sibling group's order diagnostics
///   (OL401-OL403), checked again from the orders in the item tree (and
///   ``CarriedAnalysis/childrenInOrder`` false when the group is out of
///   order; once false it stays so until a full pass, which only costs a
///   serializer its streaming);
/// - for the title of an object with children, the messages that name it:
///   the change is analyzed afresh when any diagnostic lies in its subtree.
///
/// - for an id, the duplicate-id diagnostics of the objects with its old or
///   new value, found in the item tree, when the document writes no
///   reference and its model tracks no counts and has no uniqueness
///   constraints (the id then counts nowhere else).
///
/// References (whose resolution spans the file), namespace declarations and
/// `xml:` attributes other than `xml:id` (the parser reads them), members of
/// uniqueness constraints (their keys count across the file) and the root are
/// analyzed afresh, as is anything else; `outline-disable` comments filter
/// what the change brings.
public enum AttributeEdit {
  /// Moves `check`, the previous version's analysis, to the text after
  /// `change`; false, with `check` untouched, when the change does not qualify.
  /// `ids` is the directory of the ids of `check`'s tree, if made (made
  /// here when an id edit needs it), moved along with it. `rules` are the
  /// document's rules (its configuration's and the editor's) applied to findings.
  public static func apply<Analysis: CarriedAnalysis>(
    _ change: AppliedChange, to check: inout Analysis, source: SourceText,
    rules: ([Diagnostic]) -> [Diagnostic], ids: inout IDDirectory?
  ) -> Bool {
    guard !check.isJSONForm, check.parsed, let model = check.model, check.tree != nil,
      let plan = plan(
        change, check: check, tree: check.tree!, model: model, source: source, rules: rules, ids: ids)
    else { return false }
    commit(plan, change: change, to: &check)
    if let directory = plan.ids {
      if let (old, new) = plan.idChange { directory.move(plan.item, from: old, to: new) }
      ids = directory
    }
    return true
  }

  /// What kind of attribute holds the value a change lies in.
  private enum Kind { case order, title, id, other }

  /// What the change does to the analysis.
  private struct Plan {
    /// The edited item and its bound values after the change.
    var item: Int
    var order: Int64?
    var orderRange: TextRange?
    var titleRange: TextRange?
    /// Indices of the previous diagnostics the change removes.
    var removed: [Int]
    /// The diagnostics it adds, at offsets of the new text.
    var added: [Diagnostic]
    /// The directory of ids, when the change needed it, and the id it changes (decoded, before and after).
    var ids: IDDirectory?
    var idChange: (old: [UInt8], new: [UInt8])?
    /// False when the change puts a sibling group out of order (nil: as it was).
    var childrenInOrder: Bool?
  }

  private static func plan<Analysis: CarriedAnalysis>(
    _ change: AppliedChange, check: Analysis, tree: ItemTree, model: Model, source: SourceText,
    rules: ([Diagnostic]) -> [Diagnostic], ids: IDDirectory?
  ) -> Plan? {
    let start = change.range.start
    let oldEnd = start + change.removed.count
    let delta = change.delta
    let schema = model.index
    guard TitleEdit.isPlain(change.removed),
      TitleEdit.isPlain(source.bytes[change.range.start..<change.range.end]),
      let item = Self.item(at: start, in: tree), item > 0
    else { return nil }
    let bound = tree.items[item]
    let entity = Int(bound.entity)
    let parent = Int(bound.parent)
    guard bound.startTag.start < start, oldEnd < bound.startTag.end, entity >= 0,
      entity < schema.attributeCount.count
    else { return nil }
    // `outline-disable` comments filter what the change removes and brings as a full pass would: a value
    // changes no comment and no start tag a comment covers but the edited one, which holds the change
    // (a new diagnostic is looked up at its offsets in the previous text).
    let suppressed = hasSuppression(tree, source: source, change: change)
    func previous(_ found: [Diagnostic]) -> [Diagnostic] {
      rules(suppressed ? check.suppression.filter(found) : found)
    }
    func next(_ found: [Diagnostic]) -> [Diagnostic] {
      guard suppressed else { return rules(found) }
      func unmoved(_ offset: Int) -> Int {
        offset >= change.range.end ? offset - delta : offset > start ? start : offset
      }
      let kept = found.filter { diagnostic in
        var old = diagnostic
        old.range = TextRange(start: unmoved(diagnostic.range.start), end: unmoved(diagnostic.range.end))
        return !check.suppression.filter([old]).isEmpty
      }
      return rules(kept)
    }
    let parentEntity = Int(tree.items[parent].entity)
    let newTag = TextRange(start: bound.startTag.start, end: bound.startTag.end + delta)
    // The value the change lies in, and what kind of attribute holds it.
    var found: (value: TextRange, kind: Kind)?
    var after: StartTagFindings?
    var selfClosing = false
    TagScanner.withStartTag(in: source.bytes, range: newTag) { tag in
      selfClosing = tag.isSelfClosing
      guard
        let index = (0..<tag.attributes.count).first(where: {
          let value = tag.valueRange(of: $0)
          return value.start <= start && change.range.end <= value.end
        })
      else { return }
      let name = tag.name(of: index)
      if schema.relationship(name, of: entity) != nil { return }
      // The parser itself looks at namespace declarations and at xml:space or
      // xml:lang (it may report their values); only xml:id is left to the validator.
      if name.starts(with: "xml".utf8) && !XMLName.equals(name, "xml:id") { return }
      let attribute = schema.attribute(name, of: entity)
      // A uniqueness constraint's key counts across the file: only values of other attributes qualify.
      if let attribute,
        schema.uniqueness.checks[entity].contains(where: { $0.members.contains(.attribute(attribute)) })
      {
        return
      }
      let kind: Kind =
        XMLName.equals(name, "xml:id")
        ? .id
        : attribute == nil
          ? .other
          : attribute == schema.orderAttribute[entity]
            ? .order : attribute == schema.titleAttribute[entity] ? .title : .other
      found = (tag.valueRange(of: index), kind)
      after = OutlineValidator.checkStartTag(
        tag, entity: entity, relationship: Int(bound.relationship), parentEntity: parentEntity, model: model)
    }
    // (An id names its object in the keys of children its nesting relates to it.)
    guard let found, let after, !splitsReference(change, value: found.value, source: source),
      found.kind != .id || !schema.uniqueness.hasChecks[entity]
    else {
      return nil
    }
    // The same tag before the change, at its old offsets.
    var oldBytes = Array(source.bytes[newTag.start..<start])
    oldBytes.append(contentsOf: change.removed)
    oldBytes.append(contentsOf: source.bytes[change.range.end..<newTag.end])
    var scratch: [RawAttribute] = []
    let before = oldBytes.withByteView { bytes in
      TagScanner.withStartTag(bytes, at: bound.startTag.start, attributes: &scratch) { tag in
        OutlineValidator.checkStartTag(
          tag, entity: entity, relationship: Int(bound.relationship), parentEntity: parentEntity, model: model
        )
      }
    }
    var gone = previous(before.diagnostics)
    var added = next(after.diagnostics)
    var childrenInOrder: Bool?
    var directory: IDDirectory?
    var idChange: (old: [UInt8], new: [UInt8])?
    if found.kind == .order, before.order != after.order,
      let group = siblingOrders(
        of: item, tree: tree, schema: schema, source: source, change: change, order: after.order,
        orderRange: after.orderRange)
    {
      let label = self.label(parent, tree: tree, schema: schema, source: source)
      let old = OutlineValidator.checkSiblingOrders(group.before, parent: label)
      let new = OutlineValidator.checkSiblingOrders(group.after, parent: label)
      gone += previous(old.diagnostics)
      added += next(new.diagnostics)
      // A group put in order cannot tell whether the others are: the
      // document stays "not known to be in order" (a serializer then sorts).
      if !new.inOrder { childrenInOrder = false }
    }
    if found.kind == .id {
      // Without references, tracked counts or uniqueness keys, an id counts only in duplicates.
      guard !check.madeReferences, !schema.trackedCount.contains(where: { $0 > 0 }),
        !schema.uniqueness.hasChecks.contains(true),
        let old = bound.idRange,
        let duplicates = duplicateIDs(
          of: item, old: Array(oldBytes[(old.start - newTag.start)..<(old.end - newTag.start)]),
          new: found.value, tree: tree, source: source, change: change, ids: ids)
      else { return nil }
      directory = duplicates.ids
      idChange = duplicates.change
      gone += previous(duplicates.before)
      added += next(duplicates.after)
    }
    guard let removed = indices(of: gone, in: check.diagnostics) else { return nil }
    if found.kind == .title && !selfClosing {
      // Messages about the object's children, and its own child counts, name it by its title.
      var subtreeEnd = bound.fullRange.end
      let last = Int(bound.subtreeEnd) - 1
      if last > item { subtreeEnd = max(subtreeEnd, tree.items[last].fullRange.end) }
      let dropped = Set(removed)
      for (index, diagnostic) in check.diagnostics.enumerated() where !dropped.contains(index) {
        if diagnostic.range.end >= bound.startTag.start && diagnostic.range.start <= subtreeEnd { return nil }
      }
    }
    return Plan(
      item: item, order: after.order, orderRange: after.orderRange, titleRange: after.titleRange,
      removed: removed, added: added, ids: directory, idChange: idChange, childrenInOrder: childrenInOrder)
  }

  /// The orders of `item`'s sibling group (the children of its parent in its
  /// relationship, when that relationship is numbered), before the change
  /// and after it (offsets of the new text, `item`'s order and range as given).
  static func siblingOrders(
    of item: Int, tree: ItemTree, schema: ModelIndex, source: SourceText, change: AppliedChange,
    order: Int64?, orderRange: TextRange?
  ) -> (before: [(value: Int64?, range: TextRange)], after: [(value: Int64?, range: TextRange)])? {
    let bound = tree.items[item]
    let parent = Int(bound.parent)
    let parentEntity = Int(tree.items[parent].entity)
    let relationship = Int(bound.relationship)
    guard relationship >= 0, parentEntity >= 0, !schema.isOrdered[parentEntity][relationship] else {
      return nil
    }
    var before: [(value: Int64?, range: TextRange)] = []
    var after: [(value: Int64?, range: TextRange)] = []
    tree.items.withView { items in
      var child = parent + 1
      let end = Int(items[parent].subtreeEnd)
      while child < end {
        let sibling = items[child]
        if Int(sibling.relationship) == relationship && sibling.entity >= 0
          && schema.orderAttribute[Int(sibling.entity)] >= 0
        {
          let range = sibling.orderRange ?? sibling.nameRange
          before.append((sibling.order, range))
          after.append(
            child == item
              ? (order, orderRange ?? sibling.nameRange) : (sibling.order, moved(range, by: change)))
        }
        child = Int(sibling.subtreeEnd)
      }
    }
    return (before, after)
  }

  /// The duplicate-id diagnostics of every object whose id is `item`'s
  /// before the change (`old`, raw) or after it (at `new`), before the
  /// change and after it; the directory of ids they were found in (`ids`,
  /// or made now) and the id's change (decoded).
  private static func duplicateIDs(
    of item: Int, old: [UInt8], new: TextRange, tree: ItemTree, source: SourceText, change: AppliedChange,
    ids: IDDirectory?
  ) -> (before: [Diagnostic], after: [Diagnostic], ids: IDDirectory, change: (old: [UInt8], new: [UInt8]))? {
    let oldID = Array(XMLEscaping.decodeAttribute(old).utf8)
    let newRaw = Array(source.bytes[new.start..<new.end])
    let newID = Array(XMLEscaping.decodeAttribute(newRaw).utf8)
    let directory = ids ?? IDDirectory(tree: tree, source: source, change: change, item: item, oldRaw: old)
    guard oldID != newID else { return ([], [], directory, (oldID, newID)) }
    var candidates = directory.candidates(oldID)
    candidates.append(contentsOf: directory.candidates(newID))
    candidates.append(Int32(item))
    candidates.sort()
    var before: [(raw: [UInt8], range: TextRange)] = []
    var after: [(raw: [UInt8], range: TextRange)] = []
    var last: Int32 = -1
    source.bytes.withByteView { bytes in
      for candidate in candidates where candidate != last {
        last = candidate
        let index = Int(candidate)
        guard let range = tree.items[index].idRange else { continue }
        if index == item {
          before.append((old, range))
          after.append((newRaw, new))
          continue
        }
        let now = moved(range, by: change)
        let raw = bytes.extracting(now.start..<now.end)
        // Ids with the same hash but another value are passed over; only one with a reference needs decoding.
        var named = raw.equals(oldID) || raw.equals(newID)
        if !named && raw.firstIndex(of: UInt8(ascii: "&"), from: 0) != nil {
          let id = Array(XMLEscaping.decodeAttribute(raw).utf8)
          named = id == oldID || id == newID
        }
        guard named else { continue }
        before.append((raw.array, range))
        after.append((raw.array, now))
      }
    }
    return (
      OutlineValidator.checkDuplicateIDs(before), OutlineValidator.checkDuplicateIDs(after), directory,
      (oldID, newID)
    )
  }

  /// How the validator's messages name the object `item` as a parent.
  static func label(_ item: Int, tree: ItemTree, schema: ModelIndex, source: SourceText) -> String {
    let title = source.bytes.withByteView { tree.title(of: item, in: $0) }
    if let title { return Excerpt.quoted(title) }
    if item == 0 { return "the root object" }
    let entity = Int(tree.items[item].entity)
    return entity >= 0 ? Excerpt.quoted(schema.entities[entity].name) : "this object"
  }

  /// The index in `diagnostics` (sorted by position) of each of `wanted`; nil when one is missing.
  static func indices(of wanted: [Diagnostic], in diagnostics: [Diagnostic]) -> [Int]? {
    var taken = Set<Int>()
    for diagnostic in wanted {
      var low = Partition.point(diagnostics.count) { precedes(diagnostics[$0], diagnostic) }
      while low < diagnostics.count && diagnostics[low] != diagnostic
        && !precedes(diagnostic, diagnostics[low])
      {
        low += 1
      }
      while low < diagnostics.count && diagnostics[low] == diagnostic && taken.contains(low) { low += 1 }
      guard low < diagnostics.count, diagnostics[low] == diagnostic else { return nil }
      taken.insert(low)
    }
    return taken.sorted()
  }

  /// The order of ``Diagnostic/sortedByPosition(_:)``.
  private static func precedes(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
    if lhs.range != rhs.range { return lhs.range < rhs.range }
    if lhs.code != rhs.code { return lhs.code.rawValue < rhs.code.rawValue }
    return lhs.message < rhs.message
  }

  /// Moves `tree`'s offsets to the text after `change`, which lies in the
  /// start tag of `item`: only that item, the end tags of its ancestors, and
  /// every later item move (by the change's length), and the comments and processing instructions
  /// after it.
  static func move(_ tree: inout ItemTree, item: Int, by change: AppliedChange) {
    let delta = change.delta
    guard delta != 0 else { return }
    func shifted(_ range: TextRange) -> TextRange {
      TextRange(start: range.start + delta, end: range.end + delta)
    }
    tree.items[item].startTag = moved(tree.items[item].startTag, by: change)
    tree.items[item].endTag = tree.items[item].endTag.map(shifted)
    tree.items[item].orderRange = tree.items[item].orderRange.map { moved($0, by: change) }
    tree.items[item].titleRange = tree.items[item].titleRange.map { moved($0, by: change) }
    tree.items[item].idRange = tree.items[item].idRange.map { moved($0, by: change) }
    var ancestor = Int(tree.items[item].parent)
    while ancestor >= 0 {
      tree.items[ancestor].endTag = tree.items[ancestor].endTag.map(shifted)
      ancestor = Int(tree.items[ancestor].parent)
    }
    // Everything of the later items lies after the change.
    tree.items.updateEach(in: (item + 1)..<tree.items.count) { later in
      later.startTag = shifted(later.startTag)
      if let range = later.endTag { later.endTag = shifted(range) }
      if let range = later.orderRange { later.orderRange = shifted(range) }
      if let range = later.titleRange { later.titleRange = shifted(range) }
      if let range = later.idRange { later.idRange = shifted(range) }
    }
    for index in tree.comments.indices { tree.comments[index] = moved(tree.comments[index], by: change) }
    for index in tree.instructions.indices {
      tree.instructions[index] = moved(tree.instructions[index], by: change)
    }
  }

  /// The deepest item whose range holds `offset`, as ``ItemTree/item(at:)``
  /// finds it, in logarithmic time and the item's depth: the last item that
  /// starts at or before `offset` (items are in document order), or the
  /// nearest of its ancestors that holds it.
  static func item(at offset: Int, in tree: ItemTree) -> Int? {
    tree.items.withView { items in
      var item = Partition.point(items.count) { items[$0].startTag.start <= offset } - 1
      while item >= 0 && !items[item].fullRange.contains(offset) { item = Int(items[item].parent) }
      return item >= 0 ? item : nil
    }
  }

  /// `range` of the previous text in the new one.
  static func moved(_ range: TextRange, by change: AppliedChange) -> TextRange {
    let start = change.range.start
    let oldEnd = start + change.removed.count
    let delta = change.delta
    return TextRange(
      start: range.start > start ? range.start + delta : range.start,
      end: range.end >= oldEnd ? range.end + delta : range.end)
  }

  /// Whether the change lies inside a reference such as `&amp;` of `value`
  /// (new offsets, holding the change): an `&` unclosed before it or a `;` unopened after it.
  static func splitsReference(_ change: AppliedChange, value: TextRange, source: SourceText) -> Bool {
    func delimits(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") }
    return source.bytes.withByteView { bytes in
      if let before = bytes.lastIndex(in: value.start..<change.range.start, where: delimits),
        bytes[before] == UInt8(ascii: "&")
      {
        return true
      }
      guard let after = bytes.firstIndex(in: change.range.end..<value.end, where: delimits) else {
        return false
      }
      return bytes[after] == UInt8(ascii: ";")
    }
  }

  /// Whether the document has an `outline-disable` comment (which may hide what the change
  /// brings). A comment the change reached (edited or removed: its offsets in the new text are
  /// no range) counts as one.
  static func hasSuppression(_ tree: ItemTree, source: SourceText, change: AppliedChange) -> Bool {
    let directive: StaticString = "outline-disable"
    let oldEnd = change.range.start + change.removed.count
    return source.bytes.withByteView { bytes in
      tree.comments.contains { comment in
        if comment.end > change.range.start && comment.start < oldEnd { return true }
        let range = moved(comment, by: change)
        let text = min(range.start + 4, range.end)..<range.end
        let index = bytes.firstIndex(in: text) { !XMLName.isSpace($0) } ?? range.end
        return index + directive.utf8CodeUnitCount <= range.end && bytes.starts(with: directive, at: index)
      }
    }
  }

  private static func commit<Analysis: CarriedAnalysis>(
    _ plan: Plan, change: AppliedChange, to check: inout Analysis
  ) {
    var edited = ItemTree()
    swap(&edited, &check.tree!)
    move(&edited, item: plan.item, by: change)
    edited.items[plan.item].order = plan.order
    edited.items[plan.item].orderRange = plan.orderRange
    edited.items[plan.item].titleRange = plan.titleRange
    swap(&edited, &check.tree!)
    // The rest moved (their order stays: none starts inside the changed value), the new merged in.
    merge(removing: plan.removed, adding: plan.added, change: change, into: &check.diagnostics)
    check.suppression.moveScopes { moved($0, by: change) }
    if let inOrder = plan.childrenInOrder { check.childrenInOrder = inOrder }
  }

  /// Moves `diagnostics` (sorted by position) to the text after `change`,
  /// without those at `removed` (indices, ascending) and with `added` (at offsets of the new text).
  static func merge(
    removing removed: [Int], adding added: [Diagnostic], change: AppliedChange,
    into diagnostics: inout [Diagnostic]
  ) {
    var kept: [Diagnostic] = []
    kept.reserveCapacity(diagnostics.count - removed.count + added.count)
    var next = 0
    for (index, diagnostic) in diagnostics.enumerated() {
      if next < removed.count && removed[next] == index {
        next += 1
        continue
      }
      var shifted = diagnostic
      shifted.range = moved(diagnostic.range, by: change)
      for related in shifted.related.indices where shifted.related[related].file == nil {
        shifted.related[related].range = moved(shifted.related[related].range, by: change)
      }
      kept.append(shifted)
    }
    let added = Diagnostic.sortedByPosition(added)
    var merged: [Diagnostic] = []
    merged.reserveCapacity(kept.count + added.count)
    var left = 0
    var right = 0
    while left < kept.count || right < added.count {
      if right == added.count || (left < kept.count && !precedes(added[right], kept[left])) {
        merged.append(kept[left])
        left += 1
      } else {
        merged.append(added[right])
        right += 1
      }
    }
    if zip(merged, merged.dropFirst()).contains(where: { precedes($1, $0) }) {
      merged = Diagnostic.sortedByPosition(merged)
    }
    diagnostics = merged
  }
}
