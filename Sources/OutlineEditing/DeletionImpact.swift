import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation

/// What deleting an item would remove, following the model's delete rules
/// as Core Data applies them: the item's subtree always; for each reference
/// a deleted object holds, its relationship's rule (Cascade deletes the named
/// objects, Deny refuses while they remain); for each reference to a deleted
/// object, the inverse relationship's rule. The code lens on items with
/// children shows its count.
///
/// The references are indexed once; each question then costs time linear in
/// the document (one flag per item) plus the objects and references reached.
public struct DeletionImpact: Sendable {
  /// The objects a deletion removes.
  public struct Closure: Sendable {
    /// One flag per item.
    public var deleted: [Bool]
    /// How many items are deleted.
    public var count: Int
    /// The items whose subtrees were deleted whole, in the order they were reached.
    public var roots: [Int]
  }

  private let tree: ItemTree
  private let model: Model
  /// The references of the document.
  public let references: ReferenceIndex
  /// The item defining each id.
  private let ids: [String: Int]
  /// Per item, the references it holds (indexes in `references.references`).
  private let held: [Int: [Int]]
  /// Per item, the references naming it: (reference index).
  private let naming: [Int: [Int]]
  /// The items defining an id another item defines too that some reference names: which of
  /// them it names is not known, so the rules cannot be applied to them.
  private let ambiguous: [Int: String]

  /// Indexes the references of `tree` once.
  public init(tree: ItemTree, source: SourceText, model: Model, references: ReferenceIndex? = nil) {
    self.tree = tree
    self.model = model
    let references = references ?? ReferenceIndex(tree: tree, source: source, model: model)
    self.references = references
    let ids = references.definitions.mapValues(\.item)
    self.ids = ids
    var held: [Int: [Int]] = [:]
    var naming: [Int: [Int]] = [:]
    var ambiguous: [Int: String] = [:]
    for (index, reference) in references.references.enumerated() {
      held[reference.holder, default: []].append(index)
      for target in reference.targets {
        if let item = ids[target.id] { naming[item, default: []].append(index) }
        if let definitions = references.duplicates[target.id], ambiguous[definitions[0].item] == nil {
          for definition in definitions { ambiguous[definition.item] = target.id }
        }
      }
    }
    self.held = held
    self.naming = naming
    self.ambiguous = ambiguous
  }

  /// The number of objects deleting `item` removes (the item, its
  /// descendants and what the rules cascade to), or why it is refused.
  public func count(deleting item: Int) -> Result<Int, EditRefusal> {
    closure(deleting: item).map(\.count)
  }

  /// Everything deleting `item` removes, or the Deny rule that refuses it (or an id the rules
  /// would follow that is defined more than once: which object it names is not known).
  public func closure(deleting item: Int) -> Result<Closure, EditRefusal> {
    guard item > 0, item < tree.items.count else {
      return .failure(EditRefusal(reason: "The root object cannot be deleted"))
    }
    var deleted = [Bool](repeating: false, count: tree.items.count)
    var count = 0
    var roots: [Int] = []
    var queue: [Int] = []
    func deleteSubtree(_ root: Int) {
      roots.append(root)
      var index = root
      let end = Int(tree.items[root].subtreeEnd)
      while index < end {
        // A deleted item's subtree is deleted already.
        if deleted[index] {
          index = Int(tree.items[index].subtreeEnd)
          continue
        }
        deleted[index] = true
        count += 1
        queue.append(index)
        index += 1
      }
    }
    deleteSubtree(item)
    var next = 0
    while next < queue.count {
      let current = queue[next]
      next += 1
      // An object the deletion reaches (itself, or by a Cascade) whose id is ambiguous.
      if let id = ambiguous[current] { return .failure(references.duplicateRefusal(id, before: "deleting")!) }
      for index in held[current] ?? [] {
        let reference = references.references[index]
        guard relationship(of: reference).deletionRule == .cascade else { continue }
        for target in reference.targets {
          if let object = ids[target.id], !deleted[object] { deleteSubtree(object) }
        }
      }
      for index in naming[current] ?? [] {
        let holder = references.references[index].holder
        if !deleted[holder], inverseRule(of: references.references[index]) == .cascade {
          deleteSubtree(holder)
        }
      }
    }
    if deleted[0] {
      return .failure(EditRefusal(reason: "The delete rules would delete the root object"))
    }
    // Deny refuses when a deleted object still names a surviving one, or a
    // surviving object names a deleted one through a Deny inverse.
    for current in queue {
      for index in held[current] ?? [] {
        let reference = references.references[index]
        let relationship = relationship(of: reference)
        guard relationship.deletionRule == .deny else { continue }
        if let target = reference.targets.first(where: { ids[$0.id].map { !deleted[$0] } ?? false }) {
          return .failure(
            EditRefusal(
              reason:
                "\(Excerpt.quoted(relationship.name)) of a deleted object still names \(Excerpt.quoted(target.id)) and its delete rule is Deny"
            ))
        }
      }
      for index in naming[current] ?? [] {
        let reference = references.references[index]
        guard !deleted[reference.holder], inverseRule(of: reference) == .deny,
          let target = reference.targets.first(where: { ids[$0.id] == current }),
          let destination = relationship(of: reference).destination,
          let inverse = relationship(of: reference).inverse
        else { continue }
        let name = model.entities[destination].relationships[inverse].name
        return .failure(
          EditRefusal(
            reason:
              "\(Excerpt.quoted(target.id)) is named by \(Excerpt.quoted(relationship(of: reference).name)) and its \(Excerpt.quoted(name)) delete rule is Deny"
          ))
      }
    }
    return .success(Closure(deleted: deleted, count: count, roots: roots))
  }

  private func relationship(of reference: ReferenceIndex.Reference) -> Relationship {
    model.entities[Int(tree.items[reference.holder].entity)].relationships[reference.relationship]
  }

  /// The rule of the relationship's inverse (what the named object's side says), if it has one.
  private func inverseRule(of reference: ReferenceIndex.Reference) -> DeletionRule? {
    let relationship = relationship(of: reference)
    guard let destination = relationship.destination, let inverse = relationship.inverse else { return nil }
    return model.entities[destination].relationships[inverse].deletionRule
  }

  /// The items a code lens is shown on: those with children, each with its number of descendants.
  public static func itemsWithChildren(_ tree: ItemTree, in range: TextRange? = nil) -> [(
    item: Int, descendants: Int
  )] {
    var result: [(Int, Int)] = []
    for (index, item) in tree.items.enumerated() where item.subtreeEnd > Int32(index + 1) {
      if let range, !(item.startTag.start >= range.start && item.startTag.start < range.end) { continue }
      result.append((index, Int(item.subtreeEnd) - index - 1))
    }
    return result
  }
}
