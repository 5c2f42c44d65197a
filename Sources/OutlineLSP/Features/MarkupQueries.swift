import OutlineEditing

extension Snapshot {
  /// The elements as an editor sees them while typing (``MarkupTree``):
  /// read from the text, so features built on it work on a document that does not parse.
  var markup: MarkupTree { MarkupTree(source.bytes) }
}
