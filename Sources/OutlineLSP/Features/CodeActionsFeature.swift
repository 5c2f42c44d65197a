import JSONRPC
import OutlineCore
import OutlineEditing
import OutlineJSON
import OutlineValidation

/// `textDocument/codeAction`: the renumber quick fix on order diagnostics,
/// `source.fixAll`, and the refactors on the item at the cursor (sort
/// siblings, move up, move down). Every edit is minimal and keeps a valid
/// document valid.
struct CodeActionsFeature {
  let mapper: PositionMapper

  static let orderCodes: Set<String> = ["OL400", "OL401", "OL402", "OL300"]

  func actions(_ snapshot: Snapshot, _ params: JSONValue) throws -> JSONValue {
    guard let range = mapper.textRange(params["range"], in: snapshot.source) else {
      throw ResponseError.invalidParams("range is missing or not a range")
    }
    let analysis = snapshot.analysis
    guard analysis.parsed, let tree = analysis.tree, let model = analysis.model else { return [] }
    let source = snapshot.source
    let queries = DocumentQueries(source: source, analysis: analysis)
    let only = params["context"]?["only"]?.arrayValue?.compactMap(\.stringValue)
    func wanted(_ kind: String) -> Bool {
      guard let only else { return true }
      return only.contains { kind == $0 || kind.hasPrefix($0 + ".") }
    }
    var actions: [JSONValue] = []
    func action(
      _ title: String, _ kind: String, _ edits: [TextEdit], diagnostics: [JSONValue] = [],
      preferred: Bool = false
    ) {
      guard !edits.isEmpty, wanted(kind) else { return }
      var value: [(String, JSONValue)] = [
        ("title", .string(title)), ("kind", .string(kind)),
        ("edit", WorkspaceEdits.edit(snapshot, edits.map { mapper.edit($0, in: source) })),
      ]
      if !diagnostics.isEmpty { value.append(("diagnostics", .array(diagnostics))) }
      if preferred { value.append(("isPreferred", true)) }
      actions.append(.object(value))
    }

    // The diagnostics the client sent that this version still reports (after
    // the configuration's rules and the suppression comments): a fix never
    // touches what the user turned off, nor acts on a stale diagnostic.
    let sent = params["context"]?["diagnostics"]?.arrayValue ?? []
    var reported: Set<ReportedKey> = []
    if !sent.isEmpty {
      reported = Set(analysis.diagnostics.map { ReportedKey(code: $0.code.rawValue, start: $0.range.start) })
    }
    let current = sent.filter { diagnostic in
      guard let code = diagnostic["code"]?.stringValue,
        let at = mapper.textRange(diagnostic["range"], in: source)
      else { return false }
      return reported.contains(ReportedKey(code: code, start: at.start))
    }

    // Quick fixes for the order diagnostics the client sent.
    var fixedParents: Set<Int> = []
    for diagnostic in current {
      guard let code = diagnostic["code"]?.stringValue, Self.orderCodes.contains(code),
        let at = mapper.textRange(diagnostic["range"], in: source), let item = tree.item(at: at.start),
        let group = SiblingEdits.group(of: item, tree: tree, model: model),
        !fixedParents.contains(group.parent)
      else { continue }
      fixedParents.insert(group.parent)
      action(
        "Renumber children of \(queries.label(group.parent))", "quickfix",
        Renumbering.edits(numbering: group, in: tree, source: source, model: model),
        diagnostics: [diagnostic],
        preferred: true)
    }
    // Ids that are not XML names: rename them, with every reference.
    var idIndex: ReferenceIndex?
    for diagnostic in current {
      guard diagnostic["code"]?.stringValue == DiagnosticCode.idNotName.rawValue,
        let at = mapper.textRange(diagnostic["range"], in: source)
      else { continue }
      if idIndex == nil { idIndex = ReferenceIndex(tree: tree, source: source, model: model) }
      guard let fix = IDNameFix.fix(at: at, ids: idIndex!, source: source) else { continue }
      action(
        "Rename id '\(source.string(in: at))' to '\(fix.name)'", "quickfix", fix.edits,
        diagnostics: [diagnostic],
        preferred: true)
    }
    // Remove values Core Data would overwrite (derived attributes).
    for diagnostic in current {
      guard let code = diagnostic["code"]?.stringValue, RemoveAttributeFix.codes.contains(code),
        let at = mapper.textRange(diagnostic["range"], in: source),
        let edit = RemoveAttributeFix.edit(removingAttributeAt: at.start, in: source)
      else { continue }
      action(
        "Remove '\(source.string(in: at))' (derived)", "quickfix", [edit], diagnostics: [diagnostic],
        preferred: true)
    }
    action(
      "Renumber every broken sibling group", "source.fixAll",
      Renumbering.fixAll(tree: tree, source: source, model: model, reported: analysis.diagnostics))

    // Refactors on the item at the cursor.
    if let item = tree.item(at: range.start), item > 0,
      let group = SiblingEdits.group(of: item, tree: tree, model: model),
      Renumbering.isValid(group, in: tree)
    {
      let label = queries.label(item)
      let position = group.children.firstIndex(of: item)!
      let inOrder = group.children.enumerated().allSatisfy {
        tree.items[$0.element].order == Int64($0.offset)
      }
      if !inOrder {
        action(
          "Sort siblings by order", "refactor.rewrite", SiblingEdits.sort(group, tree: tree, source: source))
      }
      if position > 0 {
        action(
          "Move up: \(label)", "refactor.rewrite",
          SiblingEdits.swap(item, group.children[position - 1], tree: tree, source: source))
      }
      if position + 1 < group.children.count {
        action(
          "Move down: \(label)", "refactor.rewrite",
          SiblingEdits.swap(item, group.children[position + 1], tree: tree, source: source))
      }
      if case .success(let edits) = StructureEdits.indent(item, tree: tree, source: source, model: model) {
        action("Indent: \(label)", "refactor.rewrite", edits)
      }
      if case .success(let edits) = StructureEdits.outdent(item, tree: tree, source: source, model: model) {
        action("Outdent: \(label)", "refactor.rewrite", edits)
      }
    }
    if let item = tree.item(at: range.start), item > 0, wanted("refactor.rewrite") {
      let label = queries.label(item)
      switch StructureEdits.delete(item, tree: tree, source: source, model: model) {
      case .success(let edits):
        action("Delete item: \(label)", "refactor.rewrite", edits)
      case .failure(let refusal):
        actions.append(
          [
            "title": .string("Delete item: \(label)"), "kind": "refactor.rewrite",
            "disabled": ["reason": .string(refusal.reason)],
          ])
      }
    }
    return .array(actions)
  }
}

/// A reported diagnostic, as a client names it back: its code and where it starts.
private struct ReportedKey: Hashable {
  var code: String
  var start: Int
}
