import OutlineJSON
import Testing

/// Long strings (a document's text in a `didOpen`) are checked and decoded in
/// one pass, on two cores past 9 MiB: the bytes and the errors are those of
/// the token reader's scan followed by its decoding, whatever the string holds
/// and wherever it is split.
@Suite struct JSONLongStringTests {
  /// What the token reader makes of `text`: the decoded bytes of each string
  /// value in order, or its error.
  static func reference(_ text: [UInt8]) -> Result<[[UInt8]], JSONSyntaxError> {
    var reader = JSONReader(text)
    var strings: [[UInt8]] = []
    do {
      while let token = try reader.nextToken() {
        if token.kind == .string { strings.append(reader.utf8(token)) }
      }
      return .success(strings)
    } catch {
      return .failure(error)
    }
  }

  /// What a message parse makes of `text`: the bytes of each string value in order, or its error.
  static func parsed(_ text: [UInt8]) -> Result<[[UInt8]], JSONSyntaxError> {
    do {
      let value = try JSONValue.parse(text)
      var strings: [[UInt8]] = []
      var stack = [value]
      while let next = stack.popLast() {
        switch next {
        case .object(let members): stack += members.map(\.1).reversed()
        case .array(let items): stack += items.reversed()
        case .string, .utf8: strings.append(next.utf8Value!)
        default: break
        }
      }
      return .success(strings)
    } catch {
      return .failure(error)
    }
  }

  static func message(_ text: [UInt8]) -> [UInt8] {
    Array(
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","#.utf8)
      + Array(#""version":1,"text" : "#.utf8) + text + Array(#","languageId":"outline"}}}"#.utf8)
  }

  /// A JSON string literal of about `count` bytes of XML-like text with every kind of escape.
  static func literal(count: Int, piece: String) -> [UInt8] {
    var out: [UInt8] = [0x22]
    let bytes = Array(piece.utf8)
    while out.count < count { out += bytes }
    return out + [0x22]
  }

  static let piece = #"<Item xml:id=\"i1\" title=\"caf\u00e9 \ud83d\ude00 😀 a\\b\/c\tq\"/>\n"#

  @Test(arguments: [5_000, 300_000, 1 << 20 + 7])
  func decodedAsTheTokenReaderDoes(count: Int) throws {
    let text = Self.message(Self.literal(count: count, piece: Self.piece))
    let expected = try Self.reference(text).get()
    #expect(try Self.parsed(text).get() == expected)
    let longest = expected.max { $0.count < $1.count }!
    #expect(longest.count > count / 2)
    #expect(
      String(decoding: longest.prefix(60), as: UTF8.self).hasPrefix(
        "<Item xml:id=\"i1\" title=\"café 😀 😀 a\\b/c\tq\"/>\n"))
  }

  @Test func aHugeStringIsSplitAndJoinedAtEveryKindOfEscape() throws {
    // Past 9 MiB the second half is decoded on another core: the pieces are of
    // several lengths, so the split falls on every position of an escape.
    for shift in 0..<8 {
      let piece = String(repeating: "x", count: shift) + Self.piece + #"\\\\\"\u0041\\"#
      let text = Self.message(Self.literal(count: 10 << 20, piece: piece))
      let expected = try Self.reference(text).get()
      let decoded = try Self.parsed(text).get()
      #expect(decoded.count == expected.count)
      #expect(decoded == expected, "shift \(shift)")
    }
  }

  @Test(arguments: [
    (#"\ud800x"#, "Invalid \\u escape (lone surrogate)"),
    (#"\udc00"#, "Invalid \\u escape (lone surrogate)"),
    (#"\ud800\u0041"#, "Invalid surrogate pair"),
    (#"\u12G4"#, "Invalid \\u escape"),
    (#"\x"#, "Invalid escape '\\x'"),
    ("\u{1}", "Control character in a string"),
  ])
  func errorsAreTheTokenReaders(bad: String, message: String) {
    for (count, at) in [(5_000, 4_000), (2 << 20, 1 << 19), (10 << 20, 7 << 20), (10 << 20, 3 << 20)] {
      var literal = Self.literal(count: count, piece: "ab\\\"cd ")
      // Inserted after a whole piece, so never inside an escape.
      let position = at - at % 7 + 1
      literal.insert(contentsOf: Array(bad.utf8), at: position)
      let text = Self.message(literal)
      guard case .failure(let expected) = Self.reference(text) else {
        Issue.record("the reference accepted \(bad)")
        continue
      }
      #expect(expected.message == message)
      #expect(Self.parsed(text).failureValue == expected, "\(bad) at \(at) of \(count)")
    }
  }

  @Test(arguments: [5_000, 10 << 20])
  func anUnterminatedStringIsReportedAtItsQuote(count: Int) {
    var literal = Self.literal(count: count, piece: "ab\\\"cd ")
    literal.removeLast()
    let text = Array(#"{"text":"#.utf8) + literal
    let result = Self.parsed(text)
    #expect(result.failureValue == Self.reference(text).failureValue)
    #expect(result.failureValue?.message == "Unterminated string")
    #expect(result.failureValue?.offset == 8)
    let backslashLast = Array(#"{"text":"#.utf8) + literal.dropLast() + [0x5C]
    #expect(Self.parsed(backslashLast).failureValue == Self.reference(backslashLast).failureValue)
  }

  @Test func invalidUTF8PassesThroughAsBytes() throws {
    // Bytes that are not UTF-8 are the document's: whoever reads them as text checks them.
    var literal = Self.literal(count: 3 << 20, piece: "ab\\\"cd ")
    literal.insert(contentsOf: [0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80], at: 2 << 20)
    let text = Self.message(literal)
    let decoded = try Self.parsed(text).get()
    #expect(decoded == (try Self.reference(text).get()))
    #expect(decoded.contains { $0.contains(0xFF) })
  }

  @Test func aLongStringFollowedByMoreMembersAndAShortOne() throws {
    // The split's second half runs past the string's end into the message; what it found there is dropped.
    let long = Self.literal(count: 9 << 20 + 5, piece: "ab\\\"cd ")
    let text =
      Array(#"{"a":"#.utf8) + long + Array(#","b":["x\"y",1,"#.utf8)
      + Self.literal(count: 5_000, piece: "é\\n")
      + Array(#"],"c":"\u00e9"}"#.utf8)
    let decoded = try Self.parsed(text).get()
    #expect(decoded == (try Self.reference(text).get()))
    #expect(decoded.count == 4)
  }

  @Test func manyLongStringsInOneMessageKeepNoMoreThanTheirSize() throws {
    // Each long string is decoded into room for the rest of the message, then fitted.
    let strings = (0..<50).map { _ in Self.literal(count: 20_000, piece: "ab\\\"cd ") }
    let text = Array("[".utf8) + strings.joined(separator: Array(",".utf8)) + Array("]".utf8)
    let items = try #require(try JSONValue.parse(text).arrayValue)
    #expect(items.count == 50)
    for item in items {
      let bytes = try #require(item.utf8Value)
      #expect(bytes.count > 15_000)
      #expect(bytes.capacity < bytes.count + max(bytes.count / 8, 1 << 16) + 4096)
    }
  }

  @Test func aShortStringAtTheEndOfALargeMessageIsNotLong() throws {
    // A string that ends within 4 KiB is read the usual way even with megabytes after it.
    let text =
      Array(#"{"a":"short","b":"#.utf8) + Self.literal(count: 2 << 20, piece: "x\\ty") + Array("}".utf8)
    #expect(try Self.parsed(text).get() == (try Self.reference(text).get()))
  }
}

extension Result {
  fileprivate var failureValue: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
