import OutlineCore

/// Checks in one scan of its bytes that a whole document held in memory is
/// well-formed and of the plainest shape, and lists its tags; any other
/// document is left to libxml2.
///
/// The shape: an XML declaration of one of the usual spellings (or none),
/// then elements with attributes and white space between them, and nothing
/// else: no comment, processing instruction, CDATA section, `<!DOCTYPE`,
/// character data, character reference, namespace declaration, prefix but
/// that of `xml:id`, or name beyond ASCII. Attribute values hold any XML
/// characters as UTF-8 and the five predefined entity references.
///
/// libxml2 reports no error for such a document, and the events
/// ``XMLEventParser`` makes of its callbacks are exactly the start and end
/// tags listed here (white space between tags is never an event), so the
/// parser replays them without running libxml2 (``XMLEventParser/feedWhole(_:)``).
/// libxml2 decodes every attribute value that holds a character beyond ASCII
/// or a reference character by character; on small files that was more than
/// the rest of their lint. The scan refuses rather than judges: a document it
/// does not take, libxml2 parses as before, errors and all.
enum PlainDocument {
  /// A tag of the document: its bytes are `start..<end`, `<` to just past `>`.
  struct Tag {
    var start: Int32
    var end: Int32
    var kind: Kind
  }

  /// What a tag is.
  enum Kind: UInt8 {
    /// `<name ...>`.
    case start
    /// `<name .../>`.
    case empty
    /// `</name>`.
    case end
  }

  /// The XML declarations taken, byte for byte.
  private static let declarations: [StaticString] = [
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
    "<?xml version=\"1.0\"?>",
  ]

  /// The tags of `document` in order when the whole document is well-formed and of the plain
  /// shape; nil otherwise.
  static func tags(of document: UnsafeBufferPointer<UInt8>) -> [Tag]? {
    guard let base = document.baseAddress, document.count < Int(Int32.max) else { return nil }
    var scan = Scan(base: base, count: document.count)
    return scan.run() ? scan.tags : nil
  }

  struct Scan {
    let base: UnsafePointer<UInt8>
    let count: Int
    var index = 0
    var tags: [Tag] = []
    /// The open elements' names, innermost last.
    var open: [(start: Int, length: Int)] = []
    /// The names of the attributes read, so that none repeats in its tag: those of the tag
    /// being read start at `tagNames` (kept, not emptied for each tag: emptying an array was a
    /// generic call).
    var names: [(start: Int, length: Int)] = []
    var tagNames = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
      self.base = base
      self.count = count
      tags.reserveCapacity(count / 48)
    }

    mutating func run() -> Bool {
      if spells("<?xml") {
        guard let declaration = PlainDocument.declarations.first(where: { spells($0) }) else { return false }
        index = declaration.utf8CodeUnitCount
      }
      skipSpace()
      while index + 1 < count && base[index] == UInt8(ascii: "<") {
        guard base[index + 1] == UInt8(ascii: "/") ? endTag() : startTag() else { return false }
        skipSpace()
        // The root ended: only white space may follow it.
        if open.isEmpty { return index == count }
      }
      return false
    }

    /// Skips XML white space; whether there was any.
    @discardableResult
    mutating func skipSpace() -> Bool {
      let first = index
      while index < count && Scan.isSpace(base[index]) { index += 1 }
      return index > first
    }

    static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Bits of the name bytes below 0x40 (`-`, `.`, digits) by value, and from 0x40 to 0x7F
    /// (letters and `_`) by value less 0x40: a name's bytes are told by one shift each.
    static let lowNameBits: UInt64 = 0x03FF_6000_0000_0000
    static let highNameBits: UInt64 = 0x07FF_FFFE_87FF_FFFE

    /// A letter or `_`.
    @inline(__always)
    static func isNameStart(_ byte: UInt8) -> Bool {
      byte & 0xC0 == 0x40 && (highNameBits >> UInt64(byte & 0x3F)) & 1 != 0
    }

    /// A letter, a digit, `-`, `.` or `_`.
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
      byte < 0x80 && ((byte < 0x40 ? lowNameBits : highNameBits) >> UInt64(byte & 0x3F)) & 1 != 0
    }

    /// Reads an ASCII name without a colon; its length, 0 when there is none.
    mutating func name() -> Int {
      let first = index
      guard index < count, Scan.isNameStart(base[index]) else { return 0 }
      index += 1
      while index < count && Scan.isNameByte(base[index]) { index += 1 }
      return index - first
    }

    /// `<name (S attribute)* S? (> | />)`, standing on its `<`.
    mutating func startTag() -> Bool {
      let start = index
      index += 1
      let nameStart = index
      let length = name()
      guard length > 0 else { return false }
      tagNames = names.count
      while true {
        let spaced = skipSpace()
        guard index < count else { return false }
        switch base[index] {
        case UInt8(ascii: ">"):
          index += 1
          open.append((nameStart, length))
          tags.append(Tag(start: Int32(start), end: Int32(index), kind: .start))
          return true
        case UInt8(ascii: "/"):
          guard index + 1 < count, base[index + 1] == UInt8(ascii: ">") else { return false }
          index += 2
          tags.append(Tag(start: Int32(start), end: Int32(index), kind: .empty))
          return true
        default:
          guard spaced, attribute() else { return false }
        }
      }
    }

    /// `</name S? >`, standing on its `<`: the name is the innermost open element's.
    mutating func endTag() -> Bool {
      let start = index
      index += 2
      guard let innermost = open.popLast() else { return false }
      let nameStart = index
      guard name() == innermost.length,
        memcmp(base + nameStart, base + innermost.start, innermost.length) == 0
      else { return false }
      skipSpace()
      guard index < count, base[index] == UInt8(ascii: ">") else { return false }
      index += 1
      tags.append(Tag(start: Int32(start), end: Int32(index), kind: .end))
      return true
    }

    /// `name S? = S? value`: the name one of ASCII (none beginning with `xml`) or `xml:id`,
    /// and not the name of an earlier attribute of the tag.
    mutating func attribute() -> Bool {
      let nameStart = index
      var length = name()
      guard length > 0 else { return false }
      if length >= 3 && base[nameStart] == UInt8(ascii: "x") && base[nameStart + 1] == UInt8(ascii: "m")
        && base[nameStart + 2] == UInt8(ascii: "l")
      {
        // Only `xml:id`: other names beginning with `xml` are reserved or declare namespaces.
        guard length == 3, spells(":id"), count - index > 3, !Scan.isNameByte(base[index + 3]),
          base[index + 3] != UInt8(ascii: ":")
        else { return false }
        index += 3
        length = 6
      }
      for position in tagNames..<names.count where names[position].length == length {
        if memcmp(base + names[position].start, base + nameStart, length) == 0 { return false }
      }
      names.append((nameStart, length))
      skipSpace()
      guard index < count, base[index] == UInt8(ascii: "=") else { return false }
      index += 1
      skipSpace()
      guard index < count, base[index] == UInt8(ascii: "\"") || base[index] == UInt8(ascii: "'") else {
        return false
      }
      let quote = base[index]
      index += 1
      return value(quote)
    }

    /// An attribute's value up to and past its closing `quote`.
    mutating func value(_ quote: UInt8) -> Bool {
      while true {
        // Eight bytes at a time up to the first that needs a look: the quote, `&`, `<`, a
        // control character or a byte beyond ASCII.
        while index + 8 <= count {
          let word = WordScan.load(base + index)
          let hits =
            WordScan.equal(word, quote) | WordScan.equal(word, UInt8(ascii: "&"))
            | WordScan.equal(word, UInt8(ascii: "<")) | WordScan.below(word, 0x20) | WordScan.nonASCII(word)
          if hits != 0 {
            index += hits.trailingZeroBitCount / 8
            break
          }
          index += 8
        }
        guard index < count else { return false }
        let byte = base[index]
        if byte == quote {
          index += 1
          return true
        }
        switch byte {
        case UInt8(ascii: "<"): return false
        case UInt8(ascii: "&"): guard reference() else { return false }
        case 0x09, 0x0A, 0x0D: index += 1
        case ..<0x20: return false
        case 0x80...: guard character() else { return false }
        default: index += 1
        }
      }
    }

    /// One of the five predefined entity references, standing on its `&`.
    mutating func reference() -> Bool {
      let length =
        spells("&amp;")
        ? 5 : spells("&lt;") || spells("&gt;") ? 4 : spells("&quot;") || spells("&apos;") ? 6 : 0
      index += length
      return length > 0
    }

    /// Whether the bytes from `index` on begin with `text`.
    func spells(_ text: StaticString) -> Bool {
      count - index >= text.utf8CodeUnitCount
        && memcmp(base + index, text.utf8Start, text.utf8CodeUnitCount) == 0
    }

    /// A character beyond ASCII in UTF-8 that XML allows, standing on its first byte.
    mutating func character() -> Bool {
      let lead = base[index]
      let length = lead < 0xC2 ? 0 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF5 ? 4 : 0
      guard length > 0, count - index >= length else { return false }
      for offset in 1..<length where base[index + offset] & 0xC0 != 0x80 { return false }
      let second = base[index + 1]
      switch lead {
      // Overlong forms, UTF-16 surrogates, and past U+10FFFF.
      case 0xE0: guard second >= 0xA0 else { return false }
      case 0xED: guard second < 0xA0 else { return false }
      case 0xF0: guard second >= 0x90 else { return false }
      case 0xF4: guard second < 0x90 else { return false }
      // U+FFFE and U+FFFF are no XML characters.
      case 0xEF: guard second != 0xBF || base[index + 2] < 0xBE else { return false }
      default: break
      }
      index += length
      return true
    }
  }
}
