import OutlineCore

/// The elements of a document as an editor sees them while it is being
/// typed: built from ``MarkupScanner`` tokens, end tags matched to start tags
/// by name with a stack (an end tag closes the innermost open element of its
/// name and leaves those inside it unclosed; an end tag that matches nothing
/// is ignored), in one linear pass. Elements are stored flat in pre-order, as
/// `ItemTree` stores items, so every walk is a loop.
public struct MarkupTree: Sendable {
  /// One element.
  public struct Element: Sendable, Equatable {
    /// The start tag, `<` to `>` (or to where it was cut short).
    public var startTag: TextRange
    /// The element name in the start tag.
    public var name: TextRange
    /// Whether the start tag ends with `/>`.
    public var isSelfClosing: Bool
    /// The matching end tag, when there is one.
    public var endTag: TextRange?
    /// The name in the end tag.
    public var endName: TextRange?
    /// The parent element, or -1.
    public var parent: Int32
    /// 0 for a top-level element.
    public var depth: Int32
    /// One past the last descendant.
    public var subtreeEnd: Int32
    /// Where the element ends: its end tag's end, its start tag's end when
    /// self-closing, else where it was left unclosed (an outer end tag or the end of the text).
    public var end: Int

    /// From `<` of the start tag to `end`.
    public var range: TextRange { TextRange(start: startTag.start, end: end) }
  }

  /// The elements in pre-order.
  public private(set) var elements: [Element] = []
  /// Comments, CDATA sections, processing instructions and declarations, in order.
  public private(set) var others: [TextRange] = []

  /// Reads the elements of `bytes`.
  public init(_ bytes: [UInt8]) {
    var stack: [Int] = []
    var openByName: [ArraySlice<UInt8>: Int] = [:]
    func close(_ index: Int, end: Int) {
      elements[index].subtreeEnd = Int32(elements.count)
      elements[index].end = end
      let key = bytes[elements[index].name.start..<elements[index].name.end]
      openByName[key, default: 1] -= 1
    }
    MarkupScanner.scan(bytes) { token in
      switch token {
      case .startTag(let tag):
        let parent = stack.last ?? -1
        elements.append(
          Element(
            startTag: tag.range, name: tag.name, isSelfClosing: tag.isSelfClosing, endTag: nil, endName: nil,
            parent: Int32(parent), depth: Int32(stack.count), subtreeEnd: Int32(elements.count + 1),
            end: tag.range.end))
        if !tag.isSelfClosing {
          stack.append(elements.count - 1)
          openByName[bytes[tag.name.start..<tag.name.end], default: 0] += 1
        }
      case .endTag(let range, let name):
        let key = bytes[name.start..<name.end]
        // Matches nothing open: a stray end tag (or one being typed).
        guard (openByName[key] ?? 0) > 0 else { break }
        while let top = stack.popLast() {
          if bytes[elements[top].name.start..<elements[top].name.end] == key {
            elements[top].endTag = range
            elements[top].endName = name
            close(top, end: range.end)
            break
          }
          close(top, end: range.start)
        }
      case .comment(let range), .cdata(let range), .processingInstruction(let range), .declaration(let range):
        others.append(range)
      case .text:
        break
      }
      return true
    }
    while let top = stack.popLast() { close(top, end: bytes.count) }
  }

  /// The innermost element whose range holds `offset` (its end included
  /// when the element has no end tag, so the end of an unclosed element counts).
  public func element(at offset: Int) -> Int? {
    var found: Int?
    var index = 0
    var end = elements.count
    while index < end {
      let element = elements[index]
      if element.startTag.start > offset { break }
      if offset < element.end || (element.endTag == nil && !element.isSelfClosing && offset == element.end) {
        found = index
        end = Int(element.subtreeEnd)
        index += 1
      } else {
        index = Int(element.subtreeEnd)
      }
    }
    return found
  }

  /// The element whose start or end tag name holds `offset` (ends included),
  /// and whether it is the end tag's name.
  public func elementNamed(at offset: Int) -> (element: Int, inEndTag: Bool)? {
    guard let index = element(at: offset) else { return nil }
    let element = elements[index]
    if contains(element.name, offset) { return (index, false) }
    if let endName = element.endName, contains(endName, offset) { return (index, true) }
    return nil
  }

  private func contains(_ range: TextRange, _ offset: Int) -> Bool {
    offset >= range.start && offset <= range.end
  }
}
