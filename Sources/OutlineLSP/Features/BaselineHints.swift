import OutlineCore
import OutlineWorkspace

/// The problems a document's baseline holds (`"baseline"` in `.outline.json`), published as
/// hints (Documentation/LanguageServer.md, "Baseline"): the one editing the item still sees
/// what is wrong there, but it is no longer counted among the errors and warnings, as
/// `outline-lint` no longer reports it.
enum BaselineHints {
  /// What the message of a baselined problem ends with.
  static let note = " (in the baseline)"

  /// `analysis`'s diagnostics as published: those its configuration's baseline holds made
  /// hints. A baseline that cannot be read holds nothing back.
  static func diagnostics(_ snapshot: Snapshot, _ analysis: DocumentCheck) -> [Diagnostic] {
    guard !analysis.diagnostics.isEmpty, let file = analysis.configuration?.baselinePath,
      let baseline = BaselineFiles.shared.baseline(at: file)
    else { return analysis.diagnostics }
    let held = baseline.holds(
      analysis.diagnostics, path: snapshot.path, bytes: snapshot.source.bytes, check: analysis)
    return zip(analysis.diagnostics, held).map { diagnostic, held in
      guard held else { return diagnostic }
      var hint = diagnostic
      hint.severity = .hint
      hint.message += note
      return hint
    }
  }
}
