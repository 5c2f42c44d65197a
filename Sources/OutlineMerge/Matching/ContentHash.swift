// The hashes matching compares: a byte hash (FNV-1a), a value hash that decodes only values holding a reference
// or a space character libxml2 would normalize (feeding the decoded bytes to the hash as it goes, no copy), and a
// finalizer that spreads bits (splitmix64) before values are combined. Fixed, so a document hashes the same in
// every run.

import OutlineCore
import OutlineSyntax
import OutlineXML

/// Hashing of names, values and combined hashes.
enum ContentHash {
  static let elementSalt: UInt64 = 0x9E37_79B9_7F4A_7C15
  static let nameSalt: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  static let subtreeSalt: UInt64 = 0x1656_67B1_9E37_79F9
  /// FNV-1a's start and its prime.
  static let start: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x100_0000_01b3

  /// The FNV-1a hash of `bytes[range]`.
  static func bytes(_ bytes: [UInt8], _ range: TextRange) -> UInt64 {
    bytes.withByteView { self.bytes($0, range) }
  }

  /// The FNV-1a hash of `bytes[range]`.
  @inline(__always)
  static func bytes(_ bytes: ByteView, _ range: TextRange) -> UInt64 {
    var hash = start
    _ = bytes.firstIndex(in: range.start..<range.end) { byte in
      hash = (hash ^ UInt64(byte)) &* prime
      return false
    }
    return hash
  }

  /// The hash of an attribute value as the document means it: written as `&amp;` or `&#38;`, it
  /// is the same value.
  static func value(_ bytes: [UInt8], _ range: TextRange) -> UInt64 {
    bytes.withByteView { value($0, range) }
  }

  /// The hash of the value in `bytes[range]` as the document means it.
  static func value(_ bytes: ByteView, _ range: TextRange) -> UInt64 {
    var hash = start
    let special = bytes.firstIndex(in: range.start..<range.end) { byte in
      if needsDecoding(byte) { return true }
      hash = (hash ^ UInt64(byte)) &* prime
      return false
    }
    guard let special else { return hash }
    return decoded(bytes.extracting(special..<range.end), continuing: hash)
  }

  /// `hash` continued with the decoded bytes of `raw`, the rest of an attribute value from its
  /// first reference or space character on: the bytes `XMLEscaping.decodeAttribute` makes of it,
  /// made into no string.
  static func decoded(_ raw: ByteView, continuing hash: UInt64) -> UInt64 {
    var hash = hash
    var index = 0
    while index < raw.count {
      var byte = raw[index]
      if byte == UInt8(ascii: "&"), let (scalar, length) = XMLEscaping.reference(in: raw, at: index) {
        UTF8.encode(scalar) { hash = (hash ^ UInt64($0)) &* prime }
        index += length
        continue
      }
      if byte == 0x0D {
        byte = 0x20
        // A CR LF pair is one line end, so one space.
        if index + 1 < raw.count && raw[index + 1] == 0x0A { index += 1 }
      } else if byte == 0x0A || byte == 0x09 {
        byte = 0x20
      }
      hash = (hash ^ UInt64(byte)) &* prime
      index += 1
    }
    return hash
  }

  /// Whether a value holding `byte` reads differently from its bytes (a reference, or a space
  /// character that attribute values normalize).
  @inline(__always)
  static func needsDecoding(_ byte: UInt8) -> Bool {
    byte <= UInt8(ascii: "&")
      && (byte == UInt8(ascii: "&") || byte == 0x09 || byte == 0x0A || byte == 0x0D)
  }

  /// Spreads the bits of `value` (splitmix64's finalizer).
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The attributes of a start tag that the parser found well-formed, read from the document's bytes.
enum TagAttributes {
  /// One attribute and the hashes of its name and of its value as the document means it.
  struct Hashed {
    var attribute: ItemAttribute
    var nameHash: UInt64
    var valueHash: UInt64
  }

  /// A walk over the attributes of one start tag, in source order, that hashes each name and
  /// value in the pass that finds its end.
  struct Scanner {
    private var index: Int
    private let end: Int

    /// A walk over the attributes of `item`'s start tag in `bytes`.
    @inline(__always)
    init(_ bytes: ByteView, _ item: Item) {
      self.init(bytes, tag: item.startTag, nameLength: Int(item.nameLength))
    }

    /// A walk over the attributes of the start tag `tag`, whose element name is `nameLength` bytes.
    @inline(__always)
    init(_ bytes: ByteView, tag: TextRange, nameLength: Int) {
      end = min(tag.end, bytes.count)
      index = min(tag.start + 1 + nameLength, end)
    }

    /// The next attribute, or nil after the last.
    @inline(__always)
    mutating func next(_ bytes: ByteView) -> Hashed? {
      guard index < end else { return nil }
      // To the name: past spaces; `>` or `/` ends the tag.
      guard let nameStart = bytes.firstIndex(in: index..<end, where: { $0 > 0x20 }),
        bytes[nameStart] != UInt8(ascii: ">") && bytes[nameStart] != UInt8(ascii: "/")
      else {
        index = end
        return nil
      }
      var nameHash = ContentHash.start
      let nameEnd =
        bytes.firstIndex(in: nameStart..<end) { byte in
          if byte < 0x21 || byte == UInt8(ascii: "=") { return true }
          nameHash = (nameHash ^ UInt64(byte)) &* ContentHash.prime
          return false
        } ?? end
      guard
        let quoteAt = bytes.firstIndex(
          in: nameEnd..<end, where: { !($0 < 0x21 || $0 == UInt8(ascii: "=")) }),
        bytes[quoteAt] == UInt8(ascii: "\"") || bytes[quoteAt] == UInt8(ascii: "'")
      else {
        index = end
        return nil
      }
      let quote = bytes[quoteAt]
      // The value up to its quote, or up to its first reference or space character: from there
      // it is decoded as it is hashed.
      var valueHash = ContentHash.start
      let stop =
        bytes.firstIndex(in: (quoteAt + 1)..<end) { byte in
          if byte == quote || ContentHash.needsDecoding(byte) { return true }
          valueHash = (valueHash ^ UInt64(byte)) &* ContentHash.prime
          return false
        } ?? end
      var valueEnd = stop
      if stop < end && bytes[stop] != quote {
        valueEnd = min(bytes.firstIndex(of: quote, from: stop) ?? end, end)
        valueHash = ContentHash.decoded(bytes.extracting(stop..<valueEnd), continuing: valueHash)
      }
      index = valueEnd + 1
      return Hashed(
        attribute: ItemAttribute(
          name: TextRange(start: nameStart, end: nameEnd), value: TextRange(start: quoteAt + 1, end: valueEnd)
        ),
        nameHash: nameHash, valueHash: valueHash)
    }
  }
}
