import Foundation
import OutlineCore
import Testing

@testable import OutlineJSON

@Suite struct JSONReaderTests {
  func events(_ text: String) throws(JSONSyntaxError) -> [JSONEvent] {
    var reader = JSONReader(Array(text.utf8))
    var out: [JSONEvent] = []
    while let event = try reader.next() { out.append(event) }
    return out
  }

  @Test func readsEveryKindAndKeepsNumbersAsWritten() throws {
    let result = try events(#"{"a":[1,-2.50,3e+05,true,false,null],"b":"x\"\\\/\n\u00e9\ud83d\ude00"}"#)
    #expect(
      result == [
        .objectStart, .key("a"), .arrayStart, .number("1"), .number("-2.50"), .number("3e+05"), .bool(true),
        .bool(false), .null, .arrayEnd, .key("b"), .string("x\"\\/\né😀"), .objectEnd,
      ])
  }

  @Test(arguments: [
    ("{", "Unexpected end"), ("[1,]", "Unexpected character"), ("01", "leading zeros"),
    ("\"a", "Unterminated"),
    ("{\"a\" 1}", "Expected ':'"), ("[1 2]", "Expected ',' or ']'"), ("1 2", "after the JSON value"),
    ("\"\\q\"", "Invalid escape"), ("\"\\ud800\"", "lone surrogate"), ("tru", "Invalid literal"),
  ])
  func rejectsWithAPosition(input: String, message: String) {
    do {
      _ = try events(input)
      Issue.record("accepted \(input)")
    } catch {
      #expect(error.message.contains(message), "\(error.message)")
      #expect(error.offset >= 0 && error.offset <= input.utf8.count)
    }
  }

  @Test func depthHasNoLimitAndNoRecursion() throws {
    let depth = 200_000
    var reader = JSONReader(
      Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8))
    var maximum = 0
    while try reader.next() != nil { maximum = max(maximum, reader.depth) }
    #expect(maximum == depth)
  }

  @Test func valuesParseWithABoundedDepthAndSerializeBack() throws {
    let value = try JSONValue.parse(Array(#"{"a":[1,{"b":"c"}],"d":null}"#.utf8))
    #expect(value.serialized() == #"{"a":[1,{"b":"c"}],"d":null}"#)
    #expect(throws: JSONSyntaxError.self) {
      try JSONValue.parse(Array(String(repeating: "[", count: 300).utf8))
    }
  }

  /// Strings with escapes are decoded in one pass into their storage; they
  /// must read back exactly, whether written with raw UTF-8 or, as Python's
  /// `json.dumps` does, with every non-ASCII character as `\\u` escapes.
  @Test(arguments: 0..<40)
  func escapedStringsReadBack(seed: Int) throws {
    let pieces = [
      "a", "\"", "\\", "\n", "\r\n", "\t", "\u{1}", "\u{1F}", "é", "中文", "😀", "/", " ", "<Item order=\"0\"/>",
    ]
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var text = ""
    for _ in 0..<next(200) { text += pieces[next(pieces.count)] }
    var asciiOnly = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": asciiOnly += "\\\""
      case "\\": asciiOnly += "\\\\"
      case _ where scalar.value < 0x20 || scalar.value > 0x7E:
        for unit in String(scalar).utf16 { asciiOnly += String(format: "\\u%04x", unit) }
      default: asciiOnly.unicodeScalars.append(scalar)
      }
    }
    asciiOnly += "\""
    #expect(try events(JSONText.quote(text)) == [.string(text)])
    #expect(try events(asciiOnly) == [.string(text)])
  }

  @Test func quotingEscapesOnlyWhatJSONNeeds() {
    #expect(JSONText.quote("a\"b\\c\nd\u{1}é😀") == #""a\"b\\c\nd\u0001é😀""#)
  }
}
