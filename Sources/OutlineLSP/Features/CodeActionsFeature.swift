import JSONRPC
import OutlineCore
import OutlineEditing
import OutlineValidation

/// `textDocument/codeAction`: the renumber quick fix on order diagnostics,
/// `source.fixAll`, and the refactors on the item at the cursor (sort
/// siblings, move up, move down). Every edit is minimal and keeps a valid
/// document valid.
struct CodeActionsFeature {
  let mapper: PositionMapper
  let workspaceEdits: WorkspaceEdits

  /// The codes the renumber quick fix is offered for (OL300/OL301 only in an order value).
  static let orderCodes: Set<String> = ["OL400", "OL401", "OL402", "OL300", "OL301"]

  func actions(_ snapshot: Snapshot, _ params: LSP.CodeActionParams) throws -> [LSP.CodeAction] {
    guard let range = mapper.textRange(params.range, in: snapshot.source) else {
      throw ResponseError.invalidParams("range is not a range")
    }
    let analysis = snapshot.analysis
    guard analysis.parsed, let tree = analysis.tree, let model = analysis.model else { return [] }
    let source = snapshot.source
    let queries = DocumentQueries(source: source, analysis: analysis)
    let only = params.context.only
    func wanted(_ kind: LSP.CodeActionKind) -> Bool {
      guard let only else { return true }
      return only.contains { kind.isCovered(by: $0) }
    }
    var actions: [LSP.CodeAction] = []
    func action(
      _ title: String, _ kind: LSP.CodeActionKind, _ edits: [TextEdit], diagnostics: [LSP.Diagnostic] = [],
      preferred: Bool = false
    ) {
      guard !edits.isEmpty, wanted(kind) else { return }
      actions.append(
        LSP.CodeAction(
          title: title, kind: kind, diagnostics: diagnostics.isEmpty ? nil : diagnostics,
          isPreferred: preferred ? true : nil,
          edit: workspaceEdits.edit(snapshot, edits.map { mapper.edit($0, in: source) })))
    }

    // The diagnostics the client sent that this version still reports (after
    // the configuration's rules and the suppression comments): a fix never
    // touches what the user turned off, nor acts on a stale diagnostic.
    let sent = params.context.diagnostics
    var reported: Set<ReportedKey> = []
    if !sent.isEmpty {
      reported = Set(analysis.diagnostics.map { ReportedKey(code: $0.code.rawValue, start: $0.range.start) })
    }
    let current = sent.filter { diagnostic in
      guard let code = diagnostic.code, let at = mapper.textRange(diagnostic.range, in: source) else {
        return false
      }
      return reported.contains(ReportedKey(code: code, start: at.start))
    }

    // Quick fixes for the order diagnostics the client sent.
    var fixedParents: Set<Int> = []
    for diagnostic in current {
      guard let code = diagnostic.code, Self.orderCodes.contains(code),
        let at = mapper.textRange(diagnostic.range, in: source), let item = tree.item(at: at.start),
        Renumbering.repairs(DiagnosticCode(rawValue: code), at: at.start, item: item, in: tree),
        let group = SiblingEdits.group(of: item, tree: tree, model: model),
        !fixedParents.contains(group.parent)
      else { continue }
      fixedParents.insert(group.parent)
      action(
        "Renumber children of \(queries.label(group.parent))", .quickFix,
        Renumbering.edits(numbering: group, in: tree, source: source, model: model),
        diagnostics: [diagnostic],
        preferred: true)
    }
    // Ids that are not XML names: rename them, with every reference. One action an id, however
    // many of its places were reported (its definition, each reference): the same edit each.
    var idIndex: ReferenceIndex?
    var idFixes: [(id: String, title: String, edits: [TextEdit], diagnostics: [LSP.Diagnostic])] = []
    for diagnostic in current {
      guard diagnostic.code == DiagnosticCode.idNotName.rawValue,
        let at = mapper.textRange(diagnostic.range, in: source)
      else { continue }
      let id = source.string(in: at)
      if let known = idFixes.firstIndex(where: { $0.id == id }) {
        idFixes[known].diagnostics.append(diagnostic)
        continue
      }
      if idIndex == nil { idIndex = ReferenceIndex(tree: tree, source: source, model: model) }
      guard let fix = IDNameFix.fix(at: at, ids: idIndex!, source: source) else { continue }
      idFixes.append(
        (id, "Rename id \(Excerpt.quoted(id)) to \(Excerpt.quoted(fix.name))", fix.edits, [diagnostic]))
    }
    for fix in idFixes {
      action(fix.title, .quickFix, fix.edits, diagnostics: fix.diagnostics, preferred: true)
    }
    // Remove values Core Data would overwrite (derived attributes).
    for diagnostic in current {
      guard let code = diagnostic.code, RemoveAttributeFix.codes.contains(code),
        let at = mapper.textRange(diagnostic.range, in: source),
        let edit = RemoveAttributeFix.edit(removingAttributeAt: at.start, in: source)
      else { continue }
      action(
        "Remove \(Excerpt.quoted(source.string(in: at))) (derived)", .quickFix, [edit],
        diagnostics: [diagnostic],
        preferred: true)
    }
    // Conflicts `outline merge` recorded (OL600): pick a side (MergeConflictFix.swift).
    for diagnostic in current where diagnostic.code == DiagnosticCode.mergeConflict.rawValue {
      for choice in MergeConflictFix.choices(diagnostic, mapper: mapper, source: source, tree: tree) {
        action(
          choice.title, .quickFix, choice.edits, diagnostics: [diagnostic], preferred: choice.isPreferred)
      }
    }
    if wanted(.quickFix) {
      actions += VersionFeatures(mapper: mapper, workspaceEdits: workspaceEdits).actions(
        snapshot, range: range, sent: current)
    }
    action(
      "Renumber every broken sibling group", .sourceFixAll,
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
          "Sort siblings by order", .refactorRewrite, SiblingEdits.sort(group, tree: tree, source: source))
      }
      if position > 0 {
        action(
          "Move up: \(label)", .refactorRewrite,
          SiblingEdits.swap(item, group.children[position - 1], tree: tree, source: source))
      }
      if position + 1 < group.children.count {
        action(
          "Move down: \(label)", .refactorRewrite,
          SiblingEdits.swap(item, group.children[position + 1], tree: tree, source: source))
      }
      if case .success(let edits) = StructureEdits.indent(item, tree: tree, source: source, model: model) {
        action("Indent: \(label)", .refactorRewrite, edits)
      }
      if case .success(let edits) = StructureEdits.outdent(item, tree: tree, source: source, model: model) {
        action("Outdent: \(label)", .refactorRewrite, edits)
      }
    }
    // Delete, in an unordered relationship or a valid sibling group; a
    // refusal by the delete rules is offered disabled, with its reason.
    if let item = tree.item(at: range.start), item > 0, wanted(.refactorRewrite),
      StructureEdits.groupRefusal(deleting: item, tree: tree, model: model) == nil
    {
      let label = queries.label(item)
      switch StructureEdits.delete(item, tree: tree, source: source, model: model) {
      case .success(let edits):
        action("Delete item: \(label)", .refactorRewrite, edits)
      case .failure(let refusal):
        actions.append(
          LSP.CodeAction(
            title: "Delete item: \(label)", kind: .refactorRewrite,
            disabled: LSP.CodeActionDisabled(reason: refusal.reason)))
      }
    }
    return actions
  }
}

/// A reported diagnostic, as a client names it back: its code and where it starts.
private struct ReportedKey: Hashable {
  var code: String
  var start: Int
}
