import OutlineCore
import OutlineJSON
import OutlineXML
import Testing

@testable import OutlineConvert

/// `ObjectHead.appendString` reads a value eight bytes at a time and its tail as the eight bytes that end it:
/// a byte that needs work is found at every position, in values of every length around a word's.
@Suite struct ObjectHeadStringTests {
  @Test(arguments: ["&amp;", "&#233;", "&lt;", "\"", "\\", "\t", "\r\n", "\u{1}", "&#x1F600;", "é", "#", "'"])
  func aByteNeedingWorkIsFoundAtEveryPosition(special: String) {
    for length in 0...20 {
      for position in 0...length {
        for second in [nil, "&quot;", "\\"] as [String?] {
          var raw =
            String(repeating: "a", count: position) + special
            + String(repeating: "b", count: length - position)
          if let second { raw += second + "c" }
          let bytes = Array(raw.utf8)
          var direct = ByteOutput(capacity: 16)
          defer { direct.free() }
          bytes.withUnsafeBufferPointer { ObjectHead.appendString($0, to: &direct) }
          #expect(
            String(decoding: direct.buffer, as: UTF8.self)
              == JSONText.quote(XMLEscaping.decodeAttribute(bytes)),
            "\(raw)")
        }
      }
    }
  }
}
