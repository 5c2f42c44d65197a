import Foundation
import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// An edit of markup inside one item (an item typed between its children, a
/// subtree pasted, cut or deleted, an attribute added, anything in a child
/// list), analyzed by parsing that item's element alone and splicing it
/// into the previous analysis.
///
/// The item is the smallest one other than the root whose element holds
/// the changed range, not at its first or last byte, before and after the
/// change. Its new element is parsed and validated by the full pass's own
/// parser and validator inside a copy of the document's prologue and its
/// ancestors' start tags (so names, namespaces, containment and the messages
/// that name a parent read as in the document), and only what lies in the
/// element is kept. What the element contributes elsewhere is then bounded:
///
/// - its parent's child counts: the new element must be the same entity in
///   the same relationship, so they stay;
/// - its sibling group's orders (OL401-OL403), checked again from the orders
///   in the item tree (``CarriedAnalysis/childrenInOrder`` false when a group is out of order);
/// - the duplicates of every id defined in the element before or after the
///   change (OL500), found through ``IDDirectory`` (made here when needed),
///   when the document writes no reference and its model has no uniqueness
///   constraints (the ids then count nowhere else);
/// - counts of relationships an object may also be named in by reference:
///   without references only its own children count, in the element, when
///   none of its ids is used twice (which object is first then depends on the rest);
/// - references elsewhere in the document: they resolve as before when the
///   element writes none and defines no id, before and after the change;
/// - `outline-disable` comments: what the element brings is filtered by the
///   document's, when none is in the element and none covers a start tag in
///   the change or waits for the next one at it.
///
/// Anything else is analyzed afresh: a new element that is not well formed
/// (libxml2's recovery and messages, which name lines, may differ from the
/// whole document's) or holds text, references in the element or to its
/// ids, models with uniqueness constraints, an edit at the root's level.
public enum MarkupEdit {
  /// Moves `check`, the previous version's analysis, to the text after
  /// `change`; false, with `check` untouched, when the change does not qualify.
  /// `ids` is the directory of the ids of `check`'s tree, if made, kept in step. `rules` are
  /// the document's rules (its configuration's and the editor's) applied to findings.
  public static func apply<Analysis: CarriedAnalysis>(
    _ change: AppliedChange, to check: inout Analysis, source: SourceText,
    rules: ([Diagnostic]) -> [Diagnostic], ids: inout IDDirectory?
  ) -> Bool {
    guard !check.isJSONForm, check.parsed, let model = check.model, check.tree != nil,
      let plan = plan(
        change, check: check, tree: check.tree!, model: model, source: source, rules: rules, ids: ids)
    else { return false }
    commit(plan, change: change, to: &check)
    // The directory follows the new numbering.
    if let directory = plan.ids {
      directory.splice(plan.newIDs, replacing: plan.old, by: plan.new.count)
      ids = directory
    }
    return true
  }

  /// What the change does to the analysis.
  private struct Plan {
    /// The items the change replaces (previous numbering) and those replacing them, bound, at offsets of the new text.
    var old: Range<Int>
    var new: [Item]
    /// The comments and the processing instructions in the new element.
    var comments: [TextRange]
    var instructions: [TextRange]
    /// Indices of the previous diagnostics the change removes.
    var removed: [Int]
    /// The diagnostics it adds, at offsets of the new text.
    var added: [Diagnostic]
    /// The directory of ids when the change needed it, and the keys of the new element's ids (new numbering).
    var ids: IDDirectory?
    var newIDs: [(key: Int, item: Int32)]
    /// False when the change leaves a sibling group out of order (nil: as it was).
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
    guard !schema.uniqueness.hasChecks.contains(true),
      var item = AttributeEdit.item(at: start, in: tree)
    else { return nil }
    // The smallest item holding the change inside its element.
    while item > 0
      && !(tree.items[item].startTag.start < start && oldEnd < tree.items[item].fullRange.end)
    {
      item = Int(tree.items[item].parent)
    }
    guard item > 0 else { return nil }
    // With `outline-disable` comments, what they cover must stay as it was: none in the element before
    // or after, no covered start tag in the change, none waiting for the next start tag at the change.
    let suppressed = AttributeEdit.hasSuppression(tree, source: source, change: change)
    if suppressed {
      guard !check.suppression.hasScope(overlapping: TextRange(start: start, end: oldEnd)),
        !directiveWaits(before: start, tree: tree, source: source)
      else { return nil }
    }
    let bound = tree.items[item]
    let oldElement = bound.fullRange
    let newElement = TextRange(start: oldElement.start, end: oldElement.end + delta)
    var oldBytes = Array(source.bytes[newElement.start..<start])
    oldBytes.append(contentsOf: change.removed)
    oldBytes.append(contentsOf: source.bytes[change.range.end..<newElement.end])
    guard !mentionsSuppression(source.bytes, in: newElement),
      !mentionsSuppression(oldBytes, in: TextRange(start: 0, end: oldBytes.count))
    else { return nil }
    // The document around the element: its prologue, its ancestors' start tags, their end tags.
    var ancestors: [Int] = []
    var ancestor = Int(bound.parent)
    while ancestor >= 0 {
      ancestors.append(ancestor)
      ancestor = Int(tree.items[ancestor].parent)
    }
    ancestors.reverse()
    var text = Array(source.bytes[0..<tree.items[0].startTag.start])
    for ancestor in ancestors {
      let tag = tree.items[ancestor].startTag
      text.append(contentsOf: source.bytes[tag.start..<tag.end])
    }
    let elementStart = text.count
    text.append(contentsOf: source.bytes[newElement.start..<newElement.end])
    let elementEnd = text.count
    for ancestor in ancestors.reversed() {
      text.append(contentsOf: "</".utf8)
      text.append(
        contentsOf: source.bytes[tree.items[ancestor].nameRange.start..<tree.items[ancestor].nameRange.end])
      text.append(UInt8(ascii: ">"))
    }
    let shift = newElement.start - elementStart
    let validator = OutlineValidator(modelProvider: fixedModel(model), buildTree: true)
    XMLEventParser.parse(text, handler: validator)
    validator.finish()
    if check.madeReferences {
      // References elsewhere are bounded when the element wrote none before either (nor defines ids, below).
      var previous = Array(text[..<elementStart])
      previous.append(contentsOf: oldBytes)
      previous.append(contentsOf: text[elementEnd...])
      let before = OutlineValidator(modelProvider: fixedModel(model), buildTree: false)
      XMLEventParser.parse(previous, handler: before)
      before.finish()
      guard !before.madeReferences else { return nil }
    }
    // One element, exactly the edited one's extent, the same entity in the same relationship.
    let top = ancestors.count
    guard !validator.madeReferences, let parsed = validator.tree, parsed.items.count > top,
      !validator.diagnostics.contains(where: {
        $0.code == .notWellFormed || $0.code == .doctypePresent || $0.code == .textInObject
      }),
      parsed.items[top].fullRange == TextRange(start: elementStart, end: elementEnd),
      Int(parsed.items[top].subtreeEnd) == parsed.items.count, Int(parsed.items[top].parent) == top - 1,
      parsed.items[top].entity == bound.entity, parsed.items[top].relationship == bound.relationship
    else { return nil }
    func mapped(_ range: TextRange) -> TextRange {
      TextRange(start: range.start + shift, end: range.end + shift)
    }
    // The new items, renumbered from the edited one's number and moved to the document's offsets.
    let renumber = Int32(item - top)
    var newItems = Array(parsed.items[top...])
    for index in newItems.indices {
      newItems[index].parent = index == 0 ? bound.parent : newItems[index].parent + renumber
      newItems[index].subtreeEnd += renumber
      newItems[index].startTag = mapped(newItems[index].startTag)
      newItems[index].endTag = newItems[index].endTag.map(mapped)
      newItems[index].orderRange = newItems[index].orderRange.map(mapped)
      newItems[index].titleRange = newItems[index].titleRange.map(mapped)
      newItems[index].idRange = newItems[index].idRange.map(mapped)
    }
    let comments = parsed.comments.filter { $0.start >= elementStart && $0.end <= elementEnd }.map(mapped)
    let instructions = parsed.instructions.filter { $0.start >= elementStart && $0.end <= elementEnd }.map(
      mapped)
    // The element's diagnostics; its sibling group's orders and its ids' duplicates are found below.
    let topEntry = newItems[0].orderRange ?? newItems[0].nameRange
    let groupCodes: Set<DiagnosticCode> = [.duplicateOrder, .orderOutOfSequence, .orderNotDocumentOrder]
    var added: [Diagnostic] = validator.diagnostics.compactMap { found in
      guard found.range.start >= elementStart, found.range.end <= elementEnd, found.code != .duplicateID
      else {
        return nil
      }
      var diagnostic = found
      diagnostic.range = mapped(found.range)
      if groupCodes.contains(diagnostic.code) && diagnostic.range == topEntry { return nil }
      for related in diagnostic.related.indices where diagnostic.related[related].file == nil {
        diagnostic.related[related].range = mapped(diagnostic.related[related].range)
      }
      return diagnostic
    }
    // Suppression, then the configuration's rules, as a full pass applies them (new diagnostics are
    // looked up at their offsets in the previous text: no covered start tag moved but by the change).
    func before(_ found: [Diagnostic]) -> [Diagnostic] {
      rules(suppressed ? check.suppression.filter(found) : found)
    }
    func after(_ found: [Diagnostic]) -> [Diagnostic] {
      guard suppressed else { return rules(found) }
      let kept = found.filter { diagnostic in
        var old = diagnostic
        old.range = TextRange(start: unmoved(diagnostic.range.start), end: unmoved(diagnostic.range.end))
        return !check.suppression.filter([old]).isEmpty
      }
      return rules(kept)
    }
    func unmoved(_ offset: Int) -> Int {
      offset >= change.range.end ? offset - delta : offset > start ? start : offset
    }
    added = after(added)
    var removed = Set<Int>()
    // The sibling group's diagnostics at the element's order stay unless its order moves or changes.
    let oldEntry = bound.orderRange ?? bound.nameRange
    for (index, diagnostic) in check.diagnostics.enumerated() {
      let range = diagnostic.range
      if range.start >= oldElement.start && range.end <= oldElement.end {
        if diagnostic.code != .duplicateID && !(groupCodes.contains(diagnostic.code) && range == oldEntry) {
          removed.insert(index)
        }
      } else if range.start < oldElement.end && range.end > oldElement.start {
        // Across the element's edge (a text run the parser placed wrong): what it was is not bounded.
        return nil
      }
    }
    var gone: [Diagnostic] = []
    var childrenInOrder: Bool? = inOrder(newItems, first: item, schema: schema) ? nil : false
    if bound.order != newItems[0].order || moved(oldEntry, change) != topEntry,
      let group = AttributeEdit.siblingOrders(
        of: item, tree: tree, schema: schema, source: source, change: change, order: newItems[0].order,
        orderRange: newItems[0].orderRange)
    {
      let label = AttributeEdit.label(Int(bound.parent), tree: tree, schema: schema, source: source)
      let old = OutlineValidator.checkSiblingOrders(group.before, parent: label)
      let new = OutlineValidator.checkSiblingOrders(group.after, parent: label)
      gone += before(old.diagnostics)
      added += after(new.diagnostics)
      if !new.inOrder { childrenInOrder = false }
    }
    // The ids defined in the element before and after the change.
    let oldItems = item..<Int(bound.subtreeEnd)
    var directory = ids
    var newIDs: [(key: Int, item: Int32)] = []
    let hadIDs = tree.items[oldItems].contains { $0.idRange != nil }
    let hasIDs = newItems.contains { $0.idRange != nil }
    // (References may name any id: with references, the element's ids are not bounded.)
    if check.madeReferences && (hadIDs || hasIDs) { return nil }
    if hadIDs || hasIDs {
      let duplicates = duplicateIDs(
        old: oldItems, oldBytes: oldBytes, new: newItems, tree: tree, source: source, change: change,
        ids: ids)
      // The first object with an id has the counts of relationships others may name it in checked
      // with the file's references, any later one as it ends: with an id used twice, which one is first
      // depends on the rest of the file.
      if schema.trackedCount.contains(where: { $0 > 0 })
        && !(duplicates.before.isEmpty && duplicates.after.isEmpty)
      {
        return nil
      }
      directory = duplicates.ids
      newIDs = duplicates.newKeys
      gone += before(duplicates.before)
      added += after(duplicates.after)
    }
    guard let found = AttributeEdit.indices(of: gone, in: check.diagnostics) else { return nil }
    removed.formUnion(found)
    return Plan(
      old: oldItems, new: newItems, comments: comments, instructions: instructions, removed: removed.sorted(),
      added: added,
      ids: directory, newIDs: newIDs, childrenInOrder: childrenInOrder)
  }

  /// Whether an `outline-disable` comment lies between the last start tag that begins before
  /// `offset` and `offset` (an `outline-disable-next` there covers the next start tag, at or after it).
  private static func directiveWaits(before offset: Int, tree: ItemTree, source: SourceText) -> Bool {
    let low = Partition.point(tree.items.count) { tree.items[$0].startTag.start < offset }
    let after = low > 0 ? tree.items[low - 1].startTag.start : 0
    return tree.comments.contains { comment in
      comment.start > after && comment.start < offset
        && mentionsSuppression(
          source.bytes, in: TextRange(start: comment.start, end: min(comment.end, offset)))
    }
  }

  /// Whether `range` of `bytes` holds `outline-disable` (in a comment, or anywhere).
  private static func mentionsSuppression(_ bytes: [UInt8], in range: TextRange) -> Bool {
    bytes.withByteView(range.start..<range.end) { $0.firstIndex(of: "outline-disable", from: 0) != nil }
  }

  /// Whether the children of every item in `items` (numbered from `first`)
  /// come grouped by relationship and numbered in document order, as the
  /// validator's ``OutlineValidator/childrenInOrder`` reads them.
  private static func inOrder(_ items: [Item], first: Int, schema: ModelIndex) -> Bool {
    var groups: [Int32] = []
    var counts: [Int64] = []
    for parent in items.indices where Int(items[parent].subtreeEnd) - first > parent + 1 {
      let parentEntity = Int(items[parent].entity)
      guard parentEntity >= 0 else { continue }
      groups.removeAll(keepingCapacity: true)
      counts.removeAll(keepingCapacity: true)
      var child = parent + 1
      let end = Int(items[parent].subtreeEnd) - first
      while child < end {
        let bound = items[child]
        child = Int(bound.subtreeEnd) - first
        let relationship = bound.relationship
        guard relationship >= 0 else { continue }
        var group = groups.lastIndex(of: relationship) ?? -1
        if group < 0 {
          groups.append(relationship)
          counts.append(0)
          group = groups.count - 1
        } else if group != groups.count - 1 {
          return false
        }
        guard !schema.isOrdered[parentEntity][Int(relationship)], bound.entity >= 0,
          schema.orderAttribute[Int(bound.entity)] >= 0
        else { continue }
        guard bound.order == counts[group] else { return false }
        counts[group] += 1
      }
    }
    return true
  }

  private static func moved(_ range: TextRange, _ change: AppliedChange) -> TextRange {
    AttributeEdit.moved(range, by: change)
  }

  /// The duplicate-id diagnostics of every object whose id is one defined in
  /// the edited element before the change (`old` items, whose text was
  /// `oldBytes` from the element's start) or after it (`new`), before the
  /// change and after it; the directory of ids they were found in (`ids`, or
  /// made now, with the previous numbering) and the keys of the new items' ids.
  private static func duplicateIDs(
    old: Range<Int>, oldBytes: [UInt8], new: [Item], tree: ItemTree, source: SourceText,
    change: AppliedChange,
    ids: IDDirectory?
  ) -> (before: [Diagnostic], after: [Diagnostic], ids: IDDirectory, newKeys: [(key: Int, item: Int32)]) {
    let elementStart = tree.items[old.lowerBound].startTag.start
    func oldRaw(_ index: Int, _ range: TextRange) -> [UInt8] {
      if old.contains(index) {
        return Array(oldBytes[(range.start - elementStart)..<(range.end - elementStart)])
      }
      let now = moved(range, change)
      return Array(source.bytes[now.start..<now.end])
    }
    let directory =
      ids
      ?? IDDirectory(tree: tree) { index, range in
        if old.contains(index) {
          return oldBytes.withByteView((range.start - elementStart)..<(range.end - elementStart)) {
            IDDirectory.key(ofRaw: $0)
          }
        }
        let now = moved(range, change)
        return source.bytes.withByteView(now.start..<now.end) { IDDirectory.key(ofRaw: $0) }
      }
    // The ids in question, decoded.
    var wanted = Set<[UInt8]>()
    var before: [(raw: [UInt8], range: TextRange)] = []
    var after: [(raw: [UInt8], range: TextRange)] = []
    var newKeys: [(key: Int, item: Int32)] = []
    for index in old where tree.items[index].idRange != nil {
      wanted.insert(Array(XMLEscaping.decodeAttribute(oldRaw(index, tree.items[index].idRange!)).utf8))
    }
    for (offset, newItem) in new.enumerated() {
      guard let range = newItem.idRange else { continue }
      let raw = Array(source.bytes[range.start..<range.end])
      let id = Array(XMLEscaping.decodeAttribute(raw).utf8)
      wanted.insert(id)
      after.append((raw, range))
      newKeys.append(
        (raw.withByteView { IDDirectory.key(ofRaw: $0) }, Int32(old.lowerBound + offset)))
    }
    after.removeAll { !wanted.contains(Array(XMLEscaping.decodeAttribute($0.raw).utf8)) }
    var candidates = Set<Int32>()
    for id in wanted { candidates.formUnion(directory.candidates(id)) }
    for candidate in candidates.sorted() {
      let index = Int(candidate)
      guard let range = tree.items[index].idRange else { continue }
      let raw = oldRaw(index, range)
      guard wanted.contains(Array(XMLEscaping.decodeAttribute(raw).utf8)) else { continue }
      before.append((raw, range))
      if !old.contains(index) { after.append((raw, moved(range, change))) }
    }
    before.sort { $0.range.start < $1.range.start }
    after.sort { $0.range.start < $1.range.start }
    return (
      OutlineValidator.checkDuplicateIDs(before), OutlineValidator.checkDuplicateIDs(after), directory,
      newKeys
    )
  }

  private static func commit<Analysis: CarriedAnalysis>(
    _ plan: Plan, change: AppliedChange, to check: inout Analysis
  ) {
    var edited = ItemTree()
    swap(&edited, &check.tree!)
    let delta = change.delta
    let count = Int32(plan.new.count - plan.old.count)
    let oldEnd = Int32(plan.old.upperBound)
    func shifted(_ range: TextRange) -> TextRange {
      TextRange(start: range.start + delta, end: range.end + delta)
    }
    var ancestor = Int(edited.items[plan.old.lowerBound].parent)
    while ancestor >= 0 {
      edited.items[ancestor].endTag = edited.items[ancestor].endTag.map(shifted)
      edited.items[ancestor].subtreeEnd += count
      ancestor = Int(edited.items[ancestor].parent)
    }
    edited.items.updateEach(in: plan.old.upperBound..<edited.items.count) { item in
      if item.parent >= oldEnd { item.parent += count }
      item.subtreeEnd += count
      guard delta != 0 else { return }
      item.startTag = shifted(item.startTag)
      if let range = item.endTag { item.endTag = shifted(range) }
      if let range = item.orderRange { item.orderRange = shifted(range) }
      if let range = item.titleRange { item.titleRange = shifted(range) }
      if let range = item.idRange { item.idRange = shifted(range) }
    }
    edited.items.replaceSubrange(plan.old, with: plan.new)
    let element = TextRange(
      start: plan.new[0].startTag.start, end: plan.new[0].fullRange.end - delta)
    /// `ranges` (previous offsets) without those in the element and with `added` (the new
    /// element's, new offsets) in their place.
    func spliced(_ ranges: [TextRange], adding added: [TextRange]) -> [TextRange] {
      var result: [TextRange] = []
      result.reserveCapacity(ranges.count + added.count)
      var inserted = false
      for range in ranges {
        if range.start >= element.start && range.end <= element.end { continue }
        if !inserted && range.start >= element.end {
          result.append(contentsOf: added)
          inserted = true
        }
        result.append(moved(range, change))
      }
      if !inserted { result.append(contentsOf: added) }
      return result
    }
    edited.comments = spliced(edited.comments, adding: plan.comments)
    edited.instructions = spliced(edited.instructions, adding: plan.instructions)
    swap(&edited, &check.tree!)
    AttributeEdit.merge(removing: plan.removed, adding: plan.added, change: change, into: &check.diagnostics)
    check.suppression.moveScopes { moved($0, change) }
    if let inOrder = plan.childrenInOrder { check.childrenInOrder = inOrder }
  }
}
