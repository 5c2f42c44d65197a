import OutlineCore
import OutlineEditing
import OutlineSyntax

/// The quick fixes of OL600: each picks a side of a conflict `outline merge` recorded and
/// removes the record (``ConflictResolution`` makes the edits).
enum MergeConflictFix {
  /// The choices for the record `diagnostic` points at.
  static func choices(
    _ diagnostic: LSP.Diagnostic, mapper: PositionMapper, source: SourceText, tree: ItemTree
  ) -> [ConflictResolution.Choice] {
    guard let at = mapper.textRange(diagnostic.range, in: source) else { return [] }
    return ConflictResolution.choices(recordAt: at, in: source, tree: tree)
  }
}
