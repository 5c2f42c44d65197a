import OutlineCore
import OutlineXML

/// An OPML document as data: the `<opml>` attributes, the head fields, the
/// `<body>` attributes and the outline tree (flat, pre-order).
public struct OPMLDocument: Equatable, Sendable {
  /// Attributes of `<opml>` other than namespace declarations (`version` among them).
  public var opmlAttributes: [(name: String, value: String)] = []
  /// Namespace declarations found anywhere (`xmlns:x` to its URI), first one wins.
  public var namespaces: [(name: String, value: String)] = []
  /// Head elements in order: name and text.
  public var head: [(name: String, value: String)] = []
  /// Attributes of `<body>` (non-standard, but kept).
  public var bodyAttributes: [(name: String, value: String)] = []
  /// The outlines in pre-order.
  public var outlines: [OPMLOutline] = []

  public static func == (lhs: OPMLDocument, rhs: OPMLDocument) -> Bool {
    func same(_ a: [(name: String, value: String)], _ b: [(name: String, value: String)]) -> Bool {
      a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
    return same(lhs.opmlAttributes, rhs.opmlAttributes) && same(lhs.head, rhs.head)
      && same(lhs.bodyAttributes, rhs.bodyAttributes) && lhs.outlines == rhs.outlines
  }
}

/// One `<outline>` element.
public struct OPMLOutline: Equatable, Sendable {
  /// Its depth below `<body>` (0 for top-level outlines).
  public var depth: Int
  /// Its attributes in source order (namespace declarations left out).
  public var attributes: [Attribute]

  /// One attribute.
  public struct Attribute: Equatable, Sendable {
    public var name: String
    public var value: String
  }
}

/// Why an OPML file cannot be imported: what and where.
public struct OPMLError: Error, Sendable, Equatable {
  /// What is wrong.
  public var message: String
  /// Where, as a byte range of the (UTF-8) input.
  public var range: TextRange
}

/// Reads OPML 1.0/1.1/2.0 into an ``OPMLDocument``.
public enum OPMLReader {
  /// Parses `bytes` (UTF-8, or ISO-8859-1 transcoded first); the text the
  /// positions of errors refer to is returned alongside.
  public static func read(_ bytes: [UInt8]) -> (Result<OPMLDocument, OPMLError>, SourceText) {
    let source = SourceText(bytes: Latin1.transcodeIfDeclared(bytes))
    let handler = Handler(source: source)
    XMLEventParser.parse(source.bytes, handler: handler)
    if let error = handler.error { return (.failure(error), source) }
    if !handler.sawRoot {
      return (.failure(OPMLError(message: "The file is empty", range: TextRange(at: 0))), source)
    }
    if !handler.sawBody {
      return (
        .failure(OPMLError(message: "<opml> has no <body>: OPML needs one", range: handler.rootName)), source
      )
    }
    return (.success(handler.document), source)
  }

  private final class Handler: XMLEventHandler {
    let source: SourceText
    var document = OPMLDocument()
    var error: OPMLError?
    var sawRoot = false
    var sawBody = false
    var rootName = TextRange(at: 0)
    private var path: [String] = []
    private var headFieldStart: Int?
    /// The outlines' ids so far, each where it is first defined.
    private var ids: [String: TextRange] = [:]

    init(source: SourceText) { self.source = source }

    /// The size rule (OL107): every value becomes an attribute of the
    /// `.outline`, measured as the bytes it will be written as there.
    private func checkSize(_ value: String, named name: String, at range: TextRange) {
      guard error == nil, SizeRule.exceeds(range.end - range.start) || SizeRule.exceeds(value.utf8.count * 6)
      else { return }
      let written = XMLEscaping.escapedAttributeByteCount(value)
      guard SizeRule.exceeds(written) else { return }
      fail(
        "\(SizeRule.message("The value of \(Excerpt.quoted(name))", byteCount: written)) as the .outline would write it [\(DiagnosticCode.valueTooLarge)]",
        range)
    }

    private func fail(_ message: String, _ range: TextRange) {
      if error == nil { error = OPMLError(message: message, range: range) }
    }

    /// A name an `.outline` would write as `mapped` (``OPMLConversion``'s names): a prefixed name
    /// given a prefix of the format's (`opml.xml:lang`) is no XML name there, refused.
    private func checkName(_ name: String, mapped: String, _ what: String, at range: TextRange) {
      guard error == nil, mapped != name, name.contains(":") else { return }
      fail(
        "\(what) \(Excerpt.quoted(name)) would be the attribute \(Excerpt.quoted(mapped)) of the .outline, whose prefix \(Excerpt.quoted(String(mapped.prefix { $0 != ":" }))) is declared nowhere; an .outline cannot keep it",
        range)
    }

    /// An outline's `xml:id`: kept as its object's id, so an XML name (OL510) used once (OL500).
    private func checkID(_ value: String, at range: TextRange) {
      guard error == nil else { return }
      guard XMLName.isNCName(value) else {
        fail(
          "The xml:id \(Excerpt.quoted(value)) is not an XML name (a letter or _ first, then letters, digits, _, - or .); it would be its object's id in the .outline, where every id is one [\(DiagnosticCode.idNotName)]",
          range)
        return
      }
      if let first = ids[value] {
        let position = source.position(of: first.start, unit: .scalar)
        fail(
          "The xml:id \(Excerpt.quoted(value)) is used twice (first at \(position.line + 1):\(position.column + 1)); the ids of an .outline name one object each [\(DiagnosticCode.duplicateID)]",
          range)
      } else {
        ids[value] = range
      }
    }

    /// Checks the names of `tag`'s attributes (an `<opml>`, `<body>` or `<outline>` start tag) as
    /// the `.outline` writes them, and an outline's id.
    private func checkAttributes(
      _ tag: StartTag, _ what: String, keepsID: Bool = false, mapped: (String) -> String
    ) {
      for index in 0..<tag.attributes.count {
        let name = XMLName.string(tag.name(of: index))
        if OPMLConversion.isNamespaceDeclaration(name) { continue }
        if name == "xml:id" && keepsID {
          checkID(tag.value(of: index), at: tag.valueRange(of: index))
        } else {
          checkName(name, mapped: mapped(name), what, at: tag.nameRange(of: index))
        }
      }
    }

    private func attributes(_ tag: StartTag) -> [(String, String)] {
      var result: [(String, String)] = []
      for index in 0..<tag.attributes.count {
        let name = XMLName.string(tag.name(of: index))
        let value = tag.value(of: index)
        checkSize(value, named: name, at: tag.valueRange(of: index))
        if name == "xmlns" || name.hasPrefix("xmlns:") {
          // Every declaration goes to the root: one prefix bound to two names has no place there.
          if let earlier = document.namespaces.first(where: { $0.name == name }) {
            if earlier.value != value {
              fail(
                "\(Excerpt.quoted(name)) is bound to \(Excerpt.quoted(value)) here and to \(Excerpt.quoted(earlier.value)) before; an .outline declares each prefix once, on its root",
                tag.nameRange(of: index))
            }
          } else {
            document.namespaces.append((name, value))
          }
        } else {
          result.append((name, value))
        }
      }
      return result
    }

    func startElement(_ tag: StartTag) {
      let name = XMLName.string(tag.name)
      defer { path.append(name) }
      guard error == nil else { return }
      switch path.count {
      case 0:
        sawRoot = true
        rootName = tag.nameRange
        guard name == "opml" else {
          fail(
            "The root element is \(Excerpt.quoted(name)), not 'opml': this is not an OPML file", tag.nameRange
          )
          return
        }
        document.opmlAttributes = attributes(tag).map { ($0.0, $0.1) }
        checkAttributes(tag, "The <opml> attribute", mapped: OPMLConversion.opmlAttributeName)
        if !document.opmlAttributes.contains(where: { $0.name == "version" }) {
          fail("<opml> has no version attribute (OPML 1.0 and 2.0 require one)", tag.nameRange)
        }
      case 1:
        if name == "body" {
          sawBody = true
          document.bodyAttributes = attributes(tag).map { ($0.0, $0.1) }
          checkAttributes(tag, "The <body> attribute", mapped: OPMLConversion.bodyAttributeName)
        } else if name == "head" {
          // Its namespace declarations are the document's; it has nothing else to keep.
          if let other = attributes(tag).first {
            fail(
              "<head> has the attribute \(Excerpt.quoted(other.0)), which an .outline cannot keep",
              tag.nameRange)
          }
        } else {
          fail("\(Excerpt.quoted(name)) is not part of OPML: <opml> holds <head> and <body>", tag.nameRange)
        }
      case 2 where path[1] == "head":
        // A head field becomes one attribute of the root: what it cannot hold is refused, not lost.
        if let other = attributes(tag).first {
          fail(
            "The head field \(Excerpt.quoted(name)) has the attribute \(Excerpt.quoted(other.0)), which an .outline cannot keep (a head field becomes one attribute of the root)",
            tag.nameRange)
        } else if document.head.contains(where: { $0.name == name }) {
          fail(
            "The head field \(Excerpt.quoted(name)) comes twice; an .outline keeps one value for each (a head field becomes one attribute of the root)",
            tag.nameRange)
        }
        checkName(name, mapped: OPMLConversion.headName(name), "The head field", at: tag.nameRange)
        headFieldStart = tag.isSelfClosing ? nil : tag.range.end
        if tag.isSelfClosing { document.head.append((name, "")) }
      case _ where path.count >= 2 && path[1] == "body":
        guard name == "outline" else {
          fail(
            "\(Excerpt.quoted(name)) inside <body>: OPML bodies hold <outline> elements only", tag.nameRange)
          return
        }
        document.outlines.append(
          OPMLOutline(
            depth: path.count - 2,
            attributes: attributes(tag).map { OPMLOutline.Attribute(name: $0.0, value: $0.1) }))
        checkAttributes(tag, "The <outline> attribute", keepsID: true, mapped: OPMLConversion.outlineName)
      default:
        fail("\(Excerpt.quoted(name)) inside a head field: head fields hold text only", tag.nameRange)
      }
    }

    func endElement(range: TextRange?) {
      defer { _ = path.popLast() }
      if path.count == 3, path[1] == "head", let start = headFieldStart, let range {
        let raw = Array(source.bytes[start..<range.start])
        let text = Self.text(raw)
        checkSize(text, named: path[2], at: TextRange(start: start, end: range.start))
        document.head.append((path[2], text))
        headFieldStart = nil
      }
    }

    /// The text of a head field as XML reads it: line ends made `\n`, comments and processing
    /// instructions left out, references decoded, CDATA sections unwrapped.
    static func text(_ raw: [UInt8]) -> String {
      var string = String(decoding: raw, as: UTF8.self)
      if raw.contains(0x0D) {
        string = string.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
          of: "\r", with: "\n")
      }
      for (open, close) in [("<!--", "-->"), ("<?", "?>")] where string.contains(open) {
        var kept = ""
        var rest = Substring(string)
        while let start = rest.range(of: open) {
          // Inside a CDATA section it is text.
          if let cdata = rest.range(of: "<![CDATA["), cdata.lowerBound < start.lowerBound {
            let end =
              rest.range(of: "]]>", range: cdata.upperBound..<rest.endIndex)?.upperBound ?? rest.endIndex
            kept += rest[..<end]
            rest = rest[end...]
            continue
          }
          kept += rest[..<start.lowerBound]
          rest =
            rest[
              (rest.range(of: close, range: start.upperBound..<rest.endIndex)?.upperBound ?? rest.endIndex)...
            ]
        }
        string = kept + rest
      }
      let bytes = Array(string.utf8)
      return decodedText(bytes)
    }

    /// ``text(_:)`` after line ends, comments and instructions.
    private static func decodedText(_ raw: [UInt8]) -> String {
      let string = String(decoding: raw, as: UTF8.self)
      guard string.contains("<![CDATA[") else {
        return XMLEscaping.decodeText(raw.withUnsafeBufferPointer { $0 })
      }
      var out = ""
      var rest = Substring(string)
      while let open = rest.range(of: "<![CDATA[") {
        out += XMLEscaping.decodeText(Array(rest[..<open.lowerBound].utf8).withUnsafeBufferPointer { $0 })
        rest = rest[open.upperBound...]
        let close = rest.range(of: "]]>") ?? rest.endIndex..<rest.endIndex
        out += rest[..<close.lowerBound]
        rest = rest[close.upperBound...]
      }
      return out + XMLEscaping.decodeText(Array(rest.utf8).withUnsafeBufferPointer { $0 })
    }

    func comment(range: TextRange, content: ByteView) {}

    func text(range: TextRange) {
      guard error == nil else { return }
      if path.count == 3 && path[1] == "head" { return }
      fail("Text outside a head field: OPML keeps text in attributes", range)
    }

    func doctype(range: TextRange) {
      fail("A DOCTYPE is not allowed; nothing it declares is read", range)
    }

    func syntaxError(message: String, range: TextRange, isFatal: Bool) {
      fail("Not well-formed XML: \(message)", range)
    }
  }
}

/// ISO-8859-1 or windows-1252 input, which OPML files often declare, as UTF-8.
///
/// Both are read as windows-1252, as browsers read them (WHATWG Encoding): files that say
/// ISO-8859-1 mostly hold windows-1252's quotes, dashes and euro sign in 0x80...0x9F, where
/// ISO-8859-1 has control characters nobody writes.
enum Latin1 {
  /// The characters of windows-1252's bytes 0x80...0x9F (the five it leaves undefined map to
  /// the control characters of the same number, as WHATWG says).
  private static let high: [UInt32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
    0x8D,
    0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161,
    0x203A,
    0x0153, 0x9D, 0x017E, 0x0178,
  ]

  static func transcodeIfDeclared(_ bytes: [UInt8]) -> [UInt8] {
    let prefix = String(decoding: bytes.prefix(200), as: UTF8.self).lowercased()
    guard prefix.hasPrefix("<?xml"), let close = prefix.firstIndex(of: ">") else { return bytes }
    let declaration = prefix[..<close]
    let latin = ["iso-8859-1", "latin1", "latin-1", "windows-1252", "iso8859-1"]
    guard
      let name = latin.first(where: { declaration.contains("\"\($0)\"") || declaration.contains("'\($0)'") })
    else { return bytes }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 8)
    for byte in bytes {
      if byte < 0x80 {
        out.append(byte)
      } else if byte < 0xA0 {
        out.append(contentsOf: Array(String(Unicode.Scalar(high[Int(byte) - 0x80])!).utf8))
      } else {
        out.append(0xC0 | (byte >> 6))
        out.append(0x80 | (byte & 0x3F))
      }
    }
    // Say what the bytes now are, keeping the declaration's length.
    let declared = Array(name.utf8)
    if let at = find(declared, in: out, caseInsensitive: true) {
      let replacement = Array("UTF-8".utf8) + Array(repeating: UInt8(ascii: " "), count: 0)
      out.replaceSubrange(at..<at + declared.count, with: replacement)
    }
    return out
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], caseInsensitive: Bool) -> Int? {
    let lower = { (byte: UInt8) in byte >= 65 && byte <= 90 ? byte + 32 : byte }
    guard haystack.count >= needle.count else { return nil }
    for start in 0...min(200, haystack.count - needle.count) {
      if (0..<needle.count).allSatisfy({ lower(haystack[start + $0]) == lower(needle[$0]) }) { return start }
    }
    return nil
  }
}
