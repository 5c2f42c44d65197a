import OutlineConvert
import OutlineCore
import OutlineMigration

/// `textDocument/formatting`: exactly the text `outline fmt` writes for the document (its
/// declaration, `\n` line ends, the model version recorded when `fmt` records it), as one
/// edit over the part that changes; nothing where `fmt` refuses: a document that does not
/// parse, or holds what the layout would drop (text inside an object, even with OL105 turned
/// off; a DOCTYPE), a value over the size rule, or a configuration with errors.
struct FormattingFeature {
  let mapper: PositionMapper

  func format(_ snapshot: Snapshot) -> [LSP.TextEdit] {
    let analysis = snapshot.analysis
    let refusing: Set<DiagnosticCode> = [.notWellFormed, .doctypePresent, .textInObject, .valueTooLarge]
    guard analysis.parsed, !analysis.isJSONForm,
      !(analysis.diagnostics + analysis.silencedErrors).contains(where: { refusing.contains($0.code) }),
      analysis.configuration?.diagnostics.isEmpty ?? true, !analysis.namedModelIsUnreadable
    else {
      return []
    }
    let old = snapshot.source.bytes
    var dropped: TextRange?
    let new = Formatter.format(
      snapshot.source, model: analysis.model, dropped: &dropped, editingRoot: snapshot.rootRecording)
    guard dropped == nil, let edit = TextEdit.trimmed(TextRange(start: 0, end: old.count), of: old, to: new)
    else { return [] }
    return [mapper.edit(edit, in: snapshot.source)]
  }
}

extension Snapshot {
  /// How `outline fmt` changes the root's start tag of this version: it records the model
  /// version the document was validated against when ``versionToRecord`` says so (and the
  /// root records none); nil when it changes nothing.
  var rootRecording: ((_ rootStartTag: [UInt8]) -> TextEdit?)? {
    guard let version = versionToRecord else { return nil }
    return { RootProbe.recordingEdit(version: version, in: $0) }
  }
}
