import OutlineCore
import OutlineSyntax
import OutlineXML

extension OutlineValidator {
  /// Reports each conflict record `outline merge` left (OL600) at the whole processing
  /// instruction, with both sides' values; other markup is no outline data.
  public func markup(range: TextRange, bytes: ByteView) {
    guard ConflictRecord.isRecord(bytes) else { return }
    guard let record = ConflictRecord.parse(bytes) else {
      report(
        .mergeConflict,
        "Merge conflict record that cannot be read: resolve the item by hand and delete the instruction",
        at: range)
      return
    }
    report(.mergeConflict, record.message, at: range)
  }
}
