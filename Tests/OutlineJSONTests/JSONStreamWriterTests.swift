import Testing

@testable import OutlineJSON

/// ``JSONStreamWriter`` writes the bytes ``JSONValue/serialized(indent:)`` writes for the same
/// document, whatever the pieces it hands out, and hands them out as it goes.
@Suite struct JSONStreamWriterTests {
  /// SplitMix64: the cases are the same on every run; a failure names its case.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Characters that need escapes or are more than one byte.
  static let alphabet: [Character] = [
    "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "é", "☕",
    "😀",
    "\u{2028}", "\u{85}",
  ]

  static func text(_ random: inout Generator) -> String {
    String((0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
  }

  /// A random value of at most `depth` levels, with empty containers among them.
  static func value(_ random: inout Generator, depth: Int) -> JSONValue {
    switch Int.random(in: 0...(depth > 0 ? 7 : 4), using: &random) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2:
      return .int(
        Int.random(in: -1_000_000...1_000_000, using: &random) * (Bool.random(using: &random) ? 1 : 1000))
    case 3: return .int([0, 9, 10, -1, -10, Int.max, Int.min].randomElement(using: &random)!)
    case 4: return .string(text(&random))
    case 5, 6:
      return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth - 1) })
    default:
      return .object(
        (0..<Int.random(in: 0...4, using: &random)).map { _ in
          (text(&random), value(&random, depth: depth - 1))
        })
    }
  }

  /// The writer's bytes for `value`, and the sizes of the pieces it handed out.
  static func streamed(_ value: JSONValue, indent: Int, chunkSize: Int) -> (bytes: [UInt8], pieces: [Int]) {
    var out: [UInt8] = []
    var pieces: [Int] = []
    var writer = JSONStreamWriter(indent: indent, chunkSize: chunkSize) {
      out += $0
      pieces.append($0.count)
    }
    writer.value(value)
    writer.finish()
    return (out, pieces)
  }

  @Test func everyDocumentIsLaidOutAsSerializedLaysItOut() {
    var random = Generator(state: 0x6a73_6f6e)
    for index in 0..<400 {
      let document = Self.value(&random, depth: 5)
      let indent = [0, 2, 4].randomElement(using: &random)!
      let chunkSize = Int.random(in: 1...128, using: &random)
      let streamed = Self.streamed(document, indent: indent, chunkSize: chunkSize).bytes
      let expected = document.serializedBytes(indent: indent)
      #expect(
        streamed == expected,
        "case \(index), indent \(indent): \(String(decoding: streamed, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))"
      )
      if streamed != expected { return }
    }
  }

  @Test func membersWrittenOneByOneMatchTheValue() {
    var out: [UInt8] = []
    var writer = JSONStreamWriter { out += $0 }
    writer.beginObject()
    writer.member("name", "q\"\\\u{1}\t\n é ☕")
    writer.member("count", -12)
    writer.key("none")
    writer.beginArray()
    writer.endArray()
    writer.key("empty")
    writer.beginObject()
    writer.endObject()
    writer.key("flags")
    writer.beginArray()
    writer.bool(true)
    writer.bool(false)
    writer.endArray()
    writer.endObject()
    writer.raw([0x0A])
    writer.finish()
    let value: JSONValue = [
      "name": "q\"\\\u{1}\t\n é ☕", "count": -12, "none": [], "empty": [:], "flags": [true, false],
    ]
    #expect(String(decoding: out, as: UTF8.self) == value.serialized(indent: 2) + "\n")
    #expect(String(decoding: out, as: UTF8.self).contains(#""q\"\\\u0001\t\n é ☕""#))
  }

  /// The bytes leave in pieces of about the chunk size while the document is written: a
  /// long document is never held whole.
  @Test func piecesLeaveAsTheDocumentIsWritten() {
    var pieces: [Int] = []
    var writer = JSONStreamWriter(chunkSize: 1024) { pieces.append($0.count) }
    writer.beginArray()
    for index in 0..<10_000 {
      writer.beginObject()
      writer.member("index", index)
      writer.member("text", "a line of text")
      writer.endObject()
    }
    #expect(pieces.count > 50, "pieces handed out before the end")
    #expect(writer.buffer.count < 1024 + 64)
    writer.endArray()
    writer.finish()
    #expect(pieces.allSatisfy { $0 < 1024 + 64 })
  }
}
