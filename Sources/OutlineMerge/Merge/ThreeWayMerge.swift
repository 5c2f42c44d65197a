// The public face of the three-way merge: three documents in, the merged bytes and the conflicts out. What
// becomes of each item is decided in MergePlan.swift (presence, parent, attributes), the order of siblings in
// MergeSequences.swift, and the bytes in MergeWriter.swift.

import OutlineCore
import OutlineSyntax

/// One conflict the merge recorded in the document it wrote.
public struct MergeConflict: Sendable, Hashable {
  /// The record as written (a processing instruction just before the item).
  public var record: ConflictRecord
  /// Where the record stands in the merged bytes.
  public var range: TextRange
}

/// What a three-way merge gives: the merged document and the conflicts recorded in it.
public struct MergeResult: Sendable {
  /// The merged document's bytes.
  public var bytes: [UInt8]
  /// The conflicts recorded in ``bytes``, in document order; empty for a clean merge.
  public var conflicts: [MergeConflict]
}

/// A three-way structural merge of outlines (`outline merge BASE OURS THEIRS`).
///
/// Each side is matched against the base (``Matching``); every item of the three is then one
/// merged item: a base item with its image on each side, or an item one side added (an identical
/// subtree both sides added under the same parent is one item). Rules, item by item:
/// - an item removed on both sides is gone; removed on one side and untouched on the other, gone
///   with everything inside it; removed on one side and changed (its subtree, its place, or a
///   comment added before it or inside it) on the other, kept as changed, with a `removed` conflict;
/// - its parent is the one a side moved it to, ours when both moved it to different parents (a
///   `moved` conflict before it, a `place` record where theirs put it);
/// - each attribute takes the side that changed it; changed differently on both sides, ours'
///   value and an `attribute` conflict;
/// - siblings keep the order each side intended: the order of the side that reordered (ours when
///   both did), with the other side's additions after the sibling they follow there, ours' first;
///   a group whose sequence is neither side's is renumbered `0..n-1`;
/// - an `xml:id` that an item from each side carries is an `id` conflict before theirs' item;
/// - comments (and processing instructions) merge three-way (``MergedComments``): each side's
///   additions are kept, a comment of the base one side removed is removed.
///
/// The bytes are ours' wherever an item's own content is ours' (its start tag copied, only its
/// `order` value rewritten, the comments and white space before it kept, re-indented when its
/// depth changed); any other item is written as `fmt` writes it. No step recurses on depth.
public enum ThreeWayMerge {
  /// Merges `ours` and `theirs`, two descendants of `base`, each given with its items.
  public static func merge(base: DocumentItems, ours: DocumentItems, theirs: DocumentItems) -> MergeResult {
    let plan = MergePlan(
      base: base, ours: ours, theirs: theirs,
      oursMatching: Matching(old: base, new: ours), theirsMatching: Matching(old: base, new: theirs))
    var writer = MergeWriter(plan: plan)
    return writer.write()
  }
}
