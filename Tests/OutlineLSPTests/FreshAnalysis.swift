import OutlineCore

@testable import OutlineLSP

/// The check of every incremental-analysis test: the analysis the store carried over an edit is
/// the one a fresh open of the same text gets.
enum FreshAnalysis {
  /// What differs between `snapshot`'s analysis and a fresh analysis of its text: the extra and
  /// missing diagnostics, else the tree, its comments or instructions, or an order claimed that a
  /// fresh analysis does not find; nil when nothing does.
  static func difference(_ snapshot: Snapshot) -> String? {
    let fresh = DocumentStore().open(uri: snapshot.uri, text: snapshot.source.bytes).analysis
    let analysis = snapshot.analysis
    guard analysis.diagnostics == fresh.diagnostics else {
      func described(_ diagnostics: Set<Diagnostic>) -> [String] {
        diagnostics.map { "\($0.range) \($0.message)" }.sorted()
      }
      let extra = described(Set(analysis.diagnostics).subtracting(fresh.diagnostics))
      let missing = described(Set(fresh.diagnostics).subtracting(analysis.diagnostics))
      return
        "diagnostics differ from a fresh analysis: extra \(extra.prefix(3)), missing \(missing.prefix(3))"
    }
    guard analysis.tree?.items == fresh.tree?.items, analysis.tree?.comments == fresh.tree?.comments,
      analysis.tree?.instructions == fresh.tree?.instructions
    else { return "the tree differs from a fresh one" }
    guard !analysis.childrenInOrder || fresh.childrenInOrder else {
      return "children are taken to be in order, which a fresh analysis does not find"
    }
    return nil
  }
}
