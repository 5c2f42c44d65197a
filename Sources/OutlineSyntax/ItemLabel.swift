// How an item is named to a person (messages, symbols, folds, hovers, code actions): its title, else what the
// caller falls back to (its element name, "the root"...). The one place a title's bytes become a label.

import OutlineCore
import OutlineXML

/// An item's label, from the raw bytes of its title value.
public enum ItemLabel {
  /// Appends the label's UTF-8, unquoted and unescaped: the title when it is
  /// not empty, else `fallback` (the element name, say). A title that needs no
  /// decoding is copied as it is, so no `String` is made.
  public static func append(title: ByteView?, fallback: ByteView, to out: inout [UInt8]) {
    guard let title, !title.isEmpty else { return out.append(contentsOf: fallback) }
    if XMLEscaping.isPlainAttribute(title) {
      out.append(contentsOf: title)
    } else {
      XMLEscaping.appendDecodedAttribute(title, to: &out)
    }
  }

  /// The decoded title, or nil when there is none or it is empty.
  public static func title(_ raw: ByteView?) -> String? {
    guard let raw, !raw.isEmpty else { return nil }
    let title = XMLEscaping.decodeAttribute(raw)
    return title.isEmpty ? nil : title
  }
}

extension ItemTree {
  /// The raw bytes of `item`'s title value in `bytes`, when it has one.
  public func rawTitle(of item: Int, in bytes: ByteView) -> ByteView? {
    guard let range = items[item].titleRange else { return nil }
    let start = min(max(0, range.start), bytes.count)
    return bytes.extracting(start..<max(start, min(range.end, bytes.count)))
  }

  /// The decoded title of `item`, or nil when it has none or it is empty.
  public func title(of item: Int, in bytes: ByteView) -> String? {
    ItemLabel.title(rawTitle(of: item, in: bytes))
  }

  /// The decoded title of `item` in the document `bytes`, or nil when it has none or it is empty.
  public func title<Bytes: RandomAccessCollection<UInt8>>(of item: Int, in bytes: Bytes) -> String?
  where Bytes.Index == Int {
    guard let range = items[item].titleRange else { return nil }
    let start = min(max(0, range.start), bytes.count)
    return Array(bytes[start..<max(start, min(range.end, bytes.count))]).withByteView { ItemLabel.title($0) }
  }
}
