import JSONRPC
import OutlineCore
import OutlineEditing
import OutlineJSON
import OutlineValidation

/// `textDocument/codeLens` and `codeLens/resolve`: on each item with
/// children, the number of its descendants, and what deleting it would
/// remove by the model's delete rules (``DeletionImpact``). The count of
/// descendants comes with the lens; the deletion count is computed when the
/// client resolves that lens, one item at a time, so the list of lenses stays
/// linear in the document.
///
/// Each lens runs a command (``CommandsFeature``) on its item, named by the
/// position of its start tag: the descendants lens `outline.renumber` on the
/// item's subtree (the broken sibling groups inside it; nothing when none
/// is broken), the deletion lens `outline.delete` (the "Delete item"
/// refactor; a refused deletion's lens answers with the refusal).
struct CodeLensFeature {
  let mapper: PositionMapper

  func lenses(_ snapshot: Snapshot) -> [LSP.CodeLens] {
    let analysis = snapshot.analysis
    guard let tree = analysis.tree, !analysis.isJSONForm else { return [] }
    var lenses: [LSP.CodeLens] = []
    for (item, descendants) in DeletionImpact.itemsWithChildren(tree) {
      let range = mapper.range(tree.items[item].startTag, in: snapshot.source)
      let noun = descendants == 1 ? "descendant" : "descendants"
      lenses.append(
        LSP.CodeLens(
          range: range,
          command: LSP.Command(
            title: "\(descendants) \(noun)", command: CommandsFeature.renumberCommand,
            arguments: [Self.argument(snapshot.uri, range.start)]),
          data: nil))
      if item > 0, analysis.model != nil {
        lenses.append(
          LSP.CodeLens(
            range: range, command: nil,
            data: LSP.CodeLensData(uri: snapshot.uri, version: snapshot.version, item: item)))
      }
    }
    return lenses
  }

  /// The deletion lens with its title: how many objects deleting the item removes, or why it is refused.
  func resolve(_ snapshot: Snapshot, _ lens: LSP.CodeLens) throws -> LSP.CodeLens {
    guard let data = lens.data else { return lens }
    let analysis = snapshot.analysis
    guard let tree = analysis.tree, analysis.model != nil else { return lens }
    var item = data.item
    if data.version != snapshot.version {
      // The document changed since: the item that now starts where the lens is.
      guard let offset = mapper.offset(lens.range.start, in: snapshot.source),
        let found = tree.item(at: offset), tree.items[found].startTag.start == offset
      else {
        throw ResponseError.invalidParams("the code lens is out of date")
      }
      item = found
    }
    guard item > 0, item < tree.items.count else { throw ResponseError.invalidParams("no such item") }
    let title: String
    guard let impact = snapshot.deletionImpact, let model = analysis.model else { return lens }
    // Refused as the command refuses: a broken sibling group, then the delete rules.
    let outcome =
      StructureEdits.groupRefusal(deleting: item, tree: tree, model: model).map {
        Result<Int, EditRefusal>.failure($0)
      } ?? impact.count(deleting: item)
    switch outcome {
    case .success(let count): title = "Delete removes \(count) \(count == 1 ? "object" : "objects")"
    case .failure(let refusal): title = "Delete refused: \(refusal.reason)"
    }
    var resolved = lens
    resolved.command = LSP.Command(
      title: title, command: CommandsFeature.deleteCommand,
      arguments: [Self.argument(snapshot.uri, lens.range.start)])
    return resolved
  }

  /// The argument of a lens's command: the item whose start tag begins at `position`.
  static func argument(_ uri: String, _ position: LSP.Position) -> LSPAny {
    // Encoding two strings and numbers cannot fail.
    LSPAny((try? JSONValueCoding.encode(LSP.ItemCommandArgument(uri: uri, position: position))) ?? .null)
  }
}
