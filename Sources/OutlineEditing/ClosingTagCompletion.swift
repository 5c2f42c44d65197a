import OutlineCore
import OutlineSyntax

/// Completion of the closing tag after `</`: the end tag of the innermost
/// element still open where the `</` stands.
public enum ClosingTagCompletion {
  /// What to offer at the cursor.
  public struct Candidate: Sendable, Equatable {
    /// The element name to close.
    public var name: String
    /// The bytes to replace: from `<` of the `</` through the name typed so far (and its `>`, if typed).
    public var range: TextRange
    /// `</name>`.
    public var newText: String
  }

  /// The closing tag to offer at `offset`, when the text before it is `</`
  /// followed by part of a name; nil anywhere else or when nothing is open.
  public static func candidate(at offset: Int, in source: SourceText, tree: MarkupTree? = nil) -> Candidate? {
    let bytes = source.bytes
    guard offset >= 2, offset <= bytes.count else { return nil }
    var start = offset
    while start > 0 && MarkupScanner.isNameByte(bytes[start - 1]) { start -= 1 }
    guard start >= 2, bytes[start - 1] == UInt8(ascii: "/"), bytes[start - 2] == UInt8(ascii: "<") else {
      return nil
    }
    let open = start - 2
    let tree = tree ?? MarkupTree(bytes)
    guard let index = tree.element(at: open) else { return nil }
    let element = tree.elements[index]
    // Inside the start tag itself (`<a </`), nothing is open there yet.
    guard open >= element.startTag.end, !element.isSelfClosing else { return nil }
    var end = offset
    while end < bytes.count && MarkupScanner.isNameByte(bytes[end]) { end += 1 }
    if end < bytes.count && bytes[end] == UInt8(ascii: ">") { end += 1 }
    let name = source.string(in: element.name)
    return Candidate(name: name, range: TextRange(start: open, end: end), newText: "</\(name)>")
  }
}
