import JSONRPC
import OutlineEditing

/// `textDocument/documentHighlight`: on a tag name, the element's start and
/// end tag names; on an id, its `xml:id` (write) and every reference (read)
/// (``DocumentHighlights``).
struct DocumentHighlightFeature {
  let mapper: PositionMapper

  func highlights(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws -> [LSP
    .DocumentHighlight]
  {
    guard let offset = mapper.offset(params.position, in: snapshot.source) else {
      throw ResponseError.invalidParams("position is negative")
    }
    // The references indexed once per snapshot (shared with the code lenses).
    let references = snapshot.deletionImpact?.references
    return DocumentHighlights.highlights(at: offset, markup: snapshot.markup, references: references).map {
      highlight in
      let kind: LSP.DocumentHighlightKind
      switch highlight.kind {
      case .text: kind = .text
      case .read: kind = .read
      case .write: kind = .write
      }
      return LSP.DocumentHighlight(range: mapper.range(highlight.range, in: snapshot.source), kind: kind)
    }
  }
}
