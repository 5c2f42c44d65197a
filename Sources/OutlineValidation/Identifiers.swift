import OutlineCore
import OutlineXML

/// Ids are NCNames (OL510): `xml:id` values and every id a relationship names.
public enum IDNames {
  /// Whether the raw attribute bytes `raw` spell an NCName; ASCII names are
  /// checked on the bytes, anything else after decoding.
  public static func isValid(raw: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = raw.first else { return false }
    if isASCIINameStart(first) && isASCIIName(raw) { return true }
    if raw.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "&") }) { return false }
    return XMLName.isNCName(XMLEscaping.decodeAttribute(raw))
  }

  /// An NCName made from `id` (each character a name cannot hold becomes
  /// `_`, and `_` goes first when the first cannot start one), made unique
  /// against `taken` with `-2`, `-3`...; nil when nothing of `id` would be
  /// kept (an empty id, or one made only of such characters).
  public static func derive(from id: String, taken: Set<String>) -> String? {
    var kept = false
    var scalars = String.UnicodeScalarView()
    for scalar in id.unicodeScalars {
      let allowed =
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_"
        || scalar == "-" || scalar == "."
      scalars.append(allowed ? scalar : "_")
      kept = kept || allowed
    }
    guard kept else { return nil }
    var name = String(scalars)
    if !XMLName.isNCName(name) { name = "_" + name }
    guard XMLName.isNCName(name) else { return nil }
    var candidate = name
    var suffix = 2
    while taken.contains(candidate) {
      candidate = "\(name)-\(suffix)"
      suffix += 1
    }
    return candidate
  }

  /// Whether every byte of `raw` is an ASCII name character (a letter, a digit, `_`, `-` or
  /// `.`), eight at a time: an id is checked on every `xml:id` of a lint.
  @inline(__always)
  static func isASCIIName(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = raw.baseAddress else { return true }
    let count = raw.count
    guard count >= 8 else { return raw.allSatisfy(isASCIINameCharacter) }
    var index = 0
    while index + 8 <= count {
      if !isASCIINameWord(WordScan.load(base + index)) { return false }
      index += 8
    }
    return index == count || isASCIINameWord(WordScan.load(base + count - 8))
  }

  /// Whether each of the eight bytes of `word` is an ASCII name character: for ASCII bytes,
  /// `byte + (0x80 - low)` has its high bit set when the byte is at least `low`, and
  /// `byte + (0x7F - high)` when it is above `high` (no sum carries into the next byte).
  @inline(__always)
  private static func isASCIINameWord(_ word: UInt64) -> Bool {
    let highs = WordScan.highs
    guard word & highs == 0 else { return false }
    @inline(__always) func within(_ low: UInt8, _ high: UInt8) -> UInt64 {
      let atLeast = word &+ WordScan.ones &* UInt64(0x80 - low)
      let above = word &+ WordScan.ones &* UInt64(0x7F - high)
      return atLeast & ~above & highs
    }
    let allowed =
      within(0x30, 0x39) | within(0x41, 0x5A) | within(0x61, 0x7A) | within(0x2D, 0x2E) | within(0x5F, 0x5F)
    return allowed == highs
  }

  private static func isASCIINameStart(_ byte: UInt8) -> Bool {
    (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
  }

  private static func isASCIINameCharacter(_ byte: UInt8) -> Bool {
    isASCIINameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
  }
}

extension OutlineValidator {
  /// Reports an `xml:id` value that is not an NCName (OL510).
  func checkIDName(_ raw: UnsafeBufferPointer<UInt8>, range: TextRange) {
    guard !IDNames.isValid(raw: raw) else { return }
    report(
      .idNotName,
      "The id \(Excerpt.quoted(XMLEscaping.decodeAttribute(raw))) is not an XML name (a letter or _ first, then letters, digits, _, - or .)",
      at: range)
  }

  /// Reports each id named by the relationship value `raw` that is not an NCName (OL510).
  func checkReferenceNames(_ raw: UnsafeBufferPointer<UInt8>, range: TextRange, relationship: String) {
    var index = 0
    while index < raw.count {
      while index < raw.count && XMLName.isSpace(raw[index]) { index += 1 }
      let start = index
      while index < raw.count && !XMLName.isSpace(raw[index]) { index += 1 }
      guard index > start else { continue }
      let token = UnsafeBufferPointer(rebasing: raw[start..<index])
      if !IDNames.isValid(raw: token) {
        report(
          .idNotName,
          "\(Excerpt.quoted(relationship)) names \(Excerpt.quoted(XMLEscaping.decodeAttribute(token))), which is not an XML name",
          at: TextRange(start: range.start + start, end: range.start + index))
      }
    }
  }
}
