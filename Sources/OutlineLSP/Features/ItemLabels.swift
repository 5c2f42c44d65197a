import OutlineCore
import OutlineJSON
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// How symbols and folds name an item, written straight into JSON bytes:
/// its title, or its entity name when it has none, cut to a label's length. A title that needs no
/// decoding is copied from the document; no `String` is made per item, so
/// a million items cost no million allocations.
struct ItemLabels {
  /// The document's bytes.
  let bytes: ByteView
  /// Decoded titles, reused from item to item.
  private var scratch: [UInt8] = []

  init(bytes: ByteView) {
    self.bytes = bytes
  }

  /// The bytes of `range` in the document.
  func slice(_ range: TextRange) -> ByteView {
    let start = min(max(0, range.start), bytes.count)
    return bytes.extracting(start..<max(start, min(range.end, bytes.count)))
  }

  /// Appends the label's UTF-8, unquoted and unescaped, to `out`.
  func append(_ item: Item, to out: inout [UInt8]) {
    ItemLabel.append(title: item.titleRange.map(slice), fallback: slice(item.nameRange), to: &out)
  }

  /// Appends the label, cut after ``ReplyLimits/labelCharacters`` characters, as a quoted
  /// JSON string, with `suffix` after it.
  mutating func appendQuoted(_ item: Item, suffix: [UInt8] = [], to json: inout JSONBytes) {
    var text = scratch
    scratch = []
    text.removeAll(keepingCapacity: true)
    append(item, to: &text)
    ReplyLimits.cut(&text)
    text += suffix
    json.string(bytes: text)
    scratch = text
  }
}
